"""Mail map benchmark: where the CPU of a report's PNG goes (campaigns/mailout/pictures.py).

Run: python bench/mail_maps.py [--runs N]. No database, no services. The maps are the mail crops
(``render_svg(view, crop=True)``) of new games: Civil War as bench/load.py plays it (red's and
the umpire's report), Kriegspiel and Little Wars (red's). For each map, in CPU milliseconds
(process time, so a shared machine's other load counts little; medians of N runs):
``svg`` the rule set's drawing, ``raster`` libvips' rasterising alone, ``no_text`` the same
without the map's <text> elements (the labels' share: it grows with their characters),
``at_075`` rasterising at scale 0.75 (what a smaller picture would save), ``old`` the PNG as
pictures.draw made it before (zlib level 6, libvips' default), ``new`` pictures.draw now (level
3; for a map with a board layer, the board drawn once and kept, and the view laid over it),
``whole`` the same map drawn whole at level 3 (as before the board layer), ``cairo`` the cairosvg
fallback; then the PNG's bytes, old and new. Ends with one key=value line (the sums over the maps).
No assertions: figures only.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kriegsbrief.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")

import django

django.setup()  # pictures imports the models; nothing here touches the database

from campaigns.mailout import pictures
from rules import catalog
from rules.core.protocol import Viewer

MAPS = [
    ("civilwar", "player", "red"),
    ("civilwar", "umpire", None),
    ("kriegspiel", "player", "red"),
    ("littlewars", "player", "red"),
]


def cpu_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def old_draw(svg: str) -> bytes:
    """pictures.draw before this benchmark: libvips' defaults (RGBA, zlib level 6)."""
    return pictures.pyvips.Image.svgload_buffer(svg.encode()).write_to_buffer(".png")


def a_map(ruleset: str, role: str, side: str | None) -> str:
    rs = catalog.get(ruleset)
    state = rs.set_up(rs.load_scenario(None), random.Random(1))
    return rs.render_svg(rs.view(state, Viewer(role=role, side=side)), crop=True)


def measure(ruleset: str, role: str, side: str | None, runs: int) -> dict[str, float]:
    """One map's figures (printed); the row of numbers for the totals."""
    vips = pictures.pyvips
    svg = a_map(ruleset, role, side)
    old, new = old_draw(svg), pictures.draw(svg)
    size = vips.Image.new_from_buffer(new, "")
    bare = re.sub(r"<text\b.*?</text>", "", svg, flags=re.S).encode()
    row = {
        "svg": cpu_ms(lambda: a_map(ruleset, role, side), runs),
        "raster": cpu_ms(lambda: vips.Image.svgload_buffer(svg.encode()).copy_memory(), runs),
        "no_text": cpu_ms(lambda: vips.Image.svgload_buffer(bare).copy_memory(), runs),
        "at_075": cpu_ms(lambda: vips.Image.svgload_buffer(svg.encode(), scale=0.75).copy_memory(), runs),
        "old": cpu_ms(lambda: old_draw(svg), runs),
        "whole": cpu_ms(lambda: pictures._raster(svg), runs),
        "new": cpu_ms(lambda: pictures.draw(svg), runs),
        "cairo": cpu_ms(lambda: pictures.cairosvg.svg2png(bytestring=svg.encode()), max(3, runs // 5)),
        "old_kb": len(old) / 1024,
        "new_kb": len(new) / 1024,
    }
    texts = len(re.findall(r"<text\b", svg))
    print(
        f"{ruleset}/{side or role}: {size.width}x{size.height} px, {svg.count('<')} elements ({texts} texts); "
        + ", ".join(f"{k} {v:.1f}" for k, v in row.items())
    )
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    vips = pictures.pyvips
    totals = dict.fromkeys(
        ("svg", "raster", "no_text", "at_075", "old", "whole", "new", "cairo", "old_kb", "new_kb"), 0.0
    )
    print(f"libvips {vips.version(0)}.{vips.version(1)}.{vips.version(2)}; CPU ms, medians of {args.runs} runs")
    for ruleset, role, side in MAPS:
        row = measure(ruleset, role, side, args.runs)
        for key, value in row.items():
            totals[key] += value
    print(f"text's share of rasterising: {1 - totals['no_text'] / totals['raster']:.0%}")
    print(
        f"old/new PNG time: {totals['old'] / totals['new']:.2f}x; whole/new: {totals['whole'] / totals['new']:.2f}x; "
        f"cairosvg/new: {totals['cairo'] / totals['new']:.2f}x"
    )
    print(" ".join(f"{k}_ms={v:.1f}" if not k.endswith("_kb") else f"{k}={v:.0f}" for k, v in totals.items()))


if __name__ == "__main__":
    main()

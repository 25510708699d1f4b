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
fallback; then the PNG's bytes, old and new (``new``: the palette PNG at most MAX_WIDTH wide, issue
30), and the whole report's bytes (``mail_old_kb``: the RGBA level-3 map twice, inline and attached,
as before issue 30; ``mail_new_kb``: the map once, inline). Ends with one key=value line (the sums
over the maps) and one with the reports' median and largest size. No assertions: figures only.
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
    ("kriegspiel", "umpire", None),  # the whole table: the largest mail map (issue 30)
    ("littlewars", "player", "red"),
    ("kingsofwar", "player", "red"),
    ("napoleon", "player", "red"),
    ("warworlds", "player", "red"),
]
# A report's text and HTML besides its map (a Civil War turn-1 report with its help, ~9 kB).
REPORT_TEXT = "x" * 4500


def cpu_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def report_kb(png: bytes, twice: bool) -> float:
    """A report's flattened size with this map: inline in the HTML, and attached too if ``twice``."""
    from campaigns.mailout.mapmail import MapMail

    msg = MapMail("s", REPORT_TEXT, "umpire@example.org", ["red@example.org"], inline_map=("map.png", png, "image/png"))
    msg.attach_alternative(f"<p>{REPORT_TEXT}</p>", "text/html")
    if twice:
        msg.attach("map.png", png, "image/png")
    return len(msg.message().as_bytes(linesep="\r\n")) / 1024


def before_30(svg: str) -> bytes:
    """The mail map before issue 30: RGBA at zlib level 3, one pixel per SVG unit however wide."""
    return pictures.pyvips.Image.svgload_buffer(svg.encode()).write_to_buffer(".png", compression=3)


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
        "mail_old_kb": report_kb(before_30(svg), twice=True),
        "mail_new_kb": report_kb(new, twice=False),
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
    names = ("svg", "raster", "no_text", "at_075", "old", "whole", "new", "cairo", "old_kb", "new_kb")
    totals = dict.fromkeys((*names, "mail_old_kb", "mail_new_kb"), 0.0)
    reports: dict[str, list[float]] = {"old": [], "new": []}
    print(f"libvips {vips.version(0)}.{vips.version(1)}.{vips.version(2)}; CPU ms, medians of {args.runs} runs")
    for ruleset, role, side in MAPS:
        row = measure(ruleset, role, side, args.runs)
        for key, value in row.items():
            totals[key] += value
        reports["old"].append(row["mail_old_kb"])
        reports["new"].append(row["mail_new_kb"])
    print(f"text's share of rasterising: {1 - totals['no_text'] / totals['raster']:.0%}")
    print(
        f"old/new PNG time: {totals['old'] / totals['new']:.2f}x; whole/new: {totals['whole'] / totals['new']:.2f}x; "
        f"cairosvg/new: {totals['cairo'] / totals['new']:.2f}x"
    )
    print(" ".join(f"{k}_ms={v:.1f}" if not k.endswith("_kb") else f"{k}={v:.0f}" for k, v in totals.items()))
    print(
        " ".join(
            f"report_{when}_median_kb={statistics.median(kb):.0f} report_{when}_max_kb={max(kb):.0f}"
            for when, kb in reports.items()
        )
    )


if __name__ == "__main__":
    main()

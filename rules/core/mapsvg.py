"""What every map SVG shares: the contract's data attributes (MAPS.md), the crop to a viewer's
own troops, and a label placer that keeps labels from overlapping.

Pure string and geometry helpers; a rule set's render.py draws its own map with them.
"""
from __future__ import annotations

import re
from html import escape
from typing import Iterable, Sequence

Box = tuple[float, float, float, float]  # x, y, w, h in the SVG's user units


def data(**attrs) -> str:
    """` data-a-b="v"` for each ``a_b=v`` not None (escaped); numbers without needless decimals."""
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, float):
            value = f"{value:.2f}".rstrip("0").rstrip(".")
        out.append(f' data-{key.replace("_", "-")}="{escape(str(value))}"')
    return "".join(out)


def order_name(thing_id: str) -> str:
    """The name an order uses for a thing the state keys by side (``red:gun1`` -> ``gun1``)."""
    return thing_id.split(":")[-1]


# --- the crop to one's own troops ------------------------------------------------------

def crop_box(points: Iterable[tuple[float, float]], width: float, depth: float, margin: float,
             aspect: float | None = None) -> Box | None:
    """The box (SVG user units, y down) round table points ``points`` (table inches, y up) plus
    ``margin``, clipped to the table; widened to ``aspect`` (w/h) where the table allows, so a
    picture of it is not a sliver. None without points. Only the caller's points count: pass
    the viewer's own troops, never anything of the enemy."""
    pts = list(points)
    if not pts:
        return None
    x0 = max(0.0, min(x for x, _ in pts) - margin)
    x1 = min(width, max(x for x, _ in pts) + margin)
    y0 = max(0.0, depth - max(y for _, y in pts) - margin)
    y1 = min(depth, depth - min(y for _, y in pts) + margin)
    if aspect:
        x0, x1 = _widen(x0, x1, (y1 - y0) * aspect, width)
        y0, y1 = _widen(y0, y1, (x1 - x0) / aspect, depth)
    return (round(x0, 2), round(y0, 2), round(x1 - x0, 2), round(y1 - y0, 2))


def _widen(lo: float, hi: float, want: float, limit: float) -> tuple[float, float]:
    """[lo, hi] grown about its middle to ``want`` long, kept inside [0, limit]."""
    if hi - lo >= want:
        return lo, hi
    want = min(want, limit)
    mid = (lo + hi) / 2
    lo = min(max(0.0, mid - want / 2), limit - want)
    return lo, lo + want


def box_attr(box: Box | None) -> str | None:
    return None if box is None else " ".join(f"{v:g}" for v in box)


_ROOT = re.compile(r"<svg\b[^>]*>")


def cropped(svg: str, max_px: float = 1600.0) -> str:
    """The SVG with its root viewBox set to its ``data-mine`` box (and width/height to match,
    ``max_px`` the longer side); unchanged without one. The mail's picture of a large table."""
    root = _ROOT.search(svg)
    mine = root and re.search(r'data-mine="([^"]+)"', root.group(0))
    if not mine:
        return svg
    x, y, w, h = (float(v) for v in mine.group(1).split())
    scale = max_px / max(w, h)
    tag = root.group(0)
    for name, value in (("viewBox", f"{x:g} {y:g} {w:g} {h:g}"), ("width", f"{w * scale:.0f}"),
                        ("height", f"{h * scale:.0f}")):
        tag = re.sub(rf'\s{name}="[^"]*"', f' {name}="{value}"', tag, count=1)
    return svg[:root.start()] + tag + svg[root.end():]


# --- labels without collisions -------------------------------------------------------------

CHAR_WIDTH = 0.6  # DejaVu Sans: a character is about 0.6 of the font size wide on average


def text_box(x: float, y: float, size: float, text: str, anchor: str = "middle") -> Box:
    """The box a one-line label takes (baseline at ``y``): the estimate the placer and tests share."""
    w = CHAR_WIDTH * size * max(1, len(text))
    left = x - w / 2 if anchor == "middle" else (x - w if anchor == "end" else x)
    return (left, y - 0.8 * size, w, size)


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


class LabelPlacer:
    """Greedy label placement: each label tries a few spots round its anchor (above, below,
    right, left, then further out) and takes the first that overlaps no label placed before
    and no box it was told to keep clear; a label with no free spot is left out (listed in
    ``dropped``) rather than drawn over another. Labels given first win, so callers pass the
    important ones first. Hand-written (about forty lines) because the libraries that do this
    (adjustText and the like) need matplotlib and iterate forces; a few dozen labels a map
    need no more than this."""

    def __init__(self, bounds: Box | None = None, keep_clear: Sequence[Box] = ()):
        self.bounds = bounds
        self.placed: list[Box] = list(keep_clear)
        self.labels: list[Box] = []
        self.dropped: list[str] = []

    def place(self, x: float, y: float, text: str, size: float, gap: float) -> tuple[float, float, str] | None:
        """Where to draw ``text`` near (x, y): (x, y, anchor) of a free spot, or None."""
        for ring in (1, 2, 3.5):
            d = gap * ring
            for cx, cy, anchor in ((x, y - d, "middle"), (x, y + d + 0.8 * size, "middle"),
                                   (x + d, y + 0.3 * size, "start"), (x - d, y + 0.3 * size, "end"),
                                   (x + d, y - d, "start"), (x - d, y - d, "end"),
                                   (x + d, y + d + 0.8 * size, "start"), (x - d, y + d + 0.8 * size, "end")):
                box = text_box(cx, cy, size, text, anchor)
                if self._free(box):
                    self.placed.append(box)
                    self.labels.append(box)
                    return cx, cy, anchor
        self.dropped.append(text)
        return None

    def _free(self, box: Box) -> bool:
        if self.bounds is not None:
            bx, by, bw, bh = self.bounds
            if box[0] < bx or box[1] < by or box[0] + box[2] > bx + bw or box[1] + box[3] > by + bh:
                return False
        return not any(overlap(box, other) for other in self.placed)


def label(placer: LabelPlacer, x: float, y: float, text: str, size: float, gap: float, fill: str = "#222",
          css: str = "label", weight: str = "normal") -> str:
    """A placed ``<text class="label">`` (empty if no spot is free)."""
    spot = placer.place(x, y, text, size, gap)
    if spot is None:
        return ""
    tx, ty, anchor = spot
    return (f'<text class="{css}" x="{tx:.2f}" y="{ty:.2f}" font-size="{size:g}" text-anchor="{anchor}" '
            f'fill="{fill}" font-weight="{weight}">{escape(text)}</text>')

"""What every map SVG shares: the contract's data attributes (MAPS.md), the box round a viewer's
own troops ("my troops", the mail's crop), and a label placer that keeps labels from overlapping.

Pure string and geometry helpers; a rule set's render.py draws its own map with them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from .fontwidth import text_width

Box = tuple[float, float, float, float]  # x, y, w, h in the SVG's user units


def data(**attrs: object) -> str:
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


# The board layer (MAPS.md, "The board layer"): the first child of the root, closed by the comment,
# so a mail's picture can draw it once and lay each view over it without parsing the SVG.
BOARD_OPEN = '<g data-layer="board">'
BOARD_CLOSE = "</g><!--/board-->"


def board_layer(parts: Iterable[str]) -> str:
    """The drawing of the board alone: what the board and the language fix and no view changes
    (ground, roads, place names, the title and the key). Drawn first, so the view lies over it."""
    return BOARD_OPEN + "".join(parts) + BOARD_CLOSE


def order_name(thing_id: str) -> str:
    """The name an order uses for a thing the state keys by side (``red:gun1`` -> ``gun1``)."""
    return thing_id.split(":")[-1]


# --- the crop to one's own troops ------------------------------------------------------


def crop_box(
    points: Iterable[tuple[float, float]], width: float, depth: float, margin: float, aspect: float | None = None
) -> Box | None:
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


# --- labels without collisions -------------------------------------------------------------


def text_box(x: float, y: float, size: float, text: str, anchor: str = "middle", weight: str = "normal") -> Box:
    """The box a one-line label takes (baseline at ``y``): the estimate the placer and tests share,
    from DejaVu Sans's own advances (fontwidth.py), so a Cyrillic or bold label is as wide as drawn."""
    w = max(text_width(text, size, weight), 0.6 * size)
    left = x - w / 2 if anchor == "middle" else (x - w if anchor == "end" else x)
    return (left, y - 0.8 * size, w, size)


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


class LabelPlacer:
    """Greedy label placement: each label tries a few spots round its anchor (above, below,
    right, left, the corners, then a line further out each time) and takes the first that overlaps no label placed before
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

    def place(
        self, x: float, y: float, text: str, size: float, gap: float, around: Box | None = None, weight: str = "normal"
    ) -> tuple[float, float, str] | None:
        """Where to draw ``text`` near (x, y), or round the box ``around`` (a piece of terrain: on it
        where it fits, else beside it): (x, y, anchor) of a free spot, or None."""
        bx, by, bw, bh = around or (x, y, 0.0, 0.0)
        if around is not None:  # on the piece itself, if the text fits inside it
            inside = text_box(bx + bw / 2, by + bh / 2 + 0.3 * size, size, text, weight=weight)
            if inside[2] <= bw and inside[3] <= bh and self._take(inside):
                return bx + bw / 2, by + bh / 2 + 0.3 * size, "middle"
        mx, my = bx + bw / 2, by + bh / 2
        beside = []
        if bh > 3 * bw:  # a tall, thin thing (a road or river running north): beside it, along it, first
            steps = [k * 1.5 * size for k in (0, 1, -1, 2, -2, 4, -4, 8, -8) if abs(k * 1.5 * size) < bh / 2]
            beside = [
                (x, my + dy + 0.3 * size, a) for dy in steps for x, a in ((bx + bw + gap, "start"), (bx - gap, "end"))
            ]
        for cx, cy, anchor in beside:
            if self._take(text_box(cx, cy, size, text, anchor, weight)):
                return cx, cy, anchor
        for ring in (0, 1, 2, 3.5, 5, 7, 10):  # further out a line of text at a time
            d = gap + size * ring
            top, bottom, left, right = by - d, by + bh + d + 0.8 * size, bx - d, bx + bw + d
            for cx, cy, anchor in (
                (mx, top, "middle"),
                (mx, bottom, "middle"),
                (right, my + 0.3 * size, "start"),
                (left, my + 0.3 * size, "end"),
                (right, top, "start"),
                (left, top, "end"),
                (right, bottom, "start"),
                (left, bottom, "end"),
            ):
                if self._take(text_box(cx, cy, size, text, anchor, weight)):
                    return cx, cy, anchor
        self.dropped.append(text)
        return None

    def _take(self, box: Box) -> bool:
        if not self._free(box):
            return False
        self.placed.append(box)
        self.labels.append(box)
        return True

    def _free(self, box: Box) -> bool:
        if self.bounds is not None:
            bx, by, bw, bh = self.bounds
            if box[0] < bx or box[1] < by or box[0] + box[2] > bx + bw or box[1] + box[3] > by + bh:
                return False
        pad = 0.1 * box[3]  # a little air between labels (and room for the drawn coordinates' rounding)
        loose = (box[0] - pad, box[1] - pad, box[2] + 2 * pad, box[3] + 2 * pad)
        return not any(overlap(loose, other) for other in self.placed)


def label(
    placer: LabelPlacer,
    x: float,
    y: float,
    text: str,
    size: float,
    gap: float,
    fill: str = "#222",
    css: str = "label",
    weight: str = "normal",
    around: Box | None = None,
    halo: str = "#fff",
) -> str:
    """A placed ``<text class="label">`` (empty if no spot is free) on a faint ``halo`` of its box,
    so that it reads over lines and terrain."""
    spot = placer.place(x, y, text, size, gap, around, weight)
    if spot is None:
        return ""
    tx, ty, anchor = spot
    out = (
        f'<text class="{css}" x="{tx:.2f}" y="{ty:.2f}" font-size="{size:g}" text-anchor="{anchor}" '
        f'fill="{fill}" font-weight="{weight}">{escape(text)}</text>'
    )
    bx, by, bw, bh = placer.labels[-1]
    back = (
        (
            f'<rect class="halo" x="{bx:.2f}" y="{by:.2f}" width="{bw:.2f}" height="{bh:.2f}" rx="{bh * 0.2:.2f}" '
            f'fill="{halo}" fill-opacity="0.7"/>'
        )
        if halo
        else ""
    )
    return _leader(placer.labels[-1], around or (x, y, 0.0, 0.0), size, fill) + back + out


def _leader(box: Box, target: Box, size: float, colour: str) -> str:
    """A thin line from a label pushed away from what it names back to it (none when it sits close)."""
    lx = min(max(target[0] + target[2] / 2, box[0]), box[0] + box[2])
    ly = min(max(target[1] + target[3] / 2, box[1]), box[1] + box[3])
    tx = min(max(lx, target[0]), target[0] + target[2])
    ty = min(max(ly, target[1]), target[1] + target[3])
    if ((lx - tx) ** 2 + (ly - ty) ** 2) ** 0.5 < 1.5 * size:
        return ""
    return (
        f'<line class="leader" x1="{lx:.2f}" y1="{ly:.2f}" x2="{tx:.2f}" y2="{ty:.2f}" stroke="{colour}" '
        f'stroke-width="{size * 0.06:.3f}" stroke-opacity="0.7"/>'
    )

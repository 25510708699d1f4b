"""The parts every table map (inches, y up) draws alike: the frame of the drawn region with its
rulers in inches, deployment zones and the legend under the map.

A region is (x, y, w, h) in table inches, y up, its corner the south-west one: the whole table,
or a crop of it (mapsvg.crop_box). The SVG puts table point (x, y) at (x, depth - y).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from shapely.geometry.base import BaseGeometry

from .fontwidth import text_width
from .mapsvg import Box, data

Region = tuple[float, float, float, float]
# A ruler tick: (value in inches, tick length) -> (its line, its number).
TickDrawer = Callable[[float, float], tuple[str, str]]
FONT = "DejaVu Sans, sans-serif"
ZONE_FILL = {"red": "#c0392b", "blue": "#2457a6"}


def font_size(region: Region) -> float:
    """Text size in inches: readable when the region's width is shown about 1,000 px wide."""
    return round(max(1.1, region[2] / 55.0), 2)


def svg_box(region: Region, depth: float) -> Box:
    """The region as an SVG box (y down)."""
    x, y, w, h = region
    return (x, depth - y - h, w, h)


def shape_box(shape: BaseGeometry, depth: float) -> Box:
    """The SVG box (y down) of a shapely shape in table inches."""
    x0, y0, x1, y1 = shape.bounds
    return (x0, depth - y1, x1 - x0, y1 - y0)


def tick_step(span: float) -> tuple[float, float]:
    """(minor, labelled) tick spacing in inches for a ruler ``span`` long: inches and feet on a
    small table, 6 in and feet on a large one, so ticks stay apart."""
    if span <= 60:
        return 1.0, 6.0
    if span <= 150:
        return 3.0, 12.0
    return 6.0, 24.0


def rulers(region: Region, depth: float, fs: float, unit: str = "in") -> str:
    """Inch rulers along the region's south (x) and west (y) edges, outside it, numbered as
    orders write coordinates (x from the west edge, y from the south edge); ``unit``: how the
    map's language abbreviates inches."""
    x0, y0, w, h = region
    bottom, left = depth - y0, x0
    out = [
        f'<g class="rulers" font-family="{FONT}" font-size="{fs * 0.8:g}" fill="#333">',
        f'<rect x="{left - 3.2 * fs:.2f}" y="{bottom:.2f}" width="{w + 3.2 * fs:.2f}" height="{2.2 * fs:.2f}" '
        f'fill="#fff"/>',
        f'<rect x="{left - 3.2 * fs:.2f}" y="{bottom - h:.2f}" width="{3.2 * fs:.2f}" height="{h:.2f}" fill="#fff"/>',
    ]
    out += _ticks(
        x0,
        x0 + w,
        tick_step(w),
        lambda v, ln: (
            f'<line x1="{v:.2f}" y1="{bottom:.2f}" x2="{v:.2f}" y2="{bottom + ln:.2f}" stroke="#333" stroke-width="{fs * 0.06:.3f}"/>',
            f'<text x="{v:.2f}" y="{bottom + 1.9 * fs:.2f}" text-anchor="middle">{v:g}</text>',
        ),
        fs,
    )
    out += _ticks(
        y0,
        y0 + h,
        tick_step(h),
        lambda v, ln: (
            f'<line x1="{left:.2f}" y1="{depth - v:.2f}" x2="{left - ln:.2f}" y2="{depth - v:.2f}" stroke="#333" '
            f'stroke-width="{fs * 0.06:.3f}"/>',
            f'<text x="{left - 1.1 * fs:.2f}" y="{depth - v + 0.3 * fs:.2f}" text-anchor="end">{v:g}</text>',
        ),
        fs,
    )
    out.append(
        f'<text class="ruler-unit" x="{left - 3.1 * fs:.2f}" y="{bottom + 1.9 * fs:.2f}">{escape(unit)}</text></g>'
    )
    return "".join(out)


def _ticks(lo: float, hi: float, step: tuple[float, float], draw: TickDrawer, fs: float) -> list[str]:
    minor, major = step
    out = []
    v = minor * -(-lo // minor)  # the first tick at or after lo
    while v <= hi + 1e-9:
        big = abs(v / major - round(v / major)) < 1e-9
        line, text = draw(v, fs * (0.9 if big else 0.45))
        out.append(line + (text if big else ""))
        v = round(v + minor, 6)
    return out


def zone(side: str, rect: Region, depth: float, note: str) -> str:
    """A side's deployment zone: a faint band in its colour with a dashed edge (named in the legend)."""
    x, y, w, h = rect
    colour = ZONE_FILL.get(side, "#777")
    return (
        f'<g class="deploy-zone"{data(side=side)}><title>{escape(note)}</title>'
        f'<rect x="{x:.2f}" y="{depth - y - h:.2f}" width="{w:.2f}" height="{h:.2f}" fill="{colour}" '
        f'fill-opacity="0.07" stroke="{colour}" stroke-width="0.12" stroke-dasharray="0.8 0.5"/></g>'
    )


def edge_zone(edge: str, reach: float, width: float, depth: float) -> Region:
    """The strip ``reach`` inches deep along a table edge, as a region."""
    reach = max(0.0, min(reach, depth if edge in ("south", "north") else width))
    return {
        "south": (0.0, 0.0, width, reach),
        "north": (0.0, depth - reach, width, reach),
        "west": (0.0, 0.0, reach, depth),
        "east": (width - reach, 0.0, reach, depth),
    }[edge]


def legend(items: Sequence[tuple[str, str]], x: float, y: float, width: float, fs: float) -> tuple[str, float]:
    """``items``: (swatch, text), a swatch drawn in a 1x1 box at the origin (scaled to the text).
    Laid out in rows ``width`` wide from (x, y); returns the SVG and the height used."""
    out = [f'<g class="legend" font-family="{FONT}" font-size="{fs:g}" fill="#222">']
    cx, cy, row = x, y, fs * 1.6
    for swatch, text in items:
        w = fs * 1.5 + text_width(text, fs) + fs * 1.2
        if cx > x and cx + w > x + width:
            cx, cy = x, cy + row
        out.append(
            f'<g transform="translate({cx:.2f},{cy:.2f}) scale({fs:g})">{swatch}</g>'
            f'<text x="{cx + fs * 1.4:.2f}" y="{cy + fs * 0.85:.2f}">{escape(text)}</text>'
        )
        cx += w
    out.append("</g>")
    return "".join(out), cy - y + row

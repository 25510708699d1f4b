"""SVG of a hex map with counters: what the web page shows and the mail turns into a PNG.

Self-contained (no external resources, DejaVu font as the platform's other maps), so
cairosvg renders it the same as a browser. Flat-top hexes, a CCRR number at the top of each,
hexside features as thick coloured edges, roads joining road hexes, and counters: a box per
unit in its side's colour with a short name, its strength and its state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

from rules.core.fontwidth import text_width
from rules.core.mapsvg import data
from rules.core.mapwords import Words

from .board import HexMap
from .coords import corners, label, neighbour, parse_label, side_hexes, side_segment, to_pixel

FONT = "DejaVu Sans, sans-serif"
SIDE_COLOURS = {"red": "#b3261e", "blue": "#1f4fa3"}


def _t(
    x: float, y: float, text: Any, size: float, fill: str = "#222", weight: str = "normal", anchor: str = "middle"
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" text-anchor="{anchor}" fill="{fill}" '
        f'font-weight="{weight}">{escape(str(text))}</text>'
    )


def _hex_title(hex_label: str, cell: Mapping[str, Any], words: Words) -> str:
    template = "{hex} {terrain} elevation {elevation}"
    return words(template, hex=hex_label, terrain=words(cell["terrain"]), elevation=cell["elevation"])


def _counter(x: float, y: float, c: Mapping[str, Any], size: float) -> str:
    w, h = size * 0.78, size * 0.5
    colour = SIDE_COLOURS.get(c.get("side") or "", "#555")
    dash = ' stroke-dasharray="3 2"' if c.get("hidden") else ""
    attrs = (
        data(id=c.get("id"), side=c.get("side"), kind=c.get("kind", "unit"), hex=c.get("hex")) if c.get("id") else ""
    )
    out = [
        f'<g class="{"unit counter" if attrs else "counter"}"{attrs}><title>{escape(c.get("title", c.get("name", "")))}</title>',
        f'<rect x="{x - w / 2:.1f}" y="{y - h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" rx="3" '
        f'fill="{colour}" stroke="#111" stroke-width="1"{dash}/>',
        _t(x, y - h * 0.08, c.get("name", ""), size * 0.17, "#fff", "bold"),
        _t(x, y + h * 0.36, c.get("strength", ""), size * 0.17, "#fff"),
    ]
    if c.get("state"):
        out.append(
            f'<rect x="{x - w / 2:.1f}" y="{y + h / 2:.1f}" width="{w:.1f}" height="{size * 0.2:.1f}" '
            'fill="#ffe08a" stroke="#111" stroke-width="0.6"/>'
        )
        out.append(_t(x, y + h / 2 + size * 0.15, c["state"], size * 0.14, "#111"))
    out.append("</g>")
    return "".join(out)


def _badge(x: float, y: float, c: Mapping[str, Any], size: float) -> str:
    """A small tag with a name (a leader with the troops he is with), clickable like a counter."""
    attrs = data(id=c.get("id"), side=c.get("side"), kind=c.get("kind", "unit"), hex=c.get("hex"))
    w, h = size * 0.75, size * 0.2
    return (
        f'<g class="unit badge"{attrs}><title>{escape(c.get("title", ""))}</title>'
        f'<rect x="{x - w / 2:.1f}" y="{y - h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{h / 2:.1f}" '
        f'fill="#ffe08a" stroke="{SIDE_COLOURS.get(c.get("side") or "", "#555")}" stroke-width="1.2"/>'
        + _t(x, y + h * 0.3, c.get("name", ""), size * 0.15, "#111", "bold")
        + "</g>"
    )


def no_battle(text: str) -> str:
    """The picture of a game with no map yet: one line saying so."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="60"><text x="20" y="35" '
        f'font-family="{FONT}">{escape(text)}</text></svg>'
    )


def render(
    m: HexMap,
    *,
    terrain_fill: Mapping[str, str],
    side_stroke: Mapping[str, str],
    counters: Iterable[Mapping[str, Any]] = (),
    title: str = "",
    lines: Iterable[str] = (),
    marks: Mapping[str, str] | None = None,
    size: float = 42.0,
    css_class: str = "hexmap",
    words: Words | None = None,
) -> str:
    """The map as SVG. ``counters``: dicts with ``hex`` (label), ``side``, ``name``, ``strength``,
    ``state``, ``hidden``, ``title``, and ``id`` (as orders name it: the counter is then a ``unit``
    of the map contract, rules/core/MAPS.md), ``kind`` and ``badge`` (a small tag under the
    hex's counters instead of a counter); ``marks``: {label: colour} hexes to ring (last shots,
    fires). A legend of the terrain, hexsides, roads and marks goes under the map. ``words``: the
    map's language (rules/core/mapwords.py; the caller's counters and lines are already in it)."""
    words = words or Words("en")
    pts = {h: to_pixel(h, size) for h in m.hexes()}
    minx = min(x for x, _ in pts.values()) - size
    miny = min(y for _, y in pts.values()) - size
    lines = list(lines)
    top = 30 + 16 * len(lines)
    ox, oy = 10 - minx, top - miny
    width = max(x for x, _ in pts.values()) + size + ox + 10
    legend, legend_h = _legend(
        m, terrain_fill, side_stroke, bool(marks), (10, max(y for _, y in pts.values()) + size + oy, width - 20), words
    )
    height = max(y for _, y in pts.values()) + size + oy + 10 + legend_h
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg"{data(map="hex")} class="{escape(css_class)}" width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" font-family="{FONT}">',
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="#fbf8f0"/>',
        _t(10, 20, title, 15, weight="bold", anchor="start"),
    ]
    out += [_t(10, 36 + 16 * i, ln, 11, "#333", anchor="start") for i, ln in enumerate(lines)]
    for h, (x, y) in pts.items():
        cell = m.cells[h]
        poly = " ".join(f"{cx + ox:.1f},{cy + oy:.1f}" for cx, cy in corners(h, size))
        fill = terrain_fill.get(cell["terrain"], "#dddddd")
        out.append(
            f'<polygon class="hex"{data(hex=label(h))} points="{poly}" fill="{fill}" stroke="#8d8570" stroke-width="0.8">'
            f"<title>{escape(_hex_title(label(h), cell, words))}</title></polygon>"
        )
        out.append(_t(x + ox, y + oy - size * 0.62, label(h), size * 0.2, "#5b5443"))
        if cell["elevation"]:
            out.append(_t(x + ox + size * 0.55, y + oy + size * 0.1, f"▲{cell['elevation']}", size * 0.18, "#6b4f1d"))
    for h, (x, y) in pts.items():  # roads: centre to centre between road hexes (each pair once)
        if m.cells[h]["road"]:
            for d in range(3):
                n = neighbour(h, d)
                if n in m.cells and m.cells[n]["road"]:
                    nx, ny = pts[n]
                    out.append(
                        f'<line x1="{x + ox:.1f}" y1="{y + oy:.1f}" x2="{nx + ox:.1f}" y2="{ny + oy:.1f}" '
                        f'stroke="#b49a6a" stroke-width="{size * 0.14:.1f}" stroke-linecap="round"/>'
                    )
    for side, feature in m.sides.items():
        h = side_hexes(side)[0]
        (x1, y1), (x2, y2) = side_segment(h, side[2], size)
        out.append(
            f'<line x1="{x1 + ox:.1f}" y1="{y1 + oy:.1f}" x2="{x2 + ox:.1f}" y2="{y2 + oy:.1f}" '
            f'stroke="{side_stroke.get(feature, "#000")}" stroke-width="{size * 0.12:.1f}" stroke-linecap="round">'
            f"<title>{escape(words(feature))}</title></line>"
        )
    for lab, colour in (marks or {}).items():
        x, y = pts[parse_label(lab)]
        out.append(
            f'<circle cx="{x + ox:.1f}" cy="{y + oy:.1f}" r="{size * 0.8:.1f}" fill="none" stroke="{colour}" '
            f'stroke-width="2.5" stroke-dasharray="5 3"/>'
        )
    by_hex: dict[str, list[Mapping[str, Any]]] = {}
    for c in counters:
        by_hex.setdefault(c["hex"], []).append(c)
    for lab, all_cs in by_hex.items():
        x, y = pts[parse_label(lab)]
        cs = [c for c in all_cs if not c.get("badge")]
        stacked = len(cs)
        for i, c in enumerate(cs):  # stacked counters fan out downwards-right
            dx = (i - (stacked - 1) / 2) * size * 0.22
            out.append(_counter(x + ox + dx, y + oy + dx * 0.6, c, size))
        for i, c in enumerate(c for c in all_cs if c.get("badge")):  # a leader with troops: a tag at their corner
            out.append(_badge(x + ox, y + oy + size * (0.6 + 0.22 * i), c, size))
    out.append(legend)
    out.append("</svg>")
    return "\n".join(out)


def _legend(
    m: HexMap,
    terrain_fill: Mapping[str, str],
    side_stroke: Mapping[str, str],
    marks: bool,
    at: tuple[float, float, float],
    words: Words,
) -> tuple[str, float]:
    """The key under the map: each terrain on it by name and colour, hexside features, roads,
    counters and rings, from ``at`` (x, y, width); returns the SVG and its height."""
    x, y, width = at
    items = [
        (
            f'<rect x="0" y="2" width="18" height="12" fill="{terrain_fill.get(t, "#dddddd")}" stroke="#8d8570"/>',
            words(t),
        )
        for t in sorted({c["terrain"] for c in m.cells.values()})
    ]
    items += [
        (
            f'<line x1="0" y1="8" x2="18" y2="8" stroke="{side_stroke.get(f, "#000")}" stroke-width="4"/>',
            words("{feature} (hexside)", feature=words(f)),
        )
        for f in sorted(set(m.sides.values()))
    ]
    if any(c["road"] for c in m.cells.values()):
        items.append(('<line x1="0" y1="8" x2="18" y2="8" stroke="#b49a6a" stroke-width="5"/>', words("road")))
    items += [
        (
            f'<rect x="0" y="2" width="18" height="12" rx="2" fill="{SIDE_COLOURS["red"]}"/>',
            words("unit: id kind, strength (yellow: its state)"),
        ),
        (
            '<rect x="0" y="2" width="18" height="12" rx="2" fill="#777" stroke="#111" stroke-dasharray="3 2"/>',
            words("hidden from the enemy"),
        ),
    ]
    if marks:
        items.append(
            (
                '<circle cx="9" cy="8" r="7" fill="none" stroke="#d4a017" stroke-width="2" stroke-dasharray="4 2"/>',
                words("objective"),
            )
        )
    out, cx, cy = ['<g class="legend">'], x, y + 16
    for swatch, text in items:
        w = 26 + text_width(text, 11) + 14
        if cx > x and cx + w > x + width:
            cx, cy = x, cy + 20
        out.append(
            f'<g transform="translate({cx:.1f},{cy - 12:.1f})">{swatch}</g>'
            + _t(cx + 24, cy, text, 11, "#222", anchor="start")
        )
        cx += w
    out.append("</g>")
    return "".join(out), cy - y + 14


__all__ = ["no_battle", "render", "SIDE_COLOURS"]

"""The SVG map of a view: terrain, unit rectangles with their front edge, damage and status,
objectives, and each unit's arcs (shown when the unit is selected: hovered or linked as
``#unit-<id>``). Drawn in inches with y up (the SVG is flipped), so it scales on the web."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from rules.core import tablesvg
from rules.core.mapsvg import Box, LabelPlacer, box_attr, crop_box, data, label
from rules.core.mapwords import Words
from rules.tabletop.terrain import terrain_geometry

from . import geom
from .mapwords import WORDS

COLOURS = {"red": "#c0392b", "blue": "#2457a6"}
TERRAIN = {
    "hill": 'fill="#c9b37e" fill-opacity="0.55" stroke="#8a7340" stroke-width="0.15"',
    "difficult": 'fill="#3f7f3a" fill-opacity="0.55" stroke="#2b5a28" stroke-width="0.1"',
    "impassable": 'fill="#8c8c8c" stroke="#333" stroke-width="0.15"',
    "obstacle": 'fill="#5a4632" stroke="#3b2e21" stroke-width="0.05"',
    "decorative": 'fill="#9ccf8f" fill-opacity="0.5" stroke="none"',
}
ORDER = ("hill", "decorative", "difficult", "obstacle", "impassable")
ZONE_DEPTH = 12.0  # inches from a side's own edge it sets up in
STYLE = ".unit .arcs{display:none}.unit:hover .arcs,.unit:target .arcs{display:inline}"


def _pts(points: Iterable[Sequence[float]], depth: float) -> str:
    return " ".join(f"{x:.2f},{depth - y:.2f}" for x, y in points)


def _terrain(item: dict[str, Any], depth: float, words: Words) -> str:
    shape = terrain_geometry(item)
    label = (
        f"{item['id']}: {words(item['kind'])}"
        + (" " + words("level {level}", level=item["level"]) if "level" in item else "")
        + (" " + words("{height} in", height=f"{item['height']:g}") if "height" in item else "")
    )
    return (
        f'<g class="terrain {item["kind"]}"><title>{escape(label)}</title>'
        f'<polygon points="{_pts(list(shape.exterior.coords), depth)}" {TERRAIN[item["kind"]]}/></g>'
    )


def _arcs(u: dict[str, Any], depth: float) -> str:
    out = []
    for arc in ("front", "left", "right", "rear"):
        poly = geom.arc_polygon(u, arc, far=12.0)
        out.append(
            f'<polygon class="arc {arc}" points="{_pts(list(poly.exterior.coords), depth)}" fill="none" '
            f'stroke="#444" stroke-width="0.05" stroke-dasharray="0.3 0.3"/>'
        )
    return f'<g class="arcs">{"".join(out)}</g>'


def _unit(u: dict[str, Any], depth: float, words: Words) -> str:
    colour = COLOURS.get(u["side"], "#555")
    c = geom.corners(u)
    routed = u["status"] == "routed"
    body = (
        f'<polygon points="{_pts(c.values(), depth)}" fill="{colour}" fill-opacity="{0.15 if routed else 0.6}" '
        f'stroke="{colour}" stroke-width="0.08"/>'
        f'<line x1="{c["FL"][0]:.2f}" y1="{depth - c["FL"][1]:.2f}" x2="{c["FR"][0]:.2f}" '
        f'y2="{depth - c["FR"][1]:.2f}" stroke="#111" stroke-width="0.2"/>'
    )
    cx, cy = geom.centre(u)
    mark = (
        f"{u['id']}"
        + (f" ✕{u['damage']}" if u["damage"] else "")
        + (" " + words("mark|W") if u["status"] == "wavering" else "")
    )
    text = f'<text x="{cx:.2f}" y="{depth - cy + 0.3:.2f}" font-size="1" text-anchor="middle">{escape(mark)}</text>'
    title = words(
        "{id} {type} ({side}): damage {damage}, {status}",
        id=u["id"],
        type=words(u["type"]),
        side=words.side(u["side"]),
        damage=u["damage"],
        status=words(u["status"]),
    )
    arcs = "" if routed else _arcs(u, depth)
    attrs = data(id=u["id"], side=u["side"], kind="unit", x=cx, y=cy, reach=u["profile"]["sp"])
    return (
        f'<g class="unit {u["side"]} {u["status"]}" id="unit-{escape(u["id"])}"{attrs}><title>{escape(title)}</title>'
        f"{arcs}{body}{text}</g>"
    )


def zones(view: dict[str, Any], words: Words) -> list[tuple[str, tablesvg.Region, str]]:
    """Where each side set up: ZONE_DEPTH from its edge, the first side on the south edge (the shipped
    scenarios place red south, blue north; RULES.md)."""
    w, d = view["table"]["width"], view["table"]["depth"]
    note = "{side} set up within {reach} in of the {edge} edge"
    return [
        (
            side,
            tablesvg.edge_zone(edge, ZONE_DEPTH, w, d),
            words(note, side=words.side(side), reach=f"{ZONE_DEPTH:g}", edge=words(f"edge|{edge}")),
        )
        for side, edge in zip(view["sides"], ("south", "north"), strict=True)
    ]


def _mine(view: dict[str, Any]) -> str | None:
    viewer = view.get("viewer") or {}
    own = [
        tuple(c)
        for u in view["units"]
        if viewer.get("role") == "player" and u["side"] == viewer.get("side")
        for c in u["corners"]
    ]
    t = view["table"]
    return box_attr(crop_box(own, t["width"], t["depth"], 12.0, 4 / 3))


def render_svg(view: dict[str, Any], crop: bool = False, lang: str = "en") -> str:
    """The whole table in ``lang`` (``crop`` is for large tables; Kings of War's fit one picture)."""
    words = Words(lang, WORDS)
    if "table" not in view:
        return '<svg xmlns="http://www.w3.org/2000/svg" data-map="table" viewBox="0 0 1 1"></svg>'
    w, d = view["table"]["width"], view["table"]["depth"]
    region = (0.0, 0.0, float(w), float(d))
    fs = tablesvg.font_size(region)
    unit_boxes = [_box(u, d) for u in view["units"]]
    placer = LabelPlacer(bounds=(0, 0, w, d), keep_clear=unit_boxes)
    parts = [f"<style>{STYLE}</style>", f'<rect width="{w:g}" height="{d:g}" fill="#e8e4d0"/>']
    for kind in ORDER:
        parts += [_terrain(t, d, words) for t in view["terrain"] if t["kind"] == kind]
    zs = zones(view, words)
    parts += [tablesvg.zone(side, rect, d, note) for side, rect, note in zs]
    labels = []
    for i, (x, y) in enumerate(view["objectives"], start=1):
        held = (view["score"].get("held") or [None] * len(view["objectives"]))[i - 1]
        parts.append(
            f'<g class="objective"><title>{escape(words("objective {i}: {held}", i=i, held=words.side(held)))}</title>'
            f'<circle cx="{x:g}" cy="{d - y:g}" r="0.8" fill="{COLOURS.get(held, "#fff")}" stroke="#000" '
            f'stroke-width="0.1"/></g>'
        )
        placer.placed.append((x - 0.8, d - y - 0.8, 1.6, 1.6))
        labels.append(
            label(
                placer,
                x,
                d - y - 0.8,
                words("objective {i}", i=i) + (f" ({words.side(held)})" if held else ""),
                fs * 0.85,
                0.2 * fs,
                "#000",
            )
        )
    parts += [_unit(u, d, words) for u in view["units"]]
    for t in view["terrain"]:
        says_kind = words.lang == "en" and t["kind"] in t["id"]  # a name says its kind only in English
        name = t["id"] if says_kind else f"{t['id']} ({words(t['kind'])})"
        labels.append(
            label(
                placer,
                0,
                0,
                name,
                fs * 0.85,
                0.2 * fs,
                "#3d3520",
                css="label terrain-name",
                around=tablesvg.shape_box(terrain_geometry(t), d),
            )
        )
    parts += labels
    parts.append(tablesvg.rulers(region, d, fs, words("in")))
    items = [
        (f'<rect x="0" y="0.1" width="1.2" height="0.8" {TERRAIN[k]}/>', words(k))
        for k in ORDER
        if any(t["kind"] == k for t in view["terrain"])
    ]
    items += [
        (
            '<rect x="0" y="0.15" width="1.2" height="0.7" fill="#777" fill-opacity="0.6"/><line x1="0" y1="0.15" '
            'x2="1.2" y2="0.15" stroke="#111" stroke-width="0.15"/>',
            words("unit (dark edge: its front)"),
        ),
        ('<rect x="0" y="0.15" width="1.2" height="0.7" fill="#777" fill-opacity="0.15"/>', words("routed unit")),
        (
            '<circle cx="0.5" cy="0.5" r="0.4" fill="#fff" stroke="#000" stroke-width="0.08"/>',
            words("objective (filled: held)"),
        ),
    ]
    items += [
        (
            f'<rect x="0" y="0.1" width="1.2" height="0.8" fill="{COLOURS[side]}" fill-opacity="0.15" '
            f'stroke="{COLOURS[side]}" stroke-width="0.08" stroke-dasharray="0.3 0.2"/>',
            note,
        )
        for side, _, note in zs
    ]
    legend, height = tablesvg.legend(items, 0, d + 3.6 * fs, w, fs * 0.85)
    parts.append(legend)
    vb = (-3.4 * fs, -fs, w + 4.4 * fs, d + fs + 3.6 * fs + height + fs)
    px = min(1600.0, max(900.0, 16.0 * vb[2]))
    root = (
        f'<svg xmlns="http://www.w3.org/2000/svg"{data(map="table", width=w, depth=d, y="up", mine=_mine(view))} '
        f'viewBox="{" ".join(f"{v:.2f}" for v in vb)}" width="{px:.0f}" height="{px * vb[3] / vb[2]:.0f}" '
        f'class="kow-map" font-family="{tablesvg.FONT}">'
    )
    return root + "".join(parts) + "</svg>"


def _box(u: dict[str, Any], depth: float) -> Box:
    xs = [c[0] for c in u["corners"]]
    ys = [depth - c[1] for c in u["corners"]]
    return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))

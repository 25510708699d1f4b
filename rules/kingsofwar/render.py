"""The SVG map of a view: terrain, unit rectangles with their front edge, damage and status,
objectives, and each unit's arcs (shown when the unit is selected: hovered or linked as
``#unit-<id>``). Drawn in inches with y up (the SVG is flipped), so it scales on the web."""
from __future__ import annotations

from html import escape

from rules.core.mapsvg import data
from rules.littlewars.table import terrain_geometry

from . import geom

COLOURS = {"red": "#c0392b", "blue": "#2457a6"}
TERRAIN = {
    "hill": 'fill="#c9b37e" fill-opacity="0.55" stroke="#8a7340" stroke-width="0.15"',
    "difficult": 'fill="#3f7f3a" fill-opacity="0.55" stroke="#2b5a28" stroke-width="0.1"',
    "impassable": 'fill="#8c8c8c" stroke="#333" stroke-width="0.15"',
    "obstacle": 'fill="#5a4632" stroke="#3b2e21" stroke-width="0.05"',
    "decorative": 'fill="#9ccf8f" fill-opacity="0.5" stroke="none"',
}
ORDER = ("hill", "decorative", "difficult", "obstacle", "impassable")
STYLE = ".unit .arcs{display:none}.unit:hover .arcs,.unit:target .arcs{display:inline}"


def _pts(points, depth) -> str:
    return " ".join(f"{x:.2f},{depth - y:.2f}" for x, y in points)


def _terrain(item: dict, depth: float) -> str:
    shape = terrain_geometry(item)
    label = f"{item['id']}: {item['kind']}" + (f" level {item['level']}" if "level" in item else "") + (
        f" {item['height']:g} in" if "height" in item else "")
    return (f'<g class="terrain {item["kind"]}"><title>{escape(label)}</title>'
            f'<polygon points="{_pts(list(shape.exterior.coords), depth)}" {TERRAIN[item["kind"]]}/></g>')


def _arcs(u: dict, depth: float) -> str:
    out = []
    for arc in ("front", "left", "right", "rear"):
        poly = geom.arc_polygon(u, arc, far=12.0)
        out.append(f'<polygon class="arc {arc}" points="{_pts(list(poly.exterior.coords), depth)}" fill="none" '
                   f'stroke="#444" stroke-width="0.05" stroke-dasharray="0.3 0.3"/>')
    return f'<g class="arcs">{"".join(out)}</g>'


def _unit(u: dict, depth: float) -> str:
    colour = COLOURS.get(u["side"], "#555")
    c = geom.corners(u)
    routed = u["status"] == "routed"
    body = (f'<polygon points="{_pts(c.values(), depth)}" fill="{colour}" fill-opacity="{0.15 if routed else 0.6}" '
            f'stroke="{colour}" stroke-width="0.08"/>'
            f'<line x1="{c["FL"][0]:.2f}" y1="{depth - c["FL"][1]:.2f}" x2="{c["FR"][0]:.2f}" '
            f'y2="{depth - c["FR"][1]:.2f}" stroke="#111" stroke-width="0.2"/>')
    cx, cy = geom.centre(u)
    mark = f'{u["id"]}' + (f' ✕{u["damage"]}' if u["damage"] else "") + (" W" if u["status"] == "wavering" else "")
    text = f'<text x="{cx:.2f}" y="{depth - cy + 0.3:.2f}" font-size="1" text-anchor="middle">{escape(mark)}</text>'
    title = f'{u["id"]} {u["type"]} ({u["side"]}): damage {u["damage"]}, {u["status"]}'
    arcs = "" if routed else _arcs(u, depth)
    attrs = data(id=u["id"], side=u["side"], kind="unit", x=cx, y=cy, reach=u["profile"]["sp"])
    return (f'<g class="unit {u["side"]} {u["status"]}" id="unit-{escape(u["id"])}"{attrs}><title>{escape(title)}</title>'
            f'{arcs}{body}{text}</g>')


def render_svg(view: dict) -> str:
    if "table" not in view:
        return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"></svg>'
    w, d = view["table"]["width"], view["table"]["depth"]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg"{data(map="table", width=w, depth=d, y="up")} '
             f'viewBox="0 0 {w:g} {d:g}" class="kow-map">',
             f"<style>{STYLE}</style>", f'<rect width="{w:g}" height="{d:g}" fill="#e8e4d0"/>']
    for kind in ORDER:
        parts += [_terrain(t, d) for t in view["terrain"] if t["kind"] == kind]
    for i, (x, y) in enumerate(view["objectives"], start=1):
        held = (view["score"].get("held") or [None] * len(view["objectives"]))[i - 1]
        parts.append(f'<g class="objective"><title>objective {i}: {escape(held or "nobody")}</title>'
                     f'<circle cx="{x:g}" cy="{d - y:g}" r="0.8" fill="{COLOURS.get(held, "#fff")}" stroke="#000" '
                     f'stroke-width="0.1"/></g>')
    parts += [_unit(u, d) for u in view["units"]]
    parts.append("</svg>")
    return "".join(parts)

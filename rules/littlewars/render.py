"""The SVG map of a view: terrain, figures by side and arm, guns with facing, last impacts and melees.

Drawn in inches (viewBox) so it scales for zoom on the web. Readable with hundreds of
figures: each figure is a small mark, and the viewer's own groups get one outline
and label each instead of a label per figure.
"""
from __future__ import annotations

import math
from html import escape

from shapely import MultiPoint

from rules.core.mapsvg import data, order_name

from .units import CREW_MIN, CREW_RANGE, gun_pace, gun_range, pace

COLOURS = {"red": "#c0392b", "blue": "#2457a6"}
TERRAIN = {
    "hill": ('fill="#c9b37e" fill-opacity="0.55" stroke="#8a7340" stroke-width="0.15"', True),
    "wood": ('fill="#3f7f3a" fill-opacity="0.55" stroke="#2b5a28" stroke-width="0.1"', True),
    "building": ('fill="#8c8c8c" stroke="#333" stroke-width="0.15"', True),
    "wall": ('fill="#5a4632" stroke="#3b2e21" stroke-width="0.05"', True),
    "river": ('fill="#7fb3e0" stroke="#4a84b8" stroke-width="0.1"', True),
    "ford": ('fill="#b9d8f0" stroke="#7fb3e0" stroke-width="0.1" stroke-dasharray="0.4 0.3"', True),
    "bridge": ('fill="#b08a5a" stroke="#6b5133" stroke-width="0.1"', True),
    "road": ('fill="#d9c9a3" fill-opacity="0.8" stroke="none"', True),
}
ORDER = ("road", "hill", "wood", "river", "ford", "bridge", "wall", "building")


def _pts(points, depth) -> str:
    return " ".join(f"{x:.2f},{depth - y:.2f}" for x, y in points)


def _terrain(item, depth) -> str:
    style, _ = TERRAIN.get(item["type"], ('fill="#ccc"', True))
    if "polygon" in item:
        shape = f'<polygon points="{_pts(item["polygon"], depth)}" {style}/>'
    else:
        from shapely.geometry import LineString

        poly = LineString(item["line"]).buffer(item.get("width", 0.5) / 2, cap_style="flat")
        shape = f'<polygon points="{_pts(list(poly.exterior.coords), depth)}" {style}/>'
    level = f" level {item['level']}" if item.get("level") else ""
    trunk = item.get("trunk", 0.5)
    shape += "".join(f'<circle class="tree" cx="{x:.2f}" cy="{depth - y:.2f}" r="{trunk:g}" fill="#2b5a28"/>'
                     for x, y in item.get("trees", []))
    return f'<g class="terrain {item["type"]}"><title>{escape(item["id"])}: {item["type"]}{level}</title>{shape}</g>'


def _figure(f, depth, scenario=None) -> str:
    x, y = f["x"], depth - f["y"]
    attrs = data(id=order_name(f["id"]), side=f["side"], kind="figure", x=f["x"], y=f["y"], reach=pace(scenario, f["arm"]))
    colour = COLOURS.get(f["side"], "#555")
    fill = "none" if f.get("disarmed") or f.get("captor") else colour
    stroke = COLOURS.get(f.get("captor"), colour)
    if f["arm"] == "cav":
        return f'<rect class="unit figure"{attrs} x="{x - 0.45:.2f}" y="{y - 0.3:.2f}" width="0.9" height="0.6" fill="{fill}" stroke="{stroke}" stroke-width="0.1"/>'
    return f'<circle class="unit figure"{attrs} cx="{x:.2f}" cy="{y:.2f}" r="0.25" fill="{fill}" stroke="{stroke}" stroke-width="0.08"/>'


def _gun(g, depth, view=None) -> str:
    x, y = g["x"], depth - g["y"]
    sc = (view or {}).get("scenario")
    cav = sum(1 for f in (view or {}).get("figures", []) if f["side"] == g["owner"] and f["arm"] == "cav"
              and math.dist((f["x"], f["y"]), (g["x"], g["y"])) <= CREW_RANGE)
    attrs = data(id=g["name"], side=g["owner"], kind="gun", x=g["x"], y=g["y"], reach=gun_pace(sc, cav),
                 range=gun_range(sc), crewed=bool(g.get("crewed")))
    h = math.radians(g["heading"])
    dx, dy = math.cos(h), -math.sin(h)
    colour = COLOURS.get(g["owner"], "#555")
    dash = "" if g.get("crewed") else ' stroke-dasharray="0.3 0.2"'
    return (f'<g class="unit gun"{attrs}><title>{escape(g["name"])} ({g["owner"]}){"" if g.get("crewed") else " - no crew"}</title>'
            f'<circle cx="{x:.2f}" cy="{y:.2f}" r="0.8" fill="#222" stroke="{colour}" stroke-width="0.25"{dash}/>'
            f'<line x1="{x:.2f}" y1="{y:.2f}" x2="{x + 2 * dx:.2f}" y2="{y + 2 * dy:.2f}" stroke="#222" stroke-width="0.45"/></g>')


def _wagon(w, depth) -> str:
    """LW-66/67: a supply wagon is a tilted box, an ammunition cart a smaller dark one, in the owner's colour."""
    x, y = w["x"], depth - w["y"]
    colour = COLOURS.get(w["owner"], "#555")
    big = w["kind"] == "supply"
    wd, ht, fill = (1.0, 0.7, "#f4ecd8") if big else (0.8, 0.55, "#5a4632")
    what = "supply wagon" if big else "ammunition cart"
    attrs = data(id=w["name"], side=w["owner"], kind="wagon", x=w["x"], y=w["y"])
    return (f'<g class="unit wagon {w["kind"]}"{attrs}><title>{escape(w["name"])} ({w["owner"]}): {what}</title>'
            f'<rect x="{x - wd / 2:.2f}" y="{y - ht / 2:.2f}" width="{wd:g}" height="{ht:g}" rx="0.15" fill="{fill}" '
            f'stroke="{colour}" stroke-width="0.15"/></g>')


def _groups(view, depth) -> list[str]:
    pos = {f["id"]: (f["x"], f["y"]) for f in view["figures"]}
    arm = {f["id"]: f["arm"] for f in view["figures"]}
    out = []
    for side, groups in view.get("groups", {}).items():
        for name, ids in sorted(groups.items()):
            pts = [pos[i] for i in ids if i in pos]
            if not pts:
                continue
            hull = MultiPoint(pts).convex_hull.buffer(1.0, quad_segs=2)
            c = hull.centroid
            reach = min(pace(view.get("scenario"), arm[i]) for i in ids if i in pos)
            cx, cy = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
            attrs = data(id=name, side=side, kind="group", x=cx, y=cy, reach=reach)
            out.append(f'<g class="unit group"{attrs}><polygon points="{_pts(list(hull.exterior.coords), depth)}" fill="none" '
                       f'stroke="{COLOURS.get(side, "#555")}" stroke-width="0.12" stroke-dasharray="0.6 0.4"/>'
                       f'<text x="{c.x:.2f}" y="{depth - hull.bounds[3] - 0.5:.2f}" font-size="1.6" text-anchor="middle" '
                       f'fill="{COLOURS.get(side, "#555")}">{escape(name)} ({len(pts)})</text></g>')
    return out


def _last(view, depth) -> list[str]:
    last = view.get("last") or {}
    out = []
    for imp in last.get("impacts", []):
        x, y = imp["at"][0], depth - imp["at"][1]
        out.append(f'<path d="M{x - 0.6:.2f},{y - 0.6:.2f}L{x + 0.6:.2f},{y + 0.6:.2f}M{x - 0.6:.2f},{y + 0.6:.2f}'
                   f'L{x + 0.6:.2f},{y - 0.6:.2f}" stroke="#000" stroke-width="0.2"><title>impact, {imp["killed"]} killed</title></path>')
    for m in last.get("melees", []):
        x, y = m["at"][0], depth - m["at"][1]
        out.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="3" fill="#f39c12" fill-opacity="0.25" stroke="#e67e22" '
                   f'stroke-width="0.2"><title>melee: {m["killed"]} killed, {m["captured"]} captured</title></circle>')
    return out


def _scale_bar(depth) -> str:
    y = depth + 2.5
    return (f'<g class="scale"><line x1="1" y1="{y}" x2="13" y2="{y}" stroke="#000" stroke-width="0.3"/>'
            f'<line x1="1" y1="{y - 0.6}" x2="1" y2="{y + 0.6}" stroke="#000" stroke-width="0.2"/>'
            f'<line x1="13" y1="{y - 0.6}" x2="13" y2="{y + 0.6}" stroke="#000" stroke-width="0.2"/>'
            f'<text x="14" y="{y + 0.6}" font-size="1.8">1 ft (12 in) - infantry move</text></g>')


def render_svg(view: dict) -> str:
    table = view.get("table")
    if not table:
        return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 4"><text x="1" y="2" font-size="1">No table yet</text></svg>'
    w, d = table["width"], table["depth"]
    px = min(1600.0, 12.0 * (w + 2))  # 12 px an inch, at most 1600 px wide; zoom is the viewer's
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg"{data(map="table", width=w, depth=d, y="up")} viewBox="-1 -1 {w + 2:g} {d + 9:g}" '
             f'width="{px:.0f}" height="{px * (d + 9) / (w + 2):.0f}" class="littlewars-map">',
             f'<rect x="0" y="0" width="{w:g}" height="{d:g}" fill="#dfe8c8" stroke="#444" stroke-width="0.2"/>']
    for kind in ORDER:
        parts += [_terrain(t, d) for t in table["terrain"] if t["type"] == kind]
    parts += [_figure(f, d, view.get("scenario")) for f in view.get("figures", [])]
    parts += _groups(view, d)
    parts += [_gun(g, d, view) for g in view.get("guns", [])]
    parts += [_wagon(w, d) for w in view.get("wagons", [])]
    parts += _last(view, d)
    parts.append(_scale_bar(d))
    title = escape(view.get("scenario", {}).get("title", ""))
    parts.append(f'<text x="0" y="{d + 6.4:g}" font-size="1.8">{title}, {_when(view)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _when(view: dict) -> str:
    """The caption's moment, by the game's turn number (the one the page, the mail and the rules use)."""
    phase = view.get("phase")
    number = (view.get("turn") or {}).get("number")
    if phase in ("edge", "deploy"):
        return f"turn {number}: " + ("choosing the edge" if phase == "edge" else "deployment")
    if phase == "over":
        return f"the game is over after turn {number}"
    return f"turn {number}"

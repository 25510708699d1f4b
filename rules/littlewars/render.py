"""The SVG map of a view: terrain, figures by side and arm, guns with facing, last impacts and melees.

Drawn in inches (viewBox) so it scales for zoom on the web; the attributes scripts rely on
are the contract in rules/core/MAPS.md. Readable with hundreds of figures: each figure is a
small mark, and the viewer's own groups get one outline and label each instead of a label
per figure. Rulers in inches along the south and west edges, deployment zones, terrain named
on the table, a legend underneath; labels are placed so that none overlaps another.

``crop``: draw the region round the viewer's own troops (``data-mine``) when it is much
smaller than the table (Kriegspiel's 96 x 288 in), for the mail's picture; the web shows the
whole table and offers the same box as "my troops".
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from html import escape
from typing import Any

from shapely import MultiPoint
from shapely.geometry import Polygon

from rules.core import tablesvg
from rules.core.fontwidth import text_width
from rules.core.mapsvg import Box, LabelPlacer, box_attr, crop_box, data, label, order_name
from rules.core.mapwords import Table, Words
from rules.tabletop.terrain import terrain_geometry

from .maplegend import legend_items, zones
from .mapwords import WORDS
from .units import CREW_RANGE, gun_pace, gun_range, pace
from .wagons import wagon_pace

COLOURS = {"red": "#c0392b", "blue": "#2457a6"}
TERRAIN = {
    "hill": 'fill="#c9b37e" fill-opacity="0.55" stroke="#8a7340" stroke-width="0.15"',
    "wood": 'fill="#3f7f3a" fill-opacity="0.55" stroke="#2b5a28" stroke-width="0.1"',
    "building": 'fill="#8c8c8c" stroke="#333" stroke-width="0.15"',
    "wall": 'fill="#5a4632" stroke="#3b2e21" stroke-width="0.05"',
    "river": 'fill="#7fb3e0" stroke="#4a84b8" stroke-width="0.1"',
    "ford": 'fill="#b9d8f0" stroke="#7fb3e0" stroke-width="0.1" stroke-dasharray="0.4 0.3"',
    "bridge": 'fill="#b08a5a" stroke="#6b5133" stroke-width="0.1"',
    "road": 'fill="#d9c9a3" fill-opacity="0.8" stroke="none"',
}
ORDER = ("road", "hill", "wood", "river", "ford", "bridge", "wall", "building")
MINE_MARGIN = 18.0  # inches round one's own troops in the "my troops" box (a cavalry move and more)
MINE_ASPECT = 4 / 3  # the box is widened to this shape where the table allows: a picture, not a sliver
CROP_WHEN = 0.6  # the mail crops to that box when it is less than this share of the table

Thing = dict[str, Any]  # a figure, gun, wagon or piece of terrain as the view holds it (JSON)
Hull = tuple[str, str, str, Polygon]  # a group's side, label, SVG and outline (table inches)


def _pts(points: Iterable[Sequence[float]], depth: float) -> str:
    return " ".join(f"{x:.2f},{depth - y:.2f}" for x, y in points)


def _kind(item: Thing, words: Words) -> str:
    """A piece of terrain's kind as the map names it: "hill level 2"."""
    return words(item["type"]) + (" " + words("level {level}", level=item["level"]) if item.get("level") else "")


def _terrain(item: Thing, depth: float, words: Words) -> str:
    style = TERRAIN.get(item["type"], 'fill="#ccc"')
    shape = f'<polygon points="{_pts(list(terrain_geometry(item).exterior.coords), depth)}" {style}/>'
    trunk = item.get("trunk", 0.5)
    shape += "".join(
        f'<circle class="tree" cx="{x:.2f}" cy="{depth - y:.2f}" r="{trunk:g}" fill="#2b5a28"/>'
        for x, y in item.get("trees", [])
    )
    title = f"{item['id']}: {_kind(item, words)}"
    return f'<g class="terrain {item["type"]}"><title>{escape(title)}</title>{shape}</g>'


def _terrain_name(item: Thing, words: Words) -> str:
    """What the map writes on a piece of terrain: its name as the scenario spells it, and its kind
    where the name does not say it (an English name says nothing to a reader of another language)."""
    name = item["id"]
    kind = words(item["type"]) + (f" {item['level']}" if item.get("level") else "")
    return name if words.lang == "en" and item["type"] in name else f"{name} ({kind})"


def _figure(f: Thing, depth: float, scenario: Thing | None, groups: Mapping[str, str]) -> str:
    x, y = f["x"], depth - f["y"]
    attrs = data(
        id=order_name(f["id"]),
        side=f["side"],
        kind="figure",
        x=f["x"],
        y=f["y"],
        reach=pace(scenario, f["arm"]),
        group=groups.get(f["id"]),
    )
    colour = COLOURS.get(f["side"], "#555")
    fill = "none" if f.get("disarmed") or f.get("captor") else colour
    stroke = COLOURS.get(f.get("captor") or "", colour)
    if f["arm"] == "cav":
        return (
            f'<rect class="unit figure"{attrs} x="{x - 0.45:.2f}" y="{y - 0.3:.2f}" width="0.9" height="0.6" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="0.1"/>'
        )
    return (
        f'<circle class="unit figure"{attrs} cx="{x:.2f}" cy="{y:.2f}" r="0.25" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="0.08"/>'
    )


def limbered_guns(view: Thing) -> set[str]:
    """Kriegspiel: the guns limbered up that this view knows of (a side its own; the umpire every side's)."""
    ks = view.get("kriegspiel") or {}
    return set(ks.get("limbered", [])).union(*(s.get("limbered", []) for s in (ks.get("sides") or {}).values()))


def limber_known(view: Thing) -> set[str]:
    """The sides whose guns' limber state this view holds (none outside Kriegspiel): an enemy gun is
    neither "limbered" nor "in action" to a player, who cannot tell."""
    ks = view.get("kriegspiel") or {}
    side = (view.get("viewer") or {}).get("side")
    own = {side} if side and "limbered" in ks else set()
    return own | set(ks.get("sides") or {})


def gun_state(g: Thing, limbered: Collection[str], words: Words) -> str:
    """What the map says of a gun beside its name: no crew, limbered (Kriegspiel), or nothing."""
    said = ([] if g.get("crewed") else [words("no crew")]) + ([words("limbered")] if g["id"] in limbered else [])
    return ", ".join(said)


def _gun(g: Thing, depth: float, view: Thing, limbered: Collection[str], known: Collection[str], words: Words) -> str:
    x, y = g["x"], depth - g["y"]
    sc = view.get("scenario")
    cav = sum(
        1
        for f in view.get("figures", [])
        if f["side"] == g["owner"] and f["arm"] == "cav" and math.dist((f["x"], f["y"]), (g["x"], g["y"])) <= CREW_RANGE
    )
    crewed = bool(g.get("crewed"))
    attrs = data(
        id=g["name"],
        side=g["owner"],
        kind="gun",
        x=g["x"],
        y=g["y"],
        reach=gun_pace(sc, cav),
        range=gun_range(sc),
        crewed=crewed,
        limbered=g["id"] in limbered if g["owner"] in known else None,
    )
    h = math.radians(g["heading"])
    dx, dy = math.cos(h), -math.sin(h)
    colour = COLOURS.get(g["owner"], "#555")
    state = gun_state(g, limbered, words)
    body = (
        f'<circle cx="{x:.2f}" cy="{y:.2f}" r="0.8" fill="#222" stroke="{colour}" stroke-width="0.25"/>'
        if crewed
        else f'<circle cx="{x:.2f}" cy="{y:.2f}" r="0.8" fill="#fff" stroke="{colour}" stroke-width="0.25" '
        f'stroke-dasharray="0.3 0.2"/><path d="M{x - 0.6:.2f},{y + 0.6:.2f}L{x + 0.6:.2f},{y - 0.6:.2f}" '
        f'stroke="#c00" stroke-width="0.2"/>'
    )
    limber = (
        f'<rect x="{x - dx * 2 - 0.6:.2f}" y="{y - dy * 2 - 0.45:.2f}" width="1.2" height="0.9" fill="#8a6d3b" '
        f'stroke="#222" stroke-width="0.1"/>'
        if g["id"] in limbered
        else ""
    )
    return (
        f'<g class="unit gun"{attrs}><title>{escape(g["name"])} ({escape(words.side(g["owner"]))})'
        f"{': ' + escape(state) if state else ''}"
        f'</title>{limber}{body}<line x1="{x:.2f}" y1="{y:.2f}" x2="{x + 2 * dx:.2f}" y2="{y + 2 * dy:.2f}" '
        f'stroke="#222" stroke-width="0.45"/></g>'
    )


def _wagon(w: Thing, depth: float, scenario: Thing | None, words: Words) -> str:
    """LW-66/67: a supply wagon is a tilted box, an ammunition cart a smaller dark one, in the owner's colour."""
    x, y = w["x"], depth - w["y"]
    colour = COLOURS.get(w["owner"], "#555")
    big = w["kind"] == "supply"
    wd, ht, fill = (1.0, 0.7, "#f4ecd8") if big else (0.8, 0.55, "#5a4632")
    what = words("supply wagon" if big else "ammunition cart")
    attrs = data(id=w["name"], side=w["owner"], kind="wagon", x=w["x"], y=w["y"], reach=wagon_pace(scenario))
    return (
        f'<g class="unit wagon {w["kind"]}"{attrs}><title>{escape(w["name"])} ({escape(words.side(w["owner"]))}): '
        f"{escape(what)}</title>"
        f'<rect x="{x - wd / 2:.2f}" y="{y - ht / 2:.2f}" width="{wd:g}" height="{ht:g}" rx="0.15" fill="{fill}" '
        f'stroke="{colour}" stroke-width="0.15"/></g>'
    )


def _hulls(view: Thing, depth: float, key: str, kind: str) -> list[Hull]:
    """(side, name, svg, hull) of each own group (``key`` "groups") or prisoner group ("prisoner_groups")."""
    figs = {f["id"]: f for f in view["figures"]}
    out: list[Hull] = []
    for side, groups in view.get(key, {}).items():
        for name, ids in sorted(groups.items()):
            members = [figs[i] for i in ids if i in figs]
            if not members:
                continue
            pts = [(f["x"], f["y"]) for f in members]
            hull = MultiPoint(pts).convex_hull.buffer(1.0, quad_segs=2)
            arm = "inf" if kind == "prisoners" else None
            reach = min(pace(view.get("scenario"), arm or f["arm"]) for f in members)
            cx, cy = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
            attrs = data(id=name, side=side, kind=kind, x=cx, y=cy, reach=reach, count=len(pts))
            colour = "#555" if kind == "prisoners" else COLOURS.get(side, "#555")
            out.append(
                (
                    side,
                    f"{name} ({len(pts)})",
                    f'<g class="unit {kind}"{attrs}><polygon points="{_pts(list(hull.exterior.coords), depth)}" '
                    f'fill="{colour}" fill-opacity="0.04" stroke="{colour}" stroke-width="0.12" '
                    f'stroke-dasharray="0.6 0.4"/></g>',
                    hull,
                )
            )
    return out


def _last(view: Thing, depth: float, words: Words) -> list[str]:
    last = view.get("last") or {}
    out = []
    for imp in last.get("impacts", []):
        x, y = imp["at"][0], depth - imp["at"][1]
        out.append(
            f'<path d="M{x - 0.6:.2f},{y - 0.6:.2f}L{x + 0.6:.2f},{y + 0.6:.2f}M{x - 0.6:.2f},{y + 0.6:.2f}'
            f'L{x + 0.6:.2f},{y - 0.6:.2f}" stroke="#000" stroke-width="0.2">'
            f"<title>{escape(words('impact, {killed} killed', killed=imp['killed']))}</title></path>"
        )
    for m in last.get("melees", []):
        x, y = m["at"][0], depth - m["at"][1]
        out.append(
            f'<circle cx="{x:.2f}" cy="{y:.2f}" r="3" fill="#f39c12" fill-opacity="0.25" stroke="#e67e22" '
            f'stroke-width="0.2"><title>'
            f"{escape(words('melee: {killed} killed, {captured} captured', killed=m['killed'], captured=m['captured']))}"
            "</title></circle>"
        )
    return out


def own_points(view: Thing) -> list[tuple[float, float]]:
    """Where the viewer's own troops stand (a player's; nobody else has a "my troops" box)."""
    viewer = view.get("viewer") or {}
    side = viewer.get("side") if viewer.get("role") == "player" else None
    if side is None:
        return []
    return (
        [(f["x"], f["y"]) for f in view.get("figures", []) if f["side"] == side and not f.get("captor")]
        + [(g["x"], g["y"]) for g in view.get("guns", []) if g["owner"] == side]
        + [(w["x"], w["y"]) for w in view.get("wagons", []) if w["owner"] == side]
    )


def mine_box(view: Thing) -> Box | None:
    t = view["table"]
    return crop_box(own_points(view), t["width"], t["depth"], MINE_MARGIN, MINE_ASPECT)


def _region(view: Thing, mine: Box | None, crop: bool) -> tablesvg.Region:
    w, d = view["table"]["width"], view["table"]["depth"]
    if crop and mine and mine[2] * mine[3] < CROP_WHEN * w * d:
        x, y, bw, bh = mine
        return (x, d - y - bh, bw, bh)
    return (0.0, 0.0, float(w), float(d))


def render_svg(view: Thing, crop: bool = False, lang: str = "en", extra: str = "", tables: Sequence[Table] = ()) -> str:
    """The map in ``lang`` (rules/core/mapwords.py); ``extra``: more marks in table inches drawn over
    the troops, under the labels (Kriegspiel's), ``tables`` the term tables of its words."""
    words = Words(lang, WORDS, *tables)
    table = view.get("table")
    if not table:
        return (
            '<svg xmlns="http://www.w3.org/2000/svg" data-map="table" viewBox="0 0 10 4"><text x="1" y="2" '
            f'font-size="1">{escape(words("No table yet"))}</text></svg>'
        )
    w, d = table["width"], table["depth"]
    mine = mine_box(view)
    region = _region(view, mine, crop)
    fs = tablesvg.font_size(region)
    rx, ry, rw, rh = tablesvg.svg_box(region, d)
    limbered = limbered_guns(view)
    groups = {fid: name for side in view.get("groups", {}).values() for name, ids in side.items() for fid in ids}
    hulls = _hulls(view, d, "groups", "group") + _hulls(view, d, "prisoner_groups", "prisoners")
    # labels may run into the margin above and to the right of the table (the rulers hold the others)
    placer = LabelPlacer(bounds=(rx, ry - fs, rw + fs, rh + fs), keep_clear=_troop_boxes(view, hulls))
    parts = [f'<rect x="0" y="0" width="{w:g}" height="{d:g}" fill="#dfe8c8" stroke="#444" stroke-width="0.2"/>']
    for kind in ORDER:
        parts += [_terrain(t, d, words) for t in table["terrain"] if t["type"] == kind]
    zone_marks, zone_notes = zones(view, words)
    parts += zone_marks
    parts += [_figure(f, d, view.get("scenario"), groups) for f in view.get("figures", [])]
    parts += [svg for _, _, svg, _ in hulls]
    parts += [_gun(g, d, view, limbered, limber_known(view), words) for g in view.get("guns", [])]
    parts += [_wagon(x, d, view.get("scenario"), words) for x in view.get("wagons", [])]
    parts += _last(view, d, words)
    parts.append(extra)
    parts += _labels(view, placer, hulls, limbered, fs, words)
    parts.append(tablesvg.rulers(region, d, fs, words("in")))
    below, height = _below(view, region, fs, zone_notes, words)
    parts.append(below)
    vb = (rx - 3.4 * fs, ry - fs, rw + 4.4 * fs, rh + fs + height)
    px = min(1600.0, max(900.0, 16.0 * vb[2]))  # the picture in pixels; the web scales it to the page
    root = (
        f'<svg xmlns="http://www.w3.org/2000/svg"{data(map="table", width=w, depth=d, y="up", mine=box_attr(mine))} '
        f'viewBox="{" ".join(f"{v:.2f}" for v in vb)}" width="{px:.0f}" height="{px * vb[3] / vb[2]:.0f}" '
        f'class="littlewars-map" font-family="{tablesvg.FONT}">'
    )
    return root + "".join(parts) + "</svg>"


def _troop_boxes(view: Thing, hulls: Sequence[Hull]) -> list[Box]:
    """What labels keep off: each group's outline, each gun and wagon (figures outside groups may be covered)."""
    d = view["table"]["depth"]
    out = [(h.bounds[0], d - h.bounds[3], h.bounds[2] - h.bounds[0], h.bounds[3] - h.bounds[1]) for *_, h in hulls]
    out += [(w["x"] - 0.6, d - w["y"] - 0.6, 1.2, 1.2) for w in view.get("wagons", [])]
    for g in view.get("guns", []):  # the gun and its barrel, 2 in along its heading
        h = math.radians(g["heading"])
        xs, ys = (g["x"], g["x"] + 2 * math.cos(h)), (d - g["y"], d - g["y"] - 2 * math.sin(h))
        out.append((min(xs) - 1.0, min(ys) - 1.0, max(xs) - min(xs) + 2.0, max(ys) - min(ys) + 2.0))
    return out


def _labels(
    view: Thing, placer: LabelPlacer, hulls: Sequence[Hull], limbered: Collection[str], fs: float, words: Words
) -> list[str]:
    """Names on the map, most important first (the placer gives way to the earlier): groups, guns,
    wagons, then terrain."""
    d = view["table"]["depth"]
    out = []
    for side, text, _, hull in hulls:
        out.append(
            label(
                placer,
                0,
                0,
                text,
                fs,
                0.2 * fs,
                COLOURS.get(side, "#555"),
                weight="bold",
                around=tablesvg.shape_box(hull, d),
            )
        )
    for g in view.get("guns", []):
        state = gun_state(g, limbered, words)
        out.append(
            label(
                placer,
                g["x"],
                d - g["y"] - 1.0,
                g["name"] + (f" ({state})" if state else ""),
                fs * 0.85,
                0.6 * fs,
                "#a00" if state else COLOURS.get(g["owner"], "#222"),
            )
        )
    for x in view.get("wagons", []):
        out.append(label(placer, x["x"], d - x["y"], x["name"], fs * 0.8, 0.6 * fs, COLOURS.get(x["owner"], "#222")))
    for t in view["table"]["terrain"]:
        out.append(
            label(
                placer,
                0,
                0,
                _terrain_name(t, words),
                fs * 0.85,
                0.2 * fs,
                "#3d3520",
                css="label terrain-name",
                around=tablesvg.shape_box(terrain_geometry(t), d),
            )
        )
    return out


def _below(
    view: Thing, region: tablesvg.Region, fs: float, zone_notes: Iterable[tuple[str, str]], words: Words
) -> tuple[str, float]:
    """Caption, scale bar and legend under the rulers; returns the SVG and the height they take."""
    d = view["table"]["depth"]
    rx, ry, rw, rh = tablesvg.svg_box(region, d)
    y = ry + rh + 3.4 * fs
    bar, sy = min(12.0, rw / 4), y + 1.6 * fs
    caption = f"{view.get('scenario', {}).get('title', '')}, {_when(view, words)}"
    size = round(min(fs * 1.1, (rw + 3 * fs) / text_width(caption, 1.0, "bold")), 2)  # a long title shrinks to fit
    out = [
        f'<text x="{rx:.2f}" y="{y:.2f}" font-size="{size:g}" font-weight="bold">{escape(caption)}</text>',
        f'<g class="scale"><line x1="{rx:.2f}" y1="{sy - 0.3 * fs:.2f}" x2="{rx + bar:.2f}" '
        f'y2="{sy - 0.3 * fs:.2f}" stroke="#000" stroke-width="{0.2 * fs:.2f}"/>'
        f'<text x="{rx + bar + 0.5 * fs:.2f}" y="{sy:.2f}" font-size="{fs * 0.8:g}">'
        f"{escape(words('{bar} in (1 ft): an infantry move' if bar == 12 else '{bar} in', bar=f'{bar:g}'))}</text></g>",
    ]
    shown = Polygon.from_bounds(region[0], region[1], region[0] + region[2], region[1] + region[3])
    present = {t["type"] for t in view["table"]["terrain"] if terrain_geometry(t).intersects(shown)}
    items = legend_items(
        view, {k: v for k, v in TERRAIN.items() if k in present}, COLOURS, zone_notes, words, limbered_guns(view)
    )
    legend, height = tablesvg.legend(items, rx, sy + 0.8 * fs, rw, fs * 0.85)
    out.append(legend)
    return "".join(out), 5.0 * fs + 0.8 * fs + height + fs


def _when(view: Thing, words: Words) -> str:
    """The caption's moment, by the game's turn number (the one the page, the mail and the rules use)."""
    phase = view.get("phase")
    number = (view.get("turn") or {}).get("number")
    if phase in ("edge", "deploy"):
        return words("turn {n}: choosing the edge" if phase == "edge" else "turn {n}: deployment", n=number)
    if phase == "over":
        return words("the game is over after turn {n}", n=number)
    return words("turn {n}", n=number)

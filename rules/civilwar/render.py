"""A standalone SVG of a view (no external resources)."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from rules.core.mapsvg import Box, LabelPlacer, data, label, text_box

FONT = "DejaVu Sans, sans-serif"
UNIT_FILL = {"red": "#c62828", "blue": "#1f4fa3"}
TOKEN_FILL = {"red": "#f6c9c9", "blue": "#c9d9f6", None: "#e4e4e4"}
TOKEN_STROKE = {"red": "#c62828", "blue": "#1f4fa3", None: "#888888"}


def _t(
    x: float, y: float, text: str, size: int = 12, anchor: str = "middle", fill: str = "#222", weight: str = "normal"
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-family="{FONT}" font-size="{size}" text-anchor="{anchor}" '
        f'fill="{fill}" font-weight="{weight}">{escape(str(text))}</text>'
    )


LINE_STYLE = 'stroke="#6a3fb5" stroke-width="2.5" stroke-dasharray="6 4" fill="none"'
Anchor = tuple[float, float, str]  # where a name goes (x, y) and the name


def _straight_lines(lines: list[dict[str, Any]], pos: dict[str, tuple[float, float]]) -> tuple[list[str], list[Anchor]]:
    """The straight lines along which breakthroughs run (CW-19), dashed over the roads, and
    where to name them (a third of the way along their first leg; placed last, clear of the rest)."""
    out: list[str] = []
    labels: list[Anchor] = []
    for ln in lines:
        pts = [pos[p] for p in ln["points"] if p in pos]
        if len(pts) < 2:
            continue
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        out.append(f'<polyline points="{path}" {LINE_STYLE}><title>line {escape(ln["id"])}</title></polyline>')
        (x0, y0), (x1, y1) = pts[0], pts[1]
        labels.append((x0 + (x1 - x0) * 0.3, y0 + (y1 - y0) * 0.3, ln["id"]))
    return out, labels


def _line_names(anchors: list[Anchor], board: dict[str, Any], pos: dict[str, tuple[float, float]]) -> list[str]:
    """The straight lines' names, placed clear of the cities, road points and their names."""
    keep: list[Box] = [
        (pos[c["id"]][0] - 27, pos[c["id"]][1] - 40, 54, 82) for c in board["cities"]
    ]  # circle, id, name
    keep += [(pos[r["id"]][0] - 10, pos[r["id"]][1] - 10, 20, 20) for r in board["roads"]]
    for r in board["roads"]:
        x, y, anchor = _road_label_at(r, pos)
        keep.append(text_box(x, y, 8, r["id"], anchor))
    placer = LabelPlacer(keep_clear=keep)
    return [label(placer, x, y, name, 9, 4, "#6a3fb5", weight="bold", halo="#fbf8f0") for x, y, name in anchors]


def _road_label_at(r: dict[str, Any], pos: dict[str, tuple[float, float]]) -> tuple[float, float, str]:
    """Where a road point's name goes: right of it on a vertical or diagonal road, else under it."""
    x, y = pos[r["id"]]
    (ax, ay), (bx, by) = pos[r["joins"][0]], pos[r["joins"][1]]
    return (x + 13, y + 3, "start") if abs(by - ay) > abs(bx - ax) * 0.5 else (x, y + 21, "middle")


def render_svg(view: dict[str, Any], crop: bool = False) -> str:
    """The whole map (``crop``, for large tables, does not apply: it fits one picture)."""
    board = view.get("board")
    if not board:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="400" height="60" viewBox="0 0 400 60">'
            f"{_t(200, 35, 'Civil War: the map has not been laid out yet', 14)}</svg>"
        )
    xs = [c["x"] for c in board["cities"]]
    ys = [c["y"] for c in board["cities"]]
    minx, miny = min(xs), min(ys)
    top = 70
    ox, oy = 60 - minx, top + 40 - miny
    width = max(700, max(xs) - minx + 120)
    map_h = max(ys) - miny + 100
    pos: dict[str, tuple[float, float]] = {}
    for c in board["cities"]:
        pos[c["id"]] = (c["x"] + ox, c["y"] + oy)
    for r in board["roads"]:
        pos[r["id"]] = (r["x"] + ox, r["y"] + oy)

    footer: list[str] = []
    last = view.get("last_operation")
    if last:
        footer.append(f"Last turn ({last['side']}): " + " ".join(last["lines"]))
    pending = view.get("pending")
    if pending:
        footer.append(
            f"Pending: {pending['defender']} unit driven from {pending['point']}: retreat to "
            f"{', '.join(pending['options'])} or fight."
        )
    for side, lines in sorted((view.get("standing_instructions") or {}).items()):
        footer.append(f"Standing instructions of {side}: " + ("; ".join(lines) if lines else "none"))
    height = top + 40 + map_h + 94 + 18 * len(footer)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg"{data(map="graph")} width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="{FONT}">',
        f'<rect x="0" y="0" width="{width:.0f}" height="{height:.0f}" fill="#fbf8f0"/>',
    ]
    # title line
    turn = view.get("turn") or {}
    result = view.get("result")
    if result:
        status = (
            f"Game over: {result['winner']} wins" if result.get("winner") else "Game over: draw"
        ) + f" ({result.get('reason', '')})"
    elif turn.get("kind") == "decision":
        status = f"turn {turn.get('number')}: {', '.join(turn.get('acting', []))} must decide (retreat or fight)"
    else:
        status = f"turn {turn.get('number')}: {turn.get('to_move')} to move"
    out.append(_t(20, 28, f"Civil War: {board['name']}", 18, "start", weight="bold"))
    out.append(_t(20, 50, status, 13, "start"))
    counters = view.get("counters") or {}
    if counters:
        c_text = "   |   ".join(
            f"{s}: {v['on_map']} units on map, {v['in_box']} in box, {v['tokens']}/{v['tokens_dealt']} tokens"
            for s, v in counters.items()
        )
        out.append(_t(20, 66, c_text, 11, "start", fill="#444"))

    # roads as lines between their cities
    city_ids = {c["id"] for c in board["cities"]}
    for r in board["roads"]:
        a, b = r["joins"]
        (ax, ay), (bx, by), (mx, my) = pos[a], pos[b], pos[r["id"]]
        out.append(
            f'<polyline points="{ax:.1f},{ay:.1f} {mx:.1f},{my:.1f} {bx:.1f},{by:.1f}" fill="none" '
            f'stroke="#9c8f7a" stroke-width="4" stroke-linecap="round"/>'
        )
    line_paths, line_labels = _straight_lines(board.get("lines") or [], pos)
    out += line_paths
    tokens = view.get("tokens") or {}
    for c in board["cities"]:
        x, y = pos[c["id"]]
        tok = tokens.get(c["id"])
        out.append(
            f'<circle class="node"{data(node=c["id"])} cx="{x:.1f}" cy="{y:.1f}" r="24" '
            f'fill="{TOKEN_FILL[tok]}" stroke="{TOKEN_STROKE[tok]}" stroke-width="3"/>'
        )
        out.append(_t(x, y - 29, c["id"], 11, fill="#333", weight="bold"))
        out.append(_t(x, y + 38, c["name"], 10, fill="#555"))
        if tok:
            out.append(
                f'<rect x="{x + 14:.1f}" y="{y - 26:.1f}" width="13" height="13" fill="{UNIT_FILL[tok]}" stroke="#fff"/>'
            )
            out.append(_t(x + 20.5, y - 16, tok[0].upper(), 9, fill="#fff", weight="bold"))
    for r in board["roads"]:
        x, y = pos[r["id"]]
        out.append(
            f'<rect class="node"{data(node=r["id"])} x="{x - 9:.1f}" y="{y - 9:.1f}" width="18" height="18" '
            'rx="3" fill="#fffdf7" stroke="#9c8f7a" stroke-width="1.5"/>'
        )
        lx, ly, anchor = _road_label_at(r, pos)
        out.append(_t(lx, ly, r["id"], 8, anchor, fill="#6b5f4d"))
    out += _line_names(line_labels, board, pos)
    # points the side to move may not attack this turn (taken by the enemy on its last move)
    mover = turn.get("to_move")
    enemy = "blue" if mover == "red" else "red"
    protected = set((view.get("protected") or {}).get(enemy, [])) if not result else set()
    for u in view.get("units") or []:
        if u["point"] not in pos:
            continue
        x, y = pos[u["point"]]
        rad = 14 if u["point"] in city_ids else 11
        attrs = data(id=u["point"], side=u["side"], kind="unit", node=u["point"])
        out.append(
            f'<circle class="unit"{attrs} cx="{x:.1f}" cy="{y:.1f}" r="{rad}" '
            f'fill="{UNIT_FILL.get(u["side"], "#000")}" stroke="#fff" stroke-width="2"/>'
        )
        out.append(_t(x, y + 4, u["side"][0].upper(), 11, fill="#fff", weight="bold"))
        if u["point"] in protected:
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{rad + 4}" fill="none" stroke="#e0a100" stroke-width="2" stroke-dasharray="4 3"/>'
            )
    if pending and pending["point"] in pos:
        x, y = pos[pending["point"]]
        out.append(
            f'<circle cx="{x + 22:.1f}" cy="{y + 18:.1f}" r="10" fill="{UNIT_FILL.get(pending["defender"], "#000")}" '
            f'fill-opacity="0.5" stroke="#000" stroke-dasharray="3 2"/>'
        )
        out.append(_t(x + 22, y + 22, "?", 11, fill="#fff", weight="bold"))

    # legend
    ly = top + 40 + map_h + 10
    lx = 20
    out.append(f'<circle cx="{lx + 8}" cy="{ly}" r="8" fill="{UNIT_FILL["red"]}"/>')
    out.append(_t(lx + 22, ly + 4, "red unit", 11, "start"))
    out.append(f'<circle cx="{lx + 98}" cy="{ly}" r="8" fill="{UNIT_FILL["blue"]}"/>')
    out.append(_t(lx + 112, ly + 4, "blue unit", 11, "start"))
    out.append(
        f'<circle cx="{lx + 198}" cy="{ly}" r="9" fill="{TOKEN_FILL["red"]}" stroke="{TOKEN_STROKE["red"]}" stroke-width="2"/>'
    )
    out.append(_t(lx + 212, ly + 4, "red/blue/neutral city", 11, "start"))
    out.append(f'<rect x="{lx + 350}" y="{ly - 8}" width="16" height="16" rx="3" fill="#fffdf7" stroke="#9c8f7a"/>')
    out.append(_t(lx + 372, ly + 4, "road point", 11, "start"))
    out.append(
        f'<circle cx="{lx + 458}" cy="{ly}" r="9" fill="none" stroke="#e0a100" stroke-width="2" stroke-dasharray="4 3"/>'
    )
    out.append(_t(lx + 472, ly + 4, "just occupied (safe this turn)", 11, "start"))
    out.append(f'<line x1="{lx}" y1="{ly + 24}" x2="{lx + 30}" y2="{ly + 24}" {LINE_STYLE}/>')
    out.append(_t(lx + 38, ly + 28, "straight line L…: a breakthrough runs along it", 11, "start"))
    fy = ly + 54
    for line in footer:
        out.append(_t(20, fy, line, 11, "start", fill="#333"))
        fy += 18
    out.append("</svg>")
    return "\n".join(out)

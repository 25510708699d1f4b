"""A standalone SVG of a view (no external resources)."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from rules.core.fontwidth import text_width
from rules.core.mapsvg import Box, LabelPlacer, board_layer, data, label, text_box
from rules.core.mapwords import Words, game_over

from .mapwords import WORDS

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


def _straight_lines(
    lines: list[dict[str, Any]], pos: dict[str, tuple[float, float]], words: Words
) -> tuple[list[str], list[Anchor]]:
    """The straight lines along which breakthroughs run (CW-19), dashed over the roads, and
    where to name them (a third of the way along their first leg; placed last, clear of the rest)."""
    out: list[str] = []
    labels: list[Anchor] = []
    for ln in lines:
        pts = [pos[p] for p in ln["points"] if p in pos]
        if len(pts) < 2:
            continue
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        out.append(
            f'<polyline points="{path}" {LINE_STYLE}><title>{escape(words("line {id}", id=ln["id"]))}</title></polyline>'
        )
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


def _letter(side: str, words: Words) -> str:
    """The letter on a unit or token: its side's initial in the map's language."""
    return words(f"letter|{side[0].upper()}")


def _footer(view: dict[str, Any], words: Words) -> list[str]:
    """The lines under the legend: the last operation, a pending retreat, standing instructions
    (the orders themselves quoted as orders write them)."""
    footer: list[str] = []
    last = view.get("last_operation")
    if last:
        footer.append(
            words("Last turn ({side}): {lines}", side=words.side(last["side"]), lines=" ".join(last["lines"]))
        )
    pending = view.get("pending")
    if pending:
        footer.append(
            words(
                "Pending: {side} unit driven from {point}: retreat to {options} or fight.",
                side=words.side(pending["defender"]),
                point=pending["point"],
                options=", ".join(pending["options"]),
            )
        )
    for side, lines in sorted((view.get("standing_instructions") or {}).items()):
        said = "; ".join(lines) if lines else words("none")
        footer.append(words("Standing instructions of {side}: {lines}", side=words.side(side), lines=said))
    return footer


def _status(view: dict[str, Any], words: Words) -> str:
    turn = view.get("turn") or {}
    result = view.get("result")
    if result:
        return game_over(result, words)
    if turn.get("kind") == "decision":
        acting = ", ".join(words.side(s) for s in turn.get("acting", []))
        return words("turn {n}: {acting} must decide (retreat or fight)", n=turn.get("number"), acting=acting)
    return words("turn {n}: {side} to move", n=turn.get("number"), side=words.side(turn.get("to_move")))


BATTLE_RING = 'fill="none" stroke="#c0392b" stroke-width="3" stroke-dasharray="6 3"'


def _legend(x: float, y: float, width: float, words: Words, battles: bool = False) -> tuple[str, float]:
    """The key under the map, laid out in rows ``width`` wide from (x, y) by the texts' own widths
    (so a longer language wraps instead of overlapping); returns the SVG and the height used.
    ``battles``: the game fights its assaults as battles (RULES.md §9), so the key shows their mark."""
    swatches = [
        (f'<circle cx="8" cy="0" r="8" fill="{UNIT_FILL["red"]}"/>', "red unit"),
        (f'<circle cx="8" cy="0" r="8" fill="{UNIT_FILL["blue"]}"/>', "blue unit"),
        (
            f'<circle cx="8" cy="0" r="9" fill="{TOKEN_FILL["red"]}" stroke="{TOKEN_STROKE["red"]}" stroke-width="2"/>',
            "red/blue/neutral city",
        ),
        ('<rect x="0" y="-8" width="16" height="16" rx="3" fill="#fffdf7" stroke="#9c8f7a"/>', "road point"),
        (
            '<circle cx="8" cy="0" r="9" fill="none" stroke="#e0a100" stroke-width="2" stroke-dasharray="4 3"/>',
            "just occupied (safe this turn)",
        ),
        (f'<line x1="0" y1="0" x2="30" y2="0" {LINE_STYLE}/>', "straight line L…: a breakthrough runs along it"),
    ]
    if battles:
        swatches.append((f'<circle cx="8" cy="0" r="9" {BATTLE_RING}/>', "battle being fought (B1, B2…)"))
    out, cx, cy = ['<g class="legend">'], x, y
    for swatch, english in swatches:
        text = words(english)
        lead = 38 if "<line" in swatch else 22
        w = lead + text_width(text, 11) + 24
        if cx > x and cx + w > x + width:
            cx, cy = x, cy + 24
        out.append(f'<g transform="translate({cx:.1f},{cy:.1f})">{swatch}</g>')
        out.append(_t(cx + lead, cy + 4, text, 11, "start"))
        cx += w
    out.append("</g>")
    return "".join(out), cy - y + 24


def _board(board: dict[str, Any], pos: dict[str, tuple[float, float]], words: Words) -> list[str]:
    """The board's own drawing: roads, straight lines, the points and the names of all of them. The
    cities' circles are the view's (their fill is the token on them), drawn over this; the names sit
    outside the circles and the unit markers, so the order changes nothing that shows."""
    out = []
    for r in board["roads"]:
        a, b = r["joins"]
        (ax, ay), (bx, by), (mx, my) = pos[a], pos[b], pos[r["id"]]
        out.append(
            f'<polyline points="{ax:.1f},{ay:.1f} {mx:.1f},{my:.1f} {bx:.1f},{by:.1f}" fill="none" '
            f'stroke="#9c8f7a" stroke-width="4" stroke-linecap="round"/>'
        )
    line_paths, line_labels = _straight_lines(board.get("lines") or [], pos, words)
    out += line_paths
    for c in board["cities"]:
        x, y = pos[c["id"]]
        out.append(_t(x, y - 29, c["id"], 11, fill="#333", weight="bold"))
        out.append(_t(x, y + 38, c["name"], 10, fill="#555"))
    for r in board["roads"]:
        x, y = pos[r["id"]]
        out.append(
            f'<rect class="node"{data(node=r["id"])} x="{x - 9:.1f}" y="{y - 9:.1f}" width="18" height="18" '
            'rx="3" fill="#fffdf7" stroke="#9c8f7a" stroke-width="1.5"/>'
        )
        lx, ly, anchor = _road_label_at(r, pos)
        out.append(_t(lx, ly, r["id"], 8, anchor, fill="#6b5f4d"))
    return out + _line_names(line_labels, board, pos)


def render_svg(view: dict[str, Any], crop: bool = False, lang: str = "en") -> str:
    """The whole map in ``lang`` (``crop``, for large tables, does not apply: it fits one picture)."""
    words = Words(lang, WORDS)
    board = view.get("board")
    if not board:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="400" height="60" viewBox="0 0 400 60">'
            f"{_t(200, 35, words('Civil War: the map has not been laid out yet'), 14)}</svg>"
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

    footer = _footer(view, words)
    legend, legend_h = _legend(20, top + 40 + map_h + 10, width - 40, words, bool(board.get("battles")))
    height = top + 40 + map_h + 40 + legend_h + 18 * len(footer)

    # The board (what no view changes: the ground, the roads and points with their names, the
    # straight lines, the title and the key) first, as one layer; then what this view shows over
    # it. A mail's picture draws the board once and lays each view over it (mapsvg.board_layer).
    board_parts = [
        f'<rect x="0" y="0" width="{width:.0f}" height="{height:.0f}" fill="#fbf8f0"/>',
        _t(20, 28, words("Civil War: {name}", name=board["name"]), 18, "start", weight="bold"),
        *_board(board, pos, words),
        legend,
    ]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg"{data(map="graph")} width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="{FONT}">',
        board_layer(board_parts),
    ]
    turn = view.get("turn") or {}
    result = view.get("result")
    out.append(_t(20, 50, _status(view, words), 13, "start"))
    counters = view.get("counters") or {}
    if counters:
        c_text = "   |   ".join(
            words(
                "{side}: {on_map} units on map, {in_box} in box, {tokens}/{dealt} tokens",
                side=words.side(s),
                on_map=v["on_map"],
                in_box=v["in_box"],
                tokens=v["tokens"],
                dealt=v["tokens_dealt"],
            )
            for s, v in counters.items()
        )
        out.append(_t(20, 66, c_text, 11, "start", fill="#444"))
    city_ids = {c["id"] for c in board["cities"]}
    tokens = view.get("tokens") or {}
    for c in board["cities"]:
        x, y = pos[c["id"]]
        tok = tokens.get(c["id"])
        out.append(
            f'<circle class="node"{data(node=c["id"])} cx="{x:.1f}" cy="{y:.1f}" r="24" '
            f'fill="{TOKEN_FILL[tok]}" stroke="{TOKEN_STROKE[tok]}" stroke-width="3"/>'
        )
        if tok:
            out.append(
                f'<rect x="{x + 14:.1f}" y="{y - 26:.1f}" width="13" height="13" fill="{UNIT_FILL[tok]}" stroke="#fff"/>'
            )
            out.append(_t(x + 20.5, y - 16, _letter(tok, words), 9, fill="#fff", weight="bold"))
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
        out.append(_t(x, y + 4, _letter(u["side"], words), 11, fill="#fff", weight="bold"))
        if u["point"] in protected:
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{rad + 4}" fill="none" stroke="#e0a100" stroke-width="2" stroke-dasharray="4 3"/>'
            )
    for b in view.get("battles") or []:  # a battle being fought: a ring round its place, its name beside
        if b["status"] == "resolved" or b["place"]["id"] not in pos:
            continue
        x, y = pos[b["place"]["id"]]
        out.append(
            f'<g class="battle" data-battle="{b["id"]}"><circle cx="{x:.1f}" cy="{y:.1f}" r="30" {BATTLE_RING}/>'
        )
        out.append(_t(x - 30, y - 30, b["id"], 12, "end", fill="#c0392b", weight="bold") + "</g>")
    pending = view.get("pending")
    if pending and pending["point"] in pos:
        x, y = pos[pending["point"]]
        out.append(
            f'<circle cx="{x + 22:.1f}" cy="{y + 18:.1f}" r="10" fill="{UNIT_FILL.get(pending["defender"], "#000")}" '
            f'fill-opacity="0.5" stroke="#000" stroke-dasharray="3 2"/>'
        )
        out.append(_t(x + 22, y + 22, "?", 11, fill="#fff", weight="bold"))

    fy = top + 40 + map_h + 10 + legend_h + 20
    for line in footer:
        out.append(_t(20, fy, line, 11, "start", fill="#333"))
        fy += 18
    out.append("</svg>")
    return "\n".join(out)

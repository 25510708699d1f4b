"""The map of a view as SVG (web page; the mail turns it into a PNG with cairosvg)."""

from __future__ import annotations

from typing import Any

from rules.hex.board import hexmap
from rules.hex.svg import render

from .data import SIDE_STROKE, TERRAIN_FILL

SHORT = {
    "infantry": "inf",
    "rifles": "rifles",
    "light_infantry": "lt inf",
    "skirmishers": "skirm",
    "cavalry": "cav",
    "heavy_cavalry": "hv cav",
    "light_cavalry": "lt cav",
    "dragoons": "drag",
    "artillery": "guns",
    "horse_artillery": "h.guns",
}


def _counter(u: dict[str, Any], leaders: list[dict[str, Any]]) -> dict[str, Any]:
    strength = f"{u['figures']}/{u['start']}"
    state = (["square"] if u["square"] else []) + [f"L{x['level']} {x['id']}" for x in leaders]
    return {
        "id": u["id"],
        "hex": u["hex"],
        "side": u["side"],
        "name": f"{u['id']} {SHORT[u['arm']]}",
        "strength": strength,
        "state": " ".join(state),
        "hidden": False,
        "title": f"{u['id']} {u['name']} ({u['arm']}, {u['nation']}, {u['side']}): {strength}",
    }


def render_svg(view: dict[str, Any], crop: bool = False) -> str:
    """The whole map (``crop``, for large tables, does not apply: it fits one picture)."""
    sc = view.get("scenario")
    if not sc:
        return (
            '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="60"><text x="20" y="35" '
            'font-family="DejaVu Sans, sans-serif">Napoleon\'s War: no battle yet</text></svg>'
        )
    m = hexmap(sc["map"])
    leaders = [x for x in view["leaders"] if x["status"] == "active" and x["hex"]]
    counters = []
    for u in view["units"]:
        if u["status"] == "active" and u["hex"]:
            counters.append(_counter(u, [x for x in leaders if x["hex"] == u["hex"] and x["side"] == u["side"]]))
    held = {c["hex"] for c in counters}
    for x in leaders:  # ordered by his id: a badge on the troops he is with, or a counter of his own
        counters.append(
            {
                "id": x["id"],
                "kind": "leader",
                "badge": x["hex"] in held,
                "hex": x["hex"],
                "side": x["side"],
                "name": f"{x['id']} L{x['level']}",
                "strength": "",
                "state": "leader",
                "hidden": False,
                "title": f"{x['name']} (level {x['level']})",
            }
        )
    result, turn = view.get("result"), view.get("turn") or {}
    if result:
        status = (
            f"Game over: {result['winner']} wins" if result["winner"] else "Game over: draw"
        ) + f" ({result['reason']})"
    else:
        status = f"Turn {turn['number']} of {sc['turns']}: {sc['armies'][turn['side']]} ({turn['side']}) to act"
    score = view.get("score") or {}
    lines = [status, "Score: " + ", ".join(f"{s} {p}" for s, p in score.items())]
    marks = dict.fromkeys(sc["objectives"], "#d4a017")
    return render(
        m,
        terrain_fill=TERRAIN_FILL,
        side_stroke=SIDE_STROKE,
        counters=counters,
        title=f"Napoleon's War: {sc['title']}",
        lines=lines,
        marks=marks,
        css_class="napoleon-map",
    )

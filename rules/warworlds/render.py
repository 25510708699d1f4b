"""The map of a view as SVG (web page; the mail turns it into a PNG with cairosvg)."""

from __future__ import annotations

from typing import Any

from rules.hex.board import hexmap
from rules.hex.svg import render

from .data import SIDE_STROKE, TERRAIN_FILL

SHORT = {
    "infantry": "inf",
    "cavalry": "cav",
    "tank": "tank",
    "light_vehicle": "car",
    "towed_artillery": "gun",
    "infantry_artillery": "gun",
    "cavalry_artillery": "h.gun",
    "walker": "walker",
    "aircraft": "air",
    "automaton": "auto",
}


def _counter(u: dict[str, Any]) -> dict[str, Any]:
    strength = f"{u['models']}/{u['start']}" if u["kind"] == "squad" else f"crew {u['crew']}/{u['crew_start']}"
    state = [] if u["morale"] == "calm" else [u["morale"]]
    if u["bonus"]:
        state.append("bonus")
    if u["penalty"]:
        state.append("penalty")
    if u["kind"] != "squad":
        state += (["immobile"] if u["immobile"] else []) + (["burning"] if u["burning"] else [])
    if u["status"] != "active":
        state = [u["status"]]
    return {
        "id": u["id"],
        "hex": u["hex"],
        "side": u["side"],
        "name": f"{u['id']} {SHORT[u['profile']]}",
        "strength": strength,
        "state": " ".join(state),
        "hidden": u["hidden"],
        "title": f"{u['id']} {u['name']} ({u['profile']}, {u['side']}): {strength}, {u['morale']}",
    }


def render_svg(view: dict[str, Any], crop: bool = False) -> str:
    """The whole map (``crop``, for large tables, does not apply: it fits one picture)."""
    sc = view.get("scenario")
    if not sc:
        return (
            '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="60"><text x="20" y="35" '
            'font-family="DejaVu Sans, sans-serif">War of the Worlds: no battle yet</text></svg>'
        )
    m = hexmap(sc["map"])
    counters = [_counter(u) for u in view["units"] if u["hex"] and u["status"] in ("active", "abandoned", "wreck")]
    result, turn = view.get("result"), view.get("turn") or {}
    status = (
        (f"Game over: {result['winner']} wins" if result["winner"] else "Game over: draw") + f" ({result['reason']})"
        if result
        else f"Turn {turn['number']} of {sc['turns']}, {turn['round']} round; {turn['attacker']} activates first"
    )
    score = view.get("score") or {}
    lines = [status, "Score: " + ", ".join(f"{s} {p}" for s, p in score.items())]
    off = [u for u in view["units"] if u["kind"] == "aircraft" and not u["hex"] and u["status"] == "active"]
    if off:
        lines.append("Aircraft off the field: " + ", ".join(f"{u['id']} ({u['side']})" for u in off))
    marks = dict.fromkeys(sc["objectives"], "#d4a017")
    return render(
        m,
        terrain_fill=TERRAIN_FILL,
        side_stroke=SIDE_STROKE,
        counters=counters,
        title=f"War of the Worlds: {sc['title']}",
        lines=lines,
        marks=marks,
        css_class="warworlds-map",
    )

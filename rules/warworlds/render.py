"""The map of a view as SVG (web page; the mail turns it into a PNG with cairosvg)."""

from __future__ import annotations

from typing import Any

from rules.core.mapwords import Words, game_over, score_line
from rules.hex.board import hexmap
from rules.hex.mapwords import WORDS as HEX_WORDS
from rules.hex.svg import no_battle, render

from .data import SIDE_STROKE, TERRAIN_FILL
from .mapwords import WORDS

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


def _counter(u: dict[str, Any], words: Words) -> dict[str, Any]:
    squad = u["kind"] == "squad"
    strength = (
        f"{u['models']}/{u['start']}" if squad else words("crew {crew}/{start}", crew=u["crew"], start=u["crew_start"])
    )
    state = [] if u["morale"] == "calm" else [u["morale"]]
    if u["bonus"]:
        state.append("bonus")
    if u["penalty"]:
        state.append("penalty")
    if not squad:
        state += (["immobile"] if u["immobile"] else []) + (["burning"] if u["burning"] else [])
    if u["status"] != "active":
        state = [u["status"]]
    profile, side, morale = words(u["profile"]), words.side(u["side"]), words(u["morale"])
    return {
        "id": u["id"],
        "hex": u["hex"],
        "side": u["side"],
        "name": f"{u['id']} {words('short|' + SHORT[u['profile']])}",
        "strength": strength,
        "state": " ".join(map(words, state)),
        "hidden": u["hidden"],
        "title": f"{u['id']} {u['name']} ({profile}, {side}): {strength}, {morale}",
    }


def render_svg(view: dict[str, Any], crop: bool = False, lang: str = "en") -> str:
    """The whole map in ``lang`` (``crop``, for large tables, does not apply: it fits one picture)."""
    words = Words(lang, HEX_WORDS, WORDS)
    sc = view.get("scenario")
    if not sc:
        return no_battle(words("War of the Worlds: no battle yet"))
    m = hexmap(sc["map"])
    shown = ("active", "abandoned", "wreck")
    counters = [_counter(u, words) for u in view["units"] if u["hex"] and u["status"] in shown]
    result, turn = view.get("result"), view.get("turn") or {}
    status = (
        game_over(result, words)
        if result
        else words("Deployment round before turn 1: hidden units are placed in their zones")
        if view.get("phase") == "deploy"
        else words(
            "Turn {n} of {turns}, {round} round; {attacker} activates first",
            n=turn["number"],
            turns=sc["turns"],
            round=words(turn["round"]),
            attacker=words.side(turn["attacker"]),
        )
    )
    lines = [status, score_line(view, words)]
    off = [u for u in view["units"] if u["kind"] == "aircraft" and not u["hex"] and u["status"] == "active"]
    if off:
        aircraft = ", ".join(f"{u['id']} ({words.side(u['side'])})" for u in off)
        lines.append(words("Aircraft off the field: {aircraft}", aircraft=aircraft))
    marks = dict.fromkeys(sc["objectives"], "#d4a017")
    return render(
        m,
        terrain_fill=TERRAIN_FILL,
        side_stroke=SIDE_STROKE,
        counters=counters,
        title=words("War of the Worlds: {title}", title=sc["title"]),
        lines=lines,
        marks=marks,
        css_class="warworlds-map",
        words=words,
    )

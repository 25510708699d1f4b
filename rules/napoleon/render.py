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


def _counter(u: dict[str, Any], leaders: list[dict[str, Any]], words: Words) -> dict[str, Any]:
    strength = f"{u['figures']}/{u['start']}"
    state = ([words("square")] if u["square"] else []) + [
        f"{words('L{level}', level=x['level'])} {x['id']}" for x in leaders
    ]
    return {
        "id": u["id"],
        "hex": u["hex"],
        "side": u["side"],
        "name": f"{u['id']} {words('short|' + SHORT[u['arm']])}",
        "strength": strength,
        "state": " ".join(state),
        "hidden": False,
        "title": f"{u['id']} {u['name']} ({words(u['arm'])}, {u['nation']}, {words.side(u['side'])}): {strength}",
    }


def render_svg(view: dict[str, Any], crop: bool = False, lang: str = "en") -> str:
    """The whole map in ``lang`` (``crop``, for large tables, does not apply: it fits one picture)."""
    words = Words(lang, HEX_WORDS, WORDS)
    sc = view.get("scenario")
    if not sc:
        return no_battle(words("Napoleon's War: no battle yet"))
    m = hexmap(sc["map"])
    leaders = [x for x in view["leaders"] if x["status"] == "active" and x["hex"]]
    counters = []
    for u in view["units"]:
        if u["status"] == "active" and u["hex"]:
            with_him = [x for x in leaders if x["hex"] == u["hex"] and x["side"] == u["side"]]
            counters.append(_counter(u, with_him, words))
    held = {c["hex"] for c in counters}
    for x in leaders:  # ordered by his id: a badge on the troops he is with, or a counter of his own
        counters.append(
            {
                "id": x["id"],
                "kind": "leader",
                "badge": x["hex"] in held,
                "hex": x["hex"],
                "side": x["side"],
                "name": f"{x['id']} {words('L{level}', level=x['level'])}",
                "strength": "",
                "state": words("leader"),
                "hidden": False,
                "title": words("{name} (level {level})", name=x["name"], level=x["level"]),
            }
        )
    result, turn = view.get("result"), view.get("turn") or {}
    if result:
        status = game_over(result, words)
    else:
        status = words(
            "Turn {n} of {turns}: {army} ({side}) to act",
            n=turn["number"],
            turns=sc["turns"],
            army=sc["armies"][turn["side"]],
            side=words.side(turn["side"]),
        )
    lines = [status, score_line(view, words)]
    marks = dict.fromkeys(sc["objectives"], "#d4a017")
    return render(
        m,
        terrain_fill=TERRAIN_FILL,
        side_stroke=SIDE_STROKE,
        counters=counters,
        title=words("Napoleon's War: {title}", title=sc["title"]),
        lines=lines,
        marks=marks,
        css_class="napoleon-map",
        words=words,
    )

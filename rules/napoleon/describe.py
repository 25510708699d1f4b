"""One readable English line per event."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .fold import PREFIX


def _mods(p: Mapping[str, Any]) -> str:
    m = p.get("mods") or []
    return (" (" + ", ".join(f"{'+' if v > 0 else ''}{v} {r}" for r, v in m) + ")") if m else ""


def _attacked(p: Mapping[str, Any]) -> str:
    what = {"fire": "fires at", "melee": "melees", "cavalry_melee": "melees (cavalry)", "charge": "charges"}[p["kind"]]
    out = (f"{p['by']} {what} {p['target']}: {p['dice']} dice{_mods(p)} hitting on {p['hit_on']}+, "
           f"rolls {' '.join(map(str, p['rolls']))}: {p['hits']} hit(s), {p['left']} figure(s) left")
    if p.get("recoil"):
        out += f"; the counter-charge costs {p['by']} {p['recoil']} figure(s)"
    return out + "."


_TEXT: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "battle_set": lambda p: f"The battle is set: {p.get('title') or p['scenario']['title']}; {p['side']} moves first.",
    "turn_started": lambda p: f"Turn {p['turn']}: {p['side']} acts with {p['points']} command points.",
    "turn_opened": lambda p: f"Turn {p['turn']}: {p['side']} to act.",
    "standing_set": lambda p: f"{p['side']} standing instruction: {p['key']} {p['value']}.",
    "moved": lambda p: (f"{p['unit']} {'charges along' if p.get('charge') else 'moves'} " + " → ".join(p["path"])
                        + (" by road (the extra hex: done for the turn)" if p.get("done") else "")
                        + f" [{p['cost']} CP]."),
    "leader_moved": lambda p: f"Leader {p['leader']} rides " + " → ".join(p["path"]) + " [free].",
    "leader_helps": lambda p: f"Leader {p['leader']} directs {p['unit']}: one point cheaper.",
    "order_failed": lambda p: f"Not carried out: '{p['order']}': {p['reason']}.",
    "points_rolled": lambda p: (f"{p['side']} has spent {p['spent']} points and rolls {p['die']} for "
                                f"{p['extra']} more: {p['left']} left."),
    "points_exhausted": lambda p: ("Out of command points; not carried out: " + "; ".join(p["not_done"]) + "."),
    "square_check": lambda p: (f"{p['unit']} tries to form square: {p['die']} against {p['strength']}: "
                               + ("formed." if p["formed"] else "fails (no penalty, NW-20).")),
    "countercharge_check": lambda p: (f"{p['unit']} counter-charges: {p['die']} against {p['strength']}: "
                                      + ("passes." if p["passed"] else "fails (+1 die to the charger).")),
    "attacked": _attacked,
    "arrived": lambda p: f"{p['unit']} enters the field at {p['at']}.",
    "arrival_delayed": lambda p: f"{p['unit']} cannot enter at {p['at']} this turn: {p['reason']}.",
    "leader_check": lambda p: (f"Leader {p['leader']} checks ({p['why']}): {p['die']}"
                               + (": killed." if p["killed"] else ": unhurt.")),
    "leader_retreats": lambda p: (f"Leader {p['leader']} leaves {p['from']}"
                                  + (f" for {p['to']}." if p["to"] else " and the field.")),
    "game_over": lambda p: (f"Game over: {p['winner'] or 'nobody'} wins; {p['reason']}."),
}


def describe_event(event_type: str, p: Mapping[str, Any]) -> str:
    if not event_type.startswith(PREFIX):
        return event_type
    k = event_type[len(PREFIX):]
    f = _TEXT.get(k)
    return f(p) if f else f"{k}: " + ", ".join(f"{a}={b}" for a, b in p.items() if a not in ("units", "leaders"))

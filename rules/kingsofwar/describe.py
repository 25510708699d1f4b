"""One readable line per event, for logs, mail and reports."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .fold import PREFIX


def _roll(r: Mapping[str, Any]) -> str:
    return (f"{r['dice']} dice needing {r['needed']}+: {r['hits']} hits "
            f"{r['hit_rolls']}, {r['damage']} damage {r['damage_rolls']}")


def describe_event(event_type: str, p: Mapping[str, Any]) -> str:
    name = event_type[len(PREFIX):] if event_type.startswith(PREFIX) else event_type
    if name == "battle_set":
        return f"Battle set: {p['scenario']['title'] if 'title' in p['scenario'] else p['scenario']['name']}, {p['first']} moves first"
    if name == "unit_moved":
        pivot = f", pivoting {abs(p['pivot'])} {'left' if p['pivot'] > 0 else 'right'}" if p["pivot"] else ""
        return f"{p['unit']} {p['order']} {p['dist']:g} in{pivot}"
    if name == "unit_charged":
        how = "counter-charges" if p["counter"] else "charges"
        return f"{p['unit']} {how} {p['target']} in the {p['side']}" + (" (hindered)" if p["hindered"] else "")
    if name == "order_refused":
        then = "it does not shoot" if " shoot " in f" {p['text'].lower()} " else "the unit halts"
        return f"{p['side']} line {p['line']} '{p['text']}' refused: {p['reason']}; {then}"
    if name == "shot":
        cover = " in cover" + (f" (die {p['cover_die']})" if p["cover_die"] else "") if p["cover"] else ""
        return f"{p['unit']} shoots {p['target']}{cover}: {_roll(p)}"
    if name == "shot_impossible":
        return f"{p['unit']} cannot shoot {p['target']}: {p['reason']}"
    if name == "fight":
        rolls = "; ".join(f"{r['unit']} ({r['side']}) {_roll(r)}" for r in p["rolls"])
        return f"Fight against {p['target']}: {rolls}; {p['damage']} damage in all"
    if name == "nerve_test":
        return f"{p['unit']} tests Nerve: {p['dice']} + damage = {p['total']} -> {p['outcome']}"
    if name == "fell_back":
        return f"{p['unit']} falls back 1 in"
    if name == "regrouped":
        return f"{p['unit']} regroups where it stands ({p['target']} has routed)"
    if name == "turn_ended":
        return f"{p['side']}'s turn ends; {p['next']} to move (round {p['round']})"
    if name == "game_over":
        return f"Game over: {p['winner'] or 'nobody'} wins ({p['reason']})"
    return name

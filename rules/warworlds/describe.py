"""One readable English line per event."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.hex.coords import DIRECTION_NAMES

from .fold import PREFIX


def _rolls(p: Mapping[str, Any]) -> str:
    r = p.get("rolls") or []
    return f" (rolls {' '.join(map(str, r))})" if r and len(r) <= 12 else ""


def describe_event(event_type: str, p: Mapping[str, Any]) -> str:
    if not event_type.startswith(PREFIX):
        return event_type
    k = event_type[len(PREFIX):]
    f = _TEXT.get(k)
    return f(p) if f else f"{k}: " + ", ".join(f"{a}={b}" for a, b in p.items() if a not in ("units", "audience"))


_TEXT: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "battle_set": lambda p: (f"The battle is set: {p.get('title') or p['scenario']['title']}; {p['first']} is the "
                             "attacker and activates first."),
    "hidden_deployed": lambda p: "Units deployed in hiding: " + ", ".join(sorted(p.get("units", {}))) + ".",
    "markers_cleared": lambda p: "Markers cleared for the new turn.",
    "round_started": lambda p: f"Turn {p['turn']}, {p['round']} round.",
    "round_opened": lambda p: f"Turn {p['turn']}: the {p['round']} round is open.",
    "moved": lambda p: (f"{p['unit']} moves ({p['mode']}) " + " → ".join(p["path"])
                        + (f"; stopped short: {p['short']}" if p.get("short") else "")),
    "order_failed": lambda p: f"Not carried out: '{p['order']}': {p['reason']}.",
    "revealed": lambda p: f"{p['unit']} is revealed at {p['at']}: {p['why']}.",
    "aircraft_placed": lambda p: f"{p['unit']} swoops in over {p['at']} to attack {p['target']}.",
    "attacked": lambda p: (f"{p['by']} attacks {p['target']} with {p['weapon']} (strength {p['strength']}): "
                           f"{p['attacks']} attacks{_rolls(p)}, {p['hits']} hits, {p['saved']} saved"
                           + (f", {p['stray']} strike own troops" if p.get("stray") else "")
                           + (f"; lost {', '.join(p['lost'])}" if p["lost"] else "") + f"; {p['left']} left."),
    "machine_attacked": lambda p: (f"{p['by']} attacks {p['target']} with {p['weapon']} (strength {p['strength']})"
                                   f": {p['attacks']} attacks{_rolls(p)}, {p['hits']} hits, {p['saved']} saved"
                                   + (f", {p['stray']} strike own troops" if p.get("stray") else "") + "."),
    "no_effect": lambda p: f"{p['by']}'s {p['weapon']} cannot hurt {p['target']}: {p['why']}.",
    "damaged": lambda p: (f"{p['target']} damaged: roll {p['roll']} → {p['modified']}: {p['result']}; "
                          f"{p['crew_left']} crew left."),
    "bailed_out": lambda p: f"The surviving crew of {p['from']} bail out to {p['at']} as {p['unit']}.",
    "air_crash": lambda p: f"{p['unit']} crashes" + (f" into {p['at']}" if p["at"] else " off the field") + f" (D6 {p['d6']}).",
    "aimed": lambda p: (f"{p['by']} aims {p['weapon']} at {p['at']}: roll {p['roll']}, "
                        + ("on target." if not p["d6"] else
                           f"misses; D6 {p['d6']} ({DIRECTION_NAMES[p['d6'] - 1]}): lands "
                           + (f"in {p['lands']}." if p["lands"] else "off the field."))),
    "direct_hit": lambda p: (f"{p['by']}'s {p['weapon']} direct hit on {p['target']}: roll {p['roll']}, "
                             + (f"kills {p['lost'][0]}." if p["lost"] else "misses.")),
    "halved": lambda p: f"{p['unit']} has lost half its strength.",
    "shot_from": lambda p: f"{p['unit']} is under fire from the {DIRECTION_NAMES[p['direction']]}.",
    "activated": lambda p: f"{p['unit']} has acted ({p['phase']}).",
    "melee": lambda p: (f"{p['unit']} " + ("storms" if p.get("storm") else "boards" if p.get("board") else "attacks")
                        + f" {p['target']}" + ("" if p.get("storm") or p.get("board") else " in melee")
                        + (f", charging (+{p['charge']})" if p["charge"] else "") + "."),
    "fear_test": lambda p: (f"{p['unit']} tests morale ({p['why']}): roll {p['roll']} needs {p['need']}+: "
                            + ("holds." if p["from"] == p["to"] else f"{p['from']} → {p['to']}.")),
    "morale_rolled": lambda p: (f"{p['unit']} ({p['level']}) rolls {p['roll']}"
                                + (": bonus marker" if p["bonus"] else "") + (": penalty marker" if p["penalty"] else "")
                                + (": recovers to despondency" if p["recovered"] else "") + "."),
    "surrendered": lambda p: f"{p['unit']} has nowhere to run and surrenders at {p['at']}.",
    "deserted": lambda p: f"{p['unit']} flees off the field at {p['at']} and deserts.",
    "fire_out": lambda p: f"The fire in {p['unit']} goes out (roll {p['roll']}).",
    "fire_burns": lambda p: f"{p['unit']} burns on (roll {p['roll']}); {p['crew_left']} crew left.",
    "priority_set": lambda p: f"{p['unit']} protects {', '.join(p['roles'])} (hit last).",
    "door_forced": lambda p: f"{p['unit']} tries the door at {p['at']}: roll {p['roll']}, " + ("it gives." if p["open"] else "it holds."),
    "entered": lambda p: f"{p['unit']}: {p['soldiers']} soldier(s) get in at {p['at']} (D3 {' '.join(map(str, p['d3']))}).",
    "came_out": lambda p: (f"{p['unit']} must come out of {p['at']}: {p['out']} get out"
                           + (f", lost inside: {', '.join(p['lost'])}" if p["lost"] else "") + "."),
    "crew_fight": lambda p: f"{p['unit']} fights the crew of {p['machine']}: {p['crew_lost']} crew lost, {p['crew_left']} left.",
    "agility": lambda p: (f"{p['unit']} jumps onto the moving {p['machine']} ({p['need']}+): {p['failed']} fail, "
                          f"{p['lost']} lost."),
    "captured": lambda p: f"{p['unit']} captures {p['machine']}: {p['crew']} soldier(s) now crew it.",
    "rammed": lambda p: f"{p['unit']} rams {p['target']} after {p['moved']} hex(es).",
    "game_over": lambda p: ((f"{p['winner'].capitalize()} wins" if p["winner"] else "Draw") + f": {p['reason']}."),
}

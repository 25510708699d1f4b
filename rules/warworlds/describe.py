"""One readable line per event: English, marked for the platform to translate (rules.core.i18n)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.core.i18n import _, pgettext
from rules.hex.coords import DIRECTION_NAMES

from .fold import PREFIX


def _rolls(p: Mapping[str, Any]) -> str:
    r = p.get("rolls") or []
    return f" (rolls {' '.join(map(str, r))})" if r and len(r) <= 12 else ""


def describe_event(event_type: str, p: Mapping[str, Any]) -> str:
    if not event_type.startswith(PREFIX):
        return event_type
    k = event_type[len(PREFIX) :]
    f = _TEXT.get(k)
    return f(p) if f else f"{k}: " + ", ".join(f"{a}={b}" for a, b in p.items() if a not in ("units", "audience"))


_TEXT: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "battle_set": lambda p: _(
        "The battle is set: {value}; {first} is the attacker and activates first.",
        value=p.get("title") or p["scenario"]["title"],
        first=pgettext("side", p["first"]),
    ),
    "hidden_deployed": lambda p: "Units deployed in hiding: " + ", ".join(sorted(p.get("units", {}))) + ".",
    "markers_cleared": lambda p: _("Markers cleared for the new turn."),
    "round_started": lambda p: _("Turn {turn}, {round} round.", turn=p["turn"], round=p["round"]),
    "round_opened": lambda p: _("Turn {turn}: the {round} round is open.", turn=p["turn"], round=p["round"]),
    "moved": lambda p: (
        f"{p['unit']} moves ({p['mode']}) "
        + " → ".join(p["path"])
        + (f"; stopped short: {p['short']}" if p.get("short") else "")
    ),
    "order_failed": lambda p: _("Not carried out: '{order}': {reason}.", order=p["order"], reason=p["reason"]),
    "revealed": lambda p: _("{unit} is revealed at {at}: {why}.", unit=p["unit"], at=p["at"], why=p["why"]),
    "aircraft_placed": lambda p: _(
        "{unit} swoops in over {at} to attack {target}.", unit=p["unit"], at=p["at"], target=p["target"]
    ),
    "attacked": lambda p: (
        f"{p['by']} attacks {p['target']} with {p['weapon']} (strength {p['strength']}): "
        f"{p['attacks']} attacks{_rolls(p)}, {p['hits']} hits, {p['saved']} saved"
        + (f", {p['stray']} strike own troops" if p.get("stray") else "")
        + (f"; lost {', '.join(p['lost'])}" if p["lost"] else "")
        + f"; {p['left']} left."
    ),
    "machine_attacked": lambda p: (
        f"{p['by']} attacks {p['target']} with {p['weapon']} (strength {p['strength']})"
        f": {p['attacks']} attacks{_rolls(p)}, {p['hits']} hits, {p['saved']} saved"
        + (f", {p['stray']} strike own troops" if p.get("stray") else "")
        + "."
    ),
    "no_effect": lambda p: _(
        "{by}'s {weapon} cannot hurt {target}: {why}.", by=p["by"], weapon=p["weapon"], target=p["target"], why=p["why"]
    ),
    "damaged": lambda p: _(
        "{target} damaged: roll {roll} → {modified}: {result}; {crew_left} crew left.",
        target=p["target"],
        roll=p["roll"],
        modified=p["modified"],
        result=p["result"],
        crew_left=p["crew_left"],
    ),
    "bailed_out": lambda p: _(
        "The surviving crew of {origin} bail out to {at} as {unit}.", origin=p["from"], at=p["at"], unit=p["unit"]
    ),
    "air_crash": lambda p: (
        f"{p['unit']} crashes" + (f" into {p['at']}" if p["at"] else " off the field") + f" (D6 {p['d6']})."
    ),
    "aimed": lambda p: (
        f"{p['by']} aims {p['weapon']} at {p['at']}: roll {p['roll']}, "
        + (
            "on target."
            if not p["d6"]
            else f"misses; D6 {p['d6']} ({DIRECTION_NAMES[p['d6'] - 1]}): lands "
            + (f"in {p['lands']}." if p["lands"] else "off the field.")
        )
    ),
    "direct_hit": lambda p: (
        f"{p['by']}'s {p['weapon']} direct hit on {p['target']}: roll {p['roll']}, "
        + (f"kills {p['lost'][0]}." if p["lost"] else "misses.")
    ),
    "halved": lambda p: _("{unit} has lost half its strength.", unit=p["unit"]),
    "shot_from": lambda p: f"{p['unit']} is under fire from the {DIRECTION_NAMES[p['direction']]}.",
    "activated": lambda p: _("{unit} has acted ({phase}).", unit=p["unit"], phase=p["phase"]),
    "melee": lambda p: (
        f"{p['unit']} "
        + ("storms" if p.get("storm") else "boards" if p.get("board") else "attacks")
        + f" {p['target']}"
        + ("" if p.get("storm") or p.get("board") else " in melee")
        + (f", charging (+{p['charge']})" if p["charge"] else "")
        + "."
    ),
    "fear_test": lambda p: (
        f"{p['unit']} tests morale ({p['why']}): roll {p['roll']} needs {p['need']}+: "
        + ("holds." if p["from"] == p["to"] else f"{p['from']} → {p['to']}.")
    ),
    "morale_rolled": lambda p: (
        f"{p['unit']} ({p['level']}) rolls {p['roll']}"
        + (": bonus marker" if p["bonus"] else "")
        + (": penalty marker" if p["penalty"] else "")
        + (": recovers to despondency" if p["recovered"] else "")
        + "."
    ),
    "surrendered": lambda p: _("{unit} has nowhere to run and surrenders at {at}.", unit=p["unit"], at=p["at"]),
    "deserted": lambda p: _("{unit} flees off the field at {at} and deserts.", unit=p["unit"], at=p["at"]),
    "fire_out": lambda p: _("The fire in {unit} goes out (roll {roll}).", unit=p["unit"], roll=p["roll"]),
    "fire_burns": lambda p: _(
        "{unit} burns on (roll {roll}); {crew_left} crew left.",
        unit=p["unit"],
        roll=p["roll"],
        crew_left=p["crew_left"],
    ),
    "priority_set": lambda p: _("{unit} protects {roles} (hit last).", unit=p["unit"], roles=", ".join(p["roles"])),
    "door_forced": lambda p: (
        f"{p['unit']} tries the door at {p['at']}: roll {p['roll']}, " + ("it gives." if p["open"] else "it holds.")
    ),
    "entered": lambda p: _(
        "{unit}: {soldiers} soldier(s) get in at {at} (D3 {d3}).",
        unit=p["unit"],
        soldiers=p["soldiers"],
        at=p["at"],
        d3=" ".join(map(str, p["d3"])),
    ),
    "came_out": lambda p: (
        f"{p['unit']} must come out of {p['at']}: {p['out']} get out"
        + (f", lost inside: {', '.join(p['lost'])}" if p["lost"] else "")
        + "."
    ),
    "crew_fight": lambda p: _(
        "{unit} fights the crew of {machine}: {crew_lost} crew lost, {crew_left} left.",
        unit=p["unit"],
        machine=p["machine"],
        crew_lost=p["crew_lost"],
        crew_left=p["crew_left"],
    ),
    "agility": lambda p: _(
        "{unit} jumps onto the moving {machine} ({need}+): {failed} fail, {lost} lost.",
        unit=p["unit"],
        machine=p["machine"],
        need=p["need"],
        failed=p["failed"],
        lost=p["lost"],
    ),
    "captured": lambda p: _(
        "{unit} captures {machine}: {crew} soldier(s) now crew it.",
        unit=p["unit"],
        machine=p["machine"],
        crew=p["crew"],
    ),
    "rammed": lambda p: _(
        "{unit} rams {target} after {moved} hex(es).", unit=p["unit"], target=p["target"], moved=p["moved"]
    ),
    "game_over": lambda p: (f"{p['winner'].capitalize()} wins" if p["winner"] else "Draw") + f": {p['reason']}.",
}

"""One readable English line per event."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.words import count

from .fold import PREFIX


def _cap(side: Any) -> str:
    return str(side).capitalize() if side else "Nobody"


def _names(ids: list[str]) -> str:
    ids = [str(i).split(":")[-1] for i in ids]
    return ", ".join(ids[:8]) + (f" and {len(ids) - 8} more" if len(ids) > 8 else "")


def _fired(p: Mapping[str, Any]) -> str:
    shots = p.get("shots", [])
    killed = sum(len(s["killed"]) for s in shots)
    guns = sorted({s["gun"].split(":")[-1] for s in shots})
    blocked = sum(1 for s in shots if s.get("blocked"))
    extra = f"; {blocked} struck scenery" if blocked else ""
    if p.get("wagons"):  # LW-66/67
        extra += f"; wagons destroyed: {_names(p['wagons'])}"
    return f"Guns fired {count(len(shots), 'shot')} ({', '.join(guns)}): {count(killed, 'figure')} killed{extra}."


def _melee(p: Mapping[str, Any]) -> str:
    counts = p.get("counts", {})
    sides = " against ".join(f"{n} {s}" for s, n in counts.items())
    at = p.get("at", [0, 0])
    if p.get("smaller") is None:
        how = "equal numbers: all fell (LW-35)"
    elif p.get("isolated"):
        how = f"{p['smaller']} was isolated (LW-37)"
    else:
        how = f"{p['smaller']} was supported (LW-38)"
    taken = f", {len(p.get('captured', []))} taken prisoner by {p.get('captor')} as {p.get('pow')}" if p.get("captured") else ""
    return (f"Melee at {at[0]:g},{at[1]:g} begun by {p.get('initiator')}: {sides}; {how}; "
            f"{len(p.get('killed', []))} killed{taken}.")


def _game_over(p: Mapping[str, Any]) -> str:
    scores = p.get("scores", {})
    sheet = "; ".join(f"{s} {v['total']:g}" for s, v in scores.items())
    head = f"{_cap(p.get('winner'))} wins" if p.get("winner") else "A draw"
    return f"Game over: {head}: {p.get('reason')}. Score: {sheet}."


_SIMPLE = {
    "table_laid": lambda p: (f"The table '{p['scenario'].get('title')}' ({p['scenario']['table']['width']:g} x "
                             f"{p['scenario']['table']['depth']:g} in) was laid out; {_cap(p.get('first'))} is the First Player."),
    "defender_chosen": lambda p: (f"The coin (LW-53) names {p.get('side')} the defender"
                                  + (": the two armies change sides." if p.get("swapped") else ".")),
    "reinforcements": lambda p: "Random advantage (LW-57): " + "; ".join(
        f"{s} rolled {sum(v['roll'])} and takes {count(len(v['joined']), 'reserve figure')}" for s, v in p.items()) + ".",
    "deployed": lambda p: f"{_cap(p.get('side'))} deployed: {count(len(p.get('figures', {})), 'figure')} "
                          f"and {count(len(p.get('guns', {})), 'gun')} placed by order, the rest where the scenario put them.",
    "edge_choice": lambda p: f"{_cap(p.get('side'))} chooses the edge to start from (LW-2, LW-53).",
    "edge_chosen": lambda p: (f"{_cap(p.get('side'))} starts from the {p.get('edge')} edge"
                              + ("; the armies change ends." if p.get("swapped") else ".")),
    "deployment_done": lambda p: "The curtain is lifted: both armies stand revealed. Turn 1 begins.",
    "orders_rejected": lambda p: f"{_cap(p.get('side'))}: " + "; ".join(
        f"line {e['line']} ignored ({e['message']})" for e in p.get("errors", [])) + ".",
    "groups_changed": lambda p: f"{_cap(p.get('side'))} reorganised its groups: {', '.join(sorted(p.get('groups', {})))}.",
    "standing_orders": lambda p: f"{_cap(p.get('side'))} will kill the {p.get('kill')} enemies first and lose its "
                                 f"{p.get('lose')} men first in melees it begins.",
    "fired": _fired,
    "moved": lambda p: (f"{count(len(p.get('figures', {})), 'figure')} and {count(len(p.get('guns', {})), 'gun')} moved; "
                        + (f"{count(len(p['wagons']), 'wagon')} moved; " if p.get("wagons") else "")
                        + f"{count(len(p.get('contacts', [])), 'contact')}" + (
                            f"; {count(len(p['stuck']), 'gun')} stayed for want of a team (LW-24)" if p.get("stuck") else "") + "."),
    "melee": _melee,
    "surrendered": lambda p: f"{_cap(p.get('side'))}'s {p.get('group')} ({count(len(p.get('figures', [])), 'figure')}) "
                             f"surrendered to {p.get('captor')} (LW-45).",
    "prisoners_released": lambda p: (f"{count(len(p.get('figures', [])), str(p.get('side')) + ' prisoner')} of {p.get('from')} "
                                     f"got away from {p.get('guards')} guards and go home disarmed as "
                                     f"{p.get('group')} (LW-43)."),
    "prisoners_delivered": lambda p: f"{_cap(p.get('captor'))} took {count(len(p.get('figures', [])), 'prisoner')} off the table (LW-42).",
    "rearmed": lambda p: f"{count(len(p.get('figures', [])), 'disarmed figure')} reached their edge and are armed again: "
                         f"{_names(p.get('figures', []))}.",
    "gun_captured": lambda p: f"{_cap(p.get('by'))} captured {p.get('from')}'s gun {str(p.get('gun')).split(':')[-1]} (LW-46).",
    "wagon_captured": lambda p: (f"{_cap(p.get('by'))} took the wagon {str(p.get('wagon')).split(':')[-1]} at "
                                 f"{p['at'][0]:g},{p['at'][1]:g}: none of its own within 6 in (LW-66/67)."),
    "capitulated": lambda p: (f"{_cap(p.get('side'))} flees: {count(len(p.get('figures', [])), 'figure')} and "
                              f"{count(len(p.get('guns', [])), 'gun')}"
                              + (f" and {count(len(p['wagons']), 'wagon')}" if p.get("wagons") else "")
                              + f" too far from its edge capitulate to {p.get('captor')} (LW-50)."),
    "turn_completed": lambda p: f"Turn {p.get('turn')} is over.",
    "game_over": _game_over,
}


def describe_event(event_type: str, payload: Mapping[str, Any]) -> str:
    if not event_type.startswith(PREFIX):
        return event_type
    return describe_with(_SIMPLE, PREFIX, event_type, payload)


def describe_with(table: Mapping[str, Any], prefix: str, event_type: str, payload: Mapping[str, Any]) -> str:
    """One line from ``table``'s describer for the event, or the raw event if it has none or cannot read it."""
    fn = table.get(event_type[len(prefix):])
    if fn is None:
        return f"{event_type}: {dict(payload)}"
    try:
        result: str = fn(payload)
        return result
    except (KeyError, TypeError, ValueError):
        return f"{event_type}: {dict(payload)}"

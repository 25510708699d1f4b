"""Assaults fought as battles on the table (version 2; RULES.md §9): the strategic side of a campaign.

In a game whose map says ``"battles": true`` an assault does not succeed by itself (CW-14): it joins
a battle (``battle_joined``) between every unit the two counts of CW-15 name, the turn ends, and the
battle's points are held (no operation may use them) until its result is folded in
(``battle_resolved``, rules.core.protocol.Strategic). The battle is fought in another game, or
resolved by these rules as an ordinary assault; either way the result says who won and which units
were lost, and this module decides the rest by the Civil War's own rules: the winner holds the place,
a beaten defender's unit retreats as its standing instructions say or to the lowest free point.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.battles import units_of
from rules.core.protocol import PUBLIC, RuleEvent, RulesError, State

from .board import SIDES, natural_sorted, other, place_of
from .engaged import open_battles
from .fold import PREFIX, fold
from .legality import has_legal_operation, retreat_options, standing_choice
from .orders import Assault


def joined(state: State, side: str, op: Assault) -> dict[str, Any]:
    """The ``battle_joined`` payload for ``side``'s assault ``op``: every unit CW-15 counts on each
    side, the assaulting unit first, then by point."""
    adj = state["board"]["adj"][op.target]
    units = state["units"]
    enemy = other(side)
    attackers = [op.source, *natural_sorted(p for p in adj if units.get(p) == side and p != op.source)]
    defenders = [op.target, *natural_sorted(p for p in adj if units.get(p) == enemy)]
    number = len(state.get("battles", {})) + 1
    return {
        "side": side,
        "battle": f"B{number}",
        "place": place_of(state["board"], op.target),
        "attacker": side,
        "defender": enemy,
        "target": op.target,
        "source": op.source,
        "forces": {
            side: [{"unit": p, "strength": 1} for p in attackers],
            enemy: [{"unit": p, "strength": 1} for p in defenders],
        },
        "turn": state["turn"],
    }


# -- resolution -------------------------------------------------------------------------------------


def by_rules(state: State, battle_id: str) -> dict[str, Any]:
    """What CW-14 itself says of the assault: it succeeds and the attacker loses nothing."""
    battle = _open(state, battle_id)
    return {
        "winner": battle["attacker"],
        "reason": "the assault succeeds by the Civil War's own rule (CW-14)",
        "lost": {s: [] for s in SIDES},
        "strength_left": {s: dict.fromkeys(units_of(battle, s), 1.0) for s in SIDES},
        "prisoners": dict.fromkeys(SIDES, 0),
        "guns_captured": dict.fromkeys(SIDES, 0),
    }


def resolve(state: State, battle_id: str, result: Mapping[str, Any], by: str) -> list[RuleEvent]:
    """The events that fold a battle's result in: ``battle_resolved`` (losses, who holds the place,
    where a beaten garrison went), then ``game_over`` if the side to move is left with no operation
    and no battle of its own still to fight."""
    battle = _open(state, battle_id)
    winner = result.get("winner")
    if winner not in (*SIDES, None):
        raise RulesError(f"battle {battle_id}: the winner must be red, blue or none, not {winner!r}")
    if by not in ("table", "rules", "umpire"):
        raise RulesError(f"battle {battle_id}: resolved by {by!r}? (table, rules or umpire)")
    lost = {s: natural_sorted(set(result.get("lost", {}).get(s, []))) for s in SIDES}
    for s in SIDES:
        stray = set(lost[s]) - set(units_of(battle, s))
        if stray:
            raise RulesError(f"battle {battle_id}: {', '.join(sorted(stray))} did not fight for {s}")
    attacker, defender, target = battle["attacker"], battle["defender"], battle["target"]
    taken = winner == attacker
    # the unit that takes or keeps the place is its garrison, never among the lost (RULES.md §9)
    garrison = battle["source"] if taken else target
    holder = attacker if taken else defender
    lost[holder] = [u for u in lost[holder] if u != garrison]
    retreat = _retreat(state, battle, lost) if taken and target not in lost[defender] else None
    payload = {
        "battle": battle_id,
        "by": by,
        "winner": winner,
        "holds": holder,
        "place": battle["place"],
        "reason": str(result.get("reason", "")),
        "lost": lost,
        "strength_left": {s: dict(result.get("strength_left", {}).get(s, {})) for s in SIDES},
        "prisoners": {s: int(result.get("prisoners", {}).get(s, 0)) for s in SIDES},
        "guns_captured": {s: int(result.get("guns_captured", {}).get(s, 0)) for s in SIDES},
        "retreat": retreat,
    }
    events = [RuleEvent(PREFIX + "battle_resolved", payload, PUBLIC)]
    after = fold(state, events[0].type, payload)
    to_move = after["to_move"]
    if not open_battles(after) and not after.get("result") and not has_legal_operation(after, to_move):
        events.append(
            RuleEvent(
                PREFIX + "game_over",
                {
                    "winner": other(to_move),
                    "loser": to_move,
                    "reason": f"{to_move} cannot carry out any operation (CW-11)",
                },
                PUBLIC,
            )
        )
    return events


def _open(state: State, battle_id: str) -> dict[str, Any]:
    battle = state.get("battles", {}).get(battle_id)
    if battle is None:
        raise RulesError(f"there is no battle {battle_id} in this game")
    if battle["status"] != "joined":
        raise RulesError(f"battle {battle_id} was already decided")
    result: dict[str, Any] = battle
    return result


def _retreat(state: State, battle: Mapping[str, Any], lost: Mapping[str, list[str]]) -> dict[str, Any]:
    """Where the beaten garrison goes (rules 19-21 without a decision turn: a battle already was the
    defender's say): its standing instruction for the place or its general rule, else the free point
    with the lowest id; destroyed when there is none. Points the lost units leave count as free; the
    point the assaulting unit comes from does not (rule 20)."""
    units = {p: s for p, s in state["units"].items() if p not in lost["red"] and p not in lost["blue"]}
    defender, target = battle["defender"], battle["target"]
    options = retreat_options({**state, "units": units}, target, [battle["source"]])
    choice = standing_choice(state, defender, target, options)
    if not options or (choice is not None and choice[0] == "fight"):
        why = "no free point to retreat to" if not options else "fought to the end (standing instruction)"
        return {"from": target, "to": None, "reason": why}
    to = choice[1] if choice is not None else options[0]
    return {"from": target, "to": to, "reason": "standing instruction" if choice is not None else "default"}

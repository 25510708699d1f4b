"""The state and how events change it.

State (plain JSON, never mutated in place)::

    phase          "empty" | "setup" | "play" | "over"
    board          derived map tables (board.derive_board); shared by reference
    units          {point: side}
    tokens         {city: side}; a city without a key is neutral
    token_start    {side: tokens dealt}
    to_move        side whose operation is next
    turn           1-based operation counter
    just_occupied  {side: points it newly took in its last turn} (CW-17/21)
    pending        None or the unit dislodged by an assault/breakthrough:
                   {defender, point, attacker, operation, vacated, options,
                    entered, awaiting}
    standing       {side: {point or "*": {"action", "to"}}} (private orders)
    last           {"turn", "side", "events": [[type, payload], ...]}
    passes         consecutive passed turns
    result         None or {"winner", "reason", ...}
    battles        {battle id: battle_joined's payload + status "joined"|"resolved"} (version 2,
                   a game that fights its assaults; absent in every other game's state)

``fold`` copies only what an event changes, so the large static board is
shared between all states of a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.core.protocol import State

from .board import SIDES, derive_board, load_map, other

PREFIX = "civilwar."


def initial_state() -> dict[str, Any]:
    return {
        "phase": "empty",
        "board": None,
        "units": {},
        "tokens": {},
        "token_start": {"red": 0, "blue": 0},
        "to_move": "red",
        "turn": 0,
        "just_occupied": {"red": [], "blue": []},
        "pending": None,
        "standing": {"red": {}, "blue": {}},
        "last": None,
        "passes": 0,
        "result": None,
    }


def _note(state: dict[str, Any], new: dict[str, Any], event_type: str, payload: Mapping[str, Any]) -> None:
    """Record a public event of the current turn in ``new['last']``."""
    last = state.get("last")
    entry = [event_type, dict(payload)]
    if last and last.get("open"):
        new["last"] = {**last, "events": last["events"] + [entry]}
    else:
        new["last"] = {
            "turn": state["turn"],
            "side": payload.get("side", state["to_move"]),
            "open": True,
            "events": [entry],
        }


def fold(state: dict[str, Any], event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    if not event_type.startswith(PREFIX):
        return state
    kind = event_type[len(PREFIX) :]
    handler = _HANDLERS.get(kind)
    if handler is None:
        return state  # unknown civilwar events (future versions) are ignored
    new: dict[str, Any] = handler(state, payload, event_type)
    return new


def _map_loaded(state: State, p: Mapping[str, Any], et: str) -> State:
    new = initial_state()
    new["board"] = derive_board(p["map"])
    new["phase"] = "setup"
    return new


def _tokens_revealed(state: State, p: Mapping[str, Any], et: str) -> State:
    new = dict(state)
    tokens = dict(p["tokens"])
    new["tokens"] = tokens
    new["token_start"] = {s: sum(1 for v in tokens.values() if v == s) for s in SIDES}
    new["phase"] = "play"
    new["to_move"] = p.get("to_move", "red")
    new["turn"] = 1
    return new


def _standing(state: State, p: Mapping[str, Any], et: str) -> State:
    new = dict(state)
    new["standing"] = {**state["standing"], p["side"]: dict(p["instructions"])}
    return new


def _no_change(state: State, p: Mapping[str, Any], et: str) -> State:
    return state


def _noted(state: State, p: Mapping[str, Any], et: str) -> State:
    new = dict(state)
    _note(state, new, et, p)
    return new


def _unit_formed(state: State, p: Mapping[str, Any], et: str) -> State:
    new = dict(state)
    new["units"] = {**state["units"], p["city"]: p["side"]}
    _note(state, new, et, p)
    return new


def _unit_relocated(state: State, p: Mapping[str, Any], et: str) -> State:
    new = dict(state)
    units = dict(state["units"])
    del units[p["from"]]
    units[p["to"]] = p["side"]
    new["units"] = units
    _note(state, new, et, p)
    return new


def _dislodge(
    state: State, new: State, p: Mapping[str, Any], operation: str, vacated: list[str], entered: list[str]
) -> None:
    new["pending"] = {
        "defender": p["defender"],
        "point": p["target"],
        "attacker": p["side"],
        "operation": operation,
        "vacated": list(vacated),
        "options": list(p.get("options", [])),
        "entered": list(entered),
        "awaiting": False,
    }


def _assault(state: State, p: Mapping[str, Any], et: str) -> State:
    new = dict(state)
    units = dict(state["units"])
    del units[p["source"]]
    units[p["target"]] = p["side"]
    new["units"] = units
    _dislodge(state, new, p, "assault", [p["source"]], [p["target"]])
    _note(state, new, et, p)
    return new


def _breakthrough(state: State, p: Mapping[str, Any], et: str) -> State:
    new = dict(state)
    units = dict(state["units"])
    for src, dst in p["moves"]:  # head first
        units.pop(src, None)
        units[dst] = p["side"]
    new["units"] = units
    _dislodge(state, new, p, "breakthrough", [p["vacated"]], [p["target"]])
    _note(state, new, et, p)
    return new


def _decision_requested(state: State, p: Mapping[str, Any], et: str) -> State:
    new = dict(state)
    new["pending"] = {**state["pending"], "awaiting": True, "options": list(p["options"])}
    _note(state, new, et, p)
    return new


def _unit_retreated(state: State, p: Mapping[str, Any], et: str) -> State:
    new = dict(state)
    new["units"] = {**state["units"], p["to"]: p["side"]}
    new["pending"] = None
    _note(state, new, et, p)
    return new


def _unit_destroyed(state: State, p: Mapping[str, Any], et: str) -> State:
    new = dict(state)
    new["pending"] = None
    _note(state, new, et, p)
    return new


def _terror(state: State, p: Mapping[str, Any], et: str) -> State:
    new = dict(state)
    tokens = dict(state["tokens"])
    tokens.pop(p["city"], None)
    new["tokens"] = tokens
    _note(state, new, et, p)
    return new


def _evacuation(state: State, p: Mapping[str, Any], et: str) -> State:
    new = dict(state)
    tokens = dict(state["tokens"])
    tokens[p["to"]] = tokens.pop(p["from"])
    new["tokens"] = tokens
    _note(state, new, et, p)
    return new


def _turn_completed(state: State, p: Mapping[str, Any], et: str) -> State:
    new = dict(state)
    side = p["side"]
    new["just_occupied"] = {**state["just_occupied"], side: list(p.get("entered", []))}
    new["to_move"] = p.get("next", other(side))
    new["turn"] = state["turn"] + 1
    # a pass while a battle is fought waits for it: not a step towards the draw (version 2, §9)
    waiting = any(b["status"] == "joined" for b in state.get("battles", {}).values())
    new["passes"] = state["passes"] + 1 if p.get("passed") and not waiting else 0
    new["pending"] = None
    last = state.get("last")
    if last and last.get("open"):
        new["last"] = {**last, "open": False}
    return new


def _battle_joined(state: State, p: Mapping[str, Any], et: str) -> State:
    """An assault joined battle (version 2): its units are held until the result (battles.py)."""
    battles = {**state.get("battles", {}), p["battle"]: {**p, "status": "joined"}}
    new = {**state, "battles": battles}
    _note(state, new, et, p)
    return new


def _battle_resolved(state: State, p: Mapping[str, Any], et: str) -> State:
    """A battle's result: the lost units go, the winner holds the place, a beaten garrison retreats."""
    battle = state["battles"][p["battle"]]
    units = dict(state["units"])
    for side in SIDES:
        for u in p["lost"][side]:
            units.pop(u, None)
    retreat = p.get("retreat")
    if p["holds"] == battle["attacker"]:
        units.pop(battle["target"], None)
        if battle["source"] in units:
            del units[battle["source"]]
        units[battle["target"]] = battle["attacker"]
        if retreat and retreat["to"]:
            units[retreat["to"]] = battle["defender"]
    decided = {**battle, "status": "resolved", "winner": p["winner"], "holds": p["holds"], "by": p["by"]}
    new = {**state, "units": units, "battles": {**state["battles"], p["battle"]: decided}}
    _note(state, new, et, p)
    return new


def _game_over(state: State, p: Mapping[str, Any], et: str) -> State:
    new = dict(state)
    new["result"] = {k: p[k] for k in ("winner", "loser", "reason") if k in p}
    new["phase"] = "over"
    return new


_HANDLERS: dict[str, Callable[[State, Mapping[str, Any], str], State]] = {
    "map_loaded": _map_loaded,
    "tokens_revealed": _tokens_revealed,
    "standing_instructions": _standing,
    "orders_defaulted": _noted,
    "turn_passed": _noted,
    "unit_formed": _unit_formed,
    "unit_relocated": _unit_relocated,
    "assault": _assault,
    "breakthrough": _breakthrough,
    "decision_requested": _decision_requested,
    "unit_retreated": _unit_retreated,
    "unit_destroyed": _unit_destroyed,
    "terror": _terror,
    "evacuation": _evacuation,
    "turn_completed": _turn_completed,
    "game_over": _game_over,
    "battle_joined": _battle_joined,
    "battle_resolved": _battle_resolved,
}


def build_state(
    scenario: Any = None,
    tokens: Mapping[str, str] | None = None,
    units: Mapping[str, str] | None = None,
    to_move: str = "red",
    just_occupied: Mapping[str, list[Any]] | None = None,
    standing: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """A mid-game position for tests, puzzles and analysis (ids are upper-cased).

    ``scenario`` may be raw (it is validated) or None for the default map.
    ``tokens`` defaults to none (every city neutral).
    """
    scenario = load_map(scenario)
    state = fold(initial_state(), PREFIX + "map_loaded", {"map": scenario})
    state = fold(
        state,
        PREFIX + "tokens_revealed",
        {"tokens": {k.upper(): v for k, v in (tokens or {}).items()}, "to_move": to_move},
    )
    state = dict(state)
    state["units"] = {k.upper(): v for k, v in (units or {}).items()}
    jo: dict[str, list[str]] = {"red": [], "blue": []}
    for side, pts in (just_occupied or {}).items():
        jo[side] = [p.upper() for p in pts]
    state["just_occupied"] = jo
    st: dict[str, dict[str, Any]] = {"red": {}, "blue": {}}
    for side, instr in (standing or {}).items():
        st[side] = {k if k == "*" else k.upper(): dict(v) for k, v in instr.items()}
    state["standing"] = st
    return state


def check_invariants(state: dict[str, Any]) -> list[str]:
    """Problems with ``state`` (empty list = all invariants hold)."""
    problems: list[str] = []
    board = state.get("board")
    if board is None:
        return problems if state.get("phase") == "empty" else ["no board outside the empty phase"]
    kind = board["kind"]
    for p, s in state["units"].items():
        if p not in kind:
            problems.append(f"unit on unknown point {p}")
        if s not in SIDES:
            problems.append(f"unit on {p} has unknown side {s!r}")
    counts = {s: sum(1 for v in state["units"].values() if v == s) for s in SIDES}
    pending = state.get("pending")
    if pending:
        counts[pending["defender"]] += 1
        if state["units"].get(pending["point"]) != pending["attacker"]:
            problems.append(f"pending point {pending['point']} is not held by the attacker")
    for s in SIDES:
        if counts[s] > board["max_units"]:
            problems.append(f"{s} has {counts[s]} units, more than the {board['max_units']} counters")
    for c, s in state["tokens"].items():
        if kind.get(c) != "city":
            problems.append(f"token on {c}, which is not a city")
        if s not in SIDES:
            problems.append(f"token on {c} has unknown side {s!r}")
    for s in SIDES:
        n = sum(1 for v in state["tokens"].values() if v == s)
        if n > state["token_start"][s]:
            problems.append(f"{s} has {n} tokens, more than the {state['token_start'][s]} dealt")
    if state["to_move"] not in SIDES:
        problems.append(f"to_move is {state['to_move']!r}")
    for pts in state["just_occupied"].values():
        for p in pts:
            if p not in kind:
                problems.append(f"just_occupied point {p} unknown")
    return problems

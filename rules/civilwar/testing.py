"""Helpers for tests and puzzles: toy maps, building positions, playing orders.

Pure Python (no pytest); used by tests/rules/civilwar and usable by platform tests.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from rules.civilwar import RULESET as RS
from rules.civilwar import build_state, legal_operations
from rules.civilwar.board import SIDES
from rules.core.canonical import canonical_json
from rules.core.protocol import RuleEvent


def _city(cid: str, x: float, y: float) -> dict[str, Any]:
    return {"id": cid, "name": cid.title(), "x": x, "y": y}


def star_map(max_units: int = 30) -> dict[str, Any]:
    """The digest's toy graph: C1 with roads R12, R14, R15, R16; C2-R23-C3."""
    return {
        "name": "star",
        "max_units": max_units,
        "cities": [
            _city("C1", 200, 200),
            _city("C2", 300, 200),
            _city("C3", 400, 200),
            _city("C4", 100, 200),
            _city("C5", 200, 100),
            _city("C6", 200, 300),
        ],
        "roads": [
            {"id": "R12", "joins": ["C1", "C2"]},
            {"id": "R14", "joins": ["C1", "C4"]},
            {"id": "R15", "joins": ["C1", "C5"]},
            {"id": "R16", "joins": ["C1", "C6"]},
            {"id": "R23", "joins": ["C2", "C3"]},
        ],
        "lines": [
            {"id": "L1", "points": ["C4", "R14", "C1", "R12", "C2", "R23", "C3"]},
            {"id": "L2", "points": ["C5", "R15", "C1", "R16", "C6"]},
        ],
    }


def row_map() -> dict[str, Any]:
    """C1..C6 in a straight row (line L1), with spurs C3-R37-C7 and C4-R48-C8."""
    cities = [_city(f"C{i}", 100 * i, 100) for i in range(1, 7)] + [_city("C7", 300, 200), _city("C8", 400, 200)]
    roads = [{"id": f"R{i}{i + 1}", "joins": [f"C{i}", f"C{i + 1}"]} for i in range(1, 6)]
    roads += [{"id": "R37", "joins": ["C3", "C7"]}, {"id": "R48", "joins": ["C4", "C8"]}]
    line = []
    for i in range(1, 7):
        line.append(f"C{i}")
        if i < 6:
            line.append(f"R{i}{i + 1}")
    return {"name": "row", "cities": cities, "roads": roads, "lines": [{"id": "L1", "points": line}]}


def state(
    mapdef: dict[str, Any] | None = None,
    tokens: dict[str, str] | None = None,
    units: dict[str, Any] | None = None,
    to_move: str = "red",
    just: dict[str, list[str]] | None = None,
    standing: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return build_state(
        mapdef or star_map(), tokens=tokens, units=units, to_move=to_move, just_occupied=just, standing=standing
    )


def errors(st: dict[str, Any], side: str, text: str, kind: str | None = None) -> list[str]:
    """All messages (parse + validate) for ``text``; kind defaults to the current turn's kind."""
    kind = kind or (RS.next_turn(st).kind if RS.next_turn(st).sides else "orders")
    parsed = RS.parse_orders(st, side, text, kind)
    msgs = [e.message for e in parsed.errors]
    msgs += [e.message for e in RS.validate(st, side, parsed.orders, kind)]
    return msgs


def fold_all(st: dict[str, Any], events: Iterable[RuleEvent]) -> dict[str, Any]:
    for ev in events:
        st = RS.fold(st, ev.type, ev.payload)
    return st


def play(
    st: dict[str, Any], side: str, text: str, kind: str | None = None, check: bool = True
) -> tuple[dict[str, Any], list[RuleEvent]]:
    """Parse, validate (must be clean), adjudicate and fold; returns (state, events)."""
    kind = kind or RS.next_turn(st).kind
    parsed = RS.parse_orders(st, side, text, kind)
    if check:
        assert parsed.ok, parsed.errors
        errs = RS.validate(st, side, parsed.orders, kind)
        assert not errs, errs
    events = RS.adjudicate(st, {side: parsed.orders}, random.Random(0), kind)
    new = fold_all(st, events)
    assert RS.check_invariants(new) == []
    return new, events


def types(events: Iterable[RuleEvent]) -> list[str]:
    return [e.type.removeprefix("civilwar.") for e in events]


def new_game(seed: int = 1, scenario: Any = None) -> tuple[dict[str, Any], list[RuleEvent]]:
    st = RS.initial_state()
    events = RS.setup(RS.load_scenario(scenario), random.Random(seed))
    return fold_all(st, events), events


def cj(value: Any) -> str:
    return canonical_json(value)


def bot_orders(state: dict[str, Any], side: str) -> str:
    """A scripted player (the conformance kit's, tests/rules/test_conformance.py): an assault or a
    breakthrough when one is open, else the first legal operation, and from turn 12 on it passes, so a
    game of two such players ends (six passes in a row are a draw) whatever the dice."""
    ops = legal_operations(state, side)
    attacks = [op for op in ops if op.startswith(("assault", "breakthrough"))]
    if state["turn"] >= 12 or not ops:
        return "pass"
    return attacks[0] if attacks else ops[0]


def state_from_view(view: dict[str, Any]) -> dict[str, Any]:
    """A position rebuilt from what one player's view shows (``view()``, e.g. the API's board), enough
    for ``bot_orders``, ``default_orders`` and validation: a scripted player that knows only its own
    view (tests/support/playthrough.py). It reads nothing the view does not give: no standing
    instructions (the view shows its own side's as text only), no count of passes, no last
    operation; a unit driven out and awaiting its decision has the retreats the view lists and no
    record of where the attacker came from (the server checks the decision against its own)."""
    board = view.get("board")
    if board is None:
        return RS.initial_state()
    scenario = {
        "name": board["name"],
        "title": board["title"],
        "max_units": board["max_units"],
        "cities": [{k: c[k] for k in ("id", "name", "x", "y")} for c in board["cities"]],
        "roads": [{k: r[k] for k in ("id", "joins", "x", "y")} for r in board["roads"]],
        "lines": [{"id": ln["id"], "points": list(ln["points"])} for ln in board["lines"]],
    }
    if board.get("battles"):
        scenario["battles"] = True
    turn = view["turn"]
    state = build_state(
        scenario,
        tokens=dict(view["tokens"]),
        units={u["point"]: u["side"] for u in view["units"]},
        to_move=turn["to_move"],
        just_occupied={s: list(view["protected"].get(s, [])) for s in SIDES},
    )
    pending = view.get("pending")
    state.update(
        phase=view["phase"],
        turn=turn["number"],
        token_start={s: view["counters"][s]["tokens_dealt"] for s in SIDES},
        pending=None
        if pending is None
        else {
            **{k: pending[k] for k in ("defender", "point", "attacker", "operation")},
            "options": list(pending["options"]),
            "vacated": [],
            "entered": [],
            "awaiting": True,
        },
        result=dict(view["result"]) if view.get("result") else None,
    )
    if "battles" in view:  # the battles being fought hold their units' points (RULES.md §9)
        state["battles"] = {b["id"]: _battle_from_view(b) for b in view["battles"]}
    return state


def _battle_from_view(b: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "battle": b["id"],
        "place": dict(b["place"]),
        "attacker": b["attacker"],
        "defender": b["defender"],
        "target": b["place"]["id"],
        "forces": {s: [{"unit": u, "strength": 1} for u in b["forces"][s]] for s in SIDES},
        "turn": b["turn"],
        "status": b["status"],
    }


def check_result(result: Mapping[str, Any], board: Mapping[str, Any]) -> None:
    """A finished game's result as Civil War ends it, read against a player's last view (the API
    play-through's check, tests/support/playthrough.py): a winner and the other side as loser (which
    could carry out no operation, CW-11), or a draw with neither."""
    if result["winner"] is None:
        assert result.get("loser") is None, result
    else:
        assert result.get("loser") == next(s for s in SIDES if s != result["winner"]), result
    assert board["phase"] == "over" and board["result"] == dict(result), (board["result"], result)

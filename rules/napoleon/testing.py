"""Helpers for tests, benchmarks and demo bots: a started battle, a scripted player, a whole game.

Pure Python (no pytest). The bot is plain: it melees what is adjacent, charges with cavalry,
fires at what it can hit, and otherwise closes with the nearest enemy.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from rules.hex import coords as C
from rules.hex import paths

from . import RULESET as RS
from . import combat, movement
from .battle import Battle, other
from .data import kind
from .fold import DEFAULT_STANDING


def start(scenario: Any = "mill_ford", seed: int = 1) -> dict[str, Any]:
    state: dict[str, Any] = RS.set_up(scenario, random.Random(seed))
    return state


fold_all = RS.fold_events


def _attack_line(b: Battle, u: dict[str, Any], enemies: list[dict[str, Any]]) -> str | None:
    for e in enemies:
        if C.distance(b.h(u["hex"]), b.h(e["hex"])) != 1:
            continue
        a = combat.plan_melee(b, u, e, e["id"])
        if not isinstance(a, str) and not combat.no_dice_left(b, u, a):  # NW-51 (version 2): no empty melee
            return f"melee {u['id']} {e['id']}"
    if kind(u) == "cavalry":
        for e in enemies[:3]:
            if not isinstance(combat.plan_charge(b, u, e, e["id"]), str) and not isinstance(
                movement.charge_path(b, u, e, None), str
            ):
                return f"charge {u['id']} {e['id']}"
    for e in enemies:
        a = combat.plan_fire(b, u, e, e["id"])
        if not isinstance(a, str) and not combat.no_dice_left(b, u, a):  # NW-51 (version 2): no empty shots
            return f"fire {u['id']} at {e['id']}"
    return None


def _move_line(b: Battle, u: dict[str, Any], enemies: list[dict[str, Any]]) -> str | None:
    start_h = b.h(u["hex"])
    cost = movement.step_cost(b, u["side"], start_h, kind(u))

    def near(h: C.Hex) -> int:
        return min(C.distance(h, b.h(e["hex"])) for e in enemies)

    best: C.Hex | None = None
    for h in sorted(paths.reach(start_h, b.arm(u)["mp"], cost), key=C.label):
        if h == start_h or not isinstance(movement.plan_move(b, u, C.label(h)), movement.Plan):
            continue
        if best is None or (near(h), C.label(h)) < (near(best), C.label(best)):
            best = h
    return f"move {u['id']} to {C.label(best)}" if best is not None and near(best) < near(start_h) else None


def bot_orders(state: dict[str, Any], side: str, limit: int = 8) -> str:
    b = Battle(state, random.Random(0))
    lines: list[str] = []
    enemies = list(b.active(other(side)))
    if state["opening"] or not enemies:
        return "pass"
    for u in sorted(b.active(side), key=lambda u: u["id"]):
        near = sorted(enemies, key=lambda e: (C.distance(b.h(u["hex"]), b.h(e["hex"])), e["id"]))
        line = _attack_line(b, u, near) or _move_line(b, u, near)
        if line:
            lines.append(line)
        if len(lines) >= limit:
            break
    return "\n".join(lines) or "pass"


def play_turn(state: dict[str, Any], text: str, seed: int, check: bool = True) -> tuple[dict[str, Any], list[Any]]:
    side = state["side"]
    parsed = RS.parse_orders(state, side, text)
    errors = list(parsed.errors) + list(RS.validate(state, side, parsed.orders))
    if check:
        assert not errors, errors
    events = RS.adjudicate(state, {side: parsed.orders}, random.Random(seed))
    return fold_all(state, events), events


def play_game(scenario: str = "mill_ford", seed: int = 1, max_turns: int = 100) -> tuple[dict[str, Any], int]:
    """Both sides played by the bot to the end; returns the final state and player turns played."""
    state = start(scenario, seed)
    n = 0
    while state["result"] is None and n < max_turns:
        state, _ = play_turn(state, bot_orders(state, state["side"]), seed * 1000 + n)
        n += 1
    return state, n


def battle(
    units: list[dict[str, Any]],
    leaders: list[dict[str, Any]] | None = None,
    hexes: dict[str, Any] | None = None,
    sides: dict[str, Any] | None = None,
    cols: int = 8,
    rows: int = 8,
    caps: dict[str, Any] | None = None,
    options: list[Any] | None = None,
    turns: int = 6,
    objectives: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A battle from a hand-made scenario, turn 1, red to act."""
    sc = {
        "name": "test",
        "turns": turns,
        "first": "red",
        "caps": caps or {"red": 6, "blue": 6},
        "options": options or [],
        "objectives": objectives or {},
        "map": {"name": "test", "cols": cols, "rows": rows, "hexes": hexes or {}, "sides": sides or {}},
        "units": units,
        "leaders": leaders or [],
    }
    return start(sc)


class Loaded(random.Random):
    """Dice that come up as listed (then fall back to a seeded stream)."""

    def __init__(self, rolls: Iterable[int], seed: int = 0) -> None:
        super().__init__(seed)
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        if self.rolls:
            r = self.rolls.pop(0)
            assert a <= r <= b, (r, a, b)
            return r
        return super().randint(a, b)


def state_from_view(view: dict[str, Any]) -> dict[str, Any]:
    """A position rebuilt from what one player's view shows (everything is public in this game)."""
    units = {v["id"]: {**v, "from": [], "struck": None} for v in view["units"]}
    leaders = {v["id"]: dict(v) for v in view["leaders"]}
    turn = view["turn"]
    return {
        "phase": view["phase"],
        "scenario": view["scenario"],
        "turn": turn["number"],
        "side": turn["side"],
        "opening": turn["opening"],
        "units": units,
        "leaders": leaders,
        "standing": {s: dict(DEFAULT_STANDING) for s in view["sides"]},
        "log": [],
        "score": dict(view["score"]),
        "result": view["result"],
    }

"""Helpers for tests, bots and benchmarks: hand-built battles and a scripted player.

Pure Python (no pytest); used by tests/rules/kingsofwar and bench/kingsofwar.py.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Mapping
from typing import Any

from rules.core.dice import rng_for
from rules.core.protocol import RuleEvent

from . import RULESET as KW
from . import geom
from .plan import alive, plan, prof
from .profiles import weapon


def make_scenario(
    units: Iterable[tuple[str, str, float, float, float]],
    terrain: Iterable[dict[str, Any]] = (),
    rounds: int = 6,
    victory: str = "points",
    objectives: Iterable[Iterable[float]] = (),
    table: tuple[float, float] = (72, 48),
) -> dict[str, Any]:
    """A scenario from ``(id, type, x, y, facing)`` rows; ids starting with 'r' are red (kingdom), others blue (horde)."""
    return {
        "name": "test",
        "table": {"width": table[0], "depth": table[1]},
        "terrain": list(terrain),
        "sides": ["red", "blue"],
        "armies": {"red": "kingdom", "blue": "horde"},
        "first": "red",
        "rounds": rounds,
        "victory": victory,
        "objectives": [list(o) for o in objectives],
        "units": [
            {"id": uid, "side": "red" if uid.startswith("r") else "blue", "type": t, "x": x, "y": y, "facing": f}
            for uid, t, x, y, f in units
        ],
    }


def start(scenario: Any, seed: str = "setup") -> dict[str, Any]:
    state = KW.initial_state()
    for ev in KW.setup(KW.load_scenario(scenario), rng_for(seed)):
        state = KW.fold(state, ev.type, ev.payload)
    return state


def play(state: dict[str, Any], side: str, text: str, seed: str = "turn") -> tuple[dict[str, Any], list[RuleEvent]]:
    """Adjudicate one player turn from orders text; returns (new state, events)."""
    events = KW.adjudicate(state, {side: KW.parse_orders(state, side, text).orders}, rng_for(seed))
    for ev in events:
        state = KW.fold(state, ev.type, ev.payload)
    return state, events


def errors(state: dict[str, Any], side: str, text: str) -> list[Any]:
    parsed = KW.parse_orders(state, side, text)
    return list(parsed.errors) + list(KW.validate(state, side, parsed.orders))


def of(events: Iterable[RuleEvent], name: str) -> list[Mapping[str, Any]]:
    return [e.payload for e in events if e.type == "kingsofwar." + name]


def _nearest(u: dict[str, Any], enemies: list[dict[str, Any]]) -> dict[str, Any] | None:
    return min(enemies, key=lambda e: (math.dist((u["x"], u["y"]), geom.centre(e)), e["id"]), default=None)


def _wish(u: dict[str, Any], enemies: list[dict[str, Any]]) -> list[str]:
    """What a simple, aggressive player wants a unit to do: charge, else shoot, else close in."""
    uid, sp = u["id"], prof(u)["sp"]
    if u["status"] == "wavering":
        return [f"{uid} halt"]
    target = _nearest(u, enemies)
    if target is None:
        return [f"{uid} halt"]
    tb = geom.base(target)
    dist = geom.leader_distance(u, tb)
    if dist <= 2 * sp and geom.partly_in_front(u, tb):
        return [f"{uid} charge {target['id']}"]
    wpn = weapon(prof(u))
    if wpn:
        shots = [
            e
            for e in enemies
            if geom.partly_in_front(u, geom.base(e))
            and geom.in_range(geom.leader_distance(u, geom.base(e)), wpn["range"])
        ]
        nearest = _nearest(u, shots)
        if nearest is not None:
            return [f"{uid} halt", f"{uid} shoot {nearest['id']}"]
    cx, cy = geom.centre(target)
    turn = (math.degrees(math.atan2(cy - u["y"], cx - u["x"])) - u["facing"] + 180) % 360 - 180
    turn = int(max(-90, min(90, round(turn))))
    step = max(0.0, min(sp, dist - 1.5))
    pivot = f" pivot {'left' if turn > 0 else 'right'} {abs(turn)}" if turn else ""
    return [f"{uid} advance {step:.1f}{pivot}"]


def bot_orders(state: dict[str, Any], side: str) -> str:
    """Orders for every unit of ``side``; lines the rules refuse are replaced by halts until none is."""
    units = [u for u in state["units"].values() if alive(u)]
    enemies = sorted((u for u in units if u["side"] != side), key=lambda u: u["id"])
    lines = [line for u in sorted(units, key=lambda u: u["id"]) if u["side"] == side for line in _wish(u, enemies)]
    for _ in range(len(lines) + 1):
        bad = {e.line for e in plan(state, side, KW.parse_orders(state, side, "\n".join(lines)).orders).errors}
        if not bad:
            break
        lines = [
            ln if i + 1 not in bad else f"{ln.split()[0]} halt"
            for i, ln in enumerate(lines)
            if not (i + 1 in bad and " shoot " in ln)
        ]
        lines = list(dict.fromkeys(lines))  # a refused shoot line and its halt: one halt
    return "\n".join(lines)


def state_from_view(view: dict[str, Any]) -> dict[str, Any]:
    """A position rebuilt from what one viewer's view shows (this game hides nothing), enough for
    ``bot_orders``: a player scripted through the API or mail knows only its own view."""
    scenario = {
        k: view[k]
        for k in ("table", "terrain", "objectives", "victory", "rounds", "sides", "first", "block_rule", "arcs")
    }
    scenario.update(name=view["scenario"], units=[], armies={u["side"]: u["army"] for u in view["units"]})
    if "rules_version" in view:  # the same rules (version.rules_version)
        scenario["rules_version"] = view["rules_version"]
    keys = ("id", "side", "army", "type", "x", "y", "facing", "w", "d", "h", "damage", "status", "charged_by")
    units = {
        u["id"]: {k: copy.deepcopy(u.get(k, [] if k == "charged_by" else None)) for k in keys} for u in view["units"]
    }
    return {
        "phase": view["phase"],
        "scenario": scenario,
        "units": units,
        "to_move": view["to_move"],
        "round": view["round"],
        "result": view["result"],
    }


def check_result(result: Mapping[str, Any], board: Mapping[str, Any]) -> None:
    """A finished game's result as Kings of War scores it, read against a player's last view (the
    API play-through's check, tests/support/playthrough.py): routed points for each side and, in a
    battle for objectives, who holds each one; the game ended after its last round or when a side
    had no unit left on the field."""
    sides = set(board["sides"])
    score = result["score"]
    assert set(score["routed_points"]) == sides, score
    if board["victory"] == "objectives":
        assert len(score["held"]) == len(board["objectives"]) and set(score["objectives"]) == sides, score
        assert all(holder in (*sides, None) for holder in score["held"]), score
    standing = {u["side"] for u in board["units"] if u["status"] != "routed"}
    assert board["round"] > board["rounds"] or standing != sides, (board["round"], standing)
    assert score == board["score"], (score, board["score"])


def play_to_end(
    scenario: Any, seed: str = "game", max_turns: int = 200, check: bool = False
) -> tuple[dict[str, Any], list[RuleEvent]]:
    """Both sides played by ``bot_orders`` until the game is over; returns (state, all events).
    ``check`` raises AssertionError on the first state that breaks an invariant."""
    state = start(scenario, seed)
    events: list[RuleEvent] = []
    for n in range(max_turns):
        spec = KW.next_turn(state)
        if not spec.sides:
            break
        side = spec.sides[0]
        state, evs = play(state, side, bot_orders(state, side), f"{seed}:{n}")
        events += evs
        problems = KW.check_invariants(state) if check else []
        if problems:
            raise AssertionError(f"after turn {n} ({side}): {problems}")
    return state, events

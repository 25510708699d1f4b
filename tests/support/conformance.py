"""The conformance kit's driver: a game of two scripted players of any rule set in the catalogue,
checked after every adjudication (tests/rules/test_conformance.py runs it bounded in CI,
bench/conformance.py over many seeds). Pure Python: no Django, no database.

Every rule set's ``testing`` module offers ``bot_orders(state, side) -> str``, a player that writes
clean orders from the whole state. After every adjudication: the bot's orders were clean, the
adjudication is deterministic, every event is described, the state is JSON and passes the rule
set's own invariants (``SelfCheck``); at the end every viewer's view draws as a map.
"""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Callable
from typing import Any

from rules import catalog
from rules.core.canonical import canonical_json
from rules.core.protocol import RuleSet, SelfCheck, Viewer

Bot = Callable[[dict[str, Any], str], str]


class Broken(AssertionError):
    """A rule set broke the kit's promise; the message says where (rule set, scenario, seed, turn)."""


def bot(name: str) -> Bot:
    player: Bot = importlib.import_module(f"rules.{name}.testing").bot_orders
    return player


def scenarios(name: str) -> list[str | None]:
    listed: list[str | None] = [n for n, _ in catalog.get(name).scenarios()]
    return listed or [None]


def _fold(rs: RuleSet, state: Any, events: list[Any]) -> Any:
    for ev in events:
        state = rs.fold(state, ev.type, ev.payload)
    return state


def _events_key(events: list[Any]) -> list[tuple[str, str, str]]:
    return [(e.type, canonical_json(dict(e.payload)), e.audience) for e in events]


def _check_state(rs: RuleSet, state: Any, where: str) -> None:
    if json.loads(canonical_json(state)) != state:
        raise Broken(f"{where}: the state is not plain JSON")
    if isinstance(rs, SelfCheck):
        problems = rs.check_invariants(state)
        if problems:
            raise Broken(f"{where}: invariants broken: {problems}")


def _orders(rs: RuleSet, state: Any, player: Bot, side: str, kind: str, where: str) -> tuple[Any, ...]:
    text = player(state, side) if kind == "orders" else rs.default_orders(state, side, kind)
    parsed = rs.parse_orders(state, side, text, kind)
    errors = list(parsed.errors) + list(rs.validate(state, side, parsed.orders, kind))
    if errors:
        raise Broken(f"{where}: {side}'s bot orders were refused: {text!r}: {errors}")
    return parsed.orders


def play(name: str, scenario: str | None, seed: int, turns: int = 60) -> dict[str, Any]:
    """A game of two bots to its end (or ``turns``); the counts of what happened."""
    rs, player = catalog.get(name), bot(name)
    state = _fold(rs, rs.initial_state(), rs.setup(rs.load_scenario(scenario), random.Random(seed)))
    _check_state(rs, state, f"{name} {scenario} seed {seed} setup")
    counts: dict[str, Any] = {"turns": 0, "events": 0, "over": False, "melees": 0, "charges": 0}
    for n in range(turns):
        where = f"{name} {scenario} seed {seed} turn {n + 1}"
        spec = rs.next_turn(state)
        if not spec.sides:
            counts["over"] = True
            break
        orders = {side: _orders(rs, state, player, side, spec.kind, where) for side in spec.sides}
        events = rs.adjudicate(state, orders, random.Random(seed * 1000 + n), spec.kind)
        if _events_key(events) != _events_key(rs.adjudicate(state, orders, random.Random(seed * 1000 + n), spec.kind)):
            raise Broken(f"{where}: the same state, orders and seed gave other events")
        for ev in events:
            if not isinstance(rs.describe_event(ev.type, ev.payload), str):
                raise Broken(f"{where}: {ev.type} is not described")
        state = _fold(rs, state, events)
        _check_state(rs, state, where)
        counts["turns"] += 1
        counts["events"] += len(events)
        counts["melees"] += sum(1 for e in events if "melee" in e.type)
        counts["charges"] += sum(1 for e in events if "charge" in e.type)
    else:
        counts["over"] = not rs.next_turn(state).sides
    for viewer in [Viewer("umpire"), *(Viewer("player", side) for side in rs.sides), Viewer("observer")]:
        svg = rs.render_svg(rs.view(state, viewer)).lstrip()
        if not svg.startswith(("<svg", "<?xml")):
            raise Broken(f"{name} {scenario} seed {seed}: the map for {viewer} is not SVG")
    return counts


def bot_game(rs: Any, scenario: str | None, seed: int, turns: int) -> Any:
    """A position for tests that need one: set up with seed 1, then ``turns`` adjudications of the
    rule set's own scripted player (``bot``), dice drawn from ``seed``; the game's end when ``turns``
    is more than it takes. Unchecked (``play`` is the checked game); for Little Wars the positions of
    its ``play_bots``."""
    player = bot(rs.name)
    state, rng = rs.set_up(rs.load_scenario(scenario), random.Random(1)), random.Random(seed)
    for _ in range(turns):
        spec = rs.next_turn(state)
        if not spec.sides:
            break
        orders = {}
        for side in spec.sides:
            text = player(state, side) if spec.kind == "orders" else rs.default_orders(state, side, spec.kind)
            orders[side] = rs.parse_orders(state, side, text, spec.kind).orders
        state = rs.fold_events(state, rs.adjudicate(state, orders, random.Random(rng.getrandbits(64)), spec.kind))
    return state

"""Helpers for tests, benchmarks and demo bots: a started battle, a scripted player, a whole game.

Pure Python (no pytest). The bot is deliberately plain: it closes with the nearest enemy,
fires at the nearest target it can hit and attacks whatever is adjacent.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from rules.hex import coords as C

from . import RULESET as RS
from . import deploy
from .activate import pick_target, why_not_fight, why_not_move, why_not_shoot
from .battle import Battle, other
from .data import SIDES
from .options import state_from_view  # noqa: F401  (the scripted players' import)
from .orders import Order
from .scenario import CAPACITY


def start(scenario: Any = "field_battle", seed: int = 1) -> dict[str, Any]:
    state: dict[str, Any] = RS.set_up(scenario, random.Random(seed))
    return state


fold_all = RS.fold_events


def bot_orders(state: dict[str, Any], side: str) -> str:
    b = Battle(state, random.Random(0))
    if state["phase"] == "deploy":  # version 3: hidden units into cover near the enemy
        return "\n".join(deploy.bot_lines(b, side)) or RS.default_orders(state, side)
    rnd, lines = state["round"], []
    enemies = [e for e in b.active(other(side)) if e["hex"] and not e["hidden"]]
    for u in sorted(b.active(side), key=lambda u: u["id"]):
        near = sorted(enemies, key=lambda e: (b.dist(u["hex"], e["hex"]) if u["hex"] else 0, e["id"]))
        if not near:
            break
        if rnd == "movement" and u["hex"]:
            prof = b.profile(u)
            fast = prof["fast"][0] if prof["fast"] and b.dist(u["hex"], near[0]["hex"]) > 3 else None
            text = f"move {u['id']} to {near[0]['hex']}" + (f" {fast}" if fast else "")
            o = Order(0, text, "move", u["id"], dest=near[0]["hex"], mode=fast)
            if why_not_move(b, u, o) is None and b.dist(u["hex"], near[0]["hex"]) > 1:
                lines.append(text)
        elif rnd == "shooting" and why_not_shoot(b, u) is None:
            ids = [e["id"] for e in near[:4]]
            o = Order(0, "", "fire", u["id"], targets=tuple(ids))
            if pick_target(b, u, o)[0]:
                lines.append(f"fire {u['id']} at {', '.join(ids)}")
        elif rnd == "melee":
            adj = [e for e in near if u["hex"] and b.dist(u["hex"], e["hex"]) == 1]
            for e in adj:
                if why_not_fight(b, u, e) is None:
                    lines.append(f"attack {u['id']} {e['id']}")
                    break
    if not lines:  # the platform wants at least one order: a unit holds
        mine = sorted(u["id"] for u in state["units"].values() if u["side"] == side)
        lines = [f"hold {mine[0]}"]
    return "\n".join(lines)


def play_round(
    state: dict[str, Any], texts: dict[str, str], seed: int, check: bool = True
) -> tuple[dict[str, Any], list[Any]]:
    orders = {}
    for side, text in texts.items():
        parsed = RS.parse_orders(state, side, text)
        errors = list(parsed.errors) + list(RS.validate(state, side, parsed.orders))
        if check:
            assert not errors, errors
        orders[side] = parsed.orders
    events = RS.adjudicate(state, orders, random.Random(seed))
    return fold_all(state, events), events


def play_game(scenario: str = "field_battle", seed: int = 1, max_rounds: int = 200) -> tuple[dict[str, Any], int]:
    """Both sides played by the bot to the end; returns the final state and rounds played."""
    state = start(scenario, seed)
    n = 0
    while state["result"] is None and n < max_rounds:
        texts = {s: bot_orders(state, s) for s in RS.next_turn(state).sides}
        state, _ = play_round(state, texts, seed * 1000 + n)
        n += 1
    return state, n


def where(label: str) -> C.Hex:
    return C.parse_label(label)


def battle(
    units: list[dict[str, Any]],
    hexes: dict[str, Any] | None = None,
    sides: dict[str, Any] | None = None,
    cols: int = 8,
    rows: int = 8,
    rnd: str = "movement",
    turns: int = 6,
    objectives: dict[str, Any] | None = None,
    buildings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A battle from a hand-made scenario, in the given round of turn 1 (red attacks). A hidden unit's
    ``at`` is where its side puts it in the deployment round (version 3), played here."""
    placed = {u["id"]: u["at"] for u in units if u.get("hidden") and u.get("at")}
    sc = {
        "name": "test",
        "turns": turns,
        "first": "red",
        "objectives": objectives or {},
        "buildings": buildings or {},
        "map": {"name": "test", "cols": cols, "rows": rows, "hexes": hexes or {}, "sides": sides or {}},
        "units": [{k: v for k, v in u.items() if not (k == "at" and u["id"] in placed)} for u in units],
    }
    if placed:
        sc["deployment"] = _zones(units, cols, rows)
    state = RS.initial_state()
    for ev in RS.setup(sc, random.Random(0)):
        state = RS.fold(state, ev.type, ev.payload)
    if state["phase"] == "deploy":
        texts = {
            s: "\n".join(f"deploy {u['id']} at {u['at']}" for u in units if u["id"] in placed and u["side"] == s)
            for s in RS.next_turn(state).sides
        }
        state, _ = play_round(state, texts, 0)
    return {**state, "round": rnd}


def _zones(units: list[dict[str, Any]], cols: int, rows: int) -> dict[str, list[str]]:
    """Deployment zones for ``battle``: each side's hidden units' hexes and, of the empty hexes, all
    (one side hides) or its half of the map (red the west)."""
    hidden = {s: {u["at"] for u in units if u.get("hidden") and u.get("at") and u["side"] == s} for s in SIDES}
    shown = {u["at"] for u in units if u.get("at") and not u.get("hidden")}
    both = all(hidden.values())
    zones = {}
    for s in SIDES:
        if hidden[s]:
            theirs = set().union(*(hidden[o] for o in SIDES if o != s))
            half = {
                f"{c:02d}{r:02d}"
                for c in range(1, cols + 1)
                for r in range(1, rows + 1)
                if not both or (c <= cols // 2) == (s == SIDES[0])
            }
            zones[s] = sorted((half - shown - theirs) | hidden[s])
    return zones


class Loaded(random.Random):
    """Dice that come up as listed (then fall back to a seeded stream): for rules tests that
    need one exact roll. The engine takes any ``random.Random``."""

    def __init__(self, rolls: Iterable[int], seed: int = 0) -> None:
        super().__init__(seed)
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        if self.rolls:
            r = self.rolls.pop(0)
            assert a <= r <= b, (r, a, b)
            return r
        return super().randint(a, b)


def invariants(state: dict[str, Any]) -> list[str]:
    """What must hold in every position: hex capacity (WW-3), machines alone, no unit on an enemy's
    hex, squads and crews within their starting size, locks only between adjacent enemies."""
    problems: list[str] = []
    at: dict[str, list[dict[str, Any]]] = {}
    for u in state["units"].values():
        if u["hex"] and u["status"] in ("active", "abandoned", "wreck") and u["kind"] != "aircraft":
            at.setdefault(u["hex"], []).append(u)
        if u["kind"] == "squad" and len(u["models"]) > u["start"]:
            problems.append(f"{u['id']} has more soldiers than it started with")
        if u["status"] == "active" and u["kind"] == "squad" and not u["models"]:
            problems.append(f"{u['id']} is active with no soldiers")
        for p in u["locked"] if u["status"] == "active" else ():
            o = state["units"][p]
            if o["status"] == "active" and (
                o["side"] == u["side"]
                or not o["hex"]
                or C.distance(C.parse_label(o["hex"]), C.parse_label(u["hex"])) != 1
            ):
                problems.append(f"{u['id']} is locked with {p}, not an adjacent enemy")
    for hx, us in at.items():
        sizes: list[tuple[int, int]] = []
        for u in us:
            size = (len(u["models"]), 0) if u["kind"] == "squad" else (0, 1)
            why = CAPACITY.refusal(sizes, size)
            if why:
                problems.append(f"{hx}: {why}")
            sizes.append(size)
        if len({u["side"] for u in us if u["status"] == "active"}) > 1:
            problems.append(f"{hx} holds both sides")
    return problems

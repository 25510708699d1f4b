"""Helpers for tests, benchmarks and demo bots: a started battle, a scripted player, a whole game.

Pure Python (no pytest). The bot is deliberately plain: it closes with the nearest enemy,
fires at the nearest target it can hit and attacks whatever is adjacent.
"""
from __future__ import annotations

import random

from rules.hex import coords as C

from . import RULESET as RS
from .activate import pick_target, why_not_fight, why_not_move, why_not_shoot
from .battle import Battle, other
from .orders import Order


def start(scenario="field_battle", seed: int = 1) -> dict:
    state = RS.initial_state()
    for ev in RS.setup(scenario, random.Random(seed)):
        state = RS.fold(state, ev.type, ev.payload)
    return state


def fold_all(state: dict, events) -> dict:
    for ev in events:
        state = RS.fold(state, ev.type, ev.payload)
    return state


def bot_orders(state: dict, side: str) -> str:
    b = Battle(state, random.Random(0))
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
    return "\n".join(lines)


def play_round(state: dict, texts: dict[str, str], seed: int, check: bool = True) -> tuple[dict, list]:
    orders = {}
    for side, text in texts.items():
        parsed = RS.parse_orders(state, side, text)
        errors = list(parsed.errors) + list(RS.validate(state, side, parsed.orders))
        if check:
            assert not errors, errors
        orders[side] = parsed.orders
    events = RS.adjudicate(state, orders, random.Random(seed))
    return fold_all(state, events), events


def play_game(scenario="field_battle", seed: int = 1, max_rounds: int = 200) -> tuple[dict, int]:
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

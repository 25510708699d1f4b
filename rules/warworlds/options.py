"""The orders open to one side now, for the game page's "Operations open to you now".

Built from that side's own view only (``state_from_view``), never from the whole state: a
hidden enemy can neither appear as a target nor show itself by a hex the list leaves out.
"""

from __future__ import annotations

import random
from typing import Any

from rules.core.i18n import _
from rules.hex import coords as C
from rules.hex import paths

from . import deploy
from .activate import volleys, why_not_fight, why_not_move, why_not_shoot
from .battle import Battle, other
from .data import MORALE_NAMES, PROFILES
from .movement import allowance, step_cost_for
from .orders import Order


def state_from_view(view: dict[str, Any]) -> dict[str, Any]:
    """A position rebuilt from what one player's view shows: enough to list the orders open to
    that side, and for scripted players that know only the API."""

    level = {name: n for n, name in MORALE_NAMES.items()}
    units = {}
    for v in view["units"]:
        prof = PROFILES[v["profile"]]
        u = {
            "id": v["id"],
            "side": v["side"],
            "profile": v["profile"],
            "name": v["name"],
            "kind": v["kind"],
            "hex": v["hex"],
            "morale": level[v["morale"]],
            "hidden": v["hidden"],
            "status": v["status"],
            "bonus": v["bonus"],
            "penalty": v["penalty"],
            "acted": list(v["acted"]),
            "moved": v["moved"],
            "mode": v["mode"],
            "locked": list(v["locked"]),
            "priority": list(v.get("priority", [])),
            "stunned": 0,
            "charged": False,
            "surprise_seen": [],
            "shot_from": [],
        }
        if v["kind"] == "squad":
            u["models"] = [r for r, n in v["roles"].items() for _ in range(n)]
            u["start"] = v["start"]
            if prof.get("gun"):
                u["weapons"] = [prof["gun"]]
        else:
            u.update(
                crew=list(prof["crew"])[: v["crew"]],
                crew_stunned=list(prof["crew"])[: v["crew_stunned"]],
                weapons=list(v["weapons"]),
                immobile=v["immobile"],
                burning=v["burning"],
                start=v["crew_start"],
                stunned=v["stunned"],
            )
        units[u["id"]] = u
    sc = {**view["scenario"], "los_rule": view["scenario"].get("los_rule", "lenient")}
    turn = view["turn"]
    return {
        "phase": view["phase"],
        "scenario": sc,
        "turn": turn["number"],
        "round": turn["round"],
        "attacker": turn["attacker"],
        "units": units,
        "log": [],
        "score": dict(view["score"]),
        "result": view["result"],
        "doors": {},
    }


def _moves(b: Battle, u: dict[str, Any]) -> list[str]:
    """One line per speed: the hexes the unit can end its move in (the first line is a real order)."""
    lines = []
    for mode in b.profile(u)["moves"]:
        if why_not_move(b, u, Order(0, "", "move", u["id"], mode=mode)):
            continue
        start = C.parse_label(u["hex"])
        reached = paths.reach(start, allowance(b, u, mode, False), step_cost_for(b, u, mode))
        ends = sorted(C.label(h) for h in reached if h != start and not b.refusal(u, C.label(h)))
        if ends:
            order = f"move {u['id']} to {ends[0]} {mode}"
            others = " ".join(ends[1:])
            lines.append(_("{order}   (or to any of: {hexes})", order=order, hexes=others) if others else order)
    return lines


def open_orders(view: dict[str, Any], side: str | None) -> list[str]:
    """The orders ``side`` may give in this round, from its own ``view`` (empty when it gives none)."""
    if (
        side is None
        or not view.get("scenario")
        or view.get("result")
        or side not in (view.get("turn") or {}).get("acting", [])
    ):
        return []
    state = state_from_view(view)
    b = Battle(state, random.Random(0))
    if state["phase"] == "deploy":
        return deploy.open_orders(b, side)
    rnd, lines = state["round"], []
    enemies = sorted((e for e in b.active(other(side)) if e["hex"]), key=lambda e: e["id"])
    for u in sorted(b.active(side), key=lambda u: u["id"]):
        if rnd == "movement" and u["hex"]:
            lines += _moves(b, u)
        elif rnd == "shooting" and why_not_shoot(b, u) is None and (u["hex"] or u["kind"] == "aircraft"):
            lines += [f"fire {u['id']} at {e['id']}" for e in enemies if volleys(b, u, e)]
        elif rnd == "melee" and u["hex"]:
            lines += [f"attack {u['id']} {e['id']}" for e in enemies if why_not_fight(b, u, e) is None]
    return lines

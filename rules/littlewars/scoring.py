"""Scenario ends and the score sheet (LW-47..55).

Decisions (RULES.md): both sides get a sheet; the 100 goes to the winner or is split
on a draw or at the turn limit; prisoners score 1/2 each to both sides as the
English original reads the seed ("your men in enemy hands and the prisoners you
took"); a figure is alive for scoring when it is free on the table, armed or not.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from rules.core.protocol import State

from . import wagons
from .fold import play_turn
from .table import table_of
from .units import (
    ARMS,
    BREAKTHROUGH_FIGURES,
    DRAW_BELOW,
    DRAW_BELOW_SMALL,
    GUN_SCORE,
    PRISONER_SCORE,
    SIDES,
    SMALL_ARMY,
    VICTORY,
    WITHDRAW_MOVES,
    other,
    pace,
)

# How a game ended: (winner or None for a draw, the reason[, what the loser surrenders (LW-50)]).
Ending = tuple[str | None, str] | tuple[str, str, dict[str, Any]]


def _free(state: State, side: str) -> list[dict[str, Any]]:
    return [f for f in state["figures"].values() if f["side"] == side and f["st"] == "ok"]


def sheet(state: dict[str, Any], winner: str | None) -> dict[str, Any]:
    out = {}
    for side in SIDES:
        free = _free(state, side)
        cav = sum(1 for f in free if f["arm"] == "cav")
        inf = len(free) - cav
        guns = sum(1 for g in state["guns"].values() if g["owner"] == side)
        lost = sum(1 for f in state["figures"].values() if f["side"] == side and f["st"] == "pow")
        taken = sum(1 for f in state["figures"].values() if f["st"] == "pow" and f["pow"][0] == side)
        victory = VICTORY if winner == side else (VICTORY / 2 if winner is None else 0.0)
        lines = {
            "victory": victory,
            "guns": guns,
            "guns_points": guns * GUN_SCORE,
            "cavalry": cav,
            "cavalry_points": cav * ARMS["cav"]["score"],
            "infantry": inf,
            "infantry_points": inf * ARMS["inf"]["score"],
            "own_men_prisoner": lost,
            "prisoners_taken": taken,
            "prisoner_points": (lost + taken) * PRISONER_SCORE,
        }
        lines["total"] = (
            victory
            + lines["guns_points"]
            + lines["cavalry_points"]
            + lines["infantry_points"]
            + lines["prisoner_points"]
        )
        out[side] = lines
    return out


def reached(state: dict[str, Any], side: str) -> list[str]:
    """Fighting figures of ``side`` at the enemy edge (within the target part of it, LW-51, if set)."""
    table = table_of(state["scenario"])
    edge = table.home(other(side))
    target = (state["scenario"]["settings"]["target"] or {}).get(side)
    out = []
    for fid, f in state["figures"].items():
        if f["side"] != side or f["st"] != "ok" or f["dis"]:
            continue
        if not table.at_edge(edge, f["x"], f["y"], f["arm"]):
            continue
        along = f["x"] if edge in ("south", "north") else f["y"]
        if target and not min(target) <= along <= max(target):
            continue
        out.append(fid)
    return sorted(out)


def _annihilation(state: State) -> Ending | Literal[False]:
    fighting = {s: sum(1 for f in _free(state, s) if not f["dis"]) for s in SIDES}
    if not any(fighting.values()):
        return None, "both armies are destroyed or captured"
    for s in SIDES:
        if fighting[s] == 0:
            return other(s), f"{s} has no fighting figure left (LW-47)"
    return False  # no annihilation: the other endings are looked at


def _draw(state: State) -> Ending | None:
    start = state["start"]
    small = all(start[s]["figures"] <= SMALL_ARMY for s in SIDES)  # the Russian text: "no more than 50"
    limit = DRAW_BELOW_SMALL if small else DRAW_BELOW
    alive = {s: len(_free(state, s)) for s in SIDES}
    if all(alive[s] < limit for s in SIDES):
        return None, f"both sides are below {limit} figures ({alive[SIDES[0]]} and {alive[SIDES[1]]}): a draw (LW-49)"
    return None


def check_end(state: dict[str, Any]) -> dict[str, Any] | None:
    """A ``game_over`` payload when the scenario has ended after this turn, else None."""
    kind = state["scenario"]["kind"]
    annihilated = _annihilation(state)
    ended: Ending | None = None
    if annihilated is not False:
        ended = annihilated
    else:
        if kind == "breakthrough":
            ended = _breakthrough(state)
        elif kind == "defence":
            ended = _defence(state)
        ended = ended or _draw(state)
    if ended is None and play_turn(state) >= state["scenario"]["settings"]["max_turns"]:  # turns of play
        ended = (None, f"the turn limit ({state['scenario']['settings']['max_turns']}) was reached: the 100 is split")
    if ended is None:
        return None
    winner, reason = ended[0], ended[1]
    payload: dict[str, Any] = {"winner": winner, "reason": reason}
    if len(ended) > 2:
        payload["capitulated"] = ended[2]
    return payload


def _breakthrough(state: State) -> Ending | None:
    got = {s: len(reached(state, s)) for s in SIDES}
    through = [s for s in SIDES if got[s] >= BREAKTHROUGH_FIGURES]
    if not through:
        return None
    if len(through) == 2 and got[SIDES[0]] == got[SIDES[1]]:
        return None, f"both sides broke through with {got[SIDES[0]]} figures: a draw (LW-50)"
    winner = max(through, key=lambda s: got[s])
    return winner, f"{got[winner]} {winner} figures reached the enemy edge (LW-50)", capitulation(state, other(winner))


def capitulation(state: dict[str, Any], loser: str) -> dict[str, Any]:
    """LW-50 as decided: the fleeing army keeps what could leave by its own edge within 6 moves; the rest surrenders."""
    table = table_of(state["scenario"])
    edge = table.home(loser)
    figures = sorted(
        fid
        for fid, f in state["figures"].items()
        if f["side"] == loser
        and f["st"] == "ok"
        and table.edge_distance(edge, f["x"], f["y"]) > WITHDRAW_MOVES * pace(state["scenario"], f["arm"])
    )
    guns = sorted(
        gid
        for gid, g in state["guns"].items()
        if g["owner"] == loser
        and table.edge_distance(edge, g["x"], g["y"]) > WITHDRAW_MOVES * pace(state["scenario"], "inf")
    )
    out = {"figures": figures, "guns": guns}
    if state.get("wagons"):  # LW-66/67: wagons go at the foot pace, so six moves are 72 in (x scale)
        out["wagons"] = [
            wid
            for wid, w in wagons.live(state, loser).items()
            if table.edge_distance(edge, w["x"], w["y"]) > WITHDRAW_MOVES * wagons.wagon_pace(state["scenario"])
        ]
    return out


def _defence(state: State) -> Ending | None:
    defender = state["scenario"]["settings"]["defender"]
    attacker = other(defender)
    need = math.ceil(state["start"][attacker]["figures"] / 4)
    got = len(reached(state, attacker))
    if got >= need:
        return (
            attacker,
            f"{got} {attacker} figures reached the {defender} edge, a quarter of the attack is {need} (LW-52)",
        )
    fighting = sum(1 for f in _free(state, attacker) if not f["dis"])
    if fighting < need:
        return (
            defender,
            f"{attacker} has {fighting} fighting figures left, fewer than the {need} needed to break through (LW-52)",
        )
    return None

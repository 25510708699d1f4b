"""A strategic battle fought as a War of the Worlds game (rules.core.protocol.Tactical; RULES.md
"A strategic battle on this map"). (``battle.py`` is the engine's working state, hence this name.)

The conversion, both ways (RULES.md states it for players):
- a strategic unit of strength 1 is SOLDIERS_PER_STRENGTH soldiers, one infantry squad of the
  scenarios' size (8 rifles, a light machine gun, an officer); strength s is s × 10 soldiers
  rounded half up, at least 1, in as few squads of at most 10 as hold them, shared evenly (the
  first squads the larger); every started pair of a side's units brings one infantry gun
  (``infantry_artillery``, 3 gunners), which belongs to no strategic unit; nothing is hidden, so
  there is no deployment round;
- a unit's strength left is the share of the soldiers it came with still fighting at the end (in
  its squads that are active: destroyed, surrendered and deserted squads count 0), to 3 decimals;
  a unit left with less than half is lost (rules.core.battles.lost_units); the soldiers of a
  squad that surrendered are the enemy's prisoners, and a surrendered gun squad's gun is taken;
- the winner is War of the Worlds' own (RULES.md "Victory"): after TURN_LIMIT turns more points win,
  and equal points are a draw in which neither side has won, so the defender keeps the place.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from rules.core.battles import check_battle, lost_units
from rules.core.protocol import ScenarioError, State

from .data import SIDES

SOLDIERS_PER_STRENGTH = 10  # an infantry squad of the scenario files (field_battle, town_assault)
SQUAD = 10  # most soldiers in one squad
GUNNERS = 3
UNITS_PER_GUN = 2
TURN_LIMIT = 8
ROWS = 10
MIN_COLS = 10
MAX_COLS = 99
DEPLOY_ROWS = 2
OBJECTIVE_POINTS = 5
GUN_PROFILE = "infantry_artillery"


def soldiers_for(strength: float) -> int:
    return max(1, math.floor(strength * SOLDIERS_PER_STRENGTH + 0.5))


def squads_for(strength: float) -> list[int]:
    """The soldiers of each squad a unit of ``strength`` fields (even shares, the first larger)."""
    total = soldiers_for(strength)
    n = math.ceil(total / SQUAD)
    return [total // n + (1 if i < total % n else 0) for i in range(n)]


def models_for(soldiers: int) -> dict[str, int]:
    """A squad's soldiers: an officer from 2, a light machine gun from 5, the rest rifles."""
    officer = 1 if soldiers >= 2 else 0
    lmg = 1 if soldiers >= 5 else 0
    return {k: n for k, n in (("rifle", soldiers - officer - lmg), ("lmg", lmg), ("officer", officer)) if n}


def _hx(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def battle_scenario(battle: Mapping[str, Any]) -> dict[str, Any]:
    """The scenario for ``battle``: a map of its place's kind, each side's units as squads."""
    b = check_battle(battle, SIDES)
    rows = {b["defender"]: (2, 1), b["attacker"]: (ROWS - 1, ROWS)}  # (front, back)
    troops = {side: _troops(b, side) for side in SIDES}
    need = max(math.ceil(len(t) / DEPLOY_ROWS) for t in troops.values())
    cols = max(MIN_COLS, need + 2)
    if cols > MAX_COLS:
        big = max(SIDES, key=lambda s: len(troops[s]))
        raise ScenarioError(
            f"battle.forces.{big}: too many troops for one field "
            f"({len(troops[big])} squads; at most {DEPLOY_ROWS * (MAX_COLS - 2)})"
        )
    units: list[dict[str, Any]] = []
    for side in SIDES:
        units += _deploy(troops[side], side, rows[side], cols)
    place = b["place"]
    hexes, buildings, objective = TEMPLATES[place["kind"]](cols)
    for row in range(1, ROWS + 1):  # a road from edge to edge through the place
        hexes.setdefault(_hx(cols // 2, row), {})["road"] = True
    return {
        "name": "battle-" + str(b["id"]).lower(),
        "title": f"Battle {b['id']} at {place.get('name', place['id'])}",
        "turns": TURN_LIMIT,
        "first": b["attacker"],
        "objectives": {objective: OBJECTIVE_POINTS},
        "buildings": buildings,
        "map": {"name": "battle-" + place["kind"], "cols": cols, "rows": ROWS, "hexes": hexes, "sides": {}},
        "units": units,
        # read back by battle_result: which board units are which strategic units
        "battle": {
            "id": str(b["id"]),
            "units": {s: {u["id"]: u["unit"] for u in troops[s] if u["unit"]} for s in SIDES},
        },
    }


def _troops(b: Mapping[str, Any], side: str) -> list[dict[str, Any]]:
    """A side's board units: each strategic unit's squads in the battle's order, then the guns."""
    letter = side[0].upper()
    out: list[dict[str, Any]] = []
    for u in b["forces"][side]:
        shares = squads_for(u["strength"])
        for k, soldiers in enumerate(shares):
            out.append(
                {
                    "id": f"{letter}{len(out) + 1}",
                    "profile": "infantry",
                    "models": models_for(soldiers),
                    "unit": u["unit"],
                    "name": u["unit"] if len(shares) == 1 else f"{u['unit']} ({k + 1})",
                }
            )
    for k in range(math.ceil(len(b["forces"][side]) / UNITS_PER_GUN)):
        out.append(
            {
                "id": f"{letter}G{k + 1}",
                "profile": GUN_PROFILE,
                "models": {"gunner": GUNNERS},
                "unit": None,
                "name": f"Gun {k + 1}",
            }
        )
    return out


def _deploy(troops: list[dict[str, Any]], side: str, rows: tuple[int, int], cols: int) -> list[dict[str, Any]]:
    """One squad a hex: the front row centred, then the row behind."""
    per_row = math.ceil(len(troops) / DEPLOY_ROWS)
    first = (cols - per_row) // 2 + 1
    return [
        {
            "id": t["id"],
            "side": side,
            "profile": t["profile"],
            "models": t["models"],
            "at": _hx(first + i % per_row, rows[0] if i < per_row else rows[1]),
            "name": t["name"],
        }
        for i, t in enumerate(troops)
    ]


Template = tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]], str]


def _town(cols: int) -> Template:
    c = cols // 2
    town = [_hx(c - 1, 4), _hx(c, 4), _hx(c + 1, 4), _hx(c, 5)]
    hexes: dict[str, dict[str, Any]] = {h: {"terrain": "building"} for h in town}
    hexes[_hx(2, 5)] = {"terrain": "wood"}
    hexes[_hx(cols - 1, 5)] = {"terrain": "wood"}
    return hexes, {h: {"entrances": 2} for h in town}, _hx(c, 4)


def _crossing(cols: int) -> Template:
    """A river (water) across row 6, a bridge where the road crosses it and a ford to the west."""
    c = cols // 2
    hexes: dict[str, dict[str, Any]] = {_hx(col, 6): {"terrain": "water"} for col in range(1, cols + 1)}
    hexes[_hx(c, 6)] = {"terrain": "open"}  # the bridge (the road is laid over it)
    hexes[_hx(c - 3, 6)] = {"terrain": "rough"}  # the ford
    hexes[_hx(c - 3, 4)] = {"terrain": "wood"}
    hexes[_hx(c - 3, 3)] = {"terrain": "wood"}
    hexes[_hx(c + 3, 4)] = {"elevation": 1}
    return hexes, {}, _hx(c, 5)


def _open(cols: int) -> Template:
    c = cols // 2
    hexes: dict[str, dict[str, Any]] = {_hx(col, 5): {"road": True} for col in range(1, cols + 1)}
    for col in (2, cols - 1):
        hexes[_hx(col, 5)]["terrain"] = "wood"
        hexes[_hx(col, 6)] = {"terrain": "rough"}
    return hexes, {}, _hx(c, 5)


def _hills(cols: int) -> Template:
    c = cols // 2
    hexes: dict[str, dict[str, Any]] = {_hx(col, 4): {"elevation": 1} for col in range(c - 2, c + 3)}
    hexes.update({_hx(col, 3): {"elevation": 1} for col in (c - 1, c, c + 1)})
    hexes[_hx(c - 4, 6)] = {"elevation": 1, "terrain": "rough"}
    hexes[_hx(c + 4, 6)] = {"terrain": "wood"}
    return hexes, {}, _hx(c, 4)


TEMPLATES = {"town": _town, "crossing": _crossing, "open": _open, "hills": _hills}


def battle_result(state: State) -> dict[str, Any] | None:
    """None while the game goes on (or was not a battle); then the result read back (module doc)."""
    result = state.get("result")
    battle = (state.get("scenario") or {}).get("battle")
    if not result or not battle:
        return None
    units = state["units"]
    left: dict[str, dict[str, float]] = {}
    for side in SIDES:
        came: dict[str, int] = {}
        still: dict[str, int] = {}
        for uid, strategic in battle["units"][side].items():
            u = units[uid]
            came[strategic] = came.get(strategic, 0) + u["start"]
            still[strategic] = still.get(strategic, 0) + (len(u["models"]) if u["status"] == "active" else 0)
        left[side] = {s: round(still[s] / came[s], 3) for s in came}
    gave_up = [u for u in units.values() if u["status"] == "surrendered" and u["kind"] == "squad"]
    return {
        "winner": result.get("winner"),
        "reason": str(result.get("reason", "")),
        "lost": lost_units(left),
        "strength_left": left,
        "prisoners": {s: sum(len(u["models"]) for u in gave_up if u["side"] != s) for s in SIDES},
        "guns_captured": {s: sum(1 for u in gave_up if u["side"] != s and u.get("weapons")) for s in SIDES},
    }

"""A strategic battle fought as a Napoleon's War game (rules.core.protocol.Tactical; RULES.md
"A strategic battle on this map"). (``battle.py`` is the engine's working state, hence this name.)

The conversion, both ways (RULES.md states it for players):
- a strategic unit of strength 1 is FIGURES_PER_STRENGTH infantry figures, one brigade of the
  scenarios' size; strength s is s × 4 figures rounded half up, at least 1, in as few brigades of
  at most 4 figures as hold them, the figures shared out evenly (the first brigades the larger);
- every started pair of a side's strategic units brings one foot battery of GUN_FIGURES figures,
  which belongs to no strategic unit; each side has one level-2 infantry leader (NW-37, NW-41);
- a unit's strength left is the share of the figures it came with still on the field at the end
  (in its brigades that are not destroyed), to 3 decimals; a unit left with less than half is
  lost (rules.core.battles.lost_units); the game takes neither prisoners nor guns;
- the winner is Napoleon's War's own (RULES.md "Victory"): after TURN_LIMIT turns more points win,
  and equal points are a draw in which neither side has won, so the defender keeps the place.

Map: ROWS rows, at least MIN_COLS columns; the defender deploys on rows 1-2 (north), the attacker on
the last two rows (south) and moves first; the place's template lies between them, its objective
hex worth OBJECTIVE_POINTS.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from rules.core.battles import check_battle, lost_units
from rules.core.protocol import ScenarioError, State
from rules.hex import coords as C

from .data import SIDES

FIGURES_PER_STRENGTH = 4  # an infantry brigade of the scenario files (mill_ford, quatre_bras)
BRIGADE = 4  # most figures in one brigade
GUN_FIGURES = 3  # a foot battery of the scenario files
UNITS_PER_GUN = 2
TURN_LIMIT = 10
ROWS = 10
MIN_COLS = 10
MAX_COLS = 99
DEPLOY_ROWS = 2
OBJECTIVE_POINTS = 5
LEADER_LEVEL = 2


def figures_for(strength: float) -> int:
    return max(1, math.floor(strength * FIGURES_PER_STRENGTH + 0.5))


def brigades_for(strength: float) -> list[int]:
    """The figures of each brigade a unit of ``strength`` fields (even shares, the first larger)."""
    total = figures_for(strength)
    n = math.ceil(total / BRIGADE)
    return [total // n + (1 if i < total % n else 0) for i in range(n)]


def _hx(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def battle_scenario(battle: Mapping[str, Any]) -> dict[str, Any]:
    """The scenario for ``battle``: a map of its place's kind, each side's units as brigades."""
    b = check_battle(battle, SIDES)
    rows = {b["defender"]: (2, 1), b["attacker"]: (ROWS - 1, ROWS)}  # (front, back)
    troops = {side: _troops(b, side) for side in SIDES}
    need = max(math.ceil(len(t) / DEPLOY_ROWS) for t in troops.values())
    cols = max(MIN_COLS, need + 2)
    if cols > MAX_COLS:
        big = max(SIDES, key=lambda s: len(troops[s]))
        raise ScenarioError(
            f"battle.forces.{big}: too many troops for one field "
            f"({len(troops[big])} units; at most {DEPLOY_ROWS * (MAX_COLS - 2)})"
        )
    units: list[dict[str, Any]] = []
    leaders: list[dict[str, Any]] = []
    for side in SIDES:
        placed = _deploy(troops[side], side, rows[side], cols)
        units += placed
        leaders.append(
            {
                "id": side[0].upper() + "GEN",
                "side": side,
                "level": LEADER_LEVEL,
                "arm": "infantry",
                "at": placed[0]["at"],
                "name": f"{side.capitalize()} commander",
            }
        )
    place = b["place"]
    hexes, sides, objective = TEMPLATES[place["kind"]](cols)
    for row in range(1, ROWS + 1):  # a road from edge to edge through the place
        hexes.setdefault(_hx(cols // 2, row), {})["road"] = True
    return {
        "name": "battle-" + str(b["id"]).lower(),
        "title": f"Battle {b['id']} at {place.get('name', place['id'])}",
        "turns": TURN_LIMIT,
        "first": b["attacker"],
        "caps": {s: max(3, math.ceil(len(troops[s]) / 2)) for s in SIDES},
        "options": [],
        "objectives": {objective: OBJECTIVE_POINTS},
        "map": {"name": "battle-" + place["kind"], "cols": cols, "rows": ROWS, "hexes": hexes, "sides": sides},
        "units": units,
        "leaders": leaders,
        # read back by battle_result: which board units are which strategic units
        "battle": {
            "id": str(b["id"]),
            "units": {s: {u["id"]: u["unit"] for u in troops[s] if u["unit"]} for s in SIDES},
        },
    }


def _troops(b: Mapping[str, Any], side: str) -> list[dict[str, Any]]:
    """A side's board units: each strategic unit's brigades in the battle's order, then the guns."""
    letter = side[0].upper()
    out: list[dict[str, Any]] = []
    for u in b["forces"][side]:
        shares = brigades_for(u["strength"])
        for k, figures in enumerate(shares):
            name = u["unit"] if len(shares) == 1 else f"{u['unit']} ({k + 1})"
            out.append(
                {
                    "id": f"{letter}{len(out) + 1}",
                    "arm": "infantry",
                    "figures": figures,
                    "unit": u["unit"],
                    "name": name,
                }
            )
    for k in range(math.ceil(len(b["forces"][side]) / UNITS_PER_GUN)):
        out.append(
            {
                "id": f"{letter}A{k + 1}",
                "arm": "artillery",
                "figures": GUN_FIGURES,
                "unit": None,
                "name": f"Battery {k + 1}",
            }
        )
    return out


def _deploy(troops: list[dict[str, Any]], side: str, rows: tuple[int, int], cols: int) -> list[dict[str, Any]]:
    """One unit a hex: the front row centred, then the row behind."""
    per_row = math.ceil(len(troops) / DEPLOY_ROWS)
    first = (cols - per_row) // 2 + 1
    out = []
    for i, t in enumerate(troops):
        row = rows[0] if i < per_row else rows[1]
        col = first + i % per_row
        out.append(
            {
                "id": t["id"],
                "side": side,
                "arm": t["arm"],
                "figures": t["figures"],
                "at": _hx(col, row),
                "name": t["name"],
            }
        )
    return out


Template = tuple[dict[str, dict[str, Any]], dict[str, str], str]


def _town(cols: int) -> Template:
    c = cols // 2
    hexes: dict[str, dict[str, Any]] = {_hx(col, 4): {"terrain": "town"} for col in (c - 1, c, c + 1)}
    hexes[_hx(c, 5)] = {"terrain": "town"}
    hexes[_hx(2, 5)] = {"terrain": "forest"}
    hexes[_hx(cols - 1, 5)] = {"terrain": "forest"}
    return hexes, {}, _hx(c, 4)


def _crossing(cols: int) -> Template:
    """A stream across the field between rows 5 and 6, a road bridge in the middle."""
    c = cols // 2
    sides: dict[str, str] = {}
    for col in range(1, cols + 1):
        a = C.parse_label(_hx(col, 5))
        for n in C.neighbours(a):
            ncol, nrow = (x + 1 for x in C.to_offset(n))
            if nrow == 6 and 1 <= ncol <= cols:
                key = f"{_hx(col, 5)}/{_hx(ncol, 6)}"
                sides[key] = "bridge" if (col, ncol) == (c, c) else "stream"
    hexes: dict[str, dict[str, Any]] = {_hx(c - 3, 4): {"terrain": "forest"}, _hx(c - 3, 3): {"terrain": "forest"}}
    hexes[_hx(c + 3, 4)] = {"elevation": 1}
    return hexes, sides, _hx(c, 5)


def _open(cols: int) -> Template:
    c = cols // 2
    hexes: dict[str, dict[str, Any]] = {_hx(col, 5): {"road": True} for col in range(1, cols + 1)}
    for col in (2, cols - 1):
        hexes[_hx(col, 5)]["terrain"] = "forest"
        hexes[_hx(col, 6)] = {"terrain": "forest"}
    return hexes, {}, _hx(c, 5)


def _hills(cols: int) -> Template:
    c = cols // 2
    hexes: dict[str, dict[str, Any]] = {_hx(col, 4): {"elevation": 1} for col in range(c - 2, c + 3)}
    hexes.update({_hx(col, 3): {"elevation": 1} for col in (c - 1, c, c + 1)})
    hexes[_hx(c - 4, 6)] = {"elevation": 1}
    hexes[_hx(c + 4, 6)] = {"terrain": "forest"}
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
            on_field = u["figures"] if u["status"] == "active" else 0
            still[strategic] = still.get(strategic, 0) + on_field
        left[side] = {s: round(still[s] / came[s], 3) for s in came}
    return {
        "winner": result.get("winner"),
        "reason": str(result.get("reason", "")),
        "lost": lost_units(left),
        "strength_left": left,
        "prisoners": dict.fromkeys(SIDES, 0),
        "guns_captured": dict.fromkeys(SIDES, 0),
    }

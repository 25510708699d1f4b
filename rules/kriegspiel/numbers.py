"""The numbers of the Kriegspiel appendix of seed 000 (KS-n), as data. Distances in inches.

The appendix measures in feet; the Little Wars engine measures in inches, so every
figure here is converted once (FOOT = 12). Times are in turns; "half a turn" tasks
are counted in half turns (HALF = 1 unit of 0.5 turn).
"""

from __future__ import annotations

from rules.littlewars.units import ARMS as _LW_ARMS

FOOT = 12.0

# -- movement per turn (KS-15..25, KS-87) -------------------------------------
MOVE = {
    "inf": 1 * FOOT,  # KS-15
    "cav": 3 * FOOT,  # KS-16
    "eng": 2 * FOOT,  # KS-18 Royal Engineers
    "art": 2 * FOOT,  # KS-19 Royal Artillery (a gun with its team)
    "transport": 0.5 * FOOT,  # KS-20 off road ...
    "general": 3 * FOOT,  # KS-21 off road ...
    "boat": 1 * FOOT,  # KS-22 (on water only)
    "train": 8 * FOOT,  # KS-87 (on rails only)
}
ROAD_MOVE = {"transport": 1 * FOOT, "general": 6 * FOOT}  # KS-20, KS-21 on a road
COLUMN_ROAD_FACTOR = 1.5  # KS-17: column of twos or fours on a road, half as much again
COLUMN_ARMS = ("inf", "cav")
CLIMB_COST = 1 * FOOT  # KS-23: one level up costs a foot
DESCENT_COST = FOOT / 2.0  # KS-24: two levels down per foot
STEEP_LEVELS_PER_FOOT = 4  # KS-25: 4 levels in one horizontal foot is impassable off road
STEEP_ARMS = None  # decision: the seed says "impassable", for everyone (RULES.md)
BOX_FACTOR = 3.0  # LW-63: boxes move at triple speed
BOX_REVEAL = 10 * FOOT  # LW-64: the number in a box is known within 10 ft
REBOX_DISTANCE = 20 * FOOT  # LW-65: a unit may be boxed again 20 ft from the enemy

# -- task times in half turns (KS-26..33, KS-28/29, KS-88) ---------------------
HALF = {
    "ford": 2,  # KS-26, KS-30: one turn
    "form": 1,  # KS-27, KS-31: half a turn
    "mount": 2,  # KS-32: one turn (also dismount)
    "limber": 1,  # KS-33: half a turn (also unlimber)
}
BOARD_PER_TWO_TURNS = 20  # KS-28 (and trains, KS-88): 20 figures per 2 turns
LAND_PER_TURN = 20  # KS-29
CANNOT_FORD = ("art", "eng", "transport", "general")  # KS-34, KS-37, KS-39; the general's car by decision

# -- fire (KS-3..8) -------------------------------------------------------------
BLAST_RADIUS = 3.0  # KS-3
RIFLES_PER_SHOT = 5  # KS-8: one gun shot per 5 infantry in line who did not move
LINE_TOLERANCE = 1.0  # "roughly in a line": within 1 in of the line through the ends
LINE_SPACING = 2.0  # and no gap wider than 2 in between neighbours
GUN_OUT_TURNS = 2  # KS-5
GENERAL_NEAR = 3.0  # KS-13: "near" his figure = within the blast radius (decision)
GENERAL_OUT_TURNS = 3  # KS-13

# -- supply (KS-40..53) --------------------------------------------------------
MEN_PER_RATION = 30  # KS-41 food, KS-43 ammunition
HORSES_PER_FORAGE = 6  # KS-42
RATION_TURNS = 6  # KS-41..43
ROUND_UP_FROM = 15  # KS-48: remainder < 15 counts 0, >= 15 counts 30
INF_SUPPLY_RANGE = 6 * FOOT  # KS-44
CAV_SUPPLY_RANGE = 18 * FOOT  # KS-45
ISOLATED_SMALL = 30  # KS-46: fewer than 30 ...
ISOLATION_DISTANCE = 12 * FOOT  # KS-47: ... more than 12 ft from the others need no supply
SURRENDER_AFTER_LAST_HORSE = 4  # KS-53

# -- demolition and works (KS-54..67) --------------------------------------------
WORKS = {
    # kind: (figures needed, turns, arm allowed)
    "mine": (2, 6, None),  # KS-58: two soldiers, six turns, on a road or anywhere
    "entrenchment": (2, 4, "inf"),  # KS-61, KS-63: infantry, 4 turns, 2 figures per inch
    "gunpit": (6, 4, None),  # KS-64: six soldiers, four turns
}
MINE_RADIUS = 6.0  # KS-60
MINE_TRIGGER = 0.5  # decision: a figure passes a mine when its footprint comes within 1/2 in of it
ENTRENCH_PER_FIGURES = 2  # KS-63: two figures make one inch
ENTRENCH_HEIGHT = 2.0  # KS-62
WORK_REACH = 2.0  # decision: workers stand within 2 in of their work
DEMOLITION = {
    # task: (figures, turns, arm)
    "bridge_destroy": (1, 2, "eng"),  # KS-54
    "bridge_restore": (1, 10, "eng"),  # KS-54
    "rail_destroy": (1, 1, "eng"),  # KS-55
    "rail_restore": (1, 5, "eng"),  # KS-55
    "depot_burn": (1, 2, None),  # KS-56: one soldier, any size
    "wagons_destroy": (4, 1, None),  # KS-57: four soldiers, six wagons a turn
}
WAGONS_PER_FOUR = 6

# -- transport (LW-71, LW-72) ------------------------------------------------------
CARRIAGE = {"inf": 12, "cav": 5, "gun": 0.5}  # a wagon holds 12 infantry, 5 cavalry or half a gun
ENGINE_PULLS = 8  # 7-8 wagons: 8 is the most at full speed

# -- cavalry (KS-68..86) -------------------------------------------------------------
CHARGE_MIN = 8  # KS-68
CHARGE_REACH = 3 * FOOT  # decision: a cavalry charge reaches one cavalry move (3 ft)

# footprints of the appendix's extra kinds of figure (inches); Little Wars' own arms keep theirs
EXTRA_RADIUS = {"eng": 0.25, "art": 0.25, "general": 0.5, "transport": 1.0}


def footprint(arm: str) -> float:
    """Footprint radius of any arm: the Little Wars arms from units.py, the appendix's from EXTRA_RADIUS."""
    return _LW_ARMS[arm]["radius"] if arm in _LW_ARMS else EXTRA_RADIUS.get(arm, 0.25)


RIFLE_RANGE = 4 * FOOT  # decision: a rifle volley's shot reaches 4 ft (the seed gives no range)

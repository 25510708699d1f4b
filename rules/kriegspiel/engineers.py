"""Engineers, demolition and transport by rail and boat (KS-36, KS-54..57, KS-28/29, KS-87/88, LW-71..73).

Decisions (RULES.md, "Engineers and transport"):
- Rails: the appendix (KS-55, Royal Engineers: destroy 1 turn, restore 5) governs in this
  variant; LW-73 (4 soldiers destroy in 2 turns, 8 restore in 3) stays for soldiers who
  are not engineers. A railway bridge needs engineers (KS-54: 2 and 10 turns).
- No engineer task starts in a turn the engineers moved (KS-36).
- A depot burns whatever its size: one soldier, 2 turns (KS-56). Four soldiers empty six
  wagons a turn: 6 wagons per whole 4 soldiers (KS-57).
- Loading a train or boats goes at 20 figures per 2 turns, unloading 20 a turn (KS-28/29,
  KS-88). A wagon carries 12 infantry, 5 cavalry or half a gun (LW-71); an engine pulls up
  to 8 wagons at full speed (LW-72: "7-8"). Boats carry like wagons (the seed gives no
  boat load).
"""

from __future__ import annotations

import math

from rules.core.i18n import _

from .numbers import (
    BOARD_PER_TWO_TURNS,
    CARRIAGE,
    DEMOLITION,
    ENGINE_PULLS,
    LAND_PER_TURN,
    WAGONS_PER_FOUR,
)

LW73 = {"rail_destroy": (4, 2), "rail_restore": (8, 3)}


class TaskError(ValueError):
    pass


def task_turns(task: str, workers: list[str], arms: dict[str, str], moved: set[str]) -> int:
    """Turns ``task`` takes with these workers; TaskError naming the rule when they cannot do it."""
    if task not in DEMOLITION:
        raise TaskError(
            _("unknown task {task}: tasks are {DEMOLITION}", task=repr(task), DEMOLITION=", ".join(DEMOLITION))
        )
    need, turns, arm = DEMOLITION[task]
    engineers = [w for w in workers if arms[w] == "eng"]
    if arm == "eng" and len(engineers) < need:
        if task in LW73:
            need73, turns73 = LW73[task]
            if len(workers) >= need73:
                return turns73
            raise TaskError(
                _(
                    "{replace} needs Royal Engineers (KS-55) or {need73} soldiers (LW-73)",
                    replace=task.replace("_", " "),
                    need73=need73,
                )
            )
        raise TaskError(_("{replace} needs Royal Engineers (KS-54)", replace=task.replace("_", " ")))
    if len(workers) < need:
        raise TaskError(
            _(
                "{replace} needs {need} figures; {workers} given",
                replace=task.replace("_", " "),
                need=need,
                workers=len(workers),
            )
        )
    if set(engineers) & moved:
        raise TaskError(_("engineers cannot start a task in a turn in which they moved (KS-36)"))
    return turns


def wagons_emptied(soldiers: int) -> int:
    """KS-57: contents of 6 wagons per 4 soldiers in a turn."""
    return WAGONS_PER_FOUR * (soldiers // 4)


def wagons_for(inf: int = 0, cav: int = 0, guns: int = 0) -> int:
    """LW-71: wagons to carry this force (12 infantry, 5 cavalry or half a gun each)."""
    if min(inf, cav, guns) < 0:
        raise TaskError(_("loads cannot be negative"))
    return math.ceil(inf / CARRIAGE["inf"]) + math.ceil(cav / CARRIAGE["cav"]) + math.ceil(guns / CARRIAGE["gun"])


def engines_for(wagons: int) -> int:
    """LW-72: an engine pulls up to 8 wagons at full speed."""
    return math.ceil(wagons / ENGINE_PULLS)


def boarding_turns(figures: int) -> int:
    """KS-28 / KS-88: 20 figures per 2 turns."""
    return 2 * math.ceil(figures / BOARD_PER_TWO_TURNS)


def landing_turns(figures: int) -> int:
    """KS-29 / KS-88: 20 figures a turn."""
    return math.ceil(figures / LAND_PER_TURN)

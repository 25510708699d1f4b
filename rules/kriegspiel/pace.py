"""The appendix's pace for moves checked by the Little Wars planner (KS-15..25, LW-63).

``move_error`` is what the Kriegspiel planner asks about each figure's planned path
instead of the Little Wars range check (LW-17/18): the appendix's rate for the arm
(cavalry 3 ft, infantry 1 ft), three times that in a box, the road rate where the
whole path is on a road, the cost of climbing and descending levels, steep slopes
and fords (movement.py). ``speed`` is the pace the simultaneous movement uses, so a
cavalryman covers his 3 ft (or a box its triple pace) within the turn.
"""

from __future__ import annotations

from typing import Any

from rules.tabletop.points import Polyline

from . import guns
from .boxes import speed_factor
from .movement import MoveError, arm_name, cost, ground_of, steep_bars
from .numbers import FOOT, MOVE
from .version import ks_version


def boxed_figures(state: dict[str, Any], side: str) -> set[str]:
    groups = state["groups"][side]
    return {fid for g in state["ks"]["boxed"][side] for fid in groups.get(g, [])}


def arm_of(state: dict[str, Any], fid: str) -> str:
    """The appendix's kind of a figure: Royal Engineers are infantry figures named in the scenario (KS-18);
    the general's figure goes by car (KS-21)."""
    f = state["figures"][fid]
    if fid in state["ks"].get("engineers", {}).get(f["side"], ()):
        return "eng"
    if fid in state["ks"].get("dismounted", {}).get(f["side"], ()):
        return "inf"  # on foot, leading the horses: the infantry's pace
    if state["ks"].get("generals", {}).get(f["side"], {}).get("figure") == fid:
        return "general"  # KS-21: by car, 6 ft on the road, 3 ft off it
    arm: str = f["arm"]
    return arm


def speed(state: dict[str, Any], fid: str) -> float:
    """Inches a turn this figure walks in the simultaneous movement (prisoners at the infantry pace)."""
    f = state["figures"][fid]
    arm = arm_of(state, fid) if f["st"] == "ok" else "inf"
    return MOVE.get(arm, MOVE["inf"]) * speed_factor(fid in boxed_figures(state, f["side"]))


def in_column(state: dict[str, Any], fid: str, reforming: dict[str, bool] | None = None) -> bool:
    """Is the figure in column this turn (after a change of formation ordered now, if any)?"""
    if reforming and fid in reforming:
        return reforming[fid]
    return fid in state["ks"].get("columns", {}).get(state["figures"][fid]["side"], ())


def move_error(
    state: dict[str, Any],
    fid: str,
    pts: Polyline,
    reforming: dict[str, bool] | None = None,
    gunners: dict[str, tuple[Any, ...]] | None = None,
) -> str | None:
    """Why this planned path breaks the appendix's movement rules, or None.

    ``reforming``: figures changing formation this turn (True: into column), which costs them
    half the turn (KS-27, KS-31); a column on a road goes half as fast again (KS-17).
    ``gunners``: crews of guns ordered to move ({figure: (gun's destination, its half turns)}):
    a gunner whose move ends with his gun marches at the artillery's pace if that is more (KS-19).
    """
    err = _pace_error(
        state,
        fid,
        pts,
        arm_of(state, fid),
        1 if reforming and fid in reforming else 0,
        in_column(state, fid, reforming),
    )
    gunner = (gunners or {}).get(fid)
    if (
        err
        and gunner
        and guns.marches_with(state, fid, pts[-1], gunner)
        and _pace_error(state, fid, pts, "art", gunner[1], False) is None
    ):
        return None
    return err


def _pace_error(state: dict[str, Any], fid: str, pts: Polyline, arm: str, half: int, column: bool) -> str | None:
    f = state["figures"][fid]
    name = fid.split(":")[-1]
    boxed = fid in boxed_figures(state, f["side"])
    try:
        c, limit = cost(
            ground_of(state["scenario"]),
            arm,
            [tuple(p) for p in pts],
            column=column,
            half_turns=half,
            steep_bars=steep_bars(state["scenario"], arm),
            on_ground=ks_version(state) >= 4,
        )
    except MoveError as exc:
        return f"{name}: {exc}"
    limit *= speed_factor(boxed)
    if c > limit + 1e-9:
        return (
            f"out of range: {name}'s move costs {c / FOOT:.2f} ft (a level up costs 1 ft, a level down 1/2 ft, "
            f"KS-23/24); {arm_name(arm)} may cover {limit / FOOT:.2f} ft"
            + (" in a box (three times the pace, LW-63)" if boxed else " (KS-15..22)")
            + (" after changing formation (half a turn, KS-27/31)" if half and arm != "art" else "")
            + (" after limbering or unlimbering its gun (half a turn, KS-33)" if half and arm == "art" else "")
        )
    return None

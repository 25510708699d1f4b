"""Boxes (LW-63..65, used by the appendix): a group moved in a closed box.

- Any group but mounted scouts may be boxed (LW-63); scouts are named per scenario
  (``kriegspiel.scouts``) since the seed does not define them further.
- A boxed group moves at triple speed (LW-63), cannot fire, work or charge (decision:
  men in a box are marching, not fighting).
- It may be boxed (again) only when every one of its figures is at least 20 ft from
  every enemy figure its side sees or has seen (LW-65; decision: this also governs the
  first boxing; judged on what the side knows, so the answer never betrays an unseen enemy).
- The enemy sees a box where it is seen (any member seen, sighting.py) as a token at
  the group's centre; the number inside is shown only while an enemy figure is within
  10 ft of one of its members (LW-64). The token never carries the group's name.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any

import numpy as np
import shapely
from shapely.strtree import STRtree

from rules.tabletop.points import point_array

from .numbers import BOX_FACTOR, BOX_REVEAL, REBOX_DISTANCE


def _free(figs: dict[str, Any], side: str | None = None, enemy_of: str | None = None) -> np.ndarray:
    pts = [
        (f["x"], f["y"])
        for f in figs.values()
        if f["st"] == "ok" and (side is None or f["side"] == side) and (enemy_of is None or f["side"] != enemy_of)
    ]
    return np.array(pts, dtype=float).reshape(-1, 2)


def known_enemy(state: dict[str, Any], side: str) -> np.ndarray:
    """Where ``side`` knows enemy figures to be: those it sees now and those it saw before.

    Under the fog, rules a side's orders are checked against use what it knows: an answer
    based on the true position of an enemy it cannot see would tell it where he is.
    """
    seen = state["ks"]["seen"][side]
    pts = [(v[0], v[1]) for v in seen["now"]["figures"].values()] + [(v[0], v[1]) for v in seen["last"].values()]
    pts += [(b["x"], b["y"]) for b in seen["boxes"]]
    return np.array(pts, dtype=float).reshape(-1, 2)


def nearest_enemy(state: dict[str, Any], side: str, ids: list[str], enemy: np.ndarray | None = None) -> float:
    """Distance from the nearest of ``ids`` to the nearest enemy figure (all free ones unless ``enemy``)."""
    enemy = _free(state["figures"], enemy_of=side) if enemy is None else enemy
    if not len(enemy) or not ids:
        return math.inf
    figs = state["figures"]
    own = np.array([(figs[i]["x"], figs[i]["y"]) for i in ids], dtype=float)
    tree = STRtree(point_array(enemy))
    idx = tree.nearest(shapely.points(own))
    return float(np.min(np.hypot(*(enemy[idx] - own).T)))


def box_error(state: dict[str, Any], side: str, group: str, ids: list[str], scouts: Collection[str] = ()) -> str | None:
    """Why ``group`` may not be boxed now, or None."""
    if group in scouts:
        return f"{group} are mounted scouts: scouts are never boxed (LW-63)"
    d = nearest_enemy(state, side, ids, known_enemy(state, side))
    if d < REBOX_DISTANCE:
        return (
            f"{group} is {d / 12:.1f} ft from the enemy as your men have seen him; a unit is boxed only "
            f"{REBOX_DISTANCE / 12:g} ft or more from him (LW-65)"
        )
    return None


def speed_factor(boxed: bool) -> float:
    return BOX_FACTOR if boxed else 1.0


def tokens(
    state: dict[str, Any], boxed: dict[str, list[str]], viewer_side: str, seen: set[str], known: dict[str, str]
) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Box tokens of the enemy as ``viewer_side`` sees them, and the updated token names.

    ``boxed`` = {group: ids} of the enemy's boxes; ``known`` = {group: token} the viewer
    has met before. A box gets the next number of the viewer's OWN count when first
    seen, so a token is stable from turn to turn yet says nothing of boxes never seen.
    """
    figs = state["figures"]
    own = _free(figs, side=viewer_side)
    tree = STRtree(point_array(own)) if len(own) else None
    known = dict(known)
    out = []
    for name in sorted(boxed):
        ids = [i for i in boxed[name] if figs[i]["st"] == "ok"]
        if not ids or not seen.intersection(ids):
            continue
        if name not in known:
            known[name] = f"box{len(known) + 1}"
        pts = np.array([(figs[i]["x"], figs[i]["y"]) for i in ids], dtype=float)
        close = tree is not None and bool(
            len(tree.query(shapely.points(pts), predicate="dwithin", distance=BOX_REVEAL)[0])
        )
        cx, cy = (round(float(v), 2) for v in pts.mean(axis=0))
        out.append(
            {"id": known[name], "side": figs[ids[0]]["side"], "x": cx, "y": cy, "count": len(ids) if close else None}
        )
    return sorted(out, key=lambda t: int(t["id"][3:])), known

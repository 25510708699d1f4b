"""Fog of war: who sees whom (RULES.md, "Sighting"). The appendix has no sighting rule; this is ours.

A figure (or gun) is SEEN by a side when one of that side's free figures
- is within SIGHT_RANGE (12 ft, the longest a gun reaches: one sees what one can shoot), and
- has a clear line to it: the straight line between the two centres
  * does not cross a building,
  * runs through woods for no more than WOOD_DEPTH (2 in) in all (one sees out of and
    into the edge of a wood, not through it),
  * does not cross a hill whose level is higher than both ends' levels (a point's level is
    the highest hill it stands on, 0 on the flat: a crest hides dead ground behind it
    from anyone not above the crest).
Walls and finished works are low: they shield from blast (KS-7) but not from sight.

KS-12 read strictly (the scenario's ``general_eye``; off by default): the general stands no
more than 6 ft behind his figure and commands by voice, so his side sees the enemy only from
his standpoint: points every foot from his figure to 6 ft behind it towards his own edge,
by the rule above, and every unit knows an enemy in touch (within CONTACT_SIGHT, 6 in). While
he is away (KS-13), or command passes (KS-14), nobody stands at the table for him: only touch.
When he is gone for good his deputy (KS-14) takes over from behind the deputy's own figure.

To stay fast with hundreds of figures the test looks at no more than OBSERVERS
(8) of the nearest enemy figures in range of each target: if none of those sees it,
it is unseen. Observers and blockers sit in STRtrees; the lines are tested in bulk.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.strtree import STRtree

from rules.littlewars.scenario import home_vector
from rules.tabletop.cache import built_per_scenario
from rules.tabletop.points import point_array
from rules.tabletop.terrain import terrain_geometry, terrain_of

from .numbers import FOOT
from .version import ks_version

SIGHT_RANGE = 12 * FOOT
GENERAL_BEHIND = 6 * FOOT  # KS-12
CONTACT_SIGHT = 6.0  # with the general's eye: an enemy within 6 in is in touch
WOOD_DEPTH = 2.0
OBSERVERS = 8


class Sightlines:
    """The blocking terrain of one scenario (cached by its terrain): buildings, woods, hills."""

    def __init__(self, terrain: list[dict[str, Any]]) -> None:
        self.items = []  # (kind, level, geometry)
        for it in terrain:
            kind = it["type"]
            if kind in ("building", "wood", "hill") and "polygon" in it:
                self.items.append((kind, int(it.get("level", 0)), terrain_geometry(it)))
        geoms = [g for _, _, g in self.items]
        self.tree = STRtree(geoms) if geoms else None
        self.hills = [(lv, g) for kind, lv, g in self.items if kind == "hill"]
        self.hill_tree = STRtree([g for _, g in self.hills]) if self.hills else None

    def levels(self, pts: np.ndarray) -> np.ndarray:
        """Height level of each point: the highest hill containing it (0 off the hills)."""
        out = np.zeros(len(pts), dtype=int)
        if self.hill_tree is None or not len(pts):
            return out
        src, hit = self.hill_tree.query(shapely.points(pts), predicate="intersects")
        for s, h in zip(src.tolist(), hit.tolist(), strict=True):
            out[s] = max(out[s], self.hills[h][0])
        return out

    def clear(self, a: np.ndarray, b: np.ndarray, la: np.ndarray, lb: np.ndarray) -> np.ndarray:
        """For each pair of points a[k]-b[k] with levels la[k], lb[k]: is the line of sight clear?"""
        ok = np.ones(len(a), dtype=bool)
        if self.tree is None or not len(a):
            return ok
        lines = np.asarray(shapely.linestrings(np.stack([a, b], axis=1)))  # an array of LineStrings
        src, hit = self.tree.query(lines, predicate="intersects")
        wood = np.zeros(len(a))
        for s, h in zip(src.tolist(), hit.tolist(), strict=True):
            if not ok[s]:
                continue
            kind, level, geom = self.items[h]
            if kind == "building":
                ok[s] = not lines[s].crosses(geom) and not lines[s].within(geom)
            elif kind == "hill":
                ok[s] = level <= max(la[s], lb[s])
            else:
                wood[s] += lines[s].intersection(geom).length
        return ok & (wood <= WOOD_DEPTH + 1e-9)


sightlines_of = built_per_scenario(Sightlines, terrain_of)  # the Sightlines of a scenario's terrain


def seen_by(lines: Sightlines, observers: np.ndarray, targets: np.ndarray, sight: float = SIGHT_RANGE) -> np.ndarray:
    """Boolean mask over ``targets`` (n x 2): seen by any of ``observers`` (m x 2)?"""
    seen = np.zeros(len(targets), dtype=bool)
    if not len(observers) or not len(targets):
        return seen
    src, obs = nearest_observers(observers, targets, sight)
    if not len(src):
        return seen
    lv_t = lines.levels(targets)
    lv_o = lines.levels(observers)
    ok = lines.clear(observers[obs], targets[src], lv_o[obs], lv_t[src])
    seen[np.unique(src[ok])] = True
    return seen


def nearest_observers(
    observers: NDArray[np.float64], targets: NDArray[np.float64], sight: float
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """(target index, observer index) pairs: each target's OBSERVERS nearest observers within ``sight``.

    Asked first within a sixth of the range: a target with OBSERVERS observers that close has
    its nearest ones among them; only the others are asked again at full range (in a dense
    battle that is few, and all pairs within 12 ft would be hundreds of thousands).
    """
    tree = STRtree(point_array(observers))
    out_src, out_obs = [], []
    pending = np.arange(len(targets))
    for reach in (sight / 6.0, sight):
        if not len(pending):
            break
        src, obs = tree.query(shapely.points(targets[pending]), predicate="dwithin", distance=reach)
        src = pending[src]
        counts = np.bincount(src, minlength=len(targets))
        done = counts[pending] >= OBSERVERS if reach < sight else np.ones(len(pending), dtype=bool)
        finished = set(pending[done].tolist())
        take = np.fromiter((t in finished for t in src.tolist()), dtype=bool, count=len(src))
        s, o = _nearest(observers, targets, src[take], obs[take])
        out_src.append(s)
        out_obs.append(o)
        pending = pending[~done]
    return np.concatenate(out_src), np.concatenate(out_obs)


def _nearest(
    observers: NDArray[np.float64], targets: NDArray[np.float64], src: NDArray[np.intp], obs: NDArray[np.intp]
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Of the candidate pairs, each target's OBSERVERS nearest (ties by observer index)."""
    if not len(src):
        return src, obs
    d = np.hypot(*(observers[obs] - targets[src]).T)
    order = np.lexsort((obs, d, src))
    src, obs = src[order], obs[order]
    rank = np.arange(len(src)) - np.searchsorted(src, src, side="left")
    keep = rank < OBSERVERS
    return src[keep], obs[keep]


def _objects(state: dict[str, Any], side: str) -> list[tuple[str, float, float]]:
    """The enemy's depots, trains and boats as (kind, x, y): seen like anything else, never by name."""
    ks = state.get("ks", {})
    out = [
        ("depot", d["x"], d["y"])
        for s, sup in ks.get("supply", {}).items()
        if s != side
        for d in sup["depots"].values()
    ]
    out += [(v["kind"], v["x"], v["y"]) for v in ks.get("vehicles", {}).values() if v["side"] != side]
    return sorted(out)


def sightings(state: dict[str, Any], side: str) -> dict[str, Any]:
    """What ``side`` sees now of the enemy: {"figures": {id: [x, y, arm]}, "guns": {id: [x, y]},
    "objects": [[kind, x, y]]} (depots, trains, boats)."""
    figs = state["figures"]
    # version 4: the observers in the order of their ids, so the nearest OBSERVERS at equal distances are
    # the same however the state's figures are ordered (a state read back from its JSON snapshot has
    # them sorted, one folded from the log in the order they were laid); before, in the state's order
    order = sorted(figs) if ks_version(state) >= 4 else list(figs)
    own = [figs[i] for i in order if figs[i]["side"] == side and figs[i]["st"] == "ok"]
    observers = np.array([(f["x"], f["y"]) for f in own], dtype=float).reshape(-1, 2)
    eye = state.get("ks", {}).get("general_eye")
    enemy_ids = sorted(fid for fid, f in figs.items() if f["side"] != side and f["st"] == "ok")
    gun_ids = sorted(gid for gid, g in state["guns"].items() if g["owner"] != side and not g.get("destroyed"))
    objects = _objects(state, side)
    pts = (
        [(figs[i]["x"], figs[i]["y"]) for i in enemy_ids]
        + [(state["guns"][g]["x"], state["guns"][g]["y"]) for g in gun_ids]
        + [(x, y) for _, x, y in objects]
    )
    targets = np.array(pts, dtype=float).reshape(-1, 2)
    lines = sightlines_of(state["scenario"])
    if eye:
        mask = seen_by(lines, standpoints(state, side), targets) | seen_by(lines, observers, targets, CONTACT_SIGHT)
    else:
        mask = seen_by(lines, observers, targets)
    n, m = len(enemy_ids), len(enemy_ids) + len(gun_ids)
    return {
        "figures": {
            fid: [figs[fid]["x"], figs[fid]["y"], figs[fid]["arm"]] for k, fid in enumerate(enemy_ids) if mask[k]
        },
        "guns": {
            gid: [state["guns"][gid]["x"], state["guns"][gid]["y"]] for k, gid in enumerate(gun_ids) if mask[n + k]
        },
        "objects": [list(o) for k, o in enumerate(objects) if mask[m + k]],
    }


def commander(state: dict[str, Any], side: str) -> str | None:
    """The figure the side's commander stands behind (KS-12): the general's, or after KS-14 his
    deputy's (the general_lost event makes the deputy's figure the side's general); None while he
    is away (KS-13), while command passes (KS-14), or with no general left."""
    figs = state["figures"]
    gen = state["ks"]["generals"][side]
    fid: str | None = gen.get("figure")
    if not fid or fid not in figs or figs[fid]["st"] != "ok" or gen["out_until"] > state["turn"]:
        return None
    return fid


def standpoints(state: dict[str, Any], side: str) -> np.ndarray:
    """Where the commander may stand: every foot from his figure to 6 ft behind it, towards his edge."""
    fid = commander(state, side)
    if fid is None:
        return np.zeros((0, 2))
    f = state["figures"][fid]
    vx, vy = home_vector(state["scenario"], side)
    steps = np.arange(0.0, GENERAL_BEHIND + 1e-9, FOOT)
    return np.stack([f["x"] + vx * steps, f["y"] + vy * steps], axis=1)

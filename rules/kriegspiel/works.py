"""Hidden works: mines, entrenchments and gun pits (KS-58..67, T-KS-4).

A work is a record in ``state["ks"]["works"]``::

    {"id", "kind", "side", "at": [x, y], "to": [x, y] | None (entrenchment end),
     "workers": [figure ids], "need": turns, "done": turns worked, "started": turn,
     "status": "building" | "armed" | "complete" | "exploded" | "abandoned"}

Decisions (RULES.md, "Hidden works"):
- The turn a work is ordered is its first turn of work; it is finished at the end of
  its last turn (an entrenchment ordered in turn 1 is complete at the end of turn 4).
- A work goes on only while every worker stays alive, free (not a prisoner), on the
  spot (no movement order, no fire) and at least the needed number remain. Anything
  else abandons it: the work is lost, only the owner (and the umpire) are told.
- A mine is set off by the first figure of EITHER side whose footprint, along the
  path it actually walked this turn, comes within MINE_TRIGGER of the mine: the text
  says "the first unit passing", and a mine does not know friend from foe. Its own
  layers standing still beside it do not set it off.
- The explosion destroys every figure, gun and wagon whose footprint lies within 6 in
  of the mine at the moment it goes off (KS-60); that public event is the reveal.
"""

from __future__ import annotations

import math
from itertools import pairwise
from typing import Any

from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from rules.core.i18n import _, message_of
from rules.tabletop.points import Coord, Polyline
from rules.tabletop.terrain import terrain_geometry

from .blast import WAGON_RADIUS
from .engineers import TaskError, task_turns
from .numbers import ENTRENCH_PER_FIGURES, MINE_RADIUS, MINE_TRIGGER, WORK_REACH, WORKS
from .numbers import footprint as radius
from .vehicles import ON_LINE, railways

KINDS = tuple(WORKS)
TASKS = (
    "bridge_destroy",
    "bridge_restore",
    "rail_destroy",
    "rail_restore",
    "depot_burn",
    "wagons_destroy",
)  # KS-54, KS-55 / LW-73, KS-56, KS-57
DEPOT_TASKS = ("depot_burn", "wagons_destroy")
LIVE = ("building", "armed")


def next_id(state: dict[str, Any], side: str, started: dict[str, list[Any]]) -> str:
    """The id of a work ``side`` starts now, ``started`` holding those started earlier this turn.

    Each side numbers its own works (``red:w1``, ``red:w2``...), so an id says nothing of the
    other side's. Games laid before that (no ``ids`` in the state) keep their one shared count."""
    if state.get("ids") != "side":
        return f"w{state['ks']['counter'] + sum(len(v) for v in started.values()) + 1}"
    own = sum(1 for w in state["ks"]["works"].values() if w["side"] == side)
    return f"{side}:w{own + len(started[side]) + 1}"


def public_ref(state: dict[str, Any], w: dict[str, Any]) -> dict[str, Any]:
    """How a public event names work ``w``: never by its id (the owner's count would tell the
    others how many works they never saw) but by ``public``, the side's count of works gone
    public; the fold finds the work by what the event says of it (state.locate_work)."""
    if state.get("ids") != "side" or ":" not in w["id"]:
        return {"id": w["id"]}
    if "public" in w:
        return {"public": w["public"]}
    return {
        "public": 1
        + max((v.get("public", 0) for v in state["ks"]["works"].values() if v["side"] == w["side"]), default=0)
    }


def label(w: dict[str, Any], viewer_side: str | None, umpire: bool = False) -> str:
    """The name a viewer knows the work by: its id for its side and the umpire, else the public one."""
    if umpire or w["side"] == viewer_side or "public" not in w:
        wid: str = w["id"]
        return wid
    return f"{w['side']}:p{w['public']}"


def number(wid: str) -> tuple[Any, ...]:
    """Sort key of a work name: side, then its number (``w4``, ``red:w2``, ``blue:p1``)."""
    head, _, tail = wid.rpartition(":")
    return head, tail.rstrip("0123456789"), int(tail.lstrip("wp") or 0)


class WorkError(ValueError):
    """A work order that cannot be carried out; the message says why."""


def work_geometry(work: dict[str, Any]) -> LineString | Point:
    """The work as shapely geometry: a point (mine, gun pit) or a segment (entrenchment)."""
    if work.get("to"):
        return LineString([work["at"], work["to"]])
    return Point(work["at"])


def entrenchment_length(workers: int) -> float:
    """KS-63: two figures make one inch (floor: an odd figure adds nothing, KS-DT-12)."""
    return float(workers // ENTRENCH_PER_FIGURES)


def check_start(
    state: dict[str, Any], side: str, kind: str, ids: list[str], at: Coord, to: Coord | None = None
) -> None:
    """Raise WorkError unless ``ids`` (figures of ``side``) may start a ``kind`` work at ``at`` (..``to``)."""
    if kind not in WORKS:
        raise WorkError(_("unknown work {kind}: works are {KINDS}", kind=repr(kind), KINDS=", ".join(KINDS)))
    need, _turns, arm = WORKS[kind]
    figs = state["figures"]
    _check_free(figs, side, ids)
    for fid in ids:
        if arm and figs[fid]["arm"] != arm:
            raise WorkError(
                _("only infantry build entrenchments (KS-61); {value} is not infantry", value=fid.split(":")[-1])
            )
    if len(ids) < need:
        raise WorkError(
            _(
                "a {kind} needs {need} figures ({rule}); {ids} given",
                kind=kind,
                need=need,
                rule=_rule(kind),
                ids=len(ids),
            )
        )
    busy = sorted(
        {
            fid
            for w in state.get("ks", {}).get("works", {}).values()
            if w["status"] == "building"
            for fid in w["workers"]
        }
        & set(ids)
    )
    if busy:
        raise WorkError(_("{items} already at work on another job", items=", ".join(i.split(":")[-1] for i in busy)))
    geom = work_geometry({"at": at, "to": to})
    if kind == "entrenchment":
        if to is None:
            raise WorkError(_("an entrenchment runs between two points: entrench <group> from x,y to x,y"))
        length = geom.length
        most = entrenchment_length(len(ids))
        if length > most + 1e-9:
            raise WorkError(
                _(
                    "{ids} figures make at most {most:g} in of entrenchment (KS-63); this one is {length:.1f} in",
                    ids=len(ids),
                    most=most,
                    length=length,
                )
            )
    _check_reach(figs, ids, geom, "the work")


def _check_free(figs: dict[str, Any], side: str, ids: list[str]) -> None:
    for fid in ids:
        f = figs.get(fid)
        if f is None or f["side"] != side or f["st"] != "ok" or f["dis"]:
            raise WorkError(_("{value} cannot work: not one of your free, armed figures", value=fid.split(":")[-1]))


def _check_reach(figs: dict[str, Any], ids: list[str], geom: BaseGeometry, what: str) -> None:
    """Every worker stands within WORK_REACH of what he works on."""
    for fid in ids:
        f = figs[fid]
        d = geom.distance(Point(f["x"], f["y"])) - radius(f["arm"])
        if d > WORK_REACH + 1e-9:
            raise WorkError(
                _(
                    "{value} is {d:.1f} in from {what}; workers stand within {WORK_REACH:g} in of it",
                    value=fid.split(":")[-1],
                    d=d,
                    what=what,
                    WORK_REACH=WORK_REACH,
                )
            )


def _rule(kind: str) -> str:
    return {"mine": "KS-58", "entrenchment": "KS-61", "gunpit": "KS-64"}[kind]


def new_work(
    wid: str,
    kind: str,
    side: str,
    ids: list[str],
    at: Coord,
    to: Coord,
    turn: int,
    need: int | None = None,
    target: str | None = None,
    spots: dict[str, Any] | None = None,
) -> dict[str, Any]:
    w = {
        "id": wid,
        "kind": kind,
        "side": side,
        "at": [float(at[0]), float(at[1])],
        "to": [float(to[0]), float(to[1])] if to is not None else None,
        "workers": sorted(ids),
        "need": need if need is not None else WORKS[kind][1],
        "done": 0,
        "started": turn,
        "status": "building",
    }
    if target is not None:
        w["target"] = target
    if spots is not None:
        w["spots"] = {k: list(v) for k, v in sorted(spots.items())}
    return w


def task_target(state: dict[str, Any], side: str, task: str, target: str) -> BaseGeometry:
    """The geometry a task works on: a bridge (standing or blown) or an enemy depot; WorkError if none."""
    if task in RAIL_TASKS:
        rail, xy = rail_target(target)
        return Point(*xy)
    if task in DEPOT_TASKS:
        for s_, sup in state["ks"]["supply"].items():
            if s_ != side and target in sup["depots"]:
                d = sup["depots"][target]
                return Point(d["x"], d["y"])
        raise WorkError(_("no enemy depot {target} known here", target=repr(target)))
    items = {t["id"]: t for t in state["scenario"].get("terrain", []) if t["type"] == "bridge"}
    if task == "bridge_restore":
        items = dict(state["ks"].get("blown", {}))
    if target not in items:
        what = "blown bridge" if task == "bridge_restore" else "bridge"
        raise WorkError(
            _(
                "no {what} {target} (known: {value})",
                what=what,
                target=repr(target),
                value=", ".join(sorted(items)) or "none",
            )
        )
    return terrain_geometry(items[target])


RAIL_TASKS = ("rail_destroy", "rail_restore")
BREAK_NEAR = 1.0  # decision: one break per inch of line; a repair names a point within 1 in of the break


def rail_target(target: str) -> tuple[str, tuple[float, float]]:
    """A rail task's target "rail1@40,60": the railway's id and the point on it."""
    rail, xy = target.rsplit("@", 1)
    x, y = (float(v) for v in xy.split(","))
    return rail, (x, y)


def rail_spot(state: dict[str, Any], task: str, rail: str, at: Coord) -> str:
    """The target of breaking or repairing ``rail`` at ``at`` (the point on the line, or the break
    repaired); WorkError if there is no such railway, the point is off it, or nothing to do there."""

    lines = railways(state["scenario"])
    if rail not in lines:
        raise WorkError(
            _("no railway {rail} (railways: {value})", rail=repr(rail), value=", ".join(sorted(lines)) or "none")
        )
    line = lines[rail]
    if line.distance(Point(at)) > ON_LINE + 1e-9:
        raise WorkError(
            _(
                "{value:g},{value2:g} is not on railway {rail} (within {ON_LINE:g} in of the line)",
                value=at[0],
                value2=at[1],
                rail=rail,
                ON_LINE=ON_LINE,
            )
        )
    on = line.interpolate(line.project(Point(at)))
    breaks = [tuple(b) for b in state["ks"].get("breaks", {}).get(rail, [])]
    near = [b for b in breaks if math.dist(b, (on.x, on.y)) <= BREAK_NEAR + 1e-9]
    if task == "rail_restore":
        if not near:
            raise WorkError(
                _(
                    "the rails of {rail} are not broken within {BREAK_NEAR:g} in of {value:g},{value2:g}",
                    rail=rail,
                    BREAK_NEAR=BREAK_NEAR,
                    value=at[0],
                    value2=at[1],
                )
            )
        x, y = min(near, key=lambda b: math.dist(b, (on.x, on.y)))
    else:
        if near:
            raise WorkError(
                _(
                    "the rails of {rail} are already broken at {value:g},{value2:g}",
                    rail=rail,
                    value=near[0][0],
                    value2=near[0][1],
                )
            )
        x, y = round(on.x, 3), round(on.y, 3)
    return f"{rail}@{x:g},{y:g}"


def depot_at(state: dict[str, Any], side: str, ids: list[str], at: Coord) -> str:
    """The enemy depot within reach of the point, which the workers stand beside; WorkError if none.

    Asked by place, never by name: a name the enemy never showed would otherwise be guessed
    and confirmed by the answer. The answer only says what men standing there would see.
    """
    figs = state["figures"]
    near = [math.dist((figs[i]["x"], figs[i]["y"]), at) - radius(figs[i]["arm"]) for i in ids]
    if max(near) > WORK_REACH + 1e-9:
        raise WorkError(
            _(
                "the men stand more than {WORK_REACH:g} in from {value:g},{value2:g}: they burn only what they stand beside",
                WORK_REACH=WORK_REACH,
                value=at[0],
                value2=at[1],
            )
        )
    found = sorted(
        (math.dist((d["x"], d["y"]), at), name)
        for s_, sup in state["ks"]["supply"].items()
        if s_ != side
        for name, d in sup["depots"].items()
        if math.dist((d["x"], d["y"]), at) <= WORK_REACH
    )
    if not found:
        raise WorkError(
            _(
                "there is no enemy depot within {WORK_REACH:g} in of {value:g},{value2:g}",
                WORK_REACH=WORK_REACH,
                value=at[0],
                value2=at[1],
            )
        )
    name: str = found[0][1]
    return name


def check_task(state: dict[str, Any], side: str, task: str, ids: list[str], target: str, arms: dict[str, str]) -> int:
    """Turns the task takes; WorkError naming the rule if these figures cannot do it there."""

    _check_free(state["figures"], side, ids)
    try:
        turns = task_turns(task, ids, arms, set())
    except TaskError as exc:
        raise WorkError(message_of(exc)) from None
    _check_reach(state["figures"], ids, task_target(state, side, task, target), target)
    return turns


def progress(state: dict[str, Any], busy_elsewhere: set[str]) -> list[dict[str, Any]]:
    """One turn of work for every work being built: [{"id", "status", "done", "reason"?}].

    ``busy_elsewhere`` are figures that moved or fired this turn. Status "building"
    (another turn done), "armed" (a mine finished), "complete" (revealed) or "abandoned".
    """
    figs = state["figures"]
    out = []
    for wid in sorted(state["ks"]["works"]):
        w = state["ks"]["works"][wid]
        if w["status"] != "building":
            continue
        reason = _interruption(figs, w, busy_elsewhere)
        if reason:
            out.append({"id": wid, "status": "abandoned", "done": w["done"], "reason": reason})
            continue
        done = w["done"] + 1
        status = "building" if done < w["need"] else ("armed" if w["kind"] == "mine" else "complete")
        if w["kind"] in DEPOT_TASKS and not _depot_stands(state, w):
            status, reason = "abandoned", "the depot is gone"
            out.append({"id": wid, "status": status, "done": w["done"], "reason": reason})
            continue
        out.append({"id": wid, "status": status, "done": done})
    return out


def _depot_stands(state: dict[str, Any], w: dict[str, Any]) -> bool:
    return any(w["target"] in sup["depots"] for s, sup in state["ks"]["supply"].items() if s != w["side"])


def _interruption(figs: dict[str, Any], w: dict[str, Any], busy: set[str]) -> str | None:
    gone = [i for i in w["workers"] if figs[i]["st"] != "ok" or figs[i]["dis"]]
    if gone:
        return f"{_names(gone)} killed or taken"
    left = [i for i in w["workers"] if i in busy]
    if left:
        return f"{_names(left)} left the work"
    return None


def _names(ids: list[str]) -> str:
    return ", ".join(i.split(":")[-1] for i in sorted(ids))


# -- mines --------------------------------------------------------------------
def walked(path: Polyline, end: Coord) -> list[tuple[float, float]]:
    """The part of a planned polyline a figure really walked: it stopped at ``end`` (LW-33)."""
    pts = [(float(p[0]), float(p[1])) for p in path]
    if len(pts) < 2:
        return pts
    line = LineString(pts)
    s = line.project(Point(end))
    out, run = [pts[0]], 0.0
    for a, b in pairwise(pts):
        seg = math.dist(a, b)
        if run + seg >= s - 1e-9:
            out.append((float(end[0]), float(end[1])))
            return out
        out.append(b)
        run += seg
    return out


def passage(path: Polyline, arm: str, mine_at: Coord) -> float | None:
    """How far along ``path`` the figure first comes within MINE_TRIGGER of the mine, or None.

    Measured footprint to point: the figure's centre comes within radius + MINE_TRIGGER.
    A figure that does not move never passes (its path has one point).
    """
    if len(path) < 2:
        return None
    reach = radius(arm) + MINE_TRIGGER
    xs, ys = [p[0] for p in path], [p[1] for p in path]
    if not (min(xs) - reach <= mine_at[0] <= max(xs) + reach and min(ys) - reach <= mine_at[1] <= max(ys) + reach):
        return None  # nowhere near: skip the geometry
    mine = Point(mine_at)
    run = 0.0
    for a, b in pairwise(path):
        seg = LineString([a, b])
        if seg.distance(mine) <= reach + 1e-9:
            return run + _entry(a, b, mine_at, reach)
        run += math.dist(a, b)
    return None


def _entry(a: Coord, b: Coord, c: Coord, r: float) -> float:
    """Distance from a along a->b to the first point within r of c (known to exist)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    fx, fy = a[0] - c[0], a[1] - c[1]
    aa = dx * dx + dy * dy
    if aa == 0:
        return 0.0
    bb = 2 * (fx * dx + fy * dy)
    cc = fx * fx + fy * fy - r * r
    if cc <= 0:
        return 0.0
    disc = max(bb * bb - 4 * aa * cc, 0.0)
    t = (-bb - math.sqrt(disc)) / (2 * aa)
    entry: float = max(0.0, min(1.0, t)) * math.sqrt(aa)
    return entry


def triggers(mines: list[dict[str, Any]], walks: dict[str, tuple[list[Any], str, float]]) -> list[dict[str, Any]]:
    """Which armed mines go off this turn, with who set them off and when.

    ``walks``: figure id -> (walked path, arm, speed in inches per turn). The time of
    passage is distance / speed (figures move at once, LW-33), so "first" is well
    defined; ties go to the lower figure id. Returns [{"mine", "by", "t"}] in time order.
    """
    out = []
    for m in mines:
        best = None
        for fid in sorted(walks):
            path, arm, speed = walks[fid]
            d = passage(path, arm, m["at"])
            if d is None:
                continue
            t = d / speed if speed > 0 else 0.0
            if best is None or t < best[0] - 1e-12:
                best = (t, fid)
        if best is not None:
            out.append({"mine": m["id"], "by": best[1], "t": round(best[0], 6)})
    return sorted(out, key=lambda e: (e["t"], e["mine"]))


def position_at(path: Polyline, speed: float, t: float) -> tuple[float, float]:
    """Where a figure walking ``path`` at ``speed`` is at time t (0..1)."""
    s = t * speed
    for a, b in pairwise(path):
        seg = math.dist(a, b)
        if s <= seg:
            u = 0.0 if seg == 0 else s / seg
            return (a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u)
        s -= seg
    return (path[-1][0], path[-1][1])


def blast_victims(mine_at: Coord, positions: dict[str, tuple[Any, ...]], arms: dict[str, str]) -> list[str]:
    """KS-60: every figure whose footprint lies within 6 in of the mine."""
    return sorted(
        fid for fid, p in positions.items() if math.dist(p, mine_at) - radius(arms[fid]) <= MINE_RADIUS + 1e-9
    )


def wagons_within(mine_at: Coord, wagons: dict[str, Any]) -> list[str]:
    """Wagons (depots, trains, boats; keyed as the turn keys them) within 6 in of the mine: destroyed too."""

    return sorted(
        k for k, w in wagons.items() if math.dist((w["x"], w["y"]), mine_at) - WAGON_RADIUS <= MINE_RADIUS + 1e-9
    )


def guns_within(mine_at: Coord, guns: dict[str, Any]) -> list[str]:
    """Guns (not yet destroyed) standing within 6 in of the mine: destroyed with everything else."""
    return sorted(
        gid
        for gid, g in guns.items()
        if not g.get("destroyed") and math.dist((g["x"], g["y"]), mine_at) <= MINE_RADIUS + 1e-9
    )

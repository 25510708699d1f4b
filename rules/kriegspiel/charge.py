"""Cavalry charges in play: the tables of cavalry.py applied to the position (KS-68..81, KS-85).

Order: ``charge horse at x,y``. Decisions (RULES.md, "Cavalry"):
- The target is the enemy group of the fighting enemy figure nearest the point (within
  TARGET_REACH, 6 in), or, if there is none, an enemy gun within 3 in of it with no enemy
  figure within 6 in (unsupported artillery, KS-85).
- The charging group is all mounted cavalry, at least 8 (KS-68), in formation (KS-69: no
  figure more than FORMED_GAP (3 in) from its nearest comrade), not boxed, with no other
  order; the distance d is from its nearest figure to the nearest target at the start of
  the turn and must be within one cavalry move (3 ft). Charges are resolved after fire and
  before all other movement; the chargers take no part in that movement.
- Infantry in close order (median gap to the nearest comrade 1 in or less) or open order
  (wider) by the tables; dismounted cavalry counts as open order (KS-76). After-effects
  (KS-72/73): close order cannot move next turn; open order falls back 1 ft next turn.
- Infantry that has orders to move this turn is caught withdrawing (KS-82/83): open order
  loses double, close order counts as a column (2 per attacker from over 2 ft, else 3); the
  cavalry loses nothing; the survivors go on with their move (no after-effect).
- Cavalry: a target group that held this turn (no move, no charge) had not dismounted,
  charged or withdrawn: KS-75 (5 lost per attacker, 15 per attacker pushed back 3 ft).
  Otherwise equal numbers on level ground toss a coin (KS-77, the loser pushed back 3 ft),
  unequal numbers fight the Little Wars melee with the downhill multiplier (KS-78/79).
- Who falls: the figures of each side nearest the other side, first.
- Pushed back means 3 ft straight towards the side's own edge; a figure that would leave the
  table or cross an unfordable river on the way is destroyed (KS-81).
- Pursuit (KS-80, KS-84): the figures pushed back, and infantry caught withdrawing, are pursued:
  next turn they withdraw again at their full pace towards their edge instead of their orders,
  unless their side attacks the pursuers that turn (a charge, a volley or a gun aimed within
  6 in of one of them). If the pursuers charge them again they are caught withdrawing again.
- Guns (KS-85/86, guns.py): an unsupported gun is taken; the other guns of its battery that
  were moving away are pursued like figures.
- Survivors of the charge end 1 in short of the nearest surviving target (or where the
  target stood, if none is left), the group's shape kept.

Version 4 (KS-30, LW-27; RULES.md "Cavalry"): a charge is ridden like any cavalry move. Its way is
the shortest way for a horseman round impassable scenery (buildings, walls, trees, rivers away from
every ford and bridge) to 1 in short of the nearest target, with the appendix's costs (climbing,
KS-23/24; steep slopes, KS-25; a ford only as a whole turn's move, KS-30): a charge that has no
such way within one cavalry move is not made (reported to its side), and its distance is the way's
length. The group rides that way in its shape; a horseman whose own way meets scenery, a river,
the table's edge or a move the appendix forbids stops 1/16 in short of it, so no one ends inside
scenery. Chargers taken prisoner (KS-78) are taken where the fight was, beside their captors, who
stay there for the rest of the turn to guard them (LW-33, LW-41); before version 4 the captured
stayed where the charge began, and their captors rode on, so they went free the same turn.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from random import Random
from typing import Any

import numpy as np
from shapely.geometry import LineString, Point, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import substring

from rules.core.i18n import _, message_of
from rules.core.protocol import State
from rules.littlewars.fold import next_name
from rules.littlewars.geom import isolated
from rules.littlewars.scenario import home_vector as scenario_home
from rules.littlewars.table import Table, path_length, table_of
from rules.littlewars.units import radius
from rules.tabletop.points import XY, Coord, Polyline

from . import cavalry
from .guns import battery_withdrawing
from .movement import MoveError, cost, ground_of, steep_bars
from .numbers import CHARGE_REACH, FOOT, MOVE
from .sighting import sightlines_of
from .version import ks_version

TARGET_REACH = 6.0
GUN_REACH = 3.0
FORMED_GAP = 3.0
CLOSE_ORDER_GAP = 1.0
PUSH = 3 * FOOT
FALL_BACK = 1 * FOOT
APPROACH = 1.5  # centre to centre where a charge ends: 1 in between a horse (0.5 in) and its target
STOP_SHORT = 0.01  # a horseman whose way is blocked stops this far before his 1/16 in from it (LW-27)
AROUND = 16  # places round the nearest target a blocked charge may end at (a version 4 detour)


class ChargeRefused(ValueError):
    pass


def _xy(figs: dict[str, Any], i: str) -> XY:
    return (figs[i]["x"], figs[i]["y"])


def formed(figs: dict[str, Any], ids: list[str]) -> bool:
    pts = np.array([_xy(figs, i) for i in ids], dtype=float)
    if len(pts) < 2:
        return True
    d = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    return bool(d.min(axis=1).max() <= FORMED_GAP + 1e-9)


def order_of(figs: dict[str, Any], ids: list[str]) -> str:
    """Close order when the median gap to the nearest comrade is 1 in or less (decision)."""
    pts = np.array([_xy(figs, i) for i in ids], dtype=float)
    if len(pts) < 2:
        return "open"
    d = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    return "close" if float(np.median(d.min(axis=1))) <= CLOSE_ORDER_GAP + 1e-9 else "open"


def targets(state: dict[str, Any], side: str, point: Coord) -> tuple[list[str], str | None]:
    """The body charged: the enemy group of the fighting enemy figure nearest the point (within
    6 in), or an unsupported enemy gun within 3 in of it."""
    figs = state["figures"]
    near = sorted(
        (math.dist(_xy(figs, i), point), i)
        for i, f in figs.items()
        if f["side"] != side and f["st"] == "ok" and not f["dis"] and math.dist(_xy(figs, i), point) <= TARGET_REACH
    )
    if near:
        first = near[0][1]
        enemy = figs[first]["side"]
        group = next((ids for ids in state["groups"][enemy].values() if first in ids), [first])
        return sorted(i for i in group if figs[i]["st"] == "ok" and not figs[i]["dis"]), None
    for gid in sorted(state["guns"]):
        g = state["guns"][gid]
        if g["owner"] != side and math.dist((g["x"], g["y"]), point) <= GUN_REACH:
            supported = any(
                f["side"] == g["owner"]
                and f["st"] == "ok"
                and not f["dis"]
                and math.dist(_xy(figs, i), (g["x"], g["y"])) <= TARGET_REACH
                for i, f in figs.items()
            )
            if not supported:
                return [], gid
    return [], None


def seen_target(state: dict[str, Any], side: str, ids: list[str], point: Coord) -> None:
    """An order to charge is checked against what the side sees (its last sighting): the answer
    must never tell it of an enemy it cannot see. ChargeRefused if it sees nothing to charge."""
    figs = state["figures"]
    _formation(figs, ids)
    now = state["ks"]["seen"][side]["now"]
    aims = [(v[0], v[1]) for v in now["figures"].values() if math.dist((v[0], v[1]), point) <= TARGET_REACH]
    aims += [(v[0], v[1]) for v in now["guns"].values() if math.dist((v[0], v[1]), point) <= GUN_REACH]
    if not aims:
        raise ChargeRefused(
            _(
                "your men see no enemy within {TARGET_REACH:g} in of {value:g},{value2:g} to charge",
                TARGET_REACH=TARGET_REACH,
                value=point[0],
                value2=point[1],
            )
        )
    d = min(math.dist(_xy(figs, i), p) for i in ids for p in aims)
    if d > CHARGE_REACH + 1e-9:
        raise ChargeRefused(
            _(
                "the enemy you see there is {value:.1f} ft away; a charge reaches {value2:g} ft (one cavalry move)",
                value=d / FOOT,
                value2=CHARGE_REACH / FOOT,
            )
        )
    if ks_version(state) >= 4:
        way(state, ids, aims)  # version 4: a charge is ridden round the scenery, over the ground (KS-30, LW-27)


def _formation(figs: dict[str, Any], ids: list[str]) -> None:
    if any(figs[i]["arm"] != "cav" for i in ids):
        raise ChargeRefused(_("only mounted cavalry charge: this group has men on foot"))
    try:
        cavalry.check_charge(len(ids), formed(figs, ids))
    except cavalry.ChargeError as exc:
        raise ChargeRefused(message_of(exc)) from None


def check(state: dict[str, Any], side: str, ids: list[str], point: Coord) -> tuple[list[str], str | None, float]:
    """The true target (figures, or an unsupported gun) and distance of a charge when it is made;
    ChargeRefused if it cannot be made (the side is told only after the turn)."""
    tgt, gun, d, _way = _check(state, side, ids, point)
    return tgt, gun, d


def _check(
    state: dict[str, Any], side: str, ids: list[str], point: Coord
) -> tuple[list[str], str | None, float, Way | None]:
    """``check``, with the way the charge is ridden in version 4 (None before it), whose length is then
    its distance."""
    figs = state["figures"]
    _formation(figs, ids)
    tgt, gun = targets(state, side, point)
    if not tgt and gun is None:
        raise ChargeRefused(
            _(
                "no enemy within {TARGET_REACH:g} in of {value:g},{value2:g} to charge (an unsupported gun within {GUN_REACH:g} in also serves)",
                TARGET_REACH=TARGET_REACH,
                value=point[0],
                value2=point[1],
                GUN_REACH=GUN_REACH,
            )
        )
    aims = [_xy(figs, i) for i in tgt] or [(state["guns"][gun]["x"], state["guns"][gun]["y"])]
    d = min(math.dist(_xy(figs, i), p) for i in ids for p in aims)
    if d > CHARGE_REACH + 1e-9:
        raise ChargeRefused(
            _(
                "the enemy is {value:.1f} ft away; a charge reaches {value2:g} ft (one cavalry move)",
                value=d / FOOT,
                value2=CHARGE_REACH / FOOT,
            )
        )
    if ks_version(state) < 4:
        return tgt, gun, d, None
    ridden = way(state, ids, aims)
    return tgt, gun, ridden.distance, ridden


@dataclass(frozen=True)
class Way:
    """How a charge is ridden (version 4): the lead horseman's route from his place to 1 in short of
    the target nearest him, and the charge's distance along it (to that target's centre)."""

    lead: str
    route: tuple[XY, ...]
    distance: float


def _toward(a: XY, p: Coord, short: float) -> XY:
    """The point ``short`` inches before ``p`` on the straight line from ``a`` (``a`` if nearer)."""
    d = math.dist(a, p)
    if d <= short:
        return a
    k = (d - short) / d
    return (a[0] + (p[0] - a[0]) * k, a[1] + (p[1] - a[1]) * k)


def way(state: dict[str, Any], ids: list[str], aims: Polyline) -> Way:
    """Version 4 (KS-30, LW-27): the way the charge of ``ids`` at the figures (or gun) at ``aims`` is
    ridden, as a cavalry move: each horseman straight at the target nearest him where nothing stands
    in the way, else the horseman nearest the enemy round the scenery (the shortest way for a horse's
    footprint to a place 1 in short of that target); the shortest that the appendix allows (no steep
    slope, KS-25; a ford only as a whole turn's move, KS-26/30) and whose cost with climbing
    (KS-23/24) is within one cavalry move. ChargeRefused, saying why, where there is none."""
    figs = state["figures"]
    sc = state["scenario"]
    table = table_of(sc)
    free = table.free("cav")
    ranked = sorted((min(math.dist(_xy(figs, i), p) for p in aims), i) for i in ids)
    tried: list[tuple[float, str, tuple[XY, ...]]] = []
    for _d, i in ranked:
        a = _xy(figs, i)
        p = min(aims, key=lambda q: (math.dist(a, q), q[0], q[1]))
        end = _toward(a, p, APPROACH)
        if free.clear(a, end) and table.spot_error("cav", end[0], end[1], hill_sides=False) is None:
            tried.append((math.dist(a, end) + min(APPROACH, math.dist(a, p)), i, (a, end)))
    lead = ranked[0][1]
    if all(i != lead for _d, i, _r in tried):  # the horseman nearest the enemy rides round what is in the way
        a = _xy(figs, lead)
        p = min(aims, key=lambda q: (math.dist(a, q), q[0], q[1]))
        for k in range(AROUND):
            t = 2 * math.pi * k / AROUND
            e = (p[0] + APPROACH * math.cos(t), p[1] + APPROACH * math.sin(t))
            if table.spot_error("cav", e[0], e[1], hill_sides=False) is None:
                pts = table.path("cav", a, e)
                if pts:
                    tried.append((path_length(pts) + APPROACH, lead, tuple((x, y) for x, y in pts)))
    why: str | None = None
    for dist, i, route in sorted(tried):
        try:
            c, _limit = cost(ground_of(sc), "cav", list(route), steep_bars=steep_bars(sc, "cav"), on_ground=True)
        except MoveError as exc:
            why = why or _("the charge cannot be ridden there: {why}", why=message_of(exc))
            continue
        c += dist - path_length(list(route))  # the last stretch to the target
        if c > CHARGE_REACH + 1e-9:
            why = why or _(
                "the charge's way to the enemy, round the scenery and over the ground (a level up costs 1 ft, "
                "a level down 1/2 ft: KS-23/24), is {value:.1f} ft; a charge reaches {value2:g} ft (one cavalry move)",
                value=c / FOOT,
                value2=CHARGE_REACH / FOOT,
            )
            continue
        return Way(i, route, round(dist, 3))
    raise ChargeRefused(
        why
        or _(
            "the horsemen have no way to the enemy: buildings, walls, trees or a river away from every ford "
            "and bridge stand in the way (LW-27, KS-30)"
        )
    )


def _nearest_first(figs: dict[str, Any], ids: list[str], other_pts: Polyline) -> list[str]:
    return sorted(ids, key=lambda i: (min(math.dist(_xy(figs, i), p) for p in other_pts), i))


def home_vector(state: dict[str, Any], side: str) -> tuple[float, float]:
    return scenario_home(state["scenario"], side)


def push(state: dict[str, Any], side: str, ids: list[str], dist: float) -> tuple[dict[str, Any], list[str]]:
    """Move ``ids`` ``dist`` straight towards their own edge: (new positions, destroyed) (KS-81).

    Destroyed: a figure whose way crosses a river away from every ford and bridge (all the
    crossings of the table at once), or whose footprint would leave the table. A building,
    wall or tree on the way stops the figure 1/16 in short of it (it cannot land inside)."""
    figs = state["figures"]
    table = table_of(state["scenario"])
    vx, vy = home_vector(state, side)
    moved, lost = {}, []
    for i in ids:
        a = _xy(figs, i)
        b = (a[0] + vx * dist, a[1] + vy * dist)
        r = radius(figs[i]["arm"])
        line = LineString([a, b])
        off = not (r <= b[0] <= table.width - r and r <= b[1] <= table.depth - r)
        if off or line.intersects(table.water):
            lost.append(i)
            continue
        end = _short_of_scenery(table, figs[i]["arm"], line)
        moved[i] = [round(end[0], 4), round(end[1], 4)]
    return moved, lost


def _short_of_scenery(table: Table, arm: str, line: LineString) -> tuple[float, float]:
    """Where a figure pushed along ``line`` stops: its end, or just short of the first impassable
    scenery it would touch (within 1/16 in of its footprint)."""
    core = table.free(arm).core
    if core.is_empty or not line.intersects(core):
        x, y = line.coords[-1]
        return x, y
    hit = line.intersection(core)
    first = min(line.project(Point(c)) for g in getattr(hit, "geoms", [hit]) for c in g.coords)
    x, y = line.interpolate(max(0.0, first - 0.01)).coords[0]
    return x, y


def resolve(
    state: dict[str, Any],
    side: str,
    ids: list[str],
    point: Coord,
    held: set[str],
    rng: Random,
    withdrawing_guns: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """The ``kriegspiel.charge`` payload for one charge (the state is that after fire);
    ``withdrawing_guns``: the enemy's guns ordered to move away this turn (KS-86)."""
    figs = state["figures"]
    ids = [i for i in ids if figs[i]["st"] == "ok"]
    tgt, gun, d, ridden = _check(state, side, ids, point)
    enemy = [s for s in state["groups"] if s != side][0]
    out: dict[str, Any] = {
        "side": side,
        "by": sorted(ids),
        "at": [float(point[0]), float(point[1])],
        "distance": round(d, 3),
        "kind": None,
        "killed": [],
        "gun": gun,
        "moved": {},
        "destroyed": [],
        "after": None,
        "coin": None,
        "pursued": [],
        "pursued_guns": [],
        "captured": [],
        "captor": None,
        "pow": None,
    }
    if ridden is not None:
        out["guards"] = []  # version 4: the captors who stay to guard chargers taken prisoner (KS-78)
    if gun is not None:
        res = cavalry.vs_guns(len(ids), d)
        out["pursued_guns"] = battery_withdrawing(state, gun, set(withdrawing_guns))
        out.update(
            kind="guns",
            killed=_nearest_first(figs, ids, [(state["guns"][gun]["x"], state["guns"][gun]["y"])])[: res["cav_lost"]],
        )
        _advance(state, out, ids, [(state["guns"][gun]["x"], state["guns"][gun]["y"])], ridden)
        return out
    tpts = [_xy(figs, i) for i in tgt]
    cpts = [_xy(figs, i) for i in ids]
    on_foot = set(state["ks"].get("dismounted", {}).get(enemy, []))
    foot = [i for i in tgt if figs[i]["arm"] == "inf" or i in on_foot]
    if foot:
        # KS-76: dismounted cavalry fights as infantry in open order
        in_column = set(state["ks"].get("columns", {}).get(enemy, []))
        order = "open" if set(foot) & on_foot else ("close" if set(foot) & in_column else order_of(figs, foot))
        if not set(foot) <= held:
            # KS-82/83: infantry on the move away is caught withdrawing (close order marches in column)
            res = cavalry.vs_retreating_infantry(len(ids), len(foot), d, "open" if order == "open" else "column")
            order = f"{order}_withdrawing"
        else:
            res = cavalry.vs_infantry(len(ids), len(foot), d, order)
        lost_cav = _nearest_first(figs, ids, tpts)[: res["cav_lost"]]
        lost_inf = _nearest_first(figs, foot, cpts)[: res["inf_lost"]]
        out.update(
            kind=f"infantry_{order}",
            killed=sorted(lost_cav + lost_inf),
            pursued=sorted(set(foot) - set(lost_inf)) if order.endswith("withdrawing") else [],
            after=None
            if order.endswith("withdrawing")
            else {
                "figures": sorted(set(foot) - set(lost_inf)),
                "effect": "hold" if order == "close" else "fall_back",
                "turn": state["turn"] + 1,
            },
        )
    else:
        standing = set(tgt) <= held
        if standing:
            res = cavalry.vs_standing_cavalry(len(ids), len(tgt))
            lost_def = _nearest_first(figs, tgt, cpts)[: res["def_lost"]]
            back = [i for i in _nearest_first(figs, tgt, cpts) if i not in lost_def][: res["fall_back"]]
            out.update(kind="cavalry_standing", killed=sorted(lost_def))
            moved, lost = push(state, enemy, back, PUSH)
        else:
            lv = sightlines_of(state["scenario"])
            down = int(max(0, lv.levels(np.array(cpts)).max() - lv.levels(np.array(tpts)).max()))
            lonely = _smaller_isolated(state, side, ids, tgt, cavalry.effective(len(ids), down))
            res = cavalry.vs_cavalry(len(ids), len(tgt), rng, levels_down=down, smaller_isolated=lonely)
            lost_att = _nearest_first(figs, ids, tpts)[: res["att_lost"]]
            lost_def = _nearest_first(figs, tgt, cpts)[: res["def_lost"]]
            # the nearest fall, the next are taken (as in a Little Wars melee)
            taken = lost_att[len(lost_att) - res["att_captured"] :] + lost_def[len(lost_def) - res["def_captured"] :]
            captor = (enemy if res["att_captured"] else side) if taken else None
            out.update(
                kind="cavalry",
                killed=sorted(set(lost_att + lost_def) - set(taken)),
                coin=res["coin"],
                captured=sorted(taken),
                captor=captor,
                pow=next_name(state, captor, "pow") if captor is not None else None,
            )  # the captor's own count
            if ridden is not None and captor == enemy:  # version 4: they stay by the men they took (LW-33, LW-41)
                out["guards"] = sorted(i for i in tgt if i not in lost_def)
            moved, lost = {}, []
            if res["withdraws"] == "defender":
                moved, lost = push(state, enemy, [i for i in tgt if i not in lost_def], PUSH)
            elif res["withdraws"] == "attacker":
                moved, lost = push(state, side, [i for i in ids if i not in lost_att], PUSH)
                out.update(moved=moved, destroyed=sorted(lost))
                return out
        out.update(moved=moved, destroyed=sorted(lost), pursued=sorted(moved))  # KS-80: the pushed are pursued
    fallen = set(out["killed"]) | set(out["captured"]) | set(out["moved"])
    # version 4: the chargers taken prisoner were taken where the fight was, so they ride in with the rest
    riders = ids if ridden is not None else [i for i in ids if i not in out["captured"]]
    _advance(state, out, riders, [_xy(figs, i) for i in tgt if i not in fallen] or tpts, ridden)
    return out


def _smaller_isolated(state: dict[str, Any], side: str, ids: list[str], tgt: list[str], strength: int) -> bool:
    """LW-32 for the smaller of the two bodies (the charger counted with the downhill multiplier):
    fewer than half its number of fighting friends within a move, the two bodies left out."""
    if strength == len(tgt):
        return False
    enemy = state["figures"][tgt[0]]["side"]
    small_side, small = (enemy, tgt) if strength > len(tgt) else (side, ids)
    return isolated(state, small_side, small, exclude=set(ids) | set(tgt))


def _advance(state: State, out: dict[str, Any], ids: list[str], aims: Polyline, ridden: Way | None = None) -> None:
    """Surviving chargers end 1 in short of the nearest target, the group's shape kept. Version 4
    (``ridden``, the way the charge was made): they ride there round the scenery (``_ride_in``)."""
    figs = state["figures"]
    alive = [i for i in ids if i not in out["killed"]]
    if not alive:
        return
    if ridden is not None:
        _ride_in(state, out, alive, aims, ridden)
        return
    lead = min(alive, key=lambda i: min(math.dist(_xy(figs, i), p) for p in aims))
    a = _xy(figs, lead)
    p = min(aims, key=lambda q: math.dist(a, q))
    d = math.dist(a, p)
    step = max(0.0, d - 1.0 - 0.5) / d if d > 0 else 0.0
    dx, dy = (p[0] - a[0]) * step, (p[1] - a[1]) * step
    table = table_of(state["scenario"])
    for i in alive:
        x, y = figs[i]["x"] + dx, figs[i]["y"] + dy
        x = min(max(x, 0.5), table.width - 0.5)
        y = min(max(y, 0.5), table.depth - 0.5)
        out["moved"][i] = [round(x, 4), round(y, 4)]


def _ride_in(state: State, out: dict[str, Any], alive: list[str], aims: Polyline, ridden: Way) -> None:
    """Version 4: the survivors ride the way to 1 in short of the nearest target still there (the way
    the charge was made, if that one has none), each horseman on that route shifted by his place in
    the group; one whose own route meets scenery, a river, the table's edge or a move the appendix
    forbids stops short of it (``_ride``)."""
    figs = state["figures"]
    try:
        route = way(state, alive, aims).route
    except ChargeRefused:
        route = ridden.route
    x0, y0 = route[0]
    for i in alive:
        dx, dy = figs[i]["x"] - x0, figs[i]["y"] - y0
        x, y = _ride(state, [(x + dx, y + dy) for x, y in route])
        out["moved"][i] = [round(x, 4), round(y, 4)]


@functools.lru_cache(maxsize=32)
def _barrier(table: Table) -> BaseGeometry:
    """Where no horse's centre may go: within its footprint and 1/16 in of impassable scenery, or
    off the table (LW-27)."""
    r = radius("cav")
    outside = box(-1e6, -1e6, 1e6, 1e6).difference(box(r, r, table.width - r, table.depth - r))
    core = table.free("cav").core
    return outside if core.is_empty else core.union(outside)


def _ride(state: State, route: Polyline) -> XY:
    """Where a horseman riding ``route`` in a charge stops (version 4): its end, or short of the first
    scenery or edge his footprint would come within 1/16 in of, or of the first stretch the appendix
    forbids (a steep slope, a ford crossed in less than the whole turn, more than a cavalry move)."""
    line = LineString(route)
    if line.length == 0:
        return route[0][0], route[0][1]
    sc = state["scenario"]
    stop = line.length
    barrier = _barrier(table_of(sc))
    if line.intersects(barrier):
        hit = line.intersection(barrier)
        first = min(line.project(Point(c)) for g in getattr(hit, "geoms", [hit]) for c in g.coords)
        stop = max(0.0, first - STOP_SHORT)
    if not _rideable(sc, line, stop):
        lo, hi = 0.0, stop
        while hi - lo > STOP_SHORT:
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if _rideable(sc, line, mid) else (lo, mid)
        stop = lo
    x, y = line.interpolate(stop).coords[0]
    return x, y


def _rideable(sc: dict[str, Any], line: LineString, length: float) -> bool:
    """Whether the first ``length`` inches of ``line`` are a cavalry move the appendix allows."""
    part = substring(line, 0.0, length)
    pts = [(float(x), float(y)) for x, y in part.coords]
    try:
        c, _limit = cost(ground_of(sc), "cav", pts, steep_bars=steep_bars(sc, "cav"), on_ground=True)
    except MoveError:
        return False
    return c <= MOVE["cav"] + 1e-9

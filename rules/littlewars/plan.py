"""A side's orders turned into a plan for the turn, with per-line errors (validation).

The same code validates orders before the deadline and prepares them for
adjudication, so what a player is told is exactly what the engine will do.
Group changes (form/split/merge) apply first, in line order, so later lines may
use the new names.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely.strtree import STRtree

from rules.core.i18n import _
from rules.core.protocol import LineError, State
from rules.tabletop.points import XY, point_array

from . import geom
from . import wagons as wagon_rules
from .fold import game_turn_of_play, play_turn
from .orders import (
    Edge,
    Escort,
    Fire,
    Form,
    Hold,
    Melee,
    Merge,
    Move,
    Order,
    Split,
    Surrender,
)
from .scenario import OPPOSITE, block, zone_error
from .table import Table, path_length, table_of
from .units import (
    ARM_NAMES,
    CREW_MIN,
    CREW_RANGE,
    FIRST_FIRE_TURN,
    GUN_SPOT,
    SCENERY_GAP,
    gun_pace,
    gun_range,
    other,
    pace,
    radius,
)


@dataclass
class Plan:
    side: str
    groups: dict[str, Any]
    groups_changed: bool = False
    paths: dict[str, Any] = field(default_factory=dict)  # figure id -> polyline (own figures and escorted prisoners)
    fire: dict[str, Any] = field(default_factory=dict)  # gun id -> aim points
    gun_moves: dict[str, Any] = field(default_factory=dict)  # gun id -> polyline
    deploy_figures: dict[str, Any] = field(default_factory=dict)
    deploy_guns: dict[str, Any] = field(default_factory=dict)
    wagon_moves: dict[str, Any] = field(default_factory=dict)  # wagon id -> polyline (LW-66/67)
    deploy_wagons: dict[str, Any] = field(default_factory=dict)
    hungry: set[str] | None = None  # LW-66: own figures out of supply now (computed once)
    surrender: list[tuple[str, list[str]]] = field(default_factory=list)  # (group name, figure ids)
    standing: tuple[Any, ...] | None = None
    edge: str | None = None  # LW-2/53: the edge chosen before deployment
    errors: list[LineError] = field(default_factory=list)
    owner_line: dict[str, int] = field(default_factory=dict)  # figure/gun id -> line that ordered it
    move_check: PathCheck | None = None  # a variant's own range rule: (figure id, path) -> error or None
    gun_check: PathCheck | None = None  # and for guns, instead of LW-26: (gun id, path) -> error or None
    line_text: dict[int, str] = field(default_factory=dict)  # line number -> its text


# A variant's check of one planned path: (figure or gun id, the path's points) -> the error, or None.
PathCheck = Callable[[str, list[XY]], "str | None"]


class OrderRefused(Exception):
    """An order line the planner refuses; the message says why (a variant's planner raises it too)."""


def build(
    state: dict[str, Any],
    side: str,
    orders: Sequence[Order],
    move_check: PathCheck | None = None,
    gun_check: PathCheck | None = None,
) -> Plan:
    plan = Plan(
        side, {k: list(v) for k, v in state["groups"][side].items()}, move_check=move_check, gun_check=gun_check
    )
    phase = state["phase"]
    if phase not in ("edge", "deploy", "play"):
        plan.errors.append(
            LineError(0, "", _("the game is over") if phase == "over" else _("the game has not started"))
        )
        return plan
    ordered = sorted(orders, key=lambda o: (not isinstance(o, (Form, Split, Merge)), o.line))
    for o in ordered:
        try:
            _apply(state, plan, o)
        except OrderRefused as exc:
            plan.errors.append(LineError(o.line, o.text, exc.args[0]))  # the marked message itself
    if phase == "play":
        _check_gun_moves(state, plan)
    plan.errors.sort(key=lambda e: e.line)
    return plan


def build_spaced(
    state: dict[str, Any],
    side: str,
    orders: Sequence[Order],
    move_check: PathCheck | None = None,
    gun_check: PathCheck | None = None,
) -> Plan:
    """``build`` and the 1/16 in between the side's own figures (LW-27). Separate from ``build`` so that
    a rule set whose figures may share a place (the appendix's trains and boxes) can leave it out."""
    plan = build(state, side, orders, move_check, gun_check)
    _check_spacing(state, plan)
    plan.errors.sort(key=lambda e: e.line)
    return plan


def _apply(state: State, plan: Plan, o: Order) -> None:
    if state["phase"] == "edge" or isinstance(o, Edge):
        return _edge(state, plan, o)
    deploying = state["phase"] == "deploy"
    if isinstance(o, Move) and o.deploy != deploying:
        raise OrderRefused(
            _("deploy orders are for the deployment turn only")
            if o.deploy
            else _("this is the deployment turn: use 'deploy <name> at x,y' or 'deploy <name> line ...'")
        )
    if deploying and not isinstance(o, (Move, Form, Split, Merge, Melee, Hold)):
        raise OrderRefused(_("only deploy, form, split, merge and melee orders are allowed while deploying"))
    handlers: dict[type[Order], Callable[[State, Plan, Any], None]] = {
        Move: _move,
        Fire: _fire,
        Split: _split,
        Merge: _merge,
        Form: _form,
        Escort: _escort,
        Surrender: _surrender,
        Melee: _melee,
        Hold: _hold,
    }
    handlers[type(o)](state, plan, o)


def _hold(state: State, plan: Plan, o: Hold) -> None:
    """Nothing to plan."""


def _edge(state: State, plan: Plan, o: Order) -> None:
    if state["phase"] != "edge":
        raise OrderRefused(_("the edge is chosen before deployment, when the game lets a side choose it"))
    if isinstance(o, Hold):
        return
    if not isinstance(o, Edge):
        raise OrderRefused(_("now only the edge is chosen: 'edge north', 'edge south', ... or hold"))
    if plan.side != state.get("edge_chooser"):
        raise OrderRefused(_("{get} chooses the edge, not {side}", get=state.get("edge_chooser"), side=plan.side))
    mine = state["scenario"]["edges"][plan.side]
    if o.edge not in (mine, OPPOSITE[mine]):
        raise OrderRefused(
            _(
                "the armies start from the {mine} and {value} edges: choose one of those",
                mine=mine,
                value=OPPOSITE[mine],
            )
        )
    if plan.edge is not None:
        raise OrderRefused(_("the edge is chosen once"))
    plan.edge = o.edge


# -- names ------------------------------------------------------------------
def _figure(state: State, side: str, name: str) -> list[str] | None:
    fid = f"{side}:{name.lower()}"
    f = state["figures"].get(fid)
    if f is None:
        return None
    if f["st"] != "ok":
        raise OrderRefused(
            _(
                "{name} is {value}",
                name=name,
                value=_("dead") if f["st"] == "dead" else _("a prisoner") if f["st"] == "pow" else _("not in play"),
            )
        )
    return [fid]


def gun_of(state: State, side: str, name: str) -> str | None:
    for gid, g in state["guns"].items():
        if geom.gun_name(g).lower() == name.lower() and g["owner"] == side:
            result: str | None = gid
            return result
    return None


def _wagon(state: State, side: str, name: str) -> str | None:
    for wid, w in wagon_rules.live(state, side).items():
        if wagon_rules.name_of(w).lower() == name.lower():
            return wid
    return None


def group_key(groups: Mapping[str, Any], name: str) -> str | None:
    for k in groups:
        if k.lower() == name.lower():
            return k
    return None


def resolve(state: State, plan: Plan, name: str) -> tuple[str, Any]:
    """("figures", ids) | ("gun", id) | ("pow", (name, ids)); errors name what the name is instead."""
    key = group_key(plan.groups, name)
    if key is not None:
        return "figures", list(plan.groups[key])
    ids = _figure(state, plan.side, name)
    if ids:
        return "figures", ids
    gid = gun_of(state, plan.side, name)
    if gid:
        return "gun", gid
    wid = _wagon(state, plan.side, name)
    if wid:
        return "wagon", wid
    pkey = group_key(state["pows"][plan.side], name)
    if pkey is not None:
        return "pow", (pkey, list(state["pows"][plan.side][pkey]))
    enemy = other(plan.side)
    if (
        group_key(state["groups"][enemy], name)
        or state["figures"].get(f"{enemy}:{name.lower()}")
        or gun_of(state, enemy, name)
        or _wagon(state, enemy, name)
    ):
        raise OrderRefused(_("not your figure: {name} belongs to {enemy}", name=name, enemy=enemy))
    if any(g["name"].lower() == name.lower() and g["side"] == plan.side for g in state["guns"].values()):
        raise OrderRefused(_("{name} is no longer yours: it was captured", name=name))
    lost = next(
        (w for w in state.get("wagons", {}).values() if w["name"].lower() == name.lower() and w["side"] == plan.side),
        None,
    )
    if lost is not None:
        raise OrderRefused(
            _(
                "{name} is no longer yours: it was {value}",
                name=name,
                value=_("destroyed") if lost["st"] != "ok" else _("captured"),
            )
        )
    raise OrderRefused(_("unknown name '{name}': not one of your groups, figures, guns or prisoner groups", name=name))


def _own_figures(state: State, plan: Plan, name: str) -> list[str]:
    kind, value = resolve(state, plan, name)
    if kind != "figures":
        what = {"gun": _("gun"), "wagon": _("wagon")}.get(kind) or _("prisoner group")
        raise OrderRefused(_("{name} is a {what}, not a group of figures", name=name, what=what))
    result: list[str] = value
    return result


def _check_claim(plan: Plan, ids: list[str]) -> None:
    for i in ids:
        if i in plan.owner_line:
            raise OrderRefused(
                _("{value} already has an order on line {value2}", value=i.split(":")[1], value2=plan.owner_line[i])
            )


def claim_figures(plan: Plan, ids: list[str], o: Order) -> None:
    _check_claim(plan, ids)
    for i in ids:
        plan.owner_line[i] = o.line
    plan.line_text[o.line] = o.text


# -- group changes ------------------------------------------------------------
def _new_name(state: State, plan: Plan, name: str) -> None:
    if (
        group_key(plan.groups, name)
        or state["figures"].get(f"{plan.side}:{name.lower()}")
        or gun_of(state, plan.side, name)
        or _wagon(state, plan.side, name)
    ):
        raise OrderRefused(_("the name {name} is already in use", name=name))
    if name[0].lower() in "ic" and name[1:].isdigit():
        raise OrderRefused(_("{name} looks like a figure name (i12, c3): choose another group name", name=name))
    if re.fullmatch(r"(pow|freed)\d+", name.lower()):
        raise OrderRefused(_("{name} is reserved for prisoner and freed groups: choose another group name", name=name))


def _take(plan: Plan, ids: list[str]) -> None:
    """Remove figures from the groups they are in (a figure belongs to one group)."""
    s = set(ids)
    for k in list(plan.groups):
        kept = [i for i in plan.groups[k] if i not in s]
        if kept:
            plan.groups[k] = kept
        else:
            del plan.groups[k]


def _split(state: State, plan: Plan, o: Split) -> None:
    ids = _own_figures(state, plan, o.who)
    _new_name(state, plan, o.new)
    if not 0 < o.count < len(ids):
        raise OrderRefused(
            _("{who} has {ids} figures: split off between 1 and {value}", who=o.who, ids=len(ids), value=len(ids) - 1)
        )
    figs = state["figures"]
    near = o.near
    if near:
        ids = sorted(ids, key=lambda i: (math.dist((figs[i]["x"], figs[i]["y"]), near), i))
    chosen = ids[: o.count] if o.near else ids[-o.count :]
    _take(plan, chosen)
    plan.groups[o.new] = chosen
    plan.groups_changed = True


def _merge(state: State, plan: Plan, o: Merge) -> None:
    src = _own_figures(state, plan, o.who)
    key = group_key(plan.groups, o.into)
    if key is None:
        raise OrderRefused(_("unknown group '{into}' to merge into", into=o.into))
    if key.lower() == o.who.lower():
        raise OrderRefused(_("a group cannot merge into itself"))
    _take(plan, src)
    plan.groups[key] = plan.groups.get(key, []) + src
    plan.groups_changed = True


def _form(state: State, plan: Plan, o: Form) -> None:
    _new_name(state, plan, o.new)
    ids: list[str] = []
    for m in o.members:
        ids += [i for i in _own_figures(state, plan, m) if i not in ids]
    _take(plan, ids)
    plan.groups[o.new] = ids
    plan.groups_changed = True


def _melee(state: State, plan: Plan, o: Melee) -> None:
    plan.standing = (o.kill, o.lose)


# -- movement -----------------------------------------------------------------
def head_start(state: State, side: str, x: float, y: float, r: float) -> float:
    """LW-7: deployed without the curtain, every figure moves in the first turn "as if it stood exactly on
    the edge line": the way from the edge to where it stands counts against that turn's move."""
    sc = state["scenario"]
    if sc["settings"].get("deployment", "curtain") != "alternate" or play_turn(state) != 1:
        return 0.0
    result: float = max(0.0, table_of(sc).edge_distance(sc["edges"][side], x, y) - r)
    return result


def allowance(state: State, fid: str) -> float:
    """How far figure ``fid`` may move this turn (LW-17/18, less the LW-7 head start in turn 1)."""
    f = state["figures"][fid]
    return max(0.0, pace(state["scenario"], f["arm"]) - head_start(state, f["side"], f["x"], f["y"], radius(f["arm"])))


def _targets(state: State, ids: list[str], o: Move) -> dict[str, list[tuple[float, float]]]:
    """Waypoints (without the start) for each figure of a move or line order."""
    figs = state["figures"]
    pos = {i: (figs[i]["x"], figs[i]["y"]) for i in ids}
    if o.line_form:
        (x1, y1), (x2, y2) = o.points
        slots = geom.line_slots((x1, y1), (x2, y2), len(ids))
        order = sorted(ids, key=lambda i: ((pos[i][0] - x1) * (x2 - x1) + (pos[i][1] - y1) * (y2 - y1), i))
        return {i: [slots[k]] for k, i in enumerate(order)}
    cx = sum(p[0] for p in pos.values()) / len(ids)
    cy = sum(p[1] for p in pos.values()) / len(ids)
    return {i: [(round(wx + pos[i][0] - cx, 4), round(wy + pos[i][1] - cy, 4)) for wx, wy in o.points] for i in ids}


def route(table: Table, arm: str, start: XY, waypoints: Iterable[XY]) -> list[XY]:
    pts = [start]
    for w in waypoints:
        leg = table.path(arm, pts[-1], w)
        if not leg:
            return []
        pts += leg[1:]
    return pts


def _move(state: State, plan: Plan, o: Move) -> None:
    kind, value = resolve(state, plan, o.who)
    if kind == "pow":
        raise OrderRefused(_("{who} are prisoners: use 'escort {who} to x,y'", who=o.who))
    if kind == "gun":
        return _deploy_gun(state, plan, o, value) if o.deploy else _plan_gun_move(state, plan, o, value)
    if kind == "wagon":
        return _deploy_wagon(state, plan, o, value) if o.deploy else _plan_wagon_move(state, plan, o, value)
    if o.deploy:
        return _deploy(state, plan, o, value)
    _check_claim(plan, value)
    _supply_check(state, plan, value)
    table = table_of(state["scenario"])
    figs = state["figures"]
    paths = {}
    for fid, wps in _targets(state, value, o).items():
        f = figs[fid]
        for w in wps:
            err = table.spot_error(f["arm"], *w)
            if err:
                raise OrderRefused(
                    _(
                        "{value} would pass or end at {value2}: {value3}",
                        value=fid.split(":")[1],
                        value2=err.split(" is ", 1)[0],
                        value3=err.split(" is ", 1)[1],
                    )
                )
        pts = route(table, f["arm"], (f["x"], f["y"]), wps)
        if not pts:
            raise OrderRefused(_("{value} cannot get there: no way round the scenery", value=fid.split(":")[1]))
        if plan.move_check is not None:  # the Kriegspiel appendix's pace replaces LW-17/18
            err = plan.move_check(fid, pts)
            if err:
                raise OrderRefused(err)
            paths[fid] = pts
            continue
        length, limit = path_length(pts), allowance(state, fid)
        if length > limit + 1e-9:
            spent = pace(state["scenario"], f["arm"]) - limit
            edge = (
                _(" this turn: measured from the edge line, {spent:.1f} in are spent already (LW-7)", spent=spent)
                if spent
                else ""
            )
            raise OrderRefused(
                _(
                    "out of range: {value} would need {length:.1f} in, {value2} moves at most {limit:g} in (LW-{value3}){edge}",
                    value=fid.split(":")[1],
                    length=length,
                    value2=ARM_NAMES[f["arm"]],
                    limit=round(limit, 2),
                    value3=17 if f["arm"] == "inf" else 18,
                    edge=edge,
                )
            )
        paths[fid] = pts
    claim_figures(plan, value, o)
    plan.paths.update(paths)


def _deploy(state: State, plan: Plan, o: Move, ids: list[str]) -> None:
    _check_claim(plan, ids)
    sc = state["scenario"]
    edge = sc["edges"][plan.side]
    figs = state["figures"]
    table = table_of(sc)
    if o.line_form:
        spots = geom.line_slots(o.points[0], o.points[1], len(ids))
    else:
        arm = figs[ids[0]]["arm"]
        spots = block({"arm": arm, "frontage": min(len(ids), 10), "count": len(ids)}, edge, list(o.points[0]))
    for fid, (x, y) in zip(ids, spots, strict=True):
        err = table.spot_error(figs[fid]["arm"], x, y) or zone_error(sc, plan.side, x, y)
        if err:
            raise OrderRefused(_("{value} cannot deploy there: {err}", value=fid.split(":")[1], err=err))
    claim_figures(plan, ids, o)
    plan.deploy_figures.update({fid: [x, y] for fid, (x, y) in zip(ids, spots, strict=True)})


def _deploy_gun(state: State, plan: Plan, o: Move, gid: str) -> None:
    claim_figures(plan, [gid], o)
    if o.line_form:
        raise OrderRefused(_("a gun deploys at one point: deploy gun1 at x,y"))
    x, y = o.points[0]
    err = table_of(state["scenario"]).spot_error(GUN_SPOT, x, y) or zone_error(state["scenario"], plan.side, x, y)
    if err:
        raise OrderRefused(_("{who} cannot deploy there: {err}", who=o.who, err=err))
    plan.deploy_guns[gid] = [x, y]


def _escort(state: State, plan: Plan, o: Escort) -> None:
    kind, value = resolve(state, plan, o.who)
    if kind != "pow":
        raise OrderRefused(_("{who} is not a group of prisoners you hold; use move for your own figures", who=o.who))
    name, ids = value
    ids = [i for i in ids if not state["figures"][i]["pow"][2]]
    if not ids:
        raise OrderRefused(_("the prisoners of {name} have all been taken off the table", name=name))
    _check_claim(plan, ids)
    table = table_of(state["scenario"])
    fake = Move(o.line, o.text, o.who, o.points)
    paths = {}
    for fid, wps in _targets(state, ids, fake).items():
        f = state["figures"][fid]  # prisoners walk at the infantry pace, each with its own footprint
        spot = next((e for e in (table.spot_error(f["arm"], *w) for w in wps) if e), None)
        if spot:
            raise OrderRefused(_("{value} cannot be escorted there: {spot}", value=fid.split(":")[1], spot=spot))
        pts = route(table, f["arm"], (f["x"], f["y"]), wps)
        if not pts or path_length(pts) > pace(state["scenario"], "inf") + 1e-9:
            raise OrderRefused(
                _(
                    "out of range: prisoners walk at most {pace:g} in a turn, to open ground on the table",
                    pace=pace(state["scenario"], "inf"),
                )
            )
        paths[fid] = pts
    claim_figures(plan, ids, o)
    plan.paths.update(paths)


def _surrender(state: State, plan: Plan, o: Surrender) -> None:
    ids = _own_figures(state, plan, o.who)
    friends, need = geom.support(state, plan.side, ids)
    if 2 * friends >= len(ids):
        raise OrderRefused(
            _(
                "{who} is not isolated: {friends} friends within a move of it (LW-32: fewer than {ceil} needed to surrender, LW-45)",
                who=o.who,
                friends=friends,
                ceil=math.ceil(len(ids) / 2),
            )
        )
    claim_figures(plan, ids, o)
    plan.surrender.append((group_key(plan.groups, o.who) or o.who, ids))


# -- wagons (LW-66/67) ---------------------------------------------------------------
def _supply_check(state: State, plan: Plan, ids: list[str]) -> None:
    """LW-66 (penalty as KS-52): figures out of supply at the start of the turn do not move."""
    if not wagon_rules.on(state):
        return
    if plan.hungry is None:
        plan.hungry = set(wagon_rules.unsupplied(state, plan.side))
    out = [i.split(":")[1] for i in ids if i in plan.hungry]
    if out:
        sc = state["scenario"]
        raise OrderRefused(
            _(
                "{value}{value2} out of supply: no supply wagon within {reach:g} in (six moves) has room for them, "
                "50 a wagon (LW-66); troops without supply do not move (as KS-52)",
                value=", ".join(out[:5]),
                value2=" ..." if len(out) > 5 else "",
                reach=wagon_rules.reach(sc, "supply"),
            )
        )


def _deploy_wagon(state: State, plan: Plan, o: Move, wid: str) -> None:
    claim_figures(plan, [wid], o)
    if o.line_form:
        raise OrderRefused(_("a wagon deploys at one point: deploy {who} at x,y", who=o.who))
    x, y = o.points[0]
    err = table_of(state["scenario"]).spot_error(wagon_rules.SPOT, x, y) or zone_error(
        state["scenario"], plan.side, x, y
    )
    if err:
        raise OrderRefused(_("{who} cannot deploy there: {err}", who=o.who, err=err))
    plan.deploy_wagons[wid] = [x, y]


def _plan_wagon_move(state: State, plan: Plan, o: Move, wid: str) -> None:
    """A wagon goes at its horses' walk (12 in, LW-26's foot pace for guns) round the scenery, no escort needed."""
    if o.line_form:
        raise OrderRefused(_("a wagon moves to a point: move {who} to x,y", who=o.who))
    _check_claim(plan, [wid])
    w = state["wagons"][wid]
    table = table_of(state["scenario"])
    for p in o.points:
        err = table.spot_error(wagon_rules.SPOT, *p)
        if err:
            raise OrderRefused(_("{who} cannot go there: {err}", who=o.who, err=err))
    pts = route(table, wagon_rules.SPOT, (w["x"], w["y"]), o.points)
    if not pts:
        raise OrderRefused(_("{who} cannot get there: no way round the scenery", who=o.who))
    spent = head_start(state, w["owner"], w["x"], w["y"], wagon_rules.radius_of())  # LW-7, as for everything
    limit = max(0.0, wagon_rules.wagon_pace(state["scenario"]) - spent)
    if path_length(pts) > limit + 1e-9:
        edge = (
            _(" this turn: measured from the edge line, {spent:.1f} in are spent already (LW-7)", spent=spent)
            if spent
            else _(" a turn")
        )
        raise OrderRefused(
            _(
                "out of range: {who} would need {path_length:.1f} in; a wagon moves at most {limit:g} in{edge}",
                who=o.who,
                path_length=path_length(pts),
                limit=round(limit, 2),
                edge=edge,
            )
        )
    claim_figures(plan, [wid], o)
    plan.wagon_moves[wid] = pts


# -- guns -----------------------------------------------------------------------
def _crew_check(state: State, gid: str, what: str) -> None:
    g = state["guns"][gid]
    n = len(geom.crew(state, g["owner"], (g["x"], g["y"])))
    if n < CREW_MIN:
        raise OrderRefused(
            _(
                "{gun_name} is not crewed: {n} of your figures within {CREW_RANGE:g} in, {CREW_MIN} needed to {what} (LW-19)",
                gun_name=geom.gun_name(g),
                n=n,
                CREW_RANGE=CREW_RANGE,
                CREW_MIN=CREW_MIN,
                what=what,
            )
        )


def _fire(state: State, plan: Plan, o: Fire) -> None:
    kind, gid = resolve(state, plan, o.gun)
    if kind != "gun":
        raise OrderRefused(_("{gun} is not a gun", gun=o.gun))
    first = FIRST_FIRE_TURN
    sc = state["scenario"]
    if sc["kind"] == "defence" and sc["settings"]["defender"] == plan.side:
        first = 1  # LW-55
    if play_turn(state) < first:
        raise OrderRefused(
            _(
                "no gun fires before turn {game_turn_of_play} (LW-14: none in the first turn of play)",
                game_turn_of_play=game_turn_of_play(state, first),
            )
        )
    if gid in plan.owner_line:
        raise OrderRefused(
            _(
                "a gun moves or fires in a turn, not both (LW-20); line {value} already orders it",
                value=plan.owner_line[gid],
            )
        )
    _crew_check(state, gid, "fire")
    err = wagon_rules.ammo_error(state, gid)
    if err:
        raise OrderRefused(err)
    g = state["guns"][gid]
    for x, y in o.aims:
        rng = math.dist((g["x"], g["y"]), (x, y))
        if rng > gun_range(sc):
            raise OrderRefused(
                _(
                    "out of range: {x:g},{y:g} is {rng:.1f} in from {gun_name}, a gun reaches {gun_range:g} in",
                    x=x,
                    y=y,
                    rng=rng,
                    gun_name=geom.gun_name(g),
                    gun_range=gun_range(sc),
                )
            )
    claim_figures(plan, [gid], o)
    plan.fire[gid] = [list(a) for a in o.aims]


def _plan_gun_move(state: State, plan: Plan, o: Move, gid: str) -> None:
    if o.line_form:
        raise OrderRefused(_("a gun moves to a point: move gun1 to x,y"))
    if gid in plan.owner_line:
        raise OrderRefused(
            _(
                "a gun moves or fires in a turn, not both (LW-20); line {value} already orders it",
                value=plan.owner_line[gid],
            )
        )
    _crew_check(state, gid, "move")
    g = state["guns"][gid]
    table = table_of(state["scenario"])
    for w in o.points:  # a gun stands where a figure may: on the table, clear of scenery, not on a hill's side
        err = table.spot_error(GUN_SPOT, *w)
        if err:
            raise OrderRefused(_("{gun_name} cannot go there: {err}", gun_name=geom.gun_name(g), err=err))
    pts = route(table, "cav", (g["x"], g["y"]), list(o.points))
    if not pts:
        raise OrderRefused(_("{gun_name} cannot get there: no way round the scenery", gun_name=geom.gun_name(g)))
    if plan.gun_check is not None:
        err = plan.gun_check(gid, pts)
        if err:
            raise OrderRefused(err)
    elif path_length(pts) > gun_pace(state["scenario"], CREW_MIN) + 1e-9:
        raise OrderRefused(
            _(
                "out of range: {gun_name} would need {path_length:.1f} in; a gun moves at most {gun_pace:g} in, and only with 4 cavalry (LW-26)",
                gun_name=geom.gun_name(g),
                path_length=path_length(pts),
                gun_pace=gun_pace(state["scenario"], CREW_MIN),
            )
        )
    claim_figures(plan, [gid], o)
    plan.gun_moves[gid] = (pts, o)


def _check_gun_moves(state: State, plan: Plan) -> None:
    """LW-24/26 against where the plan puts the crew (ignoring contacts, which only shorten moves); a variant
    with its own ``gun_check`` has checked the range already."""
    for gid, (pts, o) in list(plan.gun_moves.items()):
        team = geom.gun_team(state, plan, gid, pts[-1])
        g = state["guns"][gid]
        cav = sum(1 for i in team if state["figures"][i]["arm"] == "cav")
        limit = gun_pace(state["scenario"], cav) - head_start(state, g["owner"], g["x"], g["y"], 0.0)
        msg = None
        if len(team) < CREW_MIN:
            msg = _(
                "only {team} of {gun_name}'s crew would end within {CREW_RANGE:g} in of it; {CREW_MIN} must go with it (LW-24) - move them too",
                team=len(team),
                gun_name=geom.gun_name(g),
                CREW_RANGE=CREW_RANGE,
                CREW_MIN=CREW_MIN,
            )
        elif plan.gun_check is None and path_length(pts) > limit + 1e-9:
            msg = _(
                "out of range: {gun_name} would need {path_length:.1f} in; with {cav} cavalry in its team it moves at most {limit:g} in (LW-26)",
                gun_name=geom.gun_name(g),
                path_length=path_length(pts),
                cav=cav,
                limit=round(limit, 2),
            )
        if msg:
            plan.errors.append(LineError(o.line, o.text, msg))
            del plan.gun_moves[gid]
        else:
            plan.gun_moves[gid] = pts


def _check_spacing(state: State, plan: Plan) -> None:
    """LW-27: figures stand on their own, 1/16 in apart. The side's figures are checked where the orders
    leave them (moved or deployed ones at the end of their way, the rest where they stand); a clash
    is reported on the line that moved a figure there. Contacts may still stop figures anywhere, so
    two figures already closer than that only may not come closer still."""
    moved = {fid: tuple(pts[-1]) for fid, pts in plan.paths.items()}
    moved.update({fid: tuple(xy) for fid, xy in plan.deploy_figures.items()})
    if not moved:
        return
    figs = state["figures"]
    ids = [i for i, f in figs.items() if f["side"] == plan.side and f["st"] == "ok" or i in moved]
    xy = np.array([moved.get(i, (figs[i]["x"], figs[i]["y"])) for i in ids], dtype=float)
    r = np.array([radius(figs[i]["arm"]) for i in ids])
    tree = STRtree(point_array(xy))
    pairs = tree.query(shapely.points(xy), predicate="dwithin", distance=2 * max(r) + SCENERY_GAP)
    refused: set[int] = set()
    for a, b in zip(*pairs, strict=True):
        ia, ib = ids[a], ids[b]
        if a >= b or (ia not in moved and ib not in moved):
            continue
        gap = math.dist(xy[a], xy[b]) - r[a] - r[b]
        was = math.dist((figs[ia]["x"], figs[ia]["y"]), (figs[ib]["x"], figs[ib]["y"])) - r[a] - r[b]
        if gap >= SCENERY_GAP - 1e-9 or gap >= was - 1e-9:
            continue  # apart enough, or no closer than contact (LW-33) had already left them
        line = max(plan.owner_line.get(i, 0) for i in (ia, ib) if i in moved)  # the later line is at fault
        if line in refused:
            continue  # one error a line is enough to show what is wrong
        refused.add(line)
        plan.errors.append(
            LineError(
                line,
                plan.line_text.get(line, ""),
                _(
                    "{value} and {value2} would stand {gap:.2f} in apart; figures stand on their own, at least 1/16 in apart (LW-27)",
                    value=ia.split(":")[1],
                    value2=ib.split(":")[1],
                    gap=max(gap, 0.0),
                ),
            )
        )
    for fid in [i for i, ln in plan.owner_line.items() if ln in refused]:
        plan.paths.pop(fid, None)  # a refused line is not carried out: its figures stay where they are
        plan.deploy_figures.pop(fid, None)


def errors(state: State, side: str, orders: Sequence[Order]) -> tuple[LineError, ...]:
    return tuple(build_spaced(state, side, orders).errors)

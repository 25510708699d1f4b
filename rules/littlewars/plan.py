"""A side's orders turned into a plan for the turn, with per-line errors (validation).

The same code validates orders before the deadline and prepares them for
adjudication, so what a player is told is exactly what the engine will do.
Group changes (form/split/merge) apply first, in line order, so later lines may
use the new names.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.strtree import STRtree

from rules.core.i18n import _
from rules.core.protocol import LineError

from . import geom, wagons as wagon_rules
from .fold import game_turn_of_play, play_turn
from .orders import Edge, Escort, Fire, Form, Hold, Melee, Merge, Move, Order, Split, Surrender
from .scenario import OPPOSITE, block, zone_error
from .table import path_length, table_of
from .units import (ARM_NAMES, CREW_MIN, CREW_RANGE, FIRST_FIRE_TURN, GUN_SPOT, SCENERY_GAP, gun_pace, gun_range,
                    other, pace, radius)


@dataclass
class Plan:
    side: str
    groups: dict
    groups_changed: bool = False
    paths: dict = field(default_factory=dict)        # figure id -> polyline (own figures and escorted prisoners)
    fire: dict = field(default_factory=dict)         # gun id -> aim points
    gun_moves: dict = field(default_factory=dict)    # gun id -> polyline
    deploy_figures: dict = field(default_factory=dict)
    deploy_guns: dict = field(default_factory=dict)
    wagon_moves: dict = field(default_factory=dict)  # wagon id -> polyline (LW-66/67)
    deploy_wagons: dict = field(default_factory=dict)
    hungry: set | None = None                        # LW-66: own figures out of supply now (computed once)
    surrender: list = field(default_factory=list)    # (group name, figure ids)
    standing: tuple | None = None
    edge: str | None = None                          # LW-2/53: the edge chosen before deployment
    errors: list = field(default_factory=list)
    _owner_line: dict = field(default_factory=dict)  # figure/gun id -> line that ordered it
    move_check: object = None                        # a variant's own range rule: (figure id, path) -> error or None
    gun_check: object = None                         # and for guns, instead of LW-26: (gun id, path) -> error or None
    _line_text: dict = field(default_factory=dict)   # line number -> its text


class _Refused(Exception):
    pass


def build(state: dict, side: str, orders, move_check=None, gun_check=None) -> Plan:
    plan = Plan(side, {k: list(v) for k, v in state["groups"][side].items()}, move_check=move_check,
                gun_check=gun_check)
    phase = state["phase"]
    if phase not in ("edge", "deploy", "play"):
        plan.errors.append(LineError(0, "", _("the game is over") if phase == "over" else _("the game has not started")))
        return plan
    ordered = sorted(orders, key=lambda o: (not isinstance(o, (Form, Split, Merge)), o.line))
    for o in ordered:
        try:
            _apply(state, plan, o)
        except _Refused as exc:
            plan.errors.append(LineError(o.line, o.text, exc.args[0]))  # the marked message itself
    if phase == "play":
        _check_gun_moves(state, plan)
    plan.errors.sort(key=lambda e: e.line)
    return plan


def build_spaced(state: dict, side: str, orders, move_check=None, gun_check=None) -> Plan:
    """``build`` and the 1/16 in between the side's own figures (LW-27). Separate from ``build`` so that
    a rule set whose figures may share a place (the appendix's trains and boxes) can leave it out."""
    plan = build(state, side, orders, move_check, gun_check)
    _check_spacing(state, plan)
    plan.errors.sort(key=lambda e: e.line)
    return plan


def _apply(state, plan, o: Order) -> None:
    if state["phase"] == "edge" or isinstance(o, Edge):
        return _edge(state, plan, o)
    deploying = state["phase"] == "deploy"
    if isinstance(o, Move) and o.deploy != deploying:
        raise _Refused(_("deploy orders are for the deployment turn only") if o.deploy
                       else _("this is the deployment turn: use 'deploy <name> at x,y' or 'deploy <name> line ...'"))
    if deploying and not isinstance(o, (Move, Form, Split, Merge, Melee, Hold)):
        raise _Refused(_("only deploy, form, split, merge and melee orders are allowed while deploying"))
    handler = {Move: _move, Fire: _fire, Split: _split, Merge: _merge, Form: _form, Escort: _escort,
               Surrender: _surrender, Melee: _melee, Hold: lambda s, p, o: None}[type(o)]
    handler(state, plan, o)


def _edge(state, plan, o: Order) -> None:
    if state["phase"] != "edge":
        raise _Refused(_("the edge is chosen before deployment, when the game lets a side choose it"))
    if isinstance(o, Hold):
        return
    if not isinstance(o, Edge):
        raise _Refused(_("now only the edge is chosen: 'edge north', 'edge south', ... or hold"))
    if plan.side != state.get("edge_chooser"):
        raise _Refused(_("{get} chooses the edge, not {side}", get=state.get('edge_chooser'), side=plan.side))
    mine = state["scenario"]["edges"][plan.side]
    if o.edge not in (mine, OPPOSITE[mine]):
        raise _Refused(_("the armies start from the {mine} and {value} edges: choose one of those", mine=mine, value=OPPOSITE[mine]))
    if plan.edge is not None:
        raise _Refused(_("the edge is chosen once"))
    plan.edge = o.edge


# -- names ------------------------------------------------------------------
def _figure(state, side, name):
    fid = f"{side}:{name.lower()}"
    f = state["figures"].get(fid)
    if f is None:
        return None
    if f["st"] != "ok":
        raise _Refused(_("{name} is {value}", name=name, value=_("dead") if f['st'] == 'dead' else _("a prisoner") if f['st'] == 'pow' else _("not in play")))
    return [fid]


def _gun(state, side, name):
    for gid, g in state["guns"].items():
        if geom.gun_name(g).lower() == name.lower() and g["owner"] == side:
            return gid
    return None


def _wagon(state, side, name):
    for wid, w in wagon_rules.live(state, side).items():
        if wagon_rules.name_of(w).lower() == name.lower():
            return wid
    return None


def _group_key(groups, name):
    for k in groups:
        if k.lower() == name.lower():
            return k
    return None


def resolve(state, plan, name) -> tuple[str, object]:
    """("figures", ids) | ("gun", id) | ("pow", (name, ids)); errors name what the name is instead."""
    key = _group_key(plan.groups, name)
    if key is not None:
        return "figures", list(plan.groups[key])
    ids = _figure(state, plan.side, name)
    if ids:
        return "figures", ids
    gid = _gun(state, plan.side, name)
    if gid:
        return "gun", gid
    wid = _wagon(state, plan.side, name)
    if wid:
        return "wagon", wid
    pkey = _group_key(state["pows"][plan.side], name)
    if pkey is not None:
        return "pow", (pkey, list(state["pows"][plan.side][pkey]))
    enemy = other(plan.side)
    if (_group_key(state["groups"][enemy], name) or state["figures"].get(f"{enemy}:{name.lower()}")
            or _gun(state, enemy, name) or _wagon(state, enemy, name)):
        raise _Refused(_("not your figure: {name} belongs to {enemy}", name=name, enemy=enemy))
    if any(g["name"].lower() == name.lower() and g["side"] == plan.side for g in state["guns"].values()):
        raise _Refused(_("{name} is no longer yours: it was captured", name=name))
    lost = next((w for w in state.get("wagons", {}).values()
                 if w["name"].lower() == name.lower() and w["side"] == plan.side), None)
    if lost is not None:
        raise _Refused(_("{name} is no longer yours: it was {value}", name=name, value=_("destroyed") if lost['st'] != 'ok' else _("captured")))
    raise _Refused(_("unknown name '{name}': not one of your groups, figures, guns or prisoner groups", name=name))


def _own_figures(state, plan, name) -> list[str]:
    kind, value = resolve(state, plan, name)
    if kind != "figures":
        what = {"gun": _("gun"), "wagon": _("wagon")}.get(kind) or _("prisoner group")
        raise _Refused(_("{name} is a {what}, not a group of figures", name=name, what=what))
    return value


def _check_claim(plan, ids):
    for i in ids:
        if i in plan._owner_line:
            raise _Refused(_("{value} already has an order on line {value2}", value=i.split(':')[1], value2=plan._owner_line[i]))


def _claim(plan, ids, o):
    _check_claim(plan, ids)
    for i in ids:
        plan._owner_line[i] = o.line
    plan._line_text[o.line] = o.text


# -- group changes ------------------------------------------------------------
def _new_name(state, plan, name):
    if (_group_key(plan.groups, name) or state["figures"].get(f"{plan.side}:{name.lower()}")
            or _gun(state, plan.side, name) or _wagon(state, plan.side, name)):
        raise _Refused(_("the name {name} is already in use", name=name))
    if name[0].lower() in "ic" and name[1:].isdigit():
        raise _Refused(_("{name} looks like a figure name (i12, c3): choose another group name", name=name))
    if re.fullmatch(r"(pow|freed)\d+", name.lower()):
        raise _Refused(_("{name} is reserved for prisoner and freed groups: choose another group name", name=name))


def _take(plan, ids):
    """Remove figures from the groups they are in (a figure belongs to one group)."""
    s = set(ids)
    for k in list(plan.groups):
        kept = [i for i in plan.groups[k] if i not in s]
        if kept:
            plan.groups[k] = kept
        else:
            del plan.groups[k]


def _split(state, plan, o: Split):
    ids = _own_figures(state, plan, o.who)
    _new_name(state, plan, o.new)
    if not 0 < o.count < len(ids):
        raise _Refused(_("{who} has {ids} figures: split off between 1 and {value}", who=o.who, ids=len(ids), value=len(ids) - 1))
    figs = state["figures"]
    if o.near:
        ids = sorted(ids, key=lambda i: (math.dist((figs[i]["x"], figs[i]["y"]), o.near), i))
    chosen = ids[:o.count] if o.near else ids[-o.count:]
    _take(plan, chosen)
    plan.groups[o.new] = chosen
    plan.groups_changed = True


def _merge(state, plan, o: Merge):
    src = _own_figures(state, plan, o.who)
    key = _group_key(plan.groups, o.into)
    if key is None:
        raise _Refused(_("unknown group '{into}' to merge into", into=o.into))
    if key.lower() == o.who.lower():
        raise _Refused(_("a group cannot merge into itself"))
    _take(plan, src)
    plan.groups[key] = plan.groups.get(key, []) + src
    plan.groups_changed = True


def _form(state, plan, o: Form):
    _new_name(state, plan, o.new)
    ids: list[str] = []
    for m in o.members:
        ids += [i for i in _own_figures(state, plan, m) if i not in ids]
    _take(plan, ids)
    plan.groups[o.new] = ids
    plan.groups_changed = True


def _melee(state, plan, o: Melee):
    plan.standing = (o.kill, o.lose)


# -- movement -----------------------------------------------------------------
def head_start(state, side, x, y, r) -> float:
    """LW-7: deployed without the curtain, every figure moves in the first turn "as if it stood exactly on
    the edge line": the way from the edge to where it stands counts against that turn's move."""
    sc = state["scenario"]
    if sc["settings"].get("deployment", "curtain") != "alternate" or play_turn(state) != 1:
        return 0.0
    return max(0.0, table_of(sc).edge_distance(sc["edges"][side], x, y) - r)


def allowance(state, fid) -> float:
    """How far figure ``fid`` may move this turn (LW-17/18, less the LW-7 head start in turn 1)."""
    f = state["figures"][fid]
    return max(0.0, pace(state["scenario"], f["arm"]) - head_start(state, f["side"], f["x"], f["y"], radius(f["arm"])))


def _targets(state, ids, o: Move) -> dict[str, list[tuple[float, float]]]:
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


def route(table, arm, start, waypoints) -> list[tuple[float, float]]:
    pts = [start]
    for w in waypoints:
        leg = table.path(arm, pts[-1], w)
        if not leg:
            return []
        pts += leg[1:]
    return pts


def _move(state, plan, o: Move):
    kind, value = resolve(state, plan, o.who)
    if kind == "pow":
        raise _Refused(_("{who} are prisoners: use 'escort {who} to x,y'", who=o.who))
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
                raise _Refused(_("{value} would pass or end at {value2}: {value3}", value=fid.split(':')[1], value2=err.split(' is ', 1)[0], value3=err.split(' is ', 1)[1]))
        pts = route(table, f["arm"], (f["x"], f["y"]), wps)
        if not pts:
            raise _Refused(_("{value} cannot get there: no way round the scenery", value=fid.split(':')[1]))
        if plan.move_check is not None:  # the Kriegspiel appendix's pace replaces LW-17/18
            err = plan.move_check(fid, pts)
            if err:
                raise _Refused(err)
            paths[fid] = pts
            continue
        length, limit = path_length(pts), allowance(state, fid)
        if length > limit + 1e-9:
            spent = pace(state["scenario"], f["arm"]) - limit
            edge = _(" this turn: measured from the edge line, {spent:.1f} in are spent already (LW-7)", spent=spent) if spent else ""
            raise _Refused(_("out of range: {value} would need {length:.1f} in, {value2} moves at most {limit:g} in (LW-{value3}){edge}", value=fid.split(':')[1], length=length, value2=ARM_NAMES[f['arm']], limit=round(limit, 2), value3=17 if f['arm'] == 'inf' else 18, edge=edge))
        paths[fid] = pts
    _claim(plan, value, o)
    plan.paths.update(paths)


def _deploy(state, plan, o: Move, ids):
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
    for fid, (x, y) in zip(ids, spots):
        err = table.spot_error(figs[fid]["arm"], x, y) or zone_error(sc, plan.side, x, y)
        if err:
            raise _Refused(_("{value} cannot deploy there: {err}", value=fid.split(':')[1], err=err))
    _claim(plan, ids, o)
    plan.deploy_figures.update({fid: [x, y] for fid, (x, y) in zip(ids, spots)})


def _deploy_gun(state, plan, o: Move, gid):
    _claim(plan, [gid], o)
    if o.line_form:
        raise _Refused(_("a gun deploys at one point: deploy gun1 at x,y"))
    x, y = o.points[0]
    err = table_of(state["scenario"]).spot_error(GUN_SPOT, x, y) or zone_error(state["scenario"], plan.side, x, y)
    if err:
        raise _Refused(_("{who} cannot deploy there: {err}", who=o.who, err=err))
    plan.deploy_guns[gid] = [x, y]


def _escort(state, plan, o: Escort):
    kind, value = resolve(state, plan, o.who)
    if kind != "pow":
        raise _Refused(_("{who} is not a group of prisoners you hold; use move for your own figures", who=o.who))
    name, ids = value
    ids = [i for i in ids if not state["figures"][i]["pow"][2]]
    if not ids:
        raise _Refused(_("the prisoners of {name} have all been taken off the table", name=name))
    _check_claim(plan, ids)
    table = table_of(state["scenario"])
    fake = Move(o.line, o.text, o.who, o.points)
    paths = {}
    for fid, wps in _targets(state, ids, fake).items():
        f = state["figures"][fid]  # prisoners walk at the infantry pace, each with its own footprint
        spot = next((e for e in (table.spot_error(f["arm"], *w) for w in wps) if e), None)
        if spot:
            raise _Refused(_("{value} cannot be escorted there: {spot}", value=fid.split(':')[1], spot=spot))
        pts = route(table, f["arm"], (f["x"], f["y"]), wps)
        if not pts or path_length(pts) > pace(state["scenario"], "inf") + 1e-9:
            raise _Refused(_("out of range: prisoners walk at most {pace:g} in a turn, to open ground on the table", pace=pace(state['scenario'], 'inf')))
        paths[fid] = pts
    _claim(plan, ids, o)
    plan.paths.update(paths)


def _surrender(state, plan, o: Surrender):
    ids = _own_figures(state, plan, o.who)
    friends, need = geom.support(state, plan.side, ids)
    if 2 * friends >= len(ids):
        raise _Refused(_("{who} is not isolated: {friends} friends within a move of it (LW-32: fewer than {ceil} needed to surrender, LW-45)", who=o.who, friends=friends, ceil=math.ceil(len(ids) / 2)))
    _claim(plan, ids, o)
    plan.surrender.append((_group_key(plan.groups, o.who) or o.who, ids))


# -- wagons (LW-66/67) ---------------------------------------------------------------
def _supply_check(state, plan, ids):
    """LW-66 (penalty as KS-52): figures out of supply at the start of the turn do not move."""
    if not wagon_rules.on(state):
        return
    if plan.hungry is None:
        plan.hungry = set(wagon_rules.unsupplied(state, plan.side))
    out = [i.split(":")[1] for i in ids if i in plan.hungry]
    if out:
        sc = state["scenario"]
        raise _Refused(_("{value}{value2} out of supply: no supply wagon within {reach:g} in (six moves) has room for them, 50 a wagon (LW-66); troops without supply do not move (as KS-52)", value=', '.join(out[:5]), value2=' ...' if len(out) > 5 else '', reach=wagon_rules.reach(sc, 'supply')))


def _deploy_wagon(state, plan, o: Move, wid):
    _claim(plan, [wid], o)
    if o.line_form:
        raise _Refused(_("a wagon deploys at one point: deploy {who} at x,y", who=o.who))
    x, y = o.points[0]
    err = table_of(state["scenario"]).spot_error(wagon_rules.SPOT, x, y) or zone_error(state["scenario"], plan.side, x, y)
    if err:
        raise _Refused(_("{who} cannot deploy there: {err}", who=o.who, err=err))
    plan.deploy_wagons[wid] = [x, y]


def _plan_wagon_move(state, plan, o: Move, wid):
    """A wagon goes at its horses' walk (12 in, LW-26's foot pace for guns) round the scenery, no escort needed."""
    if o.line_form:
        raise _Refused(_("a wagon moves to a point: move {who} to x,y", who=o.who))
    _check_claim(plan, [wid])
    w = state["wagons"][wid]
    table = table_of(state["scenario"])
    for p in o.points:
        err = table.spot_error(wagon_rules.SPOT, *p)
        if err:
            raise _Refused(_("{who} cannot go there: {err}", who=o.who, err=err))
    pts = route(table, wagon_rules.SPOT, (w["x"], w["y"]), o.points)
    if not pts:
        raise _Refused(_("{who} cannot get there: no way round the scenery", who=o.who))
    spent = head_start(state, w["owner"], w["x"], w["y"], wagon_rules.radius_of())  # LW-7, as for everything
    limit = max(0.0, wagon_rules.wagon_pace(state["scenario"]) - spent)
    if path_length(pts) > limit + 1e-9:
        edge = _(" this turn: measured from the edge line, {spent:.1f} in are spent already (LW-7)", spent=spent) if spent else _(" a turn")
        raise _Refused(_("out of range: {who} would need {path_length:.1f} in; a wagon moves at most {limit:g} in{edge}", who=o.who, path_length=path_length(pts), limit=round(limit, 2), edge=edge))
    _claim(plan, [wid], o)
    plan.wagon_moves[wid] = pts


# -- guns -----------------------------------------------------------------------
def _crew_check(state, gid, what):
    g = state["guns"][gid]
    n = len(geom.crew(state, g["owner"], (g["x"], g["y"])))
    if n < CREW_MIN:
        raise _Refused(_("{gun_name} is not crewed: {n} of your figures within {CREW_RANGE:g} in, {CREW_MIN} needed to {what} (LW-19)", gun_name=geom.gun_name(g), n=n, CREW_RANGE=CREW_RANGE, CREW_MIN=CREW_MIN, what=what))


def _fire(state, plan, o: Fire):
    kind, gid = resolve(state, plan, o.gun)
    if kind != "gun":
        raise _Refused(_("{gun} is not a gun", gun=o.gun))
    first = FIRST_FIRE_TURN
    sc = state["scenario"]
    if sc["kind"] == "defence" and sc["settings"]["defender"] == plan.side:
        first = 1  # LW-55
    if play_turn(state) < first:
        raise _Refused(_("no gun fires before turn {game_turn_of_play} (LW-14: none in the first turn of play)", game_turn_of_play=game_turn_of_play(state, first)))
    if gid in plan._owner_line:
        raise _Refused(_("a gun moves or fires in a turn, not both (LW-20); line {value} already orders it", value=plan._owner_line[gid]))
    _crew_check(state, gid, "fire")
    err = wagon_rules.ammo_error(state, gid)
    if err:
        raise _Refused(err)
    g = state["guns"][gid]
    for x, y in o.aims:
        rng = math.dist((g["x"], g["y"]), (x, y))
        if rng > gun_range(sc):
            raise _Refused(_("out of range: {x:g},{y:g} is {rng:.1f} in from {gun_name}, a gun reaches {gun_range:g} in", x=x, y=y, rng=rng, gun_name=geom.gun_name(g), gun_range=gun_range(sc)))
    _claim(plan, [gid], o)
    plan.fire[gid] = [list(a) for a in o.aims]


def _plan_gun_move(state, plan, o: Move, gid):
    if o.line_form:
        raise _Refused(_("a gun moves to a point: move gun1 to x,y"))
    if gid in plan._owner_line:
        raise _Refused(_("a gun moves or fires in a turn, not both (LW-20); line {value} already orders it", value=plan._owner_line[gid]))
    _crew_check(state, gid, "move")
    g = state["guns"][gid]
    table = table_of(state["scenario"])
    for w in o.points:  # a gun stands where a figure may: on the table, clear of scenery, not on a hill's side
        err = table.spot_error(GUN_SPOT, *w)
        if err:
            raise _Refused(_("{gun_name} cannot go there: {err}", gun_name=geom.gun_name(g), err=err))
    pts = route(table, "cav", (g["x"], g["y"]), list(o.points))
    if not pts:
        raise _Refused(_("{gun_name} cannot get there: no way round the scenery", gun_name=geom.gun_name(g)))
    if plan.gun_check is not None:
        err = plan.gun_check(gid, pts)
        if err:
            raise _Refused(err)
    elif path_length(pts) > gun_pace(state["scenario"], CREW_MIN) + 1e-9:
        raise _Refused(_("out of range: {gun_name} would need {path_length:.1f} in; a gun moves at most {gun_pace:g} in, and only with 4 cavalry (LW-26)", gun_name=geom.gun_name(g), path_length=path_length(pts), gun_pace=gun_pace(state['scenario'], CREW_MIN)))
    _claim(plan, [gid], o)
    plan.gun_moves[gid] = (pts, o)


def _check_gun_moves(state, plan):
    """LW-24/26 against where the plan puts the crew (ignoring contacts, which only shorten moves); a variant
    with its own ``gun_check`` has checked the range already."""
    for gid, (pts, o) in list(plan.gun_moves.items()):
        team = geom.gun_team(state, plan, gid, pts[-1])
        g = state["guns"][gid]
        cav = sum(1 for i in team if state["figures"][i]["arm"] == "cav")
        limit = gun_pace(state["scenario"], cav) - head_start(state, g["owner"], g["x"], g["y"], 0.0)
        msg = None
        if len(team) < CREW_MIN:
            msg = (_("only {team} of {gun_name}'s crew would end within {CREW_RANGE:g} in of it; {CREW_MIN} must go with it (LW-24) - move them too", team=len(team), gun_name=geom.gun_name(g), CREW_RANGE=CREW_RANGE, CREW_MIN=CREW_MIN))
        elif plan.gun_check is None and path_length(pts) > limit + 1e-9:
            msg = (_("out of range: {gun_name} would need {path_length:.1f} in; with {cav} cavalry in its team it moves at most {limit:g} in (LW-26)", gun_name=geom.gun_name(g), path_length=path_length(pts), cav=cav, limit=round(limit, 2)))
        if msg:
            plan.errors.append(LineError(o.line, o.text, msg))
            del plan.gun_moves[gid]
        else:
            plan.gun_moves[gid] = pts


def _check_spacing(state, plan):
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
    tree = STRtree(shapely.points(xy))
    pairs = tree.query(shapely.points(xy), predicate="dwithin", distance=2 * max(r) + SCENERY_GAP)
    refused: set[int] = set()
    for a, b in zip(*pairs):
        ia, ib = ids[a], ids[b]
        if a >= b or (ia not in moved and ib not in moved):
            continue
        gap = math.dist(xy[a], xy[b]) - r[a] - r[b]
        was = math.dist((figs[ia]["x"], figs[ia]["y"]), (figs[ib]["x"], figs[ib]["y"])) - r[a] - r[b]
        if gap >= SCENERY_GAP - 1e-9 or gap >= was - 1e-9:
            continue  # apart enough, or no closer than contact (LW-33) had already left them
        line = max(plan._owner_line.get(i, 0) for i in (ia, ib) if i in moved)  # the later line is at fault
        if line in refused:
            continue  # one error a line is enough to show what is wrong
        refused.add(line)
        plan.errors.append(LineError(line, plan._line_text.get(line, ""),
                                     _("{value} and {value2} would stand {gap:.2f} in apart; figures stand on their own, at least 1/16 in apart (LW-27)", value=ia.split(':')[1], value2=ib.split(':')[1], gap=max(gap, 0.0))))
    for fid in [i for i, ln in plan._owner_line.items() if ln in refused]:
        plan.paths.pop(fid, None)  # a refused line is not carried out: its figures stay where they are
        plan.deploy_figures.pop(fid, None)


def errors(state, side, orders) -> tuple[LineError, ...]:
    return tuple(build_spaced(state, side, orders).errors)

"""Kriegspiel orders checked against the position, on top of the Little Wars plan (plan.py of the main part).

The Little Wars plan is built first (moves, guns, groups); this adds the works, boxes
and volleys and applies the appendix's restrictions to it, naming the line and rule:
- no unit moves and fires in one turn (KS-35): a volley's figures must not move;
- workers do nothing else while they work (works.py);
- a group without food (forage) cannot move, without ammunition cannot fire (KS-51/52);
- a gun out of action (KS-5) neither moves nor fires;
- while the general is away (KS-13, three turns) or the command passes to his deputy
  (KS-14, one turn) the side's units hold: no moves and no new works, fire allowed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.core.i18n import _, message_of
from rules.core.protocol import LineError, State
from rules.littlewars import plan as lw_plan
from rules.littlewars.fold import game_turn_of_play, play_turn
from rules.littlewars.orders import Fire, Move, Order
from rules.littlewars.table import table_of
from rules.littlewars.units import FIRST_FIRE_TURN

from . import charge as charging
from . import guns, pace, vehicles, works
from .blast import rifles_in_line
from .boxes import box_error
from .movement import MoveError, check, ground_of, leaves_table, river_behind, way_home
from .numbers import RIFLE_RANGE
from .orders import (
    Box,
    Carry,
    Charge,
    Drive,
    Limber,
    Reform,
    Saddle,
    Task,
    Volley,
    Work,
    split,
)
from .pace import arm_of
from .version import ks_version


@dataclass
class KsPlan:
    side: str
    lw: lw_plan.Plan
    works: list[Any] = field(default_factory=list)  # {"kind", "ids", "at", "to", "need", "target"}
    drives: dict[str, Any] = field(default_factory=dict)  # depot name -> [x, y]
    steams: dict[str, Any] = field(default_factory=dict)  # vehicle id -> path
    dismounted: list[Any] | None = None  # the side's dismounted figures after this turn
    reforming: dict[str, Any] = field(default_factory=dict)  # figure id -> True (into column) / False (into line)
    boxed: list[Any] | None = None  # the side's boxed groups after this turn, None = unchanged
    volleys: list[Any] = field(default_factory=list)  # (group, ids, aim, shots)
    charges: list[Any] = field(default_factory=list)  # (line, ids, point)
    limbering: dict[str, Any] = field(default_factory=dict)  # gun id -> limber up (True) / unlimber (False), ordered
    limbered: list[Any] = field(default_factory=list)  # the side's guns limbered at the end of the turn (KS-33)
    withdrawn_off: list[str] = field(default_factory=list)  # pursued figures withdrawing off the table (KS-81, v3)
    withdrawn_river: list[str] = field(default_factory=list)  # ... of them, those across a river (KS-81, v4)
    errors: list[Any] = field(default_factory=list)


class _Refused(Exception):
    """An order line this planner refuses."""


def build(state: dict[str, Any], side: str, orders: Sequence[Order]) -> KsPlan:
    lw_orders, ks_orders = split(orders)
    playing = state["phase"] == "play"
    # changes of formation first: they halve this turn's moves, which the planner checks next
    reforming, reform_errors = (
        _reforming(state, side, [o for o in ks_orders if isinstance(o, Reform)]) if playing else ({}, [])
    )
    # limbering likewise halves a gun's move (KS-33); the gunners march with their gun (KS-19)
    limbering, limber_errors = (
        _limbering(state, side, lw_orders, [o for o in ks_orders if isinstance(o, Limber)]) if playing else ({}, [])
    )
    marching = _marching(state, side, lw_orders)
    start = guns.limbered(state, side)
    halves = {gid: guns.move_half_turns(gid in start, limbering.get(gid) is False) for gid in marching}
    crews = guns.gunners(state, side, marching, halves)
    # the appendix's pace (rates, boxes, columns, slopes, fords) instead of LW-17/18 and LW-26, in play
    check = (lambda fid, pts: pace.move_error(state, fid, pts, reforming, crews)) if playing else None
    gun_check = (lambda gid, pts: guns.move_error(state, gid, pts, halves.get(gid, 0))) if playing else None
    base = lw_plan.build_spaced(state, side, lw_orders, move_check=check, gun_check=gun_check)  # LW-27 too
    kp = KsPlan(side, base, reforming=reforming, limbering=limbering)
    kp.errors += reform_errors + limber_errors
    if not playing:
        kp.errors += [
            LineError(o.line, o.text, _("Kriegspiel orders are for turns of play, not deployment")) for o in ks_orders
        ]
        return _done(kp)
    boxed = set(state["ks"]["boxed"][side])
    for o in sorted((o for o in ks_orders if not isinstance(o, (Reform, Limber))), key=lambda o: o.line):
        try:
            if isinstance(o, Work):
                _work(state, kp, o, boxed)
            elif isinstance(o, Box):
                _box(state, kp, o, boxed)
            elif isinstance(o, Volley):
                _volley(state, kp, o, boxed)
            elif isinstance(o, Charge):
                _charge(state, kp, o, boxed)
            elif isinstance(o, Task):
                _task(state, kp, o, boxed)
            elif isinstance(o, Drive):
                _drive(state, kp, o)
            elif isinstance(o, Carry):
                _carry(state, kp, o, boxed)
            elif isinstance(o, Saddle):
                _saddle(state, kp, o, boxed)
        except (_Refused, works.WorkError, charging.ChargeRefused, vehicles.VehicleError) as exc:
            kp.errors.append(LineError(o.line, o.text, message_of(exc)))
    kp.boxed = sorted(g for g in boxed if g in kp.lw.groups)
    _gun_time(state, kp)
    _restrict(state, kp)
    _gunners_without_gun(state, kp, crews)
    kp.limbered = sorted(guns.after_turn(start, set(kp.lw.gun_moves), set(kp.lw.fire), kp.limbering))
    return _done(kp)


# -- artillery: limbering (KS-33) ----------------------------------------------------------------
def _own_gun(state: State, side: str, name: str) -> str | None:
    return lw_plan.gun_of(state, side, name)


def _marching(state: State, side: str, lw_orders: Sequence[Order]) -> dict[str, tuple[Any, ...]]:
    """Guns ordered to move this turn: {gun id: destination}."""
    out: dict[str, tuple[Any, ...]] = {}
    for o in lw_orders:
        if isinstance(o, Move) and not o.deploy and not o.line_form and o.points:
            gid = _own_gun(state, side, o.who)
            if gid is not None:
                out.setdefault(gid, tuple(o.points[-1]))
    return out


def _limbering(
    state: State, side: str, lw_orders: Sequence[Order], orders: Sequence[Limber]
) -> tuple[dict[str, Any], list[Any]]:
    """``limber gun1`` / ``unlimber gun1``: {gun id: up}, and the lines refused (KS-33)."""
    acting = {
        _own_gun(state, side, o.who if isinstance(o, Move) else o.gun) for o in lw_orders if isinstance(o, (Move, Fire))
    } - {None}
    start = guns.limbered(state, side)
    out: dict[str, bool] = {}
    seen: dict[str, int] = {}
    errs: list[LineError] = []
    for o in sorted(orders, key=lambda o: o.line):
        gid = _own_gun(state, side, o.gun)
        why = None
        if gid is None:
            why = f"unknown gun '{o.gun}': not one of your guns"
        elif gid in seen:
            why = f"{o.gun} already has a limber order (line {seen[gid]})"
        elif gid not in acting and o.up == (gid in start):
            why = f"{o.gun} is already {'limbered' if o.up else 'in action'}"
        if why:
            errs.append(LineError(o.line, o.text, why))
            continue
        assert gid is not None  # an unknown gun is refused above
        seen[gid] = o.line
        out[gid] = o.up
    return out, errs


def _gunners_without_gun(state: State, kp: KsPlan, crews: dict[str, Any]) -> None:
    """A gunner marches at the artillery's pace only beside a gun that goes (KS-19): where the gun's
    move was refused, his own pace holds, and a longer move is refused too."""
    for fid, (_x, _y, gid) in sorted(crews.items()):
        if gid in kp.lw.gun_moves or fid not in kp.lw.paths or kp.lw.owner_line.get(fid, 0) == 0:
            continue
        why = pace.move_error(state, fid, kp.lw.paths[fid], kp.reforming)
        if why:
            _refuse_paths(kp, [fid], _("{why}; its gun does not move, so it keeps its own pace", why=why))


def _gun_time(state: State, kp: KsPlan) -> None:
    """A limbered gun unlimbers before it fires, and one limbering up after firing has half the turn: half
    the shots (KS-33)."""
    start = guns.limbered(state, kp.side)
    for gid, aims in sorted(kp.lw.fire.items()):
        why = guns.fire_error(state, gid, len(aims), guns.fire_half_turns(gid in start, kp.limbering.get(gid) is True))
        if why:
            del kp.lw.fire[gid]
            kp.errors.append(_line_error(kp, kp.lw.owner_line.get(gid, 0), why))


_ENEMY_NAME = re.compile(r"^not your figure: (\S+) belongs to \w+$")


def _fogged(e: LineError) -> LineError:
    """Under the fog an error must not confirm that the enemy has a group or gun of that name."""
    m = _ENEMY_NAME.match(e.message)
    if not m:
        return e
    return LineError(
        e.line,
        e.text,
        _("unknown name '{group}': not one of your groups, figures, guns or prisoner groups", group=m.group(1)),
    )


def _done(kp: KsPlan) -> KsPlan:
    kp.errors = sorted((_fogged(e) for e in list(kp.lw.errors) + kp.errors), key=lambda e: e.line)
    return kp


def _figures(state: State, kp: KsPlan, name: str) -> list[str]:
    try:
        kind, value = lw_plan.resolve(state, kp.lw, name)
    except lw_plan.OrderRefused as exc:
        raise _Refused(_fogged(LineError(0, "", message_of(exc))).message) from None
    if kind != "figures":
        raise _Refused(_("{name} is not a group of figures", name=name))
    riding = vehicles.aboard(state)
    if any(i in riding for i in value):
        raise _Refused(
            _(
                "{name} is aboard {value}: land first",
                name=name,
                value=riding[next(i for i in value if i in riding)].split(":")[-1],
            )
        )
    figures: list[str] = value
    return figures


def _claim(kp: KsPlan, ids: list[str], o: Order) -> None:
    try:
        lw_plan.claim_figures(kp.lw, ids, o)
    except lw_plan.OrderRefused as exc:
        raise _Refused(message_of(exc)) from None


def _group_of(kp: KsPlan, fid: str) -> str | None:
    for name, ids in kp.lw.groups.items():
        if fid in ids:
            return name
    return None


def _work(state: State, kp: KsPlan, o: Work, boxed: set[str]) -> None:
    ids = _figures(state, kp, o.who)
    if boxed.intersection(_group_of(kp, i) for i in ids):
        raise _Refused(_("{who} is in a box: unbox before working", who=o.who))
    works.check_start(state, kp.side, o.kind, ids, o.at, o.to)
    at, to = [float(v) for v in o.at], [float(v) for v in o.to] if o.to is not None else None
    # a public event names a work by what it shows (state.locate_work): no two alike in hand
    if any(
        w["kind"] == o.kind
        and list(map(float, w["at"])) == at
        and (list(map(float, w["to"])) if w["to"] is not None else None) == to
        for w in _own_live(state, kp)
    ):
        raise _Refused(
            _("your men already have an {kind} in hand there", kind=o.kind)
            if o.kind[0] in "ae"
            else _("your men already have a {kind} in hand there", kind=o.kind)
        )
    _claim(kp, ids, o)
    kp.works.append({"kind": o.kind, "ids": ids, "at": o.at, "to": o.to, "need": None, "target": None})


def _own_live(state: State, kp: KsPlan) -> list[dict[str, Any]]:
    """The side's works in hand, those ordered on earlier lines of these orders too."""
    return [w for w in state["ks"]["works"].values() if w["side"] == kp.side and w["status"] in works.LIVE] + kp.works


def _task(state: State, kp: KsPlan, o: Task, boxed: set[str]) -> None:
    ids = _figures(state, kp, o.who)
    if boxed.intersection(_group_of(kp, i) for i in ids):
        raise _Refused(_("{who} is in a box: unbox before working", who=o.who))
    if o.task in works.DEPOT_TASKS:
        target = works.depot_at(state, kp.side, ids, o.at)
    elif o.task in works.RAIL_TASKS:
        target = works.rail_spot(state, o.task, o.target, o.at)
    else:
        target = o.target
    need = works.check_task(state, kp.side, o.task, ids, target, {i: arm_of(state, i) for i in ids})
    if any(w.get("target") == target and w["kind"] in works.TASKS for w in _own_live(state, kp)):
        raise _Refused(_("your men are already at work on it"))
    c = works.task_target(state, kp.side, o.task, target).centroid
    _claim(kp, ids, o)
    kp.works.append({"kind": o.task, "ids": ids, "at": (c.x, c.y), "to": None, "need": need, "target": target})


def _drive(state: State, kp: KsPlan, o: Drive) -> None:
    """KS-20, KS-38, KS-39: a depot moves at the transport's pace, never across a river."""
    depots = state["ks"]["supply"][kp.side]["depots"]
    if o.depot not in depots:
        raise _Refused(
            _(
                "you have no depot {depot} (depots: {value})",
                depot=repr(o.depot),
                value=", ".join(sorted(depots)) or "none",
            )
        )
    if o.depot in kp.drives:
        raise _Refused(_("depot {depot} already has an order", depot=o.depot))
    d = depots[o.depot]
    table = table_of(state["scenario"])
    err = table.spot_error("cav", *o.to)
    if err:
        raise _Refused(_("the wagons cannot stand there: {err}", err=err))
    pts = table.path("cav", (d["x"], d["y"]), tuple(o.to))
    if not pts:
        raise _Refused(_("the wagons cannot get there: no way round the scenery"))
    try:
        check(ground_of(state["scenario"]), "transport", pts, on_ground=ks_version(state) >= 4)
    except MoveError as exc:
        raise _Refused(_("depot {depot}: {exc}", depot=o.depot, exc=message_of(exc))) from None
    kp.drives[o.depot] = [round(o.to[0], 4), round(o.to[1], 4)]


def _box(state: State, kp: KsPlan, o: Box, boxed: set[str]) -> None:
    key = lw_plan.group_key(kp.lw.groups, o.who)
    if key is None:
        raise _Refused(_("unknown group '{who}': only a group of yours is boxed", who=o.who))
    if not o.boxed:
        if key not in boxed:
            raise _Refused(_("{key} is not in a box", key=key))
        boxed.discard(key)
        return
    if key in boxed:
        raise _Refused(_("{key} is already in a box", key=key))
    err = box_error(state, kp.side, key, kp.lw.groups[key], state["ks"]["scouts"][kp.side])
    if err:
        raise _Refused(err)
    boxed.add(key)


def _volley(state: State, kp: KsPlan, o: Volley, boxed: set[str]) -> None:
    if play_turn(state) < FIRST_FIRE_TURN:
        raise _Refused(
            _(
                "no fire before turn {game_turn_of_play} (LW-14: none in the first turn of play)",
                game_turn_of_play=game_turn_of_play(state, FIRST_FIRE_TURN),
            )
        )
    key = lw_plan.group_key(kp.lw.groups, o.who)
    if key is None:
        raise _Refused(_("unknown group '{who}': a volley is fired by one of your groups", who=o.who))
    if key in boxed:
        raise _Refused(_("{key} is in a box: men in a box cannot fire", key=key))
    status = _supply_status(state, kp, key)
    if status and not status.get("can_fire", True):
        raise _Refused(_("{key} has no ammunition (KS-51)", key=key))
    figs = state["figures"]
    ids = [i for i in kp.lw.groups[key] if figs[i]["arm"] == "inf" and figs[i]["st"] == "ok"]
    moving = [i for i in ids if i in kp.lw.paths]
    if moving:
        raise _Refused(
            _(
                "{key} moves this turn (line {value}): no unit moves and fires in the same turn (KS-35)",
                key=key,
                value=kp.lw.owner_line[moving[0]],
            )
        )
    pts = [(figs[i]["x"], figs[i]["y"]) for i in ids]
    shots, why = rifles_in_line(pts)
    if why:
        raise _Refused(why)
    cx, cy = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    if math.dist((cx, cy), o.aim) > RIFLE_RANGE:
        raise _Refused(_("out of range: rifles reach {value:g} ft", value=RIFLE_RANGE / 12))
    _claim(kp, ids, o)
    kp.volleys.append((key, ids, list(o.aim), shots))


def _charge(state: State, kp: KsPlan, o: Charge, boxed: set[str]) -> None:
    ids = _figures(state, kp, o.who)
    if set(ids) & set(state["ks"]["columns"][kp.side]) or any(kp.reforming.get(i) for i in ids):
        raise _Refused(_("{who} is in column: cavalry charge in line (KS-69)", who=o.who))
    if set(ids) & set(state["ks"]["dismounted"][kp.side]):
        raise _Refused(_("{who} is on foot: mount first (KS-32)", who=o.who))
    if boxed.intersection(_group_of(kp, i) for i in ids):
        raise _Refused(_("{who} is in a box: men in a box cannot charge", who=o.who))
    charging.seen_target(state, kp.side, ids, o.at)
    _claim(kp, ids, o)
    kp.charges.append((o.line, ids, tuple(o.at)))


def _reforming(state: State, side: str, orders: Sequence[Reform]) -> tuple[dict[str, Any], list[Any]]:
    """KS-27/31: {figure: into column?} for the groups changing formation (half a turn), and errors."""
    out: dict[str, bool] = {}
    errors: list[LineError] = []
    columns = set(state["ks"]["columns"][side])
    for o in sorted(orders, key=lambda o: o.line):
        key = lw_plan.group_key(state["groups"][side], o.who)
        ids = [i for i in state["groups"][side].get(key, []) if state["figures"][i]["st"] == "ok"]
        why = None
        if key is None:
            why = f"unknown group '{o.who}' (a group formed this turn changes formation next turn)"
        elif key in state["ks"]["boxed"][side]:
            why = f"{key} is in a box: unbox first"
        elif o.column == (set(ids) <= columns):
            why = f"{key} is in {'column' if o.column else 'line'} already"
        elif set(ids) & set(out):
            why = f"{key} already changes formation this turn"
        if why:
            errors.append(LineError(o.line, o.text, why))
        else:
            out.update(dict.fromkeys(ids, o.column))
    return out, errors


def _saddle(state: State, kp: KsPlan, o: Saddle, boxed: set[str]) -> None:
    """KS-32: mounting or dismounting takes the group's whole turn."""
    ids = _figures(state, kp, o.who)
    if any(state["figures"][i]["arm"] != "cav" for i in ids):
        raise _Refused(_("{who} has men without horses: only cavalry mount and dismount", who=o.who))
    if boxed.intersection(_group_of(kp, i) for i in ids):
        raise _Refused(_("{who} is in a box: unbox first", who=o.who))
    now = set(kp.dismounted if kp.dismounted is not None else state["ks"]["dismounted"][kp.side])
    if o.mount and not set(ids) <= now:
        raise _Refused(_("{who} is mounted already", who=o.who))
    if not o.mount and set(ids) & now:
        raise _Refused(_("{who} is on foot already", who=o.who))
    _claim(kp, ids, o)
    kp.dismounted = sorted(now - set(ids) if o.mount else now | set(ids))


def _carry(state: State, kp: KsPlan, o: Carry, boxed: set[str]) -> None:
    """Boarding, a journey, a landing (vehicles.py)."""
    if o.how == "board":
        ids = _figures(state, kp, o.who)
        if boxed.intersection(_group_of(kp, i) for i in ids):
            raise _Refused(_("{who} is in a box: unbox before boarding", who=o.who))
        vid, need = vehicles.board_turns(state, kp.side, o.vehicle, ids)
        if vid in kp.steams or any(w["target"] == vid for w in kp.works):
            raise _Refused(_("{vehicle} already has an order", vehicle=o.vehicle))
        v = state["ks"]["vehicles"][vid]
        _claim(kp, ids, o)
        kp.works.append({"kind": "board", "ids": ids, "at": (v["x"], v["y"]), "to": None, "need": need, "target": vid})
    elif o.how == "land":
        vid, need, spots = vehicles.landing(state, kp.side, o.vehicle, o.at)
        if any(w["target"] == vid for w in kp.works) or vid in kp.steams:
            raise _Refused(_("{vehicle} already has an order", vehicle=o.vehicle))
        kp.works.append(
            {
                "kind": "land",
                "ids": sorted(spots),
                "at": tuple(o.at),
                "to": None,
                "need": need,
                "target": vid,
                "spots": spots,
            }
        )
    else:
        vid, pts = vehicles.route(state, kp.side, o.vehicle, o.at)
        if vid in kp.steams or any(w["target"] == vid for w in kp.works):
            raise _Refused(_("{vehicle} already has an order", vehicle=o.vehicle))
        kp.steams[vid] = pts


def _refuse_paths(kp: KsPlan, fids: Iterable[str], why: str) -> None:
    """Take figures' moves out of the plan, with one error per order line."""
    lines: dict[int, str] = {}
    for fid in fids:
        if fid in kp.lw.paths:
            del kp.lw.paths[fid]
            lines.setdefault(kp.lw.owner_line.get(fid, 0), fid)  # 0: a move the rules forced
    for line in sorted(lines):
        kp.errors.append(_line_error(kp, line, why))


def _restrict(state: State, kp: KsPlan) -> None:
    """The appendix's limits on a plan otherwise legal: the general away, supply, charges' and
    pursuits' after-effects, riders, guns out of action."""
    _general_away(state, kp)
    _unsupplied(state, kp)
    _after_charges(state, kp)
    _pursuit(state, kp)
    _pursued_guns(state, kp)
    riding = vehicles.aboard(state)
    for vid in sorted(set(riding.values())):
        _refuse_paths(kp, [f for f in kp.lw.paths if riding.get(f) == vid], f"aboard {vid.split(':')[-1]}: land first")
    _guns_out(state, kp)


def _line_error(kp: KsPlan, line: int, message: str) -> LineError:
    return LineError(line, kp.lw.line_text.get(line, ""), message)


def _general_away(state: State, kp: KsPlan) -> None:
    """KS-13/14: while the general is away (or command passes to his deputy) units hold."""
    gen = state["ks"]["generals"][kp.side]
    if gen["out_until"] <= state["turn"]:
        return
    why = f"the general is away until turn {gen['out_until']} (KS-13/14): units hold and may fire, but do not move"
    _refuse_paths(kp, list(kp.lw.paths), why)
    kp.errors += [_line_error(kp, line, why) for line, _, _ in kp.charges]
    kp.errors += [_line_error(kp, kp.lw.owner_line.get(w["ids"][0], 0), why) for w in kp.works]
    kp.works, kp.charges = [], []


def _unsupplied(state: State, kp: KsPlan) -> None:
    """KS-52: a group without food (or forage for its horses) does not move or charge."""
    for name, ids in kp.lw.groups.items():
        st = _supply_status(state, kp, name)
        if not st or st["can_move"]:
            continue
        why = f"{name} has no food or forage and cannot move (KS-52)"
        _refuse_paths(kp, ids, why)
        kp.errors += [_line_error(kp, line, why) for line, cids, _ in kp.charges if set(cids) & set(ids)]
        kp.charges = [c for c in kp.charges if not set(c[1]) & set(ids)]


def _supply_status(state: State, kp: KsPlan, key: str) -> dict[str, Any]:
    """The supply status (KS-51/52) group ``key`` of this turn's plan acts under, {} if none.

    Version 3: the status its men brought from the groups they began the turn in, so a group split
    off, formed or merged into carries its parents' supply for the turn (it moves only if every
    parent may, fires only if every parent may). Versions 1 and 2 looked it up by the group's name,
    which a group split off this turn does not have yet."""
    status: dict[str, Any] = state["ks"]["supply"][kp.side]["status"]
    if ks_version(state) < 3:
        found: dict[str, Any] = status.get(key, {})
        return found
    members = set(kp.lw.groups.get(key, ()))
    parents = [
        st for g, ids in sorted(state["groups"][kp.side].items()) if members & set(ids) and (st := status.get(g))
    ]
    if not parents:
        return {}
    return {
        "can_move": all(st["can_move"] for st in parents),
        "can_fire": all(st.get("can_fire", True) for st in parents),
    }


def _guns_out(state: State, kp: KsPlan) -> None:
    """KS-5: a gun partly in a blast is out of action for two turns."""
    out = state["ks"]["guns_out"]
    for gid in sorted(set(kp.lw.fire) | set(kp.lw.gun_moves) | set(kp.limbering)):
        if out.get(gid, 0) > state["turn"]:
            kp.lw.fire.pop(gid, None)
            kp.lw.gun_moves.pop(gid, None)
            kp.limbering.pop(gid, None)
            kp.errors.append(
                _line_error(
                    kp,
                    kp.lw.owner_line.get(gid, 0),
                    f"{state['guns'][gid]['name']} is out of action until turn {out[gid]} (KS-5)",
                )
            )


def _after_charges(state: State, kp: KsPlan) -> None:
    """KS-72/73: infantry charged in close order cannot move this turn; in open order it falls back 1 ft."""
    figs = state["figures"]
    shaken = {
        fid: e
        for fid, e in state["ks"]["shaken"].items()
        if e["turn"] == state["turn"] and figs[fid]["side"] == kp.side and figs[fid]["st"] == "ok"
    }
    hold = [fid for fid, e in shaken.items() if e["effect"] == "hold"]
    _refuse_paths(kp, hold, "charged in close order last turn: it cannot move this turn (KS-72)")
    back = sorted(fid for fid, e in shaken.items() if e["effect"] == "fall_back")
    _refuse_paths(kp, back, "charged in open order last turn: it falls back 1 ft instead (KS-73)")
    for fid in back:
        f = figs[fid]
        pts = way_home(state, kp.side, (f["x"], f["y"]), charging.FALL_BACK, f["arm"])
        if pts:
            kp.lw.paths[fid] = pts


def _pursuit(state: State, kp: KsPlan) -> None:
    """KS-80/84: the pursued withdraw again at full pace towards their edge, unless their side attacks
    the pursuers this turn (a charge, volley or gun aimed within 6 in of one of them)."""
    figs = state["figures"]
    pursued = {
        fid: e
        for fid, e in state["ks"].get("pursued", {}).items()
        if e["turn"] == state["turn"] and figs[fid]["side"] == kp.side and figs[fid]["st"] == "ok"
    }
    if not pursued or _pursuers_attacked(state, kp, pursued):
        return  # no one left to pursue them, or their friends fall on the pursuers
    back = sorted(pursued)
    _refuse_paths(kp, back, "pursued by cavalry: it keeps withdrawing (KS-80/84) unless the pursuers are attacked")
    for fid in back:
        f = figs[fid]
        if ks_version(state) >= 3 and leaves_table(state, kp.side, (f["x"], f["y"]), pace.speed(state, fid), f["arm"]):
            kp.withdrawn_off.append(fid)  # KS-81: destroyed in the movement (turn._withdrawn_off)
            continue
        pts = way_home(state, kp.side, (f["x"], f["y"]), pace.speed(state, fid), f["arm"])
        if pts:
            kp.lw.paths[fid] = pts
        elif ks_version(state) >= 4 and river_behind(state, kp.side, (f["x"], f["y"]), pace.speed(state, fid)):
            kp.withdrawn_off.append(fid)  # KS-81, version 4: only across an unfordable river
            kp.withdrawn_river.append(fid)


def _pursuers_attacked(state: State, kp: KsPlan, pursued: dict[str, Any]) -> bool:
    """True when no pursuer is left or the side attacks one this turn (a charge, volley or gun aimed
    within 6 in of one of them): the pursuit is over (KS-80/84/86)."""
    figs = state["figures"]
    hunters = [(figs[i]["x"], figs[i]["y"]) for e in pursued.values() for i in e["by"] if figs[i]["st"] == "ok"]
    aims = [tuple(c[2]) for c in kp.charges] + [tuple(v[2]) for v in kp.volleys]
    aims += [tuple(a) for shots in kp.lw.fire.values() for a in shots]
    return not hunters or any(math.dist(a, h) <= charging.TARGET_REACH for a in aims for h in hunters)


def _pursued_guns(state: State, kp: KsPlan) -> None:
    """KS-86: guns that withdrew before a charge keep withdrawing, with their crews, while pursued."""
    pursued = {
        gid: e
        for gid, e in state["ks"].get("pursued_guns", {}).items()
        if e["turn"] == state["turn"] and gid in state["guns"] and state["guns"][gid]["owner"] == kp.side
    }
    if not pursued or _pursuers_attacked(state, kp, pursued):
        return
    why = "pursued by cavalry: the gun keeps withdrawing with its crew (KS-86) unless the pursuers are attacked"
    for gid in sorted(pursued):
        for table in (kp.lw.fire, kp.lw.gun_moves):
            if gid in table:
                del table[gid]
                kp.errors.append(_line_error(kp, kp.lw.owner_line.get(gid, 0), why))
        kp.limbering.pop(gid, None)
        pts, crew_paths = guns.withdrawal(state, gid)
        if not pts:
            continue
        _refuse_paths(kp, sorted(crew_paths), why)
        kp.lw.gun_moves[gid] = pts
        kp.lw.paths.update(crew_paths)


def errors(state: State, side: str, orders: Sequence[Order]) -> tuple[LineError, ...]:
    return tuple(build(state, side, orders).errors)

"""The movement phase of one player turn, worked out before anything is rolled.

``plan(state, side, orders)`` checks every line and returns the poses the orders lead to,
with errors naming the lines that cannot be carried out. The same function validates
orders when they are submitted and moves the units when the turn is adjudicated, so a
turn never does what validation did not see.

Order of resolution (documented in RULES.md): charges first, grouped by target in the
order of each target's first charge line, then all other moves in line order, each
checked against the units where the earlier lines left them.

From version 3 the plan is final: every line it refuses stands where it is in the plan, and
every line it carries out was checked against those that stand, so the turn refuses exactly
the lines ``validate`` names (issue 33). The chargers of one side of a target are worked out
together (``_charge_side_v3``). Versions 1 and 2 planned again without the refused lines
(``adjudicate.settle``), and that could refuse more.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from rules.core.i18n import _, gettext_noop
from rules.core.protocol import LineError

from . import geom
from .battlefield import Battlefield, Sighter, battlefield_of, sighter_for
from .orders import Order
from .profiles import profile, weapon
from .version import rules_version

AREA_EPS = geom.AREA_EPS  # square inches: less overlap than this is touching (terrain; units: geom.overlaps)
ENEMY_GAP = 1.0  # house (published rule): no unit ends a non-charge move within 1 in of an enemy
MAX_PIVOT = 90  # house: Advance allows one pivot of up to 90 degrees about the centre
CONTACT_EPS = 1e-3  # inches of shared side needed for contact: less is corner to corner (KW-4)
MAX_GROUPINGS = 4096  # version 3: the most groupings of one side's chargers looked at (see _charge_side_v3)

# Version 3: a charge that would stop another of the same massed charge (its reason is kept in
# English in the log, as every refusal, and read back into the reader's language: describe.py).
CANNOT_JOIN = gettext_noop("{unit} cannot join the charge on {target}: with it, {reason}; give it another order (KW-3)")


@dataclass
class Move:
    order: Order
    pose: dict[str, Any]
    hindered: bool = False
    side: str | None = None  # the target's side charged


@dataclass
class Plan:
    side: str
    poses: dict[str, Any]  # uid -> unit dict after movement (all units)
    occupancy: geom.Occupancy
    version: int  # the game's rules version (version.rules_version)
    moves: list[Move] = field(default_factory=list)
    shots: list[tuple[Order, Order | None]] = field(default_factory=list)  # (shot, the unit's move order)
    errors: list[LineError] = field(default_factory=list)

    def err(self, o: Order, msg: str) -> None:
        self.errors.append(LineError(o.line, o.text, msg))

    def refused(self, line: int) -> bool:
        return any(e.line == line for e in self.errors)


def prof(u: dict[str, Any]) -> dict[str, Any]:
    return profile(u["army"], u["type"])


def alive(u: dict[str, Any]) -> bool:
    return bool(u["status"] != "routed")


def plan(state: dict[str, Any], side: str, orders: Sequence[Order]) -> Plan:
    units = {k: dict(v) for k, v in state["units"].items() if alive(v)}
    p = Plan(side, units, geom.Occupancy(units), rules_version(state))
    field_ = battlefield_of(state["scenario"])
    given: dict[str, Order] = {}
    shoots: dict[str, Order] = {}
    for o in orders:
        msg = _who(state, side, o)
        if msg:
            p.err(o, msg)
            continue
        seen = given if o.is_move else shoots
        if o.unit in seen:
            p.err(o, f"{o.unit} already has an order on line {seen[o.unit].line}")
            continue
        seen[o.unit] = o
    sighter = sighter_for(state, units)
    charges = [o for o in given.values() if o.is_charge]
    for target in dict.fromkeys(o.target for o in charges):
        _charge_group(p, state, field_, sighter, [o for o in charges if o.target == target])
    for o in given.values():
        if not o.is_charge:
            _move(p, state, field_, o)
    for o in shoots.values():
        _check_shot(p, state, given.get(o.unit), o)
    return p


def _who(state: dict[str, Any], side: str, o: Order) -> str | None:
    u = state["units"].get(o.unit)
    if u is None:
        return f"no unit '{o.unit}' (yours: {', '.join(own_ids(state, side))})"
    if u["side"] != side:
        return f"{o.unit} is not yours"
    if not alive(u):
        return f"{o.unit} has routed and left the field"
    if o.target is not None:
        t = state["units"].get(o.target)
        if t is None or t["side"] == side:
            return f"no enemy unit '{o.target}'"
        if not alive(t):
            return f"{o.target} has routed and left the field"
    if u["status"] == "wavering" and (o.verb in ("charge", "counter", "double", "shoot") or o.dist > 0):
        return f"{o.unit} is wavering: it may only halt or pivot in place this turn (house Nerve rule)"
    return None


def own_ids(state: dict[str, Any], side: str) -> list[str]:
    return sorted(k for k, u in state["units"].items() if u["side"] == side and alive(u))


# -- ordinary moves ---------------------------------------------------------------------


def _move(p: Plan, state: dict[str, Any], field_: Battlefield, o: Order) -> None:
    u = p.poses[o.unit]
    sp = prof(u)["sp"]
    if o.verb == "halt":
        p.moves.append(Move(o, u))
        return
    limit = sp if o.verb == "advance" else 2 * sp
    if o.dist > limit + 1e-9:
        p.err(o, f"{o.unit} may {o.verb} at most {limit:g} in (Speed {sp})")
        return
    if abs(o.pivot) > MAX_PIVOT:
        p.err(o, f"a pivot is at most {MAX_PIVOT} degrees")
        return
    turned = geom.moved(u, pivot=o.pivot)
    end = geom.moved(turned, forward=o.dist)
    msg = _path_error(p, field_, o.unit, geom.sweep(turned, end), geom.base(end), no_rough=o.verb == "double")
    if msg:
        p.err(o, msg)
        return
    near = _enemy_within(p, o.unit, geom.base(end), ENEMY_GAP)
    if near:
        p.err(o, f"{o.unit} would end within {ENEMY_GAP:g} in of enemy {near}: only a charge may close that far")
        return
    _set(p, o.unit, end)
    p.moves.append(Move(o, end))


def _path_error(
    p: Plan,
    field_: Battlefield,
    uid: str,
    swept: BaseGeometry,
    final: Polygon,
    no_rough: bool = False,
    ignore: Iterable[str] = (),
) -> str | None:
    if field_.off_table(final):
        return f"{uid} would leave the table (its edge is impassable, KW-12)"
    for piece in field_.touching(swept):
        if piece.shape.intersection(swept).area <= AREA_EPS:
            continue
        if piece.impassable:
            return f"{uid}'s path crosses impassable terrain '{piece.id}' (KW-12/15)"
        if no_rough and piece.hinders:
            return f"{uid} cannot go At the Double through {piece.kind} '{piece.id}' (KW-13/14)"
    for oid in p.occupancy.near(swept):
        if oid == uid or oid in ignore:
            continue
        if geom.overlaps(geom.base(p.poses[oid]), swept, p.version):
            return f"{uid}'s path runs into {oid}"
    return None


def _set(p: Plan, uid: str, pose: dict[str, Any]) -> None:
    p.poses[uid] = pose
    p.occupancy.put(uid, pose)


def _enemy_within(p: Plan, uid: str, shape: BaseGeometry, gap: float, ignore: Iterable[str] = ()) -> str | None:
    side = p.poses[uid]["side"]
    for oid in p.occupancy.near(shape, gap):
        other = p.poses[oid]
        if other["side"] != side and oid not in ignore and geom.base(other).distance(shape) < gap - 1e-9:
            return oid
    return None


# -- charges ----------------------------------------------------------------------------


def _charge_group(p: Plan, state: dict[str, Any], field_: Battlefield, sighter: Sighter, group: list[Order]) -> None:
    assert group[0].target is not None  # the parser gives every charge its target
    target = p.poses[group[0].target]
    by_side: dict[str, list[Order]] = {}
    for o in group:
        msg = _charge_rights(state, sighter, o)
        if msg:
            p.err(o, msg)
            continue
        u = p.poses[o.unit]
        by_side.setdefault(geom.arc_of(target, (u["x"], u["y"]), sighter.arcs), []).append(o)
    for tside, orders in by_side.items():
        if p.version >= 3:
            _charge_side_v3(p, field_, target, tside, orders)
        else:
            _charge_side(p, field_, target, tside, orders)


def _charge_rights(state: dict[str, Any], sighter: Sighter, o: Order) -> str | None:
    assert o.target is not None  # the parser gives every charge its target
    u, t = state["units"][o.unit], state["units"][o.target]
    if o.verb == "counter":
        if o.target not in u.get("charged_by", []):
            return (
                f"{o.unit} may counter-charge only a unit that charged it in the enemy's last turn "
                f"(KW-6/7); {o.target} did not"
            )
        return None
    if not geom.partly_in_front(u, geom.base(t), sighter.arcs):
        return f"{o.target} is not in {o.unit}'s front arc"
    if not sighter.sight(o.unit, o.target).los:
        return f"{o.unit} cannot see {o.target}"
    return None


def _slots(lengths: list[float], side_len: float) -> list[float]:
    """Centres along a side (0 = its middle) for chargers of these frontages, in order:
    evenly spread when they fit (KW-2), else packed side by side about the middle."""
    total = sum(lengths)
    gap = (side_len - total) / (len(lengths) + 1) if total <= side_len else 0.0
    pos = -side_len / 2 + gap if total <= side_len else -total / 2
    out = []
    for w in lengths:
        out.append(pos + w / 2)
        pos += w + gap
    return out


def _contacts(p: Plan, orders: list[Order], proj: dict[str, Any], length: float) -> tuple[list[float], list[float]]:
    """Centres along the side and the length of side each charger touches. One charger slides
    to the most contact nearest its own position; several share the side (``_slots``)."""
    widths = [p.poses[o.unit]["w"] for o in orders]
    if len(orders) == 1:
        room = abs(length - widths[0]) / 2
        centres = [min(max(proj[orders[0].unit], -room), room)]
    else:
        centres = _slots(widths, length)
    touch = [min(c + w / 2, length / 2) - max(c - w / 2, -length / 2) for c, w in zip(centres, widths, strict=True)]
    return centres, touch


def _charge_side(p: Plan, field_: Battlefield, target: dict[str, Any], tside: str, orders: list[Order]) -> None:
    a, b = (np.array(x) for x in geom.side_segment(target, tside))
    length = float(np.linalg.norm(b - a))
    along = (b - a) / length
    mid = (a + b) / 2
    proj = {o.unit: float((np.array([p.poses[o.unit]["x"], p.poses[o.unit]["y"]]) - mid) @ along) for o in orders}
    accepted: list[Order] = []
    for o in orders:  # in line order, while there is room (KW-3/4)
        trial = sorted(accepted + [o], key=lambda q: (proj[q.unit], q.line))
        if all(c >= CONTACT_EPS for c in _contacts(p, trial, proj, length)[1]):
            accepted.append(o)
        else:
            p.err(
                o,
                f"no room on {o.target}'s {tside} side for {o.unit} as well: it would touch corner to corner "
                f"at most; give it another order (KW-3/4)",
            )
    while True:
        accepted.sort(key=lambda q: (proj[q.unit], q.line))
        centres, _ = _contacts(p, accepted, proj, length)
        ends = {o.unit: mid + c * along for o, c in zip(accepted, centres, strict=True)}
        crossed = _crossing(p, sorted(accepted, key=lambda q: q.line), ends)
        if crossed is None:
            break
        o, first = crossed
        p.err(o, f"{o.unit}'s charge path would cross {first.unit}'s (KW-5); give it another order")
        accepted.remove(o)
    inward = round(math.degrees(math.atan2(along[0], -along[1])) % 360, 6)  # "along" is the charger's right
    starts = {o.unit: p.poses[o.unit] for o in accepted}
    for o in accepted:  # a massed charge moves together: paths meet the others' end positions, not their starts
        _set(
            p,
            o.unit,
            dict(starts[o.unit], x=round(float(ends[o.unit][0]), 6), y=round(float(ends[o.unit][1]), 6), facing=inward),
        )
    together = {o.unit for o in accepted}  # they line up together; only their paths may not cross (KW-5)
    for o in sorted(accepted, key=lambda q: q.line):
        _place_charger(p, field_, o, target, tside, starts[o.unit], together)


def _charge_side_v3(p: Plan, field_: Battlefield, target: dict[str, Any], tside: str, orders: list[Order]) -> None:
    """Version 3 (issue 33): the charges on one side of a target, worked out together.

    The lines are taken in line order: each is carried out if some grouping of chargers can all
    charge together (``trouble`` finds nothing) made of it, the earlier lines carried out and any
    of the later ones; otherwise it is refused, and its unit stays where it is, in the way of the
    others. In such a grouping each charger has room (KW-3/4, at its place by ``_contacts`` for that
    grouping: a lone charger gets the most contact), no two leader-point paths cross (KW-5), and
    each is within reach with its swept path clear of terrain, the table edge and every unit but
    the target and the grouping's own chargers, which move together. The lines carried out form
    such a grouping, so none of them is refused afterwards, and each refused line is refused for
    what stops it joining them (``trouble`` with it added)."""
    a, b = (np.array(x) for x in geom.side_segment(target, tside))
    length = float(np.linalg.norm(b - a))
    along = (b - a) / length
    mid = (a + b) / 2
    inward = round(math.degrees(math.atan2(along[0], -along[1])) % 360, 6)  # "along" is the charger's right
    starts = {o.unit: p.poses[o.unit] for o in orders}
    proj = {o.unit: float((np.array([starts[o.unit]["x"], starts[o.unit]["y"]]) - mid) @ along) for o in orders}

    def placed(group: Sequence[Order]) -> tuple[dict[str, Any], bool]:
        """Each charger's leader point on the side, and whether each has room (KW-3/4)."""
        lined = sorted(group, key=lambda q: (proj[q.unit], q.line))
        centres, touch = _contacts(p, lined, proj, length)
        points = {q.unit: mid + c * along for q, c in zip(lined, centres, strict=True)}
        return points, all(t >= CONTACT_EPS for t in touch)

    def pose(o: Order, point: Any) -> dict[str, Any]:
        return dict(starts[o.unit], x=round(float(point[0]), 6), y=round(float(point[1]), 6), facing=inward)

    def trouble(group: Sequence[Order], blame: Order | None = None) -> str | None:
        """What stops ``group`` charging this side together (said of ``blame``, a line joining it)."""
        by_line = sorted(group, key=lambda q: q.line)
        points, room = placed(group)
        if not room:
            return _no_room(blame or by_line[-1], target, tside)
        crossed = _crossing(p, by_line, points)
        if crossed is not None:
            later, first = crossed
            if blame is None or blame in crossed:
                o, other = (later, first) if blame in (None, later) else (first, later)
                return f"{o.unit}'s charge path would cross {other.unit}'s (KW-5); give it another order"
            return _joining(blame, f"{later.unit}'s charge path would cross {first.unit}'s (KW-5)")
        moving = {q.unit for q in group}
        for q in sorted(by_line, key=lambda q: q is not blame):  # the joining line first
            msg = _charger_trouble(p, field_, q, target, starts[q.unit], pose(q, points[q.unit]), moving)
            if msg:
                return msg if blame is None or q is blame else _joining(blame, msg)
        return None

    looked: dict[frozenset[int], bool] = {}
    measured = [0]  # groupings whose paths were measured (MAX_GROUPINGS)

    def fits(group: Sequence[Order]) -> bool:
        key = frozenset(q.line for q in group)
        if key not in looked:
            looked[key] = False
            if placed(group)[1] and measured[0] < MAX_GROUPINGS:  # room first: it needs no geometry
                measured[0] += 1
                looked[key] = trouble(group) is None
        return looked[key]

    most = _most_chargers([starts[o.unit]["w"] for o in orders], length)
    carried: list[Order] = []
    refused: list[Order] = []
    for i, o in enumerate(orders):
        later = orders[i + 1 :]
        more = range(min(len(later), most - len(carried) - 1) + 1)
        if any(fits([*carried, o, *extra]) for k in more for extra in combinations(later, k)):
            carried.append(o)
        else:
            refused.append(o)
    for o in refused:
        p.err(o, trouble([*carried, o], blame=o) or _no_room(o, target, tside))
    points, _room = placed(carried)
    for o in sorted(carried, key=lambda q: q.line):
        _set(p, o.unit, pose(o, points[o.unit]))
        _charged(p, field_, o, tside, starts[o.unit], p.poses[o.unit])


def _most_chargers(widths: list[float], length: float) -> int:
    """The most chargers of these frontages that could have room on a side of ``length``: packed
    about its middle, the two at the ends touch it only if the others fit within it (KW-3/4)."""
    if not widths:
        return 0
    room, n = length + 2 * max(widths), 0
    for w in sorted(widths):
        room -= w
        if room <= 0:
            break
        n += 1
    return max(n, 1)


def _no_room(o: Order, target: dict[str, Any], tside: str) -> str:
    return (
        f"no room on {target['id']}'s {tside} side for {o.unit} as well: it would touch corner to corner "
        f"at most; give it another order (KW-3/4)"
    )


def _joining(o: Order, reason: str) -> str:
    assert o.target is not None  # the parser gives every charge its target
    return _(CANNOT_JOIN, unit=o.unit, target=o.target, reason=reason)


def _crossing(p: Plan, orders: list[Order], ends: dict[str, Any]) -> tuple[Order, Order] | None:
    """The first later line whose leader point's path crosses an earlier one's (KW-5), with that earlier line."""
    paths = {o.unit: LineString([(p.poses[o.unit]["x"], p.poses[o.unit]["y"]), tuple(ends[o.unit])]) for o in orders}
    for i, o in enumerate(orders):
        for first in orders[:i]:
            if paths[o.unit].intersects(paths[first.unit]):
                return o, first
    return None


def _place_charger(
    p: Plan,
    field_: Battlefield,
    o: Order,
    target: dict[str, Any],
    tside: str,
    u: dict[str, Any],
    together: Iterable[str] = (),
) -> None:
    """Check the charge from ``u`` to the end pose already in ``p.poses``; put it back if refused."""
    end = p.poses[o.unit]
    msg = _charger_trouble(p, field_, o, target, u, end, together)
    if msg:
        _set(p, o.unit, u)
        p.err(o, msg)
        return
    _charged(p, field_, o, tside, u, end)


def _charger_trouble(
    p: Plan,
    field_: Battlefield,
    o: Order,
    target: dict[str, Any],
    u: dict[str, Any],
    end: dict[str, Any],
    together: Iterable[str] = (),
) -> str | None:
    """Why ``o``'s unit cannot charge from ``u`` to ``end``: beyond its reach, or its swept path
    blocked by terrain, the table edge or a unit not charging with it. None if it can."""
    assert o.target is not None  # the parser gives every charge its target
    dist = math.dist((u["x"], u["y"]), (end["x"], end["y"]))
    reach = 2 * prof(u)["sp"]
    if dist > reach + geom.RANGE_EPS:
        return f"{o.unit} would travel {dist:.1f} in to reach {o.target}: beyond its charge reach of {reach:g} in (2 x Speed)"
    swept = _charge_path(dict(u, facing=end["facing"]), end, p.version)  # it wheels at its start (KW-12: not checked)
    return _path_error(
        p, field_, o.unit, swept.difference(geom.base(target)), geom.base(end), ignore={o.target, *together}
    )


def _charged(p: Plan, field_: Battlefield, o: Order, tside: str, u: dict[str, Any], end: dict[str, Any]) -> None:
    """The charge from ``u`` to ``end`` is carried out (hindered if its path or place is rough, KW-49)."""
    swept = _charge_path(dict(u, facing=end["facing"]), end, p.version)
    hindered = o.verb == "charge" and any(
        pc.hinders and pc.shape.intersection(swept).area > AREA_EPS for pc in field_.touching(swept)
    )
    p.moves.append(Move(o, end, hindered=hindered, side=tside))


def _charge_path(wheeled: dict[str, Any], end: dict[str, Any], version: int) -> BaseGeometry:
    """The ground a charger covers from its start, wheeled to face the target's side, to ``end``.

    Version 1: straight to its place, the hull of both bases. From version 2 (KW-1, KW-4, KW-8) it
    goes straight ahead to the target's side and then slides along it to its place, so the slide
    that lines a massed charge up sweeps past the target's side, not across the unit beside it
    that stays put (three abreast, touching: the two that charge slide into place beside the
    third, which gets another order, KW-EX-1)."""
    if version < 2:
        return geom.sweep(wheeled, end)
    fwd, _ = geom.local_frame(end["facing"])
    ahead = max(0.0, float(np.subtract((end["x"], end["y"]), (wheeled["x"], wheeled["y"])) @ fwd))
    at_side = dict(wheeled, x=wheeled["x"] + ahead * float(fwd[0]), y=wheeled["y"] + ahead * float(fwd[1]))
    return geom.sweep(wheeled, at_side).union(geom.sweep(at_side, end))


# -- shooting checks that need the planned poses ----------------------------------------


def _check_shot(p: Plan, state: dict[str, Any], move: Order | None, o: Order) -> None:
    u = p.poses[o.unit]
    wpn = weapon(prof(u))
    if wpn is None:
        p.err(o, f"{o.unit} has no ranged attack")
        return
    if move is not None and move.verb == "double":
        p.err(o, f"{o.unit} goes At the Double on line {move.line} and may not shoot (KW-26)")
        return
    if move is not None and move.is_charge:
        p.err(o, f"{o.unit} charges on line {move.line} and fights instead of shooting")
        return
    if move is not None and p.refused(move.line):
        if p.version < 3:
            return  # its move is refused; the shot is judged when the move is fixed (planned again)
        move = None  # version 3: the unit halts where it stands (KW-24), and shoots from there
    assert o.target is not None  # the parser gives every shot its target
    t = p.poses[o.target]
    if _enemy_within(p, o.unit, geom.base(u), 1e-3):
        p.err(o, f"{o.unit} is in contact with the enemy and may not shoot (KW-27)")
        return
    if not geom.partly_in_front(u, geom.base(t), state["scenario"].get("arcs", "corner45")):
        p.err(o, f"{o.target} is not in {o.unit}'s front arc (KW-29)")
        return
    d = geom.leader_distance(u, geom.base(t))
    if not geom.in_range(d, wpn["range"]):
        p.err(
            o,
            f"{o.target} is {d:.1f} in away: beyond {o.unit}'s {prof(u)['weapon']} range of {wpn['range']} in (KW-28)",
        )
        return
    p.shots.append((o, move))

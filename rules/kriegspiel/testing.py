"""A scripted player for the Kriegspiel (the conformance kit's, tests/rules/test_conformance.py, and the
API play-through's, tests/support/playthrough.py), and the position it plays from a side's own view.

The player knows only what its side sees (the fog, sighting.py): it charges with every cavalry group
that can (KS-68/69) an enemy it sees within one cavalry move, preferring cavalry, guns with no enemy
figure beside them and infantry in open order (close order beats a charge, KS-71); the rest is Little
Wars' bot played on the enemy it sees; while it sees none, its groups march on the enemy's edge (or
where it last saw him), a group of foot (never the horse) keeping each gun crewed. Every line is
kept only if the Kriegspiel accepts it with the lines kept before it, so its orders are clean as a
whole (a group without supply cannot move, KS-52; a pursued one withdraws, KS-80...).

``state_from_view(view)`` rebuilds a rules state from one player's view (``view.build_view``), enough
for ``bot_orders`` and for validating its orders: its own army, works, depots, trains and what binds
its units, and of the enemy only what it sees.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

import numpy as np

from rules.core.protocol import RuleEvent, State
from rules.littlewars.geom import fighting
from rules.littlewars.scenario import home_vector
from rules.littlewars.testing import bot_orders as lw_bot_orders
from rules.littlewars.testing import state_from_view as lw_state_from_view
from rules.littlewars.units import CREW_MIN, CREW_RANGE, other
from rules.tabletop.points import XY, Coord

from . import RULESET as RS
from . import charge as charging
from .numbers import CHARGE_MIN, CHARGE_REACH, FOOT, MOVE
from .pace import arm_of
from .state import initial_ks

MARGIN = 0.5  # the bot keeps this much inside each limit (a move's pace, a charge's reach)
STAND_OFF = 2 * FOOT  # how near the horse rides to an enemy it means to charge next turn


def bot_orders(state: dict[str, Any], side: str) -> str:
    """Clean orders for ``side`` from what it sees (``ks.seen``): charges, then Little Wars' bot on the
    enemy in sight, or a march on the enemy's edge while none is."""
    if state["phase"] != "play":
        return RS.default_orders(state, side)
    # its own lines may be shortened or turned until they pass; Little Wars' bot has done so for its own
    own = _charge_lines(state, side)
    lw: list[str] = []
    sighted = _sighted(state, side)
    if any(fighting(f) and f["side"] != side for f in sighted["figures"].values()):
        lw = lw_bot_orders(sighted, side).splitlines()
    else:
        own += _march_lines(state, side)
    kept: list[str] = []
    for line, turns in [*((ln, True) for ln in own), *((ln, False) for ln in lw)]:
        for candidate in _alternatives(state, side, line) if turns else [line]:
            if _clean(state, side, [*kept, candidate]):
                kept.append(candidate)
                break
    return "\n".join(kept) if kept else RS.default_orders(state, side)


def play_bots(state: State, seed: int = 0, check: bool = True) -> tuple[State, list[RuleEvent]]:
    """Both sides played by ``bot_orders`` until the game ends; returns (state, all events). The
    orders must be clean as a whole (no line refused); ``check`` also holds every state to the
    rule set's invariants."""
    rng = random.Random(seed)
    events: list[RuleEvent] = []
    while RS.next_turn(state).sides:
        orders = {s: RS.parse_orders(state, s, bot_orders(state, s)).orders for s in RS.next_turn(state).sides}
        evs = RS.adjudicate(state, orders, random.Random(rng.getrandbits(64)))
        refused = [e.payload for e in evs if e.type == "littlewars.orders_rejected" and e.payload["errors"]]
        assert not refused, refused
        for ev in evs:
            state = RS.fold(state, ev.type, ev.payload)
        problems = RS.check_invariants(state) if check else []
        assert not problems, problems
        events += evs
    return state, events


def _clean(state: dict[str, Any], side: str, lines: list[str]) -> bool:
    parsed = RS.parse_orders(state, side, "\n".join(lines))
    return not parsed.errors and not RS.validate(state, side, parsed.orders)


def _sighted(state: dict[str, Any], side: str) -> dict[str, Any]:
    """The state with the enemy only where ``side`` sees him (the rest is left out, as if dead)."""
    seen = state["ks"]["seen"][side]["now"]["figures"]
    figures = {
        fid: f if f["side"] == side or fid in seen or f["st"] != "ok" else {**f, "st": "dead"}
        for fid, f in state["figures"].items()
    }
    return {**state, "figures": figures}


# -- charges (KS-68..85) ---------------------------------------------------------------------------
def _charge_lines(state: dict[str, Any], side: str) -> list[str]:
    """A charge for each cavalry group that can make one (KS-68/69) at the best enemy it sees within
    reach; a group that sees one a little farther off rides to within STAND_OFF of it, to charge next
    turn (a horseman who rides into contact fights the Little Wars melee instead)."""
    ks = state["ks"]
    figs = state["figures"]
    now = ks["seen"][side]["now"]
    barred = set(ks["dismounted"][side]) | set(ks["columns"][side])
    lines = []
    for name in sorted(state["groups"][side]):
        if name in ks["boxed"][side]:
            continue
        ids = [i for i in state["groups"][side][name] if figs[i]["st"] == "ok"]
        if len(ids) < CHARGE_MIN or any(figs[i]["arm"] != "cav" or figs[i]["dis"] or i in barred for i in ids):
            continue
        if not charging.formed(figs, ids):
            continue
        pts = np.array([(figs[i]["x"], figs[i]["y"]) for i in ids], dtype=float)
        aim = _best_aim(pts, now, CHARGE_REACH - MARGIN)
        if aim is not None:
            lines.append(f"charge {name} at {aim[0]:.4f},{aim[1]:.4f}")
            continue
        aim = _best_aim(pts, now, STAND_OFF + min(MOVE[arm_of(state, i)] for i in ids) - MARGIN)
        if aim is not None:
            d = float(np.hypot(pts[:, 0] - aim[0], pts[:, 1] - aim[1]).min())
            c = _centre(figs, ids)
            x, y = _step(c, aim, d - STAND_OFF)
            lines.append(f"move {name} to {x:.2f},{y:.2f}")
    return lines


def _best_aim(pts: np.ndarray, now: dict[str, Any], reach: float) -> XY | None:
    """The nearest enemy worth charging within ``reach`` of the group's figures: cavalry, a gun with no
    enemy figure beside it, or infantry standing in open order (the bot does not ride at close order)."""
    seen = [(float(v[0]), float(v[1]), str(v[2])) for _fid, v in sorted(now["figures"].items())]
    options: list[tuple[float, float, float]] = []
    for x, y, arm in seen:
        d = float(np.hypot(pts[:, 0] - x, pts[:, 1] - y).min())
        if d <= reach and (arm != "inf" or not _close_order(seen, (x, y))):
            options.append((d, x, y))
    for _gid, v in sorted(now["guns"].items()):
        x, y = float(v[0]), float(v[1])
        d = float(np.hypot(pts[:, 0] - x, pts[:, 1] - y).min())
        if d <= reach and not any(math.dist((x, y), (a, b)) <= charging.TARGET_REACH for a, b, _ in seen):
            options.append((d, x, y))
    if not options:
        return None
    _d, x, y = min(options)
    return (x, y)


def _close_order(seen: list[tuple[float, float, str]], at: Coord) -> bool:
    """The seen infantry round ``at`` stands shoulder to shoulder (charge.order_of's reading)."""
    near = [(x, y) for x, y, arm in seen if arm == "inf" and math.dist((x, y), at) <= 2 * charging.TARGET_REACH]
    if len(near) < 2:
        return False
    pts = np.array(near, dtype=float)
    d = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    return bool(np.median(d.min(axis=1)) <= charging.CLOSE_ORDER_GAP + 1e-9)


# -- marching while the enemy is out of sight ------------------------------------------------------
def _march_lines(state: dict[str, Any], side: str) -> list[str]:
    """Every group on towards the enemy (where last seen, else his edge straight ahead), a group of foot
    staying by each gun to crew it; disarmed men and prisoners towards the side's own edge."""
    figs = state["figures"]
    crews = _crews(state, side)
    last = [(v[0], v[1]) for _fid, v in sorted(state["ks"]["seen"][side]["last"].items())]
    lines = []
    for name in sorted(state["groups"][side]):
        ids = [i for i in state["groups"][side][name] if figs[i]["st"] == "ok"]
        if not ids or name in crews:
            continue
        c = _centre(figs, ids)
        step = min(MOVE.get(arm_of(state, i), MOVE["inf"]) for i in ids) - MARGIN
        if any(figs[i]["dis"] for i in ids):
            goal = _edge_ahead(state, side, c, side)
        elif last:
            goal = min(last, key=lambda p: (math.dist(p, c), p))
        else:
            goal = _edge_ahead(state, side, c, other(side))
        x, y = _step(c, goal, step)
        lines.append(f"move {name} to {x:.2f},{y:.2f}")
    for name in sorted(state["pows"][side]):
        ids = [i for i in state["pows"][side][name] if figs[i]["st"] == "pow" and not figs[i]["pow"][2]]
        if ids:
            c = _centre(figs, ids)
            x, y = _step(c, _edge_ahead(state, side, c, side), MOVE["inf"] - MARGIN)
            lines.append(f"escort {name} to {x:.2f},{y:.2f}")
    return lines


def _crews(state: dict[str, Any], side: str) -> set[str]:
    """For each of the side's guns the group of foot with most men within 6 in of it (CREW_MIN or more)."""
    figs = state["figures"]
    out = set()
    for _gid, g in sorted(state["guns"].items()):
        if g["owner"] != side:
            continue
        near = {
            name: sum(
                1
                for i in ids
                if fighting(figs[i]) and math.dist((figs[i]["x"], figs[i]["y"]), (g["x"], g["y"])) <= CREW_RANGE
            )
            for name, ids in state["groups"][side].items()
            if ids and all(figs[i]["arm"] == "inf" for i in ids)
        }
        best = max(sorted(near), key=lambda n: near[n], default=None)
        if best is not None and near[best] >= CREW_MIN:
            out.add(best)
    return out


def _centre(figs: dict[str, Any], ids: list[str]) -> XY:
    return (sum(figs[i]["x"] for i in ids) / len(ids), sum(figs[i]["y"] for i in ids) / len(ids))


def _edge_ahead(state: dict[str, Any], side: str, c: Coord, edge_of: str) -> XY:
    """The point of ``edge_of``'s edge straight out from ``c`` (1 in inside it), from ``side``'s lines."""
    table = state["scenario"]["table"]
    vx, vy = home_vector(state["scenario"], edge_of)
    x = c[0] if vx == 0 else (table["width"] - 1.0 if vx > 0 else 1.0)
    y = c[1] if vy == 0 else (table["depth"] - 1.0 if vy > 0 else 1.0)
    return (x, y)


def _step(a: Coord, b: Coord, limit: float) -> XY:
    d = math.dist(a, b)
    if d <= limit:
        return (b[0], b[1])
    return (a[0] + (b[0] - a[0]) * limit / d, a[1] + (b[1] - a[1]) * limit / d)


def _alternatives(state: dict[str, Any], side: str, line: str) -> Iterator[str]:
    """The line, then the same move or escort shortened and turned up to 60 degrees (round scenery)."""
    yield line
    verb, name, *rest = line.split()
    if verb not in ("move", "escort") or not rest or rest[0] != "to" or len(rest) != 2:
        return
    figs = state["figures"]
    members = state["groups"][side].get(name) or state["pows"][side].get(name) or []
    members = [i for i in members if figs[i]["st"] in ("ok", "pow")]
    if not members:
        return
    cx, cy = _centre(figs, members)
    tx, ty = (float(v) for v in rest[1].split(","))
    dx, dy = tx - cx, ty - cy
    for frac in (1.0, 0.5, 0.25):
        for deg in (0, 30, -30, 60, -60):
            a = math.radians(deg)
            ux = (dx * math.cos(a) - dy * math.sin(a)) * frac
            uy = (dx * math.sin(a) + dy * math.cos(a)) * frac
            yield f"{verb} {name} to {cx + ux:.2f},{cy + uy:.2f}"


# -- the position a player's own view rebuilds -------------------------------------------------------
def state_from_view(view: dict[str, Any]) -> State:
    """A rules state rebuilt from one player's view (``view()``, the API's board): Little Wars' rebuild
    (its army, groups, prisoners, guns in sight, the turn) with the appendix's part of it from the
    view's ``kriegspiel`` block: its works, depots and supply, trains and boats, boxes, limbered guns,
    cavalry on foot, columns, after-effects and pursuit, its general, and of the enemy what it sees
    now (``seen``) and saw before. Nothing the side cannot see is in it, but a pursuer out of sight
    (its side was told of the charge), put where it was last seen or, never seen, off the table."""
    side = view["viewer"]["side"]
    enemy = other(side)
    state: dict[str, Any] = {**RS.initial_state(), **lw_state_from_view(view)}
    ks_view = view.get("kriegspiel") or {}
    version = int(ks_view.get("rules_version", 1))
    if version >= 2:
        state["ids"] = "side"  # per-side names (works, prisoner groups), as version 2 on lays them
    sc = state["scenario"]
    sc["kriegspiel"] = {
        "railways": [dict(r) for r in ks_view.get("railways", [])],
        "steep_slopes": ks_view.get("steep_slopes", "everyone"),
    }
    ks = initial_ks(None)
    ks["rules_version"] = version
    figures = state["figures"]
    for f in view["figures"]:
        if f.get("dismounted") and f["side"] == side:
            ks["dismounted"][side].append(f["id"])
    seen = {f["id"]: [f["x"], f["y"], f["arm"]] for f in view["figures"] if f["side"] != side and not f.get("captor")}
    guns = {g["id"]: [g["x"], g["y"]] for g in view["guns"] if g["owner"] != side}
    sighted = ks_view.get("seen") or {}
    ks["seen"][side] = {
        "now": {
            "figures": seen,
            "guns": guns,
            "objects": [[o["kind"], o["x"], o["y"]] for o in sighted.get("objects", [])],
        },
        "boxes": [dict(b) for b in sighted.get("boxes", [])],
        "last": {e["id"]: [e["x"], e["y"], e["arm"], e["turn"]] for e in sighted.get("last_seen", [])},
        "tokens": {},
    }
    ks["works"] = {w["id"]: _work(w, side) for w in ks_view.get("works", [])}
    ks["wrecks"] = {g: list(xy) for g, xy in ks_view.get("wrecks", {}).items()}
    ks["breaks"] = {k: [list(b) for b in v] for k, v in ks_view.get("rail_breaks", {}).items()}
    own = {k: ks_view[k] for k in ("supply", "vehicles", "boxed", "limbered", "general") if k in ks_view}
    if "supply" in own:
        ks["supply"][side] = {
            "on": own["supply"]["on"],
            "depots": {k: dict(v) for k, v in own["supply"]["depots"].items()},
            "status": {k: dict(v) for k, v in own["supply"]["status"].items()},
            "last_horse": {},
            "larder": {},
        }
    ks["vehicles"] = {k: {**v, "aboard": list(v["aboard"])} for k, v in own.get("vehicles", {}).items()}
    ks["boxed"][side] = list(own.get("boxed", []))
    ks["limbered"][side] = list(own.get("limbered", []))
    if "general" in own:
        ks["generals"][side] = dict(own["general"])
    ks["guns_out"] = dict(ks_view.get("guns_out", {}))
    for key in ("columns", "engineers", "scouts"):
        ks[key][side] = list(ks_view.get(key, []))
    ks["shaken"] = {f: dict(e) for f, e in ks_view.get("shaken", {}).items()}
    ks["pursued"] = {f: {"by": list(e["by"]), "turn": e["turn"]} for f, e in ks_view.get("pursued", {}).items()}
    ks["pursued_guns"] = {
        g: {"by": list(e["by"]), "turn": e["turn"]} for g, e in ks_view.get("pursued_guns", {}).items()
    }
    # a pursuer out of sight still pursues (plan._pursuers_attacked): where it was last seen, if anywhere
    for e in [*ks["pursued"].values(), *ks["pursued_guns"].values()]:
        for fid in e["by"]:
            if fid not in figures:
                x, y, arm, _turn = ks["seen"][side]["last"].get(fid, [-1000.0, -1000.0, "cav", 0])
                figures[fid] = {"side": enemy, "arm": arm, "x": x, "y": y, "st": "ok", "dis": False, "pow": None}
    state["ks"] = ks
    if view.get("standing", {}).get(side):
        state["standing"] = {**state["standing"], side: dict(view["standing"][side])}
    return state


def _work(w: dict[str, Any], side: str) -> dict[str, Any]:
    """A work as the state holds it, from its entry in the view (the side's own in full)."""
    out = {k: w[k] for k in ("id", "kind", "side", "at", "to", "status")}
    out.update({k: w[k] for k in ("done", "need", "workers", "started") if k in w})
    out.setdefault("workers", [])
    if w["side"] != side and ":p" in w["id"]:
        out["public"] = int(w["id"].rsplit(":p", 1)[1])
    return out

"""One Kriegspiel turn: the Little Wars phases (adjudicate.py of the main part) with the appendix's added.

1. orders: the Little Wars plan plus the appendix's orders (plan.py); each side's rejected
   lines, groups and melee choices, written every turn (private);
2. voluntary surrenders (LW-45, public);
3. fire: guns and rifle volleys together, from start-of-turn positions, under the blast
   rule with guns, wagons, works, vehicles and generals (blast.py) - for the umpire only;
4. cavalry charges (charge.py, public);
5. movement (umpire only: no side learns the other's moves except by sighting);
6. mines: the first figure to pass an armed mine sets it off (public: the reveal);
7. melees, gun capture, prisoners (as Little Wars); generals lost (public);
8. one private report per side, EVERY turn, empty or not (works and tasks, depots, trains and
   boats, boxes, cavalry on foot, failed charges), so the number and order of events never
   hint at anything; finished entrenchments, gun pits and tasks revealed (public);
9. supply (one private ledger per side, every turn), sighting (one private report per side,
   every turn), end of turn.

Random numbers are drawn only for shots and the coin of equal cavalry, in a fixed order,
never for anything hidden: laying a mine changes no draw. Each side's shots draw from a stream
of their own (``_streams``), so the enemy's hidden shots change none of one's own.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from random import Random
from typing import Any

from rules.core.i18n import marked_in, message_of
from rules.core.protocol import PUBLIC, UMPIRE, RuleEvent, State, side_audience
from rules.littlewars import adjudicate as lw_adj
from rules.littlewars import aftermath, melee
from rules.littlewars.fire import on_table, scatter
from rules.littlewars.fold import next_name
from rules.littlewars.geom import FigureIndex, bearing
from rules.littlewars.motion import resolve_moves
from rules.littlewars.table import path_length, table_of
from rules.littlewars.units import SIDES, other

from . import boxes, engineers, pace, supply, works
from . import charge as charging
from .blast import firing_point
from .blast import resolve as blast_resolve
from .orders import split
from .plan import KsPlan
from .plan import build as build_plan
from .sighting import sightings
from .state import PREFIX, fold
from .version import ks_version


class Log:
    """Emits events and folds each at once, so every phase sees the state the last one left.

    ``emit`` takes Little Wars event kinds (so the main part's phase helpers can use it);
    ``ks`` takes Kriegspiel kinds.
    """

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[RuleEvent] = []

    def emit(self, kind: str, payload: dict[str, Any], audience: str = PUBLIC) -> None:
        self._add(RuleEvent("littlewars." + kind, payload, audience))

    def ks(self, kind: str, payload: dict[str, Any], audience: str = PUBLIC) -> None:
        self._add(RuleEvent(PREFIX + kind, payload, audience))

    def _add(self, ev: RuleEvent) -> None:
        self.events.append(ev)
        self.state = fold(self.state, ev.type, ev.payload)


def adjudicate(
    state: dict[str, Any], orders: Mapping[str, Sequence[Any]], rng: random.Random | None = None, kind: str = "orders"
) -> list[RuleEvent]:
    rng = rng or random.Random(0)
    if state["phase"] == "edge":  # LW-2/53, before any fog: the main part's turn as it is
        return _as_little_wars(state, orders, rng, kind)
    plans = {s: build_plan(state, s, orders.get(s, ())) for s in SIDES}
    log = Log(state)
    for side in SIDES:
        _private(log, plans[side])
    if state["phase"] == "deploy":
        for side in SIDES:
            p = plans[side].lw
            log.emit(
                "deployed", {"side": side, "figures": p.deploy_figures, "guns": p.deploy_guns}, side_audience(side)
            )
        log.emit("deployment_done", {})
        _sight(log)
        return log.events
    start = state
    streams, coin = _streams(state, rng)
    lw_adj.emit_surrenders(log, {s: plans[s].lw for s in SIDES})
    fired_groups = _fire(log, plans, streams)
    charged, failed = _charges(log, plans, coin)
    _withdrawn_off(log, plans)
    before = log.state
    paths, moved = _movement(log, plans, charged)
    _mines(log, before, paths, moved)
    for payload in melee.resolve(log.state, _live_contacts(log)):
        log.emit("melee", payload)
    for cap in aftermath.captures(start, log.state):
        log.emit("gun_captured", cap)
    lw_adj.emit_prisoners(log)
    _generals(log)
    _works(log, plans, set(paths), failed)
    _supply(log, fired_groups)
    _sight(log)
    lw_adj.emit_turn_end(log)
    return log.events


def _streams(state: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], random.Random]:
    """Each side's shots draw from a stream of their own, and the cavalry's coin from another,
    all split off the turn's seed in a fixed order: otherwise the enemy's hidden shots, drawn
    first, would move where one's own shells fall and how the coin of a public charge lands.
    Games laid before this (no per-side ``ids``) keep the one stream their turns were drawn from."""
    if state.get("ids") != "side":
        return dict.fromkeys(SIDES, rng), rng
    streams = {s: random.Random(rng.getrandbits(64)) for s in SIDES}
    return streams, random.Random(rng.getrandbits(64))


def _as_little_wars(state: State, orders: Mapping[str, Sequence[Any]], rng: Random, kind: str) -> list[RuleEvent]:
    lw_orders = {s: split(orders.get(s, ()))[0] for s in SIDES}
    return lw_adj.adjudicate(state, lw_orders, rng, kind)


def _private(log: Log, kp: KsPlan) -> None:
    """The main part's private events - rejected lines (with the Kriegspiel ones), groups, melee
    choices - written EVERY turn for each side, empty or not: an event a side writes only when it
    reorganises or errs would show the other side, by the numbering of its own events, that it did."""
    aud = side_audience(kp.side)
    log.emit(
        "orders_rejected",
        {"side": kp.side, "errors": [{"line": e.line, "text": e.text, "message": e.message} for e in kp.errors]},
        aud,
    )
    log.emit("groups_changed", {"side": kp.side, "groups": kp.lw.groups}, aud)
    kill, lose = kp.lw.standing or (log.state["standing"][kp.side]["kill"], log.state["standing"][kp.side]["lose"])
    log.emit("standing_orders", {"side": kp.side, "kill": kill, "lose": lose}, aud)


# -- fire -------------------------------------------------------------------------------
def _shots(state: State, plans: Mapping[str, KsPlan]) -> list[tuple[Any, ...]]:
    """(origin, aim, gun id or None, side, group or None) for every shot, in a fixed order."""
    shots: list[tuple[Any, ...]] = []
    for gid in sorted(g for p in plans.values() for g in p.lw.fire):
        g = state["guns"][gid]
        shots += [((g["x"], g["y"]), aim, gid, g["owner"], None) for aim in plans[g["owner"]].lw.fire[gid]]
    figs = state["figures"]
    for side in SIDES:
        for group, ids, aim, n in sorted(plans[side].volleys):
            pts = [(figs[i]["x"], figs[i]["y"]) for i in ids]
            shots += [(firing_point(pts, aim), aim, None, side, group)] * n
    return shots


def _fire(log: Log, plans: Mapping[str, KsPlan], streams: dict[str, Any]) -> dict[str, set[str]]:
    state = log.state
    shots = _shots(state, plans)
    if not shots:
        return {s: set() for s in SIDES}
    table = table_of(state["scenario"])
    ks = state["ks"]
    wagons = _wagons(ks)
    dead: set[str] = set()
    index = FigureIndex(state["figures"], on_table)
    out: list[Any] = []
    effects: dict[str, set[str]] = {"guns_destroyed": set(), "guns_out": set(), "wagons": set(), "generals_out": set()}
    for origin, aim, gid, side, group in shots:
        sigma = scatter(math.dist(origin, aim))
        rng = streams[side]
        impact = (aim[0] + rng.gauss(0.0, sigma), aim[1] + rng.gauss(0.0, sigma))
        stop = table.shot_blocker(origin, impact)
        hit = stop if stop is not None else impact
        hit = (round(min(max(hit[0], 0.0), table.width), 3), round(min(max(hit[1], 0.0), table.depth), 3))
        res = blast_resolve(
            hit, state["figures"], state["guns"], wagons, ks["works"], table, dead, ks["generals"], index
        )
        dead.update(res["killed"])
        for k in effects:
            effects[k].update(res[k])
        out.append(
            {
                "gun": gid or f"{side}:{group}",
                "aim": [float(aim[0]), float(aim[1])],
                "impact": list(hit),
                "blocked": stop is not None,
                "killed": res["killed"],
                "volley": gid is None,
            }
        )
    log.emit("fired", {"shots": out, "headings": _headings(state, plans)}, UMPIRE)
    effects["guns_out"] -= effects["guns_destroyed"]
    if any(effects.values()):
        log.ks(
            "blast",
            {
                "turn": state["turn"],
                "guns_destroyed": sorted(effects["guns_destroyed"]),
                "guns_out": sorted(effects["guns_out"]),
                **_wagons_lost(effects["wagons"]),
                "generals_out": sorted(effects["generals_out"]),
            },
            UMPIRE,
        )
    return {s: {g for *_, sd, g in shots if sd == s and g is not None} for s in SIDES}


def _wagons(ks: dict[str, Any]) -> dict[str, Any]:
    """Everything hit like a wagon (KS-6, KS-89): each side's depots ("side:name") and the vehicles."""
    wagons = {f"{s}:{n}": d for s in SIDES for n, d in ks["supply"][s]["depots"].items()}
    wagons.update({f"vehicle|{vid}": v for vid, v in ks["vehicles"].items()})
    return wagons


def _wagons_lost(keys: Iterable[str]) -> dict[str, Any]:
    """The ``wagons`` ({side: [depot names]}) and ``vehicles`` of a ``blast`` event, from ``_wagons`` keys."""
    wag: dict[str, list[str]] = {}
    lost: list[str] = []
    for key in sorted(keys):
        if key.startswith("vehicle|"):
            lost.append(key.split("|", 1)[1])
            continue
        side, name = key.split(":", 1)
        wag.setdefault(side, []).append(name)
    return {"wagons": wag, "vehicles": lost}


def _headings(state: State, plans: Mapping[str, KsPlan]) -> dict[str, Any]:

    return {
        gid: bearing((state["guns"][gid]["x"], state["guns"][gid]["y"]), aims[-1])
        for p in plans.values()
        for gid, aims in sorted(p.lw.fire.items())
    }


# -- movement and mines -------------------------------------------------------------------------
def _charges(log: Log, plans: Mapping[str, KsPlan], rng: Random) -> tuple[set[str], dict[str, Any]]:
    """Cavalry charges after fire, before all other movement (public: both sides are in it).

    A charge that fire has made impossible (fewer than 8 left, the target gone) does not
    happen, and its side is told so in its report. Returns every figure a charge moved, pushed
    or killed, and the failed charges by side.
    """
    touched: set[str] = set()
    failed: dict[str, list[Any]] = {s: [] for s in SIDES}
    for side in SIDES:
        enemy = other(side)
        held = {
            fid
            for fid, f in log.state["figures"].items()
            if f["side"] == enemy
            and fid not in plans[enemy].lw.paths
            and not any(fid in c[1] for c in plans[enemy].charges)
        }
        for line, ids, point in sorted(plans[side].charges):
            try:
                payload = charging.resolve(log.state, side, ids, point, held, rng, frozenset(plans[enemy].lw.gun_moves))
            except charging.ChargeRefused as exc:
                failed[side].append(
                    {"line": line, "why": str(exc), **marked_in(log.state["scenario"], "why_msg", message_of(exc))}
                )
                continue
            log.ks("charge", payload, PUBLIC)
            touched.update(
                payload["by"], payload["killed"], payload["moved"], payload["destroyed"], payload["captured"]
            )
            touched.update(payload.get("guards", ()))  # version 4: captors stay by the chargers they took (KS-78)
    return touched, failed


def _withdrawn_off(log: Log, plans: Mapping[str, KsPlan]) -> None:
    """Version 3 (KS-81): the pursued whose withdrawal would take them off the table are destroyed as
    the others move (unless fire or a charge took them first); version 4: and those whose withdrawal
    could only cross an unfordable river (``river``). Told to the umpire, as the movement is;
    each side sees its own losses in its view (its counts), the other what it sights."""
    figs = log.state["figures"]
    lost = sorted(fid for p in plans.values() for fid in p.withdrawn_off if figs[fid]["st"] == "ok")
    river = sorted(fid for p in plans.values() for fid in p.withdrawn_river if fid in lost)
    if lost:  # version 4: those who could withdraw only across an unfordable river are named too
        log.ks("withdrawn_off", {"destroyed": lost, **({"river": river} if river else {})}, UMPIRE)


def _movement(log: Log, plans: Mapping[str, KsPlan], charged: set[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """All movement at once (umpire only); returns the planned paths and where everyone ended."""
    state = log.state
    figs = state["figures"]
    paths = {}
    for p in plans.values():
        for fid, pts in p.lw.paths.items():
            if fid in charged:
                continue  # a charge moved it already
            f = figs[fid]
            own_and_free = f["st"] == "ok" and f["side"] == p.side
            escorted = f["st"] == "pow" and f["pow"][0] == p.side and not f["pow"][2]
            if own_and_free or escorted:
                paths[fid] = pts
    gun_paths = {gid: pts for p in plans.values() for gid, pts in p.lw.gun_moves.items() if gid in state["guns"]}
    # each walks at its pace, or faster where the planner allowed more (a column or a car on a road)
    speeds = {fid: max(pace.speed(state, fid), path_length(pts)) for fid, pts in paths.items()}
    moved, contacts = resolve_moves(state, paths, speeds=speeds)
    # the appendix's gun pace (KS-19/33) was checked on the planned path, with its climbing costs
    guns, stuck = aftermath.gun_moves(state, moved, gun_paths, limit_of=lambda gid: math.inf)
    log.emit("moved", {"figures": moved, "guns": guns, "stuck": stuck, "contacts": contacts}, UMPIRE)
    return paths, moved


def _mines(log: Log, before: dict[str, Any], paths: dict[str, Any], moved: dict[str, Any]) -> None:
    """KS-59/60: armed mines set off by the first figure to pass; each explosion is public."""
    armed = [w for w in log.state["ks"]["works"].values() if w["kind"] == "mine" and w["status"] == "armed"]
    if not armed:
        return
    figs = before["figures"]
    walks = {
        fid: (works.walked(pts, moved[fid]), figs[fid]["arm"], pace.speed(before, fid)) for fid, pts in paths.items()
    }
    for trig in _mine_triggers(log, sorted(armed, key=lambda w: w["id"]), walks):
        state = log.state
        mine = state["ks"]["works"][trig["mine"]]
        figs = state["figures"]
        pos = {
            fid: works.position_at(walks[fid][0], walks[fid][2], trig["t"]) if fid in walks else (f["x"], f["y"])
            for fid, f in figs.items()
            if on_table(f)
        }  # prisoners too (KS-60: everything)
        killed = works.blast_victims(mine["at"], pos, {fid: figs[fid]["arm"] for fid in pos})
        if trig["by"] not in killed and figs[trig["by"]]["st"] == "ok":
            killed.append(trig["by"])
        guns = works.guns_within(mine["at"], state["guns"])
        log.ks(
            "mine_exploded",
            {
                **works.public_ref(state, mine),
                "side": mine["side"],
                "at": mine["at"],
                "by": trig["by"],
                "killed": sorted(killed),
                "guns": guns,
                "positions": {fid: [round(pos[fid][0], 4), round(pos[fid][1], 4)] for fid in sorted(killed)},
            },
            PUBLIC,
        )
        wagons = works.wagons_within(mine["at"], _wagons(log.state["ks"]))
        if wagons:  # depots and vehicles are private: what the mine took is told like a shell's blast (KS-6, KS-89)
            log.ks(
                "blast",
                {
                    "turn": state["turn"],
                    "guns_destroyed": [],
                    "guns_out": [],
                    **_wagons_lost(wagons),
                    "generals_out": [],
                },
                UMPIRE,
            )


def _mine_triggers(log: Log, armed: list[dict[str, Any]], walks: dict[str, Any]) -> Iterable[dict[str, Any]]:
    """The mines that go off, in time order, as ``_mines`` explodes them one by one.

    Version 3 (KS-59): after each explosion the rest are worked out again from the walks of the
    figures still standing, so a figure killed by a mine sets off no later mine (a later walker may).
    Versions 1 and 2 worked every trigger out from the planned walks before any mine went off."""
    if ks_version(log.state) < 3:
        yield from works.triggers(armed, walks)
        return
    left = list(armed)
    while left:
        figs = log.state["figures"]
        standing = {fid: w for fid, w in walks.items() if figs[fid]["st"] != "dead"}
        found = works.triggers(left, standing)
        if not found:
            return
        yield found[0]  # the caller explodes it (log.state then has its dead) before the next is sought
        left = [m for m in left if m["id"] != found[0]["mine"]]


def _live_contacts(log: Log) -> list[Any]:
    """The contacts of the movement, without figures a mine has killed since."""
    moved = next(e for e in reversed(log.events) if e.type == "littlewars.moved")
    figs = log.state["figures"]
    return [c for c in moved.payload["contacts"] if figs[c[0]]["st"] == "ok" and figs[c[1]]["st"] == "ok"]


def _generals(log: Log) -> None:
    """KS-14: a general killed (by fire, melee or a mine) leaves for good; the deputy is the side's
    lowest-numbered free cavalryman, and his side holds for one turn while command passes (public)."""
    state = log.state
    for side in SIDES:
        gen = state["ks"]["generals"][side]
        fid = gen["figure"]
        if fid is None or state["figures"][fid]["st"] == "ok":
            continue
        cav = sorted(
            (int(i.split(":c")[1]), i)
            for i, f in state["figures"].items()
            if f["side"] == side and f["arm"] == "cav" and f["st"] == "ok" and i != fid
        )
        log.ks(
            "general_lost",
            {"side": side, "figure": fid, "deputy": cav[0][1] if cav else None, "turn": state["turn"]},
            PUBLIC,
        )


# -- works, supply, sighting ------------------------------------------------------------------------
def _works(log: Log, plans: Mapping[str, KsPlan], moving: set[str], failed: dict[str, Any]) -> None:
    """One private report per side, every turn, whatever happened: its works and tasks started and
    in hand, its depots driven, its trains and boats moved, loaded and unloaded, its boxes and its
    charges that did not happen. So the number and
    order of events never tell the other side anything. Finished entrenchments, gun pits and
    tasks go public."""
    state = log.state
    busy = moving | {i for p in plans.values() for _, ids, _, _ in p.volleys for i in ids}
    changes = works.progress(state, busy)
    started: dict[str, list[Any]] = {s: [] for s in SIDES}
    for side in SIDES:
        for job in plans[side].works:
            w = works.new_work(
                works.next_id(state, side, started),
                job["kind"],
                side,
                job["ids"],
                job["at"],
                job["to"],
                state["turn"],
                need=job["need"],
                target=job["target"],
                spots=job.get("spots"),
            )
            started[side].append(w)
            # the turn a work is ordered is its first turn of work (RULES.md)
            changes += works.progress({**state, "ks": {**state["ks"], "works": {w["id"]: w}}}, busy)
    record = {w["id"]: w for s in SIDES for w in started[s]}
    record.update(state["ks"]["works"])
    private = {"board", "land"}  # troops in and out of trains and boats: their own side's news
    for side in SIDES:
        mine = [c for c in changes if record[c["id"]]["side"] == side]
        loaded = [
            _loaded(record[c["id"]]) for c in mine if c["status"] == "complete" and record[c["id"]]["kind"] in private
        ]
        vehicles = {
            vid: [round(pts[-1][0], 4), round(pts[-1][1], 4)]
            for vid, pts in sorted(plans[side].steams.items())
            if vid in state["ks"]["vehicles"]
        }
        log.ks(
            "works",
            {
                "side": side,
                "turn": state["turn"],
                "started": started[side],
                "progress": [c for c in mine if c["status"] != "complete" or record[c["id"]]["kind"] in private],
                "depots": dict(sorted(plans[side].drives.items())),
                "vehicles": vehicles,
                "loaded": loaded,
                "boxed": plans[side].boxed if plans[side].boxed is not None else sorted(state["ks"]["boxed"][side]),
                "charges_failed": failed[side],
                "dismounted": _dismounted(log.state, side, plans[side]),
                "columns": _columns(log.state, side, plans[side]),
                "limbered": sorted(
                    g for g in plans[side].limbered if g in log.state["guns"] and log.state["guns"][g]["owner"] == side
                ),
            },
            side_audience(side),
        )
    for c in changes:
        w = log.state["ks"]["works"][c["id"]]
        if c["status"] == "complete" and w["kind"] not in private:
            log.ks(
                "work_completed",
                {
                    **works.public_ref(log.state, w),
                    "side": w["side"],
                    "kind": w["kind"],
                    "at": w["at"],
                    "to": w["to"],
                    "target": w.get("target"),
                    "turn": state["turn"],
                    "wagons": engineers.wagons_emptied(len(w["workers"])),
                },
                PUBLIC,
            )


def _dismounted(state: dict[str, Any], side: str, kp: KsPlan) -> list[str]:
    """The side's cavalry on foot after this turn (the dead and taken are left out)."""
    now = kp.dismounted if kp.dismounted is not None else state["ks"]["dismounted"][side]
    return sorted(f for f in now if state["figures"][f]["st"] == "ok")


def _columns(state: dict[str, Any], side: str, kp: KsPlan) -> list[str]:
    now = set(state["ks"]["columns"][side])
    now |= {f for f, col in kp.reforming.items() if col}
    now -= {f for f, col in kp.reforming.items() if not col}
    return sorted(f for f in now if state["figures"][f]["st"] == "ok")


def _loaded(w: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": w["id"],
        "vehicle": w["target"],
        "boarded": w["workers"] if w["kind"] == "board" else [],
        "landed": w.get("spots", {}) if w["kind"] == "land" else {},
    }


def _supply(log: Log, fired_groups: dict[str, set[str]]) -> None:
    for side in SIDES:
        if not log.state["ks"]["supply"][side]["on"]:
            continue
        ledger = supply.turn_ledger(log.state, side, fired_groups[side])
        log.ks("supplied", ledger, side_audience(side))
        for group in ledger["surrender"]:
            ids = list(log.state["groups"][side].get(group, []))
            if ids:
                log.emit(
                    "surrendered",
                    {
                        "side": side,
                        "group": group,
                        "figures": ids,
                        "captor": other(side),
                        "pow": next_name(log.state, other(side), "pow"),
                    },
                )


def _sight(log: Log) -> None:
    state = log.state
    for side in SIDES:
        seen = sightings(state, side)
        enemy = [s for s in SIDES if s != side][0]
        boxed = {g: state["groups"][enemy].get(g, []) for g in state["ks"]["boxed"][enemy]}
        tokens, known = boxes.tokens(state, boxed, side, set(seen["figures"]), state["ks"]["seen"][side]["tokens"])
        in_boxes = {i for ids in boxed.values() for i in ids}
        log.ks(
            "sighted",
            {
                "side": side,
                "turn": state["turn"],
                "figures": {k: v for k, v in seen["figures"].items() if k not in in_boxes},
                "guns": seen["guns"],
                "objects": seen["objects"],
                "boxes": tokens,
                "tokens": known,
            },
            side_audience(side),
        )

"""Trains and boats carrying troops (KS-22, KS-28/29, KS-87..89, LW-71/72).

A vehicle is ``state["ks"]["vehicles"][id]``: {"kind": "train" | "boat", "side", "name", "x", "y",
"wagons", "aboard": [figure ids]}. Decisions (RULES.md, "Engineers, railways, boats"):
- Railways are lines in the scenario's ``kriegspiel.railways``; a train runs along one, 8 ft a
  turn (KS-87), from where it stands to a point on the same line. A boat moves 1 ft a turn on
  a river (KS-22).
- A train of n wagons carries what n wagons hold (12 infantry, 5 cavalry or half a gun each,
  LW-71) and an engine pulls at most 8 (LW-72); a boat holds one wagon's load (the seed gives none).
- Boarding takes 2 turns per 20 figures, landing 1 turn per 20 (KS-28/29; trains like boats,
  KS-88). Figures board from within 4 in of the vehicle and land within 6 in of it, in a block
  around the point named. While boarding or landing nothing else is done by them and the
  vehicle does not move; figures aboard take no orders and move with the vehicle.
- A blast touching a train or boat destroys it (KS-89, like wagons) and everyone aboard.
- Vehicles, like depots, are known to their own side (and the umpire) only.
"""

from __future__ import annotations

import math
from typing import Any

from shapely.geometry import LineString, Point
from shapely.ops import substring

from rules.core.i18n import _, message_of
from rules.littlewars.scenario import block
from rules.tabletop.points import Coord

from .engineers import boarding_turns, landing_turns, wagons_for
from .movement import MoveError, check, ground_of
from .numbers import ENGINE_PULLS, MOVE

BOARD_REACH = 4.0
LAND_REACH = 6.0
ON_LINE = 1.0


class VehicleError(ValueError):
    pass


def railways(scenario: dict[str, Any]) -> dict[str, LineString]:
    return {r["id"]: LineString(r["line"]) for r in (scenario.get("kriegspiel") or {}).get("railways", [])}


def aboard(state: dict[str, Any]) -> dict[str, str]:
    """figure id -> the vehicle it rides in."""
    return {fid: vid for vid, v in state["ks"].get("vehicles", {}).items() for fid in v["aboard"]}


def busy(state: dict[str, Any], vid: str) -> bool:
    return any(w.get("target") == vid and w["status"] == "building" for w in state["ks"]["works"].values())


def own(state: dict[str, Any], side: str, name: str) -> tuple[str, dict[str, Any]]:
    vid = f"{side}:{name}"
    v = state["ks"].get("vehicles", {}).get(vid)
    if v is None:
        mine = sorted(k.split(":", 1)[1] for k, x in state["ks"].get("vehicles", {}).items() if x["side"] == side)
        raise VehicleError(
            _("you have no train or boat {name} (yours: {value})", name=repr(name), value=", ".join(mine) or "none")
        )
    return vid, v


def load_error(v: dict[str, Any], figs: dict[str, Any], ids: list[str]) -> str | None:
    riders = [figs[i] for i in list(v["aboard"]) + list(ids)]
    inf = sum(1 for f in riders if f["arm"] == "inf")
    wagons = wagons_for(inf=inf, cav=len(riders) - inf)
    if wagons > v["wagons"]:
        return (
            f"{v['name']} has {v['wagons']} wagon(s); {len(riders)} figures need {wagons} "
            f"(12 infantry or 5 cavalry a wagon, LW-71)"
        )
    return None


def board_turns(state: dict[str, Any], side: str, name: str, ids: list[str]) -> tuple[str, int]:
    vid, v = own(state, side, name)
    figs = state["figures"]
    if busy(state, vid):
        raise VehicleError(_("{name} is already loading or unloading", name=name))
    for fid in ids:
        d = math.dist((figs[fid]["x"], figs[fid]["y"]), (v["x"], v["y"]))
        if d > BOARD_REACH + 1e-9:
            raise VehicleError(
                _(
                    "{value} is {d:.1f} in from {name}; figures board from within {BOARD_REACH:g} in",
                    value=fid.split(":")[-1],
                    d=d,
                    name=name,
                    BOARD_REACH=BOARD_REACH,
                )
            )
    err = load_error(v, figs, ids)
    if err:
        raise VehicleError(err)
    return vid, boarding_turns(len(ids))


def landing(state: dict[str, Any], side: str, name: str, at: Coord) -> tuple[str, int, dict[str, Any]]:
    """(vehicle id, turns, {figure: spot}) for landing everyone aboard around ``at``."""
    vid, v = own(state, side, name)
    if not v["aboard"]:
        raise VehicleError(_("nobody is aboard {name}", name=name))
    if busy(state, vid):
        raise VehicleError(_("{name} is already loading or unloading", name=name))
    if math.dist(at, (v["x"], v["y"])) > LAND_REACH + 1e-9:
        raise VehicleError(_("land within {LAND_REACH:g} in of {name}", LAND_REACH=LAND_REACH, name=name))
    figs = state["figures"]
    ids = sorted(v["aboard"])
    edge = state["scenario"]["edges"][side]
    spots = block(
        {
            "arm": "cav" if any(figs[i]["arm"] == "cav" for i in ids) else "inf",
            "frontage": min(len(ids), 10),
            "count": len(ids),
        },
        edge,
        list(at),
    )
    return vid, landing_turns(len(ids)), {fid: [x, y] for fid, (x, y) in zip(ids, spots, strict=True)}


def route(state: dict[str, Any], side: str, name: str, to: Coord) -> tuple[str, list[Any]]:
    """The path a vehicle takes to ``to``: along its railway (8 ft) or over water (1 ft)."""
    vid, v = own(state, side, name)
    if busy(state, vid):
        raise VehicleError(_("{name} is loading or unloading: it does not move this turn", name=name))
    here = Point(v["x"], v["y"])
    if v["kind"] == "boat":
        pts = [(v["x"], v["y"]), tuple(to)]
        try:
            check(ground_of(state["scenario"]), "boat", pts)
        except MoveError as exc:
            raise VehicleError(_("{name}: {exc}", name=name, exc=message_of(exc))) from None
        return vid, pts
    rail, line = min(railways(state["scenario"]).items(), key=lambda kv: kv[1].distance(here))
    if line.distance(Point(to)) > ON_LINE:
        raise VehicleError(
            _("{value:g},{value2:g} is not on {name}'s railway (KS-87)", value=to[0], value2=to[1], name=name)
        )
    a, b = line.project(here), line.project(Point(to))
    if abs(b - a) > MOVE["train"] + 1e-9:
        raise VehicleError(
            _("out of range: {value:.1f} ft along the line; a train runs 8 ft a turn (KS-87)", value=abs(b - a) / 12)
        )
    for bx, by in state["ks"].get("breaks", {}).get(rail, []):
        s = line.project(Point(bx, by))
        if min(a, b) < s - ON_LINE < max(a, b) or min(a, b) < s + ON_LINE < max(a, b):  # it would cross or reach it
            raise VehicleError(
                _(
                    "the rails of {rail} are broken at {bx:g},{by:g}: no train passes until they are "
                    "repaired (KS-55, LW-73)",
                    rail=rail,
                    bx=bx,
                    by=by,
                )
            )

    seg = substring(line, min(a, b), max(a, b))
    pts = [tuple(map(float, p)) for p in seg.coords]
    return vid, pts if a <= b else pts[::-1]


def new_vehicle(side: str, kind: str, spec: dict[str, Any]) -> dict[str, Any]:
    if kind == "train" and not 1 <= spec.get("wagons", 0) <= ENGINE_PULLS:
        raise VehicleError(_("a train has 1 to {ENGINE_PULLS} wagons (LW-72)", ENGINE_PULLS=ENGINE_PULLS))
    return {
        "kind": kind,
        "side": side,
        "name": spec["name"],
        "x": float(spec["at"][0]),
        "y": float(spec["at"][1]),
        "wagons": int(spec.get("wagons", 1)) if kind == "train" else 1,
        "aboard": [],
    }

"""What a viewer may see, built as an allow-list (never a filtered copy of the state).

Little Wars hides little: positions are public once the curtain lifts. Hidden are
each side's group organisation and standing melee choices, and during deployment
the other side's army (the curtain, LW-8). The Kriegspiel appendix will hide more
(boxes, works); it adds keys here rather than removing them.
"""

from __future__ import annotations

from typing import Any

from rules.core.protocol import Viewer

from . import wagons as wagon_rules
from .adjudicate import next_turn
from .fold import play_turn
from .geom import gun_name, index_of
from .units import CREW_MIN, CREW_RANGE, SIDES


def _visible_sides(state: dict[str, Any], viewer: Viewer) -> list[str]:
    if viewer.is_umpire:
        return list(SIDES)
    return [viewer.side] if viewer.role == "player" and viewer.side in SIDES else []


def _table(sc: dict[str, Any]) -> dict[str, Any]:
    keep = ("id", "type", "polygon", "line", "width", "level", "trees", "trunk")
    return {
        "width": sc["table"]["width"],
        "depth": sc["table"]["depth"],
        "edges": dict(sc["edges"]),
        "terrain": [{k: t[k] for k in keep if k in t} for t in sc["terrain"]],
    }


def _figure(fid: str, f: dict[str, Any]) -> dict[str, Any]:
    out = {"id": fid, "side": f["side"], "arm": f["arm"], "x": f["x"], "y": f["y"]}
    if f["dis"]:
        out["disarmed"] = True
    if f["st"] == "pow":
        out["captor"] = f["pow"][0]
    return out


def _counts(state: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for side in SIDES:
        figs = [f for f in state["figures"].values() if f["side"] == side]
        out[side] = {
            "free": sum(1 for f in figs if f["st"] == "ok"),
            "dead": sum(1 for f in figs if f["st"] == "dead"),
            "prisoners": sum(1 for f in figs if f["st"] == "pow"),
            "guns": sum(1 for g in state["guns"].values() if g["owner"] == side),
            "start": state["start"].get(side, {}).get("figures", 0),
        }
    return out


def _wagons(state: dict[str, Any], view: dict[str, Any], shown: list[Any], own: list[Any]) -> None:
    """LW-66/67: wagons and carts are in sight like guns (behind the curtain only one's own); who is out
    of supply and which guns lack a cart is known to the side itself (and the umpire)."""
    view["wagons"] = [
        {
            "id": wid,
            "name": wagon_rules.name_of(w),
            "kind": w["kind"],
            "side": w["side"],
            "owner": w["owner"],
            "x": w["x"],
            "y": w["y"],
        }
        for wid, w in wagon_rules.live(state).items()
        if w["owner"] in shown
    ]
    if state["phase"] == "play":
        view["supply"] = {
            s: {
                "unsupplied": wagon_rules.unsupplied(state, s),
                "guns_without_ammunition": [
                    gid
                    for gid, g in sorted(state["guns"].items())
                    if g["owner"] == s and wagon_rules.ammo_error(state, gid)
                ],
            }
            for s in own
        }


def build_view(state: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    view: dict[str, Any] = {
        "ruleset": "littlewars",
        "viewer": {"role": viewer.role, "side": viewer.side},
        "phase": state["phase"],
    }
    sc = state.get("scenario")
    if sc is None:
        view.update(table=None, figures=[], guns=[], turn=None, result=None)
        return view
    own = _visible_sides(state, viewer)
    # the curtain (LW-8) hides the other army until both have deployed; without it (LW-7) an army
    # deployed is in plain sight of everyone
    before = state["phase"] in ("edge", "deploy")
    shown = [s for s in SIDES if s in own or s in state.get("deployed", [])] if before else list(SIDES)
    view["scenario"] = {
        "name": sc["name"],
        "title": sc["title"],
        "kind": sc["kind"],
        "blast": sc["settings"]["blast"],
        "max_turns": sc["settings"]["max_turns"],
        "settings": dict(sc["settings"]),
    }  # the game's terms: both players agreed to them
    view["table"] = _table(sc)
    figs = state["figures"]
    on_table = [
        (i, f)
        for i, f in figs.items()
        if f["side"] in shown and (f["st"] == "ok" or (f["st"] == "pow" and not f["pow"][2]))
    ]
    view["figures"] = [_figure(i, f) for i, f in sorted(on_table)]
    index = index_of(figs)
    view["guns"] = [
        {
            "id": gid,
            "name": gun_name(g),
            "side": g["side"],
            "owner": g["owner"],
            "x": g["x"],
            "y": g["y"],
            "heading": g["heading"],
            "crewed": len(index.near((g["x"], g["y"]), CREW_RANGE, g["owner"])) >= CREW_MIN,
        }
        for gid, g in sorted(state["guns"].items())
        if g["owner"] in shown
    ]
    if "wagons" in state:
        _wagons(state, view, shown, own)
    view["groups"] = {s: {n: list(ids) for n, ids in state["groups"][s].items()} for s in own}
    view["prisoner_groups"] = {s: {n: list(ids) for n, ids in state["pows"][s].items()} for s in own}
    view["standing"] = {s: dict(state["standing"][s]) for s in own}
    view["counts"] = _counts(state) if not before or viewer.is_umpire else None
    spec = next_turn(state)
    # the game's turn number, as the platform counts it (fold.py); when the game is over, its last turn
    number = state["turn"] - 1 if state["phase"] == "over" else state["turn"]
    view["turn"] = {"number": number, "of_play": play_turn(state), "acting": list(spec.sides), "prompt": spec.prompt}
    last = state.get("last")
    view["last"] = (
        {k: list(last[k]) for k in ("impacts", "melees", "captures")} | {"turn": last["turn"]} if last else None
    )
    res = state.get("result")
    view["result"] = {k: res[k] for k in ("winner", "reason", "scores")} if res else None
    return view

"""The Kriegspiel part of the state and how ``kriegspiel.*`` events change it.

The whole state is the Little Wars state (fold.py documents it) with one more key,
``ks`` (plain JSON)::

    works     {id: work}                     see works.py; hidden until complete/exploded
    counter   last work number
    seen      {side: {"now": {"figures": {id: [x, y, arm]}, "guns": {id: [x, y]}},
                      "boxes": [token], "last": {id: [x, y, arm, turn]}, "tokens": {group: token}}}
    boxed     {side: [group names in boxes]}
    scouts    {side: [group names that are mounted scouts]}
    supply    {side: {"on": bool, "depots": {name: {x, y, food, forage, ammo, moved}},
                      "status": {group: status}, "last_horse": {group: turn}, "larder": {group: portions}}}
    guns_out  {gun id: first turn it may act again}        (KS-5)
    wrecks    {gun id: [x, y]} guns destroyed (KS-4, KS-60): they leave ``guns``
    generals  {side: {"figure": id | None, "out_until": turn, "lost": bool}}  (KS-12..14)
    notes     [{"turn", "audience", "text"}]  umpire narrative (the desk)
    shaken    {figure id: {"effect": "hold" | "fall_back", "turn"}}  after a charge (KS-72/73)
    blown     {terrain id: bridge item} bridges blown by engineers (KS-54), out of the scenario's terrain
    breaks    {railway id: [[x, y], ...]} where the rails are broken (KS-55, LW-73): no train passes
    engineers {side: [figure ids]} the Royal Engineers (the scenario's ``kriegspiel.engineers`` groups)
    vehicles  {side:name: vehicle} trains and boats (vehicles.py)
    dismounted {side: [figure ids]} cavalry on foot (KS-32, KS-76)
    columns   {side: [figure ids]} in column of twos or fours (KS-17, KS-27, KS-31)
    pursued   {figure id: {"by": [pursuer ids], "turn"}} must withdraw again in that turn (KS-80/84)
    pursued_guns {gun id: {"by": [pursuer ids], "turn"}} likewise for guns (KS-86)
    limbered  {side: [gun ids]} limbered up to march; the rest are in action (KS-33)
    rules_version  3 in games laid since version 3 (table_laid records it); absent before (version.py)

Events that change figures reuse the Little Wars events (``littlewars.fired``,
``littlewars.melee``...) so A's fold stays the single place figures die or are taken.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from rules.core.protocol import State
from rules.littlewars.fold import capture_figures, drop_from_groups
from rules.littlewars.fold import fold as lw_fold
from rules.littlewars.scenario import mirror
from rules.littlewars.units import SIDES

from .supply import PORTIONS
from .vehicles import new_vehicle

PREFIX = "kriegspiel."


def initial_ks(scenario: dict[str, Any] | None) -> dict[str, Any]:
    extra = (scenario or {}).get("kriegspiel") or {}
    supply = extra.get("supply") or {}
    return {
        "works": {},
        "counter": 0,
        "seen": {s: {"now": {"figures": {}, "guns": {}}, "boxes": [], "last": {}, "tokens": {}} for s in SIDES},
        "boxed": {s: [] for s in SIDES},
        "scouts": {s: list((extra.get("scouts") or {}).get(s, [])) for s in SIDES},
        "supply": {
            s: {
                "on": s in supply,
                "depots": {
                    d["name"]: {
                        "x": d["at"][0],
                        "y": d["at"][1],
                        "food": d["food"] * PORTIONS,
                        "forage": d["forage"] * PORTIONS,
                        "ammo": d["ammo"] * PORTIONS,
                        "wagons": d.get("wagons", 6),
                        "moved": False,
                    }
                    for d in supply.get(s, [])
                },
                "status": {},
                "last_horse": {},
                "larder": {},
            }
            for s in SIDES
        },
        "guns_out": {},
        "wrecks": {},
        "generals": {s: {"figure": (extra.get("generals") or {}).get(s), "out_until": 0, "lost": False} for s in SIDES},
        "notes": [],
        "shaken": {},
        "blown": {},
        "breaks": {},
        "engineers": {s: [] for s in SIDES},
        "vehicles": _vehicles(extra),
        "dismounted": {s: [] for s in SIDES},
        "columns": {s: [] for s in SIDES},
        "pursued": {},
        "pursued_guns": {},
        "limbered": {s: [] for s in SIDES},
        "general_eye": bool(extra.get("general_eye")),
    }


def _vehicles(extra: dict[str, Any]) -> dict[str, Any]:

    out = {}
    for kind, key in (("train", "trains"), ("boat", "boats")):
        for side, items in (extra.get(key) or {}).items():
            for spec in items:
                out[f"{side}:{spec['name']}"] = new_vehicle(side, kind, spec)
    return out


def fold(state: dict[str, Any], event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    if event_type.startswith("littlewars."):
        new = lw_fold(state, event_type, payload)
        if event_type == "littlewars.edge_chosen" and payload.get("swapped"):
            return _mirror_depots(state, new)
        if event_type == "littlewars.table_laid" or "ks" not in new:
            new = {**new, "ks": initial_ks(new.get("scenario"))}
            named = ((new.get("scenario") or {}).get("kriegspiel") or {}).get("engineers") or {}
            new["ks"]["engineers"] = {
                s: sorted(f for g in named.get(s, []) for f in new["groups"][s].get(g, [])) for s in SIDES
            }
            if event_type == "littlewars.table_laid" and "rules_version" in payload:
                new["ks"]["rules_version"] = payload["rules_version"]  # version 3 on (version.ks_version)
        return new
    if not event_type.startswith(PREFIX):
        return state
    handler = _HANDLERS.get(event_type[len(PREFIX) :])
    return state if handler is None else handler(state, payload)


def _mirror_depots(before: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """LW-2/53: a side that takes the other edge takes its wagons with it (mirrored like its army)."""
    sc = before["scenario"]
    supply = {}
    for side, sup in new["ks"]["supply"].items():
        depots = {
            k: {**d, **dict(zip(("x", "y"), mirror(sc, d["x"], d["y"]), strict=True))} for k, d in sup["depots"].items()
        }
        supply[side] = {**sup, "depots": depots}
    return _ks(new, supply=supply)


def _ks(state: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**state, "ks": {**state["ks"], **changes}}


def _works_report(state: State, p: Mapping[str, Any]) -> State:
    """A side's private report of the turn: works started, progressed, armed, abandoned; depots
    driven; trains and boats moved, loaded, unloaded (side audience, one every turn)."""
    works = dict(state["ks"]["works"])
    for w in p["started"]:
        works[w["id"]] = dict(w)
    for ch in p["progress"]:
        works[ch["id"]] = {**works[ch["id"]], "status": ch["status"], "done": ch["done"]}
    counter = max([state["ks"]["counter"]] + [int(w["id"][1:]) for w in p["started"] if ":" not in w["id"]])
    new = _ks(state, works=works, counter=counter)
    if "boxed" in p:
        new = _ks(new, boxed={**new["ks"]["boxed"], p["side"]: sorted(p["boxed"])})
    if "columns" in p:
        new = _ks(new, columns={**new["ks"]["columns"], p["side"]: sorted(p["columns"])})
    if "limbered" in p:
        new = _ks(new, limbered={**new["ks"].get("limbered", {}), p["side"]: sorted(p["limbered"])})
    if "dismounted" in p:
        new = _ks(new, dismounted={**new["ks"]["dismounted"], p["side"]: sorted(p["dismounted"])})
    if p.get("depots"):
        new = _depots_moved(new, p)
    if p.get("vehicles"):
        new = _vehicles_moved(new, p)
    for load in p.get("loaded", []):
        new = _vehicle_loaded(new, load)
    return new


def locate_work(works: dict[str, Any], p: Mapping[str, Any], kind: str | None = None) -> str:
    """The id of the work a public event is about. Older events name it (``id``); newer ones
    give the side's public number (works.public_ref) and, the first time, what the event shows
    of it: the side's one live, still hidden work of that kind, place and target (a side may
    not start two alike, plan.py)."""
    if "id" in p:
        return str(p["id"])
    side, number = p["side"], p["public"]
    for wid, w in works.items():
        if w["side"] == side and w.get("public") == number:
            return wid
    at, to = list(p["at"]), list(p["to"]) if p.get("to") else None
    return min(
        (w["started"], wid)
        for wid, w in works.items()
        if w["side"] == side
        and "public" not in w
        and w["status"] in ("building", "armed")
        and w["kind"] == (kind or p["kind"])
        and w["at"] == at
        and w["to"] == to
        and w.get("target") == p.get("target")
    )[1]


def _gone_public(
    state: dict[str, Any], p: Mapping[str, Any], kind: str | None = None, **change: Any
) -> tuple[dict[str, Any], str]:
    """The works with the one ``p`` reveals changed (and numbered publicly); and its id."""
    works = dict(state["ks"]["works"])
    wid = locate_work(works, p, kind)
    works[wid] = {**works[wid], **change, **({"public": p["public"]} if "public" in p else {})}
    return works, wid


def _work_completed(state: State, p: Mapping[str, Any]) -> State:
    """The public reveal of a finished entrenchment or gun pit (KS-67), or a task done (KS-54, KS-56)."""
    works, wid = _gone_public(state, p, status="complete")
    works[wid] = {**works[wid], "done": works[wid]["need"]}
    new = _ks(state, works=works)
    kind = p["kind"]
    target: Any = p.get("target")  # JSON: a bridge, depot or rail spot, or none for works
    if kind == "bridge_destroy":
        item = next(t for t in new["scenario"]["terrain"] if t["id"] == target)
        terrain = [t for t in new["scenario"]["terrain"] if t["id"] != target]
        new = _ks(
            {**new, "scenario": {**new["scenario"], "terrain": terrain}}, blown={**new["ks"]["blown"], target: item}
        )
    elif kind == "bridge_restore":
        item = new["ks"]["blown"][target]
        new = _ks(
            {**new, "scenario": {**new["scenario"], "terrain": new["scenario"]["terrain"] + [item]}},
            blown={k: v for k, v in new["ks"]["blown"].items() if k != target},
        )
    elif kind in ("rail_destroy", "rail_restore"):  # KS-55 / LW-73: the rails broken or mended there
        rail, xy = target.rsplit("@", 1)
        spot = [float(v) for v in xy.split(",")]
        breaks = {k: list(v) for k, v in new["ks"].get("breaks", {}).items()}
        kept = [b for b in breaks.get(rail, []) if b != spot]
        breaks[rail] = sorted(kept + [spot]) if kind == "rail_destroy" else kept
        new = _ks(new, breaks={k: v for k, v in breaks.items() if v})
    elif kind in ("depot_burn", "wagons_destroy"):
        supply = {s: dict(v) for s, v in new["ks"]["supply"].items()}
        for s, sup in supply.items():
            if s != p["side"] and target in sup["depots"]:
                sup["depots"] = _emptied(sup["depots"], target, None if kind == "depot_burn" else p["wagons"])
        new = _ks(new, supply=supply)
    return new


def _emptied(depots: dict[str, Any], name: str, wagons: int | None) -> dict[str, Any]:
    """A depot burnt (``wagons`` None: all of it, KS-56) or ``wagons`` of its wagons emptied (KS-57):
    each wagon holds an equal share of each store (rounded down: what is left stays)."""
    d = depots[name]
    if wagons is None or wagons >= d["wagons"]:
        return {k: v for k, v in depots.items() if k != name}
    left = d["wagons"] - wagons
    kept = {k: d[k] * left // d["wagons"] for k in ("food", "forage", "ammo")}
    return {**depots, name: {**d, **kept, "wagons": left}}


def _vehicles_moved(state: State, p: Mapping[str, Any]) -> State:
    """Trains and boats moved, with everyone aboard (KS-22, KS-87)."""
    vehicles = {k: dict(v) for k, v in state["ks"]["vehicles"].items()}
    figures = dict(state["figures"])
    for vid, (x, y) in p["vehicles"].items():
        vehicles[vid].update(x=x, y=y)
        for fid in vehicles[vid]["aboard"]:
            figures[fid] = {**figures[fid], "x": x, "y": y}
    return _ks({**state, "figures": figures}, vehicles=vehicles)


def _vehicle_loaded(state: State, p: Mapping[str, Any]) -> State:
    """Boarding or landing finished (KS-28/29): figures go aboard (to the vehicle's place) or ashore.
    Applied after the turn's journeys, so those who boarded stand where the vehicle now is."""
    vid = p["vehicle"]
    v = dict(state["ks"]["vehicles"][vid])
    figures = dict(state["figures"])
    for fid in p.get("boarded", []):
        figures[fid] = {**figures[fid], "x": v["x"], "y": v["y"]}
    for fid, (x, y) in p.get("landed", {}).items():
        figures[fid] = {**figures[fid], "x": x, "y": y}
    v["aboard"] = sorted((set(v["aboard"]) | set(p.get("boarded", []))) - set(p.get("landed", {})))
    works = dict(state["ks"]["works"])
    works[p["id"]] = {**works[p["id"]], "status": "complete", "done": works[p["id"]]["need"]}
    return _ks({**state, "figures": figures}, vehicles={**state["ks"]["vehicles"], vid: v}, works=works)


def _depots_moved(state: State, p: Mapping[str, Any]) -> State:
    """KS-20/38: the depot stands where it was driven and supplies nothing this turn."""
    side = p["side"]
    sup = dict(state["ks"]["supply"][side])
    depots = {k: dict(v) for k, v in sup["depots"].items()}
    for name, (x, y) in p["depots"].items():
        depots[name].update(x=x, y=y, moved=True)
    sup["depots"] = depots
    return _ks(state, supply={**state["ks"]["supply"], side: sup})


def _kill(state: dict[str, Any], ids: list[str]) -> dict[str, Any]:
    figures = dict(state["figures"])
    for fid in ids:
        figures[fid] = {**figures[fid], "st": "dead"}
    return {
        **state,
        "figures": figures,
        "groups": drop_from_groups(state["groups"], set(ids)),
        "pows": drop_from_groups(state["pows"], set(ids)),
    }


def _destroy_guns(state: dict[str, Any], gids: Collection[str]) -> dict[str, Any]:
    """Destroyed guns leave the table (and the score, LW-48); the wreck is remembered in ks."""
    if not gids:
        return state
    guns = {k: v for k, v in state["guns"].items() if k not in set(gids)}
    wrecks = {**state["ks"]["wrecks"], **{gid: [state["guns"][gid]["x"], state["guns"][gid]["y"]] for gid in gids}}
    return {**state, "guns": guns, "ks": {**state["ks"], "wrecks": wrecks}}


def _mine_exploded(state: State, p: Mapping[str, Any]) -> State:
    """The public reveal of a mine: it and everything within 6 in is gone (KS-59/60)."""
    new = _destroy_guns(_kill(state, p["killed"]), p["guns"])
    figures = dict(new["figures"])
    for fid, xy in p["positions"].items():
        figures[fid] = {**figures[fid], "x": xy[0], "y": xy[1]}
    new["figures"] = figures
    works, _ = _gone_public(new, p, "mine", status="exploded")
    return _ks(new, works=works)


def _blast(state: State, p: Mapping[str, Any]) -> State:
    """Gun and wagon effects of the turn's fire (KS-4..6, KS-13); kills came in littlewars.fired."""
    new = _destroy_guns(state, p["guns_destroyed"])
    out = dict(new["ks"]["guns_out"])
    for gid in p["guns_out"]:
        out[gid] = p["turn"] + 1 + 2  # out for the next two turns (KS-5)
    supply = {s: dict(v) for s, v in new["ks"]["supply"].items()}
    for side, names in p["wagons"].items():
        supply[side]["depots"] = {k: v for k, v in supply[side]["depots"].items() if k not in names}
    lost = p.get("vehicles", [])
    if lost:
        riders = [fid for vid in lost for fid in new["ks"]["vehicles"][vid]["aboard"]]
        new = _kill(new, riders)
        new = _ks(new, vehicles={k: v for k, v in new["ks"]["vehicles"].items() if k not in lost})
    gens = {s: dict(g) for s, g in new["ks"]["generals"].items()}
    for side in p["generals_out"]:
        gens[side]["out_until"] = p["turn"] + 1 + 3  # KS-13: away for three turns
    return _ks(new, guns_out=out, supply=supply, generals=gens)


def _sighted(state: State, p: Mapping[str, Any]) -> State:
    """What a side sees at the end of a turn; what it saw before stays as 'last seen'."""
    side = p["side"]
    old = state["ks"]["seen"][side]
    last = {k: v for k, v in old["last"].items() if k not in p["figures"]}
    for fid, (x, y, arm) in old["now"]["figures"].items():
        if fid not in p["figures"]:
            last[fid] = [x, y, arm, p["turn"] - 1]
    seen = {
        **state["ks"]["seen"],
        side: {
            "now": {
                "figures": dict(p["figures"]),
                "guns": dict(p["guns"]),
                "objects": [list(o) for o in p.get("objects", [])],
            },
            "boxes": list(p["boxes"]),
            "last": last,
            "tokens": dict(p["tokens"]),
        },
    }
    return _ks(state, seen=seen)


def _supplied(state: State, p: Mapping[str, Any]) -> State:
    side = p["side"]
    sup = dict(state["ks"]["supply"][side])
    depots = {k: dict(v) for k, v in sup["depots"].items()}
    for d in p["draws"]:
        depots[d["depot"]][d["kind"]] -= d["portions"]
    for name in depots:
        depots[name]["moved"] = False
    sup.update(
        depots=depots,
        status={g: dict(s) for g, s in p["groups"].items()},
        last_horse={g: s["last_horse"] for g, s in p["groups"].items() if s["last_horse"] is not None},
        larder={g: s["larder"] for g, s in p["groups"].items() if s["larder"]},
    )
    new = _ks(state, supply={**state["ks"]["supply"], side: sup})
    eaten = [fid for s in p["groups"].values() for fid in s["horses_eaten"]]
    if eaten:  # KS-50: the riders go on foot
        figures = dict(new["figures"])
        for fid in eaten:
            figures[fid] = {**figures[fid], "arm": "inf"}
        new["figures"] = figures
    return new


def _ledger_adjusted(state: State, p: Mapping[str, Any]) -> State:
    side = p["side"]
    sup = dict(state["ks"]["supply"][side])
    depots = {k: dict(v) for k, v in sup["depots"].items()}
    depots[p["depot"]][p["kind"]] = max(0, depots[p["depot"]][p["kind"]] + p["portions"])
    sup["depots"] = depots
    return _ks(state, supply={**state["ks"]["supply"], side: sup})


def _note(state: State, p: Mapping[str, Any]) -> State:
    return _ks(state, notes=state["ks"]["notes"] + [{"turn": p["turn"], "audience": p["to"], "text": p["text"]}])


def _ruling(state: State, p: Mapping[str, Any]) -> State:
    """An umpire's ruling that kills or revives figures (a new event with a reason, never an edit)."""
    new = _kill(state, p.get("killed", []))
    if p.get("revived"):
        figures = dict(new["figures"])
        for fid in p["revived"]:
            figures[fid] = {**figures[fid], "st": "ok", "pow": None}
        new["figures"] = figures
    return new


def _work_revealed(state: State, p: Mapping[str, Any]) -> State:
    """The umpire reveals a work early (a disputed sighting ruled in the enemy's favour)."""
    works, _ = _gone_public(state, p, revealed=True)
    return _ks(state, works=works)


def _work_abandoned(state: State, p: Mapping[str, Any]) -> State:
    works, _ = _gone_public(state, p, status="abandoned")
    return _ks(state, works=works)


def _general_lost(state: State, p: Mapping[str, Any]) -> State:
    """KS-14: the deputy takes over; his side holds next turn while command passes."""
    gens = {s: dict(g) for s, g in state["ks"]["generals"].items()}
    gens[p["side"]].update(figure=p["deputy"], lost=True, out_until=p["turn"] + 2)
    return _ks(state, generals=gens)


def _charge(state: State, p: Mapping[str, Any]) -> State:
    """A cavalry charge (KS-68..85): losses, who moved or was pushed back, a gun taken, after-effects."""
    new = _kill(state, p["killed"] + p["destroyed"])
    if p.get("captured"):  # KS-78: an isolated smaller body is partly taken, as in a Little Wars melee
        capture_figures(new, new, [], p["captured"], p["captor"], p["pow"])
    figures = dict(new["figures"])
    for fid, xy in p["moved"].items():
        figures[fid] = {**figures[fid], "x": xy[0], "y": xy[1]}
    new["figures"] = figures
    if p["gun"]:
        new["guns"] = {**new["guns"], p["gun"]: {**new["guns"][p["gun"]], "owner": p["side"]}}
    shaken = dict(new["ks"]["shaken"])
    if p["after"]:
        for fid in p["after"]["figures"]:
            shaken[fid] = {"effect": p["after"]["effect"], "turn": p["after"]["turn"]}
    pursuers = sorted(set(p["by"]) - set(p["killed"]) - set(p["destroyed"]))
    pursued = {k: v for k, v in new["ks"].get("pursued", {}).items() if v["turn"] > state["turn"]}
    pursued.update(
        {
            fid: {"by": pursuers, "turn": state["turn"] + 1}
            for fid in p.get("pursued", [])
            if new["figures"][fid]["st"] == "ok"
        }
    )
    guns = {k: v for k, v in new["ks"].get("pursued_guns", {}).items() if v["turn"] > state["turn"]}
    guns.update({gid: {"by": pursuers, "turn": state["turn"] + 1} for gid in p.get("pursued_guns", [])})
    return _ks(new, shaken=shaken, pursued=pursued, pursued_guns=guns)


def _sighting_ruled(state: State, p: Mapping[str, Any]) -> State:
    """The umpire grants a side a sighting the engine denied (a disputed sighting)."""
    side = p["side"]
    old = state["ks"]["seen"][side]
    now = {"figures": {**old["now"]["figures"], p["figure"]: list(p["at"])}, "guns": dict(old["now"]["guns"])}
    return _ks(state, seen={**state["ks"]["seen"], side: {**old, "now": now}})


def _withdrawn_off(state: State, p: Mapping[str, Any]) -> State:
    """Version 3 (KS-81): pursued figures whose withdrawal would leave the table are destroyed."""
    return _kill(state, p["destroyed"])


_HANDLERS = {
    "works": _works_report,
    "work_completed": _work_completed,
    "mine_exploded": _mine_exploded,
    "blast": _blast,
    "sighted": _sighted,
    "supplied": _supplied,
    "ledger_adjusted": _ledger_adjusted,
    "note": _note,
    "ruling": _ruling,
    "work_revealed": _work_revealed,
    "work_abandoned": _work_abandoned,
    "sighting_ruled": _sighting_ruled,
    "general_lost": _general_lost,
    "charge": _charge,
    "withdrawn_off": _withdrawn_off,
}

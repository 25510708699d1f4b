"""What a viewer may see under the fog of war: an allow-list on top of the Little Wars view.

A player sees: his own figures, guns, groups, works (all, with progress), boxes and
supply ledger; of the enemy only what his last sighting report holds (sighting.py) -
figures and guns seen at the end of the last turn, box tokens (never a name, the
number only within 10 ft), and what he saw before as "last seen"; works of the enemy
only once revealed (finished entrenchments and gun pits, exploded mines); impacts of
his own shots and those that fell where he can see; his own side's counts only.
The umpire sees everything, including every work in progress and every ledger.
Nothing here depends on a hidden work of the other side: the differential test
(tests/rules/kriegspiel/test_leaks.py) checks it.
"""

from __future__ import annotations

import math
from typing import Any

from rules.core.protocol import Viewer
from rules.littlewars.units import SIDES
from rules.littlewars.view import build_view as lw_view

from . import works
from .sighting import SIGHT_RANGE
from .version import ks_version

REVEALED = ("complete", "exploded")


def _work(w: dict[str, Any], full: bool, viewer: Viewer) -> dict[str, Any]:
    """A work as the viewer knows it: its side's own id to that side and the umpire, else its public name."""
    out = {
        "id": works.label(w, viewer.side, viewer.is_umpire),
        "kind": w["kind"],
        "side": w["side"],
        "at": w["at"],
        "to": w["to"],
        "status": w["status"],
    }
    if full:
        out.update(done=w["done"], need=w["need"], workers=list(w["workers"]), started=w["started"])
        if "public" in w:
            out["public"] = works.label(w, None)
    return out


def _works(state: dict[str, Any], viewer: Viewer) -> list[dict[str, Any]]:
    out = []
    for w in state["ks"]["works"].values():
        mine = viewer.is_umpire or w["side"] == viewer.side
        if mine:
            out.append(_work(w, True, viewer))
        elif w["status"] in REVEALED or w.get("revealed"):
            out.append(_work(w, False, viewer))
    return sorted(out, key=lambda w: works.number(w["id"]))  # by the names shown, never by hidden ids


def _own_ks(state: dict[str, Any], side: str) -> dict[str, Any]:
    ks = state["ks"]
    sup = ks["supply"][side]
    return {
        "boxed": list(ks["boxed"][side]),
        "vehicles": {
            k: {**v, "aboard": list(v["aboard"])} for k, v in sorted(ks["vehicles"].items()) if v["side"] == side
        },
        "supply": {
            "on": sup["on"],
            "depots": {k: dict(v) for k, v in sorted(sup["depots"].items())},
            "status": {k: dict(v) for k, v in sorted(sup["status"].items())},
        },
        # the guns it holds now: a captured gun is its own (KS-78), a lost one no longer (it is the enemy's)
        "guns_out": {g: t for g, t in sorted(ks["guns_out"].items()) if state["guns"].get(g, {}).get("owner") == side},
        "limbered": list(ks.get("limbered", {}).get(side, [])),
        "general": dict(ks["generals"][side]),
        # what binds the side's own units this turn, which its orders are checked against (a charge's
        # after-effects and pursuit were public; formations, engineers and scouts are its own)
        "columns": list(ks["columns"][side]),
        "engineers": list(ks.get("engineers", {}).get(side, [])),
        "scouts": list(ks["scouts"][side]),
        "shaken": {f: dict(e) for f, e in sorted(ks["shaken"].items()) if state["figures"][f]["side"] == side},
        "pursued": {
            f: {"by": list(e["by"]), "turn": e["turn"]}
            for f, e in sorted(ks.get("pursued", {}).items())
            if state["figures"][f]["side"] == side
        },
        "pursued_guns": {
            g: {"by": list(e["by"]), "turn": e["turn"]}
            for g, e in sorted(ks.get("pursued_guns", {}).items())
            if g in state["guns"] and state["guns"][g]["owner"] == side
        },
    }


# The keys of the Little Wars view this view passes on (then fogs): an allow-list, so a key the
# main part adds later reaches no Kriegspiel player until it is judged here.
LW_KEYS = (
    "viewer",
    "phase",
    "scenario",
    "table",
    "figures",
    "guns",
    "groups",
    "prisoner_groups",
    "standing",
    "counts",
    "turn",
    "last",
    "result",
)


def build_view(state: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    full = lw_view(state, viewer)
    view = {"ruleset": "kriegspiel", **{k: full[k] for k in LW_KEYS if k in full}}
    if state.get("scenario") is None or "ks" not in state:
        return view
    ks = state["ks"]
    view["kriegspiel"] = {
        "works": _works(state, viewer),
        "wrecks": {g: list(xy) for g, xy in sorted(ks["wrecks"].items())},
        "railways": [dict(r) for r in (state["scenario"].get("kriegspiel") or {}).get("railways", [])],
        "rail_breaks": {k: [list(b) for b in v] for k, v in sorted(ks.get("breaks", {}).items())},
        "notes": [dict(n) for n in ks["notes"] if viewer.may_see(n["audience"])],
        # the game's terms, the same for every viewer: the rules it plays (version.py), KS-25's reading
        "rules_version": ks_version(state),
        "steep_slopes": (state["scenario"].get("kriegspiel") or {}).get("steep_slopes", "everyone"),
    }
    if viewer.is_umpire:
        _on_foot(state, view)
        view["kriegspiel"]["sides"] = {s: _own_ks(state, s) for s in SIDES}
        view["kriegspiel"]["seen"] = {s: _seen(state, s) for s in SIDES}
        return view
    side = viewer.side if viewer.role == "player" else None
    _fog(state, view, side)
    _on_foot(state, view)
    if side is not None:
        view["kriegspiel"].update(_own_ks(state, side))
        view["kriegspiel"]["seen"] = _seen(state, side)
    return view


def _on_foot(state: dict[str, Any], view: dict[str, Any]) -> None:
    """Cavalry on foot is marked on every figure the viewer may see (one sees men holding horses)."""
    on_foot = {f for ids in state["ks"].get("dismounted", {}).values() for f in ids}
    for f in view["figures"]:
        if f["id"] in on_foot:
            f["dismounted"] = True


def _seen(state: dict[str, Any], side: str) -> dict[str, Any]:
    s = state["ks"]["seen"][side]
    return {
        "boxes": [dict(b) for b in s["boxes"]],
        "objects": [{"kind": k, "x": x, "y": y} for k, x, y in s["now"].get("objects", [])],
        "last_seen": [
            {"id": fid, "x": v[0], "y": v[1], "arm": v[2], "turn": v[3]} for fid, v in sorted(s["last"].items())
        ],
    }


def _fog(state: dict[str, Any], view: dict[str, Any], side: str | None) -> None:
    """Keep of the enemy only what ``side`` sees now; an observer (no side) sees no army at all."""
    if state["phase"] == "deploy":
        return  # the Little Wars curtain already hides the other side
    now = state["ks"]["seen"][side]["now"] if side else {"figures": {}, "guns": {}}
    view["figures"] = [
        f
        for f in view["figures"]
        if side is not None
        and (f["side"] == side or (f["id"] in now["figures"] and f.get("captor") is None) or f.get("captor") == side)
    ]
    view["guns"] = [g for g in view["guns"] if g["owner"] == side or g["id"] in now["guns"]]
    view["counts"] = {side: view["counts"][side]} if side and view.get("counts") else None
    view["last"] = _last_seen(view.get("last"), view, side, now, state["turn"])


def _last_seen(
    last: dict[str, Any] | None, view: dict[str, Any], side: str | None, now: dict[str, Any], turn: int
) -> dict[str, Any] | None:
    """What the viewer saw of the turn just played: shots of its own or that fell in sight, melees,
    captures. None when that is nothing, or when the record is of an older turn: the record is
    kept of the last turn in which ANYONE fired or fought, so an enemy's hidden shots would
    otherwise replace (or create) it, and the viewer would see its own earlier shots vanish."""
    if not last or last["turn"] < turn - 1:
        return None
    own = [(f["x"], f["y"]) for f in view["figures"] if f["side"] == side]
    last = {
        **last,
        "impacts": [
            dict(i, gun=i["gun"] if i["gun"].startswith(f"{side}:") else None)
            for i in last["impacts"]
            if (side and i["gun"].startswith(f"{side}:")) or any(math.dist(p, i["at"]) <= SIGHT_RANGE for p in own)
        ],
        "captures": [g for g in last["captures"] if side and (g.startswith(f"{side}:") or g in now["guns"])],
    }
    return last if last["impacts"] or last["melees"] or last["captures"] else None

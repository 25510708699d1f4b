"""What one viewer may see, built as an allow-list.

Hidden units (hidden deployment, WW-61 #7) are shown only to their own side and the umpire
until revealed; the log keeps only events the viewer's audience allows.
"""

from __future__ import annotations

from typing import Any

from rules.core.protocol import Viewer
from rules.hex import los

from .data import MORALE_NAMES, SIDES
from .describe import describe_event
from .turn import next_turn

UNIT_FIELDS = (
    "id",
    "side",
    "name",
    "profile",
    "kind",
    "hex",
    "status",
    "bonus",
    "penalty",
    "acted",
    "moved",
    "mode",
    "locked",
    "hidden",
)


def _unit(u: dict[str, Any], own: bool) -> dict[str, Any]:
    out = {k: u[k] for k in UNIT_FIELDS}
    out["morale"] = MORALE_NAMES[u["morale"]]
    if u["kind"] == "squad":
        out["models"] = len(u["models"])
        out["start"] = u["start"]
        out["roles"] = {r: u["models"].count(r) for r in sorted(set(u["models"]))}
        if own:
            out["priority"] = list(u["priority"])
    else:
        out["crew"] = len(u["crew"])
        out["crew_stunned"] = len(u["crew_stunned"])
        out["stunned"] = u["stunned"]
        out["crew_start"] = u["start"]
        out["weapons"] = list(u["weapons"])
        out["immobile"] = u["immobile"]
        out["burning"] = u["burning"]
    return out


def build_view(state: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    view: dict[str, Any] = {
        "ruleset": "warworlds",
        "viewer": {"role": viewer.role, "side": viewer.side},
        "phase": state["phase"],
        "result": state["result"],
    }
    sc = state.get("scenario")
    if sc is None:
        view.update(scenario=None, units=[], log=[], turn=None)
        return view
    view["scenario"] = {
        "name": sc["name"],
        "title": sc["title"],
        "turns": sc["turns"],
        "map": sc["map"],
        "objectives": sc["objectives"],
        "buildings": sc["buildings"],
        "los_rule": sc["los_rule"],
        "los_version": los.version_of(sc),
    }
    if "rules_version" in sc:  # a position rebuilt from the view plays by the same rules (battle.rules_version)
        view["scenario"]["rules_version"] = sc["rules_version"]
    if "deployment" in sc:  # version 3: the zones are the public scenario's; what is put there is not
        view["scenario"]["deployment"] = sc["deployment"]
    spec = next_turn(state)
    view["turn"] = {
        "number": state["turn"],
        "round": state["round"],
        "attacker": state["attacker"],
        "acting": list(spec.sides),
        "prompt": spec.prompt,
    }
    units = []
    for uid in sorted(state["units"]):
        u = state["units"][uid]
        own = viewer.is_umpire or viewer.side == u["side"]
        if u["hidden"] and not own:
            continue
        units.append(_unit(u, own))
    view["units"] = units
    view["score"] = dict(state["score"])
    view["log"] = [describe_event(t, p) for t, p, aud in state["log"] if viewer.may_see(aud)]
    view["sides"] = list(SIDES)
    return view

"""What one viewer may see. Napoleon's War has no hidden information (digest, summary): every
viewer sees the whole field; the standing instructions of a side are its own business."""

from __future__ import annotations

from typing import Any

from rules.core.protocol import Viewer
from rules.hex import los

from .data import SIDES
from .describe import describe_event
from .turn import next_turn

UNIT_FIELDS = (
    "id",
    "side",
    "arm",
    "name",
    "nation",
    "hex",
    "figures",
    "start",
    "status",
    "acted",
    "square",
    "done",
    "flanked",
    "enters",
    "entry",
)
LEADER_FIELDS = ("id", "side", "arm", "level", "name", "nation", "hex", "status", "moved", "used")


def build_view(state: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    view: dict[str, Any] = {
        "ruleset": "napoleon",
        "viewer": {"role": viewer.role, "side": viewer.side},
        "phase": state["phase"],
        "result": state["result"],
    }
    sc = state.get("scenario")
    if sc is None:
        view.update(scenario=None, units=[], leaders=[], log=[], turn=None)
        return view
    view["scenario"] = {
        k: sc[k] for k in ("name", "title", "turns", "first", "caps", "armies", "options", "objectives", "map")
    }
    view["scenario"]["los_version"] = los.version_of(sc)  # a position rebuilt from the view sees alike
    if "rules_version" in sc:  # and plays by the same rules (battle.rules_version)
        view["scenario"]["rules_version"] = sc["rules_version"]
    spec = next_turn(state)
    view["turn"] = {
        "number": state["turn"],
        "side": state["side"],
        "opening": state["opening"],
        "acting": list(spec.sides),
        "prompt": spec.prompt,
    }
    view["units"] = [{k: state["units"][uid][k] for k in UNIT_FIELDS} for uid in sorted(state["units"])]
    view["leaders"] = [{k: state["leaders"][lid][k] for k in LEADER_FIELDS} for lid in sorted(state["leaders"])]
    view["standing"] = {s: dict(v) for s, v in state["standing"].items() if viewer.is_umpire or viewer.side == s}
    view["score"] = dict(state["score"])
    view["log"] = [describe_event(t, p) for t, p, aud in state["log"] if viewer.may_see(aud)]
    view["sides"] = list(SIDES)
    return view

"""Kriegspiel scenarios: a Little Wars scenario plus a ``kriegspiel`` block, validated here.

    "kriegspiel": {
      "supply":   {side: [{"name", "at": [x, y], "food", "forage", "ammo", "wagons"}]},  rations (KS-41..43)
                                                  in "wagons" wagons (6 unless given; KS-57)
      "scouts":   {side: [group names]},        mounted scouts, never boxed (LW-63)
      "generals": {side: figure id}             the cavalry figure that is the general (KS-12)
      "engineers": {side: [group names]}        infantry groups that are Royal Engineers (KS-18, KS-36, KS-54)
      "general_eye": true                       KS-12 read strictly: a side sees only from its general's
                                                standpoint (and what touches its units); needs "generals"
    }

A side without a "supply" entry is not supplied by the rules (decision: supply is on
for a side only when the scenario gives it depots, so Little Wars scenarios still play).
"""
from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from rules.core.i18n import _
from rules.core.protocol import ScenarioError

from ..scenario import _need, _point, builtin_names as lw_names, load as lw_load
from ..units import SIDES

DEFAULT = "ks_farm"


def builtin_names() -> list[str]:
    folder = resources.files("rules.littlewars.kriegspiel") / "scenarios"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


@functools.cache
def playable_lw_names() -> tuple[str, ...]:
    """The Little Wars scenarios this appendix accepts as they stand (the others break a KS rule)."""
    out = []
    for name in lw_names():
        try:
            load(name)
        except ScenarioError:
            continue
        out.append(name)
    return tuple(out)


def _builtin(name: str) -> dict:
    return json.loads((resources.files("rules.littlewars.kriegspiel") / "scenarios" / f"{name}.json").read_text())


def load(scenario: Any | None) -> dict:
    """A validated copy: a Kriegspiel or Little Wars scenario (by name, as {"base", "settings"}, or whole)."""
    if scenario is None:
        scenario = DEFAULT
    if isinstance(scenario, str) and scenario in builtin_names():
        scenario = _builtin(scenario)
    elif isinstance(scenario, str) and scenario not in lw_names():
        raise ScenarioError(_("unknown scenario {scenario} (known: {value})", scenario=repr(scenario), value=', '.join(builtin_names() + lw_names())))
    elif isinstance(scenario, dict) and scenario.get("base") in builtin_names():
        extra = set(scenario) - {"base", "settings", "commands"}
        _need(not extra, "scenario", f"with 'base' only 'settings' and 'commands' may be given, not "
                                     f"{', '.join(sorted(extra))}")
        base = _builtin(scenario["base"])
        _need(isinstance(scenario.get("settings", {}), dict), "settings", "must be an object")
        scenario = {**base, "settings": {**base.get("settings", {}), **scenario.get("settings", {})},
                    **({"commands": scenario["commands"]} if "commands" in scenario else {})}
    sc = lw_load(scenario)
    _need(sc["settings"].get("deployment", "curtain") == "curtain", "settings.deployment",
          "Kriegspiel deploys behind the curtain: each side sees the other only as its men come to see it")
    _need(sc["settings"].get("scale", 1) == 1, "settings.scale",
          "the appendix has its own rates and ranges in feet (KS-15..22): the main part's scale (LW-62) is not used")
    _need(not sc["settings"]["supply"], "settings.supply",
          "the appendix supplies from its depots (kriegspiel.supply, KS-40..53), not the main part's wagons (LW-66/67)")
    sc["settings"]["blast"] = True  # KS-2: the appendix always replaces knocking down with the blast rule
    sc["kriegspiel"] = _extra(sc, sc.get("kriegspiel") or {})
    _need(not (sc["settings"].get("choose_edge") and (sc["kriegspiel"]["trains"] or sc["kriegspiel"]["boats"])),
          "settings.choose_edge", "trains and boats stand on the scenario's lines and rivers: with them the sides "
                                  "keep their edges")
    return sc


def _groups_of(ks: dict, key: str, groups: dict, arm: str, what: str) -> dict:
    """{side: [group names]} of the scenario's groups of one arm (scouts, engineers)."""
    out = {}
    for side, names in (ks.get(key) or {}).items():
        _need(side in SIDES and isinstance(names, list), f"kriegspiel.{key}.{side}", "must list group names")
        for n in names:
            _need(n in groups[side] and groups[side][n]["arm"] == arm, f"kriegspiel.{key}.{side}",
                  f"{n!r} is not {what} of {side}")
        out[side] = list(names)
    return out


def _transport(sc: dict, ks: dict) -> dict:
    """Railways (lines), trains on them and boats on rivers (KS-22, KS-87, LW-71/72)."""
    from shapely.geometry import LineString, Point

    from ..table import terrain_geometry

    out = {"railways": [], "trains": {}, "boats": {}}
    for i, r in enumerate(ks.get("railways") or []):
        w = f"kriegspiel.railways[{i}]"
        _need(isinstance(r, dict) and isinstance(r.get("id"), str) and r["id"], w, "needs an id")
        pts = r.get("line")
        _need(isinstance(pts, list) and len(pts) >= 2, f"{w}.line", "needs 2 or more points")
        out["railways"].append({"id": r["id"], "line": [_point(p, f"{w}.line[{j}]") for j, p in enumerate(pts)]})
    lines = [LineString(r["line"]) for r in out["railways"]]
    water = [terrain_geometry(t) for t in sc["terrain"] if t["type"] == "river"]
    for kind, where_ok, why in (("trains", lambda p: any(ln.distance(p) <= 1.0 for ln in lines), "on a railway"),
                                ("boats", lambda p: any(g.covers(p) for g in water), "on a river")):
        for side, items in (ks.get(kind) or {}).items():
            _need(side in SIDES and isinstance(items, list), f"kriegspiel.{kind}.{side}", "must be a list")
            out[kind][side] = []
            for i, v in enumerate(items):
                w = f"kriegspiel.{kind}.{side}[{i}]"
                _need(isinstance(v, dict) and isinstance(v.get("name"), str) and v["name"], w, "needs a name")
                at = _point(v.get("at"), f"{w}.at")
                _need(where_ok(Point(at)), f"{w}.at", f"must be {why}")
                entry = {"name": v["name"], "at": at}
                if kind == "trains":
                    n = v.get("wagons")
                    _need(isinstance(n, int) and 1 <= n <= 8, f"{w}.wagons",
                          "an engine pulls 1 to 8 wagons (LW-72)")
                    entry["wagons"] = n
                out[kind][side].append(entry)
    return out


def _extra(sc: dict, ks: Any) -> dict:
    _need(isinstance(ks, dict), "kriegspiel", "must be an object")
    unknown = set(ks) - {"supply", "scouts", "generals", "engineers", "railways", "trains", "boats",
                        "general_eye", "steep_slopes"}
    _need(not unknown, "kriegspiel", f"unknown key(s) {', '.join(sorted(unknown))}")
    out = {"supply": {}, "scouts": {}, "generals": {}, "engineers": {}}
    out.update(_transport(sc, ks))
    groups = {s: {g["name"]: g for g in sc["forces"][s]["groups"]} for s in SIDES}
    for side, depots in (ks.get("supply") or {}).items():
        where = f"kriegspiel.supply.{side}"
        _need(side in SIDES, where, f"side must be one of {', '.join(SIDES)}")
        _need(isinstance(depots, list), where, "must be a list of depots")
        out["supply"][side] = []
        for i, d in enumerate(depots):
            w = f"{where}[{i}]"
            _need(isinstance(d, dict) and isinstance(d.get("name"), str) and d["name"], w, "needs a name")
            entry = {"name": d["name"], "at": _point(d.get("at"), f"{w}.at")}
            n = d.get("wagons", 6)
            _need(isinstance(n, int) and not isinstance(n, bool) and n >= 1, f"{w}.wagons",
                  "must be a whole number of wagons, 1 or more")
            entry["wagons"] = n
            for k in ("food", "forage", "ammo"):
                v = d.get(k, 0)
                _need(isinstance(v, int) and not isinstance(v, bool) and v >= 0, f"{w}.{k}",
                      "must be a whole number of rations, 0 or more")
                entry[k] = v
            out["supply"][side].append(entry)
    out["scouts"] = _groups_of(ks, "scouts", groups, "cav", "a cavalry group")
    out["engineers"] = _groups_of(ks, "engineers", groups, "inf", "an infantry group (Royal Engineers are on foot)")
    for side, fid in (ks.get("generals") or {}).items():
        _need(side in SIDES and isinstance(fid, str), f"kriegspiel.generals.{side}", "must name a figure, e.g. red:c1")
        _need(fid.startswith(f"{side}:c"), f"kriegspiel.generals.{side}", "the general is a cavalry figure (KS-12)")
        out["generals"][side] = fid
    eye = ks.get("general_eye", False)
    _need(isinstance(eye, bool), "kriegspiel.general_eye", "must be true or false")
    _need(not eye or set(out["generals"]) == set(SIDES), "kriegspiel.general_eye",
          "the general's eye needs a general for each side (kriegspiel.generals)")
    out["general_eye"] = eye
    steep = ks.get("steep_slopes", "everyone")
    _need(steep in ("everyone", "wheels"), "kriegspiel.steep_slopes",
          "must be \"everyone\" (the seed, KS-25) or \"wheels\" (the English original)")
    out["steep_slopes"] = steep
    return out

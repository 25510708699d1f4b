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

from shapely.geometry import LineString, Point

from rules.core.i18n import _
from rules.core.protocol import ScenarioError
from rules.littlewars.scenario import builtin_names as lw_names
from rules.littlewars.scenario import load as lw_load
from rules.littlewars.scenario import read_point, require
from rules.littlewars.units import SIDES
from rules.tabletop.terrain import terrain_geometry

DEFAULT = "ks_farm"


def builtin_names() -> list[str]:
    folder = resources.files("rules.kriegspiel") / "scenarios"
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


def builtin_scenario(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((resources.files("rules.kriegspiel") / "scenarios" / f"{name}.json").read_text())
    return data


def load(scenario: Any | None) -> dict[str, Any]:
    """A validated copy: a Kriegspiel or Little Wars scenario (by name, as {"base", "settings"}, or whole)."""
    if scenario is None:
        scenario = DEFAULT
    if isinstance(scenario, str) and scenario in builtin_names():
        scenario = builtin_scenario(scenario)
    elif isinstance(scenario, str) and scenario not in lw_names():
        raise ScenarioError(
            _(
                "unknown scenario {scenario} (known: {value})",
                scenario=repr(scenario),
                value=", ".join(builtin_names() + lw_names()),
            )
        )
    elif isinstance(scenario, dict) and scenario.get("base") in builtin_names():
        extra = set(scenario) - {"base", "settings", "commands"}
        require(
            not extra,
            "scenario",
            f"with 'base' only 'settings' and 'commands' may be given, not {', '.join(sorted(extra))}",
        )
        base = builtin_scenario(scenario["base"])
        require(isinstance(scenario.get("settings", {}), dict), "settings", "must be an object")
        scenario = {
            **base,
            "settings": {**base.get("settings", {}), **scenario.get("settings", {})},
            **({"commands": scenario["commands"]} if "commands" in scenario else {}),
        }
    sc = lw_load(scenario)
    require(
        sc["settings"].get("deployment", "curtain") == "curtain",
        "settings.deployment",
        "Kriegspiel deploys behind the curtain: each side sees the other only as its men come to see it",
    )
    require(
        sc["settings"].get("scale", 1) == 1,
        "settings.scale",
        "the appendix has its own rates and ranges in feet (KS-15..22): the main part's scale (LW-62) is not used",
    )
    require(
        not sc["settings"]["supply"],
        "settings.supply",
        "the appendix supplies from its depots (kriegspiel.supply, KS-40..53), not the main part's wagons (LW-66/67)",
    )
    sc["settings"]["blast"] = True  # KS-2: the appendix always replaces knocking down with the blast rule
    sc["kriegspiel"] = _extra(sc, sc.get("kriegspiel") or {})
    require(
        not (sc["settings"].get("choose_edge") and (sc["kriegspiel"]["trains"] or sc["kriegspiel"]["boats"])),
        "settings.choose_edge",
        "trains and boats stand on the scenario's lines and rivers: with them the sides keep their edges",
    )
    return sc


def _groups_of(ks: dict[str, Any], key: str, groups: dict[str, Any], arm: str, what: str) -> dict[str, list[str]]:
    """{side: [group names]} of the scenario's groups of one arm (scouts, engineers)."""
    out: dict[str, list[str]] = {}
    for side, names in (ks.get(key) or {}).items():
        require(side in SIDES and isinstance(names, list), f"kriegspiel.{key}.{side}", "must list group names")
        for n in names:
            require(
                n in groups[side] and groups[side][n]["arm"] == arm,
                f"kriegspiel.{key}.{side}",
                f"{n!r} is not {what} of {side}",
            )
        out[side] = list(names)
    return out


def _transport(sc: dict[str, Any], ks: dict[str, Any]) -> dict[str, Any]:
    """Railways (lines), trains on them and boats on rivers (KS-22, KS-87, LW-71/72)."""
    out: dict[str, Any] = {"railways": [], "trains": {}, "boats": {}}
    for i, r in enumerate(ks.get("railways") or []):
        w = f"kriegspiel.railways[{i}]"
        require(isinstance(r, dict) and isinstance(r.get("id"), str) and r["id"], w, "needs an id")
        pts = r.get("line")
        require(isinstance(pts, list) and len(pts) >= 2, f"{w}.line", "needs 2 or more points")
        out["railways"].append({"id": r["id"], "line": [read_point(p, f"{w}.line[{j}]") for j, p in enumerate(pts)]})
    lines = [LineString(r["line"]) for r in out["railways"]]
    water = [terrain_geometry(t) for t in sc["terrain"] if t["type"] == "river"]

    def on_rail(p: Point) -> bool:
        return any(ln.distance(p) <= 1.0 for ln in lines)

    def on_river(p: Point) -> bool:
        return any(g.covers(p) for g in water)

    for kind, where_ok, why in (("trains", on_rail, "on a railway"), ("boats", on_river, "on a river")):
        for side, items in (ks.get(kind) or {}).items():
            require(side in SIDES and isinstance(items, list), f"kriegspiel.{kind}.{side}", "must be a list")
            out[kind][side] = []
            for i, v in enumerate(items):
                w = f"kriegspiel.{kind}.{side}[{i}]"
                require(isinstance(v, dict) and isinstance(v.get("name"), str) and v["name"], w, "needs a name")
                at = read_point(v.get("at"), f"{w}.at")
                require(where_ok(Point(at)), f"{w}.at", f"must be {why}")
                entry = {"name": v["name"], "at": at}
                if kind == "trains":
                    n = v.get("wagons")
                    require(isinstance(n, int) and 1 <= n <= 8, f"{w}.wagons", "an engine pulls 1 to 8 wagons (LW-72)")
                    entry["wagons"] = n
                out[kind][side].append(entry)
    return out


def _extra(sc: dict[str, Any], ks: Any) -> dict[str, Any]:
    require(isinstance(ks, dict), "kriegspiel", "must be an object")
    unknown = set(ks) - {
        "supply",
        "scouts",
        "generals",
        "engineers",
        "railways",
        "trains",
        "boats",
        "general_eye",
        "steep_slopes",
    }
    require(not unknown, "kriegspiel", f"unknown key(s) {', '.join(sorted(unknown))}")
    out: dict[str, Any] = {"supply": {}, "scouts": {}, "generals": {}, "engineers": {}}
    out.update(_transport(sc, ks))
    groups = {s: {g["name"]: g for g in sc["forces"][s]["groups"]} for s in SIDES}
    for side, depots in (ks.get("supply") or {}).items():
        where = f"kriegspiel.supply.{side}"
        require(side in SIDES, where, f"side must be one of {', '.join(SIDES)}")
        require(isinstance(depots, list), where, "must be a list of depots")
        out["supply"][side] = []
        for i, d in enumerate(depots):
            w = f"{where}[{i}]"
            require(isinstance(d, dict) and isinstance(d.get("name"), str) and d["name"], w, "needs a name")
            entry = {"name": d["name"], "at": read_point(d.get("at"), f"{w}.at")}
            n = d.get("wagons", 6)
            require(
                isinstance(n, int) and not isinstance(n, bool) and n >= 1,
                f"{w}.wagons",
                "must be a whole number of wagons, 1 or more",
            )
            entry["wagons"] = n
            for k in ("food", "forage", "ammo"):
                v = d.get(k, 0)
                require(
                    isinstance(v, int) and not isinstance(v, bool) and v >= 0,
                    f"{w}.{k}",
                    "must be a whole number of rations, 0 or more",
                )
                entry[k] = v
            out["supply"][side].append(entry)
    out["scouts"] = _groups_of(ks, "scouts", groups, "cav", "a cavalry group")
    out["engineers"] = _groups_of(ks, "engineers", groups, "inf", "an infantry group (Royal Engineers are on foot)")
    for side, fid in (ks.get("generals") or {}).items():
        require(
            side in SIDES and isinstance(fid, str), f"kriegspiel.generals.{side}", "must name a figure, e.g. red:c1"
        )
        require(fid.startswith(f"{side}:c"), f"kriegspiel.generals.{side}", "the general is a cavalry figure (KS-12)")
        out["generals"][side] = fid
    eye = ks.get("general_eye", False)
    require(isinstance(eye, bool), "kriegspiel.general_eye", "must be true or false")
    require(
        not eye or set(out["generals"]) == set(SIDES),
        "kriegspiel.general_eye",
        "the general's eye needs a general for each side (kriegspiel.generals)",
    )
    out["general_eye"] = eye
    steep = ks.get("steep_slopes", "everyone")
    require(
        steep in ("everyone", "wheels"),
        "kriegspiel.steep_slopes",
        'must be "everyone" (the seed, KS-25) or "wheels" (the English original)',
    )
    out["steep_slopes"] = steep
    return out

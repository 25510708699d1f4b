"""Scenario files: map, armies, command points, forces, leaders, game settings.

Format (JSON; hexes by CCRR number)::

    {"name": "mill_ford", "title": "...", "turns": 6, "first": "red",
     "caps": {"red": 3, "blue": 3},                 # command points per turn (NW-8)
     "armies": {"red": "French", "blue": "Allied"},
     "options": ["light_infantry"],                 # optional troops agreed before sides (NW-54)
     "exclusive": [["light_infantry", "skirmishers"]],  # at most one of these in the game (NW-57)
     "opening": "blue",                             # a 0-point turn before the first (NW-55)
     "objectives": {"0505": 3},
     "map": {...rules/hex map; hills are elevation 1...},
     "units": [{"id": "F1", "side": "red", "arm": "infantry", "figures": 4, "at": "0202",
                "nation": "French", "name": "1st Line"},
               {"id": "F2", ..., "at": "0110", "enters": 3}, ...],  # enters at an edge hex on turn 3 (NW-53)
     "leaders": [{"id": "NEY", "side": "red", "level": 2, "arm": "infantry", "at": "0202",
                  "nation": "French", "name": "Ney"}]}
"""

from __future__ import annotations

from typing import Any

from rules.hex.board import HexMap, load_map
from rules.hex.coords import Hex, parse_label
from rules.hex.schema import builtin_scenario, fail, field, number, scenario_data

from .data import ARMS, OPTIONAL, SIDE_FEATURES, SIDES, STACK, TERRAINS

NAMES = ("quatre_bras", "mill_ford")


def builtin(name: str) -> dict[str, Any]:
    return builtin_scenario(__package__, NAMES, name)


def load(data: Any | None) -> dict[str, Any]:
    """A checked, normalised scenario; errors name the field."""
    data = scenario_data(data, __package__, NAMES)
    out = {
        "name": field(data, "name", str, ""),
        "title": field(data, "title", str, "", data.get("name")),
        "turns": number(data, "turns", "", 1, 50, 6),
        "first": field(data, "first", str, "", "red", choices=SIDES),
        "opening": field({"opening": data.get("opening") or ""}, "opening", str, "", choices=SIDES + ("",)) or None,
        "map": load_map(field(data, "map", dict, ""), TERRAINS, SIDE_FEATURES),
    }
    caps = field(data, "caps", dict, "", {"red": 3, "blue": 3})
    out["caps"] = {s: number(caps, s, "caps", 0, 99) for s in SIDES}
    armies = field(data, "armies", dict, "", {})
    out["armies"] = {s: field(armies, s, str, "armies", s) for s in SIDES}
    out["options"] = sorted(set(field(data, "options", list, "", [])))
    for i, o in enumerate(out["options"]):
        if o not in OPTIONAL:
            fail(f"options[{i}]", f"{o!r} is not an optional troop type (known: {', '.join(OPTIONAL)})")
    out["exclusive"] = [sorted(g) for g in field(data, "exclusive", list, "", [])]
    m = HexMap(out["map"])
    out["objectives"] = {}
    for key in sorted(field(data, "objectives", dict, "", {})):
        _on_map(key, f"objectives.{key}", m)
        out["objectives"][key] = number(data["objectives"], key, "objectives", 0, 100)
    out["units"] = _units(field(data, "units", list, ""), m, out["options"])
    out["leaders"] = _leaders(field(data, "leaders", list, "", []), m, out["options"], {u["id"] for u in out["units"]})
    for g, group in enumerate(out["exclusive"]):
        used = sorted({u["arm"] for u in out["units"]} & set(group))
        if len(used) > 1:
            fail(f"exclusive[{g}]", f"only one of {', '.join(group)} may be used, not {' and '.join(used)}")
    if data.get("battle") is not None:  # only then: a scenario without it loads as it always did
        out["battle"] = _battle(data["battle"], out["units"])
    return out


def _battle(spec: Any, units: list[dict[str, Any]]) -> dict[str, Any]:
    """A strategic battle's record (tactical.py): which board units are which strategic units."""
    if not isinstance(spec, dict):
        fail("battle", "must be an object with id and units")
    sides = {u["id"]: u["side"] for u in units}
    out: dict[str, Any] = {"id": field(spec, "id", str, "battle"), "units": {}}
    given = field(spec, "units", dict, "battle")
    for side in SIDES:
        mapping = field(given, side, dict, "battle.units")
        out["units"][side] = {}
        for uid, strategic in mapping.items():
            where = f"battle.units.{side}.{uid}"
            if sides.get(str(uid).upper()) != side:
                fail(where, f"{side} has no unit {uid}")
            if not isinstance(strategic, str) or not strategic:
                fail(where, "must be the strategic unit's id")
            out["units"][side][str(uid).upper()] = strategic
    return out


def _on_map(key: Any, where: str, m: HexMap) -> Hex:
    try:
        h = parse_label(key)
    except (ValueError, AttributeError) as e:
        fail(where, str(e))
    if h not in m:
        fail(where, f"hex {key} is not on the map")
    return h


def _units(items: list[Any], m: HexMap, options: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    stack: dict[str, list[str]] = {}
    for i, spec in enumerate(items):
        where = f"units[{i}]"
        uid = field(spec, "id", str, where).upper()
        if uid in seen:
            fail(f"{where}.id", f"{uid} is used twice")
        seen.add(uid)
        arm = field(spec, "arm", str, where, choices=ARMS)
        if ARMS[arm].get("optional") and arm not in options:
            fail(f"{where}.arm", f"{arm} is optional troops (NW-54): add it to the scenario's options first")
        side = field(spec, "side", str, where, choices=SIDES)
        at = field(spec, "at", str, where)
        h = _on_map(at, f"{where}.at", m)
        enters = number(spec, "enters", where, 1, 50, 1)
        if enters > 1 and not m.on_edge(h):
            fail(f"{where}.at", f"a unit entering on turn {enters} enters at a map edge hex, not {at} (NW-53)")
        if enters == 1:
            stack[at] = stack.get(at, []) + [side]
            if len(stack[at]) > STACK or len(set(stack[at])) > 1:
                fail(f"{where}.at", f"hex {at} would hold more than {STACK} units or both sides")
        figures = number(spec, "figures", where, 1, 12)
        out.append(
            {
                "id": uid,
                "side": side,
                "arm": arm,
                "figures": figures,
                "at": at,
                "enters": enters,
                "nation": field(spec, "nation", str, where, side),
                "name": field(spec, "name", str, where, uid),
            }
        )
    return out


def _leaders(items: list[Any], m: HexMap, options: list[str], unit_ids: set[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i, spec in enumerate(items):
        where = f"leaders[{i}]"
        lid = field(spec, "id", str, where).upper()
        if lid in unit_ids or lid in {x["id"] for x in out}:
            fail(f"{where}.id", f"{lid} is used twice")
        arm = field(spec, "arm", str, where, "infantry", choices=("infantry", "cavalry"))
        if arm == "cavalry" and "cavalry_leaders" not in options:
            fail(f"{where}.arm", "cavalry leaders are optional (NW-54): add cavalry_leaders to the options first")
        at = field(spec, "at", str, where)
        _on_map(at, f"{where}.at", m)
        out.append(
            {
                "id": lid,
                "side": field(spec, "side", str, where, choices=SIDES),
                "arm": arm,
                "level": number(spec, "level", where, 1, 3),
                "at": at,
                "nation": field(spec, "nation", str, where, spec.get("side", "")),
                "name": field(spec, "name", str, where, lid),
            }
        )
    return out


def new_unit(spec: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": spec["id"],
        "side": spec["side"],
        "arm": spec["arm"],
        "name": spec["name"],
        "nation": spec["nation"],
        "hex": spec["at"] if spec["enters"] == 1 else None,
        "figures": spec["figures"],
        "start": spec["figures"],
        "status": "active" if spec["enters"] == 1 else "reserve",
        "enters": spec["enters"],
        "entry": spec["at"],
        "acted": [],
        "square": False,
        "done": False,
        "from": [],
        "flanked": False,
        "struck": None,
    }


def new_leader(spec: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": spec["id"],
        "side": spec["side"],
        "arm": spec["arm"],
        "level": spec["level"],
        "name": spec["name"],
        "nation": spec["nation"],
        "hex": spec["at"],
        "status": "active",
        "moved": False,
        "used": None,
    }

"""Scenario files: the map, the forces, first player, length and victory points.

Format (JSON; hexes by CCRR number)::

    {"name": "field", "title": "...", "turns": 6, "first": "red",      # or "dice" (WW-5)
     "los_rule": "lenient",                                           # hex border rule (rules/hex)
     "objectives": {"0505": 3},                                       # points for holding a hex at the end
     "buildings": {"0605": {"entrances": 2, "reinforced": true}},     # WW-44..49
     "map": {...rules/hex map...},
     "deployment": {"blue": ["0701", "0702", ...]},                   # where each side hides its units
     "units": [{"id": "R1", "side": "red", "profile": "infantry", "at": "0202",
                "models": {"rifle": 8, "lmg": 1, "officer": 1}, "morale": 3, "hidden": false,
                "name": "1st Rifles"}, ...]}

Aircraft have no ``at`` (WW-20: placed beside a target when they attack). Nor has a hidden unit on
the ground: the scenario is public, so its side places it itself, in the deployment round before
play, on a hex of the side's ``deployment`` zone (deploy.py). A zone belongs to a side with hidden
units to place; the two zones do not overlap and hold no enemy; and for each hidden unit the zone
has as many empty hexes it can stand in as its side has hidden units, so that any placement of
the others leaves it room.
"""

from __future__ import annotations

from typing import Any

from rules.hex.board import HexMap, load_map
from rules.hex.coords import Hex, parse_label
from rules.hex.los import RULES as LOS_RULES
from rules.hex.schema import builtin_scenario, fail, field, number, scenario_data
from rules.hex.stacking import Capacity

from .data import MORALE_NAMES, PROFILES, SIDE_FEATURES, SIDES, TERRAINS

CAPACITY = Capacity(figures=20, large=1, mixed=False)  # WW-3; figures never share with a machine (ambiguity 3)
NAMES = ("field_battle", "town_assault")


def builtin(name: str) -> dict[str, Any]:
    return builtin_scenario(__package__, NAMES, name)


def load(data: Any | None) -> dict[str, Any]:
    """A checked, normalised scenario; errors name the field."""
    data = scenario_data(data, __package__, NAMES)
    out = {
        "name": field(data, "name", str, ""),
        "title": field(data, "title", str, "", data.get("name")),
        "turns": number(data, "turns", "", 1, 50, 6),
        "first": field(data, "first", str, "", "red", choices=SIDES + ("dice",)),
        "los_rule": field(data, "los_rule", str, "", "lenient", choices=LOS_RULES),
        "map": load_map(field(data, "map", dict, ""), TERRAINS, SIDE_FEATURES),
    }
    m = HexMap(out["map"])
    out["objectives"] = {}
    for key, _pts in sorted(field(data, "objectives", dict, "", {}).items()):
        _on_map(key, f"objectives.{key}", m)
        out["objectives"][key] = number(data["objectives"], key, "objectives", 0, 100)
    out["buildings"] = {}
    for key, spec in sorted(field(data, "buildings", dict, "", {}).items()):
        where = f"buildings.{key}"
        h = _on_map(key, where, m)
        if m.terrain(h) != "building":
            fail(where, f"hex {key} is {m.terrain(h)}, not building")
        out["buildings"][key] = {
            "entrances": number(spec, "entrances", where, 1, 6, 1),
            "reinforced": field(spec, "reinforced", bool, where, False),
        }
    out["units"] = _units(field(data, "units", list, ""), m)
    zones = _zones(field(data, "deployment", dict, "", {}), m, out["units"])
    if zones:  # (a scenario without hidden units reads as it did before version 3)
        out["deployment"] = zones
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


def can_stand(profile: str, terrain: str) -> bool:
    """Whether a unit of ``profile`` may stand in ``terrain`` (nothing in water; machines never in
    woods or buildings, WW-31)."""
    return terrain != "water" and not (PROFILES[profile]["kind"] == "machine" and terrain in ("wood", "building"))


def to_deploy(unit: dict[str, Any]) -> bool:
    """A hidden unit on the ground still to be placed by its side (aircraft are off the map, WW-20)."""
    return bool(unit["hidden"] and unit["kind"] != "aircraft" and not unit["hex"] and unit["status"] == "active")


def _zones(spec: dict[str, Any], m: HexMap, units: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Each side's deployment zone, checked against the units (see the module's docstring)."""
    zones: dict[str, list[str]] = {}
    for side, hexes in sorted(spec.items()):
        where = f"deployment.{side}"
        if side not in SIDES:
            fail(where, f"{side!r} is not a side (the sides: {', '.join(SIDES)})")
        if not isinstance(hexes, list) or not hexes:
            fail(where, "must be a list of hexes (CCRR numbers)")
        for i, key in enumerate(hexes):
            _on_map(key, f"{where}[{i}]", m)
        if len(set(hexes)) != len(hexes):
            fail(where, "names a hex twice")
        zones[side] = sorted(hexes)
    shared = sorted(set(zones.get(SIDES[0], ())) & set(zones.get(SIDES[1], ())))
    if shared:
        fail("deployment", f"{shared[0]} is in both sides' zones")
    taken = {u["at"] for u in units if u["at"]}
    for side in SIDES:
        where = f"deployment.{side}"
        hidden = [
            u for u in units if u["side"] == side and u["hidden"] and PROFILES[u["profile"]]["kind"] != "aircraft"
        ]
        zone = zones.get(side)
        if zone is None:
            if hidden:
                ids = ", ".join(u["id"] for u in hidden)
                fail(where, f"{side} has hidden units to place ({ids}): give it a deployment zone")
            continue
        if not hidden:
            fail(where, f"{side} has no hidden units to place")
        for u in units:
            if u["side"] != side and u["at"] in zone:
                fail(where, f"{u['at']} holds {u['id']} of the other side: a zone holds no enemy")
        for u in hidden:
            free = [hx for hx in zone if hx not in taken and can_stand(u["profile"], m.terrain(parse_label(hx)))]
            if len(free) < len(hidden):
                fail(
                    where,
                    f"{u['id']} ({u['profile']}) can stand in {len(free)} empty hex(es) of the zone: "
                    f"each hidden unit needs as many as its side has hidden units ({len(hidden)})",
                )
    return zones


def _on_map(key: Any, where: str, m: HexMap) -> Hex:
    try:
        h = parse_label(key)
    except (ValueError, AttributeError) as e:
        fail(where, str(e))
    if h not in m:
        fail(where, f"hex {key} is not on the map")
    return h


def _units(items: list[Any], m: HexMap) -> list[dict[str, Any]]:
    seen, out = set(), []
    present: dict[str, list[tuple[int, int]]] = {}
    for i, u in enumerate(items):
        where = f"units[{i}]"
        uid = field(u, "id", str, where)
        if not uid.isalnum() or len(uid) > 8:
            fail(f"{where}.id", f"{uid!r}: use up to 8 letters and digits (orders name units by id)")
        if uid.upper() in seen:
            fail(f"{where}.id", f"{uid!r} is used twice")
        seen.add(uid.upper())
        prof_name = field(u, "profile", str, where, choices=sorted(PROFILES))
        prof = PROFILES[prof_name]
        spec = {
            "id": uid.upper(),
            "side": field(u, "side", str, where, choices=SIDES),
            "profile": prof_name,
            "name": field(u, "name", str, where, uid),
            "morale": number(u, "morale", where, 1, 5, 3),
            "hidden": field(u, "hidden", bool, where, False),
        }
        if prof["kind"] == "aircraft":
            if u.get("at") is not None:
                fail(f"{where}.at", "aircraft are not placed on the map (WW-20): leave 'at' out")
            spec["at"] = None
        elif spec["hidden"]:
            if u.get("at") is not None:
                fail(
                    f"{where}.at",
                    "a hidden unit is placed by its side before play, in its side's deployment zone "
                    "(the scenario is public): leave 'at' out",
                )
            spec["at"] = None
        else:
            spec["at"] = field(u, "at", str, where)
            h = _on_map(spec["at"], f"{where}.at", m)
            if not can_stand(prof_name, m.terrain(h)):
                fail(f"{where}.at", f"a {prof_name} cannot stand in {m.terrain(h)}")
        if prof["kind"] == "squad":
            models = field(u, "models", dict, where, {next(iter(prof["models"])): 10})
            for role in models:
                if role not in prof["models"]:
                    fail(f"{where}.models.{role}", f"not a model of a {prof_name} (known: {', '.join(prof['models'])})")
                number(models, role, f"{where}.models", 1, 20)
            spec["models"] = dict(models)
            size = (sum(models.values()), 0)
        else:
            size = (0, 1)
        if spec["at"]:
            why = CAPACITY.refusal(present.get(spec["at"], []), size)
            if why:
                fail(f"{where}.at", f"{spec['at']}: {why} (WW-3)")
            present.setdefault(spec["at"], []).append(size)
        out.append(spec)
    for side in SIDES:
        if not any(u["side"] == side for u in out):
            fail("units", f"{side} has no units")
    return out


def new_unit(spec: dict[str, Any]) -> dict[str, Any]:
    """The state of a unit at the start of a battle."""
    prof = PROFILES[spec["profile"]]
    unit = {
        "id": spec["id"],
        "side": spec["side"],
        "profile": spec["profile"],
        "name": spec["name"],
        "kind": prof["kind"],
        "hex": spec["at"],
        "morale": spec["morale"],
        "hidden": spec["hidden"],
        "status": "active",
        "bonus": False,
        "penalty": False,
        "acted": [],
        "moved": 0,
        "mode": None,
        "locked": [],
        "priority": [],
        "stunned": 0,
        "charged": False,
        "surprise_seen": [],
    }
    if prof["kind"] == "squad":
        models = []
        for role, n in spec["models"].items():
            models += [role] * n
        unit["models"] = models
        unit["start"] = len(models)
        if prof.get("gun"):
            unit["weapons"] = [prof["gun"]]
    else:
        unit["crew"] = list(prof["crew"])
        unit["crew_stunned"] = []
        unit["weapons"] = list(prof["weapons"])
        unit["immobile"] = False
        unit["burning"] = False
        unit["start"] = max(1, len(prof["crew"]))
    return unit


def morale_name(level: int) -> str:
    return MORALE_NAMES[level]

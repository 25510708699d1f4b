"""Scenario files: validation with errors that name the field, army points, default deployment.

A scenario (JSON) holds the table, terrain, the kind of game and each side's force
as named groups (arm, count, default position and frontage) and named guns. See
RULES.md, "Scenario files", for the format.
"""

from __future__ import annotations

import copy
import json
import math
import re
from importlib import resources
from typing import Any

from shapely.geometry import Point, Polygon

from rules.core.protocol import ScenarioError

from .table import table_of
from .units import (
    ARMS,
    DEFAULT_POINTS,
    DEFENCE_RATIO,
    GUN_POINTS,
    RESERVE,
    SCALES,
    SIDES,
    TRUNK,
    pace,
    radius,
)
from .wagons import KINDS as WAGON_KINDS
from .wagons import SPOT

KINDS = ("bitter_end", "breakthrough", "defence")
TERRAIN_TYPES = ("building", "wall", "hill", "wood", "river", "ford", "bridge", "road")
EDGES = ("south", "north", "west", "east")
OPPOSITE = {"south": "north", "north": "south", "west": "east", "east": "west"}
TOWARDS = {"south": (0.0, -1.0), "north": (0.0, 1.0), "west": (-1.0, 0.0), "east": (1.0, 0.0)}  # unit vector to an edge


def home_vector(scenario: dict[str, Any], side: str) -> tuple[float, float]:
    """The unit vector from the table towards ``side``'s own edge."""
    return TOWARDS[scenario["edges"][side]]


DEFAULT_SCENARIO = "skirmish"
SETTINGS = {
    "blast": False,  # KS-2..3 blast rule instead of the seed-000 casualty rule
    "random_advantage": False,  # LW-57
    "max_turns": 40,
    "points": DEFAULT_POINTS,
    "deploy_depth": 12.0,  # how far from its edge a side may deploy
    "defender": None,  # side, for kind "defence"
    "target": None,  # LW-51: {side: [from, to]} part of the enemy edge to reach
    "deployment": "curtain",  # LW-8 both at once behind a curtain, or "alternate" (LW-7: First Player first)
    "choose_edge": False,  # LW-2 / LW-53: a side chooses its edge before deployment
    "defender_coin": False,  # LW-53: a coin names the defender (a defence game; it then chooses its edge)
    "scale": 1,  # LW-62: moves and ranges doubled (2) or trebled (3) on a large field
    "supply": False,  # LW-66/67: supply wagons and ammunition carts (forces.<side>.wagons)
}
DEPLOYMENTS = ("curtain", "alternate")


def builtin_names() -> list[str]:
    folder = resources.files("rules.littlewars") / "scenarios"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


def builtin_scenario(name: str) -> dict[str, Any]:
    if name not in builtin_names():
        raise ScenarioError(f"unknown scenario {name!r} (known: {', '.join(builtin_names())})")
    result: dict[str, Any] = json.loads(
        (resources.files("rules.littlewars") / "scenarios" / f"{name}.json").read_text()
    )
    return result


def require(cond: object, where: str, why: str) -> None:
    """A ScenarioError naming ``where`` and saying ``why`` unless ``cond`` holds (is truthy)."""
    if not cond:
        raise ScenarioError(f"{where}: {why}")


def _num(v: Any, where: str, positive: bool = False) -> float:
    require(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v), where, "must be a number")
    require(not positive or v > 0, where, "must be greater than 0")
    return float(v)


def read_point(v: Any, where: str) -> list[float]:
    require(isinstance(v, list) and len(v) == 2, where, "must be [x, y] in inches")
    return [_num(v[0], f"{where}[0]"), _num(v[1], f"{where}[1]")]


def _name(v: Any, where: str) -> str:
    require(
        isinstance(v, str) and v and v.replace("-", "").replace("_", "").isalnum(),
        where,
        "must be a name of letters, digits, '-' or '_'",
    )
    require(not (v[0] in "ic" and v[1:].isdigit()), where, "names like i12 or c3 are reserved for single figures")
    result: str = v
    return result


def load(scenario: Any | None) -> dict[str, Any]:
    """A validated, normalised copy of ``scenario`` (None = the default, a str = a built-in name)."""
    if scenario is None:
        scenario = DEFAULT_SCENARIO
    if isinstance(scenario, str):
        scenario = builtin_scenario(scenario)
    if isinstance(scenario, dict) and "base" in scenario:
        scenario = _on_base(scenario)
    require(isinstance(scenario, dict), "scenario", "must be an object")
    sc = copy.deepcopy(scenario)
    sc["name"] = _name(sc.get("name"), "name")
    sc.setdefault("title", sc["name"])
    _table(sc)
    settings = {**SETTINGS, **sc.get("settings", {})}
    unknown = set(settings) - set(SETTINGS)
    require(not unknown, "settings", f"unknown setting(s) {', '.join(sorted(unknown))}")
    _settings(settings)
    sc["settings"] = settings
    sc["kind"] = sc.get("kind", "bitter_end")
    require(sc["kind"] in KINDS, "kind", f"must be one of {', '.join(KINDS)}")
    _terrain(sc)
    forces = sc.get("forces")
    require(
        isinstance(forces, dict) and set(forces) == set(SIDES), "forces", f"must give exactly {' and '.join(SIDES)}"
    )
    for side in SIDES:
        _force(sc, side)
    _commands(sc)
    _kind_rules(sc)
    return sc


def _commands(sc: dict[str, Any]) -> None:
    """LW-61/KS-9: ``{side: {command: [group and gun names]}}``, each name in at most one command."""
    if "commands" not in sc:
        return
    cmds = sc["commands"]
    require(
        isinstance(cmds, dict) and set(cmds) <= set(SIDES),
        "commands",
        f"must map {' and/or '.join(SIDES)} to their commands",
    )
    for side, named in cmds.items():
        force = sc["forces"][side]
        known = {g["name"] for g in force["groups"]} | {g["name"] for g in force["guns"]}
        seen: set[str] = set()
        require(isinstance(named, dict) and named, f"commands.{side}", "must map command names to lists of names")
        for cmd, units in named.items():
            where = f"commands.{side}.{cmd}"
            require(
                bool(re.fullmatch(r"[a-z][a-z0-9_-]{0,29}", cmd)) and cmd != "commander",
                where,
                "a command is named in lower-case letters, digits, - and _ (and is not 'commander', "
                "who orders the whole side)",
            )
            require(isinstance(units, list) and units, where, "must be a non-empty list of group and gun names")
            for u in units:
                require(u in known, where, f"{u!r} is not one of {side}'s groups or guns")
                require(u not in seen, where, f"{u!r} is already in another command")
                seen.add(u)


def _on_base(spec: dict[str, Any]) -> dict[str, Any]:
    """``{"base": "skirmish", "settings": {...}}``: a built-in scenario with per-game settings over it."""
    extra = set(spec) - {"base", "settings", "commands"}
    require(
        not extra,
        "scenario",
        f"with 'base' only 'settings' and 'commands' may be given, not {', '.join(sorted(extra))}",
    )
    require(isinstance(spec["base"], str), "base", "must be the name of a built-in scenario")
    require(isinstance(spec.get("settings", {}), dict), "settings", "must be an object")
    sc = builtin_scenario(spec["base"])
    sc["settings"] = {**sc.get("settings", {}), **spec.get("settings", {})}
    if "commands" in spec:
        sc["commands"] = spec["commands"]
    return sc


def _settings(s: dict[str, Any]) -> None:
    for key in ("blast", "random_advantage", "choose_edge", "defender_coin", "supply"):
        require(isinstance(s[key], bool), f"settings.{key}", "must be true or false")
    require(
        s["scale"] in SCALES and not isinstance(s["scale"], bool),
        "settings.scale",
        "must be 1, 2 or 3 (LW-62: distances doubled or trebled on a large field)",
    )
    if s["defender_coin"]:
        s["choose_edge"] = True  # LW-53: the coin's winner defends and chooses the edge to defend
    require(
        isinstance(s["max_turns"], int) and not isinstance(s["max_turns"], bool) and s["max_turns"] > 0,
        "settings.max_turns",
        "must be a whole number greater than 0",
    )
    s["points"] = _num(s["points"], "settings.points", True)
    s["deploy_depth"] = _num(s["deploy_depth"], "settings.deploy_depth", True)
    require(s["defender"] is None or s["defender"] in SIDES, "settings.defender", f"must be {' or '.join(SIDES)}")
    require(s["target"] is None or isinstance(s["target"], dict), "settings.target", "must be {side: [from, to]}")
    require(s["deployment"] in DEPLOYMENTS, "settings.deployment", f"must be one of {', '.join(DEPLOYMENTS)}")


def _table(sc: dict[str, Any]) -> None:
    t: Any = sc.get("table")  # JSON, checked on the next line
    require(isinstance(t, dict), "table", 'must be {"width": inches, "depth": inches}')
    t["width"] = _num(t.get("width"), "table.width", True)
    t["depth"] = _num(t.get("depth"), "table.depth", True)
    edges = sc.setdefault("edges", {"red": "south", "blue": "north"})
    for side in SIDES:
        require(edges.get(side) in EDGES, f"edges.{side}", f"must be one of {', '.join(EDGES)}")
    require(edges[SIDES[0]] == OPPOSITE[edges[SIDES[1]]], "edges", "the two sides must start from opposite edges")


def _terrain(sc: dict[str, Any]) -> None:
    items = sc.setdefault("terrain", [])
    require(isinstance(items, list), "terrain", "must be a list")
    seen = set()
    for i, it in enumerate(items):
        where = f"terrain[{i}]"
        require(isinstance(it, dict), where, "must be an object")
        require(it.get("type") in TERRAIN_TYPES, f"{where}.type", f"must be one of {', '.join(TERRAIN_TYPES)}")
        it["id"] = it.get("id", f"{it['type']}{i + 1}")
        require(it["id"] not in seen, f"{where}.id", f"duplicate id {it['id']!r}")
        seen.add(it["id"])
        if "polygon" in it:
            pts = it["polygon"]
            require(isinstance(pts, list) and len(pts) >= 3, f"{where}.polygon", "needs at least 3 points")
            it["polygon"] = [read_point(p, f"{where}.polygon[{j}]") for j, p in enumerate(pts)]
        else:
            pts = it.get("line")
            require(isinstance(pts, list) and len(pts) >= 2, where, "needs a polygon (3+ points) or a line (2+ points)")
            it["line"] = [read_point(p, f"{where}.line[{j}]") for j, p in enumerate(pts)]
            it["width"] = _num(it.get("width", 0.5), f"{where}.width", True)
        if it["type"] == "hill":
            lv = it.setdefault("level", 1)
            require(
                isinstance(lv, int) and not isinstance(lv, bool) and lv >= 1,
                f"{where}.level",
                "must be a whole number from 1",
            )
        if it["type"] == "wood":
            _trees(it, where)

    for i, it in enumerate(items):
        if "polygon" in it:
            require(Polygon(it["polygon"]).is_valid, f"terrain[{i}].polygon", "is not a simple polygon (edges cross)")


def _trees(it: dict[str, Any], where: str) -> None:
    """A wood's trees (LW-27: figures keep 1/16 in from them): trunk centres inside the wood."""

    trees = it.setdefault("trees", [])
    require(isinstance(trees, list), f"{where}.trees", "must be a list of [x, y] trunk centres")
    it["trunk"] = _num(it.get("trunk", TRUNK), f"{where}.trunk", True)
    area = Polygon(it["polygon"]) if "polygon" in it else None
    require(not trees or area is not None, f"{where}.trees", "trees stand in a wood drawn as a polygon")
    it["trees"] = [read_point(t, f"{where}.trees[{j}]") for j, t in enumerate(trees)]
    for j, (x, y) in enumerate(it["trees"]):
        require(
            area is not None and area.covers(Point(x, y)), f"{where}.trees[{j}]", f"({x:g}, {y:g}) is outside the wood"
        )


def _force(sc: dict[str, Any], side: str) -> None:
    f = sc["forces"][side]
    where = f"forces.{side}"
    require(isinstance(f, dict), where, "must be an object with groups and guns")
    groups, guns = f.setdefault("groups", []), f.setdefault("guns", [])
    require(isinstance(groups, list) and groups, f"{where}.groups", "must be a non-empty list")
    require(isinstance(guns, list), f"{where}.guns", "must be a list")
    names: set[str] = set()
    table = table_of(sc)
    for i, g in enumerate(groups):
        w = _named(g, f"{where}.groups[{i}]", names)
        require(g.get("arm") in ARMS, f"{w}.arm", f"must be one of {', '.join(ARMS)}")
        require(
            isinstance(g.get("count"), int) and not isinstance(g["count"], bool) and g["count"] > 0,
            f"{w}.count",
            "must be a whole number greater than 0",
        )
        g["at"] = read_point(g.get("at"), f"{w}.at")
        g["frontage"] = int(g.get("frontage", min(g["count"], 10)))
        require(g["frontage"] > 0, f"{w}.frontage", "must be greater than 0")
        g["reserve"] = bool(g.get("reserve", False))
        for j, (x, y) in enumerate(block(g, sc["edges"][side])):
            err = table.spot_error(g["arm"], x, y) or _zone_error(sc, side, x, y) or _mirror_error(sc, g["arm"], x, y)
            require(err is None, f"{w}", f"figure {j + 1} of the default deployment: {err}")
    for i, g in enumerate(guns):
        w = _named(g, f"{where}.guns[{i}]", names)
        g["at"] = read_point(g.get("at"), f"{w}.at")
        err = table.spot_error("inf", *g["at"]) or _zone_error(sc, side, *g["at"]) or _mirror_error(sc, "inf", *g["at"])
        require(err is None, f"{w}.at", err or "")
    _wagons(sc, side, f, names)
    reserve = [g for g in groups if g["reserve"]]
    if sc["settings"]["random_advantage"]:
        require(
            len(reserve) == 1 and reserve[0]["count"] == RESERVE,
            f"{where}.groups",
            f"random advantage (LW-57) needs exactly one reserve group of {RESERVE} figures",
        )
    budget = sc["settings"]["points"]
    pts = army_points(f)
    require(pts <= budget, where, f"the army costs {pts:g} points, more than the {budget:g} allowed (LW-59)")


def _wagons(sc: dict[str, Any], side: str, f: dict[str, Any], names: set[str]) -> None:
    """LW-66/67: supply wagons and ammunition carts, placed like guns (on the table, clear of scenery,
    in the deployment zone). They come with ``settings.supply``, and it with them."""

    where = f"forces.{side}.wagons"
    wagons = f.get("wagons", [])  # absent stays absent: scenarios without wagons keep their exact form
    require(isinstance(wagons, list), where, "must be a list")
    supply = sc["settings"]["supply"]
    require(
        supply or not wagons,
        where,
        "wagons and carts carry the supply rules (LW-66/67): set settings.supply to true or leave them out",
    )
    for i, w in enumerate(wagons):
        wi = _named(w, f"{where}[{i}]", names)
        require(
            w.get("kind") in WAGON_KINDS,
            f"{wi}.kind",
            f"must be one of {', '.join(WAGON_KINDS)} (LW-66 supply wagon, LW-67 ammunition cart)",
        )
        w["at"] = read_point(w.get("at"), f"{wi}.at")
        err = (
            table_of(sc).spot_error(SPOT, *w["at"])
            or _zone_error(sc, side, *w["at"])
            or _mirror_error(sc, SPOT, *w["at"])
        )
        require(err is None, f"{wi}.at", err or "")
    if supply:
        kinds = {w["kind"] for w in wagons}
        require(
            "supply" in kinds,
            where,
            "settings.supply needs at least one supply wagon a side (LW-66: one for every 50 soldiers)",
        )
        require(
            "ammo" in kinds or not f["guns"],
            where,
            "settings.supply needs an ammunition cart for a side with "
            "guns (LW-67: no gun fires without one within two moves)",
        )


def _named(item: Any, where: str, names: set[str]) -> str:
    """Check an item's name (unique among the side's groups and guns); returns ``where`` for later errors."""
    require(isinstance(item, dict), where, "must be an object")
    item["name"] = _name(item.get("name"), f"{where}.name")
    require(item["name"] not in names, f"{where}.name", f"duplicate name {item['name']!r}")
    names.add(item["name"])
    return where


def mirror(sc: dict[str, Any], x: float, y: float) -> tuple[float, float]:
    """The place across the table (LW-2: the armies start from the other pair of ends)."""
    t = sc["table"]
    if sc["edges"][SIDES[0]] in ("south", "north"):
        return x, round(t["depth"] - y, 4)
    return round(t["width"] - x, 4), y


def mirror_force(sc: dict[str, Any], force: dict[str, Any]) -> dict[str, Any]:
    """A force with its default places (groups, guns and wagons) across the table."""
    return {
        **force,
        **{
            key: [{**g, "at": list(mirror(sc, *g["at"]))} for g in force.get(key, [])]
            for key in ("groups", "guns", "wagons")
        },
    }


def swap_armies(sc: dict[str, Any]) -> dict[str, Any]:
    """LW-53: the coin made the scenario's attacker the defender: the two armies change sides (each
    army's places mirrored to its new side's end), and so do the defender and the targets."""
    a, b = SIDES
    s = sc["settings"]
    target = {(b if k == a else a): v for k, v in s["target"].items()} if s["target"] else s["target"]
    settings = {**s, "defender": b if s["defender"] == a else a, "target": target}
    commands = {(b if k == a else a): v for k, v in sc.get("commands", {}).items()}  # commands go with their men
    return {
        **sc,
        "settings": settings,
        **({"commands": commands} if commands else {}),
        "forces": {a: mirror_force(sc, sc["forces"][b]), b: mirror_force(sc, sc["forces"][a])},
    }


def _mirror_error(sc: dict[str, Any], arm: str, x: float, y: float) -> str | None:
    """With choose_edge the scenario's places are used mirrored too: they must be clear there as well."""
    if not sc["settings"]["choose_edge"]:
        return None
    err = table_of(sc).spot_error(arm, *mirror(sc, x, y))
    return f"mirrored for the other edge (choose_edge): {err}" if err else None


def army_points(force: dict[str, Any]) -> float:
    """LW-59: infantry 1, cavalry 1.5, gun 10 (a reserve counts in full: it may all join)."""
    result: float = sum(ARMS[g["arm"]]["points"] * g["count"] for g in force["groups"]) + GUN_POINTS * len(
        force["guns"]
    )
    return result


def _kind_rules(sc: dict[str, Any]) -> None:
    s = sc["settings"]
    require(
        not s["defender_coin"] or sc["kind"] == "defence",
        "settings.defender_coin",
        "a coin for the defender (LW-53) needs a defence scenario",
    )
    if sc["kind"] == "defence":
        d = s["defender"]
        require(d in SIDES, "settings.defender", f"a defence scenario needs the defending side ({' or '.join(SIDES)})")
        att = army_points(sc["forces"][[x for x in SIDES if x != d][0]])
        dp = army_points(sc["forces"][d])
        require(
            abs(dp - DEFENCE_RATIO * att) <= 0.05 * att,
            f"forces.{d}",
            f"the defender has {dp:g} points; LW-52 wants 2/3 of the attacker's {att:g} (within 5%)",
        )
    if s["defender_coin"]:  # the coin may give each army to the other side: its places must serve there too
        swapped = copy.deepcopy(swap_armies(sc))
        try:
            for side in SIDES:
                _force(swapped, side)
        except ScenarioError as exc:
            raise ScenarioError(f"settings.defender_coin: with the armies changing sides (LW-53), {exc}") from None
    if s["target"] is not None:
        for side, seg in s["target"].items():
            require(
                side in SIDES and isinstance(seg, list) and len(seg) == 2,
                f"settings.target.{side}",
                "must be [from, to] along the enemy edge",
            )
            s["target"][side] = [_num(seg[0], f"settings.target.{side}[0]"), _num(seg[1], f"settings.target.{side}[1]")]


def zone_error(sc: dict[str, Any], side: str, x: float, y: float) -> str | None:
    return _zone_error(sc, side, x, y)


def _zone_error(sc: dict[str, Any], side: str, x: float, y: float) -> str | None:
    """LW-7/8: deploy along one's own edge; LW-54: a defender deploys in its half, a move short of the centre."""
    table = table_of(sc)
    edge = sc["edges"][side]
    dist = table.edge_distance(edge, x, y)
    span = table.depth if edge in ("south", "north") else table.width
    if sc["kind"] == "defence" and sc["settings"]["defender"] == side:
        limit = span / 2.0 - pace(sc, "inf")
        if dist > limit:
            return (
                f"({x:g}, {y:g}) is {dist:g} in from the {edge} edge; the defender stays {limit:g} in or less (LW-54)"
            )
        return None
    depth = sc["settings"]["deploy_depth"]
    if dist > depth:
        return f"({x:g}, {y:g}) is {dist:g} in from the {edge} edge; deployment is within {depth:g} in of it"
    return None


def spacing(arm: str) -> float:
    return 2 * radius(arm) + 0.25


def block(
    group: dict[str, Any], edge: str, at: list[float] | None = None, count: int | None = None
) -> list[tuple[float, float]]:
    """Positions of a group in a block: ``frontage`` figures a rank, ranks stepping back towards ``edge``."""
    cx, cy = at or group["at"]
    n = group["count"] if count is None else count
    front = max(1, min(group["frontage"], n))
    gap = spacing(group["arm"])
    ranks = math.ceil(n / front)
    along, back = {
        "south": ((1, 0), (0, -1)),
        "north": ((1, 0), (0, 1)),
        "west": ((0, 1), (-1, 0)),
        "east": ((0, 1), (1, 0)),
    }[edge]
    out = []
    for k in range(n):
        r, c = divmod(k, front)
        in_rank = min(front, n - r * front)
        u = (c - (in_rank - 1) / 2.0) * gap
        v = (r - (ranks - 1) / 2.0) * gap
        out.append((round(cx + u * along[0] + v * back[0], 4), round(cy + u * along[1] + v * back[1], 4)))
    return out

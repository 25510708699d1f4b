"""Scenarios: the table, terrain (KW-10), armies, deployment and the victory rule.

A scenario is JSON: ``table {width, depth}`` in inches, ``terrain`` pieces (see
``battlefield``), ``sides``, ``armies {side: army}``, ``first`` (who moves first), ``rounds``
(each side gets that many turns), ``victory`` ("points" or "objectives"), ``objectives``
(points, for "objectives"), ``block_rule`` ("both" or "either", ambiguity 3), ``arcs`` ("corner45" or "diagonal",
``geom.ARC_MODES``) and ``units``
(``{id, side, type, x, y, facing}``). Built-in: ``pitched`` and ``objectives``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from rules.core.protocol import ScenarioError

from . import geom
from .battlefield import KINDS, Battlefield
from .profiles import ARMIES, profile

VICTORIES = ("points", "objectives")
OBJECTIVE_REACH = 3.0  # house: a unit controls an objective within 3 in of its base

_RED = [
    ("r1", "archers", 12),
    ("r2", "spearmen", 20),
    ("r3", "foot guard", 28),
    ("r4", "knights", 36),
    ("r5", "ogre guard", 44),
    ("r6", "spearmen", 52),
    ("r7", "crossbowmen", 60),
    ("r8", "outriders", 66),
]
_BLUE = [
    ("b1", "bowmen", 12),
    ("b2", "axe band", 20),
    ("b3", "great axes", 28),
    ("b4", "boar riders", 36),
    ("b5", "trolls", 44),
    ("b6", "axe band", 52),
    ("b7", "giant", 60),
    ("b8", "wolf riders", 66),
]

_TERRAIN = [
    {"id": "wood", "kind": "difficult", "height": 3, "polygon": [[8, 20], [16, 20], [16, 28], [8, 28]]},
    {"id": "hill", "kind": "hill", "level": 1, "polygon": [[30, 18], [42, 18], [42, 26], [30, 26]]},
    {"id": "hedge", "kind": "obstacle", "height": 0.5, "line": [[50, 24], [60, 24]], "width": 0.5},
    {"id": "tower", "kind": "impassable", "height": 5, "polygon": [[22, 30], [25, 30], [25, 33], [22, 33]]},
    {"id": "bushes", "kind": "decorative", "polygon": [[62, 14], [65, 14], [65, 17], [62, 17]]},
]


def _deploy(rows: Iterable[tuple[str, str, float]], side: str, y: float, facing: float) -> list[dict[str, Any]]:
    return [{"id": uid, "side": side, "type": t, "x": x, "y": y, "facing": facing} for uid, t, x in rows]


def _base(name: str, title: str, victory: str, objectives: Iterable[Iterable[float]] = ()) -> dict[str, Any]:
    return {
        "name": name,
        "title": title,
        "table": {"width": 72, "depth": 48},
        "terrain": copy.deepcopy(_TERRAIN),
        "sides": ["red", "blue"],
        "armies": {"red": "kingdom", "blue": "horde"},
        "first": "red",
        "rounds": 6,
        "victory": victory,
        "objectives": [list(o) for o in objectives],
        "block_rule": "both",
        "units": _deploy(_RED, "red", 8, 90) + _deploy(_BLUE, "blue", 40, 270),
    }


BUILTIN = {
    "pitched": _base("pitched", "Pitched battle (6 x 4 ft)", "points"),
    "objectives": _base("objectives", "Hold the objectives", "objectives", [(18, 24), (36, 24), (54, 24)]),
}
DEFAULT = "pitched"


def _need(cond: bool, where: str, why: str) -> None:
    if not cond:
        raise ScenarioError(f"{where}: {why}")


def load(scenario: Any | None) -> dict[str, Any]:
    """A validated copy of a scenario (a name, a dict, or None for the default)."""
    if scenario is None or isinstance(scenario, str):
        name = scenario or DEFAULT
        _need(name in BUILTIN, "scenario", f"unknown scenario {name!r} (known: {', '.join(sorted(BUILTIN))})")
        scenario = BUILTIN[name]
    _need(isinstance(scenario, dict), "scenario", "must be a name or an object")
    s = copy.deepcopy(scenario)
    for key in ("table", "sides", "armies", "first", "rounds", "victory", "units"):
        _need(key in s, key, "missing")
    s.setdefault("terrain", [])
    s.setdefault("objectives", [])
    s.setdefault("block_rule", "both")
    s.setdefault("arcs", "corner45")
    s.setdefault("name", "custom")
    _need(len(s["sides"]) == 2 and len(set(s["sides"])) == 2, "sides", "two different sides")
    _need(s["first"] in s["sides"], "first", f"one of {s['sides']}")
    _need(isinstance(s["rounds"], int) and s["rounds"] >= 1, "rounds", "a whole number of rounds, at least 1")
    _need(s["victory"] in VICTORIES, "victory", f"one of {', '.join(VICTORIES)}")
    _need(s["victory"] != "objectives" or s["objectives"], "objectives", "an objectives game needs objectives")
    _need(s["block_rule"] in ("both", "either"), "block_rule", "'both' or 'either'")
    _need(s["arcs"] in geom.ARC_MODES, "arcs", f"one of {', '.join(geom.ARC_MODES)}")
    for side in s["sides"]:
        _need(s["armies"].get(side) in ARMIES, f"armies.{side}", f"one of {', '.join(sorted(ARMIES))}")
    for i, t in enumerate(s["terrain"]):
        where = f"terrain[{i}]"
        _need(t.get("kind") in KINDS, where, f"kind must be one of {', '.join(KINDS)}")
        _need("id" in t and ("polygon" in t or "line" in t), where, "needs an id and a polygon or a line")
        _need(t["kind"] != "hill" or isinstance(t.get("level"), int), where, "a hill needs a whole-number level")
    _check_units(s)
    return s


def _check_units(s: dict[str, Any]) -> None:
    field_ = Battlefield({"table": s["table"], "terrain": s["terrain"]})
    seen: dict[str, Any] = {}
    for i, spec in enumerate(s["units"]):
        where = f"units[{i}]"
        uid = spec.get("id")
        _need(
            isinstance(uid, str) and bool(uid) and uid == uid.lower() and " " not in uid,
            where,
            "id must be a lower-case name without spaces",
        )
        _need(uid not in seen, where, f"id {uid!r} is used twice")
        _need(spec.get("side") in s["sides"], where, f"side must be one of {s['sides']}")
        army = s["armies"][spec["side"]]
        _need(
            spec.get("type") in ARMIES[army],
            where,
            f"{army} has no unit type {spec.get('type')!r} (known: {', '.join(sorted(ARMIES[army]))})",
        )
        p = profile(army, spec["type"])
        u = {
            "x": float(spec["x"]),
            "y": float(spec["y"]),
            "facing": float(spec["facing"]),
            "w": p["w_mm"] * geom.MM,
            "d": p["d_mm"] * geom.MM,
        }
        shape = geom.base(u)
        _need(not field_.off_table(shape), where, f"{uid} does not fit on the table")
        for piece in field_.blocking(shape):
            _need(False, where, f"{uid} stands on impassable '{piece.id}'")
        for oid, other in seen.items():
            _need(other.intersection(shape).area <= 1e-6, where, f"{uid} overlaps {oid}")
        seen[uid] = shape

"""Helpers for tests, bots and benchmarks: hand-built positions and a scripted player.

Pure Python (no pytest); used by tests/rules/littlewars, tests/platform and bench/.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from random import Random
from typing import Any, Protocol

import shapely

from rules.core.canonical import canonical_json
from rules.core.protocol import RuleEvent, RuleSet, SelfCheck, State
from rules.tabletop.points import XY, Coord

from . import RULESET as RS
from .fold import PREFIX, _start_counts, fold
from .geom import FigureIndex, fighting, gun_name
from .invariants import check_turn
from .plan import allowance
from .scenario import _terrain, load
from .units import CREW_MIN, CREW_RANGE, gun_range, other
from .wagons import live as wagon_live
from .wagons import name_of as wagon_name


class CheckedRuleSet(RuleSet, SelfCheck, Protocol):
    """A rule set the fuzzer can play and check (Little Wars, Kriegspiel)."""


# (group, arm, [(x, y), ...]): one group of a side in ``build``
Force = tuple[str, str, list[XY]]
# a variant's random order maker: (state, side, group name, its centre, rng) -> an order line
LineMaker = Callable[[State, str, str, Coord, Random], str]


def build(
    red: Iterable[Force] = (),
    blue: Iterable[Force] = (),
    guns: Iterable[tuple[str, str, float, float, float]] = (),
    terrain: Iterable[dict[str, Any]] = (),
    table: tuple[float, float] = (48, 36),
    kind: str = "bitter_end",
    settings: dict[str, Any] | None = None,
    turn: int = 2,
    first: str = "red",
    wagons: Iterable[tuple[str, str, str, float, float]] = (),
) -> dict[str, Any]:
    """A position in play. ``red``/``blue``: [(group, arm, [(x, y), ...]), ...]; ``guns``: [(side, name, x, y, heading)];
    ``wagons``: [(side, name, kind, x, y)] (LW-66/67: they turn ``settings.supply`` on)."""
    w, d = table
    forces = {}
    for side, groups in (("red", red), ("blue", blue)):
        y = 3.0 if side == "red" else d - 3.0  # placeholders on the home edge; real places are set below
        gs = [
            {"name": n, "arm": a, "count": len(pts), "at": [w / 2, y], "frontage": min(len(pts), int(w // 2))}
            for n, a, pts in groups
        ]
        gs = gs or [{"name": "nobody", "arm": "inf", "count": 1, "at": [w / 2, y]}]
        forces[side] = {"groups": gs, "guns": [{"name": g[1], "at": [w / 2, y]} for g in guns if g[0] == side]}
        if wagons:
            forces[side]["wagons"] = [{"name": v[1], "kind": v[2], "at": [w / 2, y]} for v in wagons if v[0] == side]
    supply = {"supply": True} if wagons else {}
    sc = load(
        {
            "name": "test",
            "table": {"width": w, "depth": d},
            "forces": forces,
            "settings": {"points": 10_000, "deploy_depth": max(w, d), **supply, **(settings or {})},
        }
    )
    sc["kind"] = kind  # set after loading: hand-built positions skip the armies' proportions (LW-52)
    sc["terrain"] = list(terrain)
    _terrain(sc)
    state = fold(RS.initial_state(), PREFIX + "table_laid", {"scenario": sc, "first": first, "ids": "side"})
    state = fold(state, PREFIX + "deployment_done", {})
    figs = dict(state["figures"])
    for side, groups in (("red", red), ("blue", blue)):
        if not groups:  # the placeholder figure is taken off
            for fid in [i for i, f in figs.items() if f["side"] == side]:
                figs[fid] = {**figs[fid], "st": "dead"}
            state["groups"] = {**state["groups"], side: {}}
            continue
        for name, _arm, pts in groups:
            for fid, (x, y) in zip(state["groups"][side][name], pts, strict=True):
                figs[fid] = {**figs[fid], "x": float(x), "y": float(y)}
    gmap = dict(state["guns"])
    for side, name, x, y, heading in guns:
        gid = f"{side}:{name}"
        gmap[gid] = {**gmap[gid], "x": float(x), "y": float(y), "heading": float(heading)}
    state = {**state, "figures": figs, "guns": gmap, "turn": state["play_from"] + turn - 1}  # ``turn``: of play
    for side, name, _, x, y in wagons:
        state["wagons"] = {
            **state["wagons"],
            f"{side}:{name}": {**state["wagons"][f"{side}:{name}"], "x": float(x), "y": float(y)},
        }

    state["start"] = _start_counts(state)
    return state


def ids(state: State, side: str, group: str) -> list[str]:
    return list(state["groups"][side][group])


def fold_all(state: State, events: Iterable[RuleEvent]) -> State:
    for ev in events:
        state = RS.fold(state, ev.type, ev.payload)
    return state


def play(
    state: State, red: str = "", blue: str = "", seed: int = 0, check: bool = True
) -> tuple[State, list[RuleEvent]]:
    """Parse, validate (must be clean when ``check``), adjudicate and fold one turn."""
    orders = {}
    for side, text in (("red", red), ("blue", blue)):
        parsed = RS.parse_orders(state, side, text)
        if check:
            assert parsed.ok, parsed.errors
            errs = RS.validate(state, side, parsed.orders)
            assert not errs, errs
        orders[side] = parsed.orders
    events = RS.adjudicate(state, orders, random.Random(seed))
    new = fold_all(state, events)
    assert RS.check_invariants(new) == [], RS.check_invariants(new)
    assert check_turn(events) == [], check_turn(events)
    return new, events


def types(events: Iterable[RuleEvent]) -> list[str]:
    return [e.type.removeprefix(PREFIX) for e in events]


def payloads(events: Iterable[RuleEvent], kind: str) -> list[Mapping[str, Any]]:
    return [e.payload for e in events if e.type == PREFIX + kind]


def new_game(scenario: Any = "skirmish", seed: int = 1) -> State:
    state = RS.initial_state()
    return fold_all(state, RS.setup(scenario, random.Random(seed)))


def cj(value: Any) -> str:
    return canonical_json(value)


# -- a scripted player ----------------------------------------------------------
def bot_orders(state: dict[str, Any], side: str) -> str:
    """Plain orders for ``side``: every group marches on the nearest enemy; guns keep a crew and fire.

    Lines are added one by one, each validated with all the lines kept before it (and shortened or
    turned until the whole set passes), so the text is always clean as a whole.
    """
    if state["phase"] in ("edge", "deploy"):
        return "hold"
    figs = state["figures"]
    enemy = FigureIndex(figs, lambda f: fighting(f) and f["side"] == other(side))
    if not enemy.ids:
        return "hold"
    lines, crews = _gun_lines(state, side, enemy)
    attackers = sum(len(m) for n, m in state["groups"][side].items() if n not in crews)
    if 2 * attackers < len(enemy.ids):
        crews = set()  # too few left to attack alone: the crews join in
    for name in sorted(state["groups"][side]):
        members = state["groups"][side][name]
        if name in crews or any(figs[i]["dis"] for i in members):
            if any(figs[i]["dis"] for i in members):
                lines.append(_home_line(state, side, name, members))
            continue
        lines.append(_advance_line(state, side, name, members, enemy))
    for captor_name in sorted(state["pows"][side]):
        lines.append(_escort_line(state, side, captor_name))
    lines += _wagon_lines(state, side)
    return "\n".join(_valid(state, side, [ln for ln in lines if ln]))


def _wagon_lines(state: State, side: str) -> list[str]:
    """LW-66/67: supply wagons follow the army (to 30 in of its centre), carts their nearest gun (to 10 in)."""
    figs = state["figures"]
    own = [i for i, f in figs.items() if f["side"] == side and fighting(f)]
    guns = [(g["x"], g["y"]) for g in state["guns"].values() if g["owner"] == side]
    lines = []
    for w in wagon_live(state, side).values():
        here = (w["x"], w["y"])
        goal, keep = (
            (_centre(figs, own), 30.0)
            if w["kind"] == "supply" and own
            else (min(guns, key=lambda g: math.dist(g, here)), 10.0)
            if w["kind"] == "ammo" and guns
            else (None, 0.0)
        )
        if goal is None or math.dist(here, goal) <= keep:
            continue
        tx, ty = _step_towards(here, goal, min(11.5, math.dist(here, goal) - keep))
        lines.append(f"move {wagon_name(w)} to {tx:.2f},{ty:.2f}")
    return lines


def _centre(figs: dict[str, Any], members: list[str]) -> XY:
    return (sum(figs[i]["x"] for i in members) / len(members), sum(figs[i]["y"] for i in members) / len(members))


def _gun_lines(state: State, side: str, enemy: FigureIndex) -> tuple[list[str], set[str]]:
    figs = state["figures"]
    lines: list[str] = []
    crews: set[str] = set()
    for _gid, g in sorted(state["guns"].items()):
        if g["owner"] != side:
            continue
        within = {
            n: sum(1 for i in m if math.dist((figs[i]["x"], figs[i]["y"]), (g["x"], g["y"])) <= CREW_RANGE)
            for n, m in state["groups"][side].items()
            if not any(figs[i]["dis"] for i in m)
        }
        best = max(sorted(within), key=lambda n: within[n], default=None)
        if best is not None and within[best] >= CREW_MIN and len(state["groups"][side]) > 1:
            crews.add(best)  # the group best placed keeps the gun crewed; the rest attack
        assert enemy.tree is not None  # the bot is asked only while the enemy has figures
        k = int(enemy.tree.nearest(shapely.Point(g["x"], g["y"])))
        tx, ty = enemy.xy[k]
        if math.dist((g["x"], g["y"]), (tx, ty)) <= gun_range(state["scenario"]):
            lines.append(
                f"fire {gun_name(g)} at {tx:.1f},{ty:.1f} {tx + 1:.1f},{ty:.1f} {tx - 1:.1f},{ty:.1f} {tx:.1f},{ty + 1:.1f}"
            )
    return lines, crews


def _step_towards(a: Coord, b: Coord, limit: float) -> Coord:
    d = math.dist(a, b)
    if d <= limit:
        return b
    return (a[0] + (b[0] - a[0]) * limit / d, a[1] + (b[1] - a[1]) * limit / d)


def _advance_line(state: State, side: str, name: str, members: list[str], enemy: FigureIndex) -> str:
    figs = state["figures"]
    c = _centre(figs, members)

    assert enemy.tree is not None  # the bot is asked only while the enemy has figures
    k = int(enemy.tree.nearest(shapely.Point(c)))
    reach = min(allowance(state, i) for i in members) - 0.5  # LW-7 may leave less in turn 1
    tx, ty = _step_towards(c, tuple(enemy.xy[k]), reach)
    return f"move {name} to {tx:.2f},{ty:.2f}"


def _home_line(state: State, side: str, name: str, members: list[str]) -> str:
    figs = state["figures"]
    c = _centre(figs, members)
    table = state["scenario"]["table"]
    edge = state["scenario"]["edges"][side]
    goal = {
        "south": (c[0], 0.8),
        "north": (c[0], table["depth"] - 0.8),
        "west": (0.8, c[1]),
        "east": (table["width"] - 0.8, c[1]),
    }[edge]
    tx, ty = _step_towards(c, goal, 11.0)
    return f"move {name} to {tx:.2f},{ty:.2f}"


def _escort_line(state: State, side: str, name: str) -> str:
    figs = state["figures"]
    members = [i for i in state["pows"][side][name] if not figs[i]["pow"][2]]
    if not members:
        return ""
    return _home_line(state, side, name, members).replace("move", "escort", 1)


def _valid(state: State, side: str, lines: list[str]) -> list[str]:
    """Keep each line that validates together with the lines already kept (the whole order set, so
    no two lines clash: one figure ordered twice, a gun moved and fired, a crew led away from a gun
    that moves); a refused move tries other ways first."""
    kept: list[str] = []
    for line in lines:
        for candidate in _alternatives(state, side, line):
            if not order_errors(state, side, kept + [candidate]):
                kept.append(candidate)
                break
    return kept or ["hold"]


def order_errors(state: State, side: str, lines: list[str]) -> list[Any]:
    """Every error of the whole order text made of ``lines`` (parsing, then the plan of all lines)."""
    parsed = RS.parse_orders(state, side, "\n".join(lines))
    return list(parsed.errors) or list(RS.validate(state, side, parsed.orders))


def _alternatives(state: State, side: str, line: str) -> Iterator[str]:
    """The line, then the same move shortened and turned up to 90 degrees either way (round scenery)."""
    yield line
    verb, name, *rest = line.split()
    if verb not in ("move", "escort") or rest[0] != "to":
        return
    figs = state["figures"]
    members = state["groups"][side].get(name) or state["pows"][side].get(name) or []
    members = [i for i in members if figs[i]["st"] in ("ok", "pow")]
    if not members:
        return
    cx, cy = _centre(figs, members)
    tx, ty = (float(v) for v in rest[1].split(","))
    dx, dy = tx - cx, ty - cy
    for frac in (1.0, 0.5, 0.25):
        for deg in (0, 30, -30, 60, -60, 90, -90):
            a = math.radians(deg)
            ux = (dx * math.cos(a) - dy * math.sin(a)) * frac
            uy = (dx * math.sin(a) + dy * math.cos(a)) * frac
            yield f"{verb} {name} to {cx + ux:.2f},{cy + uy:.2f}"


def state_from_view(view: dict[str, Any]) -> dict[str, Any]:
    """A rules state rebuilt from what one player sees (``view()``, e.g. the API's board), enough for
    ``bot_orders`` and validation: a scripted player that knows only its own view. Figures it cannot
    see (dead, delivered prisoners) are left out; they take no part in anything a player orders."""
    side = view["viewer"]["side"]
    table = view["table"]
    sc = {
        "name": view["scenario"]["name"],
        "title": view["scenario"]["title"],
        "kind": view["scenario"]["kind"],
        "table": {"width": table["width"], "depth": table["depth"]},
        "edges": dict(table["edges"]),
        "terrain": [dict(t) for t in table["terrain"]],
        "settings": dict(view["scenario"]["settings"]),
    }
    figures = {
        f["id"]: {
            "side": f["side"],
            "arm": f["arm"],
            "x": f["x"],
            "y": f["y"],
            "st": "pow" if f.get("captor") else "ok",
            "dis": bool(f.get("disarmed")),
            "pow": [f["captor"], None, False] if f.get("captor") else None,
        }
        for f in view["figures"]
    }
    for name, ids in view["prisoner_groups"].get(side, {}).items():
        for i in ids:
            figures[i]["pow"] = [side, name, False]
    guns = {
        g["id"]: {**{k: g[k] for k in ("side", "owner", "x", "y", "heading")}, "name": _own_name(g)}
        for g in view["guns"]
    }
    state = RS.initial_state()
    state.update(phase=view["phase"], scenario=sc, turn=view["turn"]["number"], figures=figures, guns=guns)
    if "wagons" in view:  # LW-66/67: the wagons in sight, each called by its own side's name
        state["wagons"] = {
            w["id"]: {**{k: w[k] for k in ("side", "kind", "owner", "x", "y")}, "name": _own_name(w), "st": "ok"}
            for w in view["wagons"]
        }
    if view["turn"].get("of_play"):
        state["play_from"] = view["turn"]["number"] - view["turn"]["of_play"] + 1
    state["groups"] = {**state["groups"], side: {n: list(ids) for n, ids in view["groups"].get(side, {}).items()}}
    state["pows"] = {**state["pows"], side: {n: list(ids) for n, ids in view["prisoner_groups"].get(side, {}).items()}}
    return state


def _own_name(g: dict[str, Any]) -> str:
    """A view names a captured gun as its captor calls it (red-gun4); the state keeps its own name."""
    prefix = f"{g['side']}-"
    result: str = g["name"][len(prefix) :] if g["owner"] != g["side"] and g["name"].startswith(prefix) else g["name"]
    return result


def play_bots(state: State, seed: int = 0, max_turns: int | None = None) -> tuple[State, list[RuleEvent]]:
    """Both sides played by ``bot_orders`` until the game ends; returns (state, all events)."""
    rng = random.Random(seed)
    events: list[RuleEvent] = []
    while RS.next_turn(state).sides and (max_turns is None or state["turn"] <= max_turns):  # game turns
        orders = {s: RS.parse_orders(state, s, bot_orders(state, s)).orders for s in RS.next_turn(state).sides}
        evs = RS.adjudicate(state, orders, random.Random(rng.getrandbits(64)))
        assert not payloads(evs, "orders_rejected"), payloads(evs, "orders_rejected")  # clean as a whole
        state = fold_all(state, evs)
        events += evs
    return state, events


# -- random orders (fuzzing) -------------------------------------------------------
def random_orders(state: dict[str, Any], side: str, rng: random.Random, verbs: Iterable[LineMaker] = ()) -> str:
    """Orders for ``side``, legal or not, in a random order: the scripted player's lines mixed with
    random moves, lines, splits, merges, surrenders, shots and escorts near the units ordered.
    ``verbs``: extra line makers ``(state, side, name, centre, rng) -> str`` (a variant's orders)."""
    if state["phase"] != "play":
        return "hold"
    figs = state["figures"]
    groups = state["groups"][side]
    lines = [ln for ln in bot_orders(state, side).splitlines() if rng.random() < 0.5]
    makers = [_rand_move, _rand_line, _rand_split, _rand_merge, _rand_surrender, *verbs]
    for name in sorted(groups):
        if rng.random() < 0.6:
            lines.append(rng.choice(makers)(state, side, name, _centre(figs, groups[name]), rng))
    for g in state["guns"].values():
        if g["owner"] == side and rng.random() < 0.5:
            x, y = point_near((g["x"], g["y"]), rng, 40 if rng.random() < 0.7 else 14)
            verb = "fire {} at {:.1f},{:.1f}" if rng.random() < 0.7 else "move {} to {:.1f},{:.1f}"
            lines.append(verb.format(gun_name(g), x, y))
    for w in wagon_live(state, side).values():  # LW-66/67 (no wagons: no draw, the stream is unchanged)
        if rng.random() < 0.5:
            x, y = point_near((w["x"], w["y"]), rng, 14 if rng.random() < 0.8 else 30)
            lines.append(f"move {wagon_name(w)} to {x:.2f},{y:.2f}")
    for name, ids in sorted(state["pows"][side].items()):
        left = [i for i in ids if not figs[i]["pow"][2]]
        if left and rng.random() < 0.7:
            x, y = point_near(_centre(figs, left), rng, 13)
            lines.append(f"escort {name} to {x:.2f},{y:.2f}")
    rng.shuffle(lines)
    return "\n".join(lines) or "hold"


def point_near(c: Coord, rng: Random, spread: float) -> XY:
    return c[0] + rng.uniform(-spread, spread), c[1] + rng.uniform(-spread, spread)


def _rand_move(state: State, side: str, name: str, c: Coord, rng: Random) -> str:
    x, y = point_near(c, rng, 14 if rng.random() < 0.8 else 30)
    return f"move {name} to {x:.2f},{y:.2f}"


def _rand_line(state: State, side: str, name: str, c: Coord, rng: Random) -> str:
    (x1, y1), (x2, y2) = point_near(c, rng, 10), point_near(c, rng, 10)
    return f"move {name} line {x1:.2f},{y1:.2f} {x2:.2f},{y2:.2f}"


def _rand_split(state: State, side: str, name: str, c: Coord, rng: Random) -> str:
    x, y = point_near(c, rng, 5)
    return f"split {name} {rng.randint(1, 6)} as {name}s{rng.randint(1, 9)} nearest {x:.1f},{y:.1f}"


def _rand_merge(state: State, side: str, name: str, c: Coord, rng: Random) -> str:
    others = sorted(n for n in state["groups"][side] if n != name)
    return f"merge {name} into {rng.choice(others)}" if others else "hold"


def _rand_surrender(state: State, side: str, name: str, c: Coord, rng: Random) -> str:
    return f"surrender {name}" if rng.random() < 0.3 else "hold"


def fuzz_game(
    rs: CheckedRuleSet,
    scenario: Any,
    seed: int,
    turns: int,
    verbs: Iterable[LineMaker] = (),
    setup_seed: int | None = None,
) -> State:
    """Play ``turns`` turns of random orders on ``scenario`` with rule set ``rs``; after every
    adjudication the state must keep every invariant and no figure may fight twice. Returns the state."""
    rng = random.Random(seed)
    state: State = rs.initial_state()
    for ev in rs.setup(scenario, random.Random(seed if setup_seed is None else setup_seed)):
        state = rs.fold(state, ev.type, ev.payload)
    for _ in range(turns):
        spec = rs.next_turn(state)
        if not spec.sides:
            break
        orders = {s: rs.parse_orders(state, s, random_orders(state, s, rng, verbs)).orders for s in spec.sides}
        events = rs.adjudicate(state, orders, random.Random(rng.getrandbits(32)))
        for ev in events:
            state = rs.fold(state, ev.type, ev.payload)
        problems = rs.check_invariants(state) + check_turn(events)
        assert problems == [], (scenario, seed, state["turn"], problems)
    return state


SHEET_PARTS = ("victory", "guns_points", "cavalry_points", "infantry_points", "prisoner_points")


def check_result(result: Mapping[str, Any], board: Mapping[str, Any]) -> None:
    """A finished game's score sheet as Wells keeps it (scoring.sheet), read against a player's last
    view (the API play-through's check, tests/support/playthrough.py): each side's total is the sum
    of its parts, and the victory points are shared out whole (all to the winner, halves in a draw)."""
    scores = result["scores"]
    for side, lines in scores.items():
        assert math.isclose(lines["total"], sum(lines[k] for k in SHEET_PARTS)), (side, lines)
    assert math.isclose(sum(lines["victory"] for lines in scores.values()), 100), scores
    if result["winner"] is not None:
        assert scores[result["winner"]]["victory"] == 100, scores
    assert board["result"] == dict(result), (board["result"], result)

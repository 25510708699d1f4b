"""The map SVG contract (rules/core/MAPS.md) on every rule set's map: the root's kind and size,
every unit an order names carrying its name exactly as orders write it, every place clickable.

The order check is the point of the contract: an order line written with the SVG's ``data-id``
(and ``data-hex``/``data-node``, coordinates from ``data-x``/``data-y``) parses and validates
against the game, so a script that builds orders from clicks writes orders the rules accept.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rules import catalog
from rules.core.protocol import Viewer

NS = "{http://www.w3.org/2000/svg}"
RED = Viewer("player", "red")
MAPS_MD = Path(catalog.__file__).parent / "core" / "MAPS.md"
# The kinds of map the contract knows, as rules/core/MAPS.md declares them: <svg data-map="table|hex|graph" ...>
CONTRACT_KINDS = set(re.search(r'data-map="([a-z|]+)"', MAPS_MD.read_text()).group(1).split("|"))
NAMES = catalog.names()  # every rule set in the catalogue (issue 33): a new one is checked by being registered


def game(name):
    rs = catalog.get(name)
    state = rs.set_up(rs.load_scenario(None), random.Random(7))
    if not [u for u in units(svg_of(rs, state, "en")) if u.get("data-side") == "red"]:
        # A rule set whose sides start with no unit on the map (Civil War: the sides form them):
        # a few turns of legal orders first, so the contract is checked on units.
        state = play_first_legal(rs, state, turns=4)
    return rs, state


def play_first_legal(rs, state, turns):
    rng = random.Random(3)
    for _ in range(turns):
        side = rs.next_turn(state).sides[0]
        ops = rs.legal_orders(rs.view(state, Viewer("player", side)), side)
        op = next((o for o in ops if o.startswith("form")), ops[0])  # forming puts units on the map
        parsed = rs.parse_orders(state, side, op)
        state = rs.fold_events(state, rs.adjudicate(state, {side: parsed.orders}, rng))
    return state


def svg_of(rs, state, lang, viewer=RED):
    return ET.fromstring(rs.render_svg(rs.view(state, viewer), lang=lang))


@pytest.fixture(params=["en", "ru"])
def lang(request):
    """Every contract test in both languages: the words change, the attributes orders use do not."""
    return request.param


def units(root):
    return [e for e in root.iter() if "unit" in e.get("class", "").split()]


def map_kind(name):
    """The kind of map a rule set draws, as its SVG root declares it (``data-map``)."""
    rs, state = game(name)
    return svg_of(rs, state, "en").get("data-map")


KINDS = {name: map_kind(name) for name in NAMES}


def order_errors(rs, state, side, text):
    parsed = rs.parse_orders(state, side, text)
    errors = list(parsed.errors) + list(rs.validate(state, side, parsed.orders))
    return [f"{e.line}: {e.message}" for e in errors]


def test_the_contract_kinds_are_read_from_maps_md():
    """A kind added to the contract needs its own checks below before it is let through here."""
    assert {"table", "hex", "graph"} == CONTRACT_KINDS


@pytest.mark.parametrize("name", NAMES)
def test_root_and_units_carry_the_contract(name, lang):
    rs, state = game(name)
    root = svg_of(rs, state, lang)
    assert root.get("data-map") in CONTRACT_KINDS and root.get("data-map") == KINDS[name]
    own = [u for u in units(root) if u.get("data-side") == "red"]
    assert own, "the viewer's own units are on its map"
    for u in units(root):
        assert u.get("data-id") and u.get("data-side") in ("red", "blue") and u.get("data-kind"), ET.tostring(u)[:200]
    if KINDS[name] == "table":
        table = rs.view(state, RED)["table"]
        assert (float(root.get("data-width")), float(root.get("data-depth"))) == (table["width"], table["depth"])
        assert root.get("data-y") == "up"
        for u in units(root):
            float(u.get("data-x")), float(u.get("data-y")), float(u.get("data-reach"))
            if u.get("data-kind") == "gun":
                assert float(u.get("data-range")) > 0 and u.get("data-crewed") in ("true", "false")
    if KINDS[name] == "hex":
        hexes = {e.get("data-hex") for e in root.iter(f"{NS}polygon") if e.get("data-hex")}
        assert len(hexes) > 20
        assert all(u.get("data-hex") in hexes for u in units(root))
    if KINDS[name] == "graph":
        nodes = {e.get("data-node") for e in root.iter() if "node" in e.get("class", "").split()}
        board = rs.view(state, RED)["board"]
        assert nodes == {c["id"] for c in board["cities"]} | {r["id"] for r in board["roads"]}
        assert all(u.get("data-node") in nodes and u.get("data-id") == u.get("data-node") for u in units(root))


@pytest.mark.parametrize("name", ["littlewars", "kriegspiel"])
def test_table_orders_from_the_svg_are_accepted(name, lang):
    """Deployment: a group or gun placed where the SVG says it stands (its own zone) is a legal order."""
    rs, state = game(name)
    root = svg_of(rs, state, lang)
    lines = [
        f"deploy {u.get('data-id')} at {u.get('data-x')},{u.get('data-y')}"
        for u in units(root)
        if u.get("data-side") == "red" and u.get("data-kind") in ("group", "gun")
    ]
    assert any(line.startswith("deploy gun1 ") for line in lines) and len(lines) >= 3
    assert order_errors(rs, state, "red", "\n".join(lines)) == []


def test_kings_of_war_orders_name_the_svg_units(lang):
    rs, state = game("kingsofwar")
    ids = [u.get("data-id") for u in units(svg_of(rs, state, lang)) if u.get("data-side") == "red"]
    assert ids and order_errors(rs, state, "red", "\n".join(f"{i} halt" for i in ids)) == []
    speeds = {u["id"]: u["profile"]["sp"] for u in rs.view(state, RED)["units"]}
    assert all(float(u.get("data-reach")) == speeds[u.get("data-id")] for u in units(svg_of(rs, state, lang)))


@pytest.mark.parametrize("name", [name for name in NAMES if KINDS[name] == "hex"])
def test_hex_orders_name_the_svg_units_and_hexes(name, lang):
    """A move to a neighbouring hex, written with the SVG's ids and hex labels, is read as that unit's order."""
    rs, state = game(name)
    side = rs.next_turn(state).sides[0]
    root = svg_of(rs, state, lang, Viewer("player", side))
    mine = [u for u in units(root) if u.get("data-side") == side and u.get("data-kind") == "unit"]
    assert mine
    u = mine[0]
    parsed = rs.parse_orders(state, side, f"move {u.get('data-id')} to {u.get('data-hex')}")
    assert not parsed.errors and parsed.orders[0].unit == u.get("data-id")
    view_units = {v["id"]: v["hex"] for v in rs.view(state, Viewer("player", side))["units"] if v["hex"]}
    assert all(view_units[m.get("data-id")] == m.get("data-hex") for m in mine)


def test_civil_war_legal_operations_name_svg_units_and_nodes(lang):
    rs, state = game("civilwar")
    root = svg_of(rs, state, lang)
    nodes = {e.get("data-node") for e in root.iter() if e.get("data-node")}
    mine = {u.get("data-id") for u in units(root) if u.get("data-side") == "red"}
    ops = rs.legal_orders(rs.view(state, RED), "red")
    assert ops
    for op in ops:
        words = op.split()
        points = [w for w in words if w[:1] in ("C", "R", "L") and w[1:2].isdigit()]
        assert all(p in nodes for p in points if not p.startswith("L")), op
        if words[0] in ("move", "assault", "breakthrough") and "from" in words:
            assert words[words.index("from") + 1] in mine, op
        if words[0] == "move":
            assert words[1] in mine, op
        assert order_errors(rs, state, "red", op) == [], op


def test_little_wars_moves_written_from_the_svg_are_accepted_in_play(lang):
    """In play: each own group moved half an inch from where the SVG puts it, a single figure by its
    data-id, a gun firing at a point within its data-range: the rules accept every line."""
    from rules.littlewars.testing import new_game, play_bots

    rs = catalog.get("littlewars")
    state, _ = play_bots(new_game("skirmish", 1), seed=1, max_turns=2)
    root = svg_of(rs, state, lang)
    own = [u for u in units(root) if u.get("data-side") == "red"]
    lines = [
        f"move {u.get('data-id')} to {float(u.get('data-x')) + 0.5:.2f},{float(u.get('data-y')) + 0.5:.2f}"
        for u in own
        if u.get("data-kind") == "group"
    ]
    loose = next(u for u in own if u.get("data-kind") == "figure")
    assert order_errors(rs, state, "red", "\n".join(lines)) == [] and len(lines) >= 2
    assert (
        order_errors(
            rs, state, "red", f"move {loose.get('data-id')} to {loose.get('data-x')},{float(loose.get('data-y')) + 0.5}"
        )
        == []
    )
    gun = next(u for u in own if u.get("data-kind") == "gun")
    assert float(gun.get("data-range")) == 144.0
    gx, gy = float(gun.get("data-x")), float(gun.get("data-y"))
    assert order_errors(rs, state, "red", f"fire {gun.get('data-id')} at {gx:.1f},{gy + 20:.1f}") == []

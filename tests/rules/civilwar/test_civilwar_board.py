import copy

import networkx as nx
import pytest

from rules import catalog
from rules.civilwar import RULESET as RS
from rules.civilwar.board import build_graph, default_map, load_map
from rules.civilwar.testing import row_map, star_map
from rules.core.protocol import ScenarioError


def test_registered_under_civilwar():
    assert catalog.get("civilwar") is RS
    assert "civilwar" in catalog.names()
    assert RS.sides == ("red", "blue")
    assert RS.turn_mode == "alternating"


def test_default_map_shape():
    m = RS.load_scenario(None)
    assert len(m["cities"]) == 20
    assert 30 <= len(m["roads"]) <= 40
    g = build_graph(m)
    assert nx.is_connected(g)
    assert nx.is_bipartite(g)
    for r in m["roads"]:
        assert g.degree(r["id"]) == 2
    assert len(m["lines"]) >= 8
    for c in m["cities"]:
        assert isinstance(c["x"], (int, float)) and isinstance(c["y"], (int, float))
    assert m["max_units"] == 30


def test_default_lines_are_geometrically_straight():
    m = RS.load_scenario(None)
    xy = {c["id"]: (c["x"], c["y"]) for c in m["cities"]}
    for ln in m["lines"]:
        cities = [p for p in ln["points"] if p in xy]
        (x0, y0), (x1, y1) = xy[cities[0]], xy[cities[1]]
        for c in cities[2:]:
            x, y = xy[c]
            assert (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0) == 0, (ln["id"], c)


def test_ids_are_normalised_to_upper_case():
    raw = star_map()
    raw["cities"][0]["id"] = "c1"
    raw["roads"][0]["joins"] = ["c1", "c2"]
    m = load_map(raw)
    assert m["cities"][0]["id"] == "C1"
    assert m["roads"][0]["joins"] == ["C1", "C2"]


def test_load_map_does_not_mutate_input():
    raw = star_map()
    before = copy.deepcopy(raw)
    load_map(raw)
    assert raw == before
    assert default_map() == default_map()


def _broken(edit):
    raw = star_map()
    edit(raw)
    return raw


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda m: m["roads"].append({"id": "R99", "joins": ["C1", "C99"]}), "road R99: unknown city C99"),
        (lambda m: m["roads"].append({"id": "R98", "joins": ["C1"]}), "road R98: 'joins' must list exactly two cities"),
        (lambda m: m["roads"].append({"id": "R97", "joins": ["C2", "C2"]}), "road R97: must join two different cities"),
        (lambda m: m["roads"].append({"id": "R12", "joins": ["C2", "C3"]}), "duplicate id R12"),
        (lambda m: m["cities"].append({"id": "c2", "x": 1, "y": 1}), "duplicate id C2"),
        (lambda m: m["lines"].append({"id": "C3", "points": ["C2", "R23", "C3"]}), "duplicate id C3"),
        (lambda m: m["cities"].pop(), "needs an even number"),
        (lambda m: m["cities"].append({"id": "C9", "x": 1}), "city C9: needs drawing coordinates"),
        (lambda m: m["cities"].append({"id": "9X", "x": 1, "y": 2}), "must start with a letter"),
        (lambda m: m["lines"].append({"id": "L3", "points": ["C2", "C3", "R23"]}), "line L3: C2 and C3 are both citys"),
        (
            lambda m: m["lines"].append({"id": "L3", "points": ["C5", "R23", "C3"]}),
            "line L3: road R23 does not lead to city C5",
        ),
        (lambda m: m["lines"].append({"id": "L3", "points": ["C5", "R99", "C3"]}), "line L3: unknown point R99"),
        (lambda m: m["lines"].append({"id": "L3", "points": ["C2", "R23"]}), "line L3: 'points' must list at least 3"),
        (lambda m: m["lines"].append({"id": "L3", "points": ["C2", "R23", "C3", "R23", "C2"]}), "appears twice"),
        (lambda m: m["lines"].append({"id": "L3", "points": ["C1", "R12", "C2"]}), "already part of line L1"),
        (lambda m: m.update(max_units=0), "max_units must be a positive integer"),
        (lambda m: m.update(colour="red"), "unknown scenario key(s): colour"),
        (lambda m: m.update(cities=[]), "non-empty list 'cities'"),
    ],
)
def test_map_validation_errors(edit, message):
    with pytest.raises(ScenarioError) as exc:
        RS.load_scenario(_broken(edit))
    assert message in str(exc.value)


def test_disconnected_map_is_rejected():
    raw = star_map()
    raw["cities"] += [{"id": "C7", "x": 0, "y": 0}, {"id": "C8", "x": 5, "y": 5}]
    raw["roads"].append({"id": "R78", "joins": ["C7", "C8"]})
    with pytest.raises(ScenarioError, match="not connected: C7 cannot be reached from C1"):
        RS.load_scenario(raw)


def test_scenario_must_be_an_object():
    with pytest.raises(ScenarioError, match="must be a JSON object"):
        RS.load_scenario([1, 2])


def test_toy_maps_are_valid():
    assert len(load_map(star_map())["cities"]) == 6
    assert len(load_map(row_map())["lines"][0]["points"]) == 11


def test_validation_is_idempotent():
    once = load_map(None)
    assert load_map(once) == once
    assert load_map(load_map(star_map())) == load_map(star_map())

"""The hex engine: coordinates, lines, paths, maps, stacking, SVG (line of sight: test_line_of_sight.py).

Vectors from Red Blob Games' implementation guide; properties with hypothesis; paths checked
against networkx's Dijkstra as an independent oracle.
"""

from itertools import pairwise

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.core.protocol import ScenarioError
from rules.hex import coords as C
from rules.hex import paths
from rules.hex.board import HexMap, load_map
from rules.hex.stacking import Capacity
from rules.hex.svg import render

hexes = st.tuples(st.integers(-30, 30), st.integers(-30, 30))
small = st.tuples(st.integers(-6, 6), st.integers(-6, 6))


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a, b, c):
    assert C.distance(a, b) == C.distance(b, a)
    assert (C.distance(a, b) == 0) == (a == b)
    assert C.distance(a, c) <= C.distance(a, b) + C.distance(b, c)


def test_red_blob_vectors():
    assert C.distance((3, -7), (0, 0)) == 7
    assert C.line((0, 0), (1, -5)) == [(0, 0), (0, -1), (0, -2), (1, -3), (1, -4), (1, -5)]
    # odd-q offset: Red Blob qoffset_from_cube(ODD, Hex(1, 2, -3)) == (1, 2)
    assert C.to_offset((1, 2)) == (1, 2)
    assert C.from_offset(1, 2) == (1, 2)


@given(hexes, st.integers(0, 6))
def test_ring_and_range_sizes(c, n):
    ring = C.ring(c, n)
    assert len(ring) == (6 * n if n else 1) and len(set(ring)) == len(ring)
    assert all(C.distance(c, h) == n for h in ring)
    area = C.within(c, n)
    assert len(area) == 3 * n * (n + 1) + 1
    assert set(area) == {h for k in range(n + 1) for h in C.ring(c, k)}


def test_directions_clock_and_opposites():
    assert [C.clock(d) for d in range(6)] == [12, 2, 4, 6, 8, 10]
    for d in range(6):
        n = C.neighbour((0, 0), d)
        assert C.direction_to((0, 0), n) == d
        assert C.direction_to(n, (0, 0)) == (d + 3) % 6
        assert C.bearing((0, 0), n) == d
    # north is up on screen (y down), south-east is right and down
    assert C.to_pixel(C.neighbour((0, 0), 0), 1)[1] < 0
    x, y = C.to_pixel(C.neighbour((0, 0), 2), 1)
    assert x > 0 and y > 0


@given(hexes, st.integers(0, 5))
def test_side_keys_are_shared_by_both_hexes(h, d):
    n = C.neighbour(h, d)
    assert C.side_key(h, d) == C.side_key(n, (d + 3) % 6) == C.side_between(n, h)
    assert C.side_key(h, d)[2] in (0, 1, 2)
    assert set(C.side_hexes(C.side_key(h, d))) == {h, n}


def test_side_segment_is_shared_by_both_hexes():
    for d in range(6):
        n = C.neighbour((2, 1), d)
        a = sorted((round(x, 6), round(y, 6)) for x, y in C.side_segment((2, 1), d, 10))
        b = sorted((round(x, 6), round(y, 6)) for x, y in C.side_segment(n, (d + 3) % 6, 10))
        assert a == b


@given(hexes)
def test_label_and_pixel_round_trip(h):
    assert C.from_pixel(*C.to_pixel(h, 17.0), 17.0) == h
    if C.to_offset(h)[0] >= 0 and C.to_offset(h)[1] >= 0:
        assert C.parse_label(C.label(h)) == h


def test_labels_are_column_then_row_from_0101():
    assert C.label(C.from_offset(0, 0)) == "0101"
    assert C.label(C.from_offset(2, 4)) == "0305"
    with pytest.raises(ValueError, match="four digits"):
        C.parse_label("35")


@given(hexes, hexes)
def test_both_lines_are_connected_and_share_ends(a, b):
    plus, minus = C.lines(a, b)
    for ln in (plus, minus):
        assert len(ln) == C.distance(a, b) + 1
        assert ln[0] == a and ln[-1] == b
        assert all(C.distance(x, y) == 1 for x, y in pairwise(ln))


def test_border_line_passes_both_sides():
    plus, minus = C.lines((0, 0), (2, -1))  # cube delta (2,-1,-1): along hexsides
    assert plus[1] != minus[1]
    assert {plus[1], minus[1]} == {(1, 0), (1, -1)}


AREA = st.sampled_from(C.within((0, 0), 3))


def _cost_fn(costs, walls):
    def step(a, b):
        if b not in costs or C.side_between(a, b) in walls:
            return None
        return costs[b]

    return step


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(AREA, st.sampled_from([1, 2, 3, None])),
    AREA,
    AREA,
    st.sets(st.tuples(AREA, st.integers(0, 2)).map(lambda t: C.side_key(*t)), max_size=6),
)
def test_paths_are_minimal_against_networkx(overrides, start, goal, walls):
    area = C.within((0, 0), 3)
    costs = {h: overrides.get(h, 1) for h in area}
    costs = {h: c for h, c in costs.items() if c is not None}
    step = _cost_fn(costs, walls)
    g = nx.DiGraph()
    g.add_nodes_from(area)
    for a in area:
        for b in C.neighbours(a):
            c = step(a, b)
            if c is not None:
                g.add_edge(a, b, w=c)
    try:
        expected = nx.dijkstra_path_length(g, start, goal, weight="w")
    except nx.NetworkXNoPath:
        expected = None
    found = paths.path(start, goal, step)
    if expected is None:
        assert found is None and paths.path(start, goal, step, min_step=1) is None
    else:
        assert found[0] == start and found[-1] == goal
        assert paths.path_cost(found, step) == expected
        astar = paths.path(start, goal, step, min_step=1)  # every step here costs at least 1
        assert paths.path_cost(astar, step) == expected
    reach = paths.reach(start, 4, step)
    oracle = nx.single_source_dijkstra_path_length(g, start, cutoff=4, weight="w")
    assert reach == oracle


MAP = {
    "name": "test",
    "cols": 6,
    "rows": 5,
    "default_terrain": "open",
    "hexes": {"0203": {"terrain": "wood", "elevation": 1, "road": True}},
    "sides": {"0203/0204": "stream"},
}


def test_map_loads_and_looks_up():
    data = load_map(MAP, ["open", "wood"], ["stream", "wall"])
    m = HexMap(data)
    a, b = C.parse_label("0203"), C.parse_label("0204")
    assert len(m.hexes()) == 30
    assert m.terrain(a) == "wood" and m.elevation(a) == 1 and m.road(a)
    assert m.side(a, b) == m.side(b, a) == "stream"
    assert m.side(a, C.parse_label("0202")) is None
    assert data["digest"] == load_map(MAP, ["open", "wood"], ["stream", "wall"])["digest"]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"cols": 0}, "map.cols: must be at least 1"),
        ({"cols": "6"}, "map.cols: must be a whole number"),
        ({"hexes": {"0909": {"terrain": "wood"}}}, "map.hexes.0909: hex 0909 is not on the map"),
        ({"hexes": {"0203": {"terrain": "lava"}}}, "map.hexes.0203.terrain: 'lava' is not one of: open, wood"),
        ({"hexes": {"0203": {"colour": "red"}}}, "map.hexes.0203: unknown field(s) colour"),
        ({"sides": {"0203/0205": "stream"}}, "map.sides.0203/0205: 0203 and 0205 are not adjacent"),
        ({"sides": {"0203/0204": "moat"}}, "map.sides.0203/0204: 'moat' is not a hexside feature"),
        ({"sides": {"0203/0204": "stream", "0204/0203": "wall"}}, "is given twice"),
        ({"name": None}, "map.name: must be a string"),
    ],
)
def test_map_errors_name_the_field(change, message):
    with pytest.raises(ScenarioError) as e:
        load_map({**MAP, **change}, ["open", "wood"], ["stream", "wall"])
    assert message in str(e.value)


def test_capacity():
    cap = Capacity(figures=20, large=1, mixed=False)
    assert cap.refusal([(18, 0)], (3, 0)) == "the hex holds 18 figures; 3 more would exceed 20"
    assert cap.refusal([(17, 0)], (3, 0)) is None
    assert "large model" in cap.refusal([(0, 1)], (0, 1))
    assert cap.refusal([(5, 0)], (0, 1)) == "figures and a large model cannot share a hex"
    assert Capacity(mixed=True).refusal([(5, 0)], (0, 1)) is None


def test_svg_renders_and_converts_to_png():
    m = HexMap(load_map(MAP, ["open", "wood"], ["stream"]))
    svg = render(
        m,
        terrain_fill={"open": "#e8e2c8", "wood": "#4f7d3b"},
        side_stroke={"stream": "#3b7dd8"},
        counters=[{"hex": "0203", "side": "red", "name": "1st <Sq>", "strength": "8/10", "state": "calm"}],
        title="test",
        lines=["turn 1"],
        marks={"0101": "#f00"},
    )
    assert svg.startswith("<svg") and "1st &lt;Sq&gt;" in svg and "0305" in svg
    import cairosvg

    png = cairosvg.svg2png(bytestring=svg.encode())
    assert png[:8] == b"\x89PNG\r\n\x1a\n"

"""Maps for reading (issue 17 item 2, issue 16's map bullet): rulers in inches, deployment zones,
terrain named on the table, a legend, guns' crew and limber drawn, labels that never overlap
(boxes recomputed with the placer's own text_box), and a "my troops" crop that holds all of the
viewer's troops and depends on nothing else."""

from __future__ import annotations

import copy
import random
import xml.etree.ElementTree as ET

import pytest

from rules import catalog
from rules.core.mapsvg import overlap, text_box
from rules.core.protocol import Viewer
from rules.hex.board import hexmap
from rules.kriegspiel.ruleset import RULESET as KS
from rules.littlewars import RULESET as LW
from rules.littlewars.testing import build, fuzz_game, new_game
from tests.support.conformance import bot_game

NS = "{http://www.w3.org/2000/svg}"
RED = Viewer("player", "red")


def classes(e):
    return e.get("class", "").split()


def labels(root):
    return [e for e in root.iter(f"{NS}text") if "label" in classes(e)]


def label_boxes(root):
    return [
        text_box(
            float(e.get("x")),
            float(e.get("y")),
            float(e.get("font-size")),
            e.text,
            e.get("text-anchor"),
            e.get("font-weight", "normal"),
        )
        for e in labels(root)
    ]


def assert_no_overlaps(root):
    boxes = label_boxes(root)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not overlap(a, b), (a, b)


def scenarios(rs):
    return [n for n, _ in rs.scenarios()] or [None]


def map_kind(rs):
    """The kind of map a rule set draws, as its SVG root declares it (rules/core/MAPS.md)."""
    state = rs.set_up(rs.load_scenario(None), random.Random(1))
    return ET.fromstring(rs.render_svg(rs.view(state, RED))).get("data-map")


def reads_little_wars_orders(rs):
    """A rule set that reads Little Wars' orders (the Kriegspiel) is fuzzed with its random orders too."""
    return set(LW.order_words) <= set(rs.order_words)


TABLE_GAMES = [catalog.get(name) for name in catalog.names() if map_kind(catalog.get(name)) == "table"]
OTHER_MAPS = [name for name in catalog.names() if map_kind(catalog.get(name)) != "table"]


def demo_positions():
    """Positions the demo games reach, on every rule set in the catalogue that plays on a table:
    each shipped scenario fresh and after its bots played three turns; a rule set that reads Little
    Wars' orders also after four and five turns of random orders (splits make small groups side by side)."""
    for rs in TABLE_GAMES:
        for name in scenarios(rs):
            yield f"{rs.name}-{name}-fresh", rs, rs.set_up(rs.load_scenario(name), random.Random(1))
            yield f"{rs.name}-{name}-played", rs, bot_game(rs, name, 1, 3)
        if reads_little_wars_orders(rs):
            for seed in (1, 2, 3):
                for turns in (4, 5):
                    yield f"{rs.name}-fuzz-{seed}-{turns}", rs, fuzz_game(rs, None, seed, turns)


POSITIONS = list(demo_positions())


@pytest.mark.parametrize("key,rs,state", POSITIONS, ids=[p[0] for p in POSITIONS])
@pytest.mark.parametrize("viewer", [RED, Viewer("umpire")], ids=["red", "umpire"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_labels_never_overlap_and_own_groups_are_named(key, rs, state, viewer, lang):
    """In Russian too: its longer, wider labels are measured by the font's own widths."""
    view = rs.view(state, viewer)
    for crop in (False, True):
        root = ET.fromstring(rs.render_svg(view, crop=crop, lang=lang))
        assert_no_overlaps(root)
    root = ET.fromstring(rs.render_svg(view, lang=lang))
    texts = [e.text for e in labels(root)]
    for groups in (view.get("groups") or {}).values():
        for name in groups:
            assert any(t.startswith(f"{name} (") for t in texts), (name, texts)


@pytest.mark.parametrize("key,rs,state", POSITIONS, ids=[p[0] for p in POSITIONS])
def test_tables_have_rulers_zones_terrain_names_and_a_legend(key, rs, state):
    view = rs.view(state, RED)
    root = ET.fromstring(rs.render_svg(view))
    rulers = [e for e in root.iter(f"{NS}g") if "rulers" in classes(e)]
    assert len(rulers) == 1
    numbers = {float(t.text) for t in rulers[0].iter(f"{NS}text") if t.text != "in"}
    table = view["table"]
    assert 0 in numbers and max(numbers) >= min(table["width"], table["depth"]) * 0.7
    zones = {e.get("data-side") for e in root.iter(f"{NS}g") if "deploy-zone" in classes(e)}
    assert zones == {"red", "blue"}
    names = " ".join(e.text for e in labels(root) if "terrain-name" in classes(e))
    terrain = view["table"]["terrain"] if "terrain" in view["table"] else view["terrain"]
    assert terrain and all(t["id"] in names for t in terrain), names
    legend = next(e for e in root.iter(f"{NS}g") if "legend" in classes(e))
    legend_text = " ".join(t.text for t in legend.iter(f"{NS}text"))
    kinds = {t.get("type") or t.get("kind") for t in terrain}
    assert all(k in legend_text for k in kinds) and "deploys" in legend_text or "set up" in legend_text


@pytest.mark.parametrize("name", OTHER_MAPS)
def test_hex_and_graph_maps_have_a_legend(name):
    rs = catalog.get(name)
    state = rs.set_up(rs.load_scenario(None), random.Random(1))
    root = ET.fromstring(rs.render_svg(rs.view(state, RED)))
    text = " ".join(t.text or "" for t in root.iter(f"{NS}text"))
    assert root.get("data-map") in ("hex", "graph")
    if root.get("data-map") == "hex":
        legend = next(e for e in root.iter(f"{NS}g") if "legend" in classes(e))
        legend_text = " ".join(t.text for t in legend.iter(f"{NS}text"))
        cells = hexmap(rs.view(state, RED)["scenario"]["map"]).cells.values()
        assert all(c["terrain"] in legend_text for c in cells)
        assert "road" in legend_text and "objective" in legend_text
    else:
        assert "road point" in text
        names = [e.text for e in labels(root)]  # the straight lines' names, placed clear of each other
        assert sorted(names) == sorted(ln["id"] for ln in rs.view(state, RED)["board"]["lines"])
        assert_no_overlaps(root)


def test_a_gun_without_crew_and_a_limbered_gun_are_drawn_so():
    state = build(
        red=[("foot", "inf", [(10, 10 + i) for i in range(5)])],
        blue=[("foot", "inf", [(40, 30)])],
        guns=[("red", "gun1", 12, 12, 90), ("red", "gun2", 30, 5, 90)],
    )
    root = ET.fromstring(LW.render_svg(LW.view(state, RED)))
    guns = {g.get("data-id"): g for g in root.iter(f"{NS}g") if g.get("data-kind") == "gun"}
    assert guns["gun1"].get("data-crewed") == "true" and guns["gun2"].get("data-crewed") == "false"
    assert any(t.text == "gun2 (no crew)" for t in labels(root))
    assert not any(t.text.startswith("gun1 (") for t in labels(root))
    assert any(p.get("stroke") == "#c00" for p in guns["gun2"].iter(f"{NS}path"))  # the red slash
    legend = " ".join(t.text for e in root.iter(f"{NS}g") if "legend" in classes(e) for t in e.iter(f"{NS}text"))
    assert "gun without crew" in legend
    ks_state = KS.set_up(None, random.Random(1))
    ks_state = copy.deepcopy(ks_state)
    ks_state["ks"]["limbered"] = {"red": ["red:gun1"], "blue": []}
    root = ET.fromstring(KS.render_svg(KS.view(ks_state, RED)))
    gun = next(g for g in root.iter(f"{NS}g") if g.get("data-kind") == "gun")
    assert gun.get("data-limbered") == "true" and any(t.text == "gun1 (limbered)" for t in labels(root))
    umpire = ET.fromstring(KS.render_svg(KS.view(ks_state, Viewer("umpire"))))
    limbered = {
        g.get("data-side"): g.get("data-limbered") for g in umpire.iter(f"{NS}g") if g.get("data-kind") == "gun"
    }
    assert limbered == {"red": "true", "blue": "false"}  # the umpire sees every side's
    blue = ET.fromstring(KS.render_svg(KS.view(ks_state, Viewer("player", "blue"))))
    limbered = {g.get("data-side"): g.get("data-limbered") for g in blue.iter(f"{NS}g") if g.get("data-kind") == "gun"}
    assert limbered == {"blue": "false"}  # red's gun and its state are red's (behind the curtain here)
    assert not any("limbered" in (t.text or "") for t in blue.iter(f"{NS}text"))
    lw = ET.fromstring(LW.render_svg(LW.view(state, RED)))  # Little Wars has no limbers: no claim either way
    assert not any(g.get("data-limbered") for g in lw.iter(f"{NS}g"))


def mine_of(root):
    return tuple(float(v) for v in root.get("data-mine").split())


def test_kriegspiel_crop_holds_all_own_troops_and_only_depends_on_them():
    """The 96 x 288 in table: the mail's picture is cropped to the viewer's troops; the box holds every
    one of them and is the same wherever the enemy stands (the crop reveals nothing of it)."""
    state = fuzz_game(KS, None, 2, 4)
    view = KS.view(state, RED)
    full = ET.fromstring(KS.render_svg(view))
    x, y, w, h = mine_of(full)
    depth = view["table"]["depth"]
    own = [(f["x"], f["y"]) for f in view["figures"] if f["side"] == "red" and not f.get("captor")] + [
        (g["x"], g["y"]) for g in view["guns"] if g["owner"] == "red"
    ]
    assert own and all(x <= px <= x + w and y <= depth - py <= y + h for px, py in own)
    assert w * h < 0.6 * view["table"]["width"] * depth  # much less than the table: the mail crops
    cropped = ET.fromstring(KS.render_svg(view, crop=True))
    vx, vy, vw, vh = (float(v) for v in cropped.get("viewBox").split())
    assert vx <= x and vy <= y and vx + vw >= x + w and vh < 0.5 * depth  # the box and its rulers, not the strip
    assert float(full.get("viewBox").split()[3]) > depth  # the web's SVG keeps the whole table
    moved = copy.deepcopy(state)  # the enemy anywhere else, seen or not: the box is the same
    for fid, f in moved["figures"].items():
        if f["side"] == "blue":
            moved["figures"][fid] = {**f, "x": 95.0 - f["x"] * 0.5, "y": 20.0 + f["y"] * 0.1}
    assert mine_of(ET.fromstring(KS.render_svg(KS.view(moved, RED)))) == (x, y, w, h)


def test_the_crop_draws_no_enemy_the_view_does_not_hold():
    state = fuzz_game(KS, None, 3, 4)
    view = KS.view(state, RED)
    seen = {f["id"].split(":")[-1] for f in view["figures"] if f["side"] == "blue"}
    root = ET.fromstring(KS.render_svg(view, crop=True))
    drawn = {e.get("data-id") for e in root.iter() if e.get("data-side") == "blue" and e.get("data-kind") == "figure"}
    assert drawn == seen
    hidden = [
        f
        for f in state["figures"]
        if state["figures"][f]["side"] == "blue" and f.split(":")[-1] not in seen and state["figures"][f]["st"] == "ok"
    ]
    assert hidden, "some blue troops are out of sight in this position"
    svg = KS.render_svg(view, crop=True)
    for fid in hidden:  # nor its place: the box is the same if the hidden ones stand elsewhere
        state["figures"][fid] = {**state["figures"][fid], "x": 1.0, "y": 1.0}
    assert KS.render_svg(KS.view(state, RED), crop=True) == svg


@pytest.mark.parametrize("viewer", [Viewer("umpire"), Viewer("observer")], ids=["umpire", "observer"])
def test_no_my_troops_box_for_those_with_no_troops(viewer):
    state = new_game("skirmish", 1)
    root = ET.fromstring(LW.render_svg(LW.view(state, viewer)))
    assert root.get("data-mine") is None


def test_the_placer_never_overlaps_and_says_what_it_left_out():
    from rules.core.mapsvg import LabelPlacer, crop_box

    placer = LabelPlacer(bounds=(0, 0, 40, 30), keep_clear=[(18, 13, 4, 4)])
    spots = [placer.place(20, 15, f"group{i}", 1.0, 0.3) for i in range(60)]  # all at one crowded point
    placed = list(placer.labels)
    assert len(placed) == sum(s is not None for s in spots) and placer.dropped  # some had no room
    assert len(placed) + len(placer.dropped) == 60
    for i, a in enumerate(placed):
        assert not overlap(a, (18, 13, 4, 4)) and a[0] >= 0 and a[0] + a[2] <= 40 and a[1] >= 0 and a[1] + a[3] <= 30
        assert not any(overlap(a, b) for b in placed[i + 1 :])
    # the "my troops" box: holds the points with their margin, stays on the table, is widened to the aspect
    box = crop_box([(10, 5), (14, 7)], 96, 288, 6, 4 / 3)
    x, y, w, h = box
    assert x <= 4 and x + w >= 20 and y <= 288 - 13 and y + h == 288 and x >= 0
    assert w / h == pytest.approx(4 / 3, rel=0.01)
    assert crop_box([], 96, 288, 6) is None

"""View (allow-list), SVG map, event descriptions."""

import random
import xml.etree.ElementTree as ET

from rules.core.protocol import Viewer
from rules.littlewars import RULESET as RS
from rules.littlewars.testing import new_game, play_bots


def test_view_hides_the_other_sides_groups_and_choices():
    state, _ = play_bots(new_game("skirmish", 3), seed=3, max_turns=1)
    red = RS.view(state, Viewer("player", "red"))
    assert set(red["groups"]) == {"red"} and set(red["standing"]) == {"red"}
    assert {f["side"] for f in red["figures"]} == {"red", "blue"}
    obs = RS.view(state, Viewer("observer"))
    assert obs["groups"] == {} and obs["standing"] == {}
    ump = RS.view(state, Viewer("umpire"))
    assert set(ump["groups"]) == {"red", "blue"}


def test_svg_renders_a_big_battle_readably():
    state, _ = play_bots(new_game("big_battle", 1), seed=1, max_turns=1)
    view = RS.view(state, Viewer("player", "red"))
    assert len(view["figures"]) > 400
    svg = RS.render_svg(view)
    root = ET.fromstring(svg)  # well-formed XML
    assert root.tag.endswith("svg") and "viewBox" in root.attrib
    assert svg.count('class="unit group"') == len(view["groups"]["red"])  # one outline per own group
    assert svg.count('class="unit gun"') == len(view["guns"])
    assert "12 in (1 ft)" in svg  # scale bar
    assert len(svg) < 400_000


def test_every_event_has_a_readable_line():
    state = new_game("wells", 2)
    state, events = play_bots(state, seed=2)
    kinds = set()
    for ev in RS.setup("wells", random.Random(2)) + events:
        line = RS.describe_event(ev.type, ev.payload)
        assert line and not line.startswith("littlewars.")
        kinds.add(ev.type)
    assert "littlewars.game_over" in kinds and "littlewars.melee" in kinds


def test_a_player_rebuilding_state_from_its_view_calls_a_captured_gun_by_its_view_name():
    """The view names a captured gun as its captor does (red-gun1); a scripted player that
    rebuilds its state from the view must order it by that name, not red-red-gun1."""
    from rules.littlewars.geom import gun_name
    from rules.littlewars.testing import state_from_view

    state, _ = play_bots(new_game("skirmish", 3), seed=3, max_turns=1)
    gid, gun = next((k, g) for k, g in sorted(state["guns"].items()) if g["side"] == "red")
    state["guns"][gid] = {**gun, "owner": "blue"}  # taken by blue
    view = RS.view(state, Viewer("player", "blue"))
    shown = next(g for g in view["guns"] if g["id"] == gid)
    rebuilt = state_from_view(view)
    assert shown["name"] == f"red-{gun['name']}" == gun_name(rebuilt["guns"][gid])
    assert rebuilt["guns"][gid]["name"] == gun["name"]


def test_the_map_caption_says_deployment_before_the_first_turn_of_play():
    state = new_game("skirmish", 3)
    assert state["phase"] == "deploy"
    assert "skirmish at the farm, turn 1: deployment<" in RS.render_svg(RS.view(state, Viewer("player", "red")))
    played, _ = play_bots(state, seed=3, max_turns=2)
    svg = RS.render_svg(RS.view(played, Viewer("umpire")))
    assert f", turn {played['turn']}<" in svg or ", the game is over after turn" in svg

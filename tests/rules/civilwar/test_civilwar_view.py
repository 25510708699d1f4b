"""View allow-list and SVG rendering."""

import xml.etree.ElementTree as ET

from rules.civilwar import RULESET as RS
from rules.civilwar.testing import cj, errors, new_game, play, state
from rules.core.protocol import Viewer

RED = Viewer("player", "red")
BLUE = Viewer("player", "blue")
UMPIRE = Viewer("umpire")
OBSERVER = Viewer("observer")

SECRET = "if attacked at C4 retreat to R14"


def position_with_secrets():
    st = state(tokens={"C4": "blue", "C5": "red", "C6": "blue"}, units={"C4": "blue", "R12": "red"}, to_move="blue")
    st, ev = play(st, "blue", f"move C4 to R14\n{SECRET}\nif attacked fight")
    st, ev = play(st, "red", "form C5\nif attacked at C5 retreat to R15")
    return st


def test_view_contents():
    st = position_with_secrets()
    v = RS.view(st, RED)
    assert v["board"]["cities"][0] == {"id": "C1", "name": "C1", "x": 200, "y": 200}
    assert {"id": "R12", "joins": ["C1", "C2"], "x": 250.0, "y": 200.0} in v["board"]["roads"]
    assert v["board"]["lines"][0]["id"] == "L1"
    assert v["units"] == [
        {"point": "C5", "side": "red"},
        {"point": "R12", "side": "red"},
        {"point": "R14", "side": "blue"},
    ]
    assert v["tokens"] == {"C4": "blue", "C5": "red", "C6": "blue"}
    assert v["counters"]["red"] == {"on_map": 2, "in_box": 28, "tokens": 1, "tokens_dealt": 1}
    assert v["turn"]["to_move"] == "blue" and v["turn"]["kind"] == "orders"
    assert v["protected"]["red"] == ["C5"]
    assert v["last_operation"]["lines"] == ["Red formed a unit in C5."]
    assert v["pending"] is None and v["result"] is None
    assert v["standing_instructions"] == {"red": ["if attacked at C5 retreat to R15"]}
    assert "legal_operations" not in v  # not red's turn
    vb = RS.view(st, BLUE)
    assert vb["standing_instructions"] == {"blue": [SECRET, "if attacked fight"]}
    assert "form C6" in vb["legal_operations"]


def test_blue_secrets_never_reach_red_or_observers():
    st = position_with_secrets()
    for viewer in (RED, OBSERVER):
        v = RS.view(st, viewer)
        blob = cj(v) + RS.render_svg(v)
        assert "retreat to R14" not in blob
        assert "if attacked fight" not in blob
        assert "blue" not in v["standing_instructions"]
    assert RS.view(st, OBSERVER)["standing_instructions"] == {}
    um = RS.view(st, UMPIRE)
    assert set(um["standing_instructions"]) == {"red", "blue"}
    assert SECRET in RS.render_svg(um)


def test_view_is_a_fresh_allow_list():
    st = position_with_secrets()
    v = RS.view(st, UMPIRE)
    allowed = {
        "ruleset",
        "viewer",
        "phase",
        "board",
        "units",
        "tokens",
        "counters",
        "turn",
        "protected",
        "last_operation",
        "pending",
        "standing_instructions",
        "result",
        "legal_operations",
    }
    assert set(v) <= allowed
    before = cj(st)
    v["units"].append({"point": "C1", "side": "red"})
    v["board"]["cities"].clear()
    assert cj(st) == before


def test_pending_decision_in_view_and_svg():
    st = state(units={"C1": "blue", "R12": "red", "R15": "red", "C4": "red"}, tokens={"C3": "blue"})
    st, _ = play(st, "red", "assault C1 from R15")
    v = RS.view(st, BLUE)
    assert v["pending"] == {
        "defender": "blue",
        "point": "C1",
        "attacker": "red",
        "operation": "assault",
        "options": ["R14", "R16"],
    }
    assert v["turn"]["kind"] == "decision" and v["turn"]["acting"] == ["blue"]
    svg = RS.render_svg(v)
    assert "must decide" in svg and "retreat to R14, R16" in svg


def test_svg_is_standalone_and_well_formed():
    st, _ = new_game(seed=2)
    st, _ = play(st, "red", "form " + next(c for c, s in st["tokens"].items() if s == "red"))
    svg = RS.render_svg(RS.view(st, RED))
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert "DejaVu Sans, sans-serif" in svg
    assert "href" not in svg and "http://" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")
    for cid in ("C1", "C20", "R1_2", "R19_20"):
        assert f">{cid}<" in svg
    assert "Civil War: The Divided Country" in svg and "blue to move" in svg
    assert "red unit" in svg  # legend
    assert svg.count('fill="#c62828"') >= 1
    # every straight line of the map is drawn through its points, named, and in the legend
    lines = RS.view(st, RED)["board"]["lines"]
    drawn = root.findall(".//{http://www.w3.org/2000/svg}polyline[@stroke-dasharray='6 4']")
    assert len(drawn) == len(lines) > 0
    assert all(f"line {ln['id']}" in svg for ln in lines) and "a breakthrough runs along it" in svg


def test_render_before_setup_and_after_game_over():
    v = RS.view(RS.initial_state(), OBSERVER)
    assert v["board"] is None
    ET.fromstring(RS.render_svg(v))
    st = state(units={"C2": "red", "R23": "red"}, tokens={"C2": "blue", "C3": "blue", "C1": "red"})
    st, _ = play(st, "red", "move R23 to C3")
    v = RS.view(st, OBSERVER)
    assert v["result"]["winner"] == "red"
    assert "Game over: red wins" in RS.render_svg(v)


def test_the_standing_instructions_offered_are_each_legal_and_only_the_viewers_own():
    st = position_with_secrets()  # blue to move: its units R14 (and the general rules)
    offered = RS.view(st, BLUE)["legal_standing"]
    lines = [s["line"] for s in offered]
    assert "if attacked at R14 fight" in lines and "if attacked at R14 ask" in lines
    assert {f"if attacked at R14 retreat to {q}" for q in st["board"]["adj"]["R14"]} <= set(lines)
    assert lines[-3:] == ["if attacked retreat", "if attacked fight", "if attacked ask"]
    assert not [
        line for line in lines if " C5 " in line or "R12" in line.split()[-1:]
    ]  # red's units: not blue's to instruct
    for line in lines:
        assert errors(st, "blue", f"pass\n{line}") == [], line
    assert offered[0]["meaning"] == "at R14: fight to the end"
    assert "legal_standing" not in RS.view(st, RED)  # not red's turn to order

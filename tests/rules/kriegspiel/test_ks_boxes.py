"""Boxes (LW-63..65): who may box, when, triple speed, and what the enemy learns of a box."""

from rules.kriegspiel import boxes
from rules.kriegspiel.numbers import BOX_REVEAL, REBOX_DISTANCE


def test_box_only_twenty_feet_from_the_enemy_and_never_scouts(game):
    st = game.state
    ids = st["groups"]["red"]["foot1"]
    assert boxes.box_error(st, "red", "foot1", ids) is None  # the armies start 23 ft apart
    game.place({"blue:i1": (16, 3 + REBOX_DISTANCE - 1)})  # 20 ft away but out of sight: red does not know
    assert boxes.box_error(game.state, "red", "foot1", ids) is None
    game.place({"blue:i1": (16, 100)})
    game.turn()  # now red's men see him
    assert "LW-65" in boxes.box_error(game.state, "red", "foot1", ids)
    game.place({"blue:i1": (16, 285)})
    game.turn()  # gone again: last seen 8 ft away still counts
    assert "as your men have seen him" in boxes.box_error(game.state, "red", "foot1", ids)
    assert "scouts" in boxes.box_error(st, "red", "horse", st["groups"]["red"]["horse"], scouts=("horse",))
    assert boxes.speed_factor(True) == 3.0 and boxes.speed_factor(False) == 1.0


def test_the_enemy_sees_a_token_and_the_number_only_within_ten_feet(game):
    st = game.state
    boxed = {"foot1": st["groups"]["red"]["foot1"], "foot2": st["groups"]["red"]["foot2"]}
    seen = set(boxed["foot2"])
    toks, known = boxes.tokens(st, boxed, "blue", seen, {})
    assert toks == [{"id": "box1", "side": "red", "x": 32.0, "y": 3.0, "count": None}]  # foot1 unseen: no token
    assert known == {"foot2": "box1"}
    game.place({"blue:i1": (32, 3 + BOX_REVEAL - 1)})
    toks, known = boxes.tokens(game.state, boxed, "blue", seen | set(boxed["foot1"]), known)
    assert [t["id"] for t in toks] == ["box1", "box2"] and known["foot2"] == "box1"  # stable numbering
    assert {t["id"]: t["count"] for t in toks} == {"box1": 10, "box2": 10}  # within 10 ft now
    assert all("foot" not in str(t) for t in toks)  # never a name


def test_boxing_through_orders_hides_the_group_from_the_enemy(game):
    game.turn(red="box foot1")
    assert game.state["ks"]["boxed"]["red"] == ["foot1"]
    assert not game.rejected["red"]
    game.place({"blue:c1": (16, 100)})  # a blue scout 8 ft from the box
    game.turn(red="move foot1 to 16,15")
    blue = game.view("blue")
    assert not {f["id"] for f in blue["figures"]} & set(game.state["groups"]["red"]["foot1"])
    assert {f["id"] for f in blue["figures"] if f["side"] == "red"} >= set(game.state["groups"]["red"]["foot2"])
    assert [(b["id"], b["count"]) for b in blue["kriegspiel"]["seen"]["boxes"]] == [("box1", 10)]  # within 10 ft
    game.place({"blue:c1": (16, 140)})  # 10.4 ft away: the number is unknown again
    game.turn()
    assert [(b["id"], b["count"]) for b in game.view("blue")["kriegspiel"]["seen"]["boxes"]] == [("box1", None)]
    game.turn(red="unbox foot1")
    assert game.state["ks"]["boxed"]["red"] == []
    assert {f["id"] for f in game.view("blue")["figures"]} >= set(game.state["groups"]["red"]["foot1"])


def test_a_box_cannot_fire_or_work(game):
    game.turn(red="box foot1")
    game.turn(red="mine foot1 at 16,3")
    assert "in a box" in game.rejected["red"][0].message

"""The umpire's desk: orders only the umpire gives, validated, producing events with the right audience."""

from rules.kriegspiel.desk import desk_events


def apply(game, text):
    events, errors = desk_events(game.state, text)
    assert not errors, errors
    game._apply(events)
    return events


def test_notes_reach_only_their_audience(game):
    evs = apply(game, "note red: your scouts hear digging to the north\nnote all: rain falls")
    assert [e.audience for e in evs] == ["side:red", "public"]
    red = game.view("red")["kriegspiel"]["notes"]
    blue = game.view("blue")["kriegspiel"]["notes"]
    assert [n["text"] for n in red] == ["your scouts hear digging to the north", "rain falls"]
    assert [n["text"] for n in blue] == ["rain falls"]


def test_a_ruling_kills_and_revives_with_a_reason(game):
    evs = apply(game, "kill red:i1 red:i2 because they stood in the open under the guns")
    assert evs[0].payload["killed"] == ["red:i1", "red:i2"] and evs[0].audience == "public"
    assert game.state["figures"]["red:i1"]["st"] == "dead"
    assert "red:i1" not in game.state["groups"]["red"]["foot1"]
    apply(game, "revive red:i2 because the shell fell short")
    assert game.state["figures"]["red:i2"]["st"] == "ok"


def test_reveal_abandon_ledger_and_sighting(game):
    game.turn(red="split foot1 2 as sappers nearest 16,3\nmine sappers at 16.5,3")
    wid = next(iter(game.state["ks"]["works"]))
    assert wid == "red:w1"  # red's own count
    assert game.view("blue")["kriegspiel"]["works"] == []
    evs = apply(game, f"reveal {wid} because a blue patrol saw the digging")
    assert evs[0].audience == "public" and "id" not in evs[0].payload and evs[0].payload["public"] == 1
    # blue knows it by red's count of works gone public, red and the umpire by its id
    assert [w["id"] for w in game.view("blue")["kriegspiel"]["works"]] == ["red:p1"]
    assert [(w["id"], w["public"]) for w in game.view("red")["kriegspiel"]["works"]] == [(wid, "red:p1")]
    evs = apply(game, "abandon red:p1 because the sappers ran off")  # the public name serves too
    assert evs[0].audience == "public" and evs[0].payload == {
        "public": 1,
        "side": "red",
        "reason": "the sappers ran off",
    }
    assert game.state["ks"]["works"][wid]["status"] == "abandoned"
    before = game.state["ks"]["supply"]["blue"]["depots"]["wagons"]["food"]
    evs = apply(game, "ledger blue wagons food -6 because a cart overturned")
    assert evs[0].audience == "side:blue"
    assert game.state["ks"]["supply"]["blue"]["depots"]["wagons"]["food"] == before - 6
    evs = apply(game, "show blue:c1 to red because the dust of the horse was plain to see")
    assert "blue:c1" in {f["id"] for f in game.view("red")["figures"]}


def test_every_bad_line_is_named_and_nothing_is_half_applied(game):
    events, errors = desk_events(
        game.state,
        "note red: fine\nreveal w9 because x\nledger red wagons food +0 because x\n"
        "kill blue:i99 because x\nshow red:i1 to red because x\nabandon w1\nsing",
    )
    assert events == []
    msgs = [(e.line, e.message) for e in errors]
    assert msgs[0] == (2, "no work 'w9' (works: none)")
    assert "changes nothing" in msgs[1][1] and "no figure blue:i99" in msgs[2][1]
    assert "own figure" in msgs[3][1] and "because <reason>" in msgs[4][1] and "unknown umpire order" in msgs[5][1]


def test_a_general_killed_leaves_for_good_and_his_side_holds_a_turn(game):
    apply(game, "kill red:c1 because a rifle ball found the general")
    game.turn()
    lost = [e for e in game.events if e.type == "kriegspiel.general_lost"]
    assert len(lost) == 1 and lost[0].payload["deputy"] == "red:c2" and lost[0].audience == "public"
    game.turn(red="move foot1 to 16,14")  # turn 2: command passes, the side holds
    assert any("KS-13/14" in e.message for e in game.rejected["red"])
    game.turn(red="move foot1 to 16,14")  # turn 3: the deputy commands
    assert not game.rejected["red"]
    assert len([e for e in game.events if e.type == "kriegspiel.general_lost"]) == 1


def test_a_shell_near_the_general_sends_him_away_three_turns(game):
    from rules.kriegspiel.state import fold

    st = fold(
        game.state,
        "kriegspiel.blast",
        {"turn": 2, "guns_destroyed": [], "guns_out": [], "wagons": {}, "generals_out": ["blue"]},
    )
    assert st["ks"]["generals"]["blue"]["out_until"] == 6  # away in turns 3, 4 and 5

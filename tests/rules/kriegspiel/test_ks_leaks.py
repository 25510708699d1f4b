"""The differential leak test at the rules layer, and the hidden works' lifecycle in play.

Two games are played with the same seed and the same orders, except that blue lays a
hidden work in one of them. Everything red can read from the rule set - its view (JSON),
its map (SVG), every event it may see with its wording, and the errors its own orders
get - must be byte-identical between the two games until the reveal; at the reveal it
must differ (so the comparison can fail), and the umpire and blue must see the work
all along. tests/platform/... repeats this through the platform (pages, API, mail).
"""

import json

SAPPERS_AT = {"blue:i1": (60, 100), "blue:i2": (60.75, 100)}
RED_HORSE = {f"red:c{k}": (57.0 + (k - 1) % 6 + 1, 80 - (k - 1) // 6) for k in range(1, 13)}  # two ranks of 6


def mine_game(KsGame, with_mine: bool, red_orders: list[str], seed=7):
    g = KsGame(seed=seed)
    g.deploy()
    g.place({**SAPPERS_AT, **RED_HORSE})
    snapshots = []
    for turn, red in enumerate(red_orders, start=1):
        blue = "hold"
        if turn == 1:
            blue = "split foot1 2 as sappers nearest 60,100\n" + ("mine sappers at 60.4,98.5" if with_mine else "hold")
        g.turn(seed=100 + turn, red=red, blue=blue)
        snapshots.append(
            (
                g.seen_by("red"),
                json.dumps([e.message for e in g.rejected["red"]]),
                g.seen_by("blue"),
                json.dumps(g.view(role="umpire"), sort_keys=True),
            )
        )
    return g, snapshots


# red also names blue's private group and an unseen gun: the errors must not tell whether they exist
RED_PLAN = (
    ["move sappers to 10,10\nfire gun1 at 60,150"]
    + ["move gun1 to 1,1\nbox sappers"]
    + ["hold"] * 4
    + ["move horse to 60.5,104", "hold"]
)


def test_red_cannot_tell_a_mine_was_laid_until_it_explodes(new_game):
    plain, a = mine_game(new_game, False, RED_PLAN)
    mined, b = mine_game(new_game, True, RED_PLAN)
    assert "unknown name 'sappers'" in a[0][1] and "LW-14" in a[0][1] and "unknown group 'sappers'" in a[1][1]
    for turn in range(6):  # turns 1..6: laying, then armed and waiting
        assert a[turn][0] == b[turn][0], f"red could tell in turn {turn + 1}"
        assert a[turn][1] == b[turn][1]
        assert a[turn][2] != b[turn][2] and a[turn][3] != b[turn][3]  # blue and the umpire do know
    # turn 7: the red horse rides over it: the explosion is the reveal, to everyone
    assert a[6][0] != b[6][0]
    boom = [e for e in mined.events if e.type == "kriegspiel.mine_exploded"]
    assert len(boom) == 1 and boom[0].audience == "public" and boom[0].payload["by"].startswith("red:c")
    assert not [e for e in plain.events if e.type == "kriegspiel.mine_exploded"]
    assert all(mined.state["figures"][f]["st"] == "dead" for f in boom[0].payload["killed"])
    # everything within 6 in of the mine died: the horse, and blue's own sappers beside it
    assert {"blue:i1", "blue:i2"} <= set(boom[0].payload["killed"])
    red = mined.view("red")["kriegspiel"]["works"]
    assert [(w["kind"], w["status"]) for w in red] == [("mine", "exploded")]
    assert "workers" not in red[0]


def test_a_mine_is_harmless_until_armed_and_its_own_side_can_set_it_off(new_game):
    g = new_game(seed=3)
    g.deploy()
    g.place({**SAPPERS_AT, "blue:c1": (60.4, 120)})
    g.turn(blue="split foot1 2 as sappers nearest 60,100\nmine sappers at 60.4,98.5")
    g.turn(blue="move c1 to 60.4,110")  # over nothing yet: the mine is not laid
    assert g.state["figures"]["blue:c1"]["st"] == "ok"
    for _ in range(4):
        g.turn()
    assert [w["status"] for w in g.state["ks"]["works"].values()] == ["armed"]
    g.turn(blue="move c1 to 60.4,95")  # blue's own rider passes: a mine knows no friend
    boom = [e for e in g.events if e.type == "kriegspiel.mine_exploded"]
    assert boom and boom[0].payload["by"] == "blue:c1"


def entrench_game(KsGame, with_work: bool):
    g = KsGame(seed=11)
    g.deploy()
    g.place({**{f"blue:i{k}": (40 + k * 0.75, 120) for k in range(1, 11)}, **RED_HORSE})
    out = []
    for turn in range(1, 6):
        blue = "hold"
        if turn == 1:
            blue = "entrench foot1 from 42,119 to 46,119" if with_work else "hold"
        g.turn(seed=turn, blue=blue)
        out.append(g.seen_by("red"))
    return g, out


def test_an_entrenchment_is_revealed_when_finished_and_not_before(new_game):
    plain, a = entrench_game(new_game, False)
    dug, b = entrench_game(new_game, True)
    assert a[:3] == b[:3]  # turns 1-3: red cannot tell
    assert a[3] != b[3]  # end of turn 4: finished and announced (KS-67)
    done = [e for e in dug.events if e.type == "kriegspiel.work_completed"]
    assert (
        len(done) == 1 and done[0].audience == "public" and done[0].payload["turn"] == 5
    )  # the 4th turn of play is game turn 5
    assert [w["status"] for w in dug.view("red")["kriegspiel"]["works"]] == ["complete"]


def test_works_reports_are_private_and_one_per_side_every_turn(new_game):
    g, _ = entrench_game(new_game, True)
    per_turn = {}
    for e in g.events:
        if e.type == "kriegspiel.works":
            per_turn.setdefault(e.payload["turn"], []).append(e.audience)
    assert all(v == ["side:red", "side:blue"] for v in per_turn.values()) and len(per_turn) == 5


def test_abandoned_when_the_workers_leave(new_game):
    g = new_game(seed=2)
    g.deploy()
    g.place(SAPPERS_AT)
    g.turn(blue="split foot1 2 as sappers nearest 60,100\nmine sappers at 60.4,98.5")
    g.turn(blue="move sappers to 60,96")
    w = next(iter(g.state["ks"]["works"].values()))
    assert w["status"] == "abandoned"
    last = [e for e in g.events if e.type == "kriegspiel.works" and e.payload["side"] == "blue"][-1]
    assert "left the work" in last.payload["progress"][0]["reason"]


def test_same_seed_and_orders_give_the_same_events(new_game):
    a, _ = mine_game(new_game, True, RED_PLAN)
    b, _ = mine_game(new_game, True, RED_PLAN)
    assert [(e.type, e.audience, json.dumps(dict(e.payload), sort_keys=True)) for e in a.events] == [
        (e.type, e.audience, json.dumps(dict(e.payload), sort_keys=True)) for e in b.events
    ]


def test_blue_private_doings_leave_the_numbering_of_reds_events_alone(new_game):
    """The platform numbers every event; red sees the numbers of its own. Boxing, driving wagons,
    digging and failed charges of blue's all go into blue's one report a turn, so red's events keep
    the same numbers whatever blue does out of red's sight."""

    def game(busy: bool):
        g = new_game(seed=4)
        g.deploy()
        blue = [
            "box foot2\ndrive wagons to 48,281" if busy else "hold",
            "split foot1 2 as sappers nearest 16,285\nmine sappers at 16.5,283.5" if busy else "hold",
            "charge horse at 24,10" if busy else "hold",
            "unbox foot2" if busy else "hold",
        ]
        for k, orders in enumerate(blue, start=1):
            g.turn(seed=k, red="move horse to 24,30" if k == 1 else "hold", blue=orders)
        from rules.core.protocol import Viewer

        red = Viewer("player", "red")
        return [
            (n, e.type, json.dumps(dict(e.payload), sort_keys=True))
            for n, e in enumerate(g.events)
            if red.may_see(e.audience)
        ], g

    quiet, _ = game(False)
    busy, g = game(True)
    assert g.state["ks"]["works"] and g.state["ks"]["supply"]["blue"]["depots"]["wagons"]["y"] == 281
    assert quiet == busy


# -- no count shared between the sides (issue 10): ids a side sees come from its own namespace --------
BLUE_DIGGERS = {f"blue:i{k}": (56.0 + 4 * ((k - 1) // 2) + 0.75 * ((k - 1) % 2), 100.0) for k in range(1, 7)}
THREE_MINES = "\n".join(
    [f"split foot1 2 as s{n} nearest {56 + 4 * (n - 1)},100" for n in (1, 2, 3)]
    + [f"mine s{n} at {56.4 + 4 * (n - 1)},98.5" for n in (1, 2, 3)]
)


def red_digs_after_blue(KsGame, blue_turn1: str, turns: int = 4, seed=11):
    """Red starts a mine in turn 2; blue gives ``blue_turn1`` in turn 1, then holds. What red can read, by turn."""
    g = KsGame(seed=seed)
    g.deploy()
    g.place(BLUE_DIGGERS)
    red = ["split foot1 2 as sappers nearest 16,3", "mine sappers at 16.5,3"] + ["hold"] * (turns - 2)
    seen = []
    for turn, orders in enumerate(red, start=1):
        g.turn(seed=200 + turn, red=orders, blue=blue_turn1 if turn == 1 else "hold")
        seen.append((g.seen_by("red"), json.dumps(g.view(), sort_keys=True)))  # red's, and an observer's view
    return g, seen


def test_red_work_id_does_not_count_blues_hidden_works(new_game):
    """Blue starts three hidden mines, then red starts one: red's work is red's first (red:w1), and
    everything red and an observer read is what it would be had blue started none."""
    busy, a = red_digs_after_blue(new_game, THREE_MINES)
    idle, b = red_digs_after_blue(new_game, "hold")
    assert [w["side"] for w in busy.state["ks"]["works"].values()].count("blue") == 3  # the runs do differ
    assert not [w for w in idle.state["ks"]["works"].values() if w["side"] == "blue"]
    for turn, (x, y) in enumerate(zip(a, b, strict=True), start=1):
        assert x == y, f"red or an observer could tell in turn {turn}"
    red_work = [w for w in busy.view("red")["kriegspiel"]["works"] if w["side"] == "red"]
    assert [w["id"] for w in red_work] == ["red:w1"]
    assert any("started a mine (w1)" in text for *_, text in a[1][0][2])


def test_a_public_completion_names_no_hidden_work(new_game):
    """Blue lays a hidden mine and digs a gun pit; the pit's completion (public) names it as blue's
    first work gone public, as in the game where blue dug only the pit."""
    pit = "split foot2 6 as pit nearest 71,100\ngunpit pit at 70.9,100.5"

    def play(with_mine):
        g = new_game(seed=5)
        g.deploy()
        g.place({**BLUE_DIGGERS, **{f"blue:i{k}": (69.0 + 0.75 * (k - 11), 100.0) for k in range(11, 17)}})
        seen = []
        for turn in range(1, 5):
            blue = (THREE_MINES.split("\n")[0] + "\n" + THREE_MINES.split("\n")[3] + "\n" if with_mine else "") + pit
            g.turn(seed=300 + turn, red="hold", blue=blue if turn == 1 else "hold")
            seen.append(g.seen_by("red"))
        return g, seen

    mined, a = play(True)
    plain, b = play(False)
    assert a == b
    done = [e for e in mined.events if e.type == "kriegspiel.work_completed"]
    assert len(done) == 1 and done[0].audience == "public"
    assert "id" not in done[0].payload and done[0].payload["public"] == 1
    assert [w["id"] for w in mined.view("red")["kriegspiel"]["works"]] == ["blue:p1"]
    assert sorted(mined.state["ks"]["works"]) == ["blue:w1", "blue:w2"]  # blue's own count


def test_blues_hidden_shots_move_no_red_shell_and_erase_no_red_record(new_game):
    """Blue fires out of red's sight in turns 2 and 3, red fires in turn 2 (no gun fires in turn 1,
    LW-14): red's shells fall where they would have (each side draws from its own stream) and
    red's map of the turn just played is the same (the record of the last turn with shots is
    not red's to see when only blue fired)."""

    def play(blue_fires):
        g = new_game(seed=9)
        g.deploy()
        seen = []
        for turn in (1, 2, 3, 4):
            red = "fire gun1 at 24,40" if turn == 2 else "hold"
            blue = "fire gun1 at 60,250" if blue_fires and turn in (2, 3) else "hold"
            g.turn(seed=400 + turn, red=red, blue=blue)
            seen.append(g.seen_by("red"))
        return g, seen

    fired, a = play(True)
    quiet, b = play(False)
    shots = [e for e in fired.events if e.type == "littlewars.fired"]
    assert [len(e.payload["shots"]) for e in shots] == [2, 1]  # the runs do differ
    for turn, (x, y) in enumerate(zip(a, b, strict=True), start=1):
        assert x == y, f"red could tell in turn {turn}"
    assert fired.view("red")["last"] is None  # turn 3 was blue's alone


def test_a_game_laid_before_per_side_ids_goes_on_as_recorded(new_game):
    """An older log (its table_laid carries no ``ids``): works keep the one shared count (w1, w2...),
    public events name them by id, prisoners by the shared counter; it all folds, views and maps,
    and the umpire's desk finds its works - so older games replay and re-adjudicate as recorded."""
    from rules.kriegspiel.desk import desk_events

    g = new_game(seed=5)
    g.state = {k: v for k, v in g.state.items() if k not in ("ids", "serial")}
    g.deploy()
    g.place({f"blue:i{k}": (69.0 + 0.75 * (k - 11), 100.0) for k in range(11, 17)})
    g.turn(
        seed=1,
        red="split foot1 2 as sappers nearest 16,3\nmine sappers at 16.4,4.5",
        blue="split foot2 6 as pit nearest 71,100\ngunpit pit at 70.9,100.5",
    )
    assert sorted(g.state["ks"]["works"]) == ["w1", "w2"] and g.state["ks"]["counter"] == 2
    for seed in (2, 3, 4):
        g.turn(seed=seed)
    done = [e for e in g.events if e.type == "kriegspiel.work_completed"]
    assert len(done) == 1 and done[0].payload["id"] == "w2" and "public" not in done[0].payload
    assert [w["id"] for w in g.view("red")["kriegspiel"]["works"]] == ["w1", "w2"]
    assert "gunpit w2" in g.rs.render_svg(g.view("red"))
    events, errors = desk_events(g.state, "reveal w1 because the umpire says so")
    assert not errors and events[0].payload["id"] == "w1"

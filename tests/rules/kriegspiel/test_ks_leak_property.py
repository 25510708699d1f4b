"""The differential leak test as a property: whatever red does and whatever hidden work blue
starts wherever, red's view, map, visible events and errors are byte-identical to a game in
which blue's workers only stood there, until the first public reveal."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

REVEALS = ("kriegspiel.mine_exploded", "kriegspiel.work_completed", "kriegspiel.work_revealed")

red_turn = st.sampled_from(
    [
        "hold",
        "move horse to 24,30",
        "move horse to 40,30",
        "move foot1 to 16,14",
        "box foot2",
        "move foot2 to 32,14",
        "split foot1 2 as scouts nearest 10,3\nmove scouts to 10,14",
        "move horse to 60,30",
    ]
)
blue_work = st.sampled_from(
    [
        "mine sappers at {x},{y}",
        "gunpit sappers at {x},{y}",
        "entrench sappers from {x},{y} to {x2},{y}",
    ]
)


def play(new_game, red_orders, work, spot):
    g = new_game(seed=5)
    g.deploy()
    x, y = spot
    g.place({f"blue:i{k}": (x + k * 0.5, y + 1) for k in range(1, 7)})  # six of foot1 out in front
    seen = []
    for turn, red in enumerate(red_orders, start=1):
        blue = "hold"
        if turn == 1:
            blue = f"split foot1 6 as sappers nearest {x + 2},{y + 1}\n" + (
                work.format(x=x + 1.5, y=y, x2=x + 3.5) if work else "hold"
            )
        evs = g.turn(seed=turn, red=red, blue=blue)
        seen.append((g.seen_by("red"), [e.message for e in g.rejected["red"]]))
        if any(e.type in REVEALS for e in evs):
            break
    return g, seen


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    red=st.lists(red_turn, min_size=3, max_size=7),
    work=blue_work,
    spot=st.tuples(st.integers(5, 80), st.integers(150, 270)),
)
def test_red_learns_nothing_of_a_hidden_work_before_its_reveal(new_game, red, work, spot):
    worked, a = play(new_game, red, work, spot)
    idle, b = play(new_game, red, None, spot)
    revealed = any(e.type in REVEALS for e in worked.events)
    upto = len(a) - 1 if revealed else len(a)
    assert a[:upto] == b[:upto]
    assert [w["kind"] for w in worked.state["ks"]["works"].values()] == [
        work.split()[0].replace("entrench", "entrenchment")
    ]

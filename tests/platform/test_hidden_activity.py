"""The generative differential test (issue 10): whatever blue does in secret, red and an observer
get the very same bytes - and the server does the very same work to answer them - as in the
game where blue did nothing of it, until something is revealed in public.

Hypothesis draws blue's secret activity turn by turn: works of every kind a side starts in its
own half (mines, entrenchments, gun pits), splits, moves and rides out of sight, a depot
driven, columns, limbering, dismounting, boxes, shots into its own half; orders sent and
replaced, orders refused, orders and messages to the umpire by mail, an absence and its end.
Red meanwhile follows one script that itself starts a work, splits, and writes by mail. After
every turn everything red and the observer can fetch or have received (tests/support/leaks.py:
API JSON, pages with every past turn, both maps, mail as sent with the PNG map, exports, error
texts, response headers, event-log cursors, the number of events folded to answer) must equal
the quiet game's - and so must a glance at the view and page in the middle of the turn, after
blue's secret doings and before its final orders. Little Wars and Civil War keep less secret (the orders, once adjudicated,
are public), so there blue's final orders are the same in both games and what differs is all
that comes before them: drafts, refusals, mail, absences.

Bounded for CI: a few examples of three or four turns, derandomized.
"""

from datetime import UTC, datetime
from itertools import count

import pytest
import time_machine
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from campaigns.models import Campaign, Event, OutboxMail, Seat
from campaigns.turns import commands, creation, gamelog
from rules import catalog
from rules.core import dice
from tests.support.leaks import far_apart_scenario as far_apart
from tests.support.leaks import glance, mail_from, sees

pytestmark = pytest.mark.django_db(transaction=True)

FROZEN = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
# no shrinking: each example plays whole games, and the failing one is printed as drawn
BOUNDED = settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Blue's half: red stays below y = 30 and sees 12 ft (144 in); blue keeps above y = 178.
# {t} is the turn (fresh group names), {x},{y} a point in blue's half.
BLUE_LINES = (
    "split foot1 2 as s{t} nearest 13,197\nmine s{t} at 13.4,195.5",
    "split foot2 6 as p{t} nearest 31,197\ngunpit p{t} at 31.25,196.5",
    "split foot1 4 as e{t} nearest 18,197\nentrench e{t} from 17,195.6 to 19,195.6",
    "drive wagons to {x},{y}",
    "column foot2",
    "limber gun1",
    "dismount horse",
    "box foot1",
    "move foot2 to {x},{y}",
    "split horse 2 as h{t} nearest 24,194\nmove h{t} to {x},{y}",
    "fire gun1 at {x},{y}",
)
NOISE = ("draft", "refused", "mail", "absent", "back")
# what shows blue to red: a public reveal ends the comparison
REVEALS = (
    "kriegspiel.work_completed",
    "kriegspiel.mine_exploded",
    "kriegspiel.work_revealed",
    "kriegspiel.charge",
    "littlewars.melee",
    "littlewars.gun_captured",
)

point = st.tuples(st.integers(5, 90), st.integers(178, 199))
ks_turn = st.fixed_dictionaries(
    {
        "lines": st.lists(st.tuples(st.sampled_from(BLUE_LINES), point), min_size=1, max_size=3),
        "noise": st.lists(st.sampled_from(NOISE), min_size=1, max_size=4),
    }
)
noise_turn = st.fixed_dictionaries(
    {"lines": st.just([]), "noise": st.lists(st.sampled_from(NOISE), min_size=1, max_size=4)}
)

# red's script: a work, a split and mail of its own (the same in both games)
RED_KS = [
    "split foot2 3 as scouts nearest 32,3\nmove scouts to 32,12",
    "split foot1 2 as sappers nearest 16,3\nmine sappers at 16.4,4.5",
    "move horse to 24,24",
]


def new_game(people, ruleset: str, scenario=None):
    return creation.create_game(
        campaign=Campaign.objects.create(name="Hidden"),
        name="Hidden activity",
        ruleset=ruleset,
        scenario=scenario,
        seats=[
            {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
            {"role": "player", "side": "red", "user": people["bob"], "email": "bob@example.org"},
            {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"},
            {"role": "observer", "user": people["dave"], "email": "dave@example.org"},
        ],
        operator=True,
    )


def blue_in_secret(game, turn: int, plan: dict, final: str) -> None:
    """Blue's drawn noise before its final orders: each leaves no public trace."""
    blue = Seat.objects.get(game=game, side="blue")
    for n, act in enumerate(plan["noise"]):
        if act == "draft":
            assert commands.submit_orders(game.pk, "blue", f"# draft {n}\n{final}", source="api", ready=False).accepted
        elif act == "refused":
            assert not commands.submit_orders(game.pk, "blue", "fly away", source="web", ready=False).accepted
        elif act == "mail":
            body = f"ORDERS\n{final}\nEND\nWAIT\nMESSAGE umpire\nturn {turn}: a word in secret\nEND"
            assert "ORDERS ACCEPTED" in mail_from(blue, body, f"blue-{turn}-{n}")
        elif act == "absent":
            mail_from(blue, "ABSENT UNTIL 2026-12-24", f"blue-{turn}-{n}")
        else:
            mail_from(blue, "BACK", f"blue-{turn}-{n}")


def ks_final(turn: int, plan: dict) -> str:
    return "\n".join(line.format(t=turn, x=x, y=y) for line, (x, y) in plan["lines"]) or "hold"


def play(people, ruleset: str, blue_plans: list, red_script: list, scenario=None):
    """One game: red's script, blue's plans (None: blue only sends its final orders). What red and
    the observer have after every turn, and whether blue showed itself in public by then."""
    seeds = (f"{k:064x}" for k in count(1))
    rs = catalog.get(ruleset)
    with time_machine.travel(FROZEN, tick=False), pytest.MonkeyPatch.context() as mp:
        mp.setattr(dice, "new_seed", lambda: next(seeds))
        game = new_game(people, ruleset, scenario)
        red_seat = Seat.objects.get(game=game, side="red")
        out = []
        for turn, red in enumerate(red_script, start=1):
            state = gamelog.load(game.pk).state
            if state.status != "active":
                break
            sides = state.turn.sides
            plan = blue_plans[turn - 1] if blue_plans else None
            if "red" in sides:
                text = red or rs.default_orders(state.rules, "red", state.turn.kind)
                assert commands.submit_orders(game.pk, "red", text, source="api").accepted
                if turn % 2 == 0:
                    assert "STATUS of" in mail_from(red_seat, "STATUS", f"red-{turn}")
                if turn == 3:
                    mail_from(red_seat, "MESSAGE umpire\nmay we dig?\nEND", "red-msg")
            mid = {}
            if "blue" in sides:
                default = rs.default_orders(state.rules, "blue", state.turn.kind)
                final = ks_final(turn, plan) if plan and ruleset == "kriegspiel" else default
                if plan:
                    blue_in_secret(game, turn, plan, default if ruleset == "kriegspiel" else final)
                mid = {
                    **glance(game, people["bob"]),
                    **{f"observer {k}": v for k, v in glance(game, people["dave"]).items()},
                }
                if not commands.submit_orders(game.pk, "blue", final, source="api").accepted:  # refused: a secret too
                    assert commands.submit_orders(game.pk, "blue", default, source="api").accepted
            revealed = Event.objects.filter(game=game, type__in=REVEALS).exists() or _red_saw_blue(game)
            out.append(
                (
                    revealed,
                    {
                        **mid,
                        **sees(game, people["bob"]),
                        **{f"observer {k}": v for k, v in sees(game, people["dave"], "observer").items()},
                    },
                )
            )
        return game, out


def _red_saw_blue(game) -> bool:
    """Red's scouts reported something of blue (Kriegspiel): a reveal by sighting."""
    return any(
        e.payload.get("figures") or e.payload.get("guns") or e.payload.get("boxes") or e.payload.get("objects")
        for e in Event.objects.filter(game=game, type="kriegspiel.sighted", audience="side:red")
    )


def _where(a: str, b: str) -> str:
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"with blue's secrets ...{a[at - 150 : at + 150]}... without ...{b[at - 150 : at + 150]}..."


def assert_same_until_reveal(busy, quiet) -> int:
    """Compared turn by turn until blue shows itself; returns how many turns were compared."""
    compared = 0
    for turn, ((revealed, a), (_, b)) in enumerate(zip(busy, quiet, strict=True), start=1):
        if revealed:
            break
        for key in b:
            assert a[key] == b[key], (
                f"red or the observer could tell from {key} after turn {turn}: {_where(a[key], b[key])}"
            )
        compared += 1
    return compared


_quiet, quiet_game = {}, {}


def secrets(game) -> int:
    """Events red and the observer may not see (blue's, the umpire's) plus mail not theirs."""
    return (
        Event.objects.filter(game=game).exclude(audience__in=("public", "side:red")).count()
        + OutboxMail.objects.filter(game=game).exclude(seat__side="red").exclude(seat__role="observer").count()
    )


def quiet_run(people, ruleset, red_script, scenario=None):
    """The game without blue's secrets: the same for every example, so played once per test."""
    if ruleset not in _quiet:
        quiet_game[ruleset], _quiet[ruleset] = play(people, ruleset, None, red_script, scenario)
    return _quiet[ruleset]


@pytest.fixture(autouse=True)
def _fresh_quiet_runs():
    _quiet.clear(), quiet_game.clear()  # each test has its own database
    yield
    _quiet.clear(), quiet_game.clear()


@BOUNDED
@given(plans=st.lists(ks_turn, min_size=3, max_size=3))
def test_kriegspiel_red_learns_nothing_of_blues_secrets(people, plans):
    red = [None] + RED_KS  # platform turn 1 is the deployment: both hold
    plans = [{"lines": [], "noise": []}] + plans
    quiet = quiet_run(people, "kriegspiel", red, far_apart())
    game, busy = play(people, "kriegspiel", plans, red, far_apart())
    assert secrets(game) > secrets(quiet_game["kriegspiel"])  # the two games do differ
    compared = assert_same_until_reveal(busy, quiet)
    assert compared >= 3, "blue showed itself too early for the test to compare anything"
    # red's own work is red's first, whatever blue started
    assert '"red:w1"' in busy[2][1]["/api/games/G/view/"]


@BOUNDED
@given(plans=st.lists(noise_turn, min_size=4, max_size=4))
@pytest.mark.parametrize("ruleset", ["littlewars", "civilwar"])
def test_private_events_of_little_wars_and_civil_war_leave_no_trace(people, ruleset, plans):
    red = [None] * 4
    quiet = quiet_run(people, ruleset, red)
    game, busy = play(people, ruleset, plans, red)
    assert secrets(game) > secrets(quiet_game[ruleset])
    assert assert_same_until_reveal(busy, quiet) == len(busy)


def test_red_work_counts_no_hidden_blue_work(people):
    """Issue 10's case: blue starts three hidden works (a mine, a gun pit, an entrenchment), then red
    starts one. Red's work is red's first, red:w1 - in its view, its log ("started a mine (w1)"),
    both maps, the game and history pages, its mail and its export - all as in the game where blue
    started none."""
    red = [None] + RED_KS
    three = {"lines": [(line, (0, 0)) for line in BLUE_LINES[:3]], "noise": []}
    hold = {"lines": [], "noise": []}
    quiet = quiet_run(people, "kriegspiel", red, far_apart())
    game, busy = play(people, "kriegspiel", [hold, three, hold, hold], red, far_apart())
    works = gamelog.load(game.pk).state.rules["ks"]["works"]
    assert [w["side"] for w in works.values()].count("blue") == 3  # blue's three did start
    assert assert_same_until_reveal(busy, quiet) == len(red)
    assert sorted(works) == ["blue:w1", "blue:w2", "blue:w3", "red:w1"]
    assert "started a mine (w1)" in busy[2][1]["events"] and '"red:w1"' in busy[2][1]["export"]

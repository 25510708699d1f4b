"""Kriegspiel through the platform: the differential leak tests.

The same scripted game is played twice - same seeds, same frozen clock, same orders -
except that blue lays a mine in the second game (or, in the other test, keeps changing its
mind: resubmits its orders several times a turn, sends orders that are refused and writes to
the umpire by mail). Everything red (and an observer) can fetch or receive through the
platform after every turn (API JSON, web pages, maps, its view of the log and the cursors
that page it, its mail and the answers to its own mail, its export, the errors its orders and
requests get) must be byte-identical between the two games until the mine explodes, and must
differ at the explosion (so the comparison can fail). The only things normalised are what
differs between two games in one database by construction and carries nothing about play:
the game's id and uid, seat ids, the seats' secret reply tokens, the Message-IDs derived
from them and the signature of the event-log cursors (which names the game; each cursor is
checked and replaced by the place it resumes from); tests/support/leaks.py says why each.
"""

import json
from datetime import UTC, datetime
from itertools import count

import pytest
import time_machine

from campaigns.models import Campaign, Event, OutboxMail, Seat
from campaigns.turns import commands, creation, gamelog
from campaigns.turns.archive import export_lines
from campaigns.turns.gamelog import verify_game
from rules.core import dice
from rules.core.protocol import Viewer
from tests.support.api import client_for
from tests.support.leaks import far_apart_scenario as scenario
from tests.support.leaks import mail_from, sees

pytestmark = pytest.mark.django_db(transaction=True)

FROZEN = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
MINE = "mine sappers at 36,195.5"


# red's horse rides north along x = 36 and finally over the place of the mine (turn 9)
RED = [
    "move horse to 36,24",
    "move horse to 36,48\nfly away",
    "move horse to 36,72",
    "move horse to 36,96",
    "move horse to 36,120",
    "move horse to 36,144",
    "move horse to 36,168",
    "move horse to 36,192",
    "move horse to 36,196",
]


def blue_orders(turn: int, with_mine: bool) -> str:
    if turn == 1:
        return "split foot2 2 as sappers nearest 36,197\n" + (MINE if with_mine else "hold")
    return "hold"


def red_sees(game, user, seat_role="player", side="red") -> dict:
    return sees(game, user, seat_role, side)


def blue_changes_its_mind(game, turn: int, by_mail: bool) -> None:
    """Everything blue may do that leaves no trace for red: orders sent and replaced (private
    events), orders refused, orders and a message to the umpire by mail - all before its final orders."""
    for draft in (blue_orders(turn, with_mine=True), "hold", blue_orders(turn, with_mine=False)):
        assert commands.submit_orders(game.pk, "blue", draft, source="api", ready=False).accepted
    assert not commands.submit_orders(game.pk, "blue", "fly away", source="web", ready=False).accepted
    if by_mail:
        blue = Seat.objects.get(game=game, side="blue")
        body = f"ORDERS\nhold\nEND\nWAIT\nMESSAGE umpire\nturn {turn}: may I dig?\nEND"
        ack = mail_from(blue, body, f"blue-{turn}")
        assert f"turn {turn}" in OutboxMail.objects.filter(game=game, kind="mail-forward").latest("pk").body
        assert "ORDERS ACCEPTED" in ack and "MESSAGE to umpire: sent" in ack


def play(people, with_mine: bool, busy_blue: bool = False):
    seeds = (f"{k:064x}" for k in count(1))
    with time_machine.travel(FROZEN, tick=False), pytest.MonkeyPatch.context() as mp:
        mp.setattr(dice, "new_seed", lambda: next(seeds))
        game = creation.create_game(
            campaign=Campaign.objects.create(name="Kriegspiel"),
            name="KS leak",
            ruleset="kriegspiel",
            scenario=scenario(),
            seats=[
                {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
                {"role": "player", "side": "red", "user": people["bob"], "email": "bob@example.org"},
                {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"},
                {"role": "observer", "user": people["dave"], "email": "dave@example.org"},
            ],
            operator=True,
        )
        for side in ("red", "blue"):  # deployment: everyone where the scenario put them
            assert commands.submit_orders(game.pk, side, "hold", source="api").accepted
        snaps, errors = [], []
        red_seat = Seat.objects.get(game=game, side="red")
        for turn, red in enumerate(RED, start=1):
            if busy_blue and turn % 2:
                blue_changes_its_mind(game, turn, by_mail=True)
            bad = commands.submit_orders(game.pk, "red", red, source="api")
            errors.append([(e.line, e.message) for e in bad.errors])
            if not bad.accepted:  # a rejected submission tells red why; red sends what parses
                ok = "\n".join(line for line in red.splitlines() if line != "fly away")
                assert commands.submit_orders(game.pk, "red", ok, source="api").accepted
            if busy_blue:
                blue_changes_its_mind(game, turn, by_mail=False)
            if turn in (2, 5):  # red asks by mail how things stand (its answer is compared with its mail)
                assert "STATUS of KS leak" in mail_from(red_seat, "STATUS", f"red-{turn}")
            assert commands.submit_orders(game.pk, "blue", blue_orders(turn, with_mine), source="api").accepted
            snaps.append(
                {
                    **red_sees(game, people["bob"]),
                    **{f"observer {k}": v for k, v in red_sees(game, people["dave"], "observer").items()},
                }
            )
        return game, snaps, errors


def test_red_cannot_tell_blue_laid_a_mine_until_it_explodes(people):
    plain, a, err_a = play(people, with_mine=False)
    mined, b, err_b = play(people, with_mine=True)
    assert err_a == err_b and err_a[1] and "fly away" not in json.dumps(err_a[0])
    state = gamelog.load(mined.pk).state.rules
    assert [w["status"] for w in state["ks"]["works"].values()] == ["exploded"]
    boom = Event.objects.get(game=mined, type="kriegspiel.mine_exploded")
    assert boom.audience == "public"
    for turn in range(len(RED) - 1):
        for key in a[turn]:
            assert a[turn][key] == b[turn][key], f"red could tell from {key} after turn {turn + 1}"
    # red saw the sappers at work from turn 3 on: the test compares something
    assert '"blue:i' in a[4]["/api/games/G/view/"]
    # the explosion is the reveal: now red's pages differ
    last = len(RED) - 1
    assert boom.turn == len(RED) + 1  # platform turn 1 was the deployment
    assert a[last]["/api/games/G/view/"] != b[last]["/api/games/G/view/"]
    assert "exploded" in b[last]["events"] and "exploded" not in a[last]["events"]
    assert verify_game(mined).ok and verify_game(plain).ok  # both replay, mine and all, from their seeds


def test_red_cannot_tell_how_often_blue_changed_its_mind(people):
    """Blue's private events (every resubmission of its orders) and its mail to the umpire fall
    between the events red sees; red's numbering of its events, its cursors, pages, mail and
    export must not show the gaps."""
    quiet, a, err_a = play(people, with_mine=False)
    busy, b, err_b = play(people, with_mine=False, busy_blue=True)
    assert err_a == err_b
    blue_orders_sent = {
        g: Event.objects.filter(game=g, type="orders.submitted", audience="side:blue").count() for g in (quiet, busy)
    }
    assert (
        blue_orders_sent[busy] == blue_orders_sent[quiet] + 3 * len(RED) + 4 * (len(RED) + 1) // 2
    )  # the runs do differ, hidden from red
    assert OutboxMail.objects.filter(game=busy, kind="mail-forward", body__contains="may I dig?").exists()
    assert "CURSOR-player-after-" in a[-1]["event pages"]  # cursors were there to compare
    for turn in range(len(RED)):
        for key in a[turn]:
            assert a[turn][key] == b[turn][key], f"red could tell from {key} after turn {turn + 1}"
    # the umpire sees the whole log with its true seqs, gaps for nobody
    umpire = client_for(people["alice"])
    seqs, url = [], f"/api/games/{busy.pk}/events/?limit=200"
    while url:
        page = umpire.get(url).json()
        seqs += [e["seq"] for e in page["results"]]
        url = page["next"]
    assert seqs == list(Event.objects.filter(game=busy).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert verify_game(busy).ok and verify_game(quiet).ok


def test_a_side_export_carries_no_hashes_they_would_let_a_side_check_guesses(people):
    """Why a side's export has no hash chain: red knows the hash before a hidden blue event and
    could read the hash after it; hashing a guess of blue's private works report ("nothing in
    hand") and comparing would tell red whether blue is digging. Shown here with the stored
    hashes; then the export is checked to hold none."""
    plain, _, _ = play(people, with_mine=False)
    mined, _, _ = play(people, with_mine=True)

    def guess_confirmed(game) -> bool:
        hidden = Event.objects.get(game=game, turn=3, type="kriegspiel.works", audience="side:blue")
        before = Event.objects.get(game=game, seq=hidden.seq - 1)  # red's own works report: visible to red
        after = Event.objects.get(game=game, seq=hidden.seq + 1)  # red's supply ledger: visible to red
        assert before.audience == "side:red" and after.audience == "side:red"
        # red's own report of that turn says "nothing in hand": blue's would read the same if blue were idle
        guess = {**before.payload, "side": "blue"}
        return (
            gamelog.event_hash(
                before.hash, game.uid, hidden.seq, hidden.turn, "kriegspiel.works", 1, guess, "side:blue", FROZEN
            )
            == after.prev_hash
        )

    assert guess_confirmed(plain) and not guess_confirmed(mined)  # the chain would tell
    for game in (plain, mined):
        lines = [json.loads(line) for line in export_lines(game, Viewer("player", "red"))]
        assert all("hash" not in e and "prev_hash" not in e for e in lines[1:])
        assert all(e["audience"] in ("public", "side:red") for e in lines[1:])

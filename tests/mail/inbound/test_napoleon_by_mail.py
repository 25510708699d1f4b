"""A Napoleon's War game played to its scored end by mail only (issue 13): each player answers
the reply address of its seat with orders between a greeting and a sign-off, read through the
real inbound path (ingest: screening, the mail reader, the commands, the turn), a standing
instruction given by mail, and every seat's mailed report holding only what that seat may see."""

import pytest

from campaigns.mailin import ingest
from campaigns.mailin.models import InboundMessage
from campaigns.models import Event, OutboxMail
from campaigns.turns import gamelog
from campaigns.turns.gamelog import verify_game
from rules.napoleon.testing import bot_orders
from tests.support.games import new_game_with_people
from tests.support.mail import last_reply, mail, seat_mail

pytestmark = pytest.mark.django_db
EMAIL = {"red": "bob@example.org", "blue": "carol@example.org", "umpire": "alice@example.org"}


def mail_orders(seat, text: str, capture) -> str:
    """The player's letter: prose around the orders, sent as a mail client answers the latest
    report (to its Reply-To, in its thread, the report quoted below: its order help and orders as
    executed are not read again); the first to the seat's reply address. The acknowledgement's text."""
    body = f"Dear umpire,\n\n{text}\n\nYours,\n{seat.side}"
    report = OutboxMail.objects.filter(seat=seat, kind__in=("start", "report")).order_by("pk").last()
    if report is None:
        raw = seat_mail(seat, body)
    else:
        quoted = "\n".join("> " + line for line in report.body.splitlines())
        raw = mail(
            to=report.reply_to,
            frm=f"Player <{seat.email}>",
            subject=f"Re: {report.subject}",
            body=f"{body}\n\nOn a day, Kriegsbrief wrote:\n{quoted}\n",
            headers={"In-Reply-To": f"<{report.message_id.strip('<>')}>"},
        )
    with capture(execute=True):  # the turn's adjudication, queued on commit, runs here
        row = ingest.ingest(raw, via="test")
    assert row.status == InboundMessage.Status.APPLIED, row.error
    return last_reply(seat.email).body


def reports(email: str) -> list[str]:
    return list(
        OutboxMail.objects.filter(to=email, kind__in=("report", "gameover"))
        .order_by("pk")
        .values_list("body", flat=True)
    )


@pytest.mark.parametrize("scenario", ["mill_ford"])
def test_a_whole_napoleon_game_by_mail(people, scenario, django_capture_on_commit_callbacks):
    game = new_game_with_people(people, "napoleon", scenario, "By mail")
    seats = {s.side: s for s in game.seats.filter(role="player")}
    # A standing instruction is an order line: given in one's own turn, refused out of it, clearly.
    ingest.ingest(seat_mail(seats["blue"], "standing countercharge no"), via="test")
    assert "orders not accepted: blue has no orders to give in turn 1" in last_reply("carol@example.org").body
    assert gamelog.load(game.pk).state.rules["standing"]["blue"]["countercharge"] == "yes"
    sent = 0
    for _ in range(60):
        state = gamelog.load(game.pk).state
        if state.status == "finished":
            break
        side = state.turn.sides[0]
        text = bot_orders(state.rules, side)
        if sent == 0:  # red's standing instruction for blue's turns, by mail
            text = f"standing square no\n{text}"
        ack = mail_orders(seats[side], text, django_capture_on_commit_callbacks)
        assert "ORDERS ACCEPTED" in ack, ack
        sent += 1
    state = gamelog.load(game.pk).state
    assert state.status == "finished", "the game did not end by mail within 60 player turns"
    result = state.rules["result"]
    assert set(result["score"]) == {"red", "blue"} and result["reason"]
    assert state.rules["standing"]["red"]["square"] == "no"  # the instruction by mail holds
    submitted = Event.objects.filter(game=game, type="orders.submitted")
    assert submitted.count() == sent and {e.payload["source"] for e in submitted} == {"mail"}
    assert all("Dear umpire" not in e.payload["text"] and "Yours" not in e.payload["text"] for e in submitted)
    assert not [e for e in submitted if "charge C1 B2" in e.payload["text"] or ">" in e.payload["text"]]  # quotes
    assert InboundMessage.objects.filter(status=InboundMessage.Status.APPLIED).count() == sent + 1  # + the refused
    assert verify_game(game).ok

    # Every seat was mailed each turn's report and the end; each holds only its own view.
    mailed = {who: reports(addr) for who, addr in EMAIL.items()}
    for who, bodies in mailed.items():
        assert len(bodies) == sent + 1 and "game over" in bodies[-1], who
    red, blue, umpire = ("\n".join(mailed[k]) for k in ("red", "blue", "umpire"))
    assert "red standing instruction: square no" in red and "red standing instruction" in umpire
    assert "standing instruction" not in blue  # the other side's standing orders are its own business
    assert "[red]" in red and "[blue]" not in red  # orders as executed: one's own only
    assert "[blue]" in blue and "[red]" not in blue
    assert "[red]" in umpire and "[blue]" in umpire

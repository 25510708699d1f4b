"""Every mail to a player or observer, scanned for what only another side or the umpire may
see: the other side's orders and standing instructions, another seat's reply token, the
sealed seed of the open turn. Positive controls show each secret really was in play."""

from datetime import timedelta

import pytest
from django.utils.dateparse import parse_datetime
from django.utils.html import escape

from campaigns.i18n import render
from campaigns.mailin.models import SeatAddress
from campaigns.models import OutboxMail, Seat
from campaigns.turns import commands, deadlines
from rules import catalog
from rules.civilwar import legal_operations
from tests.support.games import state_of
from tests.support.mail import all_text

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = {"red": "SECRET-RED-PLAN-7f3a", "blue": "SECRET-BLUE-PLAN-19c2"}
STANDING = {"red": "if attacked fight", "blue": "if attacked retreat"}
ADDRESS = {
    "umpire": "alice@example.org",
    "red": "bob@example.org",
    "blue": "carol@example.org",
    "observer": "dave@example.org",
}


def order_with_secrets(game, side):
    state = state_of(game)
    op = legal_operations(state.rules, side)[0]
    result = commands.submit_orders(game.pk, side, f"# {SECRET[side]}\n{op}\n{STANDING[side]}", source="mail")
    assert result.accepted, result.errors


def play_with_secrets(game):
    for _ in range(2):  # red, then blue
        order_with_secrets(game, state_of(game).turn.sides[0])
    deadline = parse_datetime(state_of(game).turn.deadline)
    deadlines.sweep(deadline - timedelta(hours=1))  # red is reminded of turn 3
    deadlines.sweep(deadline + timedelta(seconds=1))  # ... and misses it


def mail_of(smtp, who) -> str:
    # Without the order language every report carries (the same for everyone: its examples are
    # standing orders like the ones the sides give here).
    help_text = render(catalog.get("civilwar").orders_help)
    text = "\n".join(
        all_text(m).replace("\r\n", "\n").replace(help_text, "").replace(escape(help_text), "")
        for m in smtp.to(ADDRESS[who])
    )
    # The PNG map cannot be read as text: scan the SVG it was drawn from.
    return text + "\n".join(OutboxMail.objects.filter(to=ADDRESS[who]).values_list("svg", flat=True))


def forbidden_for(who, tokens, sealed_seed) -> list[str]:
    if who == "umpire":
        return []
    others = [s for s in ("red", "blue") if s != who]
    return (
        [SECRET[s] for s in others]
        + [STANDING[s] for s in others]
        + [t for seat_who, t in tokens.items() if seat_who != who]
        + [sealed_seed]
    )


def test_no_mail_carries_what_its_reader_may_not_see(game, people, smtp):
    Seat.objects.create(game=game, role=Seat.Role.OBSERVER, user=people["dave"], email=ADDRESS["observer"])
    play_with_secrets(game)
    state = state_of(game)
    assert state.turn.number == 4 and state.turn.seed
    tokens = {
        (s.side or s.role): t
        for s, t in ((a.seat, a.token) for a in SeatAddress.objects.select_related("seat").filter(seat__game=game))
    }
    assert set(tokens) == {"umpire", "red", "blue", "observer"}
    mail = {who: mail_of(smtp, who) for who in ADDRESS}
    for who, text in mail.items():
        assert text, f"{who} received no mail"
        leaked = [s for s in forbidden_for(who, tokens, state.turn.seed) if s in text]
        assert not leaked, f"mail to {who} carries {leaked}"
    # positive controls: each secret is in the mail of those who may see it
    for side in ("red", "blue"):
        assert SECRET[side] in mail[side] and SECRET[side] in mail["umpire"]
        assert tokens[side] in mail[side]
    assert any("due in" in m["Subject"] for m in smtp.to(ADDRESS["red"]))
    assert sum(1 for m in smtp.to(ADDRESS["observer"])) == 3  # three published turns


def test_results_awaiting_approval_are_mailed_to_nobody(approval_game, smtp):
    order_with_secrets(approval_game, "red")
    assert state_of(approval_game).turn.status == "adjudicated"
    assert smtp.messages == []  # nothing until the umpire publishes
    commands.approve(approval_game.pk, 1)
    assert len(smtp.messages) == 3

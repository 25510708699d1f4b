"""Several players a side by mail (LW-61): each seat's mail orders only its own command, the side
waits for each of its seats, and every seat gets its own report naming its command."""

import pytest

from campaigns.mailin import ingest
from campaigns.models import Campaign, OutboxMail
from campaigns.turns import commands, creation, gamelog
from tests.conftest import make_user
from tests.support.mail import last_reply, seat_mail

pytestmark = pytest.mark.django_db

COMMANDS = {"red": {"infantry": ["foot1", "foot2"], "cavalry": ["horse", "gun1"]}}


def send(seat, body):
    row = ingest.ingest(seat_mail(seat, body), via="test")
    assert row.status == "applied", row.error
    return last_reply(seat.email).body


def test_mail_orders_and_reports_per_seat(people, django_capture_on_commit_callbacks):
    frank = make_user("frank")
    game = creation.create_game(
        campaign=Campaign.objects.create(name="Teams"),
        name="Team mail",
        ruleset="littlewars",
        commands=COMMANDS,
        operator=True,
        seats=[
            {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
            {
                "role": "player",
                "side": "red",
                "command": "commander",
                "user": people["bob"],
                "email": "bob@example.org",
            },
            {"role": "player", "side": "red", "command": "cavalry", "user": frank, "email": "frank@example.org"},
            {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"},
        ],
    )
    bob, frank_seat, carol = (game.seats.get(user=u) for u in (people["bob"], frank, people["carol"]))
    refused = send(frank_seat, "deploy foot1 at 20,4")
    assert "foot1 is the infantry command's; the cavalry command orders only its own groups" in refused
    assert "red" not in gamelog.load(game.pk).state.turn.orders
    with django_capture_on_commit_callbacks(execute=True):
        send(frank_seat, "deploy horse at 30,4")
        send(carol, "hold")
        assert gamelog.load(game.pk).state.turn.number == 1  # red waits for its commander
        send(bob, "deploy foot1 at 12,4")
    state = gamelog.load(game.pk).state
    assert state.turn.number == 2
    used = list(game.events.filter(type="turn.adjudicated"))[0].payload["orders"]["red"]
    assert used == "# commander\ndeploy foot1 at 12,4\n# cavalry\ndeploy horse at 30,4"
    bodies = {seat.pk: OutboxMail.objects.get(seat=seat, kind="report").body for seat in (bob, frank_seat, carol)}
    assert "You are: red, the commander" in bodies[bob.pk]
    assert "You are: red, cavalry command\nYour command orders: horse, gun1" in bodies[frank_seat.pk]
    assert "You are: blue\n" in bodies[carol.pk] and "command" not in bodies[carol.pk].split("What happened")[0]
    # each red seat's report lists its side's commands' orders; blue's shows none of red's
    assert "deploy horse at 30,4" in bodies[bob.pk] and "deploy horse at 30,4" in bodies[frank_seat.pk]
    assert "deploy horse" not in bodies[carol.pk]
    # the complete export keeps each seat's command (an import seats them again the same way)
    import json

    from campaigns.turns.archive import export_lines

    header = json.loads(next(iter(export_lines(game))))
    assert [(s["side"], s.get("command", "")) for s in header["seats"] if s["role"] == "player"] == [
        ("red", "commander"),
        ("red", "cavalry"),
        ("blue", ""),
    ]


def test_a_reminder_goes_to_the_seat_whose_command_sent_nothing(people):
    from datetime import timedelta

    from campaigns.mailout import reminders

    frank = make_user("frank")
    game = creation.create_game(
        campaign=Campaign.objects.create(name="Teams"),
        name="Team reminders",
        ruleset="littlewars",
        commands=COMMANDS,
        operator=True,
        seats=[
            {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
            {
                "role": "player",
                "side": "red",
                "command": "commander",
                "user": people["bob"],
                "email": "bob@example.org",
            },
            {"role": "player", "side": "red", "command": "cavalry", "user": frank, "email": "frank@example.org"},
            {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"},
        ],
    )
    commands.submit_orders(game.pk, "red", "hold", source="api", command="cavalry", ready=False)
    turn = gamelog.load(game.pk).state.turn
    from django.utils.dateparse import parse_datetime

    now = parse_datetime(turn.deadline) - timedelta(hours=1)
    assert reminders.remind(game, turn, now) == 2
    reminded = set(OutboxMail.objects.filter(kind="reminder").values_list("to", flat=True))
    assert reminded == {"bob@example.org", "carol@example.org"}  # frank's command has sent its orders

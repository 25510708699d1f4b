"""Every outgoing message has a Message-ID of its own under a real domain (issue 30, 3), and every
reader's mail of a game stays in one thread rooted at the first mail that reader got: an umpire
who also plays gets two first mails, each with its own id, and a player who takes over a side
mid-game gets a first mail of their own that their later reports refer to."""

import pytest
from django.core import signing

from campaigns.mailout import outbox
from campaigns.models import Campaign, OutboxMail
from campaigns.turns import creation, seats
from tests.support.games import play_one

pytestmark = pytest.mark.django_db(transaction=True)


def umpire_plays_game(people):
    return creation.create_game(
        campaign=Campaign.objects.create(name="c"),
        name="Umpire plays",
        ruleset="civilwar",
        settings={"umpire_plays": True},
        seats=[
            {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
            {"role": "player", "side": "red", "user": people["alice"], "email": "alice@example.org"},
            {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"},
        ],
        operator=True,
    )


def test_an_umpire_who_plays_gets_two_start_mails_with_ids_of_their_own(people, settings, smtp):
    settings.MAIL_MESSAGE_ID_DOMAIN = "mail.example.org"
    game = umpire_plays_game(people)
    starts = list(OutboxMail.objects.filter(game=game, kind="start").order_by("pk"))
    assert len(starts) == 3
    to_alice = [m for m in starts if m.to == "alice@example.org"]
    assert len(to_alice) == 2 and to_alice[0].body != to_alice[1].body
    ids = [m.message_id for m in starts]
    assert len(set(ids)) == 3, ids  # not one <game-uuid@kriegsbrief> for all
    assert all(mid.endswith("@mail.example.org>") for mid in ids)  # the configured domain, not "@kriegsbrief"


def test_every_message_of_a_game_has_its_own_id_and_each_reader_its_own_thread(people, game, smtp):
    for _ in range(2):
        play_one(game)
    rows = list(OutboxMail.objects.filter(game=game))
    assert len({r.message_id for r in rows}) == len(rows)
    for seat in game.seats.all():
        mine = [r for r in rows if r.seat_id == seat.pk]
        [start] = [r for r in mine if r.kind == "start"]
        later = [r for r in mine if r.kind != "start"]
        assert later and all(r.references[0] == start.message_id for r in later), seat
        assert all(r.in_reply_to == start.message_id for r in later if r.kind == "report")
        others = {r.message_id for r in rows if r.kind == "start" and r.seat_id != seat.pk}
        assert not others & {ref for r in later for ref in r.references}


def test_a_player_who_takes_over_a_side_threads_under_their_own_first_mail(people, game, smtp):
    red = game.seats.get(side="red")
    old_root = OutboxMail.objects.get(seat=red, kind="start").message_id
    seats.offer_side(game.pk, "red", people["dave"], by=people["alice"])
    token = signing.dumps({"seat": red.pk, "user": people["dave"].pk, "v": red.version}, salt=seats.OFFER_SALT)
    seats.accept_side(token, people["dave"])
    red.refresh_from_db()
    [new_start] = OutboxMail.objects.filter(seat=red, kind="start").exclude(message_id=old_root)
    assert new_start.to == red.email != "bob@example.org"
    left = OutboxMail.objects.get(to="bob@example.org", key__startswith="seat-left:")
    assert left.references == [old_root]  # the leaving player's notice stays in their thread
    play_one(game)
    report = OutboxMail.objects.filter(seat=red, kind="report").latest("pk")
    assert report.references[0] == new_start.message_id and old_root not in report.references
    assert outbox.thread_root(game, red) == new_start.message_id

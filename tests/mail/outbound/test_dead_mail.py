"""DEAD mail is visible and can be sent again: the operator's outbox_dead and resend_mail, the admin's
status filter, and the umpire's page (their game's only: count, addresses, a button)."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from campaigns.mailout import outbox
from campaigns.models import OutboxMail
from tests.conftest import new_civilwar_game
from tests.support.web import game_url

pytestmark = pytest.mark.django_db(transaction=True)


def dead_row(game, key, to):
    row = outbox.queue_mail(key=key, to=to, subject="Lost", body="x", game=game)
    OutboxMail.objects.filter(pk=row.pk).update(status="dead", attempts=outbox.MAX_ATTEMPTS, last_error="451 later")
    return row


def test_the_operator_lists_and_resends_dead_mail(game, smtp, people):
    other = new_civilwar_game(people)
    mine, theirs = dead_row(game, "d1", "lost@example.org"), dead_row(other, "d2", "gone@example.net")
    smtp.clear()
    out = io.StringIO()
    call_command("outbox_dead", stdout=out)
    assert f"{mine.pk}\tgame {game.pk}" in out.getvalue() and f"{theirs.pk}\tgame {other.pk}" in out.getvalue()
    out = io.StringIO()
    call_command("outbox_dead", "--game", str(game.pk), stdout=out)
    assert "lost@example.org" in out.getvalue() and "gone@example.net" not in out.getvalue()
    call_command("resend_mail", "--game", str(game.pk), stdout=io.StringIO())  # sent at once (eager)
    assert [r for r, _ in smtp.messages] == [["lost@example.org"]]
    mine.refresh_from_db()
    assert mine.status == "sent" and mine.attempts == 1
    assert OutboxMail.objects.get(pk=theirs.pk).status == "dead"
    call_command("resend_mail", str(theirs.pk), stdout=io.StringIO())
    assert OutboxMail.objects.get(pk=theirs.pk).status == "sent"
    with pytest.raises(CommandError, match="no outbox row 999999"):
        call_command("resend_mail", "999999", stdout=io.StringIO())
    with pytest.raises(CommandError, match="one of them"):
        call_command("resend_mail", stdout=io.StringIO())


def test_the_umpire_sees_and_resends_only_their_games_dead_mail(client, game, smtp, people):
    other = new_civilwar_game(people, deadline_hours=24)
    dead_row(game, "u1", "lost@example.org")
    dead_row(other, "u2", "gone@example.net")
    smtp.clear()
    client.force_login(people["alice"])
    page = client.get(game_url(game, "umpire")).content.decode()
    assert "1 message of this game could not be delivered" in page and "lost@example.org" in page
    assert "gone@example.net" not in page
    assert client.post(game_url(game, "umpire"), {"action": "resend"}).status_code == 302
    assert [r for r, _ in smtp.messages] == [["lost@example.org"]]
    assert OutboxMail.objects.get(key="u2").status == "dead"  # the other game's is not theirs to resend
    assert "Every message of this game was delivered" in client.get(game_url(game, "umpire")).content.decode()
    client.force_login(people["bob"])  # a player may not
    assert client.post(game_url(game, "umpire"), {"action": "resend"}).status_code == 404

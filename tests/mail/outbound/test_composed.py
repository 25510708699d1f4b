"""A report's message is flattened ahead of its send on the render queue (campaigns/mailout/composing.py)
and kept on its row: the sender hands those bytes to the SMTP server as they are, so a backlog after
an SMTP outage goes out at SMTP speed. The bytes are the message the sender would have built, they
go only to a backend that sends bytes, and they are dropped once the row is sent or given up."""

import email
import smtplib
from email import policy

import pytest
from django.core import mail
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from campaigns.mailout import composing, outbox
from campaigns.mailout.smtp_backend import stuff_dots
from campaigns.models import OutboxMail
from tests.mail.outbound.test_map_pictures import a_map
from tests.services import needs_redis

# Lines that begin with a dot, which SMTP's DATA must quote (RFC 5321 4.5.2) and the server unquote.
BODY = "Orders carried out.\n.\n..two dots\n. a dot and a space\nend\n"


def report(game, key="composed-1"):
    return outbox.queue_mail(
        key=key,
        to="bob@example.org",
        subject="Turn 1 results",
        body=BODY,
        html="<p>Orders carried out.</p>",
        game=game,
        map_svg=a_map(game),
    )


def kept(row) -> bytes | None:
    value = OutboxMail.objects.values_list("composed", flat=True).get(pk=row.pk)
    return None if value is None else bytes(value)


def leaves(msg):
    """Every leaf part as (content type, disposition, filename, decoded payload)."""
    return [
        (p.get_content_type(), p.get_content_disposition(), p.get_filename(), p.get_payload(decode=True))
        for p in msg.walk()
        if not p.is_multipart()
    ]


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_a_composed_row_goes_out_as_its_bytes_and_they_are_dropped_once_sent(game, smtp, broker):
    row = report(game)
    assert composing.compose(row.pk)
    flattened = kept(row)
    assert flattened.endswith(b"\r\n") and b"\r\n.\r\n" in flattened  # a line that is only a dot
    assert outbox.send(row.pk)
    assert smtp.raw[-1] == flattened  # byte for byte, the dots quoted on the way and unquoted there
    row.refresh_from_db()
    assert row.status == "sent" and kept(row) is None


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_the_composed_message_is_the_one_the_sender_would_build(game, smtp, broker):
    row = report(game)
    assert composing.compose(row.pk)
    composed = email.message_from_bytes(kept(row), policy=policy.default)
    built = email.message_from_bytes(
        composing.build_message(row).message().as_bytes(linesep="\r\n"), policy=policy.default
    )
    assert leaves(composed) == leaves(built)
    assert {k: v for k, v in composed.items() if k not in ("Date", "Content-Type")} == {
        k: v for k, v in built.items() if k not in ("Date", "Content-Type")
    }
    assert (
        composed.get_content_type() == built.get_content_type() == "multipart/alternative"
    )  # the map once, inline (issue 30)


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_only_a_waiting_row_is_composed_and_only_once(game, smtp, broker):
    row = report(game)
    assert outbox.claim(row.pk, timezone.now())  # a sender has it
    assert not composing.compose(row.pk) and kept(row) is None
    other = report(game, key="composed-2")
    assert composing.compose(other.pk)
    assert not composing.compose(other.pk)  # composed already: left as it is
    assert outbox.send(other.pk)
    assert not composing.compose(other.pk) and kept(other) is None  # sent


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_a_backend_that_takes_fields_gets_the_message_built(game, smtp, broker, settings):
    row = report(game)
    assert composing.compose(row.pk)  # composed while the SMTP backend was configured
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # as an email API's would
    assert not composing.compose(report(game, key="composed-2").pk)
    assert outbox.send(row.pk)
    sent = mail.outbox[-1]
    assert sent.subject == "Turn 1 results" and sent.inline_map[0] == "map.png"  # the map once, in the HTML


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_the_render_task_composes_where_it_can_and_else_draws_the_map(game, smtp, broker, settings):
    """Composing draws the map (and keeps its PNG); a backend that takes fields gets the map drawn
    ahead all the same, for the message built at its send."""
    from campaigns.mailout import pictures, tasks
    from campaigns.models import MapPicture

    row = report(game)
    assert tasks.render_map(row.pk)
    assert kept(row) is not None
    assert MapPicture.objects.filter(digest=pictures.digest(row.svg)).exists()
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    MapPicture.objects.all().delete()
    other = report(game, key="composed-2")
    assert tasks.render_map(other.pk)
    assert kept(other) is None and MapPicture.objects.filter(digest=pictures.digest(other.svg)).exists()


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_giving_up_and_resending_drop_the_composed_bytes(game, smtp, broker):
    row = report(game)
    assert composing.compose(row.pk)
    outbox._give_up(OutboxMail.objects.filter(pk=row.pk))
    assert kept(row) is None
    OutboxMail.objects.filter(pk=row.pk).update(composed=b"stale")
    assert outbox.resend(OutboxMail.objects.filter(pk=row.pk)) == 1
    assert kept(row) is None  # composed afresh, or built at the send, with the Date of the resend


@given(st.lists(st.sampled_from([b".", b"..", b"\r", b"\n", b"\r\n", b"a", b" "]), max_size=40).map(b"".join))
def test_dot_stuffing_is_smtplibs(data):
    assert stuff_dots(data) == smtplib._quote_periods(data)


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_the_admin_shows_neither_the_reply_address_nor_the_composed_message(game, smtp, broker, client):
    from django.contrib.auth import get_user_model

    from campaigns.turns.addresses import reply_address

    seat = game.seats.get(side="red")
    row = outbox.queue_mail(key="admin-1", to=seat.email, subject="Turn", body="x", game=game, seat=seat)
    OutboxMail.objects.filter(pk=row.pk).update(composed=f"Reply-To: {reply_address(seat)}\r\n\r\nx".encode())
    get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-123")
    client.login(username="root", password="pw-root-123")
    page = client.get(f"/admin/campaigns/outboxmail/{row.pk}/change/")
    assert page.status_code == 200 and "Turn" in page.content.decode()
    token = reply_address(seat).split("+", 1)[1].split("@")[0]
    assert token not in page.content.decode()

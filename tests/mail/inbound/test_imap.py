"""The IMAP poller against a real Dovecot on loopback."""

import imaplib
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from django.db import OperationalError

from campaigns.mailin import imap, tasks
from campaigns.mailin.models import InboundMessage
from tests.services import REQUIRE
from tests.support import dovecot
from tests.support.games import orders_of, red_opening
from tests.support.mail import seat_mail

pytestmark = pytest.mark.skipif(not dovecot.available() and not REQUIRE, reason="needs Debian dovecot-imapd")


@pytest.fixture
def server():
    # Not pytest's tmp_path: its parents are 0700 and Dovecot's own users must read the config.
    root = Path(tempfile.mkdtemp(prefix="kb-dovecot-"))
    srv = dovecot.Dovecot(root)
    try:
        yield srv.start()
    finally:
        srv.stop()
        shutil.rmtree(root, ignore_errors=True)


def append(server, raw: bytes) -> None:
    conn = imaplib.IMAP4("127.0.0.1", server.port)
    conn.login(dovecot.USER, dovecot.PASSWORD)
    typ, _ = conn.append("INBOX", None, imaplib.Time2Internaldate(time.time()), raw)
    assert typ == "OK"
    conn.logout()


def unseen(server) -> int:
    conn = imaplib.IMAP4("127.0.0.1", server.port)
    conn.login(dovecot.USER, dovecot.PASSWORD)
    conn.select("INBOX")
    typ, data = conn.search(None, "UNSEEN")
    conn.logout()
    return len(data[0].split())


def test_poll_ingests_unseen_mail_and_marks_it_seen(server, game, red, settings):
    append(server, seat_mail(red, red_opening(game)))
    append(server, seat_mail(red, "STATUS"))
    assert unseen(server) == 2
    settings.MAIL_IMAP_URL = server.url
    assert tasks.poll_imap() == {"fetched": 2, "new": 2}
    assert orders_of(game, "red")["text"] == red_opening(game)
    assert InboundMessage.objects.filter(via="imap").count() == 2
    assert unseen(server) == 0
    assert tasks.poll_imap() == {"fetched": 0, "new": 0}


def test_message_seen_again_after_a_crash_is_deduplicated(server, game, red):
    raw = seat_mail(red, red_opening(game))
    append(server, raw)
    append(server, raw)  # the same message twice, as after a crash before \Seen was set
    result = imap.poll(imap.ImapConfig.from_url(server.url))
    assert result == {"fetched": 2, "new": 1}
    assert InboundMessage.objects.count() == 1


def test_wrong_password_is_a_clear_error(server):
    cfg = imap.ImapConfig.from_url(server.url.replace(dovecot.PASSWORD, "wrong"))
    with pytest.raises(imaplib.IMAP4.error):
        imap.poll(cfg)


@pytest.mark.parametrize("url", ["http://x/", "imap://host-only/", "nonsense"])
def test_bad_imap_url_says_what_is_expected(url):
    with pytest.raises(ValueError, match="imap://user:password@host"):
        imap.ImapConfig.from_url(url)


def test_poll_is_skipped_without_a_url(settings):
    settings.MAIL_IMAP_URL = ""
    assert tasks.poll_imap()["skipped"]


def test_the_poller_is_on_the_beat_schedule(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["mail-imap-poll"]
    assert entry["task"] == tasks.poll_imap.name and entry["schedule"] == float(settings.MAIL_IMAP_INTERVAL_SECONDS)
    assert settings.CELERY_BEAT_SCHEDULE["mail-retry-inbound"]["task"] == tasks.retry_inbound.name


def test_unseen_mail_is_taken_in_batches_each_stored_before_it_is_marked_seen(server, game, red, monkeypatch):
    monkeypatch.setattr(imap, "FETCH_BATCH", 2)
    for body in ("STATUS", "HELP", red_opening(game) + "\nWAIT", "STATUS", "HELP"):
        append(server, seat_mail(red, body))
    stored_while_unseen = []
    store_many = imap.ingest.store_many

    def store_and_look(raws, **kw):
        rows = store_many(raws, **kw)
        stored_while_unseen.append((len(raws), unseen(server)))  # committed, and not yet flagged
        return rows

    monkeypatch.setattr(imap.ingest, "store_many", store_and_look)
    assert imap.poll(imap.ImapConfig.from_url(server.url)) == {"fetched": 5, "new": 5}
    assert stored_while_unseen == [(2, 5), (2, 3), (1, 1)]
    assert unseen(server) == 0
    assert set(InboundMessage.objects.values_list("status", flat=True)) == {InboundMessage.Status.APPLIED}
    assert orders_of(game, "red")["text"] == red_opening(game)


def test_mail_is_not_marked_seen_when_the_store_fails(server, game, red, monkeypatch):
    append(server, seat_mail(red, "STATUS"))

    def down(raws, **kw):
        raise OperationalError("the database is down")

    monkeypatch.setattr(imap.ingest, "store_many", down)
    with pytest.raises(OperationalError):
        imap.poll(imap.ImapConfig.from_url(server.url))
    assert unseen(server) == 1 and not InboundMessage.objects.exists()


def read_in_a_mail_client(server) -> None:
    """Someone opens the mailbox and reads everything: all of it is flagged \\Seen."""
    conn = imaplib.IMAP4("127.0.0.1", server.port)
    conn.login(dovecot.USER, dovecot.PASSWORD)
    conn.select("INBOX")
    conn.store("1:*", "+FLAGS", "(\\Seen)")
    conn.logout()


def test_mail_someone_read_in_the_mailbox_is_still_taken_in(server, game, red, settings):
    settings.MAIL_IMAP_URL = server.url
    append(server, seat_mail(red, "STATUS"))
    assert tasks.poll_imap() == {"fetched": 1, "new": 1}
    append(server, seat_mail(red, red_opening(game)))
    read_in_a_mail_client(server)
    assert unseen(server) == 0
    assert tasks.poll_imap() == {"fetched": 1, "new": 1}  # by UID, not by the \Seen flag
    assert orders_of(game, "red")["text"] == red_opening(game)
    assert tasks.poll_imap() == {"fetched": 0, "new": 0}
    from campaigns.mailin.models import ImapCursor

    cursor = ImapCursor.objects.get()
    assert cursor.last_uid == 2 and dovecot.PASSWORD not in cursor.mailbox


def test_a_renumbered_mailbox_is_read_again_and_nothing_doubles(server, game, red, settings):
    from campaigns.mailin.models import ImapCursor

    settings.MAIL_IMAP_URL = server.url
    append(server, seat_mail(red, red_opening(game)))
    assert tasks.poll_imap() == {"fetched": 1, "new": 1}
    ImapCursor.objects.update(uidvalidity=1)  # as if the server had renumbered the mailbox
    append(server, seat_mail(red, "STATUS"))
    assert tasks.poll_imap() == {"fetched": 2, "new": 1}  # all read again; the old one deduplicated
    assert InboundMessage.objects.count() == 2

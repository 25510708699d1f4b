"""CPython's email test messages (many malformed): never a crash, never a loss.

Each is ingested as it is (strangers: refused or ignored) and again as if a
seat had sent it (its From rewritten to the seat's, our reply address as the
envelope recipient), so that the body and attachment paths see them too.
"""

import re
import time
from pathlib import Path

import pytest

from campaigns.mailin import ingest, mime, replay
from campaigns.mailin.models import InboundMessage
from campaigns.turns import addresses
from tests.support.mail import _date

CORPUS = Path("/work/shared/corpus/email-cpython")
if not CORPUS.is_dir():  # a fresh clone keeps shared/ beside the repository
    CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "email-cpython"
MESSAGES = sorted(CORPUS.glob("msg_*.txt"))
S = InboundMessage.Status
pytestmark = pytest.mark.skipif(not MESSAGES, reason=f"no corpus at {CORPUS}")


def test_every_message_is_kept_and_none_crashes(db):
    keys = set()
    for path in MESSAGES:
        raw = path.read_bytes()
        # A Message-ID with the same body is one message; with another body, a message of its own.
        key = (mime.message_id(raw), replay.body_of(raw)) if mime.message_id(raw) else path.name
        started = time.perf_counter()
        row = ingest.ingest(raw, via="test")
        assert time.perf_counter() - started < 5, f"{path.name} took too long"  # bounded work per message
        assert row.status in (S.REJECTED, S.IGNORED, S.APPLIED), f"{path.name}: {row.status} {row.error}"
        if key not in keys:  # the first of a message is kept byte for byte
            assert bytes(InboundMessage.objects.get(pk=row.pk).raw) == raw
        keys.add(key)
    assert InboundMessage.objects.count() == len(keys)


def test_as_if_a_seat_sent_them(game, red):
    to = addresses.reply_address(red)
    for i, path in enumerate(MESSAGES):
        raw = path.read_bytes()
        raw = re.sub(rb"(?mi)^(from|message-id|date|auto-submitted|precedence|return-path):.*\r?\n", b"", raw)
        # Rising Dates, as one person's mail has (old ones would be held as replays: replay.py).
        raw = f"From: {red.email}\nDate: {_date()}\nMessage-ID: <corpus-{i}@test>\n".encode() + raw
        row = ingest.ingest(raw, via="test", envelope_to=to)
        assert row.status in (S.APPLIED, S.REJECTED, S.IGNORED), f"{path.name}: {row.status} {row.error}"
    assert InboundMessage.objects.count() == len(MESSAGES)
    # Most reach the seat's command reader (the rest: delivery reports, too many parts).
    assert InboundMessage.objects.filter(status=S.APPLIED).count() > len(MESSAGES) * 2 // 3
    assert not InboundMessage.objects.filter(status=S.FAILED).exists()

"""The reply brake's counts, read with the replay check in one statement (one round trip less per
message), are the counts ``replies.sent_last_hour`` reads on its own, lane by lane."""

from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.mailin import ingest, replay, replies
from campaigns.mailin.mime import parse
from campaigns.mailin.models import InboundMessage
from tests.support.mail import seat_mail

pytestmark = pytest.mark.django_db(transaction=True)


def test_counts_read_with_the_replay_check_match_the_brakes_own(red):
    acks, paused, plain = replies.lanes(red.email, red.pk)
    now = timezone.now()
    for i, (key, ago) in enumerate([(acks, 5), (acks, 30), (acks, 90), (plain, 10), (paused, 200)]):
        InboundMessage.objects.create(
            dedupe_key=f"<old-{i}@x>",
            message_id=f"<old-{i}@x>",
            raw=b"x",
            size=1,
            via="test",
            thread_key=key,
            replied_at=now - timedelta(minutes=ago),
        )
    row = ingest.ingest(seat_mail(red, "pass\nWAIT\n"), via="test")
    assert replay.suspect(row, red, parse(bytes(row.raw), max_parts=10), also_count=(acks, paused, plain)) is None
    assert row.sent_counts == {acks: 3, paused: 0, plain: 1}  # the applied message's own ack is the third
    for key in (acks, paused, plain):
        assert row.sent_counts[key] == replies.sent_last_hour(key)
        assert replies.sent_last_hour(key, row) == replies.sent_last_hour(key)
    assert row.sent_counts == {}  # each count is used once; later calls read the table again

"""Kept map pictures are deleted once no unsent mail needs them and no send has used them for
MAP_PICTURE_KEEP_HOURS (campaigns/mailout/pictures.py forget_unused; hourly on the maintenance
queue), in bounded batches; a DEAD mail's too (sent again by the operator, it draws its map
again). On PostgreSQL, which finds the pictures unsent mail needs by hashing the rows' SVG where
they are: the digest must be the one Python gives, Cyrillic labels and all."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from campaigns.mailout import pictures
from campaigns.models import MapPicture, OutboxMail
from kriegsbrief import queues

pytestmark = pytest.mark.django_db

Status = OutboxMail.Status
KEEP = timedelta(hours=settings.MAP_PICTURE_KEEP_HOURS)


def svg(label: str) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg"><text>{label} — Гражданская война</text></svg>'


def kept(label: str, age: timedelta) -> str:
    """A picture of ``label``'s drawing, last used ``age`` ago; its digest."""
    key = pictures.digest(svg(label))
    MapPicture.objects.create(digest=key, png=b"png of " + label.encode())
    MapPicture.objects.filter(digest=key).update(used_at=timezone.now() - age)
    return key


def mail(label: str, status: str) -> OutboxMail:
    return OutboxMail.objects.create(
        key=f"mail-{label}",
        to="bob@example.org",
        subject="Map",
        body="x",
        message_id=f"<{label}@kb>",
        svg=svg(label),
        status=status,
    )


def left() -> set[str]:
    return set(MapPicture.objects.values_list("digest", flat=True))


def test_pictures_unsent_mail_needs_stay_the_others_go_after_the_age():
    assert connection.vendor == "postgresql"
    old = KEEP + timedelta(hours=1)
    needed = {status: kept(f"queued-{status}", old) for status in (Status.PENDING, Status.FAILED, Status.SENDING)}
    for status in needed:
        mail(f"queued-{status}", status)
    unused, dead = kept("unused", old), kept("dead", old)
    mail("dead", Status.DEAD)
    sent_young, sent_old = kept("sent-young", KEEP / 2), kept("sent-old", old)
    mail("sent-young", Status.SENT), mail("sent-old", Status.SENT)
    assert pictures.forget_unused() == 3
    assert left() == set(needed.values()) | {sent_young}  # the old unused, sent and dead mail's went
    assert not {unused, sent_old, dead} & left()
    # once its mail is sent, a picture goes when it has been unused for the age
    OutboxMail.objects.filter(key=f"mail-queued-{Status.PENDING}").update(status=Status.SENT)
    assert pictures.forget_unused() == 1 and needed[Status.PENDING] not in left()
    # the young sent one goes once it is old
    assert pictures.forget_unused(now=timezone.now() + KEEP) == 1 and sent_young not in left()


def test_a_use_keeps_a_picture_and_a_run_deletes_in_bounded_batches():
    old = KEEP + timedelta(hours=1)
    keys = [kept(f"unused-{i}", old + timedelta(minutes=i)) for i in range(7)]
    used = kept("used", old)
    assert pictures.png(svg("used")) == b"png of used"  # a send found it: used now
    assert MapPicture.objects.get(digest=used).used_at > timezone.now() - timedelta(minutes=1)
    assert pictures.forget_unused(batch=3, batches=2) == 6  # at most two batches of three
    assert left() == {used, keys[0]}  # the oldest-unused first
    assert pictures.forget_unused(batch=3, batches=2) == 1 and left() == {used}


def test_the_cleanup_runs_hourly_on_the_maintenance_queue():
    entry = next(e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == pictures.FORGET_TASK)
    assert entry["schedule"] == 3600.0
    assert queues.routes()[pictures.FORGET_TASK] == {"queue": "maintenance"}
    from campaigns.tasks import forget_map_pictures

    kept("unused", KEEP + timedelta(hours=1))
    assert forget_map_pictures.delay().get() == 1 and not left()

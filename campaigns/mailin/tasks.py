"""Celery tasks of mail in: the IMAP poll and the retry of failed messages."""

from celery import shared_task
from django.conf import settings

from . import imap, ingest


@shared_task(name="campaigns.mailin.tasks.poll_imap")
def poll_imap() -> dict:
    if not settings.MAIL_IMAP_URL:
        return {"fetched": 0, "new": 0, "skipped": "MAIL_IMAP_URL is not set"}
    return imap.poll(imap.ImapConfig.from_url(settings.MAIL_IMAP_URL))


@shared_task(name="campaigns.mailin.tasks.retry_inbound")
def retry_inbound() -> int:
    return ingest.retry_pending()

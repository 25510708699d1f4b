"""The inbound message store (seat reply addresses and absences, app ``mailin`` too, are seat
concepts: their classes are in campaigns.models; a seat's address health, written from the
delivery reports mail-in reads and read by the outbox and the pages, is mail-out's:
campaigns/mailout/health.py).

``InboundMessage`` is written before anything else is done with a message, in
its own transaction, so nothing accepted is ever lost: whatever fails later
is recorded on the row (status + error) and the row can be processed again.
"""

from django.db import models

from campaigns.mailout.health import AddressHealth
from campaigns.models import Absence, Seat, SeatAddress

__all__ = ["Absence", "AddressHealth", "SeatAddress", "InboundMessage", "ImapCursor"]


class InboundMessage(models.Model):
    class Status(models.TextChoices):
        RECEIVED = "received"  # stored, not processed yet (or processing crashed: retry)
        APPLIED = "applied"  # commands carried out (some lines may have had errors)
        REJECTED = "rejected"  # failed a check; the sender was told why (if answerable)
        HELD = "held"  # authentication failed: waits for the umpire
        IGNORED = "ignored"  # auto-reply, bounce, list mail: recorded, never answered
        FAILED = "failed"  # an internal error; ``error`` says which, retryable

    dedupe_key = models.CharField(
        max_length=600,
        unique=True,
        help_text=(
            "One delivery: the Message-ID (or sha256 of the raw bytes when there is none) and the envelope "
            "recipient; '#' and a body hash when another body came under the same Message-ID."
        ),
    )
    message_id = models.CharField(max_length=300, blank=True)
    raw = models.BinaryField()
    size = models.IntegerField()
    via = models.CharField(max_length=20)
    envelope_to = models.CharField(max_length=300, blank=True)
    received_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RECEIVED, db_index=True)
    error = models.TextField(blank=True)
    attempts = models.IntegerField(default=0)
    processed_at = models.DateTimeField(null=True, blank=True)
    seat = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    from_addr = models.CharField(max_length=300, blank=True)
    subject = models.CharField(max_length=300, blank=True)
    thread_key = models.CharField(max_length=64, blank=True, db_index=True)
    replied_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(default=dict, blank=True)

    class Meta:
        indexes = [models.Index(fields=["thread_key", "replied_at"])]

    def __str__(self):
        return f"inbound #{self.pk} {self.status}"


class ImapCursor(models.Model):
    """How far the IMAP poller has read one mailbox: the highest UID stored, under the mailbox's
    UIDVALIDITY. The poller reads by UID, not by the \\Seen flag, so mail someone else opened in
    the mailbox (an operator, a mail client) is still taken in."""

    mailbox = models.CharField(max_length=400, unique=True, help_text="user@host:port/mailbox")
    uidvalidity = models.BigIntegerField()
    last_uid = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"{self.mailbox} up to UID {self.last_uid}"

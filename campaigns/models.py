"""Campaigns, games, seats; the append-only event table; snapshots; the mail outbox.

Only ``Event`` is the truth about a game; its last event is the stream head.
``Game``'s turn columns are a projection kept in the same transaction as each
append that changes them (so the deadline
sweeper can query them); ``Snapshot`` is a cache that can be dropped.
"""

import uuid

import pgtrigger
from django.conf import settings
from django.db import models
from django.utils import timezone


class Campaign(models.Model):
    # Its name everywhere, also in its record's hashes (campaigns/battles/record.py): a campaign
    # keeps it when it moves to another server (export_campaign / import_campaign).
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.name


class Game(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active"
        FINISHED = "finished"

    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, related_name="games")
    name = models.CharField(max_length=200)
    ruleset = models.CharField(max_length=50)
    created_at = models.DateTimeField(auto_now_add=True)
    # The row commands lock to decide on current state (gamelog.load(lock=True)).
    # Projection of the folded log, updated in the append transaction.
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    turn_number = models.IntegerField(default=0)
    turn_status = models.CharField(max_length=20, default="")
    deadline_at = models.DateTimeField(null=True, blank=True, db_index=True)
    close_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # A closed turn's adjudication is owned by one queued task until then (turns/handoff.py): the
    # rescue queues it again only when no one holds it (NULL: a hand-off failed, or not queued yet).
    adjudication_leased_until = models.DateTimeField(null=True, blank=True)
    # Who created it on the web: they may invite someone else to a declined seat (turns/invitations.py).
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        indexes = [
            models.Index(
                fields=["adjudication_leased_until"],
                name="game_closed_turn_idx",
                condition=models.Q(turn_status="closed"),
            )
        ]

    def __str__(self):
        return f"{self.name} ({self.ruleset})"


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    timezone = models.CharField(max_length=64, default="UTC")
    # The language of the user's pages and of their seats' mail; blank follows the browser
    # (Accept-Language) on pages and the site's LANGUAGE_CODE in mail.
    language = models.CharField(max_length=8, blank=True, default="", choices=settings.LANGUAGES)
    # The user's own mail address, confirmed by a link sent to it (turns/mailaddress.py); a seat takes
    # its address from here when its player accepts. ``pending_email`` awaits its confirmation.
    verified_email = models.EmailField(blank=True)
    email_verified_at = models.DateTimeField(null=True, blank=True)
    pending_email = models.EmailField(blank=True)

    def __str__(self):
        return f"profile of user {self.user_id}"


class CalendarFeed(models.Model):
    """A user's personal calendar of deadlines at a secret address (``/calendar/<token>.ics``,
    campaigns/turns/agenda.py). Made when the user asks for it; renewing it replaces the token, and the
    old address answers 404 from then on. The token alone opens the feed: only its user is shown it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed")
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        # Never the token: this string ends up in logs and the admin.
        return f"calendar feed of user {self.user_id}"


class SeatQuerySet(models.QuerySet):
    def active(self):
        """Seats whose holder accepted (or an operator seated): only these get mail, reports and a view."""
        return self.filter(status=Seat.Status.ACTIVE)


class Seat(models.Model):
    class Role(models.TextChoices):
        PLAYER = "player"
        UMPIRE = "umpire"
        OBSERVER = "observer"

    class Status(models.TextChoices):
        INVITED = "invited"  # named by the game's creator; nothing but the invitation until accepted
        ACTIVE = "active"
        DECLINED = "declined"  # free: the creator may invite someone else (no user)

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    role = models.CharField(max_length=10, choices=Role.choices)
    side = models.CharField(
        max_length=30, blank=True, help_text="The side a player holds; blank for umpire and observers."
    )
    # Several players a side (LW-61, KS-9): the command of the side this seat orders (one of the
    # scenario's commands, or "commander" for the whole side). Blank: the seat is the whole side.
    command = models.CharField(max_length=30, blank=True, default="")
    email = models.EmailField(blank=True, help_text="The holder's verified address, set when they accept.")
    # Default active: seats made by code (operator path, imports) are seated; the web invites.
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)

    class Mail(models.TextChoices):
        ALL = "all"
        # "Mail me less": turn reports, the umpire's and the game's notices, answers to the
        # player's own mail; no reminders and no waiting notices (mailout/reminders.py). Set by
        # the one-click unsubscribe of every mail's List-Unsubscribe (mailout/unsubscribe.py).
        LESS = "less"

    mail = models.CharField(max_length=10, choices=Mail.choices, default=Mail.ALL)
    # Bumped by every invitation and answer: an invitation link names the version it was sent
    # for, so a link works once and not after the seat was answered or offered to someone else.
    version = models.PositiveIntegerField(default=0)
    invited_at = models.DateTimeField(null=True, blank=True)
    accepted_at = models.DateTimeField(null=True, blank=True)

    objects = SeatQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "side", "command"], condition=models.Q(role="player"), name="one_player_per_command"
            ),
        ]

    def __str__(self):
        return f"{self.game_id}:{self.role}:{self.side or '-'}{'/' + self.command if self.command else ''}"


class Event(models.Model):
    """One entry of a game's append-only log. Never updated, never deleted."""

    # No index of its own: (game, seq) serves the foreign key, and a plan that took a game_id-only
    # index read the whole of a game's log for a viewer (a generic plan did, issue 34).
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events", db_index=False)
    seq = models.BigIntegerField()
    turn = models.IntegerField()
    type = models.CharField(max_length=80)
    version = models.PositiveSmallIntegerField(default=1)
    payload = models.JSONField()
    audience = models.CharField(max_length=40)
    created_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="event_game_seq_unique")]
        indexes = [
            # A viewer's reads go audience by audience (turns/viewing.py, VisibleEvents), so that
            # an index scan reaches only rows it may see, in seq order: the work of answering it
            # never grows with the other side's private events (issue 34).
            models.Index(fields=["game", "audience", "seq"], name="event_game_audience_seq"),
            models.Index(fields=["game", "audience", "turn", "seq"], name="event_game_audience_turn_seq"),
        ]
        triggers = [
            # Immutability lives in the database, not in Python: any UPDATE or
            # DELETE on this table fails whoever issues it.
            pgtrigger.Protect(name="event_append_only", operation=pgtrigger.Update | pgtrigger.Delete),
        ]

    def __str__(self):
        return f"{self.game_id}#{self.seq} {self.type}"


class Snapshot(models.Model):
    """Folded state at ``seq``, as canonical JSON text. A cache: safe to drop."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.BigIntegerField()
    state = models.TextField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="snapshot_game_seq_unique")]

    def __str__(self):
        return f"{self.game_id}@{self.seq}"


class SnapshotFormat(models.Model):
    """The format of every game's snapshots, one row: the version of the fold that wrote them
    (campaigns.turns.gamelog.SNAPSHOT_FORMAT). ``migrate`` rebuilds every game's snapshots when the
    code's format is newer (campaigns.snapshotformat), so an upgrade whose fold writes another
    state for an old log (a new setting's default, a new key) leaves no snapshot a replay disagrees with."""

    version = models.IntegerField()
    rebuilt_at = models.DateTimeField()

    def __str__(self):
        return f"snapshot format {self.version}"


class OutboxMail(models.Model):
    """A message to send; written in the transaction that caused it (campaigns.mailout.outbox).

    ``next_attempt_at`` is the earliest time the row may be sent (after a failure: the end of
    that attempt plus the backoff); ``leased_until`` says who owns it meanwhile (one owner per
    retry): a row is queued only when no lease holds it.
    """

    class Status(models.TextChoices):
        PENDING = "pending"
        SENDING = "sending"
        SENT = "sent"
        FAILED = "failed"
        DEAD = "dead"  # gave up after MAX_ATTEMPTS; kept, visible in the admin

    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="outbox")
    seat = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    kind = models.CharField(max_length=30, default="notice", db_index=True)
    key = models.CharField(max_length=200, unique=True, help_text="Idempotency key: one message per key.")
    to = models.EmailField()
    reply_to = models.CharField(max_length=320, blank=True)
    subject = models.CharField(max_length=300)
    body = models.TextField()
    html = models.TextField(blank=True)
    svg = models.TextField(blank=True, help_text="A map, attached as PNG (rendered when sent).")
    attachments = models.JSONField(default=list, blank=True, help_text="[{filename, mimetype, content_b64}]")
    message_id = models.CharField(max_length=200)
    in_reply_to = models.CharField(max_length=998, blank=True)
    references = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.IntegerField(default=0)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # Who owns the row until then: a queued send task (PENDING/FAILED) or a sender (SENDING).
    # NULL: no one; the rescue queues it once next_attempt_at has passed (mailout/outbox.py).
    leased_until = models.DateTimeField(null=True, blank=True)
    # The process that holds the row's lease (a LiveProcess id): the one whose publisher owes the
    # broker its message, then the sender that started on it (a send, or a send-many task for the
    # rows it has not reached). If that process dies, the rescue takes the row at once instead of
    # when the lease runs out (campaigns/liveness.py).
    held_by = models.BigIntegerField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # The message as it will be sent (MIME, CRLF line endings), flattened on the render queue ahead
    # of the send (mailout/composing.py); NULL until then, and again once the row is SENT or DEAD.
    composed = models.BinaryField(null=True, blank=True, editable=False)

    class Meta:
        indexes = [
            # The rescue's query (every few seconds) reads only rows still waiting.
            models.Index(
                fields=["next_attempt_at"],
                name="outbox_waiting_idx",
                condition=models.Q(status__in=["pending", "failed", "sending"]),
            ),
        ]

    def __str__(self):
        return f"{self.kind} to {self.to} ({self.status})"


class LiveProcess(models.Model):
    """A process that queues work, and when it last said it lives (campaigns/liveness.py)."""

    hostname = models.CharField(max_length=255)
    pid = models.IntegerField()
    # Its start (Linux: clock ticks after boot, from /proc): a pid reused later is another process.
    started = models.BigIntegerField()
    beat_at = models.DateTimeField()

    def __str__(self):
        return f"process {self.pid} on {self.hostname}"


class MapPicture(models.Model):
    """A map rendered as PNG once, found again by its SVG's SHA-256 (campaigns/mailout/pictures.py).

    Keyed by content, not by mail: every send attempt, retry and resend of a message, and every
    message that shows the same drawing, reuse it. What a map shows (the viewer's view, the
    reader's language) is all in its SVG text, so the key needs nothing else."""

    digest = models.CharField(max_length=64, primary_key=True, help_text="SHA-256 of the SVG text (hex)")
    png = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)
    # When a send or a render last found it (bumped at most every few minutes): a picture no unsent
    # mail needs and unused for MAP_PICTURE_KEEP_HOURS is deleted (pictures.forget_unused).
    used_at = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self):
        return f"map {self.digest[:12]} ({len(self.png)} bytes)"


class Heartbeat(models.Model):
    """When a periodic job last ran (the deadline sweep): a gap longer than its interval allows means
    the service was down, and deadlines that passed meanwhile are given back (turns/lateness.py)."""

    name = models.CharField(max_length=50, unique=True)
    at = models.DateTimeField()

    def __str__(self):
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"


# --- seat concepts stored in the mail-in app's tables ----------------------------------------
# A seat's secret reply address and its declared absences belong to the turn machinery
# (campaigns.turns.addresses, campaigns.turns.absences), which may not import the mail-in
# channel; their tables and migrations remain the ``mailin`` app's, as before.


class SeatAddress(models.Model):
    """A seat's secret reply address: ``orders+<token>@INBOUND_DOMAIN``."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="mail_addresses")
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "mailin"  # its table and migrations stay mail-in's (mailin_seataddress)
        constraints = [
            # At most one live address per seat; revoked ones stay for clear errors.
            models.UniqueConstraint(
                fields=["seat"], condition=models.Q(revoked_at__isnull=True), name="one_live_address_per_seat"
            ),
        ]

    def __str__(self):
        # Never the token: this string ends up in logs and the admin.
        return f"address of seat {self.seat_id}{' (revoked)' if self.revoked_at else ''}"


class Absence(models.Model):
    """A seat's ABSENT UNTIL: recorded and passed to the umpire."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="absences")
    until = models.DateField()
    inbound = models.ForeignKey("mailin.InboundMessage", null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "mailin"  # its table and migrations stay mail-in's (mailin_absence)

    def __str__(self):
        return f"seat {self.seat_id} absent until {self.until}"

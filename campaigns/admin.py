"""Django admin for staff: a window, not a door (issue 29).

The event log and its snapshots are read-only here as everywhere; a seat is changed only through
the commands that write its event and revoke its old reply address (invitations, the umpire's
replacement), never by editing its row; a sealed dice seed is not shown before its turn is
published (the operator is not the umpire, and the seed decides the turn's dice).
"""

import json

from django.contrib import admin

from .log.eventstore import head
from .models import Campaign, Event, Game, OutboxMail, Profile, Seat, Snapshot

SEALED = "seed.sealed"


class ReadOnly:
    """Shown, never added, changed or deleted."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(ReadOnly, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("role", "side", "command", "user", "email", "status", "version", "invited_at", "accepted_at")
    readonly_fields = fields


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "created_by", "created_at")
    search_fields = ("name",)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("name", "ruleset", "campaign", "status", "turn_number", "turn_status", "deadline_at", "events")
    list_filter = ("ruleset", "status", "turn_status")
    search_fields = ("name", "uid")
    inlines = [SeatInline]
    # The projection is written only by the event store.
    readonly_fields = (
        "uid",
        "ruleset",
        "events",
        "status",
        "turn_number",
        "turn_status",
        "deadline_at",
        "close_due_at",
        "adjudication_leased_until",
        "created_by",
    )

    @admin.display(description="events")
    def events(self, game):
        return head(game.pk)[0]


def revealed(event: Event) -> bool:
    """Whether a sealed seed's turn has been published (its seed is in the public log since)."""
    turn = event.payload.get("turn")
    return Event.objects.filter(
        game_id=event.game_id, type__in=("turn.published", "seed.revealed"), payload__turn=turn
    ).exists()


def shown_payload(event: Event) -> str:
    payload = dict(event.payload)
    if event.type == SEALED and "seed" in payload and not revealed(event):
        payload["seed"] = "(sealed until the turn is published)"
    return json.dumps(payload, ensure_ascii=False, indent=1, sort_keys=True)


@admin.register(Event)
class EventAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("game", "seq", "turn", "type", "audience", "created_at")
    list_filter = ("type", "audience")
    search_fields = ("game__name", "type")
    exclude = ("payload",)
    readonly_fields = ("payload_shown",)

    @admin.display(description="payload")
    def payload_shown(self, event):
        return shown_payload(event)


@admin.register(OutboxMail)
class OutboxMailAdmin(admin.ModelAdmin):
    """Read-only: the outbox is the record of what was (or will be) sent. The
    Reply-To address holds a seat's secret token, so it is not shown."""

    list_display = (
        "to",
        "kind",
        "subject",
        "status",
        "attempts",
        "next_attempt_at",
        "leased_until",
        "created_at",
        "sent_at",
    )
    list_filter = ("status", "kind")
    search_fields = ("to", "subject", "message_id")
    exclude = ("reply_to", "attachments", "composed")  # composed: the message, Reply-To and all

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in OutboxMail._meta.fields if f.name not in self.exclude]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


admin.site.register(Profile)


@admin.register(Snapshot)
class SnapshotAdmin(ReadOnly, admin.ModelAdmin):
    """A cache of the fold, rebuilt by ``rebuild_snapshots``: its state holds the open turn's sealed
    seed and every side's secrets, so only its place and size are shown."""

    list_display = ("game", "seq", "size")
    fields = ("game", "seq", "size")
    readonly_fields = fields

    @admin.display(description="bytes")
    def size(self, snapshot):
        return len(snapshot.state)

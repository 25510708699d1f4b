"""Django admin for staff. The event log is read-only here as everywhere."""

from django.contrib import admin

from .log.eventstore import head
from .models import Campaign, Event, Game, OutboxMail, Profile, Seat, Snapshot


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    # The operator may seat anyone (as creation.create_game(operator=True) does); an invitation's
    # bookkeeping is the invitations module's.
    readonly_fields = ("version", "invited_at", "accepted_at")


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
    )

    @admin.display(description="events")
    def events(self, game):
        return head(game.pk)[0]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "turn", "type", "audience", "created_at")
    list_filter = ("type", "audience")
    search_fields = ("game__name", "type")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


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
admin.site.register(Snapshot)

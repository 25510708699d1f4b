"""Admin for the inbound store: what came in, what happened, and the umpire's
release/reject of held messages. The raw message is shown read-only; the
store is never edited here."""

from django.contrib import admin, messages

from . import ingest
from .models import Absence, AddressHealth, InboundMessage, SeatAddress


@admin.register(InboundMessage)
class InboundMessageAdmin(admin.ModelAdmin):
    list_display = ("id", "received_at", "via", "status", "seat", "subject", "attempts")
    list_filter = ("status", "via")
    search_fields = ("message_id", "subject", "from_addr")
    readonly_fields = [f.name for f in InboundMessage._meta.fields if f.name != "raw"] + ["raw_text"]
    exclude = ("raw",)
    actions = ["release_held", "reject_held", "retry_failed"]

    @admin.display(description="raw message")
    def raw_text(self, obj):
        return bytes(obj.raw).decode("utf-8", "replace")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def _each(self, request, queryset, action, done_word):
        done = 0
        for row in queryset:
            try:
                action(row)
                done += 1
            except ValueError as exc:
                self.message_user(request, str(exc), messages.WARNING)
        self.message_user(request, f"{done} message(s) {done_word}.")

    @admin.action(description="Release held messages (apply them)")
    def release_held(self, request, queryset):
        self._each(request, queryset, ingest.release, "released")

    @admin.action(description="Reject held messages")
    def reject_held(self, request, queryset):
        self._each(request, queryset, ingest.reject_held, "rejected")

    @admin.action(description="Process failed messages again")
    def retry_failed(self, request, queryset):
        self._each(
            request, queryset.filter(status=InboundMessage.Status.FAILED), lambda r: ingest.process(r.pk), "retried"
        )


@admin.register(SeatAddress)
class SeatAddressAdmin(admin.ModelAdmin):
    list_display = ("id", "seat", "created_at", "revoked_at")
    exclude = ("token",)
    readonly_fields = ("seat", "created_at", "revoked_at")


@admin.register(Absence)
class AbsenceAdmin(admin.ModelAdmin):
    list_display = ("seat", "until", "created_at")


@admin.register(AddressHealth)
class AddressHealthAdmin(admin.ModelAdmin):
    """What came back from each seat's address (campaigns/mailout/health.py); written by the delivery
    reports only. Clearing ``failing since`` resumes the seat's mail as a confirmation would."""

    list_display = ("seat", "email", "hard_bounces", "last_status", "last_bounce_at", "failing_since")
    list_filter = ("failing_since",)
    search_fields = ("email",)
    readonly_fields = ("seat", "token", "email", "hard_bounces", "soft_bounces", "last_status", "last_diagnostic")

    def has_add_permission(self, request):
        return False

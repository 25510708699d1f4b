"""The inbound webhook, through django-anymail (Mailgun's raw-MIME route here).

Anymail checks Mailgun's HMAC signature (MAILGUN_WEBHOOK_SIGNING_KEY) and
HTTP basic auth (ANYMAIL WEBHOOK_SECRET). This view refuses every request
while either is unset: an empty signing key would let anyone sign. The raw
MIME text Mailgun posts goes to the same ingestion function as every other
way in; a redelivered post (same Message-ID) changes nothing.
"""
from django.conf import settings
from django.dispatch import receiver

from anymail.exceptions import AnymailWebhookValidationFailure
from anymail.signals import inbound
from anymail.webhooks.mailgun import MailgunInboundWebhookView

from . import ingest


class InboundWebhookView(MailgunInboundWebhookView):
    def __init__(self, **kwargs):
        kwargs.setdefault("webhook_signing_key", _anymail("MAILGUN_WEBHOOK_SIGNING_KEY") or "-unset-")
        super().__init__(**kwargs)

    def validate_request(self, request):
        # Runs beside anymail's own basic-auth and signature validators.
        if not _anymail("MAILGUN_WEBHOOK_SIGNING_KEY") or not _anymail("WEBHOOK_SECRET"):
            raise AnymailWebhookValidationFailure("the inbound webhook is not configured (signing key and basic auth)")


def _anymail(name: str) -> str:
    return (getattr(settings, "ANYMAIL", {}) or {}).get(name, "")


@receiver(inbound, sender=InboundWebhookView, dispatch_uid="mailin-webhook")
def _on_inbound(sender, event, esp_name, **kwargs):
    request = event.esp_event
    raw_text = request.POST.get("body-mime") if hasattr(request, "POST") else None
    raw = raw_text.encode("utf-8", "surrogateescape") if raw_text else event.message.as_bytes()
    ingest.ingest(raw, via="webhook", envelope_to=event.message.envelope_recipient or "")

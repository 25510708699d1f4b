"""The inbound webhook, through django-anymail (Mailgun's raw-MIME route here).

Anymail checks Mailgun's HMAC signature (MAILGUN_WEBHOOK_SIGNING_KEY) and
HTTP basic auth (ANYMAIL WEBHOOK_SECRET). This view refuses every request
while either is unset: an empty signing key would let anyone sign. The raw
MIME text Mailgun posts goes to the same ingestion function as every other
way in; a redelivered post (same Message-ID) changes nothing.

The signature covers only Mailgun's timestamp and token, not the message, so a
captured signature could carry any message. Two more checks close that: the
timestamp must be within MAILGUN_WEBHOOK_MAX_AGE_SECONDS of now (either way),
and a token is taken once (kept in the shared cache a little longer than the
window; a post whose ingestion fails gives its token back, so Mailgun's retry
of it is still taken).

No MTA of ours is on this way in, so no Authentication-Results in the posted
message is ours, whatever authserv-id it names. The view stands in for our MTA:
it writes our header (MAIL_AUTHSERV_ID) on top of the message from what
Mailgun itself verified: its SPF verdict for the envelope sender it posts
(``sender``), its DKIM verdict (for the signing domain when the message has
one signature), read from the topmost ``X-Mailgun-Spf`` and
``X-Mailgun-Dkim-Check-Result`` headers, which Mailgun adds on top of what it
received. Mail-in reads only the topmost header with our id (screen.py).

A message posted once for several seat addresses is one delivery per seat
address (``ingest.ingest_deliveries``): every game reads its own.
"""

import json
import re
import time
from email.parser import BytesHeaderParser
from email.policy import compat32

from anymail.exceptions import AnymailWebhookValidationFailure
from anymail.signals import inbound
from anymail.webhooks.mailgun import MailgunInboundWebhookView
from django.conf import settings
from django.core.cache import cache
from django.dispatch import receiver

from . import ingest

TOKEN_KEY = "mailin:mailgun-token:{}"


class InboundWebhookView(MailgunInboundWebhookView):
    def __init__(self, **kwargs):
        kwargs.setdefault("webhook_signing_key", _anymail("MAILGUN_WEBHOOK_SIGNING_KEY") or "-unset-")
        super().__init__(**kwargs)

    def validate_request(self, request):
        # Runs beside (before) anymail's own basic-auth and signature validators.
        if not _anymail("MAILGUN_WEBHOOK_SIGNING_KEY") or not _anymail("WEBHOOK_SECRET"):
            raise AnymailWebhookValidationFailure("the inbound webhook is not configured (signing key and basic auth)")
        timestamp, _ = _signature_fields(request)
        try:
            age = abs(time.time() - float(timestamp))
        except (TypeError, ValueError, OverflowError):
            raise AnymailWebhookValidationFailure("Mailgun webhook timestamp is not a number") from None
        if not age <= settings.MAILGUN_WEBHOOK_MAX_AGE_SECONDS:
            raise AnymailWebhookValidationFailure("Mailgun webhook timestamp is outside the accepted window")

    def run_validators(self, request):
        super().run_validators(request)
        # Only a correctly signed post gets this far, so only real tokens are kept.
        _, token = _signature_fields(request)
        if not cache.add(TOKEN_KEY.format(token), 1, timeout=2 * settings.MAILGUN_WEBHOOK_MAX_AGE_SECONDS + 60):
            raise AnymailWebhookValidationFailure("Mailgun webhook token seen before (a replayed post)")


def _signature_fields(request) -> tuple[str, str]:
    """Mailgun's timestamp and token, where anymail reads them (a JSON signature block or form fields)."""
    try:
        is_json = request.content_type == "application/json"
        block = json.loads(request.body.decode("utf-8"))["signature"] if is_json else request.POST
        return str(block["timestamp"]), str(block["token"])[:200]
    except (KeyError, TypeError, ValueError, UnicodeDecodeError):
        raise AnymailWebhookValidationFailure("Mailgun webhook called without required security fields") from None


def _anymail(name: str) -> str:
    return (getattr(settings, "ANYMAIL", {}) or {}).get(name, "")


@receiver(inbound, sender=InboundWebhookView, dispatch_uid="mailin-webhook")
def _on_inbound(sender, event, esp_name, **kwargs):
    request = event.esp_event
    raw_text = request.POST.get("body-mime") if hasattr(request, "POST") else None
    raw = raw_text.encode("utf-8", "surrogateescape") if raw_text else event.message.as_bytes()
    raw = vouched(raw, envelope_sender=event.message.envelope_sender or "")
    try:
        ingest.ingest_deliveries(raw, via="webhook", envelope_to=event.message.envelope_recipient or "")
    except Exception:
        # Not stored: Mailgun will post it again (a 500 means "later"), with this token.
        cache.delete(TOKEN_KEY.format(_signature_fields(request)[1]))
        raise


VERDICTS = ("pass", "fail", "softfail", "neutral", "none", "temperror", "permerror")
_ADDRESS = re.compile(r"[^\s;()<>\"\\]{1,254}@[A-Za-z0-9.-]{1,253}")
_DOMAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9.-]{0,252}")


def vouched(raw: bytes, *, envelope_sender: str) -> bytes:
    """``raw`` with our Authentication-Results on top, written from Mailgun's own verdicts (see
    the module's words); "<our id>; none" when Mailgun gave none."""
    headers = BytesHeaderParser(policy=compat32).parsebytes(raw[: 256 * 1024])
    results = []
    spf = _verdict(headers.get_all("X-Mailgun-Spf") or [])
    if spf:
        sender = envelope_sender.strip().strip("<>")
        results.append(f"spf={spf}" + (f" smtp.mailfrom={sender}" if _ADDRESS.fullmatch(sender) else ""))
    dkim = _verdict(headers.get_all("X-Mailgun-Dkim-Check-Result") or [])
    if dkim:
        signatures = headers.get_all("DKIM-Signature") or []
        domain = _signing_domain(str(signatures[0])) if len(signatures) == 1 else ""
        results.append(f"dkim={dkim}" + (f" header.d={domain}" if domain else ""))
    eol = b"\r\n" if b"\r\n" in raw[:4096] else b"\n"
    value = f"{settings.MAIL_AUTHSERV_ID}; " + ("; ".join(results) or "none")
    return b"Authentication-Results: " + value.encode("ascii", "replace") + eol + raw


def _verdict(values: list) -> str:
    """Mailgun's verdict in the topmost of its headers (the one it added), in RFC 8601's words."""
    word = str(values[0]).strip().split()[0].lower() if values and str(values[0]).strip() else ""
    return word if word in VERDICTS else ""


def _signing_domain(signature: str) -> str:
    m = re.search(r"(?:^|;)\s*d\s*=\s*([^;\s]+)", signature)
    return m.group(1).lower() if m and _DOMAIN.fullmatch(m.group(1)) else ""

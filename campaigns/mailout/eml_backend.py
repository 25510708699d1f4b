"""Embedded-mode mail: each outgoing message becomes one .eml file in OUTBOX_DIR.

Django's own file backend appends many messages to one .log file with
separators; one standard .eml per message opens in any mail client and is
what a reply-from-file command can read back.
"""

import threading
import uuid
from pathlib import Path

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend
from django.utils import timezone

_lock = threading.Lock()


class EmlFileBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        outbox = Path(settings.OUTBOX_DIR)
        outbox.mkdir(parents=True, exist_ok=True)
        sent = 0
        for message in email_messages:
            stamp = timezone.now().strftime("%Y%m%dT%H%M%S%f")
            path = outbox / f"{stamp}-{uuid.uuid4().hex[:8]}.eml"
            data = message.message().as_bytes(linesep="\r\n")
            with _lock:
                path.write_bytes(data)
            sent += 1
        return sent

"""Read one raw message on stdin and ingest it: the target of an MTA pipe.

Postfix (deploy/postfix/) runs it per message with the envelope recipient.
Exit status follows sysexits, as MTAs expect: 0 once the message is stored
(whatever processing then decides: it is recorded and retried from the
store), 75 (EX_TEMPFAIL) when it could not be stored, so the MTA keeps the
message and tries again later. Nothing the MTA handed us is ever lost.
"""

import logging
import sys

from django.core.management.base import BaseCommand

from campaigns.mailin import ingest

EX_TEMPFAIL = 75
log = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Ingest one raw RFC 5322 message read from standard input (for an MTA pipe)."

    def add_arguments(self, parser):
        parser.add_argument("--recipient", default="", help="the envelope recipient (Postfix: ${recipient})")

    def handle(self, *args, recipient="", **options):
        raw = sys.stdin.buffer.read()
        if not raw.strip():
            self.stderr.write("ingest_mail: standard input is empty; expected one raw message")
            sys.exit(EX_TEMPFAIL)
        try:
            row, _ = ingest.store(raw, via="pipe", envelope_to=recipient)
        except Exception as exc:  # database down: the MTA must keep the message
            log.error("ingest_mail could not store the message (%s)", type(exc).__name__)
            self.stderr.write(f"ingest_mail: could not store the message: {type(exc).__name__}")
            sys.exit(EX_TEMPFAIL)
        try:
            row = ingest.process(row.pk)
        except Exception as exc:  # stored: the retry task processes it later; the MTA is done
            log.error("inbound message %s stored, processing deferred (%s)", row.pk, type(exc).__name__)
        self.stdout.write(f"inbound message {row.pk}: {row.status}")

"""./kb take_over_legacy_queue: what the maintenance worker does every LEGACY_QUEUE_INTERVAL_SECONDS,
by hand, with each message said: 0.1.0's queue emptied, the work its messages stood for left to the
rescue (campaigns/legacyqueue.py says why that does it once)."""

import logging

from django.core.management.base import BaseCommand, CommandError

from campaigns import legacyqueue


class Command(BaseCommand):
    help = (
        "Take over the messages 0.1.0 left in Celery's old default queue (LEGACY_CELERY_QUEUES): each is "
        "logged and removed, its work done by this release's rescue; a message of a task this release does "
        "not know is kept aside and listed."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--list", action="store_true", help="only show what waits and what was kept aside; take nothing"
        )
        parser.add_argument(
            "--forget-kept",
            action="store_true",
            help="delete the messages kept aside (no task of this release stands for them), once read",
        )

    def handle(self, *args, **opts):
        # What the worker logs per message, this command prints: its log says only what goes wrong.
        logging.getLogger(legacyqueue.__name__).setLevel(logging.WARNING)
        conn = legacyqueue.client()
        if conn is None:
            raise CommandError("no Redis broker is configured (CELERY_BROKER_URL): there is no old queue to read")
        try:
            if opts["list"]:
                self._list(conn)
            elif opts["forget_kept"]:
                self._show_kept(conn)
                self.stdout.write(f"forgot {legacyqueue.forget_kept(conn)} kept message(s)")
            else:
                self._take(conn)
        finally:
            conn.close()

    def _take(self, conn):
        outcome = legacyqueue.take_over(conn)
        if outcome.adopted_sends:
            self.stdout.write(f"{outcome.adopted_sends} outbox row(s) left SENDING by 0.1.0 given their lease back")
        for queue, message, what in outcome.taken:
            self.stdout.write(f"{queue}: {message.label()}: {what}")
        for queue, message in outcome.kept:
            self.stdout.write(f"{queue}: {message.task or '(unreadable)'}: KEPT in {legacyqueue.kept_list(queue)}")
        left = legacyqueue.depths(conn)
        self.stdout.write(
            f"taken over {len(outcome.taken)}, kept aside {len(outcome.kept)}; "
            f"waiting now {sum(left.waiting.values())}, kept in all {sum(left.kept.values())}"
        )

    def _list(self, conn):
        for queue, messages in legacyqueue.waiting_messages(conn).items():
            self.stdout.write(f"{queue}: {len(messages)} waiting")
            for message in messages:
                self.stdout.write(f"  {message.label() if message.task else '(unreadable)'}")
        self._show_kept(conn)

    def _show_kept(self, conn):
        for queue, messages in legacyqueue.kept_messages(conn).items():
            self.stdout.write(f"{legacyqueue.kept_list(queue)}: {len(messages)} kept")
            for message in messages:
                self.stdout.write(f"  {message.label() if message.task else '(unreadable)'} id={message.id}")

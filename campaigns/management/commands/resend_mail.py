from django.core.management.base import BaseCommand, CommandError

from campaigns.mailout import outbox
from campaigns.models import OutboxMail

from ._common import get_game


class Command(BaseCommand):
    help = "Queue DEAD outgoing mail again (attempts start afresh; the Message-ID is kept)."

    def add_arguments(self, parser):
        parser.add_argument("ids", nargs="*", type=int, help="outbox row ids (see outbox_dead)")
        parser.add_argument("--game", help="every dead row of this game (id or uid)")

    def handle(self, *args, **opts):
        if bool(opts["ids"]) == bool(opts["game"]):
            raise CommandError("give row ids or --game N (one of them)")
        rows = OutboxMail.objects.filter(pk__in=opts["ids"]) if opts["ids"] else outbox.dead(get_game(opts["game"]))
        for pk, status in rows.exclude(status=OutboxMail.Status.DEAD).values_list("pk", "status"):
            self.stderr.write(f"row {pk} is {status}, not dead: left alone")
        missing = set(opts["ids"]) - set(OutboxMail.objects.filter(pk__in=opts["ids"]).values_list("pk", flat=True))
        if missing:
            raise CommandError(f"no outbox row {', '.join(map(str, sorted(missing)))}")
        self.stdout.write(f"{outbox.resend(rows)} queued again")

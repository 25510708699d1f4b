from django.core.management.base import BaseCommand

from campaigns.mailout import outbox

from ._common import get_game


class Command(BaseCommand):
    help = "List the outgoing mail given up on (DEAD after every attempt failed): id, game, kind, to, last error."

    def add_arguments(self, parser):
        parser.add_argument("--game", help="only this game's (id or uid)")

    def handle(self, *args, **opts):
        rows = outbox.dead(get_game(opts["game"]) if opts["game"] else None)
        for row in rows:
            error = (row.last_error.splitlines() or [""])[0][:120]
            self.stdout.write(
                f"{row.pk}\tgame {row.game_id or '-'}\t{row.kind}\t{row.to}\t{row.attempts} attempts\t{error}"
            )
        self.stdout.write(f"{rows.count()} dead; resend with: resend_mail <id> | resend_mail --game N")

import sys

from django.core.management.base import BaseCommand, CommandError

from campaigns.turns.archive import ImportRejected, import_stream
from campaigns.turns.gamelog import head


class Command(BaseCommand):
    help = "Import a complete game export (JSON Lines) into a database that does not hold that game."

    def add_arguments(self, parser):
        parser.add_argument("file", help="export file, or - for stdin")

    def handle(self, *args, **opts):
        try:
            if opts["file"] == "-":
                game = import_stream(sys.stdin)
            else:
                with open(opts["file"], encoding="utf-8") as fh:
                    game = import_stream(fh)
        except (ImportRejected, OSError) as exc:
            raise CommandError(str(exc)) from None
        seq, digest = head(game.pk)
        self.stdout.write(f"imported game {game.pk} {game.uid}: {seq} events, head {digest}")

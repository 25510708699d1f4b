from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from campaigns.models import Game
from campaigns.turns.gamelog import head, verify_game

from ._common import game_arg, get_game


class Command(BaseCommand):
    help = "Verify a game's log: hash chain, gapless sequence, snapshots, and re-adjudication from revealed seeds."

    def add_arguments(self, parser):
        game_arg(parser)

    def handle(self, *args, **opts):
        games = Game.objects.order_by("pk") if opts["game"] == "all" else [get_game(opts["game"])]
        failed = 0
        for game in games:
            with tqdm(total=head(game.pk)[0], desc=f"game {game.pk}", disable=not opts["progress"]) as bar:
                report = verify_game(game, progress=bar.update)
            status = "OK" if report.ok else "FAILED"
            self.stdout.write(
                f"game {game.pk} {game.uid}: {status} — {report.events} events, "
                f"{report.snapshots} snapshots, {report.adjudications} adjudications re-run"
            )
            for problem in report.problems:
                self.stdout.write(f"  {problem}")
            failed += not report.ok
        if failed:
            raise CommandError(f"{failed} game(s) failed verification")

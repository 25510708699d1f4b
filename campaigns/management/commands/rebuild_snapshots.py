from django.core.management.base import BaseCommand
from tqdm import tqdm

from campaigns.models import Game
from campaigns.turns.gamelog import head, rebuild_snapshots

from ._common import game_arg, get_game


class Command(BaseCommand):
    help = "Drop and rebuild the snapshots of a game (or all) from its events."

    def add_arguments(self, parser):
        game_arg(parser)

    def handle(self, *args, **opts):
        games = Game.objects.order_by("pk") if opts["game"] == "all" else [get_game(opts["game"])]
        for game in games:
            with tqdm(total=head(game.pk)[0], desc=f"game {game.pk}", disable=not opts["progress"]) as bar:
                made = rebuild_snapshots(game.pk, progress=bar.update)
            self.stdout.write(f"game {game.pk}: {made} snapshots rebuilt from {head(game.pk)[0]} events")

import sys
from contextlib import nullcontext

from django.core.management.base import BaseCommand, CommandError

from campaigns.turns.archive import export_lines
from rules.core.protocol import Viewer

from ._common import get_game


class Command(BaseCommand):
    help = "Export a game's log as JSON Lines (complete, or as one side would see it)."

    def add_arguments(self, parser):
        parser.add_argument("game", help="game id or uid")
        parser.add_argument("-o", "--output", help="file to write (default: stdout)")
        parser.add_argument("--side", help="export only what this side's player may see")
        parser.add_argument("--observer", action="store_true", help="export only what an observer may see")

    def handle(self, *args, **opts):
        game = get_game(opts["game"])
        viewer = None
        if opts["side"]:
            if not game.seats.filter(role="player", side=opts["side"]).exists():
                raise CommandError(f"game {game.pk} has no side {opts['side']!r}")
            viewer = Viewer("player", opts["side"])
        elif opts["observer"]:
            viewer = Viewer("observer")
        with open(opts["output"], "w", encoding="utf-8") if opts["output"] else nullcontext(sys.stdout) as out:
            for line in export_lines(game, viewer):
                out.write(line + "\n")

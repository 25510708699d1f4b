"""Shared argument handling for the game management commands."""

from django.core.management.base import CommandError

from campaigns.models import Game


def game_arg(parser):
    parser.add_argument("game", help="game id, uid, or 'all'")
    parser.add_argument("--no-progress", dest="progress", action="store_false", help="hide the progress bar")


def get_game(ref: str) -> Game:
    try:
        return Game.objects.get(pk=int(ref)) if ref.isdigit() else Game.objects.get(uid=ref)
    except (Game.DoesNotExist, ValueError):
        raise CommandError(f"no game {ref!r}") from None

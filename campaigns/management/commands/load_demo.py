"""A demo campaign ready to play: a Civil War game with a few turns behind it, and a Little Wars
skirmish, a Kriegspiel game, a War of the Worlds field battle, a Kings of War pitched battle and a
Napoleon's War game (Quatre Bras) waiting for their first orders.

Safe to run twice: a demo game that exists is left as it is.
"""

import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaigns.models import Campaign, Game, Profile
from campaigns.turns import commands, creation, gamelog
from campaigns.turns.state import TurnStatus
from rules import catalog

PASSWORD = "kriegsbrief"
DEMO_GAME = "Demo: Civil War"
# Simultaneous games, fresh: turn 1 open for both sides (Little Wars and the Kriegspiel deploy
# behind the curtain; War of the Worlds opens with its first movement round).
FRESH_GAMES = [
    ("Demo: Little Wars skirmish", "littlewars", "skirmish"),
    ("Demo: Kriegspiel", "kriegspiel", None),
    ("Demo: War of the Worlds", "warworlds", "field_battle"),
]
# Alternating, fresh: the side that moves first orders in turn 1 (Quatre Bras opens with blue's
# 0-point turn, NW-55).
FRESH_GAMES += [
    ("Demo: Kings of War", "kingsofwar", "pitched"),
    ("Demo: Napoleon's War, Quatre Bras", "napoleon", "quatre_bras"),
]
PEOPLE = [("umpire", "UTC"), ("red", "Europe/Berlin"), ("blue", "America/New_York")]


def demo_user(username: str, tz: str):
    User = get_user_model()
    user, created = User.objects.get_or_create(username=username, defaults={"email": f"{username}@demo.localhost"})
    if created:
        user.set_password(PASSWORD)
        user.save()
    # Demo people have confirmed their (local) addresses, so they can accept invitations to new games.
    Profile.objects.get_or_create(user=user, defaults={"timezone": tz, "verified_email": user.email})
    return user


def play_turns(game: Game, count: int, seed: int = 2) -> None:
    """Play ``count`` turns with a fixed choice of legal orders, as players would."""
    rs = catalog.get(game.ruleset)
    choose = random.Random(seed)
    for _ in range(count):
        state = gamelog.load(game.pk).state
        turn = state.turn
        if turn.status != TurnStatus.OPEN:
            return
        side = turn.sides[0]
        if turn.kind == "orders":
            options = rs.legal_operations(state.rules, side)
            forms = [o for o in options if o.startswith("form")]
            text = choose.choice(options if choose.random() < 0.6 or not forms else forms)
        else:
            text = rs.default_orders(state.rules, side, turn.kind)
        commands.submit_orders(game.pk, side, text, source="web", by=side)


class Command(BaseCommand):
    help = "Load the demo campaign: users umpire, red, blue (password 'kriegsbrief') and a Civil War game."

    def add_arguments(self, parser):
        parser.add_argument("--turns", type=int, default=4, help="turns to play before handing over")

    def handle(self, *args, **opts):
        users = {name: demo_user(name, tz) for name, tz in PEOPLE}
        campaign, _ = Campaign.objects.get_or_create(
            name="Demo campaign",
            defaults={"description": "A campaign to try Kriegsbrief with.", "created_by": users["umpire"]},
        )
        seats = [
            {"role": "umpire", "user": users["umpire"], "email": "umpire@demo.localhost"},
            {"role": "player", "side": "red", "user": users["red"], "email": "red@demo.localhost"},
            {"role": "player", "side": "blue", "user": users["blue"], "email": "blue@demo.localhost"},
        ]
        if Game.objects.filter(name=DEMO_GAME).exists():
            self.stdout.write("The demo is already loaded.")
        else:
            with transaction.atomic():
                game = creation.create_game(
                    campaign=campaign,
                    name=DEMO_GAME,
                    ruleset="civilwar",
                    seats=seats,
                    settings={"deadline_hours": 72, "decision_deadline_hours": 24},
                    operator=True,
                )
            play_turns(game, opts["turns"])
            game.refresh_from_db()
            self.stdout.write(f"Loaded '{DEMO_GAME}' (game {game.pk}), now at turn {game.turn_number}.")
        for name, ruleset, scenario in FRESH_GAMES:
            if not Game.objects.filter(name=name).exists():
                game = creation.create_game(
                    campaign=campaign,
                    name=name,
                    ruleset=ruleset,
                    scenario=scenario,
                    seats=seats,
                    settings={"deadline_hours": 72},
                    operator=True,
                )
                sides = gamelog.load(game.pk).state.turn.sides
                self.stdout.write(f"Loaded '{name}' (game {game.pk}): {' and '.join(sides)} to give the first orders.")

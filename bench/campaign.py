"""A campaign's cost: the strategic game's page with 5 and with 50 battles, and spawning a battle.

Two Civil War campaigns are played (on PostgreSQL, tasks in-process) by a player that assaults
whenever it can, their battles decided by the strategic rules as they join (battle_ruleset
"rules"), until one has 5 battles and the other 50; then red's game page, Battles card and map
included, is asked N times through Django's test client and timed (best of ROUNDS rounds, wall ms a
request). ``spawn_battle_ms``: the umpire's choice of Little Wars for a waiting battle, i.e. its
scenario built and a new game created, set up and begun with its seats and first mails (best of
SPAWNS). Targets (issue 28): campaign_page_ms_50 <= 50 and <= 1.5 x campaign_page_ms_5.

Run: python bench/campaign.py [--requests N] [--rounds R] [--spawns S]   (PostgreSQL at
BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/kriegsbrief_bench). Ends with one
key=value line.
"""

import argparse
import os
import random
import sys
import time
import uuid
from pathlib import Path

os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")
os.environ.setdefault("CELERY_BROKER_URL", "")
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("ORDERS_PER_SEAT_PER_MINUTE", "0")  # a scripted war orders faster than any person
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _setup import setup_django

setup_django()

from django.contrib.auth import get_user_model
from django.test import Client
from django.test.utils import override_settings

from campaigns.battles import linking, record
from campaigns.models import Campaign, Profile
from campaigns.turns import commands, creation, gamelog
from rules.civilwar import RULESET as CW


def people() -> dict:
    tag = uuid.uuid4().hex[:8]
    out = {}
    for name in ("ump", "red", "blue"):
        user = get_user_model().objects.create_user(f"{name}{tag}", f"{name}{tag}@example.org", "long bench password")
        Profile.objects.create(user=user, verified_email=user.email)
        out[name] = user
    return out


def campaign_game(users: dict, battle_ruleset: str):
    return creation.create_game(
        campaign=Campaign.objects.create(name=f"Bench campaign {uuid.uuid4().hex[:6]}"),
        name="Civil War",
        ruleset="civilwar",
        options={"battles": True},
        settings={"battle_ruleset": battle_ruleset},
        seats=[
            {"role": "umpire", "user": users["ump"], "email": users["ump"].email},
            {"role": "player", "side": "red", "user": users["red"], "email": users["red"].email},
            {"role": "player", "side": "blue", "user": users["blue"], "email": users["blue"].email},
        ],
        operator=True,
    )


def play_until(game, battles: int, seed: int = 1) -> int:
    """Turns by a player that assaults whenever it can, forms else, moves else; the battles joined."""
    rng = random.Random(seed)
    for _ in range(4000):
        state = gamelog.load(game.pk).state
        joined = len(record.battles(game.campaign))
        if joined >= battles or state.status != "active":
            return joined
        side = state.turn.sides[0]
        ops = CW.legal_operations(state.rules, side) if state.turn.kind == "orders" else []
        text = next(
            (
                rng.choice([o for o in ops if o.startswith(p)])
                for p in ("assault", "form")
                if any(o.startswith(p) for o in ops)
            ),
            None,
        )
        if text is None:
            text = rng.choice(ops) if ops else CW.default_orders(state.rules, side, state.turn.kind)
        result = commands.submit_orders(game.pk, side, text, source="api", by="bench", ready=True)
        assert result.accepted, result.errors
    return len(record.battles(game.campaign))


def page_ms(client: Client, url: str, n: int, rounds: int) -> float:
    client.get(url)  # warm
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(n):
            resp = client.get(url)
            assert resp.status_code == 200, resp.status_code
        best = min(best, (time.perf_counter() - start) * 1000 / n)
    return best


def spawn_ms(users: dict, spawns: int) -> float:
    best = float("inf")
    for k in range(spawns):
        game = campaign_game(users, "ask")
        play_until(game, 1, seed=100 + k)
        (battle,) = record.battles(game.campaign).values()
        start = time.perf_counter()
        linking.choose(game, battle.battle, "littlewars")
        best = min(best, (time.perf_counter() - start) * 1000)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--spawns", type=int, default=5)
    args = ap.parse_args()
    users = people()
    figures: dict[str, float] = {}
    with override_settings(ALLOWED_HOSTS=["*"], SECURE_SSL_REDIRECT=False):
        client = Client()
        client.force_login(users["red"])
        for n in (5, 50):
            game = campaign_game(users, "rules")
            joined = 0
            seed = n
            while joined < n:  # a war that ends before n battles is played again with other dice
                joined = play_until(game, n, seed)
                if joined < n:
                    game, seed = campaign_game(users, "rules"), seed + 1000
            figures[f"campaign_page_ms_{n}"] = page_ms(client, f"/games/{game.pk}/", args.requests, args.rounds)
            print(f"{n} battles: red's page {figures[f'campaign_page_ms_{n}']:.1f} ms")
        figures["spawn_battle_ms"] = spawn_ms(users, args.spawns)
    ratio = figures["campaign_page_ms_50"] / figures["campaign_page_ms_5"]
    print(
        " ".join(f"{k}={v:.1f}" for k, v in figures.items())
        + f" page_50_over_5={ratio:.2f} load_avg={os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()

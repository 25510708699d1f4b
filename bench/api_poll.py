"""A poll's CPU in the web process: GET /api/games/<id>/view/ beside a bare Django view.

What bench/load.py's players do 40 at a time (issue 18): a player's view asked with a knox token
and If-None-Match (mostly answered 304), and the probe's whole view (no ETag, 200). Each is asked
N times through Django's test client (the whole middleware stack and URL resolution, no HTTP or
gunicorn, but the kept connection's health check due at each request as under gunicorn),
timed by this process's CPU clock, so the figure is the handler's own: the database
server's time is not in it, the round trips' client side is. The baseline is a bare Django view
returning the same JSON bytes (behind the same middleware), i.e. what Django itself costs a
request here; ``poll_over_bare`` is our figure over it.

The 304 is answered from the ETag kept for what red's view is made from (issue 34: the token's
statement and the seat's with the heads of the log red may see; nothing loaded, folded or
rendered); the probe's 200 makes the body.

The machine may be shared: CPU time is steadier than wall time, and ROUNDS rounds are taken,
each figure the best one. ``--profile`` prints cProfile's top functions of the 304 poll instead
(CPU time; ``--sort cumulative`` for cProfile's other order).

Run: python bench/api_poll.py [--requests N] [--rounds R] [--profile [--sort S]]   (PostgreSQL at
BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/kriegsbrief_bench; Redis at
BENCH_REDIS_URL for the invitations' mail, which nothing consumes). Ends with one key=value line.
"""

import argparse
import cProfile
import os
import pstats
import sys
import time
import uuid
from pathlib import Path

os.environ.setdefault("CELERY_BROKER_URL", os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13"))
os.environ.setdefault("DEBUG", "0")
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _setup import setup_django

setup_django()

from django.contrib.auth import get_user_model
from django.db import close_old_connections
from django.http import HttpResponse
from django.test import Client
from django.test.utils import override_settings
from django.urls import include, path
from knox.models import AuthToken

from campaigns.models import Campaign, Profile
from campaigns.turns import creation

BODY: dict[str, bytes] = {}
WALL: dict[tuple[str, bool], float] = {}  # (url, conditional) -> best wall ms a request


def bare(request):
    """The baseline: the same bytes, no authentication, no lookup."""
    return HttpResponse(BODY["view"], content_type="application/json")


urlpatterns = [path("bare/", bare), path("", include("kriegsbrief.urls"))]


def make_game():
    tag = uuid.uuid4().hex[:8]
    users = {}
    for name in ("ump", "red", "blue"):
        user = get_user_model().objects.create_user(f"{name}{tag}", f"{name}{tag}@example.org", "long bench password")
        Profile.objects.create(user=user, verified_email=user.email)
        users[name] = user
    game = creation.create_game(
        campaign=Campaign.objects.create(name=f"Bench {tag}"),
        name=f"Poll bench {tag}",
        ruleset="civilwar",
        settings={},
        seats=[
            {"role": "umpire", "user": users["ump"], "email": users["ump"].email},
            {"role": "player", "side": "red", "user": users["red"], "email": users["red"].email},
            {"role": "player", "side": "blue", "user": users["blue"], "email": users["blue"].email},
        ],
        operator=True,
    )
    return game, AuthToken.objects.create(users["red"])[1]


def cpu_ms(client, url: str, n: int, **headers) -> float:
    """CPU ms a request; the wall ms a request (round trips included) kept in WALL[url]."""
    client.get(url, **headers)  # warm
    start, wall = time.process_time(), time.perf_counter()
    for _ in range(n):
        client.get(url, **headers)
        # What Django does at each request's end and start (the test client leaves it out): the
        # kept connection's health check is due again, as under gunicorn.
        close_old_connections()
    WALL[url, bool(headers)] = min(
        WALL.get((url, bool(headers)), float("inf")), (time.perf_counter() - wall) * 1000 / n
    )
    return (time.process_time() - start) * 1000 / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--sort", default="tottime", help="cProfile's order with --profile (e.g. cumulative)")
    args = ap.parse_args()
    game, token = make_game()
    url = f"/api/games/{game.pk}/view/"
    # Token users only: the test client sends no cookie, as bench/load.py's players.
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    with override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["*"], SECURE_SSL_REDIRECT=False):
        first = client.get(url)
        assert first.status_code == 200, first.status_code
        BODY["view"], etag = first.content, first["ETag"]
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
        if args.profile:
            prof = cProfile.Profile(time.process_time)  # CPU, as the figures are
            prof.runcall(cpu_ms, client, url, args.requests, HTTP_IF_NONE_MATCH=etag)
            pstats.Stats(prof).sort_stats(args.sort).print_stats(40)
            return
        best = {"poll": float("inf"), "probe": float("inf"), "bare": float("inf")}
        for r in range(args.rounds):
            got = {
                "bare": cpu_ms(client, "/bare/", args.requests),
                "poll": cpu_ms(client, url, args.requests, HTTP_IF_NONE_MATCH=etag),
                "probe": cpu_ms(client, url, args.requests),
            }
            print(f"round {r + 1}: " + " ".join(f"{k}={v:.2f}" for k, v in got.items()) + " (CPU ms/request)")
            best = {k: min(best[k], got[k]) for k in best}
    print(
        f"poll_cpu_ms={best['poll']:.2f} probe_cpu_ms={best['probe']:.2f} bare_cpu_ms={best['bare']:.2f} "
        f"poll_over_bare={best['poll'] / best['bare']:.1f} poll_wall_ms={WALL[url, True]:.2f} load_avg={os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()

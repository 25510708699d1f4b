"""Golden data made BY THE OLD RELEASE 2c3e6be: a database, game logs and a Redis queue to upgrade from.

What it makes (in --out, default tests/golden/0.1.0 beside this folder):
  <slug>.jsonl        each game's complete (umpire) log, written by the old release's `export_game`
  database.sql.gz     `pg_dump --no-owner --no-privileges` of the old release's database, gzipped
  redis-db14.json     every key of the Celery broker's Redis db at "upgrade time": {key: {type, items}}
  MANIFEST.json       the games and their states, queued tasks, outbox rows, `verify_game all` output
  (README.md there is written by hand and left as it is)

How to re-run it (needs the old release checked out, its own venv, PostgreSQL and Redis):

  git -C /work/main worktree add --detach /work/old-2c3e6be 2c3e6be        # once
  python3 -m venv /work/old-2c3e6be/.venv && /work/old-2c3e6be/.venv/bin/pip install -e '/work/old-2c3e6be[test]'
  cd /work/old-2c3e6be && .venv/bin/python /work/main/tests/golden/build/release_2c3e6be.py \\
      --out /work/main/tests/golden/0.1.0

  Options: --db-name (default kb_release_2c3e6be; DROPPED and re-created), --pg-url (default
  postgres://postgres@127.0.0.1:5432), --redis-url (default redis://127.0.0.1:6379/14; FLUSHED),
  --work (scratch folder for the old release's var/: sent mail as .eml files; default a temp dir).
  Nothing may consume that Redis db while it runs (no Celery worker): the queued work is the point.

The old code is driven only through its own channels: users are made as its tests and load_demo make
them (create_user + Profile); games are created on its web page /games/new/ (Django's test Client,
in-process); orders, readiness, umpire approval/amendment/rulings/deadlines go through its REST API
(DRF's APIClient with tokens from /api/auth/token/); orders by mail are real RFC 5322 replies to the
seat's latest mail, piped through its `ingest_mail` management command; the logs come from its
`export_game`, the checks from its `verify_game all`. Orders are chosen by the old release's own
bots (rules.littlewars.testing.bot_orders on the player's own API view; rules.civilwar
legal_operations, as load_demo does) or scripted (Kriegspiel works). The run has two phases, each a
process of its own, because the old settings read the broker from the environment at start-up:
  play      no broker: Celery tasks run in-process (eager), mail is written as .eml files
  inflight  CELERY_BROKER_URL set, no worker: the old release queues real work that nothing runs:
            a deadline sweep (as beat's task would run it) closes a turn whose deadline passed,
            two more turns close (both sides ready, by API and by mail), mail is queued in the outbox.
Dice seeds are the old release's own random ones, so a re-run makes different (equally valid) games:
the same games in the same kinds of state, but where dice decide (when the Little Wars bots' battle
ends, what Civil War's random operations lead to) turn numbers and results may differ; MANIFEST.json
records what this run made.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone as dt_timezone
from pathlib import Path

RELEASE = "2c3e6be"
SECRET_KEY = "kriegsbrief-golden-release-2c3e6be"  # fixed: cursors, Message-IDs and tokens depend on it
HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE.parent / RELEASE
PASSWORD = "golden-{}-pw"

# (username, time zone, display name)
PEOPLE = [
    ("ursula", "Europe/Berlin", "Ursula Umpire"),
    ("umberto", "Europe/Rome", "Umberto Arbitro"),
    ("rolf", "Europe/Berlin", "Rolf Becker"),
    ("bertha", "America/New_York", "Bertha Blake"),
    ("kenji", "Asia/Tokyo", "Kenji Sato"),
    ("maria", "America/Sao_Paulo", "Maria Souza"),
    ("olga", "UTC", "Olga Observer"),
]


def email_of(username: str) -> str:
    return f"{username}@players.example"


# slug -> how the game is made and played. "red"/"blue" are usernames; channel is api or mail.
GAMES = {
    "civilwar-swept": dict(
        ruleset="civilwar",
        name="Border states (short deadlines)",
        umpire="ursula",
        red="kenji",
        blue="maria",
        channels=["api", "sweep"],
        form={"deadline_hours": 0.03, "decision_deadline_hours": 0.03},
        notes="three operations by API, then a 108-second deadline nobody met: the sweep at upgrade time closed the turn (the side to move defaulted); its adjudication is queued, not run",
    ),
    "civilwar-api-finished": dict(
        ruleset="civilwar",
        name="The Divided Country, first campaign",
        umpire="ursula",
        red="rolf",
        blue="bertha",
        channels=["api"],
        notes="twelve operations from legal_operations by API (attacks preferred, decision turns answered, standing instructions now and then), then passes until the game ended (six passes in a row: a draw)",
    ),
    "civilwar-api-open": dict(
        ruleset="civilwar",
        name="The Divided Country, return match",
        umpire="ursula",
        red="bertha",
        blue="kenji",
        channels=["api"],
        notes="seven operations by API; the umpire moved the deadline a day later by API (players told by mail); the side to move sent its orders without marking itself ready: the turn is open with orders in",
    ),
    "civilwar-mail": dict(
        ruleset="civilwar",
        name="River war by post",
        umpire="umberto",
        red="maria",
        blue="rolf",
        channels=["mail"],
        form={"absence_days": 3},
        notes="every operation by mail through ingest_mail: STATUS, a refused line then right orders, an HTML reply, ABSENT UNTIL and BACK, MESSAGE umpire; open, quiet",
    ),
    "littlewars-api": dict(
        ruleset="littlewars",
        name="Skirmish at the farm",
        umpire="ursula",
        red="rolf",
        blue="kenji",
        channels=["api"],
        observers="olga",
        notes="red deployed foot1 and set a melee choice, then the old bot (bot_orders on each player's API view) by API for up to five turns (the skirmish's bots usually end it sooner)",
    ),
    "littlewars-mail": dict(
        ruleset="littlewars",
        name="Skirmish by letter",
        umpire="umberto",
        red="bertha",
        blue="maria",
        channels=["mail"],
        form={"press": "all"},
        notes="by mail: READY, an ORDERS block with chatter, bot orders, orders in a .txt attachment with WAIT then READY alone, MESSAGE red (press all); a DMARC-failed STATUS is held for the umpire; open, quiet",
    ),
    "littlewars-open": dict(
        ruleset="littlewars",
        name="Orchard skirmish",
        umpire="ursula",
        red="kenji",
        blue="rolf",
        channels=["api"],
        notes="two turns of bots by API; red's turn-4 orders in and ready, blue silent (a waiting notice queued at upgrade time)",
    ),
    "littlewars-closed": dict(
        ruleset="littlewars",
        name="Garden wall skirmish",
        umpire="ursula",
        red="maria",
        blue="bertha",
        channels=["api"],
        notes="two turns of bots by API; red's turn-4 orders in; at upgrade time blue's orders by API closed the turn: adjudication queued, not run",
    ),
    "kriegspiel-api": dict(
        ruleset="kriegspiel",
        name="Kriegspiel at the farm I",
        umpire="umberto",
        red="rolf",
        blue="bertha",
        channels=["api"],
        observers="olga",
        notes="nine turns by API: red laid a mine and dug an entrenchment, blue a gun pit and an entrenchment (finished, revealed after turn 5); red's sappers marched over their own armed mine in turn 8: it exploded",
    ),
    "kriegspiel-mail": dict(
        ruleset="kriegspiel",
        name="Kriegspiel by post",
        umpire="ursula",
        red="kenji",
        blue="maria",
        channels=["mail"],
        notes="five turns by mail: red's entrenchment and gun pit finished and revealed, blue's mine half laid (hidden), red's foot2 boxed, moved and unboxed; STATUS and RESEND; open, quiet",
    ),
    "kriegspiel-open": dict(
        ruleset="kriegspiel",
        name="Kriegspiel at the farm II",
        umpire="umberto",
        red="maria",
        blue="rolf",
        channels=["api"],
        notes="three turns by API, all four works half built; red's turn-4 orders in and ready, blue silent",
    ),
    "kriegspiel-closed": dict(
        ruleset="kriegspiel",
        name="Kriegspiel at the farm III (by post)",
        umpire="umberto",
        red="bertha",
        blue="kenji",
        channels=["mail"],
        notes="three turns by mail, works half built; red's turn-4 orders in; at upgrade time blue's mailed orders closed the turn: adjudication queued, acknowledgement pending in the outbox",
    ),
    "kriegspiel-approval": dict(
        ruleset="kriegspiel",
        name="Umpired Kriegspiel",
        umpire="ursula",
        red="kenji",
        blue="rolf",
        channels=["api", "umpire"],
        form={"require_approval": "on"},
        notes="require_approval: turn 1 approved; turn 2 amended by the umpire (blue's horse), desk notes to each side, approved; turn 3's results held for the umpire with a public desk note pending",
    ),
}

# --- Kriegspiel scripts (ks_farm: red on the south edge, blue 288 in north) --------------------
# Works: a mine takes 2 figures 6 turns, an entrenchment infantry 4 turns (2 figures an inch), a gun
# pit 6 figures 4 turns; workers stand within 2 in of it and must not move while it is made.
KS_RED_WORKS = "split foot1 2 as sappers nearest 16,3\nmine sappers at 16,4\nentrench foot2 from 29.5,4.5 to 34.5,4.5"
KS_BLUE_WORKS = (
    "split foot2 6 as diggers nearest 30,285\ngunpit diggers at 30.5,285\nentrench foot1 from 13.5,283.5 to 18.5,283.5"
)
KS_API = [  # kriegspiel-api: nine turns; works finished and revealed in turn 5; red's mine armed after
    # turn 7, then red's own sappers march off over it in turn 8 (own mines go off too, RULES.md)
    ("hold", "hold"),
    (KS_RED_WORKS + "\nmove horse to 24,40", KS_BLUE_WORKS + "\nmove horse to 40,250"),
    ("move horse to 24,76", "move horse to 40,214"),
    ("move horse to 24,60\ncolumn foot1", "move horse to 40,230\nlimber gun1"),
    ("line foot1", "unlimber gun1"),
    ("move horse to 24,90", "hold"),
    ("hold", "move horse to 34,240"),
    ("move sappers to 16,14", "hold"),
    ("hold", "hold"),
]
KS_MAIL = [  # kriegspiel-mail: six turns by mail; red's entrenchment and gun pit revealed after turn 5
    ("hold", "deploy horse at 24,280"),
    (
        "entrench foot1 from 13.5,4.5 to 18.5,4.5\nsplit foot2 6 as pitmen nearest 30,3\ngunpit pitmen at 30.5,3",
        "split foot1 2 as sappers nearest 16,285\nmine sappers at 16,284\nmove horse to 24,250",
    ),
    ("box foot2", "move horse to 24,230"),
    ("move foot2 to 36,33", "hold"),
    ("unbox foot2", "move horse to 30,240"),
]
KS_OPEN = [  # kriegspiel-open: three turns, turn 4 open with red's orders in
    ("hold", "hold"),
    (KS_RED_WORKS, KS_BLUE_WORKS),
    ("move horse to 24,40", "move horse to 24,250"),
]
KS_OPEN_RED_T4 = "move horse to 24,70"
KS_CLOSED = [  # kriegspiel-closed (by mail): three turns, turn 4 red in; blue's reply closes it at upgrade time
    ("hold", "hold"),
    (KS_RED_WORKS + "\nmove horse to 24,30", KS_BLUE_WORKS),
    ("move horse to 24,60", "move horse to 24,250"),
]
KS_CLOSED_RED_T4 = "move horse to 24,90"
KS_CLOSED_BLUE_T4 = "move horse to 24,220"


def log(msg: str) -> None:
    print(f"[{datetime.now():%H:%M:%S}] {msg}", flush=True)


# =============================================================================================
# The orchestrator: no Django here; every step is a process of the old release.
# =============================================================================================


def old_root() -> Path:
    root = Path.cwd().resolve()
    if not (root / "manage.py").exists() or not (root / "kriegsbrief" / "settings.py").exists():
        sys.exit("run this from the old release's worktree (cd /work/old-2c3e6be)")
    head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    if not head.startswith(RELEASE):
        sys.exit(f"{root} is at {head[:12]}, not {RELEASE}")
    return root


def phase_env(args, *, broker: bool) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CELERY_", "EMAIL_", "MAIL_", "DATABASE_", "KRIEGSBRIEF_", "DJANGO_"))
    }
    env.update(
        {
            "DATABASE_URL": f"{args.pg_url.rstrip('/')}/{args.db_name}",
            "DEBUG": "true",
            "SECRET_KEY": SECRET_KEY,
            "KRIEGSBRIEF_VAR_DIR": str(Path(args.work) / "var"),
            "DJANGO_SETTINGS_MODULE": "kriegsbrief.settings",
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        }
    )
    if broker:
        env["CELERY_BROKER_URL"] = args.redis_url
    return env


def run(cmd: list[str], env: dict, *, capture: bool = False, check: bool = True) -> subprocess.CompletedProcess:
    log("$ " + " ".join(cmd))
    res = subprocess.run(cmd, env=env, text=True, capture_output=capture)
    if check and res.returncode != 0:
        if capture:
            sys.stderr.write(res.stdout + res.stderr)
        sys.exit(f"failed ({res.returncode}): {' '.join(cmd)}")
    return res


def psql(args, sql: str) -> None:
    subprocess.run(["psql", f"{args.pg_url.rstrip('/')}/postgres", "-v", "ON_ERROR_STOP=1", "-qc", sql], check=True)


def redis_client(url: str):
    import redis

    return redis.Redis.from_url(url)


def dump_redis(url: str) -> dict:
    r = redis_client(url)
    out = {}
    for key in sorted(r.keys("*")):
        kind = r.type(key).decode()
        if kind == "list":
            items = [v.decode() for v in r.lrange(key, 0, -1)]
        elif kind == "set":
            items = sorted(v.decode() for v in r.smembers(key))
        elif kind == "zset":
            items = [[m.decode(), s] for m, s in r.zrange(key, 0, -1, withscores=True)]
        elif kind == "hash":
            items = [[f.decode(), v.decode()] for f, v in sorted(r.hgetall(key).items())]
        elif kind == "string":
            items = [r.get(key).decode()]
        else:
            items = []
        out[key.decode()] = {"type": kind, "items": items}
    return out


# What the old release leaves in its broker db with tasks queued and no worker: the default queue's
# list and kombu's bindings of it (kombu 5.7 also keeps a "permanent" one). Anything else means another
# process (or a worker) used the db.
EXPECTED_KEYS = {"celery", "_kombu.binding.celery", "_kombu.binding_permanent.celery"}


def queued_tasks(dump: dict) -> dict:
    """Task name -> count, and queue -> count, from the kombu messages in the dumped lists."""
    by_task, by_queue = {}, {}
    for key, entry in dump.items():
        if entry["type"] != "list":
            continue
        for raw in entry["items"]:
            try:
                msg = json.loads(raw)
            except ValueError:
                continue
            name = (msg.get("headers") or {}).get("task", "?")
            by_task[name] = by_task.get(name, 0) + 1
            by_queue[key] = by_queue.get(key, 0) + 1
    return {"by_task": by_task, "by_queue": by_queue}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    ap.add_argument("--db-name", default="kb_release_2c3e6be")
    ap.add_argument("--pg-url", default="postgres://postgres@127.0.0.1:5432")
    ap.add_argument("--redis-url", default="redis://127.0.0.1:6379/14")
    ap.add_argument("--work", default="")
    ap.add_argument("--phase", choices=["play", "inflight"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.phase:
        return run_phase(args)

    root = old_root()
    args.work = args.work or tempfile.mkdtemp(prefix="kb-golden-2c3e6be-")
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    py = sys.executable
    me = str(Path(__file__).resolve())
    common = [
        "--db-name",
        args.db_name,
        "--pg-url",
        args.pg_url,
        "--redis-url",
        args.redis_url,
        "--work",
        args.work,
        "--out",
        str(out),
    ]
    quiet, busy = phase_env(args, broker=False), phase_env(args, broker=True)
    commit = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout.strip()

    log(f"old release {commit} at {root}; scratch {args.work}")
    psql(args, f'DROP DATABASE IF EXISTS "{args.db_name}"')
    psql(args, f'CREATE DATABASE "{args.db_name}"')
    r = redis_client(args.redis_url)
    r.flushdb()
    run([py, "manage.py", "migrate", "--noinput", "-v", "1"], quiet)

    # Phase 1: the games, played with tasks in-process
    run([py, me, "--phase", "play", *common], quiet)
    if r.dbsize():
        sys.exit("the play phase left something in Redis: is another process using the broker db?")
    verify_before = run([py, "manage.py", "verify_game", "all", "--no-progress"], quiet, capture=True)
    log("verify_game all (quiet):\n" + verify_before.stdout)

    # Phase 2: the in-flight work, queued on the broker with no worker
    r.flushdb()
    run([py, me, "--phase", "inflight", *common], busy)
    dump = dump_redis(args.redis_url)
    foreign = sorted(set(dump) - EXPECTED_KEYS)
    if foreign:  # another process uses this db (a test's worker?), or a worker took tasks (unacked)
        sys.exit(f"unexpected keys in {args.redis_url}: {foreign}; use a Redis db nothing else uses")
    (out / "redis-db14.json").write_text(json.dumps(dump, indent=1, sort_keys=True) + "\n")
    verify_after = run([py, "manage.py", "verify_game", "all", "--no-progress"], quiet, capture=True)
    log("verify_game all (in flight):\n" + verify_after.stdout)
    if dump_redis(args.redis_url) != dump:
        sys.exit("Redis changed after the in-flight phase: is a worker consuming the queue?")

    # Exports, the database dump, the manifest
    games = json.loads((Path(args.work) / "games.json").read_text())
    for slug, info in games.items():
        run([py, "manage.py", "export_game", str(info["id"]), "-o", str(out / f"{slug}.jsonl")], quiet)
    dump_path = out / "database.sql.gz"
    with open(dump_path, "wb") as fh:
        pg = subprocess.Popen(
            ["pg_dump", "--no-owner", "--no-privileges", f"{args.pg_url.rstrip('/')}/{args.db_name}"],
            stdout=subprocess.PIPE,
        )
        with gzip.GzipFile(fileobj=fh, mode="wb", compresslevel=9, mtime=0) as gz:
            shutil.copyfileobj(pg.stdout, gz)
        if pg.wait() != 0:
            sys.exit("pg_dump failed")
    state = json.loads((Path(args.work) / "inflight.json").read_text())
    manifest = {  # "release", "commit" and "games" (a list, each with its "slug") as tests/golden/*/MANIFEST.json
        "release": RELEASE,
        "commit": commit,
        "made_at": datetime.now(dt_timezone.utc).isoformat(timespec="seconds"),
        "settings": {
            "SECRET_KEY": SECRET_KEY,
            "DEBUG": True,
            "database": args.db_name,
            "broker_in_flight": args.redis_url,
            "CELERY_TASK_DEFAULT_QUEUE": "celery",
            "INBOUND_DOMAIN": "kriegsbrief.localhost (default)",
            "MAIL_AUTHSERV_ID": "mx.kriegsbrief.localhost (default)",
        },
        "people": {u: {"email": email_of(u), "timezone": tz, "password": PASSWORD.format(u)} for u, tz, _ in PEOPLE},
        "games": list(state["games"].values()),
        "queued_tasks": queued_tasks(dump),
        "redis_keys": {k: {"type": v["type"], "count": len(v["items"])} for k, v in dump.items()},
        "outbox": state["outbox"],
        "inbound_mail": state["inbound"],
        "inflight_actions": state["actions"],
        "verify_game_all": {"quiet": verify_before.stdout.splitlines(), "in_flight": verify_after.stdout.splitlines()},
        "files": {p.name: p.stat().st_size for p in sorted(out.iterdir()) if p.is_file() and p.name != "MANIFEST.json"},
    }
    (out / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n")
    log(f"done: {out}")


def run_phase(args) -> None:
    import django

    django.setup()
    import kriegsbrief

    pkg = Path(kriegsbrief.__file__).resolve().parent.parent
    if pkg != Path.cwd().resolve():
        sys.exit(f"kriegsbrief imported from {pkg}, not from the old worktree {Path.cwd()}")
    d = Driver(Path(args.work))
    if args.phase == "play":
        d.play_all()
    else:
        d.inflight()


# =============================================================================================
# The phases: Django is set up; everything below talks to the old release.
# =============================================================================================


class Driver:
    def __init__(self, work: Path):
        from django.conf import settings

        self.work = work
        self.rng = random.Random(20260522)
        self.eager = settings.CELERY_TASK_ALWAYS_EAGER
        self.msg_counter = 0
        self.api_clients: dict[str, object] = {}
        self.web_clients: dict[str, object] = {}

    # --- people and clients ------------------------------------------------------------------

    def make_people(self) -> None:
        from django.contrib.auth import get_user_model

        from campaigns.models import Profile

        User = get_user_model()
        for username, tz, full in PEOPLE:
            first, last = full.split(" ", 1)
            user = User.objects.create_user(
                username, email_of(username), PASSWORD.format(username), first_name=first, last_name=last
            )
            Profile.objects.create(user=user, timezone=tz)

    def web(self, username: str):
        from django.test import Client

        if username not in self.web_clients:
            c = Client()
            resp = c.post("/accounts/login/", {"username": username, "password": PASSWORD.format(username)})
            assert resp.status_code == 302, (username, resp.status_code)
            self.web_clients[username] = c
        return self.web_clients[username]

    def api(self, username: str):
        from rest_framework.test import APIClient

        if username not in self.api_clients:
            c = APIClient()
            resp = c.post(
                "/api/auth/token/", {"username": username, "password": PASSWORD.format(username)}, format="json"
            )
            assert resp.status_code == 200, resp.content
            c.credentials(HTTP_AUTHORIZATION="Token " + resp.json()["token"])
            self.api_clients[username] = c
        return self.api_clients[username]

    # --- games -------------------------------------------------------------------------------

    def new_game(self, slug: str):
        from campaigns.models import Campaign, Game

        spec = GAMES[slug]
        web = self.web(spec["umpire"])
        campaign = Campaign.objects.filter(name=f"{spec['umpire'].title()}'s table").first()
        form = {
            "name": spec["name"],
            "ruleset": spec["ruleset"],
            "umpire": spec["umpire"],
            "player_red": spec["red"],
            "player_blue": spec["blue"],
            "observers": spec.get("observers", ""),
            "deadline_hours": 72,
            "decision_deadline_hours": 24,
            "ready_delay_seconds": 0,
            "grace_hours": 0,
            "absence_days": 0,
            "press": "umpire",
            **spec.get("form", {}),
        }
        form.update({"campaign": campaign.pk} if campaign else {"new_campaign": f"{spec['umpire'].title()}'s table"})
        resp = web.post("/games/new/", form)
        assert resp.status_code == 302 and resp["Location"].startswith("/games/"), resp.content.decode()[-3000:]
        game = Game.objects.get(pk=int(resp["Location"].strip("/").split("/")[1]))
        log(f"{slug}: game {game.pk} ({game.ruleset}) created on /games/new/")
        return game

    def state(self, game) -> dict:
        from campaigns import eventstore

        return eventstore.load(game.pk).state

    def turn(self, game) -> dict:
        return self.state(game)["turn"]

    def player(self, game, side: str) -> str:
        return game.seats.get(role="player", side=side).user.username

    def umpire(self, game) -> str:
        return game.seats.get(role="umpire").user.username

    # --- the API -----------------------------------------------------------------------------

    def api_orders(self, game, side: str, text: str, ready: bool = True, *, expect: int = 201) -> dict:
        resp = self.api(self.player(game, side)).post(
            f"/api/games/{game.pk}/orders/", {"text": text, "ready": ready}, format="json"
        )
        assert resp.status_code == expect, (game.pk, side, text, resp.status_code, resp.content.decode())
        return resp.json()

    def api_view(self, game, username: str) -> dict:
        resp = self.api(username).get(f"/api/games/{game.pk}/view/")
        assert resp.status_code == 200, resp.content
        return resp.json()

    def umpire_post(self, game, action: str, body: dict, expect: int = 200) -> dict:
        resp = self.api(self.umpire(game)).post(f"/api/games/{game.pk}/{action}/", body, format="json")
        assert resp.status_code == expect, (action, body, resp.status_code, resp.content.decode())
        return resp.json()

    # --- mail --------------------------------------------------------------------------------

    def reply(
        self, game, side_or_role: str, text: str, *, auth: str = "pass", html: bool = False, attach: str | None = None
    ) -> bytes:
        """A player's answer to the newest mail its seat got, as a mail client writes it."""
        from email.message import EmailMessage
        from email.policy import SMTP
        from email.utils import format_datetime, formataddr, make_msgid

        from campaigns.models import OutboxMail

        seat = (
            game.seats.get(role="player", side=side_or_role)
            if side_or_role in ("red", "blue")
            else game.seats.get(role=side_or_role)
        )
        last = OutboxMail.objects.filter(seat=seat).exclude(reply_to="").order_by("-pk").first()
        assert last is not None, f"no mail with a reply address for {seat}"
        user = seat.user
        self.msg_counter += 1
        domain = seat.email.split("@")[1]
        now = datetime.now(dt_timezone.utc)
        msg = EmailMessage()
        msg["Return-Path"] = f"<{seat.email}>"
        msg["Authentication-Results"] = (
            f"mx.kriegsbrief.localhost; dkim={auth} header.d={domain} header.s=mail; "
            f"spf={'pass' if auth == 'pass' else 'softfail'} smtp.mailfrom={domain}; "
            f"dmarc={auth} header.from={domain}"
        )
        msg["Received"] = (
            f"from smtp.{domain} (smtp.{domain} [192.0.2.{10 + self.msg_counter % 200}]) by "
            f"mx.kriegsbrief.localhost (Postfix) with ESMTPS id 4Gb{self.msg_counter:05X} for "
            f"<{last.reply_to}>; {format_datetime(now)}"
        )
        msg["From"] = formataddr((user.get_full_name(), seat.email))
        msg["To"] = last.reply_to
        subject = last.subject
        msg["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
        msg["Date"] = format_datetime(now)
        msg["Message-ID"] = make_msgid(idstring=f"golden{self.msg_counter}", domain=domain)
        msg["In-Reply-To"] = last.message_id
        msg["References"] = " ".join([*last.references, last.message_id])
        msg["User-Agent"] = self.rng.choice(["Mozilla Thunderbird 128.3", "Apple Mail (2.3774)", "Roundcube 1.6.9"])
        quoted = "\n".join("> " + line for line in last.body.splitlines())
        body = f"{text.rstrip()}\n\n-- \n{user.get_full_name()}\n\nOn {format_datetime(last.created_at)}, Kriegsbrief wrote:\n{quoted}\n"
        msg.set_content(body)
        if html:
            esc = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            msg.add_alternative(
                f"<html><body><div>{'<br>'.join(esc.splitlines())}</div>"
                f'<blockquote type="cite">{last.subject}</blockquote></body></html>',
                subtype="html",
            )
        if attach is not None:
            msg.add_attachment(attach, subtype="plain", filename="orders.txt")
        return msg.as_bytes(policy=SMTP)

    def pipe(self, raw: bytes, recipient: str) -> str:
        """The MTA's pipe: `manage.py ingest_mail --recipient <addr>` with the message on standard input."""
        from django.core.management import call_command

        out, old = io.StringIO(), sys.stdin
        sys.stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="latin-1")
        try:
            call_command("ingest_mail", recipient=recipient, stdout=out)
        finally:
            sys.stdin = old
        return out.getvalue().strip()

    def mail(self, game, side: str, text: str, *, expect: str = "applied", accepted: bool | None = True, **kw):
        from email import message_from_bytes

        from campaigns.mailin.models import InboundMessage
        from campaigns.models import OutboxMail

        raw = self.reply(game, side, text, **kw)
        to = message_from_bytes(raw)["To"]
        line = self.pipe(raw, to)
        row = InboundMessage.objects.order_by("-pk").first()
        assert row.status == expect, (game.pk, side, text, line, row.status, row.error)
        if accepted is not None and expect == "applied":
            ack = OutboxMail.objects.filter(seat=row.seat, kind="mail-reply").order_by("-pk").first()
            ok = "ORDERS ACCEPTED" in ack.body
            assert ok == accepted, (game.pk, side, text, ack.body)
        return row

    # --- bots --------------------------------------------------------------------------------

    def lw_bot(self, game, side: str) -> str:
        """Little Wars' own scripted player on the player's own API view."""
        from rules.littlewars.testing import bot_orders, state_from_view

        view = self.api_view(game, self.player(game, side))
        return bot_orders(state_from_view(view["board"]), side)

    def cw_choice(self, game, side: str, *, passes: bool = False) -> str:
        """Civil War orders as load_demo plays them: a legal operation (forming a unit now and then)."""
        from rules.civilwar import legal_operations
        from rules.core import registry

        state = self.state(game)
        turn = state["turn"]
        if turn["kind"] != "orders":  # a decision turn: retreat somewhere, or fight
            pending = state["rules"].get("pending") or {}
            options = ["fight"] + [f"retreat to {p}" for p in pending.get("options", [])]
            return self.rng.choice(options)
        if passes:
            return "pass"
        options = legal_operations(state["rules"], side)
        attacks = [o for o in options if o.startswith(("assault", "breakthrough"))]
        forms = [o for o in options if o.startswith("form")]
        roll = self.rng.random()
        pick = (
            self.rng.choice(attacks)
            if attacks and roll < 0.5
            else self.rng.choice(forms)
            if forms and roll < 0.75
            else self.rng.choice(options)
        )
        if self.rng.random() < 0.25:
            pick += "\nif attacked " + self.rng.choice(["retreat", "fight", "ask"])
        return pick

    def cw_api_turn(self, game, *, passes=False, ready=True) -> dict:
        turn = self.turn(game)
        side = turn["sides"][0]
        for _ in range(5):
            text = self.cw_choice(game, side, passes=passes)
            resp = self.api(self.player(game, side)).post(
                f"/api/games/{game.pk}/orders/", {"text": text, "ready": ready}, format="json"
            )
            if resp.status_code == 201:
                return {"side": side, "text": text, "closed": resp.json()["closed"]}
            assert resp.status_code == 400, resp.content
        raise AssertionError(f"no acceptable Civil War orders for {side}: {resp.content}")

    # --- phase 1 -----------------------------------------------------------------------------

    def play_all(self) -> None:
        assert self.eager, "the play phase runs with tasks in-process (no CELERY_BROKER_URL)"
        from campaigns.models import Game

        assert not Game.objects.exists(), "the play phase needs a freshly migrated database"
        self.make_people()
        self.games: dict[str, dict] = {}
        for slug in GAMES:
            t0 = time.time()
            game = self.new_game(slug)
            getattr(self, "play_" + slug.replace("-", "_"))(game)
            game.refresh_from_db()
            self.games[slug] = {"id": game.pk, "uid": str(game.uid)}
            log(f"{slug}: turn {game.turn_number} {game.turn_status}, {game.status} ({time.time() - t0:.1f} s)")
        (self.work / "games.json").write_text(json.dumps(self.games, indent=1))

    # Civil War

    def play_civilwar_swept(self, game):
        for _ in range(3):
            self.cw_api_turn(game)
        # the last turn opens with a 108-second deadline that nobody meets: the sweep closes it later

    def play_civilwar_api_finished(self, game):
        for _ in range(12):
            if self.turn(game)["status"] != "open":
                break
            self.cw_api_turn(game)
        for _ in range(40):  # then both sides pass: six passes in a row end the game as a draw (rule 18, 23)
            game.refresh_from_db()
            if game.status == "finished":
                return
            self.cw_api_turn(game, passes=True)
        raise AssertionError("the Civil War game did not finish")

    def play_civilwar_api_open(self, game):
        for _ in range(7):
            self.cw_api_turn(game)
        # the umpire gives the players a day more, through the API (every player is told by mail)
        self.umpire_post(
            game, "deadline", {"turn": self.turn(game)["number"], "hours": 24, "note": "one day more: Easter holidays"}
        )
        # the side to move sends its orders but does not mark itself ready: the turn stays open
        self.cw_api_turn(game, ready=False)

    def play_civilwar_mail(self, game):
        def mail_turn(extra: str = "", **kw):
            turn = self.turn(game)
            side = turn["sides"][0]
            text = self.cw_choice(game, side)
            return self.mail(game, side, (text + "\n" + extra).strip(), **kw)

        self.mail(game, "red", "STATUS", accepted=None)
        mail_turn()
        # a line the rules refuse: the orders are refused whole, then sent again right
        side = self.turn(game)["sides"][0]
        self.mail(game, side, "form C99", accepted=False)
        mail_turn(html=True)
        mail_turn()
        self.mail(game, "blue", "ABSENT UNTIL 2030-01-15", accepted=None)
        self.mail(game, "blue", "BACK", accepted=None)
        mail_turn()
        mail_turn()
        self.mail(game, "red", "MESSAGE umpire\nMay I keep my counters in the box between turns?\nEND", accepted=None)

    # Little Wars

    def play_littlewars_api(self, game):
        self.api_orders(game, "red", "deploy foot1 at 16,5\nmelee kill nearest lose farthest")
        self.api_orders(game, "blue", "hold")
        for _ in range(5):
            if self.turn(game)["status"] != "open":
                break
            for side in ("red", "blue"):
                self.api_orders(game, side, self.lw_bot(game, side))

    def play_littlewars_mail(self, game):
        self.mail(game, "red", "READY\nhold")  # deployment: default places
        self.mail(game, "blue", "ORDERS\nhold\nEND\nThanks, looking forward to it!", html=True)
        for n in range(2):  # two turns of battle: the skirmish's bots finish it in a third
            self.mail(game, "red", self.lw_bot(game, "red"))
            if n == 1:  # blue sends orders but waits; then says READY alone
                self.mail(game, "blue", "WAIT", accepted=None, attach=self.lw_bot(game, "blue"))
                self.mail(game, "blue", "READY", accepted=None)
            else:
                self.mail(game, "blue", self.lw_bot(game, "blue"))
        self.mail(game, "blue", "MESSAGE red\nGood game so far. Your guns are murder.\nEND", accepted=None)
        # a message our MTA marked as failing DMARC: held for the umpire, left held
        self.mail(game, "red", "STATUS", expect="held", auth="fail")

    def play_littlewars_open(self, game):
        self.api_orders(game, "red", "hold")
        self.api_orders(game, "blue", "hold")
        for _ in range(2):
            for side in ("red", "blue"):
                self.api_orders(game, side, self.lw_bot(game, side))
        self.api_orders(game, "red", self.lw_bot(game, "red"))  # red is in; blue has not answered

    def play_littlewars_closed(self, game):
        self.api_orders(game, "red", "hold")
        self.api_orders(game, "blue", "hold")
        for _ in range(2):
            for side in ("red", "blue"):
                self.api_orders(game, side, self.lw_bot(game, side))
        self.api_orders(game, "red", self.lw_bot(game, "red"))  # blue's orders close the turn at upgrade time

    # Kriegspiel

    def ks_api(self, game, script):
        for red, blue in script:
            number = self.turn(game)["number"]
            self.api_orders(game, "red", red)
            self.api_orders(game, "blue", blue)
            self.ks_check(game, number)

    def ks_check(self, game, number: int):
        """No line of a scripted turn may have been refused by the adjudication (its private report)."""
        from campaigns.models import Event

        for ev in Event.objects.filter(game=game, turn=number, type="littlewars.orders_rejected"):
            assert not ev.payload.get("errors") and not ev.payload.get("rejected"), (game.pk, number, ev.payload)
        if self.state(game)["turn"]["status"] == "adjudicated":
            return
        assert self.turn(game)["number"] == number + 1, (game.pk, number, self.turn(game))

    def play_kriegspiel_api(self, game):
        self.ks_api(game, KS_API)

    def play_kriegspiel_mail(self, game):
        for n, (red, blue) in enumerate(KS_MAIL, start=1):
            self.mail(game, "red", red, html=(n == 3))
            self.mail(game, "blue", blue if n != 4 else "ORDERS\n" + blue + "\nEND")
            self.ks_check(game, n)
        self.mail(game, "red", "STATUS", accepted=None)
        self.mail(game, "blue", "RESEND", accepted=None)

    def play_kriegspiel_open(self, game):
        self.ks_api(game, KS_OPEN)
        self.api_orders(game, "red", KS_OPEN_RED_T4)

    def play_kriegspiel_closed(self, game):
        for n, (red, blue) in enumerate(KS_CLOSED, start=1):
            self.mail(game, "red", red)
            self.mail(game, "blue", blue)
            self.ks_check(game, n)
        self.mail(game, "red", KS_CLOSED_RED_T4)

    def play_kriegspiel_approval(self, game):
        self.api_orders(game, "red", "hold")
        self.api_orders(game, "blue", "hold")
        assert self.turn(game)["status"] == "adjudicated"
        self.umpire_post(game, "approve", {"turn": 1, "note": "deployment as the scenario has it"})
        self.api_orders(game, "red", KS_RED_WORKS)
        self.api_orders(game, "blue", KS_BLUE_WORKS + "\nmove horse to 24,250")
        assert self.turn(game)["status"] == "adjudicated"
        self.umpire_post(
            game,
            "amend",
            {
                "turn": 2,
                "orders": {"blue": KS_BLUE_WORKS + "\nmove horse to 24,266"},
                "reason": "blue's horse was to go half as far (letter of 3 May)",
            },
        )
        self.umpire_post(
            game,
            "ruling",
            {
                "text": "note red: the sappers dig by night; nobody on the hill saw them\n"
                "note blue: dust rises to the south at dawn"
            },
        )
        self.umpire_post(game, "approve", {"turn": 2, "note": "amended, see your reports"})
        self.api_orders(game, "red", "move horse to 24,36")
        self.api_orders(game, "blue", "move horse to 24,230")
        assert self.turn(game)["status"] == "adjudicated"  # turn 3's results are held for the umpire
        self.umpire_post(game, "ruling", {"text": "note all: rain in the night; the lane is mud"})

    # --- phase 2 -----------------------------------------------------------------------------

    def inflight(self) -> None:
        assert not self.eager, "the in-flight phase needs CELERY_BROKER_URL (and no worker)"
        from django.utils import timezone
        from django.utils.dateparse import parse_datetime

        from campaigns import outbox, tasks
        from campaigns.models import Game

        self.games = json.loads((self.work / "games.json").read_text())
        games = {slug: Game.objects.get(pk=info["id"]) for slug, info in self.games.items()}
        actions = []

        # 1. The deadline sweep, as Celery beat's task runs it (the task's body, in this process):
        # civilwar-swept's 108-second deadline has passed, so its turn closes with default orders.
        swept = games["civilwar-swept"]
        deadline = parse_datetime(self.turn(swept)["deadline"])
        wait = (deadline - timezone.now()).total_seconds() + 2
        if wait > 0:
            log(f"waiting {wait:.0f} s for civilwar-swept's deadline")
            time.sleep(wait)
        result = tasks.sweep()  # the task's own function, called as a worker would
        actions.append({"what": "campaigns.tasks.sweep run once in-process (as beat's worker would)", "result": result})
        log(f"sweep: {result}")
        swept.refresh_from_db()
        assert swept.turn_status == "closed", swept.turn_status

        # 2. Little Wars: blue's orders by API; both sides ready, so the turn closes.
        lw = games["littlewars-closed"]
        resp = self.api_orders(lw, "blue", self.lw_bot(lw, "blue"))
        assert resp["closed"], resp
        actions.append({"what": "littlewars-closed: blue's orders by API closed the turn", "turn": lw.turn_number})

        # 3. Kriegspiel by mail: blue's reply closes the turn; the acknowledgement waits in the outbox.
        ks = games["kriegspiel-closed"]
        self.mail(ks, "blue", KS_CLOSED_BLUE_T4)
        actions.append({"what": "kriegspiel-closed: blue's orders by mail (ingest_mail) closed the turn"})

        # 4. Beat keeps sending its sweep, which nothing takes either.
        tasks.sweep.delay()
        actions.append({"what": "campaigns.tasks.sweep queued once (as beat sends it), not run"})
        outbox.flush_publisher()  # the outbox's publisher thread hands its sends to the broker

        for slug, game in games.items():
            game.refresh_from_db()
            assert game.turn_status != "closed" or slug in ("civilwar-swept", "littlewars-closed", "kriegspiel-closed")
        self.write_inflight(games, actions)

    def write_inflight(self, games, actions) -> None:
        from django.db.models import Count

        from campaigns.mailin.models import InboundMessage
        from campaigns.models import Event, OutboxMail

        out = {}
        for slug, game in games.items():
            game.refresh_from_db()
            state = self.state(game)
            turn = state["turn"]
            spec = GAMES[slug]
            out[slug] = {
                "slug": slug,
                "id": game.pk,
                "uid": str(game.uid),
                "name": game.name,
                "ruleset": game.ruleset,
                "channels": spec["channels"],
                "status": game.status,
                "turn": turn["number"],
                "turn_number": turn["number"],
                "turn_kind": turn["kind"],
                "turn_status": turn["status"],
                "game_status": game.status,
                "turn_sides": turn["sides"],
                "orders_pending": bool(turn["orders"]) and turn["status"] == "open",
                "orders_in": sorted(turn["orders"]),
                "ready": sorted(turn["ready"]),
                "results_held": turn["status"] == "adjudicated",
                "require_approval": bool(state["settings"]["require_approval"]),
                "deadline": turn["deadline"],
                "settings": state["settings"],
                "events": Event.objects.filter(game=game).count(),
                "seats": [
                    {"role": s.role, "side": s.side, "user": s.user.username if s.user else None, "email": s.email}
                    for s in game.seats.order_by("pk")
                ],
                "result": state.get("result"),
                "export": f"{slug}.jsonl",
                "notes": spec.get("notes", ""),
            }
            if game.ruleset == "kriegspiel":
                works = (state["rules"].get("ks") or {}).get("works") or {}
                out[slug]["works"] = {
                    w: {k: v.get(k) for k in ("kind", "side", "status", "done")} for w, v in sorted(works.items())
                }
        outbox_rows = {
            "by_status": dict(OutboxMail.objects.values_list("status").annotate(n=Count("pk")).order_by("status")),
            "by_kind_and_status": [
                list(r)
                for r in OutboxMail.objects.values_list("kind", "status")
                .annotate(n=Count("pk"))
                .order_by("kind", "status")
            ],
            "not_sent": [
                {"id": m.pk, "kind": m.kind, "status": m.status, "game": m.game_id, "subject": m.subject}
                for m in OutboxMail.objects.exclude(status="sent").order_by("pk")
            ],
        }
        inbound = {
            "by_status": dict(InboundMessage.objects.values_list("status").annotate(n=Count("pk")).order_by("status"))
        }
        (self.work / "inflight.json").write_text(
            json.dumps(
                {"games": out, "outbox": outbox_rows, "inbound": inbound, "actions": actions}, indent=1, default=str
            )
        )


if __name__ == "__main__":
    main()

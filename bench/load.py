"""Load benchmark on the real stack (issue 18): gunicorn, Celery workers and beat, PostgreSQL, Redis and
an SMTP sink, all on loopback and all started here (bench/load_stack.py); bounded (about three
minutes by default).

N Civil War games with two seats each are created through the API (POST /api/games/, every player
invited and accepting through POST /api/seats/<id>/accept/). Each player then polls their view
once a --poll interval and, when their side is to order, sends legal orders marked ready, each
with a comment line naming it (so every accepted order can be found in the log afterwards). A
turn closes when its sides are ready, a worker adjudicates and publishes it, and every seat is
mailed its report. A fault can be injected a third of the way through the load:

  worker-kill   SIGKILL a worker and its pool (restarted a second later)
  mail-worker-kill  SIGKILL the mail worker mid-send (restarted a second later)
  redis-outage  stop the broker for --fault-seconds (the bench's own Redis)
  pg-restart    restart PostgreSQL (a cluster of the bench's own, made for this run)
  smtp-freeze   the SMTP server holds every message unanswered for --fault-seconds

Players poll as an app does, sending back the view's ETag (304 when nothing they see changed).
Latency is measured by a probe, a process of its own asking one player's whole view (no ETag)
every --probe-interval, alone for --idle seconds before the load (api_p95_idle_ms) and then
under it (api_p95_ms): the load driver's threads share one interpreter, so their own timings
(players_p95_ms) include waiting for it; driver_cpu_pct says how busy the driver itself was.
Workers and beat run at nice --nice (10, as deploy/Procfile runs them, their sessions too: see
deploy/lowpriority; 0 as before); gunicorn runs --web-threads threads per process (4, gthread; 1: sync).

With --workers 1,2 the load runs once per worker count and turns/s are compared, but then the
players set the pace. --scaling 1,2 measures the workers instead: after the load, 1 (or 2)
adjudication workers start and warm up (about 10 turns each, on 4 games per worker made for it: a
fresh worker's first turns are slower), then stop consuming while every game's turn is ordered and
closed, and are set on that backlog together; turns/s is the backlog over the seconds from that
release to its last publication, the counts interleaved over --scaling-rounds (mail waits
meanwhile). The last line is key=value pairs:

  orders_per_s turns_per_s api_p95_ms api_p95_idle_ms api_p95_ratio close_to_published_p95_s
  broker_msgs_per_queued_item lost duplicated recovery_s (and stalled, drain_s, db_sessions_per_s, ...)
  turns_per_s_1 turns_per_s_2 worker_scaling (with --scaling 1,2)

lost: accepted orders missing from the log, mail given up (dead) or sent but never received;
duplicated: a message received twice, a turn adjudicated twice, an order written twice;
duplicated_resent: of those, messages a sender delivered and was killed before recording so, sent
again with the same Message-ID (SMTP's at-least-once window, RFC 1047: mail-worker-kill can hit it);
stalled: work still waiting when the bench stopped waiting (closed turns, unsent mail);
recovery_s: from the fault's end until everything that was waiting then is done, the larger of
recovery_turns_s (the closed turns published) and recovery_mail_s (the unsent mail sent);
backlog_turns and backlog_mail: what was waiting at the fault's end; mail_drain_per_s: the backlog's
mail over recovery_mail_s.

  .venv/bin/python bench/load.py                       # 20 games, 60 s of load, one worker
  .venv/bin/python bench/load.py --games 100 --duration 120 --workers 1,2
  .venv/bin/python bench/load.py --fault smtp-freeze
  .venv/bin/python bench/load.py --games 100 --duration 10 --scaling 1,2   # backlogs of 100 turns: ~5 s each
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import resource
import statistics
import sys
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import requests
from celery import Celery

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_stack import BrokerCounter, Stack, wait_for

from rules import catalog

FAULTS = ("worker-kill", "mail-worker-kill", "redis-outage", "pg-restart", "smtp-freeze")

USERS = """
import json
from django.contrib.auth import get_user_model
from knox.models import AuthToken
from campaigns.models import Profile
User = get_user_model()
names = ["umpire"] + [f"p{i}{s}" for i in range(%d) for s in ("red", "blue")]
users = User.objects.bulk_create([User(username=n, email=f"{n}@bench.localhost") for n in names])
Profile.objects.bulk_create([Profile(user=u, verified_email=u.email) for u in users])
print("TOKENS " + json.dumps({u.username: AuthToken.objects.create(u)[1] for u in users}))
"""


def p95(values) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))] if values else float("nan")


class Api:
    """Requests with their latencies recorded (phase, kind, ms)."""

    def __init__(self, base: str):
        self.base, self.records, self.lock = base, [], threading.Lock()
        self.phase = "setup"

    def call(self, token: str, method: str, path: str, kind: str, body=None, etag=None):
        start = time.monotonic()
        headers = {"Authorization": f"Token {token}", **({"If-None-Match": etag} if etag else {})}
        try:
            res = requests.request(method, self.base + path, json=body, timeout=60, headers=headers)
            status = res.status_code
        except requests.RequestException:
            res, status = None, 0
        with self.lock:
            self.records.append((self.phase, kind, (time.monotonic() - start) * 1000, status))
        return res

    def latencies(self, phase: str, kind: str | None = None) -> list[float]:
        return [ms for p, k, ms, _ in self.records if p == phase and (kind is None or k == kind)]

    def errors(self, phase: str) -> Counter:
        return Counter(status for p, _, _, status in self.records if p == phase and (status == 0 or status >= 500))


def create_games(api: Api, tokens: dict, games: int) -> list[dict]:
    def one(i):
        res = api.call(
            tokens["umpire"],
            "POST",
            "/api/games/",
            "create",
            {
                "name": f"Load {i}",
                "ruleset": "civilwar",
                "campaign_name": f"Load {i}",
                "umpire": {"username": "umpire"},
                "players": [
                    {"side": "red", "username": f"p{i}red"},
                    {"side": "blue", "email": f"p{i}blue@bench.localhost"},
                ],
                "settings": {"deadline_hours": 48, "ready_delay_seconds": 0},
            },
        )
        assert res is not None and res.status_code == 201, res.text if res is not None else "no answer"
        return {"id": res.json()["id"], "players": {"red": f"p{i}red", "blue": f"p{i}blue"}}

    with ThreadPoolExecutor(8) as pool:
        made = list(pool.map(one, range(games)))

    def accept(name):
        seats = api.call(tokens[name], "GET", "/api/seats/", "seats").json()
        for seat in seats:
            if seat["status"] == "invited":
                assert api.call(tokens[name], "POST", f"/api/seats/{seat['id']}/accept/", "accept").status_code == 200

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(accept, [name for g in made for name in g["players"].values()]))
    return made


class Players:
    """One thread per player: poll the view, order when it is their side's turn."""

    def __init__(self, api: Api, tokens: dict, games: list[dict], poll: float):
        self.api, self.tokens, self.games, self.poll = api, tokens, games, poll
        self.accepted: list[str] = []  # the markers of accepted orders
        self.refused = 0
        self.stop = threading.Event()
        self.rs = catalog.get("civilwar")

    def play(self, game: dict, side: str):
        token, ordered, rng = self.tokens[game["players"][side]], set(), random.Random(f"{game['id']}{side}")
        etag, view = None, None
        time.sleep(rng.random() * self.poll)
        while not self.stop.is_set():
            start = time.monotonic()
            # As an app polls: the view it has, sent back by its ETag (304: nothing new to read).
            res = self.api.call(token, "GET", f"/api/games/{game['id']}/view/", "poll", etag=etag)
            if res is not None and res.status_code == 200:
                etag, view = res.headers.get("ETag"), res.json()
            if res is not None and res.status_code in (200, 304) and view is not None:
                turn = view["turn"]
                if turn["game_status"] != "active":
                    return
                if (
                    turn["status"] == "open"
                    and side in turn["sides"]
                    and turn["number"] not in ordered
                    and self.order(game, side, token, view, rng)
                ):
                    ordered.add(turn["number"])
            self.stop.wait(max(0.0, self.poll - (time.monotonic() - start)))

    def order(self, game, side, token, view, rng) -> bool:
        options = self.rs.legal_orders(view["board"], side)
        if not options:
            return False
        marker = uuid.uuid4().hex
        res = self.api.call(
            token,
            "POST",
            f"/api/games/{game['id']}/orders/",
            "order",
            {"text": f"{rng.choice(options)}\n# bench {marker}", "ready": True},
        )
        if res is not None and res.status_code == 201:
            with self.api.lock:
                self.accepted.append(marker)
            return True
        if res is not None and res.status_code == 400:
            self.refused += 1
        return res is not None and res.status_code == 409  # the turn moved on: look again

    def run(self, seconds: float):
        self.stop.clear()
        threads = [
            threading.Thread(target=self.play, args=(g, side), daemon=True)
            for g in self.games
            for side in ("red", "blue")
        ]
        for t in threads:
            t.start()
        self.stop.wait(seconds)
        self.stop.set()
        for t in threads:
            t.join(70)


# --- latency as a light client sees it ---------------------------------------------------


def probe(base: str, targets: list, interval: float, out, stop) -> None:
    """A process of its own asking one player's view at a time, every ``interval`` s, in full (no
    ETag): what a request costs, measured apart from the load driver's threads, which share one
    interpreter. Puts (wall time, ms, status) on ``out`` when ``stop`` is set."""
    records, i = [], 0
    while not stop.is_set():
        token, game_id = targets[i % len(targets)]
        i += 1
        start = time.monotonic()
        try:
            status = requests.get(
                f"{base}/api/games/{game_id}/view/", timeout=60, headers={"Authorization": f"Token {token}"}
            ).status_code
        except requests.RequestException:
            status = 0
        took = time.monotonic() - start
        records.append((time.time(), took * 1000, status))
        stop.wait(max(0.0, interval - took))
    out.put(records)


class Probe:
    def __init__(self, base: str, targets: list, interval: float):
        ctx = multiprocessing.get_context("spawn")  # no copy of the driver's threads
        self.out, self.stop = ctx.Queue(), ctx.Event()
        self.proc = ctx.Process(target=probe, args=(base, targets, interval, self.out, self.stop), daemon=True)
        self.records: list = []

    def start(self):
        self.proc.start()

    def finish(self) -> list:
        self.stop.set()
        self.records = self.out.get(timeout=120)
        self.proc.join(10)
        return self.records

    def within(self, window: tuple[float, float]) -> list[float]:
        return [ms for at, ms, status in self.records if window[0] <= at <= window[1] and status == 200]


# --- worker scaling: a backlog of ready turns released at once -----------------------------


def ready_turns(api: Api, tokens: dict, games: list[dict]) -> set:
    """Every game's open turn with its sides' orders sent and ready, so it closes and waits for a
    worker; the (game, turn)s closed."""
    rs = catalog.get("civilwar")

    def one(game):
        for side in ("red", "blue"):
            token = tokens[game["players"][side]]
            res = api.call(token, "GET", f"/api/games/{game['id']}/view/", "backlog")
            view = res.json() if res is not None and res.status_code == 200 else None
            turn = view["turn"] if view else {}
            if not view or turn["game_status"] != "active" or turn["status"] != "open" or side not in turn["sides"]:
                continue
            options = rs.legal_orders(view["board"], side)
            body = {"text": options[0] if options else "", "ready": True}
            res = api.call(token, "POST", f"/api/games/{game['id']}/orders/", "backlog", body)
            if res is not None and res.status_code == 201 and res.json()["closed"]:
                return (game["id"], turn["number"])
        return None

    with ThreadPoolExecutor(4) as pool:
        return {found for found in pool.map(one, games) if found}


def published_at(db_url: str, backlog: set) -> list[float]:
    with psycopg.connect(db_url) as conn:
        rows = conn.execute(
            "SELECT game_id, turn, extract(epoch FROM created_at) FROM campaigns_event WHERE type = 'turn.published'"
        ).fetchall()
    return [float(at) for game, turn, at in rows if (game, turn) in backlog]


# Turns each worker adjudicates before a measured backlog: a fresh worker's first turns are slower
# (its connection's statements not yet prepared, templates and rule modules not yet loaded: the
# first ~0.5 s, then ~120 ms a turn falling to ~55 ms by the tenth here), and a backlog of a second
# or two would measure that instead of the workers' rate. A deployment's workers are long warm.
WARM_TURNS_PER_WORKER = 10
WARM_GAMES_PER_WORKER = 4


def warm_up(stack: Stack, api: Api, tokens: dict, warm_games: list[dict], names: list[str], control, log) -> int:
    """The workers (consuming the adjudication queue) adjudicate turns of the warm-up games until each
    had about WARM_TURNS_PER_WORKER; then they stop consuming. The turns adjudicated."""
    done_turns, want = 0, WARM_TURNS_PER_WORKER * len(names)
    while done_turns < want:
        warm = ready_turns(api, tokens, warm_games)
        if not warm:
            log("scaling: the warm-up games are over; the workers start less warm")
            break
        if wait_done(stack.db_url, warm, set(), 60, time.monotonic())["turns"] is None:
            raise RuntimeError("scaling: the warm-up turns were not adjudicated within 60 s")
        done_turns += len(warm)
    control.cancel_consumer("adjudication", destination=names, reply=True, timeout=5)
    return done_turns


def release(stack: Stack, api: Api, tokens: dict, games: list[dict], warm_games: list[dict], count: int, log):
    """``count`` adjudication workers, started and warmed up (warm_up), then set together on a backlog
    of every game's turn made while none consumed (Celery's cancel_consumer and add_consumer): (turns
    adjudicated, seconds from the release to the last publication). Mail waits meanwhile:
    adjudication alone is measured."""
    stack.start_workers(count, others=())
    names = [stack.worker_name(i) for i in range(count)]
    control = Celery(broker=stack.redis_url).control
    wait_for(lambda: len(control.ping(destination=names, timeout=1.0)) == count, 90, f"{count} worker(s)")
    warm_up(stack, api, tokens, warm_games, names, control, log)
    backlog = ready_turns(api, tokens, games)
    start = time.time()
    control.add_consumer("adjudication", destination=names, reply=True, timeout=5)
    if wait_done(stack.db_url, backlog, set(), 120, time.monotonic())["turns"] is None:
        log(f"scaling: the backlog of {len(backlog)} turns was not adjudicated within 120 s")
    times = published_at(stack.db_url, backlog)
    return len(times), (max(times) - start) if times else float("nan")


def scaling(stack: Stack, api: Api, tokens: dict, games: list[dict], warm_games: list[dict], counts, rounds, log):
    """Turns/s per adjudication worker count, the counts interleaved (1, 2, 1, 2...) so that a drift
    of the shared machine's speed falls on both: {count: (turns, seconds)}."""
    api.phase = "backlog"
    totals = {c: [0, 0.0] for c in counts}
    for _ in range(rounds):
        for count in counts:
            turns, seconds = release(stack, api, tokens, games, warm_games, count, log)
            log(f"scaling: {turns} turns with {count} worker(s) in {seconds:.2f} s ({turns / seconds:.2f}/s)")
            totals[count][0] += turns
            totals[count][1] += seconds
    return totals


# --- what the database says ----------------------------------------------------------


def waiting(db_url: str) -> tuple[set, set]:
    """(closed turns (game, turn) waiting for publication, outbox rows not yet sent)."""
    with psycopg.connect(db_url, connect_timeout=3) as conn:
        turns = set(
            conn.execute(
                "SELECT id, turn_number FROM campaigns_game WHERE turn_status IN ('closed') AND status = 'active'"
            ).fetchall()
        )
        mail = {
            r[0]
            for r in conn.execute(
                "SELECT id FROM campaigns_outboxmail WHERE status IN ('pending', 'sending', 'failed')"
            )
        }
    return turns, mail


def db_sessions(db_url: str) -> int:
    """Sessions opened on the bench's database so far (PostgreSQL's own count): kept connections
    open few; one per request or task would open hundreds a second."""
    with psycopg.connect(db_url, connect_timeout=3) as conn:
        return conn.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()").fetchone()[0]


def done(db_url: str, turns: set, mail: set) -> bool:
    with psycopg.connect(db_url, connect_timeout=3) as conn:
        published = set(conn.execute("SELECT game_id, turn FROM campaigns_event WHERE type = 'turn.published'"))
        sent = {r[0] for r in conn.execute("SELECT id FROM campaigns_outboxmail WHERE status IN ('sent', 'dead')")}
    return turns <= published and mail <= sent


def wait_done(db_url: str, turns: set, mail: set, limit: float, since: float) -> dict:
    """Seconds from ``since`` (monotonic) until every turn given is published ("turns") and every
    mail row given is sent ("mail"); a kind not done within ``limit`` is None."""
    took: dict = {"turns": None, "mail": None}
    while time.monotonic() - since < limit and None in took.values():
        try:
            for kind, finished in (("turns", done(db_url, turns, set())), ("mail", done(db_url, set(), mail))):
                if finished and took[kind] is None:
                    took[kind] = time.monotonic() - since
        except psycopg.Error:
            pass
        time.sleep(0.5)
    return took


def drain(db_url: str, limit: float) -> float:
    """Seconds until no turn waits for adjudication and no mail waits to be sent (at most ``limit``)."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        try:
            if waiting(db_url) == (set(), set()):
                break
        except psycopg.Error:
            pass
        time.sleep(0.5)
    return time.monotonic() - start


def analyse(db_url: str, sink, accepted: list[str], window: tuple[float, float]) -> dict:
    with psycopg.connect(db_url) as conn:
        events = conn.execute(
            "SELECT game_id, turn, type, extract(epoch FROM created_at) FROM campaigns_event "
            "WHERE type IN ('turn.closed', 'turn.adjudicated', 'turn.published')"
        ).fetchall()
        texts = [
            r[0] for r in conn.execute("SELECT payload->>'text' FROM campaigns_event WHERE type = 'orders.submitted'")
        ]
        outbox = conn.execute('SELECT status, message_id, lower("to"), attempts FROM campaigns_outboxmail').fetchall()
    at = {}
    adjudicated = Counter()
    for game, turn, kind, when in events:
        at.setdefault((game, turn), {})[kind] = float(when)
        if kind == "turn.adjudicated":
            adjudicated[(game, turn)] += 1
    in_log = Counter(
        line.split("# bench ", 1)[1].strip() for t in texts for line in t.splitlines() if "# bench " in line
    )
    statuses = Counter(status for status, _, _, _ in outbox)
    received = sink.received  # asked of the sink's process once
    sent = [(mid.strip(), to) for status, mid, to, _ in outbox if status == "sent"]
    # A message received twice from a row sent in two attempts: the first was delivered, and its
    # sender killed before it could record so (RFC 1047's window; the copy has the same Message-ID).
    resent = {(mid.strip(), to) for status, mid, to, attempts in outbox if attempts > 1}
    start, end = window
    return {
        "published_in_window": sum(1 for e in at.values() if start <= e.get("turn.published", 0) <= end),
        "close_to_published": [
            e["turn.published"] - e["turn.closed"] for e in at.values() if "turn.published" in e and "turn.closed" in e
        ],
        "closed": sum(1 for e in at.values() if "turn.closed" in e),
        "lost_orders": sum(1 for m in accepted if m not in in_log),
        "lost_mail": statuses["dead"] + sum(1 for key in sent if received[key] == 0),
        "dup_mail": sum(n - 1 for n in received.values() if n > 1),
        "dup_mail_resent": sum(n - 1 for key, n in received.items() if n > 1 and key in resent),
        "dup_adjudications": sum(n - 1 for n in adjudicated.values() if n > 1),
        "dup_orders": sum(n - 1 for n in in_log.values() if n > 1),
        "outbox_rows": len(outbox),
        "outbox": dict(statuses),
    }


# --- faults -------------------------------------------------------------------------------


def inject(stack: Stack, fault: str, seconds: float, log) -> float:
    """Inject the fault; return the monotonic time the service was whole again."""
    if fault == "worker-kill":
        stack.kill_worker(0)
        log("fault: worker 0 killed (SIGKILL, mid-work); restarting it in 1 s")
        time.sleep(1)
        stack.restart_worker(0)
    elif fault == "mail-worker-kill":
        mail = stack.queues.index("mail")
        stack.kill_worker(mail)
        log("fault: the mail worker killed (SIGKILL, mid-send); restarting it in 1 s")
        time.sleep(1)
        stack.restart_worker(mail)
    elif fault == "redis-outage":
        stack.stop_redis()
        log(f"fault: Redis stopped for {seconds:.0f} s")
        time.sleep(seconds)
        stack.start_redis()
    elif fault == "pg-restart":
        start = time.monotonic()
        stack.restart_postgres()
        log(f"fault: PostgreSQL restarted ({time.monotonic() - start:.1f} s)")
    elif fault == "smtp-freeze":
        stack.smtp.freeze()
        log(f"fault: SMTP server frozen for {seconds:.0f} s")
        time.sleep(seconds)
        stack.smtp.thaw()
    return time.monotonic()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--duration", type=float, default=60, help="seconds of load (per worker count)")
    ap.add_argument("--poll", type=float, default=1.0, help="seconds between a player's polls")
    ap.add_argument(
        "--workers",
        default="1",
        help="adjudication workers (concurrency 1 each; plus one mail and one maintenance worker); '1,2' compares",
    )
    ap.add_argument("--web-workers", type=int, default=3)
    ap.add_argument("--web-threads", type=int, default=4, help="threads per web worker (deploy/Procfile: 4; 1: sync)")
    ap.add_argument("--sweep-interval", type=int, default=30, help="SWEEP_INTERVAL_SECONDS (production: 30)")
    ap.add_argument("--fault", choices=FAULTS)
    ap.add_argument("--fault-seconds", type=float, default=30)
    ap.add_argument("--drain", type=float, default=150, help="the most seconds to wait for work to finish")
    ap.add_argument(
        "--scaling",
        type=lambda v: [int(n) for n in v.split(",")],
        help="e.g. 1,2: after the load, adjudication turns/s per worker count (warmed up) on a backlog released at once",
    )
    ap.add_argument("--scaling-rounds", type=int, default=2, help="backlogs per worker count (interleaved)")
    ap.add_argument("--nice", type=int, default=10, help="CPU niceness of workers and beat (deploy/Procfile: 10)")
    ap.add_argument(
        "--nice-by-kind",
        type=lambda v: {k: int(n) for k, n in (pair.split("=") for pair in v.split(","))},
        default={},
        help="a queue's workers at another niceness than --nice, e.g. adjudication=5,mail=5",
    )
    ap.add_argument("--probe-interval", type=float, default=0.2, help="seconds between the latency probe's GETs")
    ap.add_argument(
        "--idle",
        type=float,
        default=20,
        help="seconds of the probe alone before the load: its p95 is the ratio's baseline "
        "(10 s gave 50 samples, and the baseline moved 13-40 ms from run to run)",
    )
    ap.add_argument("--keep-db", action="store_true", help="keep the scratch database (e.g. for the backup drill)")
    args = ap.parse_args(argv)
    counts = [int(n) for n in args.workers.split(",")]
    t0 = time.monotonic()

    def log(msg):
        print(f"[{time.monotonic() - t0:6.1f}s] {msg}", flush=True)

    stack = Stack(
        web_workers=args.web_workers,
        sweep_interval=args.sweep_interval,
        private_pg=args.fault == "pg-restart",
        log=log,
        nice=args.nice,
        nice_by_kind=args.nice_by_kind,
    )
    stack.web_threads = args.web_threads
    try:
        stack.smtp.start()
        stack.start_redis()
        try:
            stack.start_postgres()
        except Exception as exc:
            if args.fault == "pg-restart":
                print(
                    f"pg-restart cannot be injected here: a PostgreSQL cluster of the bench's own did not start "
                    f"({exc}); restarting the shared server would break everyone else's work"
                )
                return 2
            raise
        log(
            f"PostgreSQL database {stack.db} (port {stack.pg_port}), Redis :{stack.redis_port}, SMTP sink "
            f":{stack.smtp.port}; logs in {stack.tmp}"
        )
        counter = BrokerCounter(stack.redis_url)
        counter.start()
        stack.start_web()
        stack.start_workers(counts[0])
        stack.start_beat()
        # --scaling warms its workers up on games of their own (warm_up), which the players leave alone.
        extra = WARM_GAMES_PER_WORKER * max(args.scaling) if args.scaling else 0
        made = args.games + extra
        tokens = json.loads(stack.manage("shell", "-c", USERS % made).split("TOKENS ", 1)[1])
        api = Api(f"http://127.0.0.1:{stack.web_port}")
        games = create_games(api, tokens, made)
        games, warm_games = games[: args.games], games[args.games :]
        log(f"{made} games created through the API and their seats accepted")
        # Baseline: the players' request, one at a time, on an idle service (after a warm-up: each
        # gunicorn worker's first requests load what it needs).
        time.sleep(3)
        for i in range(30):
            g = games[i % len(games)]
            api.call(tokens[g["players"]["red"]], "GET", f"/api/games/{g['id']}/view/", "warmup")
        # Latency is measured by a probe of its own (see probe), first on the idle service.
        prober = Probe(api.base, [(tokens[g["players"]["red"]], g["id"]) for g in games], args.probe_interval)
        prober.start()
        time.sleep(5)  # the probe's interpreter starts
        idle_window = (time.time(), time.time() + args.idle)
        time.sleep(args.idle)
        players = Players(api, tokens, games, args.poll)
        phases = []
        for n, count in enumerate(counts):
            if n:
                drain(stack.db_url, args.drain)
                stack.start_workers(count)
                time.sleep(3)
            api.phase = f"load{n}"
            last = n == len(counts) - 1
            recovery = {}
            if last and args.fault:

                def fault_then_watch():
                    time.sleep(args.duration / 3)
                    back = inject(stack, args.fault, args.fault_seconds, log)
                    try:
                        stalled = waiting(stack.db_url)
                    except psycopg.Error:  # the database is still coming back
                        time.sleep(1)
                        stalled = waiting(stack.db_url)
                    log(f"fault over: {len(stalled[0])} turns and {len(stalled[1])} mails waiting")
                    # The watcher ends within this run: the closure's variables are this run's.
                    recovery.update(wait_done(stack.db_url, *stalled, args.drain + args.duration, back))  # noqa: B023
                    recovery["backlog"] = tuple(map(len, stalled))  # noqa: B023
                    log(f"recovered: turns {recovery['turns']}, mail {recovery['mail']} s after the fault's end")  # noqa: B023

                watcher = threading.Thread(target=fault_then_watch, daemon=True)
                watcher.start()
            start, cpu = time.time(), resource.getrusage(resource.RUSAGE_SELF)
            web_cpu = stack.cpu_seconds(stack.procs["web"])
            sessions = db_sessions(stack.db_url)
            log(f"load: {2 * len(games)} players for {args.duration:.0f} s with {count} worker(s)")
            players.run(args.duration)
            end, used = time.time(), resource.getrusage(resource.RUSAGE_SELF)
            web_cpu = stack.cpu_seconds(stack.procs["web"]) - web_cpu
            sessions = db_sessions(stack.db_url) - sessions
            phases.append(
                {
                    "workers": count,
                    "window": (start, end),
                    "recovery": recovery,
                    "accepted": len(players.accepted),
                    # the load driver's own CPU, in % of one core: is the client light?
                    "driver_cpu": 100 * (used.ru_utime + used.ru_stime - cpu.ru_utime - cpu.ru_stime) / (end - start),
                    "web_cpu": web_cpu,  # gunicorn's CPU seconds in the window
                    "db_sessions": sessions,  # opened in the window (a fault's restart opens some)
                }
            )
            log(f"load over: {len(players.accepted)} orders accepted so far")
        prober.finish()
        if args.fault:
            watcher.join(args.drain + args.duration + 60)
        scaled = {}
        if args.scaling:
            drain(stack.db_url, args.drain)
            scaled = scaling(stack, api, tokens, games, warm_games, args.scaling, args.scaling_rounds, log)
            stack.start_workers(counts[-1])  # the mail waiting meanwhile goes out
        drain_s = drain(stack.db_url, args.drain)
        time.sleep(2)  # the last mails' SMTP conversations end
        stalled_turns, stalled_mail = waiting(stack.db_url)
        counter.stop()
        stalled = len(stalled_turns) + len(stalled_mail)
        report(args, api, players, phases, stack, counter, drain_s, stalled, (prober, idle_window), scaled)
        return 0
    finally:
        stack.stop(keep_db=args.keep_db)
        if args.keep_db:
            print(f"kept: database {stack.db} ({stack.db_url}), logs in {stack.tmp}")


def report(args, api, players, phases, stack, counter, drain_s, stalled, probed, scaled):
    results = []
    for n, phase in enumerate(phases):
        seconds = phase["window"][1] - phase["window"][0]
        a = analyse(stack.db_url, stack.smtp, players.accepted, phase["window"])
        orders = phase["accepted"] - (phases[n - 1]["accepted"] if n else 0)
        results.append(
            {
                "workers": phase["workers"],
                "orders_per_s": orders / seconds,
                "turns_per_s": a["published_in_window"] / seconds,
                "api_p95_ms": p95(probed[0].within(phase["window"])),
                "api_p50_ms": statistics.median(probed[0].within(phase["window"]) or [float("nan")]),
                "players_p95_ms": p95(api.latencies(f"load{n}")),
                "poll_p95_ms": p95(api.latencies(f"load{n}", "poll")),
                "driver_cpu": phase["driver_cpu"],
                # gunicorn's CPU per request answered in the window (players' and the probe's):
                # the cost of a request, whatever else the shared machine runs
                "web_cpu_ms": 1000
                * phase["web_cpu"]
                / max(1, len(api.latencies(f"load{n}")) + len(probed[0].within(phase["window"]))),
                "order_p95_ms": p95(api.latencies(f"load{n}", "order")),
                "db_sessions_per_s": phase["db_sessions"] / seconds,
                "errors": api.errors(f"load{n}"),
            }
        )
    a = analyse(stack.db_url, stack.smtp, players.accepted, phases[-1]["window"])
    idle = probed[0].within(probed[1])
    print()
    print(
        f"{'':28}{'idle (baseline)':>18}"
        + "".join("load, {} worker(s)".format(r["workers"]).rjust(22) for r in results)
    )
    print(
        f"{'API p50 ms (probe)':28}{statistics.median(idle):18.1f}"
        + "".join(f"{r['api_p50_ms']:22.1f}" for r in results)
    )
    print(f"{'API p95 ms (probe)':28}{p95(idle):18.1f}" + "".join(f"{r['api_p95_ms']:22.1f}" for r in results))
    print(f"{'players: all p95 ms':28}{'':>18}" + "".join(f"{r['players_p95_ms']:22.1f}" for r in results))
    print(f"{'  poll (GET view) p95 ms':28}{'':>18}" + "".join(f"{r['poll_p95_ms']:22.1f}" for r in results))
    print(f"{'  orders (POST) p95 ms':28}{'':>18}" + "".join(f"{r['order_p95_ms']:22.1f}" for r in results))
    print(f"{'load driver CPU % of a core':28}{'':>18}" + "".join(f"{r['driver_cpu']:22.0f}" for r in results))
    print(f"{'web CPU ms per request':28}{'':>18}" + "".join(f"{r['web_cpu_ms']:22.1f}" for r in results))
    print(f"{'DB sessions opened/s':28}{'':>18}" + "".join(f"{r['db_sessions_per_s']:22.1f}" for r in results))
    print(f"{'orders/s':28}{'':>18}" + "".join(f"{r['orders_per_s']:22.2f}" for r in results))
    print(f"{'turns published/s':28}{'':>18}" + "".join(f"{r['turns_per_s']:22.2f}" for r in results))
    print(f"{'HTTP 5xx / no answer':28}{'':>18}" + "".join(f"{sum(r['errors'].values()):22d}" for r in results))
    counted = counter.pushes
    pushes = counted["adjudicate_turn"] + counted["send_outbox_mail"] + counted["send_outbox_mails"]
    items = a["closed"] + a["outbox_rows"]
    print(
        f"\nbroker: {dict(counted)} messages pushed for {a['closed']} adjudications and "
        f"{a['outbox_rows']} mails queued; outbox {a['outbox']}; SMTP received {sum(stack.smtp.received.values())}"
    )
    print(
        f"orders refused by the rules (400): {players.refused}; lost orders {a['lost_orders']}, lost mail "
        f"{a['lost_mail']}; duplicated mail {a['dup_mail']} ({a['dup_mail_resent']} resent after a sender "
        f"killed between the server's acceptance and its record of it), adjudications {a['dup_adjudications']}, "
        f"orders {a['dup_orders']}"
    )
    rec = phases[-1]["recovery"]
    if args.fault:
        print(f"fault {args.fault}: recovery " + _recovery_text(rec, args.drain + args.duration))
    last = results[-1]
    summary = {
        "games": args.games,
        "workers": last["workers"],
        "fault": args.fault or "none",
        "orders_per_s": f"{last['orders_per_s']:.2f}",
        "turns_per_s": f"{last['turns_per_s']:.2f}",
        "api_p95_ms": f"{last['api_p95_ms']:.0f}",
        "api_p95_idle_ms": f"{p95(idle):.0f}",
        "api_p95_ratio": f"{last['api_p95_ms'] / p95(idle):.2f}",
        "players_p95_ms": f"{last['players_p95_ms']:.0f}",
        "driver_cpu_pct": f"{last['driver_cpu']:.0f}",
        "web_cpu_ms_per_req": f"{last['web_cpu_ms']:.1f}",
        "db_sessions_per_s": f"{last['db_sessions_per_s']:.1f}",
        "close_to_published_p95_s": f"{p95(a['close_to_published']):.2f}",
        "broker_msgs_per_queued_item": f"{pushes / items:.2f}" if items else "nan",
        "lost": a["lost_orders"] + a["lost_mail"],
        "duplicated": a["dup_mail"] + a["dup_adjudications"] + a["dup_orders"],
        "duplicated_resent": a["dup_mail_resent"],
        **_recovery_keys(rec if args.fault else None),
        "stalled": stalled,
        "drain_s": f"{drain_s:.1f}",
        "http_errors": sum(last["errors"].values()),
    }
    if len(results) > 1:
        summary["turns_per_s_ratio"] = (
            f"{results[-1]['turns_per_s'] / results[0]['turns_per_s']:.2f}" if results[0]["turns_per_s"] else "nan"
        )
    for count, (turns, seconds) in sorted(scaled.items()):
        print(f"scaling: {turns} turns adjudicated by {count} worker(s) in {seconds:.1f} s")
        summary[f"turns_per_s_{count}"] = f"{turns / seconds:.2f}"
    if len(scaled) > 1:
        rates = [turns / seconds for _, (turns, seconds) in sorted(scaled.items())]
        summary["worker_scaling"] = f"{rates[-1] / rates[0]:.2f}"
    print(" ".join(f"{k}={v}" for k, v in summary.items()))


def _recovery_text(rec: dict, limit: float) -> str:
    def s(kind):
        return f"{rec[kind]:.1f} s" if rec.get(kind) is not None else f"not within {limit:.0f} s"

    turns, mail = rec.get("backlog", (0, 0))
    return f"{turns} turns waiting at the fault's end done in {s('turns')}, {mail} mails sent in {s('mail')}"


def _recovery_keys(rec: dict | None) -> dict:
    """recovery_s (the larger of the two), recovery_turns_s, recovery_mail_s, the backlog and its drain rate."""
    if rec is None:
        return {"recovery_s": "n/a"}

    def s(value):
        return f"{value:.1f}" if value is not None else "inf"

    both = [rec.get("turns"), rec.get("mail")]
    turns, mail = rec.get("backlog", (0, 0))
    return {
        "recovery_s": s(None if None in both else max(both)),
        "recovery_turns_s": s(rec.get("turns")),
        "recovery_mail_s": s(rec.get("mail")),
        "backlog_turns": turns,
        "backlog_mail": mail,
        "mail_drain_per_s": f"{mail / rec['mail']:.1f}" if rec.get("mail") else "n/a",
    }


if __name__ == "__main__":
    sys.exit(main())

"""Mail ingestion benchmark: messages/s end to end beside raw psycopg inserts.

Two paths are timed on the same kind of messages:

- batched (the summary's ``msgs_per_s`` and ``ratio_to_raw_insert``): the IMAP
  poller's path, ``ingest.ingest_many`` over batches of BATCH messages (the
  poller's FETCH_BATCH): each batch stored in one commit, then processed in
  one transaction with a savepoint per message;
- single (``msgs_per_s_single``, ``ratio_single``): the MTA pipe's and the
  webhook's path, ``ingest.ingest`` per message: two commits each (the raw
  store, then the processing).

Each message goes the whole way: stored raw, parsed, sender authenticated
(token, From, Authentication-Results), orders validated and appended through
campaigns.turns, and the acknowledgement queued in the outbox and published
to the Celery broker (Redis at BENCH_REDIS_URL; no worker consumes it, and the
queue is purged afterwards; the outbox's publisher thread is drained inside
the timing). The baseline inserts the same raw bytes, one autocommit INSERT
each, with plain psycopg into a bare table, in the same run.

The machine may be shared and noisy: ROUNDS rounds interleave the baseline and
both paths of ours (fresh games each round), and each figure is the best round of its kind;
load from elsewhere can only slow a round down, so the two best rounds are the
fairest pair (as bench/eventstore.py does). Every round is printed.

Run: python bench/mail_ingest.py   (PostgreSQL at BENCH_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/kriegsbrief_bench; BENCH_MESSAGES per round,
BENCH_ROUNDS, BENCH_PROCS, BENCH_BATCH). Ends with one key=value line.
"""
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("CELERY_BROKER_URL", os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _setup import setup_django

URL = setup_django()

import psycopg

from campaigns.mailin import imap, ingest
from campaigns.mailin.models import InboundMessage
from campaigns.mailout import outbox
from campaigns.models import Campaign, OutboxMail
from campaigns.turns import addresses, creation

N_MESSAGES = int(os.environ.get("BENCH_MESSAGES", 400))  # per round
ROUNDS = int(os.environ.get("BENCH_ROUNDS", 5))
PROCS = int(os.environ.get("BENCH_PROCS", 4))
BATCH = int(os.environ.get("BENCH_BATCH", imap.FETCH_BATCH))  # the IMAP poller's batch
# Eight messages per seat: under the per-thread reply limit (10 an hour), so every message is acknowledged.
PER_SEAT = 8
N_GAMES = -(-N_MESSAGES // PER_SEAT)
BODY = """pass
WAIT

On Mon, 16 Nov 2026 at 09:00, Kriegsbrief <umpire@kriegsbrief.localhost> wrote:
> Test game, turn 1
> form C5
"""
RAW_TABLE = "CREATE TABLE IF NOT EXISTS bench_raw_mail (id bigserial PRIMARY KEY, message_id varchar(300) UNIQUE, raw bytea NOT NULL)"


def new_seats(campaign):
    seats = []
    for i in range(N_GAMES):
        game = creation.create_game(campaign=campaign, name=f"mail bench {i}", ruleset="civilwar", seats=[
            {"role": "umpire", "email": f"u{i}@example.org"},
            {"role": "player", "side": "red", "email": f"r{i}@example.org"},
            {"role": "player", "side": "blue", "email": f"b{i}@example.org"},
        ], operator=True)
        seats.append(game.seats.get(side="red"))
    return seats


def messages(seats, tag):
    out = []
    for i in range(N_MESSAGES):
        seat = seats[i % len(seats)]
        out.append((
            f"From: Red <{seat.email}>\r\nTo: {addresses.reply_address(seat)}\r\n"
            f"Subject: Re: [Kriegsbrief] turn 1\r\nMessage-ID: <bench-{tag}-{i}@client.example>\r\n"
            f"Authentication-Results: mx.kriegsbrief.localhost; dkim=pass; dmarc=pass\r\n"
            f"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{BODY}"
        ).encode())
    return out


def bench_single(raws):
    """The MTA pipe's and webhook's path: ``ingest`` per message."""
    t0 = time.perf_counter()
    for raw in raws:
        ingest.ingest(raw, via="bench")
    outbox.flush_publisher()  # every acknowledgement's send task is on the broker inside the timing
    return len(raws) / (time.perf_counter() - t0)


def bench_batched(raws):
    """The IMAP poller's path: ``ingest_many`` per BATCH messages."""
    t0 = time.perf_counter()
    for i in range(0, len(raws), BATCH):
        ingest.ingest_many(raws[i:i + BATCH], via="bench")
    outbox.flush_publisher()
    return len(raws) / (time.perf_counter() - t0)


def _ingest_slice(raws):
    from django.db import connection

    for raw in raws:
        ingest.ingest(raw, via="bench")
    outbox.flush_publisher()
    connection.close()
    return len(raws)


def bench_parallel(raws, procs):
    """The same pipeline in ``procs`` processes (as several MTA pipes or webhook workers would
    run it), each taking whole games, so they never wait on each other's game locks."""
    import multiprocessing

    from django.db import connections

    slices = [[] for _ in range(procs)]
    for i, raw in enumerate(raws):
        slices[(i % N_GAMES) % procs].append(raw)
    connections.close_all()  # the children must not share the parent's socket
    ctx = multiprocessing.get_context("fork")
    t0 = time.perf_counter()
    with ctx.Pool(procs) as pool:
        done = sum(pool.map(_ingest_slice, slices))
    return done / (time.perf_counter() - t0)


def bench_raw(raws):
    with psycopg.connect(URL, autocommit=True) as conn:
        conn.execute(RAW_TABLE)
        conn.execute("TRUNCATE bench_raw_mail")
        rows = [(ingest.message_id(raw), raw) for raw in raws]
        t0 = time.perf_counter()
        for row in rows:
            conn.execute("INSERT INTO bench_raw_mail (message_id, raw) VALUES (%s, %s)", row)
        return len(rows) / (time.perf_counter() - t0)


def purge_broker() -> int:
    """Empty the broker; returns how many send tasks were on it (each acknowledgement's one)."""
    from kriegsbrief.celery import app

    return app.control.purge()


def counts(tag):
    """(applied, acknowledged) among this run's sequential rounds' messages."""
    mine = InboundMessage.objects.filter(via="bench", message_id__startswith=f"<bench-{tag}-")
    applied = mine.filter(status="applied").count()
    keys = [f"mailin:{pk}:ack" for pk in mine.values_list("pk", flat=True)]
    return applied, OutboxMail.objects.filter(kind="mail-reply", key__in=keys).count()


def main():
    tag = str(int(time.time()))
    campaign = Campaign.objects.create(name=f"mail bench {tag}")
    purge_broker()  # so that the count at the end is this run's tasks only
    rounds = {"raw": [], "single": [], "batched": []}
    for r in range(ROUNDS):
        raws = messages(new_seats(campaign), f"{tag}-r{r}-single")  # fresh games: no seat reaches its reply limit
        rounds["raw"].append(bench_raw(raws))  # the same bytes, into a bare table of their own
        rounds["single"].append(bench_single(raws))
        rounds["batched"].append(bench_batched(messages(new_seats(campaign), f"{tag}-r{r}-batched")))
    parallel = 0.0
    if PROCS > 1:
        parallel = bench_parallel(messages(new_seats(campaign), f"p{tag}"), PROCS)
    published = purge_broker()
    raw, single, batched = max(rounds["raw"]), max(rounds["single"]), max(rounds["batched"])
    applied, acked = counts(tag)
    total = N_MESSAGES * ROUNDS * 2
    print(f"best of {ROUNDS} interleaved rounds of {N_MESSAGES} messages each; every round (messages/s):")
    for k, v in rounds.items():
        print(f"  {k:10} " + " ".join(f"{x:7.0f}" for x in v))
    print(f"{'messages/s (best round)':52} {'msgs/s':>8} {'ratio to raw insert':>20}")
    print(f"{f'  batched: ingest_many, {BATCH} a batch (IMAP poller)':52} {batched:8.0f} {batched / raw:20.3f}")
    print(f"{'  single: ingest, one message per commit pair':52} {single:8.0f} {single / raw:20.3f}")
    print(f"{'  raw psycopg autocommit insert (baseline)':52} {raw:8.0f}")
    if PROCS > 1:
        print(f"{f'  single in {PROCS} processes (whole games each)':52} {parallel:8.0f}")
    print(f"{applied} of {total} messages applied, {acked} acknowledgements queued "
          "(each: store, parse, authenticate, validate, append, ack queued)")
    print(f"{published} send tasks found on the broker (all rounds and the parallel run)")
    print(" ".join([f"msgs_per_s={batched:.0f}", f"raw_insert_per_s={raw:.0f}", f"ratio_to_raw_insert={batched / raw:.2f}",
                    "path=batched", f"batch={BATCH}", f"msgs_per_s_single={single:.0f}", f"ratio_single={single / raw:.2f}",
                    f"msgs_per_s_{PROCS}proc={parallel:.0f}", f"messages={total}", f"applied={applied}", f"acked={acked}",
                    f"published={published}", f"rounds={ROUNDS}", f"games={N_GAMES * ROUNDS * 2}"]))


if __name__ == "__main__":
    main()

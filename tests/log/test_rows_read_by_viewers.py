"""Cost by what you may see (issue 34, point 1): answering red reads only event rows red may see.

Two Civil War games played alike (the same dice), except that in one blue sends 20,000 private
drafts of its orders - half in a turn since published, half in the open turn at the head of the
log. For red's game page, history pages, verification page, API game, view and events (the first
page and a poll at the end of its log) and red's turn reports by mail, every SQL statement is
captured at the driver (Django's cursors, the server-side cursor of an iterator, and the event
store's own psycopg cursors alike), run again under EXPLAIN ANALYZE, and the event-table rows
its plan touched counted: rows returned by every scan of ``campaigns_event`` plus the rows it
removed by a filter or a recheck, times its loops. Red must read exactly as many rows in the
busy game as in the quiet one (a scan that reached the hidden rows would differ by thousands),
and no statement more than red may see of the game plus one (the head of the log, where a load
starts) - a scan of the whole table reads as much for either game. With the plans PostgreSQL
makes for the values at hand and with the generic plans a prepared statement is switched to
(``plan_cache_mode``); with statistics of the table and without (the flood came after the last
ANALYZE)."""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from dataclasses import replace
from itertools import count

import psycopg
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from psycopg import sql

from campaigns.log.eventstore import Draft, EventStore
from campaigns.mailout import reports
from campaigns.models import Event, Seat, Snapshot
from campaigns.turns import commands, gamelog
from rules.civilwar import legal_operations
from rules.core import dice
from rules.core.protocol import RuleEvent, side_audience
from tests.conftest import new_civilwar_game
from tests.support.api import client_for
from tests.support.games import play_one

pytestmark = pytest.mark.django_db

HIDDEN = 20_000
TURNS = 5  # turns played before red looks (red moves in odd turns); blue drafts in turn 4 and in the open one


def hidden_drafts(game, n: int) -> None:
    """``n`` drafts of blue's orders in the open turn (blue to move), each private to blue: what
    blue sending the same orders again and again (not ready) appends. Appended in one go and
    with one snapshot, after the last, where a reader meets the log (each real submission
    keeps its own snapshot too, none of which a reader of the head or of a past turn reads)."""
    stream = gamelog.load(game.pk)
    turn = stream.state.turn
    assert "blue" in turn.sides, turn.sides
    text = legal_operations(stream.state.rules, "blue")[0]
    payload = {"turn": turn.number, "side": "blue", "text": text, "source": "api", "by": "carol"}
    draft = Draft(turn.number, RuleEvent("orders.submitted", payload, audience=side_audience("blue")))
    quick = EventStore(replace(gamelog.store.fold, snapshot_due=lambda *_: False), gamelog.store.projection)
    for start in range(0, n, 2000):
        stream = quick.append(stream, [draft] * min(2000, n - start))
    Snapshot.objects.create(game_id=game.pk, seq=stream.seq, state=gamelog.store.fold.snapshot(stream.state))


def played(people, monkeypatch, hidden: int):
    """A game after TURNS turns, blue to move; with ``hidden`` drafts of blue's (half of them in
    blue's second turn, which is published, half in the open turn)."""
    seeds = (f"{k:064x}" for k in count(1))
    monkeypatch.setattr(dice, "new_seed", lambda: next(seeds))
    game = new_civilwar_game(people)
    blue_turns = 0
    for _ in range(TURNS):
        if gamelog.load(game.pk).state.turn.sides[0] == "blue":
            blue_turns += 1
            if hidden and blue_turns == 2:
                hidden_drafts(game, hidden // 2)
        play_one(game)
        state = gamelog.load(game.pk).state
        if state.turn.status == "closed":  # as the worker would, once the command commits
            assert commands.adjudicate(game.pk, state.turn.number)
    if hidden:
        hidden_drafts(game, hidden - hidden // 2)
    return game


# --- every statement, as the driver was given it ---------------------------------------------


@contextmanager
def statements():
    """(cursor class, query, params) of every statement run meanwhile on any psycopg cursor:
    Django's (client-side binding), its server-side cursors, and the prepared cursors of the
    event store and ``campaigns.prepared`` (server-side binding, $n for a raw cursor)."""
    seen: list[tuple[type, str, object]] = []
    plain, server = psycopg.Cursor.execute, psycopg.ServerCursor.execute

    def record(original):
        def execute(self, query, params=None, **kwargs):
            seen.append((type(self), query if isinstance(query, str) else query.decode(), params))
            return original(self, query, params, **kwargs)

        return execute

    psycopg.Cursor.execute, psycopg.ServerCursor.execute = record(plain), record(server)
    try:
        yield seen
    finally:
        psycopg.Cursor.execute, psycopg.ServerCursor.execute = plain, server


EVENT_TABLE = re.compile(r'\bcampaigns_event\b"?(?!_)')


def _numbered(query: str) -> str:
    """%s placeholders as $1, $2... (%% as %), as the driver sends them for server-side binding."""
    n = count(1)
    return re.sub(r"%(.)", lambda m: "%" if m.group(1) == "%" else f"${next(n)}", query)


def event_rows(plan: dict) -> int:
    """Event-table rows a plan's nodes read: returned plus removed by a filter or a recheck, per loop."""
    rows = 0
    if plan.get("Relation Name") == "campaigns_event":
        per_loop = (
            plan["Actual Rows"] + plan.get("Rows Removed by Filter", 0) + plan.get("Rows Removed by Index Recheck", 0)
        )
        rows += per_loop * plan["Actual Loops"]
    return rows + sum(event_rows(p) for p in plan.get("Plans", ()))


def plan_lines(plan: dict, depth: int = 0) -> list[str]:
    """A plan in short, one node a line (what to look at when the test fails)."""
    where = " ".join(str(plan[k]) for k in ("Index Name", "Relation Name", "Index Cond", "Filter") if k in plan)
    line = f"{'  ' * depth}{plan['Node Type']} {where} rows={plan.get('Actual Rows')}"
    removed = plan.get("Rows Removed by Filter")
    out = [line + (f" removed={removed}" if removed else "")]
    for p in plan.get("Plans", ()):
        out += plan_lines(p, depth + 1)
    return out


def rows_read(recorded, generic: bool) -> list[tuple[int, str, list[str]]]:
    """(event rows read, statement, its plan) for each recorded statement that names the event
    table, run again as ``PREPARE``/``EXPLAIN ANALYZE EXECUTE``. Django binds its statements'
    values on the client, so PostgreSQL plans each for its values (a custom plan); the statements
    bound on the server (``campaigns.prepared``'s, the event store's) are prepared after a few
    runs, and may then run a generic plan: with ``generic``, they are made to."""
    out = []
    raw = connection.connection
    with raw.cursor() as cur:
        for kind, query, params in recorded:
            if not EVENT_TABLE.search(query):
                continue
            assert re.match(r"[\s(]*(SELECT|WITH)\b", query, re.I), f"a viewer's request wrote: {query[:200]}"
            on_client = issubclass(kind, psycopg.client_cursor.ClientCursorMixin)
            mode = "force_generic_plan" if generic and not on_client else "force_custom_plan"
            cur.execute(sql.SQL("SET plan_cache_mode = {}").format(sql.Literal(mode)))
            text = query if issubclass(kind, psycopg.RawCursor) else _numbered(query)
            values = ", ".join(sql.Literal(p).as_string(raw) for p in params or ())
            cur.execute(f"PREPARE kb_rows AS {text}")
            try:
                cur.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE kb_rows{f'({values})' if values else ''}")
                plan = cur.fetchone()[0]
            finally:
                cur.execute("DEALLOCATE kb_rows")
            plan = (json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"]
            out.append((event_rows(plan), query, plan_lines(plan)))
        cur.execute("RESET plan_cache_mode")
    return out


def last_cursor(client, game) -> str:
    page = client.get(f"/api/games/{game.pk}/events/?limit=500").json()
    while page["next"]:
        page = client.get(page["next"]).json()
    return page["cursor"]


def answers(people, game) -> dict[str, list]:
    """The statements of each of red's answers."""
    client = client_for(people["bob"])
    published = sorted(game.events.filter(type="turn.published").values_list("turn", flat=True))
    assert len(published) >= 3, published
    urls = {
        "game page": f"/games/{game.pk}/",
        **{f"history of turn {n}": f"/games/{game.pk}/turns/{n}/" for n in published},
        "verification page": f"/games/{game.pk}/verification/",
        "api game": f"/api/games/{game.pk}/",
        "api view": f"/api/games/{game.pk}/view/",
        "api events": f"/api/games/{game.pk}/events/?limit=100",
        "api events poll": f"/api/games/{game.pk}/events/?limit=100&cursor={last_cursor(client, game)}",
    }
    out = {}
    for name, url in urls.items():
        with CaptureQueriesContext(connection) as django_side, statements() as recorded:
            res = client.get(url)
        assert res.status_code == 200, (name, res.content[:300])
        # the driver saw at least every statement Django did (and the event store's besides)
        assert len(recorded) >= len(django_side.captured_queries), name
        out[name] = recorded
    seat = Seat.objects.get(game=game, side="red")
    for n in published:
        with statements() as recorded:
            reports.seat_context(game, gamelog.load(game.pk).state, seat, n)
        out[f"mail report of turn {n}"] = recorded
    return out


def red_may_see(game) -> int:
    return Event.objects.filter(game=game, audience__in=("public", side_audience("red"))).count()


@pytest.mark.parametrize("analyzed", [True, False], ids=["statistics", "no statistics"])
@pytest.mark.parametrize("generic", [False, True], ids=["custom plans", "generic plans"])
def test_red_reads_no_more_event_rows_for_blues_20000_hidden_events(people, monkeypatch, generic, analyzed):
    quiet = played(people, monkeypatch, 0)
    busy = played(people, monkeypatch, HIDDEN)
    assert Event.objects.filter(game=busy).count() - Event.objects.filter(game=quiet).count() == HIDDEN
    assert red_may_see(busy) == red_may_see(quiet)
    if analyzed:  # the planner knows the busy game is large; else it goes by a table it has no statistics of
        with connection.cursor() as cur:
            cur.execute("ANALYZE campaigns_event")
    measured = {
        label: {name: rows_read(recorded, generic) for name, recorded in answers(people, game).items()}
        for label, game in (("quiet", quiet), ("busy", busy))
    }
    totals = {label: {name: sum(r[0] for r in rows) for name, rows in m.items()} for label, m in measured.items()}
    print(json.dumps(totals))  # the counts, with -s
    differing = {  # what to look at when it fails: the statements that read more in the busy game, their plans
        name: [
            (b[0] - q[0], b[1][:300], b[2]) for q, b in zip(measured["quiet"][name], rows, strict=True) if b[0] != q[0]
        ]
        for name, rows in measured["busy"].items()
    }
    assert totals["busy"] == totals["quiet"], (totals, {k: v for k, v in differing.items() if v})
    assert all(totals["quiet"].values()), totals  # every answer read the log
    # And none read the rows of the game, or the table, whatever their number: a statement reads
    # at most the rows red may see, and one more (the head of the log, where a load starts).
    most = red_may_see(quiet) + 1
    over = [(label, name, r) for label, m in measured.items() for name, rows in m.items() for r in rows if r[0] > most]
    assert not over, (most, [(label, name, rows, "\n".join(plan)) for label, name, (rows, _, plan) in over[:3]])

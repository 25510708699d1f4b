"""The event store: append with expected seq, hash chain, snapshots, immutability."""

import json
from itertools import pairwise

import pytest
from django.db import DatabaseError, connection, transaction

from campaigns.models import Event, Snapshot
from campaigns.turns import gamelog
from campaigns.turns.gamelog import ConcurrencyConflict, Draft
from rules.core.canonical import canonical_json
from rules.core.protocol import RuleEvent, side_audience
from tests.services import postgres_only


def note(i):
    return Draft(
        1,
        RuleEvent(
            "orders.submitted",
            {"turn": 1, "side": "red", "text": f"# note {i}", "source": "test"},
            audience=side_audience("red"),
        ),
    )


def test_append_gives_gapless_hash_chained_sequence(game):
    stream = gamelog.load(game.pk)
    start = stream.seq
    stream = gamelog.append(stream, [note(i) for i in range(5)])
    events = list(Event.objects.filter(game=game).order_by("seq"))
    assert [e.seq for e in events] == list(range(1, start + 6))
    for prev, ev in pairwise(events):
        assert ev.prev_hash == prev.hash
    assert gamelog.head(game.pk) == (events[-1].seq, events[-1].hash) == (stream.seq, stream.head_hash)


def test_writer_that_skips_ahead_or_forks_is_refused(game):
    """The guard on the predecessor event: no gap, and no second branch of the chain."""
    stream = gamelog.load(game.pk)
    count = Event.objects.filter(game=game).count()
    ahead = gamelog.Stream(game=stream.game, seq=stream.seq + 3, head_hash=stream.head_hash, state=stream.state)
    forked = gamelog.Stream(game=stream.game, seq=stream.seq, head_hash="f" * 64, state=stream.state)
    for bad in (ahead, forked):
        with pytest.raises(ConcurrencyConflict):
            gamelog.append(bad, [note(1)])
    assert Event.objects.filter(game=game).count() == count


def test_conflict_inside_a_transaction_leaves_it_usable(game):
    """A stale writer is refused by the guard without a database error, so the caller's transaction goes on."""
    stale = gamelog.load(game.pk)
    gamelog.append(gamelog.load(game.pk), [note(1)])
    with transaction.atomic():
        with pytest.raises(ConcurrencyConflict):
            gamelog.append(stale, [note(2)])
        gamelog.append(gamelog.load(game.pk), [note(3)])
    texts = list(Event.objects.filter(game=game, type="orders.submitted").values_list("payload__text", flat=True))
    assert "# note 3" in texts and "# note 2" not in texts


def test_projection_columns_follow_the_log(game):
    from campaigns.turns.gamelog import projection

    game.refresh_from_db()
    stream = gamelog.load(game.pk)
    assert {k: getattr(game, k) for k in projection(stream.state)} == projection(stream.state)


def test_stale_writer_gets_conflict_and_nothing_is_written(game):
    stale = gamelog.load(game.pk)
    gamelog.append(gamelog.load(game.pk), [note(1)])
    count = Event.objects.filter(game=game).count()
    with pytest.raises(ConcurrencyConflict, match="expected to append after seq"):
        gamelog.append(stale, [note(2)])
    assert Event.objects.filter(game=game).count() == count


def test_append_retrying_rebuilds_from_fresh_state(game):
    stream = gamelog.append_retrying(game.pk, lambda s: [note(s.seq)])
    assert Event.objects.get(game=game, seq=stream.seq).payload["text"] == f"# note {stream.seq - 1}"


def test_load_from_snapshot_equals_full_replay(game, settings):
    gamelog.append(gamelog.load(game.pk), [note(i) for i in range(30)])
    assert Snapshot.objects.filter(game=game).exists()
    *_, (last, replayed) = gamelog.replay(game.pk)
    assert canonical_json(gamelog.load(game.pk).state.to_json()) == canonical_json(replayed.to_json())


def test_snapshots_rebuild_byte_identical(people, settings):
    from tests.conftest import new_civilwar_game

    game = new_civilwar_game(people)
    gamelog.append(gamelog.load(game.pk), [note(i) for i in range(23)])
    before = list(Snapshot.objects.filter(game=game).order_by("seq").values_list("seq", "state"))
    gamelog.rebuild_snapshots(game.pk)
    after = list(Snapshot.objects.filter(game=game).order_by("seq").values_list("seq", "state"))
    assert before and before == after


@pytest.mark.parametrize("sql", ["UPDATE campaigns_event SET type = 'x'", "DELETE FROM campaigns_event"])
def test_database_refuses_update_and_delete(game, sql):
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cur:
        cur.execute(sql)
    assert Event.objects.filter(game=game).exclude(type="x").count() == gamelog.head(game.pk)[0]


def test_orm_update_and_delete_are_refused_too(game):
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.filter(game=game).update(payload={"forged": True})
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.filter(game=game, seq=1).delete()


@postgres_only
def test_runtime_role_cannot_truncate_update_or_delete(game):
    """deploy/db-roles.sql: the runtime role may only read and append to the log."""
    with connection.cursor() as cur:
        cur.execute("DROP ROLE IF EXISTS kb_runtime_test")
        cur.execute("CREATE ROLE kb_runtime_test")
        cur.execute("GRANT SELECT, INSERT ON campaigns_event TO kb_runtime_test")
        for sql in ("TRUNCATE campaigns_event", "UPDATE campaigns_event SET type='x'", "DELETE FROM campaigns_event"):
            cur.execute("SAVEPOINT s")
            cur.execute("SET ROLE kb_runtime_test")
            with pytest.raises(DatabaseError, match="permission denied"):
                cur.execute(sql)
            cur.execute("ROLLBACK TO SAVEPOINT s")
            cur.execute("RESET ROLE")
        cur.execute("SELECT count(*) FROM campaigns_event")
        assert cur.fetchone()[0] == gamelog.head(game.pk)[0]


def test_payload_round_trip_keeps_hashes_valid(game):
    """Cyrillic, nested JSON and numbers come back from the database hashing the same."""
    payload = {
        "turn": 1,
        "side": "red",
        "text": "Красные: form C1 — «вперёд»",
        "source": "test",
        "nested": {"b": [1, 2.5, None, True], "a": "z"},
    }
    gamelog.append(gamelog.load(game.pk), [Draft(1, RuleEvent("orders.submitted", payload, audience="side:red"))])
    ev = Event.objects.filter(game=game).order_by("-seq").first()
    assert json.loads(canonical_json(ev.payload)) == payload
    assert (
        gamelog.event_hash(
            ev.prev_hash, game.uid, ev.seq, ev.turn, ev.type, ev.version, ev.payload, ev.audience, ev.created_at
        )
        == ev.hash
    )


def test_admin_shows_the_log_read_only(game, admin_client):
    ev = Event.objects.filter(game=game).first()
    assert admin_client.get(f"/admin/campaigns/event/{ev.pk}/change/").status_code == 200
    assert admin_client.post(f"/admin/campaigns/event/{ev.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Event.objects.filter(pk=ev.pk).exists()


def test_event_hash_is_sha256_over_canonical_json_of_the_whole_event():
    import hashlib
    import uuid

    from django.utils import timezone

    uid, at = uuid.uuid4(), timezone.now()
    payload = {"z": [1, "ä"], "a": {"y": None}}
    # Plain and awkward strings (quotes, escapes, control characters, non-ASCII), large integers.
    for kind, audience, seq in (("t.x", "public", 3), ('t."q"\\\n\x01ж😀', "side:крас\u2028", 2**70)):
        whole = canonical_json(
            {
                "game": str(uid),
                "seq": seq,
                "turn": 1,
                "type": kind,
                "version": 2,
                "payload": payload,
                "audience": audience,
                "at": at.isoformat(),
            }
        )
        expected = hashlib.sha256(("p" * 64 + whole).encode()).hexdigest()
        assert gamelog.event_hash("p" * 64, uid, seq, 1, kind, 2, payload, audience, at) == expected


def test_admin_outbox_is_read_only_and_hides_reply_tokens(game, admin_client):
    from campaigns.mailout.outbox import queue_mail
    from campaigns.models import OutboxMail, Seat

    seat = Seat.objects.get(game=game, side="red")
    row = queue_mail(key="t:admin", to="bob@example.org", subject="Hello", body="text", game=game, seat=seat)
    assert row.reply_to  # the seat's secret address
    page = admin_client.get(f"/admin/campaigns/outboxmail/{row.pk}/change/").content.decode()
    assert "Hello" in page and row.reply_to not in page
    assert row.reply_to not in admin_client.get("/admin/campaigns/outboxmail/").content.decode()
    assert admin_client.post(f"/admin/campaigns/outboxmail/{row.pk}/delete/", {"post": "yes"}).status_code == 403
    assert OutboxMail.objects.filter(pk=row.pk).exists()


def test_a_load_folds_no_event_whatever_was_appended(game, people):
    """Snapshots sit at every head a reader can meet (gamelog.snapshot_due), so loading a game -
    the work of answering any viewer - folds no event, however many private events came since
    the turn opened; and the snapshots still rebuild byte-identical."""
    from campaigns.turns import commands
    from tests.support.leaks import counting_folds

    for i in range(5):  # drafts replaced: private events of one side
        assert commands.submit_orders(game.pk, "red", f"# draft {i}\npass", source="api", ready=False).accepted
        with counting_folds(game.pk) as folds:
            gamelog.load(game.pk)
        assert folds[0] == 0
    gamelog.append(gamelog.load(game.pk), [note(i) for i in range(7)])
    with counting_folds(game.pk) as folds:
        gamelog.load(game.pk)
    assert folds[0] == 0
    before = list(Snapshot.objects.filter(game=game).order_by("seq").values_list("seq", "state"))
    gamelog.rebuild_snapshots(game.pk)
    assert before == list(Snapshot.objects.filter(game=game).order_by("seq").values_list("seq", "state"))


def _stream_facts(stream):
    game = stream.game
    columns = {f.attname: getattr(game, f.attname) for f in game._meta.concrete_fields}
    return columns, stream.seq, stream.head_hash, canonical_json(gamelog.store.fold.to_json(stream.state))


def test_a_load_under_holding_locks_reads_what_a_locking_load_reads(game):
    """``holding_locks``: the game row, snapshot and events read in one statement are those the
    locking load reads in two, after an append in the same transaction too."""
    with transaction.atomic():
        plain = _stream_facts(gamelog.load(game.pk, lock=True))
        with gamelog.holding_locks([game.pk]):
            assert _stream_facts(gamelog.load(game.pk, lock=True)) == plain
            stream = gamelog.append(gamelog.load(game.pk, lock=True), [note(1), note(2)])
            held = _stream_facts(gamelog.load(game.pk, lock=True))
            assert held[1:3] == (stream.seq, stream.head_hash)
        assert _stream_facts(gamelog.load(game.pk, lock=True)) == held


def test_a_missing_game_under_holding_locks_is_no_stream(game):
    held = gamelog.holding_locks([game.pk, 10**9])
    with transaction.atomic(), held, pytest.raises(type(game).DoesNotExist):
        gamelog.load(10**9, lock=True)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_holding_locks_holds_the_rows_past_a_rolled_back_savepoint(people):
    """The rows stay locked until the transaction ends, whatever savepoint inside the block is
    rolled back (mail-in's per message), so a load in the block may skip its own lock."""
    from django.db import connections

    from tests.conftest import new_civilwar_game

    game = new_civilwar_game(people)
    other = connections.create_connection("default")

    def locked_elsewhere():
        with other.cursor() as cur:
            try:  # autocommit: the lock, if it is had, ends with the statement
                cur.execute("SELECT id FROM campaigns_game WHERE id = %s FOR UPDATE NOWAIT", [game.pk])
            except DatabaseError:
                return True
            return False

    try:
        assert not locked_elsewhere()
        with pytest.raises(RuntimeError, match="inside a transaction"), gamelog.holding_locks([game.pk]):
            pass
        with transaction.atomic(), gamelog.holding_locks([game.pk]):
            assert locked_elsewhere()
            with pytest.raises(ZeroDivisionError), transaction.atomic():
                gamelog.load(game.pk, lock=True)
                raise ZeroDivisionError
            assert locked_elsewhere()
        assert not locked_elsewhere()
    finally:
        other.close()

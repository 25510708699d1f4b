"""campaigns.prepared reads and writes rows exactly as the ORM does (UUID, datetimes, JSON,
bytes, foreign keys), on PostgreSQL and SQLite alike; a duplicate insert is no error."""

import pytest
from django.db import transaction

from campaigns import prepared
from campaigns.mailin import ingest
from campaigns.mailin.models import InboundMessage, SeatAddress
from campaigns.models import Event, Game, OutboxMail, Seat
from campaigns.turns import addresses, gamelog
from rules.core.canonical import canonical_json
from tests.support.mail import seat_mail


def fields_of(obj):
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def read(model, pk):
    sql = f"SELECT {prepared.columns(model, 'x')} FROM {model._meta.db_table} x WHERE x.id = %s"
    return prepared.instance(model, prepared.fetchone(sql, [pk]))


@pytest.mark.django_db
def test_rows_read_as_the_orm_reads_them(game, red):
    row = ingest.ingest(seat_mail(red, "pass"), via="test")
    assert row.status == "applied" and row.result  # JSON, a datetime, a foreign key, bytes below
    event = Event.objects.filter(game=game).order_by("-seq").first()
    outbox_row = OutboxMail.objects.filter(to=red.email).first()
    for model, pk in (
        (Game, game.pk),
        (Seat, red.pk),
        (InboundMessage, row.pk),
        (Event, event.pk),
        (OutboxMail, outbox_row.pk),
        (SeatAddress, SeatAddress.objects.get(seat=red).pk),
    ):
        ours, orm = read(model, pk), model.objects.get(pk=pk)
        assert fields_of(ours) == fields_of(orm), model.__name__
        assert type(ours.pk) is type(orm.pk) and not ours._state.adding
    assert bytes(read(InboundMessage, row.pk).raw) == bytes(InboundMessage.objects.get(pk=row.pk).raw)


@pytest.mark.django_db
def test_lookup_gives_the_address_with_its_seat_and_game(game, red):
    address = addresses.lookup(addresses.reply_address(red))
    assert address.seat == red and address.seat.game == game
    assert str(address.seat.game.uid) == str(game.uid) and address.seat.game.name == "Test game"
    token = addresses.parse_token(addresses.reply_address(red))
    assert addresses.lookup(addresses.reply_address(red).replace(token, "0" * len(token))) is None  # unknown token


@pytest.mark.django_db
def test_prefetch_reads_a_batchs_addresses_in_one_statement_as_lookup_reads_each(game, red, blue, monkeypatch):
    revoked = addresses.reply_address(red)
    addresses.revoke(red)
    live, unknown = addresses.reply_address(red), revoked.replace(addresses.parse_token(revoked), "0" * 32)
    wanted = [live, f"Blue <{addresses.reply_address(blue)}>", revoked, unknown, "bob@example.org", live]
    statements, real = [], prepared.fetchall
    monkeypatch.setattr(prepared, "fetchall", lambda sql, params: statements.append(sql) or real(sql, params))
    known = addresses.prefetch(wanted)
    assert len(statements) == 1
    monkeypatch.undo()
    assert len(known) == 4 and known[addresses.parse_token(unknown)] is None
    for addr in wanted:
        ours, alone = addresses.lookup(addr, known), addresses.lookup(addr)
        assert (ours and fields_of(ours), ours and fields_of(ours.seat), ours and fields_of(ours.seat.game)) == (
            alone and fields_of(alone),
            alone and fields_of(alone.seat),
            alone and fields_of(alone.seat.game),
        )
    assert addresses.lookup(live, known) is not addresses.lookup(live, known)  # each message its own objects
    assert addresses.lookup(revoked, known).revoked_at is not None


@pytest.mark.django_db
def test_insert_unless_exists_inserts_once_and_never_poisons_the_transaction(game):
    first = OutboxMail(key="p-1", to="a@example.org", subject="s", body="b", game=game, message_id="<x@y>")
    again = OutboxMail(key="p-1", to="a@example.org", subject="other", body="b", game=game, message_id="<x@y>")
    with transaction.atomic():
        assert prepared.insert_unless_exists(first, "key") and first.pk
        assert not prepared.insert_unless_exists(again, "key") and again.pk is None
        assert Game.objects.filter(pk=game.pk).exists()  # the transaction is still usable
    stored = OutboxMail.objects.get(key="p-1")
    assert stored.subject == "s" and stored.created_at is not None and stored.attachments == []


@pytest.mark.django_db
def test_update_writes_only_the_named_fields(game, red):
    row = ingest.ingest(seat_mail(red, "pass"), via="test")
    row.subject, row.from_addr, row.result = "changed", "not written", {"k": [1, "ü"]}
    assert prepared.update(row, ["subject", "result"]) == 1
    fresh = InboundMessage.objects.get(pk=row.pk)
    assert fresh.subject == "changed" and fresh.result == {"k": [1, "ü"]} and fresh.from_addr != "not written"


@pytest.mark.django_db
def test_load_after_a_turn_opening_starts_at_its_snapshot(game):
    from campaigns.models import Snapshot

    opened = Event.objects.get(game=game, type="turn.opened").seq
    # kept after the opening's sealed seed, the next event of the same append (gamelog.snapshot_due)
    assert list(Snapshot.objects.filter(game=game).values_list("seq", flat=True)) == [opened + 1]
    *_, (last, replayed) = gamelog.replay(game.pk)
    assert canonical_json(gamelog.load(game.pk).state.to_json()) == canonical_json(replayed.to_json())


@pytest.mark.django_db
def test_a_statement_of_many_parameters_reads_as_a_small_one(game):
    """More than psycopg keeps its reading of (50): numbered once, the same rows and '%%' as '%'."""
    from django.db import connection

    values = [f"v{i}%" for i in range(120)]
    sql = f"SELECT x || '%%' FROM unnest(ARRAY[{', '.join(['%s'] * len(values))}]::text[]) AS x WHERE x LIKE 'v%%'"
    with connection.cursor() as cur:
        cur.execute(sql, values)
        expected = cur.fetchall()
    assert prepared.fetchall(sql, values) == expected == [(f"{v}%",) for v in values]
    assert prepared.fetchall(sql, values) == expected  # again, from the numbered statement kept
    ids = [game.pk] + [-i for i in range(1, 60)]
    sql = f"SELECT id, name FROM campaigns_game WHERE id IN ({', '.join(['%s'] * len(ids))})"
    assert prepared.fetchall(sql, ids) == [(game.pk, game.name)]


def test_only_percent_s_placeholders_are_numbered():
    assert prepared._numbered("SELECT %s, '%%', %s") == "SELECT $1, '%', $2"
    with pytest.raises(ValueError, match="only %s"):
        prepared._numbered("SELECT %(name)s")

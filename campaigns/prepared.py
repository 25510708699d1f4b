"""A few hot statements as prepared statements, their rows as model instances.

Why: Django binds parameters on the client, so PostgreSQL parses and plans
every ORM query again, and the ORM compiles it again in Python; for the small
statements an inbound message needs that costs 0.3-1 ms each, many times the
query itself (measured with bench/mail_ingest.py). Statements that run once
per message go through psycopg on Django's own connection (so in the same
transaction), bound on the server and prepared after DATABASE_PREPARE_THRESHOLD
uses, as the PostgreSQL recorder (campaigns.log.recorders) does. Elsewhere (SQLite, the embedded default)
the same SQL runs through Django's cursor.

Values go in through each field's own ``pre_save``/``get_db_prep_save`` and
come back through Django's converters, so a UUID, a datetime or JSON reads and
writes exactly as through the ORM on every backend.
"""

from __future__ import annotations

import contextlib
import re
from functools import cache, lru_cache
from typing import TypeVar

import psycopg
from django.db import connection, transaction
from django.db.models import Model

M = TypeVar("M", bound=Model)


def _conn():
    """Django's connection wrapper itself: every attribute read through the ``connection`` proxy
    is a thread-local lookup, and a message's statements made some seventy of them."""
    return transaction.get_connection()


def _cursor(conn):
    # As Django's own cursor does: a connection kept from an earlier request is checked once a
    # request (CONN_HEALTH_CHECKS), so one a database restart broke is replaced, not used - an API
    # poll's first statement is one of these (api/tokens.py).
    conn.close_if_health_check_failed()
    conn.ensure_connection()
    if conn.vendor == "postgresql":
        return contextlib.nullcontext(kept_cursor(conn))
    return conn.cursor()


def kept_cursor(conn, *, numbered: bool = False) -> psycopg.Cursor:
    """One psycopg cursor per database connection, kept: making one (its adapters and
    transformer) costs more Python than running a small prepared statement. Kept on Django's
    connection wrapper with the connection it was made for, so a new connection gets a new one.
    ``numbered``: a raw cursor, for statements whose placeholders are $1, $2, ... (``_numbered``)."""
    raw = conn.connection
    name = "_kb_numbered_cursor" if numbered else "_kb_prepared_cursor"
    kept = getattr(conn, name, None)
    if kept is None or kept[0] is not raw or kept[1].closed:
        kept = (raw, (psycopg.RawCursor if numbered else psycopg.Cursor)(raw))
        setattr(conn, name, kept)
    return kept[1]


# psycopg keeps its reading of a statement's %s placeholders only for statements of at most 50
# parameters (and 4 KB): a multi-row statement with more (mail-in's batch INSERT of 50 rows: 850)
# was read again on every run, placeholder by placeholder in Python (~90 us a message of the
# batch). Those go with their placeholders numbered here once, through a raw cursor.
_READ_EVERY_TIME = 50


def fetchall(sql: str, params) -> list[tuple]:
    conn = _conn()
    with conn.wrap_database_errors, _cursor(conn) as cur:
        if len(params) > _READ_EVERY_TIME and conn.vendor == "postgresql":
            cur, sql = kept_cursor(conn, numbered=True), _numbered(sql)
        cur.execute(sql, params)
        return cur.fetchall()


_PLACEHOLDER = re.compile(r"%(.)", re.DOTALL)


@lru_cache(maxsize=64)
def _numbered(sql: str) -> str:
    """``sql`` with its %s placeholders as $1, $2, ... and %% as %, as psycopg reads it; only
    %s placeholders (what this module writes)."""
    count = 0

    def number(m: re.Match) -> str:
        nonlocal count
        if m.group(1) == "%":
            return "%"
        if m.group(1) != "s":
            raise ValueError(f"only %s placeholders are numbered, not %{m.group(1)}")
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


def fetchone(sql: str, params) -> tuple | None:
    rows = fetchall(sql, params)
    return rows[0] if rows else None


def execute(sql: str, params) -> int:
    """Run one statement; returns the number of rows it touched."""
    conn = _conn()
    with conn.wrap_database_errors, _cursor(conn) as cur:
        cur.execute(sql, params)
        return cur.rowcount


def for_update() -> str:
    """' FOR UPDATE' where the database locks rows (SQLite locks the whole file anyway)."""
    return " FOR UPDATE" if connection.features.has_select_for_update else ""


def q(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _fields(model: type[Model]) -> tuple:
    return tuple(model._meta.concrete_fields)


@cache
def columns(model: type[Model], alias: str) -> str:
    """Every concrete column of ``model`` for a SELECT, in the order ``instance`` reads them."""
    return ", ".join(f"{q(alias)}.{q(f.column)}" for f in _fields(model))


def width(model: type[Model]) -> int:
    return len(_fields(model))


@lru_cache(maxsize=64)  # bounded: a threaded server has a connection per thread
def _reader(model: type[Model], conn) -> tuple[list, list[str]]:
    """(column, converters) per field that needs converting, and the attnames: per
    model and connection, because the ``connection`` proxy is slow to go through."""
    convert = []
    for i, f in enumerate(_fields(model)):
        col = f.get_col(model._meta.db_table)
        convs = conn.ops.get_db_converters(col) + f.get_db_converters(conn)
        if convs:
            convert.append((i, col, convs))
    return convert, [f.attname for f in _fields(model)]


def instance(model: type[M], values) -> M:
    """A model instance from the values of ``columns(model, ...)``, converted as the ORM would."""
    conn = transaction.get_connection()
    convert, names = _reader(model, conn)
    values = list(values)
    for i, col, convs in convert:
        for conv in convs:
            values[i] = conv(values[i], col, conn)
    return model.from_db(conn.alias, names, values)


def instances(row, *models: type[Model]) -> list[Model]:
    """Split one joined row (``columns`` of each model in turn) into instances."""
    out, start = [], 0
    for model in models:
        out.append(instance(model, row[start : start + width(model)]))
        start += width(model)
    return out


def db_value(obj: Model, name: str, *, add: bool = False, conn=None):
    """The value of field ``name`` of ``obj`` ready for the database (``pre_save`` first, as a save would)."""
    field = obj._meta.get_field(name)
    return field.get_db_prep_save(field.pre_save(obj, add), conn or _conn())


def insert_unless_exists(obj: Model, unique: str) -> bool:
    """INSERT ``obj`` unless a row with the same ``unique`` column exists: one statement, no
    savepoint (a duplicate is not an error, so it cannot poison the caller's transaction).
    Sets ``obj.pk`` and returns True when inserted; False when the row was already there."""
    opts = obj._meta
    fields = [f for f in _fields(type(obj)) if f is not opts.pk]
    sql = _insert_sql(type(obj), unique)
    conn = _conn()
    row = fetchone(sql, [f.get_db_prep_save(f.pre_save(obj, True), conn) for f in fields])
    if row is None:
        return False
    obj.pk = row[0]
    obj._state.adding, obj._state.db = False, conn.alias
    return True


def insert_many_unless_exist(objs: list[Model], unique: str) -> list[bool]:
    """``insert_unless_exists`` for many objects of one model in one multi-row statement (a few
    where the database caps the number of parameters). Returns, per object, whether it was
    inserted (its ``pk`` set); an object whose ``unique`` value exists already, or repeats an
    earlier object's in ``objs``, is not inserted and keeps ``pk`` None."""
    if not objs:
        return []
    model = type(objs[0])
    opts = model._meta
    fields = [f for f in _fields(model) if f is not opts.pk]
    ucol = opts.get_field(unique)
    inserted = [False] * len(objs)
    conn = _conn()
    step = max(1, _MAX_PARAMS // len(fields))
    for start in range(0, len(objs), step):
        chunk = objs[start : start + step]
        params = [f.get_db_prep_save(f.pre_save(obj, True), conn) for obj in chunk for f in fields]
        waiting: dict = {}  # unique value -> indexes of objects with it, first first
        for i, obj in enumerate(chunk, start):
            waiting.setdefault(ucol.get_db_prep_save(getattr(obj, ucol.attname), conn), []).append(i)
        for pk, value in fetchall(_insert_sql(model, unique, len(chunk), returning_unique=True), params):
            i = waiting[value].pop(0)  # the first object with this value is the one inserted
            objs[i].pk, inserted[i] = pk, True
            objs[i]._state.adding, objs[i]._state.db = False, conn.alias
    return inserted


_MAX_PARAMS = 900  # under SQLite's oldest limit (999); PostgreSQL takes 65535


@cache
def _insert_sql(model: type[Model], unique: str, rows: int = 1, returning_unique: bool = False) -> str:
    opts = model._meta
    fields = [f for f in _fields(model) if f is not opts.pk]
    values = ", ".join([f"({', '.join(['%s'] * len(fields))})"] * rows)
    ucol = q(opts.get_field(unique).column)
    returning = q(opts.pk.column) + (f", {ucol}" if returning_unique else "")
    return (
        f"INSERT INTO {q(opts.db_table)} ({', '.join(q(f.column) for f in fields)}) "
        f"VALUES {values} ON CONFLICT ({ucol}) DO NOTHING RETURNING {returning}"
    )


def update(obj: Model, names: list[str]) -> int:
    """UPDATE the fields ``names`` of ``obj`` by primary key, values prepared as ``save`` would."""
    conn = _conn()
    return execute(_update_sql(type(obj), tuple(names)), [db_value(obj, n, conn=conn) for n in names] + [obj.pk])


def update_many(objs: list[Model], names: list[str]) -> None:
    """``update`` for each of ``objs`` (one model), in one ``executemany``: psycopg sends the
    statements in a pipeline, one round trip for them all."""
    conn = _conn()
    sql = _update_sql(type(objs[0]), tuple(names))
    params = [[db_value(obj, n, conn=conn) for n in names] + [obj.pk] for obj in objs]
    with conn.wrap_database_errors, _cursor(conn) as cur:
        cur.executemany(sql, params)


@cache
def _update_sql(model: type[Model], names: tuple[str, ...]) -> str:
    opts = model._meta
    sets = ", ".join(f"{q(opts.get_field(n).column)} = %s" for n in names)
    return f"UPDATE {q(opts.db_table)} SET {sets} WHERE {q(opts.pk.column)} = %s"

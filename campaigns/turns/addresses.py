"""Each seat's secret reply address.

The local part carries a random token of 128 bits: ``orders+<token>@domain``
(``orders.<token>`` is accepted too, for providers that drop ``+`` tags). The
token alone decides the seat; the sender must also be the seat's registered
address (checked in ``authn``). Tokens are lower-case hex so that mail systems
that fold the case of local parts cannot break them.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable
from email.utils import getaddresses
from functools import lru_cache

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns import prepared
from campaigns.models import Game, Seat, SeatAddress

from . import signals

TOKEN_BYTES = 16  # 128 bits

__all__ = [
    "SeatAddress",
    "reply_address",
    "address_of",
    "revoke",
    "renew",
    "seat_for_address",
    "lookup",
    "prefetch",
    "parse_token",
]


def _local() -> str:
    return settings.INBOUND_LOCAL_PART


def _domain() -> str:
    return settings.INBOUND_DOMAIN.lower()


def reply_address(seat: Seat) -> str:
    """The seat's reply address; creates its token on first use. Only an accepted seat has one."""
    if seat.status != Seat.Status.ACTIVE:
        raise ValueError(f"seat {seat.pk} has not been accepted: it has no reply address")
    row = SeatAddress.objects.filter(seat=seat, revoked_at__isnull=True).first()
    if row is None:
        try:
            with transaction.atomic():
                row = SeatAddress.objects.create(seat=seat, token=secrets.token_hex(TOKEN_BYTES))
        except IntegrityError:
            # Another process created the live address first: use that one.
            row = SeatAddress.objects.get(seat=seat, revoked_at__isnull=True)
    return address_of(row)


def address_of(row: SeatAddress) -> str:
    return f"{_local()}+{row.token}@{_domain()}"


def revoke(seat: Seat) -> int:
    """Revoke the seat's live address; the next ``reply_address`` makes a new one."""
    return SeatAddress.objects.filter(seat=seat, revoked_at__isnull=True).update(revoked_at=timezone.now())


def renew(seat: Seat, reason: str) -> str:
    """Give the seat a new secret address (say, the old one was forwarded or quoted somewhere public):
    the old one is refused from now on, and the seat is told from the new one, whose Reply-To it is."""
    with transaction.atomic():
        revoke(seat)
        new = reply_address(seat)
        row = SeatAddress.objects.get(seat=seat, revoked_at__isnull=True)
        signals.address_renewed.send(sender=__name__, seat=seat, address=row, reason=reason)
    return new


def parse_token(addr: str) -> str | None:
    """The token in one of our addresses (any display name, any case), else None."""
    return _parse_token(addr or "", _local(), _domain())


@lru_cache(maxsize=256)  # a batch reads each recipient twice (``prefetch``, then ``lookup``)
def _parse_token(addr: str, ours_local: str, ours_domain: str) -> str | None:
    pairs = getaddresses([addr])
    if len(pairs) != 1:
        return None
    local, at, domain = pairs[0][1].rpartition("@")
    if not at or domain.lower() != ours_domain:
        return None
    m = re.fullmatch(rf"{re.escape(ours_local)}[+.]([0-9a-f]{{{TOKEN_BYTES * 2}}})", local, re.IGNORECASE)
    return m.group(1).lower() if m else None


def prefetch(addrs: Iterable[str]) -> dict[str, tuple | None]:
    """What ``lookup`` would read for each of ``addrs`` that names one of our addresses, in one
    statement (mail-in's batches: one query for every recipient of the batch): the joined row
    by token, None for a token no address has. Rows, not instances: each ``lookup`` builds its
    own, so two messages of a batch never share (and never change each other's) objects."""
    tokens = sorted({t for t in map(parse_token, addrs) if t is not None})
    found: dict[str, tuple | None] = dict.fromkeys(tokens)
    if tokens:
        sql = _lookup_sql().replace("a.token = %s", f"a.token IN ({', '.join(['%s'] * len(tokens))})")
        token_at = [f.attname for f in SeatAddress._meta.concrete_fields].index("token")
        found.update((row[token_at], row) for row in prepared.fetchall(sql, tokens))
    return found


def games_of(known: dict[str, tuple | None]) -> set[int]:
    """The ids of the games whose seats the rows ``prefetch`` read belong to."""
    at = prepared.width(SeatAddress) + [f.attname for f in Seat._meta.concrete_fields].index("game_id")
    return {row[at] for row in known.values() if row is not None}


def lookup(addr: str, known: dict[str, tuple | None] | None = None) -> SeatAddress | None:
    """The address row (live or revoked) an address names, or None. ``known``: rows ``prefetch``
    read for this address's token (a token it does not hold is read here)."""
    token = parse_token(addr)
    if token is None:
        return None
    # Else one joined, prepared statement: this runs for every inbound message.
    row = known[token] if known is not None and token in known else prepared.fetchone(_lookup_sql(), [token])
    if row is None:
        return None
    address, seat, game = prepared.instances(row, SeatAddress, Seat, Game)
    seat.game = game
    address.seat = seat
    return address


@lru_cache(maxsize=1)
def _lookup_sql() -> str:
    c = prepared.columns
    return (
        f"SELECT {c(SeatAddress, 'a')}, {c(Seat, 's')}, {c(Game, 'g')} FROM mailin_seataddress a"
        " JOIN campaigns_seat s ON s.id = a.seat_id JOIN campaigns_game g ON g.id = s.game_id"
        " WHERE a.token = %s"
    )


def seat_for_address(addr: str) -> Seat | None:
    """The seat a live reply address belongs to; None if unknown or revoked."""
    row = lookup(addr)
    live = row is not None and row.revoked_at is None and row.seat.status == Seat.Status.ACTIVE
    return row.seat if live else None

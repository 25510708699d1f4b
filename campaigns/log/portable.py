"""Export a game as JSON Lines and import it elsewhere with identical hashes.

Line 1 is a header (format, game, seats); every further line is one event
exactly as stored. An export for a viewer holds only what that viewer may see,
numbered as that viewer sees the log (1, 2, 3...: the gaps between the log's seqs
would count the events hidden from them), without the hash chain (a hash following
a hidden event would let the viewer check guesses about it), and is not importable.

Which events a viewer may see, the fold, the projection and the verification are the
caller's (campaigns.turns.archive): the log knows none of them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import IO, Any, Protocol

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.dateparse import parse_datetime

from campaigns.models import Campaign, Event, Game, Seat
from rules.core.protocol import Viewer

from .eventstore import EventStore
from .verify import Report

FORMAT = "kriegsbrief-game"


class ImportRejected(Exception):
    pass


class NumberedEvent(Protocol):
    """An event as the export reads it: an ``Event`` with the ``number`` its viewer knows it by
    (campaigns.turns.viewing.numbered sets it)."""

    number: int
    turn: int
    type: str
    version: int
    payload: Any
    audience: str
    created_at: datetime
    prev_hash: str
    hash: str


def export_lines(game: Game, events: Iterable[NumberedEvent], viewer: Viewer | None = None) -> Iterable[str]:
    """``events``: what ``viewer`` may see (all for the umpire or None), each with its ``number``."""
    header = {
        "format": FORMAT,
        "version": 1,
        "complete": viewer is None or viewer.is_umpire,
        "game": {"uid": str(game.uid), "name": game.name, "ruleset": game.ruleset, "campaign": game.campaign.name},
    }
    if viewer is None or viewer.is_umpire:
        header["seats"] = [
            {
                "role": s.role,
                "side": s.side,
                **({"command": s.command} if s.command else {}),
                "email": s.email,
                "status": s.status,
                "username": s.user.username if s.user else None,
            }
            for s in game.seats.select_related("user").order_by("pk")
        ]
    else:
        header["viewer"] = {"role": viewer.role, "side": viewer.side}
    yield json.dumps(header, sort_keys=True)
    complete = header["complete"]
    for ev in events:
        # A complete export's numbers are the log's seqs (the umpire's numbering).
        row = {
            "seq": ev.number,
            "turn": ev.turn,
            "type": ev.type,
            "version": ev.version,
            "payload": ev.payload,
            "audience": ev.audience,
            "created_at": ev.created_at.isoformat(),
        }
        if complete:
            # Only a complete export carries the chain: in a viewer's export the hash after a
            # hidden event would let the viewer test a guess of that event's content.
            row.update(prev_hash=ev.prev_hash, hash=ev.hash)
        yield json.dumps(row, sort_keys=True, ensure_ascii=False)


def import_stream(fh: IO[str], store: EventStore, verify_game: Callable[[Game], Report]) -> Game:
    """Import a complete export; ``verify_game(game) -> report`` must find it sound."""
    lines = (line for line in fh if line.strip())
    try:
        header = json.loads(next(lines))
    except (StopIteration, json.JSONDecodeError) as exc:
        raise ImportRejected(f"line 1: not a {FORMAT} header ({exc})") from None
    if header.get("format") != FORMAT or header.get("version") != 1:
        raise ImportRejected(f"line 1: expected format {FORMAT} version 1")
    if not header.get("complete"):
        raise ImportRejected("this is a single viewer's export; only a complete export can be imported")
    meta = header["game"]
    if Game.objects.filter(uid=meta["uid"]).exists():
        raise ImportRejected(f"game {meta['uid']} already exists in this database")
    User = get_user_model()
    with transaction.atomic():
        campaign, _ = Campaign.objects.get_or_create(name=meta["campaign"])
        game = Game.objects.create(uid=meta["uid"], campaign=campaign, name=meta["name"], ruleset=meta["ruleset"])
        for s in header.get("seats", []):
            user = User.objects.filter(username=s["username"]).first() if s.get("username") else None
            # An operator's import: seats stay as they were (an open invitation stays one; older exports: active).
            Seat.objects.create(
                game=game,
                role=s["role"],
                side=s["side"],
                email=s["email"],
                user=user,
                status=s.get("status", Seat.Status.ACTIVE),
                command=s.get("command", ""),
            )
        rows = []
        for lineno, line in enumerate(lines, start=2):
            try:
                e = json.loads(line)
                rows.append(
                    Event(
                        game=game,
                        seq=e["seq"],
                        turn=e["turn"],
                        type=e["type"],
                        version=e["version"],
                        payload=e["payload"],
                        audience=e["audience"],
                        created_at=_moment(e["created_at"]),
                        prev_hash=e["prev_hash"],
                        hash=e["hash"],
                    )
                )
            except (KeyError, TypeError, ValueError) as exc:  # ValueError: bad JSON too
                raise ImportRejected(f"line {lineno}: not an event ({type(exc).__name__}: {exc})") from None
        Event.objects.bulk_create(rows, batch_size=1000)
        state = store.fold.empty()
        for row in rows:
            state = store.fold.event(state, row)
        if store.projection is not None:
            Game.objects.filter(pk=game.pk).update(**store.projection(state))
        game.refresh_from_db()
        store.rebuild_snapshots(game.pk)
        report = verify_game(game)
        if not report.ok:
            raise ImportRejected("the imported log does not verify: " + "; ".join(report.problems[:5]))
    return game


def _moment(text: str) -> datetime:
    """An event's ``created_at``; a clear rejection, not a database error later, if it is not one."""
    moment = parse_datetime(text)
    if moment is None:
        raise ValueError(f"created_at {text!r} is not an ISO date-time")
    return moment

"""A whole campaign exported as one JSON Lines file and imported elsewhere as it was: its games with
their uids and hashes, its record with the same seqs, times and hashes (export_campaign,
import_campaign).

The file, one JSON document a line:

- line 1, the header: ``{"format": "kriegsbrief-campaign", "version": 1, "campaign": {"uid", "name",
  "description", "created_at", "created_by", "record_name"}, "games": [{"uid", "name"}...],
  "record": <number of record entries>}``. ``record_name`` is the name the record's hashes cover
  (record.campaign_uid: ``campaign:<uid>``, or the database id a record begun before campaigns had
  uids was begun with).
- for each game of ``games``, in that order: ``{"section": "game", "uid": ..., "lines": N}``, then the
  N lines of that game's complete export exactly as ``export_game`` writes them (its own header,
  then its events with their seqs and hashes: campaigns/log/portable.py).
- ``{"section": "record", "entries": M}``, then the record's M entries in seq order:
  ``{"seq", "type", "payload", "created_at", "prev_hash", "hash"}``.

The import takes all of it or nothing (one transaction): each game is imported as import_game does
(same uid, its log verified by verify_game, seats as they were), then the record is written as it
was and checked (its chain under ``record_name``, and every battle's links to the games' logs). A
campaign or game whose uid the database already holds is refused before anything is written.
"""

from __future__ import annotations

import io
import json
import re
import uuid
from collections.abc import Iterable, Iterator
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.dateparse import parse_datetime

from campaigns.models import Campaign, Game
from campaigns.turns import archive
from campaigns.turns.archive import ImportRejected

from . import record
from .models import CampaignEvent, LegacyRecordName
from .verify import verify_record

FORMAT = "kriegsbrief-campaign"
VERSION = 1
LEGACY_NAME = re.compile(r"campaign:[0-9]+")

__all__ = ["FORMAT", "ImportRejected", "export_lines", "import_stream"]


def export_lines(campaign: Campaign) -> Iterable[str]:
    games = list(Game.objects.filter(campaign=campaign).order_by("pk"))
    entries = record.entries(campaign)
    header = {
        "format": FORMAT,
        "version": VERSION,
        "campaign": {
            "uid": str(campaign.uid),
            "name": campaign.name,
            "description": campaign.description,
            "created_at": campaign.created_at.isoformat(),
            "created_by": campaign.created_by.username if campaign.created_by else None,
            "record_name": record.campaign_uid(campaign),
        },
        "games": [{"uid": str(g.uid), "name": g.name} for g in games],
        "record": len(entries),
    }
    yield json.dumps(header, sort_keys=True, ensure_ascii=False)
    for game in games:
        lines = list(archive.export_lines(game))
        yield json.dumps({"section": "game", "uid": str(game.uid), "lines": len(lines)}, sort_keys=True)
        yield from lines
    yield json.dumps({"section": "record", "entries": len(entries)}, sort_keys=True)
    for e in entries:
        row = {
            "seq": e.seq,
            "type": e.type,
            "payload": e.payload,
            "created_at": e.created_at.isoformat(),
            "prev_hash": e.prev_hash,
            "hash": e.hash,
        }
        yield json.dumps(row, sort_keys=True, ensure_ascii=False)


class _Lines:
    """The file's non-blank lines with their line numbers in the file."""

    def __init__(self, fh: IO[str]):
        self._it: Iterator[tuple[int, str]] = (
            (n, line.rstrip("\n")) for n, line in enumerate(fh, start=1) if line.strip()
        )
        self.lineno = 0

    def next(self, what: str) -> str:
        try:
            self.lineno, line = next(self._it)
        except StopIteration:
            raise ImportRejected(f"the file ends early: expected {what} after line {self.lineno}") from None
        return line

    def json(self, what: str) -> Any:
        line = self.next(what)
        try:
            return json.loads(line)
        except ValueError as exc:
            raise ImportRejected(f"line {self.lineno}: expected {what}, not JSON ({exc})") from None

    def rest(self) -> int | None:
        """The number of the first line left over, or None."""
        return next((n for n, _ in self._it), None)


def import_stream(fh: IO[str]) -> Campaign:
    """Import a campaign file whole, or refuse it (ImportRejected) and keep nothing of it."""
    lines = _Lines(fh)
    header = lines.json(f"a {FORMAT} header")
    if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("version") != VERSION:
        raise ImportRejected(f"line 1: expected format {FORMAT} version {VERSION}")
    try:
        meta = header["campaign"]
        uid, record_name = str(uuid.UUID(meta["uid"])), str(meta["record_name"])
        listed = [(str(uuid.UUID(g["uid"])), str(g["name"])) for g in header["games"]]
        count = int(header["record"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ImportRejected(f"line 1: not a campaign header ({type(exc).__name__}: {exc})") from None
    if record_name != f"campaign:{uid}" and not LEGACY_NAME.fullmatch(record_name):
        raise ImportRejected(f"line 1: the record's name {record_name!r} is neither campaign:<uid> nor campaign:<id>")
    if Campaign.objects.filter(uid=uid).exists():
        raise ImportRejected(f"campaign {uid} already exists in this database")
    present = [g for g, _ in listed if Game.objects.filter(uid=g).exists()]
    if present:
        raise ImportRejected(f"game {', '.join(present)} of this campaign already exists in this database")
    try:
        with transaction.atomic():
            campaign = _import(lines, meta, listed, count, record_name)
    except IntegrityError as exc:  # the same campaign imported at the same moment by another process
        raise ImportRejected(f"campaign {uid} could not be written: {exc}") from None
    return campaign


def _import(lines: _Lines, meta: dict[str, Any], listed: list[tuple[str, str]], count: int, name: str) -> Campaign:
    uid = str(meta["uid"])
    # The games' imports find their campaign by the name in their headers (campaigns.log.portable):
    # they are given this one's, unique while the transaction lasts, and it gets its own at the end.
    interim = f"(import of campaign {uid})"
    campaign = Campaign.objects.create(uid=uid, name=interim, description=str(meta.get("description") or ""))
    for game_uid, game_name in listed:
        _import_game(lines, campaign, interim, game_uid, game_name)
    section = lines.json("the record's section")
    if not isinstance(section, dict) or section.get("section") != "record" or section.get("entries") != count:
        raise ImportRejected(f"line {lines.lineno}: expected the record's section of {count} entries")
    rows = []
    for _ in range(count):
        e = lines.json("a record entry")
        try:
            moment = parse_datetime(e["created_at"])
            if moment is None:
                raise ValueError(f"created_at {e['created_at']!r} is not an ISO date-time")
            rows.append(
                CampaignEvent(
                    campaign=campaign,
                    seq=int(e["seq"]),
                    type=str(e["type"]),
                    payload=e["payload"],
                    created_at=moment,
                    prev_hash=str(e["prev_hash"]),
                    hash=str(e["hash"]),
                )
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ImportRejected(f"line {lines.lineno}: not a record entry ({type(exc).__name__}: {exc})") from None
    left = lines.rest()
    if left is not None:
        raise ImportRejected(f"line {left}: more than the header announced (the record ends at line {lines.lineno})")
    if len({r.seq for r in rows}) != len(rows):
        raise ImportRejected("the record has two entries with one seq")
    CampaignEvent.objects.bulk_create(rows)
    if name != record.uid_name(campaign):
        LegacyRecordName.objects.create(campaign=campaign, name=name)
    report = verify_record(campaign)
    if not report.ok:
        raise ImportRejected("the campaign's record does not verify: " + "; ".join(report.problems[:5]))
    user = get_user_model().objects.filter(username=meta["created_by"]).first() if meta.get("created_by") else None
    created = parse_datetime(str(meta.get("created_at") or ""))
    Campaign.objects.filter(pk=campaign.pk).update(
        name=str(meta["name"]), created_by=user, **({"created_at": created} if created else {})
    )
    campaign.refresh_from_db()
    return campaign


def _import_game(lines: _Lines, campaign: Campaign, interim: str, uid: str, name: str) -> Game:
    section = lines.json(f"game {uid}'s section")
    if not isinstance(section, dict) or section.get("section") != "game" or section.get("uid") != uid:
        raise ImportRejected(f"line {lines.lineno}: expected the section of game {uid} ({name})")
    try:
        n = int(section["lines"])
        if n < 1:
            raise ValueError(n)
    except (KeyError, TypeError, ValueError):
        raise ImportRejected(f"line {lines.lineno}: game {uid}'s section says no number of lines") from None
    first = lines.lineno + 1
    header = lines.json(f"game {uid}'s export")
    body = [lines.next(f"game {uid}'s export") for _ in range(n - 1)]
    where = f"game {uid} ({name}), lines {first}-{lines.lineno}"
    if not isinstance(header, dict) or not isinstance(header.get("game"), dict) or header["game"].get("uid") != uid:
        raise ImportRejected(f"{where}: its export's header is not game {uid}'s")
    header["game"]["campaign"] = interim
    try:
        game = archive.import_stream(io.StringIO("\n".join([json.dumps(header), *body]) + "\n"))
    except ImportRejected as exc:  # its line numbers are its export's: line 1 is the file's line {first}
        raise ImportRejected(f"{where}: {exc}") from None
    if game.campaign_id != campaign.pk:  # the interim name is the new campaign's alone
        raise ImportRejected(f"{where}: imported outside the campaign")
    return game

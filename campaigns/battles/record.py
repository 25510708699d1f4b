"""A campaign's record: every battle joined, spawned, finished and resolved, hash-chained like a game's
log (sha256 of the previous hash and the entry's canonical JSON), so that the record and the logs it
names check each other (verify.py).

Entries (``type``: payload):
- ``battle.joined``: {strategic, battle, spec, waiting: "umpire" | None}: a strategic game's engagement
  as its rule set reported it; ``waiting`` when the umpire chooses how it is fought.
- ``battle.spawned``: {strategic, battle, game, ruleset, scenario}: fought as game ``game`` (its uid).
- ``battle.finished``: {strategic, battle, game, result, head}: the battle game is over; its log's
  head (seq, hash) and the result read back. With review on, it waits for the umpire here.
- ``battle.resolved``: {strategic, battle, game, by, result, amended, head, strategic_head}: the result
  as folded into the strategic game, whose log's head after it is ``strategic_head``.
Games are named by uid, never by their database ids (they move between servers with exports).

Each entry's hash covers the campaign's name (campaign_uid): ``campaign:<uid>``, so the record
verifies wherever the campaign is (export_campaign / import_campaign, portable.py). One rule for the
records begun before campaigns had uids (before campaigns migration 0021), hashed with
``campaign:<database id>``: battles migration 0002 wrote that name down for each of them
(LegacyRecordName), and such a record is hashed and checked with it for good, its later entries too,
also after it moves (the export carries the name, the import writes it down again). A record never
mixes names; verify tries no second one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaigns.models import Campaign
from rules.core.canonical import canonical_json

from .models import CampaignEvent, LegacyRecordName


def entry_hash(prev_hash: str, campaign_uid: str, seq: int, type_: str, payload: Any, at: str) -> str:
    body = canonical_json({"at": at, "campaign": campaign_uid, "payload": payload, "seq": seq, "type": type_})
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


def campaign_uid(campaign: Campaign) -> str:
    """A campaign's name in its record's hashes, the same in every entry of the record and wherever
    the campaign is: ``campaign:<uid>``; for a record begun before campaigns had uids, the name it was
    begun with, ``campaign:<database id there>``, written down as its LegacyRecordName (battles
    migration 0002, or import_campaign for a moved one)."""
    legacy = LegacyRecordName.objects.filter(campaign_id=campaign.pk).values_list("name", flat=True).first()
    return legacy if legacy is not None else uid_name(campaign)


def uid_name(campaign: Campaign) -> str:
    """The name of every record begun since campaigns have uids (campaigns migration 0021)."""
    return f"campaign:{campaign.uid}"


def append(campaign: Campaign, type_: str, payload: dict[str, Any]) -> CampaignEvent:
    """Append one entry; the campaign's row lock keeps two appends from taking one seq."""
    with transaction.atomic():
        Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
        last = CampaignEvent.objects.filter(campaign=campaign).order_by("-seq").first()
        seq, prev = (last.seq + 1, last.hash) if last else (1, "")
        at = timezone.now()
        stamp = at.isoformat()
        digest = entry_hash(prev, campaign_uid(campaign), seq, type_, payload, stamp)
        return CampaignEvent.objects.create(
            campaign=campaign, seq=seq, type=type_, payload=payload, created_at=at, prev_hash=prev, hash=digest
        )


def entries(campaign: Campaign) -> list[CampaignEvent]:
    return list(CampaignEvent.objects.filter(campaign=campaign).order_by("seq"))


@dataclass
class Battle:
    """One battle as the record tells it (the fold of its entries)."""

    strategic: str  # the strategic game's uid
    battle: str  # its id there ("B1")
    spec: dict[str, Any]
    status: str = "joined"  # joined | fighting | finished | resolved
    waiting: str | None = None  # "umpire" while the umpire chooses how it is fought
    game: str | None = None  # the battle game's uid once spawned
    ruleset: str | None = None
    result: dict[str, Any] | None = None
    by: str | None = None
    amended: dict[str, Any] | None = None
    joined_at: str = ""
    entries: list[int] = field(default_factory=list)

    @property
    def key(self) -> str:
        return key_of(self.strategic, self.battle)


def key_of(strategic: str, battle: str) -> str:
    return f"{strategic}:{battle}"


def battles(campaign: Campaign) -> dict[str, Battle]:
    """{key: Battle} folded from the record, in the order joined."""
    out: dict[str, Battle] = {}
    for e in entries(campaign):
        p = e.payload
        key = key_of(p["strategic"], p["battle"])
        if e.type == "battle.joined":
            out[key] = Battle(p["strategic"], p["battle"], p["spec"], waiting=p.get("waiting"))
            out[key].joined_at = e.created_at.isoformat()
        b = out[key]
        b.entries.append(e.seq)
        if e.type == "battle.spawned":
            b.status, b.waiting, b.game, b.ruleset = "fighting", None, p["game"], p["ruleset"]
        elif e.type == "battle.finished":
            b.status, b.result = "finished", p["result"]
        elif e.type == "battle.resolved":
            b.status, b.waiting, b.result, b.by, b.amended = "resolved", None, p["result"], p["by"], p.get("amended")
    return out


def battle_of_game(campaign: Campaign, game_uid: str) -> Battle | None:
    """The battle that game ``game_uid`` fights, or None."""
    return next((b for b in battles(campaign).values() if b.game == game_uid), None)

"""verify_campaign: the campaign's record and every game log it links, checked together.

The record's own chain (each entry's hash from the previous one and its content), then every game
of the campaign by verify_game (its chain and every adjudication re-run), then each link: a spawned
battle's game exists and fights that battle; a finished or resolved battle's recorded head is an
event of that game's log with that hash (so a battle log changed after its result was carried back
no longer matches); a resolved battle's result is in the strategic log as its rule set's event.
The chain is checked with the one name the record is hashed with (record.campaign_uid)."""

from __future__ import annotations

from dataclasses import dataclass, field

from campaigns.models import Campaign, Event, Game
from campaigns.turns import gamelog

from . import record


@dataclass
class CampaignReport:
    problems: list[str] = field(default_factory=list)
    games: int = 0
    battles: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_campaign(campaign: Campaign) -> CampaignReport:
    report = CampaignReport()
    games = {str(g.uid): g for g in Game.objects.filter(campaign=campaign)}
    for game in games.values():
        report.games += 1
        checked = gamelog.verify_game(game)
        if not checked.ok:
            report.problems += [f"game {game.uid} ({game.name}): {p}" for p in checked.problems]
    _check_record(campaign, games, report)
    return report


def verify_record(campaign: Campaign) -> CampaignReport:
    """The record's chain and its links only, the games' logs taken as verified (import_campaign has
    just verified each as it imported it)."""
    report = CampaignReport()
    games = {str(g.uid): g for g in Game.objects.filter(campaign=campaign)}
    report.games = len(games)
    _check_record(campaign, games, report)
    return report


def _check_record(campaign: Campaign, games: dict[str, Game], report: CampaignReport) -> None:
    _check_chain(campaign, report)
    try:
        battles = record.battles(campaign)
    except (KeyError, TypeError) as exc:  # an entry changed out of the shape its type has
        report.problems.append(f"the record cannot be read as battles ({type(exc).__name__}: {exc})")
        return
    for battle in battles.values():
        report.battles += 1
        _check_links(battle, games, report)


def _check_chain(campaign: Campaign, report: CampaignReport) -> None:
    prev = ""
    uid = record.campaign_uid(campaign)  # one name for the whole record (record.py)
    for n, e in enumerate(record.entries(campaign), start=1):
        if e.seq != n:
            report.problems.append(f"record entry {e.seq}: expected seq {n}")
        expected = record.entry_hash(prev, uid, e.seq, e.type, e.payload, e.created_at.isoformat())
        if e.prev_hash != prev or e.hash != expected:
            report.problems.append(f"record entry {e.seq} ({e.type}): its hash does not follow from the chain")
        prev = e.hash


def _check_links(battle: record.Battle, games: dict[str, Game], report: CampaignReport) -> None:
    name = f"battle {battle.battle} of game {battle.strategic}"
    strategic = games.get(battle.strategic)
    if strategic is None:
        report.problems.append(f"{name}: the strategic game is not in this campaign")
        return
    if battle.game and battle.game not in games:
        report.problems.append(f"{name}: its battle game {battle.game} is not in this campaign")
        return
    for e in record.entries(strategic.campaign):
        if e.seq not in battle.entries or not e.payload.get("head") or not battle.game:
            continue
        head = e.payload["head"]
        hit = Event.objects.filter(game=games[battle.game], seq=head["seq"]).values_list("hash", flat=True).first()
        if hit != head["hash"]:
            report.problems.append(
                f"{name}: the battle log's event {head['seq']} is not the one its result was read from"
            )
    if battle.status == "resolved":
        resolved = Event.objects.filter(
            game=strategic, type__endswith=".battle_resolved", payload__battle=battle.battle
        )
        if not resolved.exists():
            report.problems.append(f"{name}: resolved in the record but not in the strategic game's log")

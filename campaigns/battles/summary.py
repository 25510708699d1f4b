"""What a seat of a strategic game is shown of its campaign's battles: the record folded for reading.

Only what the strategic game makes public goes in (a battle's place, forces, status and the result
carried back, which the strategic game's own log shows every seat), never anything of a battle game's
hidden play; a battle game is linked by its id, and its page shows each reader only their own view.
"""

from __future__ import annotations

from typing import Any

from campaigns.models import Game

from . import record

OUTCOMES = ("won", "lost", "drawn")


def battles_of(strategic: Game) -> list[dict[str, Any]]:
    """The strategic game's battles, oldest first, as the API and the page show them."""
    mine = [b for b in record.battles(strategic.campaign).values() if b.strategic == str(strategic.uid)]
    found = Game.objects.filter(uid__in=[b.game for b in mine if b.game]).values_list("uid", "pk")
    games = {str(uid): pk for uid, pk in found}
    return [_battle(b, games) for b in mine]


def _battle(b: record.Battle, games: dict[str, int]) -> dict[str, Any]:
    spec = b.spec
    out: dict[str, Any] = {
        "id": b.battle,
        "place": dict(spec["place"]),
        "attacker": spec["attacker"],
        "defender": spec["defender"],
        "forces": {side: [u["unit"] for u in units] for side, units in spec["forces"].items()},
        "joined_turn": spec.get("turn"),
        "status": b.status,
        "waiting_for_umpire": b.waiting == "umpire" or (b.status == "finished"),
        "ruleset": b.ruleset,
        "game": games.get(b.game) if b.game else None,
        "result": None,
    }
    if b.result is not None and b.status in ("finished", "resolved"):
        out["result"] = {
            "winner": b.result.get("winner"),
            "lost": {s: list(u) for s, u in (b.result.get("lost") or {}).items()},
            "by": b.by,
            "amended": b.amended,
        }
    return out


def fights_battles(game: Game) -> bool:
    """Whether the game was made with the battles option (its public game.created says so)."""
    created = game.events.filter(audience="public", type="game.created").values_list("payload", flat=True).first()
    return bool(((created or {}).get("scenario") or {}).get("options", {}).get("battles"))


def standings(strategic: Game, battles: list[dict[str, Any]], sides: tuple[str, ...]) -> dict[str, Any]:
    """Per side: battles won, lost and drawn, and units lost in them, counted from the results
    carried back (a result awaiting the umpire's review does not count yet)."""
    table: dict[str, dict[str, int]] = {s: {"won": 0, "lost": 0, "drawn": 0, "units_lost": 0} for s in sides}
    for b in battles:
        result = b["result"]
        if b["status"] != "resolved" or result is None:
            continue
        for side in sides:
            outcome = "drawn" if result["winner"] is None else "won" if result["winner"] == side else "lost"
            table[side][outcome] += 1
            table[side]["units_lost"] += len(result["lost"].get(side, []))
    return {"sides": table, "fought": sum(1 for b in battles if b["status"] == "resolved")}


def timeline(campaign, strategic_uids: set[str]) -> list[dict[str, Any]]:
    """The record's entries of the battles of the strategic games named (those the reader holds a
    seat in), oldest first: {at, battle, kind, game (its id, once fought), ruleset, result}."""
    games: dict[str, int] = {}
    out: list[dict[str, Any]] = []
    entries = [e for e in record.entries(campaign) if e.payload.get("strategic") in strategic_uids]
    uids = {e.payload.get("game") for e in entries if e.payload.get("game")}
    games = {str(uid): pk for uid, pk in Game.objects.filter(uid__in=uids).values_list("uid", "pk")}
    for e in entries:
        p = e.payload
        item = {"at": e.created_at, "battle": p["battle"], "kind": e.type.removeprefix("battle."), "game": None}
        if e.type == "battle.joined":
            item["place"] = p["spec"]["place"]
            item["attacker"], item["defender"] = p["spec"]["attacker"], p["spec"]["defender"]
            item["waiting"] = p.get("waiting")
        elif e.type == "battle.spawned":
            item["game"], item["ruleset"] = games.get(p["game"]), p["ruleset"]
        elif e.type in ("battle.finished", "battle.resolved"):
            item["game"] = games.get(p["game"]) if p.get("game") else None
            item["winner"] = (p.get("result") or {}).get("winner")
            item["by"] = p.get("by")
            item["amended"] = bool(p.get("amended"))
        out.append(item)
    return out

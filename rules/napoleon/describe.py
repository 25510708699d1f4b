"""One readable line per event: English, marked for the platform to translate (rules.core.i18n)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.core.i18n import _, gettext_noop, joined, pgettext, reread

from .combat import NO_DICE_LEFT
from .fold import PREFIX

# How a game ended (turn.end_of_turn writes the English into the payload; read back here).
ENDINGS = (
    gettext_noop("{side} has no units left"),
    gettext_noop("after {turn} turns, {red} to {blue} points (red to blue)"),
)
# Why a die roll is modified, why a leader is checked (the payloads keep the English).
# Refusals an adjudication writes into order_failed as English, read back for the reader.
_REFUSALS = (NO_DICE_LEFT,)

_CAUSES = (
    gettext_noop("charge from or onto high ground"),
    gettext_noop("extended range"),
    gettext_noop("fired after moving"),
    gettext_noop("flank"),
    gettext_noop("infantry not in square"),
    gettext_noop("point-blank in the open"),
    gettext_noop("target in cover"),
    gettext_noop("target in square"),
    gettext_noop("target on high ground"),
    gettext_noop("the counter-charge check failed"),
    gettext_noop("across a stream"),
    gettext_noop("across a bridge"),
    gettext_noop("a 1 was rolled"),
    gettext_noop("the unit at {at} was destroyed (NW-39)"),
)


def describe_reason(reason: Any) -> Any:
    return reread(reason, ENDINGS)


def _mods(p: Mapping[str, Any]) -> str:
    m = p.get("mods") or []
    if not m:
        return ""
    each = [_("{value} {why}", value=f"{'+' if v > 0 else ''}{v}", why=reread(r, _CAUSES, sides=())) for r, v in m]
    return _(" ({mods})", mods=joined(each, ", "))


def _side(s: Any) -> str:
    return pgettext("side", str(s)) if s else _("nobody")


_ATTACKS = {
    "fire": gettext_noop("fires at"),
    "melee": gettext_noop("melees"),
    "cavalry_melee": gettext_noop("melees (cavalry)"),
    "charge": gettext_noop("charges"),
}


def _attacked(p: Mapping[str, Any]) -> str:
    params = {
        "by": p["by"],
        "what": _ATTACKS[p["kind"]],
        "target": p["target"],
        "dice": p["dice"],
        "mods": _mods(p),
        "hit_on": p["hit_on"],
        "rolls": " ".join(map(str, p["rolls"])),
        "hits": p["hits"],
        "left": p["left"],
    }
    if p.get("recoil"):
        return _(
            "{by} {what} {target}: {dice} dice{mods} hitting on {hit_on}+, rolls {rolls}: {hits} hit(s), {left} "
            "figure(s) left; the counter-charge costs {by} {recoil} figure(s).",
            recoil=p["recoil"],
            **params,
        )
    return _(
        "{by} {what} {target}: {dice} dice{mods} hitting on {hit_on}+, rolls {rolls}: {hits} hit(s), {left} "
        "figure(s) left.",
        **params,
    )


def _roll(p: Mapping[str, Any]) -> dict[str, Any]:
    return {"unit": p["unit"], "die": p["die"], "strength": p["strength"]}


def _leader(p: Mapping[str, Any]) -> dict[str, Any]:
    return {"leader": p["leader"], "why": reread(p["why"], _CAUSES, sides=()), "die": p["die"]}


_TEXT: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "battle_set": lambda p: _(
        "The battle is set: {title}; {side} moves first.",
        side=_side(p["side"]),
        title=p.get("title") or p["scenario"]["title"],
    ),
    "turn_started": lambda p: _(
        "Turn {turn}: {side} acts with {points} command points.",
        turn=p["turn"],
        side=_side(p["side"]),
        points=p["points"],
    ),
    "turn_opened": lambda p: _("Turn {turn}: {side} to act.", turn=p["turn"], side=_side(p["side"])),
    "standing_set": lambda p: _(
        "{side} standing instruction: {key} {value}.", side=_side(p["side"]), key=p["key"], value=p["value"]
    ),
    "moved": lambda p: (
        _("{unit} charges along {path} [{cost} CP].", unit=p["unit"], path=" → ".join(p["path"]), cost=p["cost"])
        if p.get("charge")
        else _(
            "{unit} moves {path} by road (the extra hex: done for the turn) [{cost} CP].",
            unit=p["unit"],
            path=" → ".join(p["path"]),
            cost=p["cost"],
        )
        if p.get("done")
        else _("{unit} moves {path} [{cost} CP].", unit=p["unit"], path=" → ".join(p["path"]), cost=p["cost"])
    ),
    "leader_moved": lambda p: _("Leader {leader} rides {path} [free].", leader=p["leader"], path=" → ".join(p["path"])),
    "leader_helps": lambda p: _(
        "Leader {leader} directs {unit}: one point cheaper.", leader=p["leader"], unit=p["unit"]
    ),
    "order_failed": lambda p: _(
        "Not carried out: '{order}': {reason}.", order=p["order"], reason=reread(p["reason"], _REFUSALS, sides=())
    ),
    "points_rolled": lambda p: _(
        "{side} has spent {spent} points and rolls {die} for {extra} more: {left} left.",
        side=_side(p["side"]),
        spent=p["spent"],
        die=p["die"],
        extra=p["extra"],
        left=p["left"],
    ),
    "points_exhausted": lambda p: _(
        "Out of command points; not carried out: {orders}.", orders="; ".join(p["not_done"])
    ),
    "square_check": lambda p: (
        _("{unit} tries to form square: {die} against {strength}: formed.", **_roll(p))
        if p["formed"]
        else _("{unit} tries to form square: {die} against {strength}: fails (no penalty, NW-20).", **_roll(p))
    ),
    "countercharge_check": lambda p: (
        _("{unit} counter-charges: {die} against {strength}: passes.", **_roll(p))
        if p["passed"]
        else _("{unit} counter-charges: {die} against {strength}: fails (+1 die to the charger).", **_roll(p))
    ),
    "attacked": _attacked,
    "arrived": lambda p: _("{unit} enters the field at {at}.", unit=p["unit"], at=p["at"]),
    "arrival_delayed": lambda p: _(
        "{unit} cannot enter at {at} this turn: {reason}.", unit=p["unit"], at=p["at"], reason=p["reason"]
    ),
    "leader_check": lambda p: (
        _("Leader {leader} checks ({why}): {die}: killed.", **_leader(p))
        if p["killed"]
        else _("Leader {leader} checks ({why}): {die}: unhurt.", **_leader(p))
    ),
    "leader_retreats": lambda p: (
        _("Leader {leader} leaves {origin} for {to}.", leader=p["leader"], origin=p["from"], to=p["to"])
        if p["to"]
        else _("Leader {leader} leaves {origin} and the field.", leader=p["leader"], origin=p["from"])
    ),
    "game_over": lambda p: _(
        "Game over: {winner} wins; {reason}.", winner=_side(p["winner"]), reason=describe_reason(p["reason"])
    ),
}


def describe_event(event_type: str, p: Mapping[str, Any]) -> str:
    if not event_type.startswith(PREFIX):
        return event_type
    k = event_type[len(PREFIX) :]
    f = _TEXT.get(k)
    if f:
        return f(p)
    return _(
        "{kind}: {details}",
        kind=k,
        details=", ".join(f"{a}={b}" for a, b in p.items() if a not in ("units", "leaders")),
    )

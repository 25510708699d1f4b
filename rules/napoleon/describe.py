"""One readable line per event: English, marked for the platform to translate (rules.core.i18n)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.core.i18n import _, gettext_noop, pgettext

from .fold import PREFIX


def _mods(p: Mapping[str, Any]) -> str:
    m = p.get("mods") or []
    return (" (" + ", ".join(f"{'+' if v > 0 else ''}{v} {r}" for r, v in m) + ")") if m else ""


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
        f"{p['unit']} {'charges along' if p.get('charge') else 'moves'} "
        + " → ".join(p["path"])
        + (" by road (the extra hex: done for the turn)" if p.get("done") else "")
        + f" [{p['cost']} CP]."
    ),
    "leader_moved": lambda p: _("Leader {leader} rides {path} [free].", leader=p["leader"], path=" → ".join(p["path"])),
    "leader_helps": lambda p: _(
        "Leader {leader} directs {unit}: one point cheaper.", leader=p["leader"], unit=p["unit"]
    ),
    "order_failed": lambda p: _("Not carried out: '{order}': {reason}.", order=p["order"], reason=p["reason"]),
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
        f"{p['unit']} tries to form square: {p['die']} against {p['strength']}: "
        + ("formed." if p["formed"] else "fails (no penalty, NW-20).")
    ),
    "countercharge_check": lambda p: (
        f"{p['unit']} counter-charges: {p['die']} against {p['strength']}: "
        + ("passes." if p["passed"] else "fails (+1 die to the charger).")
    ),
    "attacked": _attacked,
    "arrived": lambda p: _("{unit} enters the field at {at}.", unit=p["unit"], at=p["at"]),
    "arrival_delayed": lambda p: _(
        "{unit} cannot enter at {at} this turn: {reason}.", unit=p["unit"], at=p["at"], reason=p["reason"]
    ),
    "leader_check": lambda p: (
        f"Leader {p['leader']} checks ({p['why']}): {p['die']}" + (": killed." if p["killed"] else ": unhurt.")
    ),
    "leader_retreats": lambda p: (
        f"Leader {p['leader']} leaves {p['from']}" + (f" for {p['to']}." if p["to"] else " and the field.")
    ),
    "game_over": lambda p: _("Game over: {winner} wins; {reason}.", winner=_side(p["winner"]), reason=p["reason"]),
}


def describe_event(event_type: str, p: Mapping[str, Any]) -> str:
    if not event_type.startswith(PREFIX):
        return event_type
    k = event_type[len(PREFIX) :]
    f = _TEXT.get(k)
    return f(p) if f else f"{k}: " + ", ".join(f"{a}={b}" for a, b in p.items() if a not in ("units", "leaders"))

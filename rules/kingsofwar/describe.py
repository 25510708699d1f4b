"""One readable line per event, for logs, mail and reports."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.i18n import _, gettext_noop, joined, pgettext, reread

from .fold import PREFIX
from .plan import CANNOT_JOIN

# The order words and rolls the payloads keep in English, as a reader reads them.
_ORDERS = {
    "advance": pgettext("moved", "advance"),
    "double": pgettext("moved", "double"),
    "halt": pgettext("moved", "halt"),
}
_OUTCOMES = {"steady": gettext_noop("steady"), "wavering": gettext_noop("wavering"), "routed": gettext_noop("routed")}
_FACES = {
    "front": pgettext("facing", "front"),
    "right": pgettext("facing", "right"),
    "rear": pgettext("facing", "rear"),
    "left": pgettext("facing", "left"),
}


# How a game ended (scoring.final_result writes the English; read back here).
ENDINGS = (
    gettext_noop("{side} has no unit left on the field"),
    gettext_noop("after {rounds} rounds, more objectives held"),
    gettext_noop("after {rounds} rounds, more points of enemy units routed"),
    gettext_noop("after {rounds} rounds, a draw"),
)


def describe_reason(reason: Any) -> Any:
    return reread(reason, ENDINGS)


# Why a line was refused, where the log keeps a marked text's English (the rest is English only).
REFUSALS = (CANNOT_JOIN,)


def _side(s: Any) -> str:
    return pgettext("side", str(s)) if s else _("nobody")


def _roll(r: Mapping[str, Any]) -> str:
    return _(
        "{dice} dice needing {needed}+: {hits} hits {hit_rolls}, {damage} damage {damage_rolls}",
        dice=r["dice"],
        needed=r["needed"],
        hits=r["hits"],
        hit_rolls=r["hit_rolls"],
        damage=r["damage"],
        damage_rolls=r["damage_rolls"],
    )


def describe_event(event_type: str, p: Mapping[str, Any]) -> str:
    name = event_type[len(PREFIX) :] if event_type.startswith(PREFIX) else event_type
    if name == "battle_set":
        return _(
            "Battle set: {title}, {first} moves first",
            first=_side(p["first"]),
            title=p["scenario"]["title"] if "title" in p["scenario"] else p["scenario"]["name"],
        )
    if name == "unit_moved":
        order, dist = _ORDERS.get(p["order"], p["order"]), f"{p['dist']:g}"
        if p["pivot"]:
            return (
                _(
                    "{unit} {order} {dist} in, pivoting {degrees} left",
                    unit=p["unit"],
                    order=order,
                    dist=dist,
                    degrees=abs(p["pivot"]),
                )
                if p["pivot"] > 0
                else _(
                    "{unit} {order} {dist} in, pivoting {degrees} right",
                    unit=p["unit"],
                    order=order,
                    dist=dist,
                    degrees=abs(p["pivot"]),
                )
            )
        return _("{unit} {order} {dist} in", unit=p["unit"], order=order, dist=dist)
    if name == "unit_charged":
        text = (
            _(
                "{unit} counter-charges {target} in the {face}",
                unit=p["unit"],
                target=p["target"],
                face=_FACES.get(p["side"], p["side"]),
            )
            if p["counter"]
            else _(
                "{unit} charges {target} in the {face}",
                unit=p["unit"],
                target=p["target"],
                face=_FACES.get(p["side"], p["side"]),
            )
        )
        return _("{text} (hindered)", text=text) if p["hindered"] else text
    if name == "order_refused":
        then = _("it does not shoot") if " shoot " in f" {p['text'].lower()} " else _("the unit halts")
        return _(
            "{side} line {line} '{text}' refused: {reason}; {then}",
            side=_side(p["side"]),
            line=p["line"],
            text=p["text"],
            reason=reread(p["reason"], REFUSALS, sides=()),
            then=then,
        )
    if name == "shot":
        in_cover = _(" in cover (die {die})", die=p.get("cover_die")) if p.get("cover_die") else _(" in cover")
        cover = in_cover if p["cover"] else ""
        return _(
            "{unit} shoots {target}{cover}: {roll}", unit=p["unit"], target=p["target"], cover=cover, roll=_roll(p)
        )
    if name == "shot_impossible":
        return _("{unit} cannot shoot {target}: {reason}", unit=p["unit"], target=p["target"], reason=p["reason"])
    if name == "fight":
        rolls = joined(
            _("{unit} ({side}) {roll}", unit=r["unit"], side=_side(r["side"]), roll=_roll(r)) for r in p["rolls"]
        )
        return _(
            "Fight against {target}: {rolls}; {damage} damage in all",
            target=p["target"],
            rolls=rolls,
            damage=p["damage"],
        )
    if name == "nerve_test":
        return _(
            "{unit} tests Nerve: {dice} + damage = {total} -> {outcome}",
            unit=p["unit"],
            dice=p["dice"],
            total=p["total"],
            outcome=_OUTCOMES.get(p["outcome"], p["outcome"]),
        )
    if name == "fell_back":
        return _("{unit} falls back 1 in", unit=p["unit"])
    if name == "regrouped":
        return _("{unit} regroups where it stands ({target} has routed)", unit=p["unit"], target=p["target"])
    if name == "turn_ended":
        return _(
            "{side}'s turn ends; {next} to move (round {round})",
            side=_side(p["side"]),
            next=_side(p["next"]),
            round=p["round"],
        )
    if name == "game_over":
        return _("Game over: {winner} wins ({reason})", winner=_side(p["winner"]), reason=describe_reason(p["reason"]))
    return name

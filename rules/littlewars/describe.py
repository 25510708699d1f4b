"""One readable line per event: English, marked for the platform to translate (rules.core.i18n)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.i18n import _, gettext_noop, joined, kept, ngettext, pgettext, reread
from rules.core.i18n import side_name as _cap

from .fold import PREFIX

# How a game ended (scoring.check_end writes the English; read back here).
ENDINGS = (
    gettext_noop("both armies are destroyed or captured"),
    gettext_noop("{side} has no fighting figure left (LW-47)"),
    gettext_noop("both sides broke through with {count} figures: a draw (LW-50)"),
    gettext_noop("{count} {winner} figures reached the enemy edge (LW-50)"),
    gettext_noop("{count} {attacker} figures reached the {defender} edge, a quarter of the attack is {need} (LW-52)"),
    gettext_noop(
        "{attacker} has {fighting} fighting figures left, fewer than the {need} needed to break through (LW-52)"
    ),
    gettext_noop("both sides are below {limit} figures ({first} and {second}): a draw (LW-49)"),
    gettext_noop("the turn limit ({limit}) was reached: the 100 is split"),
)


def describe_reason(reason: Any) -> Any:
    return reread(reason, ENDINGS, sides=("side", "winner", "attacker", "defender"))


def _side(side: Any) -> str:
    """A side named in passing ("red"), translated as a side's name."""
    return pgettext("side", str(side)) if side else ""


# Words of the payloads, as readers see them.
_EDGES = {
    "north": pgettext("edge", "north"),
    "south": pgettext("edge", "south"),
    "east": pgettext("edge", "east"),
    "west": pgettext("edge", "west"),
}
_POLICIES = {
    "nearest": pgettext("melee policy", "nearest"),
    "farthest": pgettext("melee policy", "farthest"),
    "cavalry": pgettext("melee policy", "cavalry"),
    "infantry": pgettext("melee policy", "infantry"),
}


def _figures(items: Any) -> str:
    return ngettext("{n} figure", "{n} figures", len(items))


def _guns(items: Any) -> str:
    return ngettext("{n} gun", "{n} guns", len(items))


def _names(ids: list[str]) -> str:
    ids = [str(i).split(":")[-1] for i in ids]
    if len(ids) > 8:
        return _("{names} and {more} more", names=", ".join(ids[:8]), more=len(ids) - 8)
    return ", ".join(ids)


def _fired(p: Mapping[str, Any]) -> str:
    shots = p.get("shots", [])
    killed = sum(len(s["killed"]) for s in shots)
    guns = sorted({s["gun"].split(":")[-1] for s in shots})
    blocked = sum(1 for s in shots if s.get("blocked"))
    extra = [_("{blocked} struck scenery", blocked=blocked)] if blocked else []
    if p.get("wagons"):  # LW-66/67
        extra.append(_("wagons destroyed: {names}", names=_names(p["wagons"])))
    head = _(
        "Guns fired {shots} ({guns}): {killed} killed",
        shots=ngettext("{n} shot", "{n} shots", len(shots)),
        guns=", ".join(guns),
        killed=ngettext("{n} figure", "{n} figures", killed),
    )
    return _("{text}.", text=joined([head, *extra]))


def _melee(p: Mapping[str, Any]) -> str:
    counts = p.get("counts", {})
    sides = joined([_("{n} {side}", n=n, side=_side(s)) for s, n in counts.items()], _(" against "))
    at = p.get("at", [0, 0])
    if p.get("smaller") is None:
        how = _("equal numbers: all fell (LW-35)")
    elif p.get("isolated"):
        how = _("{side} was isolated (LW-37)", side=_side(p["smaller"]))
    else:
        how = _("{side} was supported (LW-38)", side=_side(p["smaller"]))
    where, killed = f"{at[0]:g},{at[1]:g}", len(p.get("killed", []))
    if p.get("captured"):
        return _(
            "Melee at {at} begun by {initiator}: {sides}; {how}; {killed} killed, {taken} taken prisoner by "
            "{captor} as {pow}.",
            at=where,
            initiator=_side(p.get("initiator")),
            sides=sides,
            how=how,
            killed=killed,
            taken=len(p["captured"]),
            captor=_side(p.get("captor")),
            pow=p.get("pow"),
        )
    return _(
        "Melee at {at} begun by {initiator}: {sides}; {how}; {killed} killed.",
        at=where,
        initiator=_side(p.get("initiator")),
        sides=sides,
        how=how,
        killed=killed,
    )


def _game_over(p: Mapping[str, Any]) -> str:
    scores = p.get("scores", {})
    sheet = joined([_("{side} {total}", side=_side(s), total=f"{v['total']:g}") for s, v in scores.items()])
    if p.get("winner"):
        return _(
            "Game over: {winner} wins: {reason}. Score: {sheet}.",
            winner=_cap(p.get("winner")),
            reason=describe_reason(p.get("reason")),
            sheet=sheet,
        )
    return _("Game over: A draw: {reason}. Score: {sheet}.", reason=describe_reason(p.get("reason")), sheet=sheet)


_SIMPLE = {
    "table_laid": lambda p: _(
        "The table '{title}' ({width} x {depth} in) was laid out; {first} is the First Player.",
        title=p["scenario"].get("title"),
        width=f"{p['scenario']['table']['width']:g}",
        depth=f"{p['scenario']['table']['depth']:g}",
        first=_cap(p.get("first")),
    ),
    "defender_chosen": lambda p: (
        _("The coin (LW-53) names {side} the defender: the two armies change sides.", side=_side(p.get("side")))
        if p.get("swapped")
        else _("The coin (LW-53) names {side} the defender.", side=_side(p.get("side")))
    ),
    "reinforcements": lambda p: _(
        "Random advantage (LW-57): {rolls}.",
        rolls=joined(
            _(
                "{side} rolled {roll} and takes {figures}",
                side=_side(s),
                roll=sum(v["roll"]),
                figures=ngettext("{n} reserve figure", "{n} reserve figures", len(v["joined"])),
            )
            for s, v in p.items()
        ),
    ),
    "deployed": lambda p: _(
        "{side} deployed: {figures} and {guns} placed by order, the rest where the scenario put them.",
        side=_cap(p.get("side")),
        figures=_figures(p.get("figures", {})),
        guns=_guns(p.get("guns", {})),
    ),
    "edge_choice": lambda p: _("{side} chooses the edge to start from (LW-2, LW-53).", side=_cap(p.get("side"))),
    "edge_chosen": lambda p: (
        _(
            "{side} starts from the {edge} edge; the armies change ends.",
            side=_cap(p.get("side")),
            edge=_EDGES.get(str(p.get("edge")), p.get("edge")),
        )
        if p.get("swapped")
        else _(
            "{side} starts from the {edge} edge.",
            side=_cap(p.get("side")),
            edge=_EDGES.get(str(p.get("edge")), p.get("edge")),
        )
    ),
    "deployment_done": lambda p: _("The curtain is lifted: both armies stand revealed. Turn 1 begins."),
    "orders_rejected": lambda p: _(
        "{side}: {lines}.",
        side=_cap(p.get("side")),
        lines=joined(
            _("line {line} ignored ({message})", line=e["line"], message=kept(e, "message_msg", "message"))
            for e in p.get("errors", [])
        ),
    ),
    "groups_changed": lambda p: _(
        "{side} reorganised its groups: {groups}.",
        side=_cap(p.get("side")),
        groups=", ".join(sorted(p.get("groups", {}))),
    ),
    "standing_orders": lambda p: _(
        "{side} will kill the {kill} enemies first and lose its {lose} men first in melees it begins.",
        side=_cap(p.get("side")),
        kill=_POLICIES.get(str(p.get("kill")), p.get("kill")),
        lose=_POLICIES.get(str(p.get("lose")), p.get("lose")),
    ),
    "fired": _fired,
    "moved": lambda p: _(
        "{text}.",
        text=joined(
            [
                _("{figures} and {guns} moved", figures=_figures(p.get("figures", {})), guns=_guns(p.get("guns", {}))),
                *(
                    [_("{wagons} moved", wagons=ngettext("{n} wagon", "{n} wagons", len(p["wagons"])))]
                    if p.get("wagons")
                    else []
                ),
                ngettext("{n} contact", "{n} contacts", len(p.get("contacts", []))),
                *([_("{guns} stayed for want of a team (LW-24)", guns=_guns(p["stuck"]))] if p.get("stuck") else []),
            ]
        ),
    ),
    "melee": _melee,
    "surrendered": lambda p: _(
        "{side}'s {group} ({figures}) surrendered to {captor} (LW-45).",
        side=_cap(p.get("side")),
        group=p.get("group"),
        figures=_figures(p.get("figures", [])),
        captor=_side(p.get("captor")),
    ),
    "prisoners_released": lambda p: _(
        "{prisoners} of {origin} got away from {guards} guards and go home disarmed as {group} (LW-43).",
        prisoners=ngettext(
            "{n} {side} prisoner", "{n} {side} prisoners", len(p.get("figures", [])), side=p.get("side")
        ),
        origin=_side(p.get("from")),
        guards=p.get("guards"),
        group=p.get("group"),
    ),
    "prisoners_delivered": lambda p: _(
        "{captor} took {prisoners} off the table (LW-42).",
        captor=_cap(p.get("captor")),
        prisoners=ngettext("{n} prisoner", "{n} prisoners", len(p.get("figures", []))),
    ),
    "rearmed": lambda p: _(
        "{figures} reached their edge and are armed again: {names}.",
        names=_names(p.get("figures", [])),
        figures=ngettext("{n} disarmed figure", "{n} disarmed figures", len(p.get("figures", []))),
    ),
    "gun_captured": lambda p: _(
        "{by} captured {origin}'s gun {gun} (LW-46).",
        by=_cap(p.get("by")),
        origin=_side(p.get("from")),
        gun=str(p.get("gun")).split(":")[-1],
    ),
    "wagon_captured": lambda p: _(
        "{by} took the wagon {wagon} at {at}: none of its own within 6 in (LW-66/67).",
        by=_cap(p.get("by")),
        wagon=str(p.get("wagon")).split(":")[-1],
        at=f"{p['at'][0]:g},{p['at'][1]:g}",
    ),
    "capitulated": lambda p: (
        _(
            "{side} flees: {figures} and {guns} and {wagons} too far from its edge capitulate to {captor} (LW-50).",
            side=_cap(p.get("side")),
            figures=_figures(p.get("figures", [])),
            guns=_guns(p.get("guns", [])),
            wagons=ngettext("{n} wagon", "{n} wagons", len(p["wagons"])),
            captor=_side(p.get("captor")),
        )
        if p.get("wagons")
        else _(
            "{side} flees: {figures} and {guns} too far from its edge capitulate to {captor} (LW-50).",
            side=_cap(p.get("side")),
            figures=_figures(p.get("figures", [])),
            guns=_guns(p.get("guns", [])),
            captor=_side(p.get("captor")),
        )
    ),
    "turn_completed": lambda p: _("Turn {turn} is over.", turn=p.get("turn")),
    "game_over": _game_over,
}


def describe_event(event_type: str, payload: Mapping[str, Any]) -> str:
    if not event_type.startswith(PREFIX):
        return event_type
    return describe_with(_SIMPLE, PREFIX, event_type, payload)


def describe_with(table: Mapping[str, Any], prefix: str, event_type: str, payload: Mapping[str, Any]) -> str:
    """One line from ``table``'s describer for the event, or the raw event if it has none or cannot read it."""
    fn = table.get(event_type[len(prefix) :])
    if fn is None:
        return f"{event_type}: {dict(payload)}"
    try:
        result: str = fn(payload)
        return result
    except (KeyError, TypeError, ValueError):
        return f"{event_type}: {dict(payload)}"

"""One readable line per Kriegspiel event (Little Wars events as the main part words them): English,
marked for the platform to translate (rules.core.i18n)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.i18n import _, gettext_noop, joined, kept, ngettext, pgettext, side_name
from rules.littlewars.describe import describe_event as lw_describe
from rules.littlewars.describe import describe_with

from .state import PREFIX

_WORK = {
    "mine": gettext_noop("a mine"),
    "entrenchment": gettext_noop("an entrenchment"),
    "gunpit": gettext_noop("a gun pit"),
    "bridge_destroy": gettext_noop("blowing a bridge"),
    "bridge_restore": gettext_noop("rebuilding a bridge"),
    "depot_burn": gettext_noop("burning a depot"),
    "wagons_destroy": gettext_noop("emptying wagons"),
    "rail_destroy": gettext_noop("breaking the rails"),
    "rail_restore": gettext_noop("repairing the rails"),
}
_WORK.update(board=gettext_noop("boarding"), land=gettext_noop("landing"))
_DONE = {
    "bridge_destroy": lambda t: _("blew up bridge {t}", t=t),
    "bridge_restore": lambda t: _("rebuilt bridge {t}", t=t),
    "depot_burn": lambda t: _("burnt an enemy depot"),
    "wagons_destroy": lambda t: _("emptied enemy wagons"),
    "rail_destroy": lambda t: _("broke the rails of {t}", t=t),
    "rail_restore": lambda t: _("repaired the rails of {t}", t=t),
}


def _cap(s: Any) -> str:
    return side_name(s)


def _side(s: Any) -> str:
    """A side named in passing ("blue"), translated as a side's name."""
    return pgettext("side", str(s)) if s else ""


def _xy(at: Any) -> str:
    return f"{at[0]:g},{at[1]:g}"


def _name(p: Mapping[str, Any]) -> str:
    """A work as an event names it: by its side's own number (``w2``) in that side's reports,
    by its public number (``blue:p1``) in public events."""
    return str(p["id"]).split(":")[-1] if "id" in p else f"{p['side']}:p{p['public']}"


def _men(n: int) -> str:
    return ngettext("{n} man", "{n} men", n)


def _works(p: Mapping[str, Any]) -> str:
    parts = [
        _(
            "started {work} ({name}) at {at} with {men}",
            work=_WORK[w["kind"]],
            name=_name(w),
            at=_xy(w["at"]),
            men=_men(len(w["workers"])),
        )
        for w in p["started"]
    ]
    for c in p["progress"]:
        if c["status"] == "abandoned":
            parts.append(_("{name} abandoned: {reason}", name=_name(c), reason=c["reason"]))
        elif c["status"] == "armed":
            parts.append(_("{name} is laid and armed", name=_name(c)))
        else:
            parts.append(_("{name} {turns} done", name=_name(c), turns=ngettext("{n} turn", "{n} turns", c["done"])))
    for name, (x, y) in (p.get("depots") or {}).items():
        parts.append(_("depot {name} driven to {at} (it supplies nothing this turn, KS-38)", name=name, at=_xy((x, y))))
    for vid, (x, y) in (p.get("vehicles") or {}).items():
        parts.append(_("{vehicle} moved to {at}", vehicle=vid.split(":")[-1], at=_xy((x, y))))
    for c in p.get("charges_failed") or []:
        parts.append(
            _("the charge of line {line} did not happen: {why}", line=c["line"], why=kept(c, "why_msg", "why"))
        )
    if p.get("columns"):
        parts.append(_("{men} in column", men=_men(len(p["columns"]))))
    if p.get("dismounted"):
        parts.append(
            _("{cavalrymen} on foot", cavalrymen=ngettext("{n} cavalryman", "{n} cavalrymen", len(p["dismounted"])))
        )
    if p.get("limbered"):
        parts.append(_("limbered up: {guns}", guns=", ".join(g.split(":")[-1] for g in p["limbered"])))
    if p.get("boxed"):
        parts.append(_("in boxes: {groups}", groups=", ".join(p["boxed"])))
    for load in p.get("loaded") or []:
        vehicle = load["vehicle"].split(":")[-1]
        parts.append(
            _("{n} boarded {vehicle}", n=len(load["boarded"]), vehicle=vehicle)
            if load["boarded"]
            else _("{n} landed from {vehicle}", n=len(load["landed"]), vehicle=vehicle)
        )
    return _(
        "{side} works, turn {turn}: {parts}.",
        side=_cap(p["side"]),
        turn=p["turn"],
        parts=joined(parts) if parts else _("nothing in hand"),
    )


def _sighted(p: Mapping[str, Any]) -> str:
    boxes, objects = len(p["boxes"]), len(p.get("objects", []))
    seen = [
        ngettext("{n} enemy figure", "{n} enemy figures", len(p["figures"])),
        ngettext("{n} gun", "{n} guns", len(p["guns"])),
    ]
    if boxes:
        seen.append(ngettext("{n} box", "{n} boxes", boxes))
    if objects:
        seen.append(ngettext("{n} depot, train or boat", "{n} depots, trains or boats", objects))
    return _(
        "{side} scouts report after turn {turn}: {seen} in sight.",
        side=_cap(p["side"]),
        turn=p["turn"],
        seen=joined(seen, ", "),
    )


def _supplied(p: Mapping[str, Any]) -> str:
    short = {g: s for g, s in p["groups"].items() if s["missing"]}
    draws = ngettext("{n} draw", "{n} draws", len(p["draws"]))
    if short:
        return _(
            "{side} supply, turn {turn}: {draws}; short: {short}.",
            side=_cap(p["side"]),
            turn=p["turn"],
            draws=draws,
            short=", ".join(f"{g} ({', '.join(s['missing'])})" for g, s in sorted(short.items())),
        )
    return _("{side} supply, turn {turn}: {draws}.", side=_cap(p["side"]), turn=p["turn"], draws=draws)


def _mine(p: Mapping[str, Any]) -> str:
    return _(
        "A mine of {side} exploded at {at} as {by} passed: {figures} and {guns} destroyed (KS-59/60).",
        side=_side(p["side"]),
        at=_xy(p["at"]),
        by=str(p["by"]).split(":")[-1],
        figures=ngettext("{n} figure", "{n} figures", len(p["killed"])),
        guns=ngettext("{n} gun", "{n} guns", len(p["guns"])),
    )


_CHARGED = {
    "guns": gettext_noop("an unsupported gun"),
    "cavalry": gettext_noop("cavalry"),
    "cavalry_standing": gettext_noop("cavalry standing still (KS-75)"),
    "infantry_open": gettext_noop("infantry in open order"),
    "infantry_close": gettext_noop("infantry in close order"),
    "infantry_open_withdrawing": gettext_noop("withdrawing infantry in open order (KS-82)"),
    "infantry_close_withdrawing": gettext_noop("withdrawing infantry in column (KS-83)"),
}


def _charge(p: Mapping[str, Any]) -> str:
    parts = [
        _(
            "{side} cavalry ({n}) charged {what} from {feet} ft: {fell} fell",
            side=_cap(p["side"]),
            n=len(p["by"]),
            what=_CHARGED[p["kind"]],
            feet=f"{p['distance'] / 12:.1f}",
            fell=len(p["killed"]),
        )
    ]
    if p.get("captured"):
        parts.append(
            _(
                "{n} taken prisoner by {captor} as {pow} (KS-78)",
                n=len(p["captured"]),
                captor=_side(p["captor"]),
                pow=p["pow"],
            )
        )
    if p.get("coin"):
        parts.append(_("the coin favoured the {side}", side=_side(p["coin"])))
    if p.get("gun"):
        parts.append(_("gun {gun} taken", gun=str(p["gun"]).split(":")[-1]))
    if p.get("pursued_guns"):
        parts.append(
            _(
                "{guns} of its battery pursued (KS-86)",
                guns=ngettext("{n} withdrawing gun", "{n} withdrawing guns", len(p["pursued_guns"])),
            )
        )
    if p.get("destroyed"):
        parts.append(_("{n} destroyed in the retreat (KS-81)", n=len(p["destroyed"])))
    return _("{text}.", text=joined(parts))


def _withdrawn_off(p: Mapping[str, Any]) -> str:
    """KS-81: the pursued withdrawing off the table (version 3), or whose withdrawal could only cross an
    unfordable river (version 4, ``river``), destroyed."""
    river = set(p.get("river", ()))
    off = [f for f in p["destroyed"] if f not in river]
    parts = [_("Pursued off the table and destroyed (KS-81): {figures}.", figures=", ".join(off))] if off else []
    if river:
        parts.append(
            _(
                "Pursued against an unfordable river and destroyed (KS-81): {figures}.",
                figures=", ".join(sorted(river)),
            )
        )
    return parts[0] if len(parts) == 1 else joined(parts, " ")


def _work_completed(p: Mapping[str, Any]) -> str:
    if p["kind"] in _DONE:
        return _("{side} {done}.", side=_cap(p["side"]), done=_DONE[p["kind"]](p.get("target")))
    if p.get("to"):
        return _(
            "{side} finished {work} at {at} to {to} (KS-67).",
            side=_cap(p["side"]),
            work=_WORK[p["kind"]],
            at=_xy(p["at"]),
            to=_xy(p["to"]),
        )
    return _("{side} finished {work} at {at} (KS-67).", side=_cap(p["side"]), work=_WORK[p["kind"]], at=_xy(p["at"]))


_SIMPLE = {
    "charge": _charge,
    "withdrawn_off": _withdrawn_off,
    "works": _works,
    "work_completed": _work_completed,
    "mine_exploded": _mine,
    "blast": lambda p: _(
        "Blast effects: {destroyed} destroyed, {out} out of action, {depots} burnt, generals near a shell: {generals}.",
        destroyed=ngettext("{n} gun", "{n} guns", len(p["guns_destroyed"])),
        out=ngettext("{n} gun", "{n} guns", len(p["guns_out"])),
        depots=ngettext("{n} depot", "{n} depots", sum(len(v) for v in p["wagons"].values())),
        generals=", ".join(p["generals_out"]) or _("none"),
    ),
    "sighted": _sighted,
    "supplied": _supplied,
    "ledger_adjusted": lambda p: _(
        "The umpire adjusted {side}'s depot {depot}: {portions} portions of {kind} ({reason}).",
        side=_side(p["side"]),
        depot=p["depot"],
        portions=f"{p['portions']:+d}",
        kind=p["kind"],
        reason=p["reason"],
    ),
    "note": lambda p: _("Umpire: {text}", text=p["text"]),
    "ruling": lambda p: _("Umpire's ruling: {reason}", reason=p["reason"]),
    "work_revealed": lambda p: _(
        "The umpire reveals {work} of {side} at {at}.", work=_WORK[p["kind"]], side=_side(p["side"]), at=_xy(p["at"])
    ),
    "sighting_ruled": lambda p: _(
        "The umpire rules that {side} sees {figure}: {reason}.",
        side=_side(p["side"]),
        figure=str(p["figure"]).split(":")[-1],
        reason=p["reason"],
    ),
    "general_lost": lambda p: (
        _(
            "The {side} general has fallen (KS-14); {deputy} takes command; his side holds while command passes.",
            side=_side(p["side"]),
            deputy=str(p["deputy"]).split(":")[-1],
        )
        if p.get("deputy")
        else _(
            "The {side} general has fallen (KS-14); no one is left to command; his side holds while command passes.",
            side=_side(p["side"]),
        )
    ),
    "work_abandoned": lambda p: _("The umpire rules {name} abandoned: {reason}.", name=_name(p), reason=p["reason"]),
}


def describe_event(event_type: str, payload: Mapping[str, Any]) -> str:
    if event_type == "littlewars.deployment_done":
        return _("The curtain is lifted: each side now sees what its own men can see. Turn 1 begins.")
    if event_type == "littlewars.orders_rejected" and not payload.get("errors"):
        return _("{side}: no line of the orders was refused.", side=_cap(payload.get("side")))
    if event_type == "littlewars.groups_changed":
        return _(
            "{side}'s groups: {groups}.",
            side=_cap(payload.get("side")),
            groups=", ".join(f"{k} ({len(v)})" for k, v in sorted(payload.get("groups", {}).items())),
        )
    if not event_type.startswith(PREFIX):
        return lw_describe(event_type, payload)
    return describe_with(_SIMPLE, PREFIX, event_type, payload)

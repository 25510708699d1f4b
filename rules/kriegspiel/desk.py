"""The umpire's desk in the rules layer: umpire-only orders, checked, turned into events.

Umpire orders: one per line, listed in ``HELP``; "because" gives the reason every ruling carries.

``desk_events(state, text)`` returns (events, errors); nothing is produced if any line
is wrong, so an umpire never half-applies a ruling.
"""

from __future__ import annotations

import re
from typing import Any

from rules.core.i18n import _, message_of
from rules.core.protocol import PUBLIC, LineError, RuleEvent, State, side_audience
from rules.littlewars.units import SIDES

from . import works
from .state import PREFIX

_REASON = r"\s+because\s+(.+)"
_FIG = r"((?:red|blue):[ic]\d+)"


class _Bad(Exception):
    pass


def _ev(kind: str, payload: dict[str, Any], audience: str) -> RuleEvent:
    return RuleEvent(PREFIX + kind, payload, audience)


def _work(state: State, wid: str) -> dict[str, Any]:
    """A work by its id (``red:w2``, ``w4`` in older games) or its public name (``blue:p1``)."""
    named = {works.label(w, None): w for w in state["ks"]["works"].values()}
    wid = wid.lower()
    w: dict[str, Any] | None = state["ks"]["works"].get(wid) or named.get(wid)
    if w is None:
        known = ", ".join(sorted(state["ks"]["works"], key=works.number)) or "none"
        raise _Bad(_("no work {wid} (works: {known})", wid=repr(wid), known=known))
    return w


def _figures(state: State, text: str, alive: bool) -> list[str]:
    ids = re.findall(_FIG, text, re.I)
    rest = re.sub(_FIG, " ", text, flags=re.I).strip()
    if rest or not ids:
        raise _Bad(_("cannot read {value} as figure ids like red:i3", value=repr(rest or text)))
    out = []
    for fid in (i.lower() for i in ids):
        f = state["figures"].get(fid)
        if f is None:
            raise _Bad(_("no figure {fid}", fid=fid))
        if alive and f["st"] != "ok":
            raise _Bad(_("{fid} is not alive and free (it is {st})", fid=fid, st=f["st"]))
        if not alive and f["st"] != "dead":
            raise _Bad(_("{fid} is not dead", fid=fid))
        out.append(fid)
    return sorted(set(out))


def _note(state: State, m: re.Match[str]) -> RuleEvent:
    to, text = m.group(1).lower(), m.group(2).strip()
    aud = PUBLIC if to == "all" else side_audience(to)
    return _ev("note", {"turn": state["turn"], "to": aud, "text": text}, aud)


def _reveal(state: State, m: re.Match[str]) -> RuleEvent:
    w = _work(state, m.group(1))
    if w["status"] in ("complete", "exploded") or w.get("revealed"):
        raise _Bad(_("{id} is already known to both sides", id=w["id"]))
    return _ev(
        "work_revealed",
        {
            **works.public_ref(state, w),
            "side": w["side"],
            "kind": w["kind"],
            "at": w["at"],
            "to": w["to"],
            "target": w.get("target"),
            "reason": m.group(2),
        },
        PUBLIC,
    )


def _abandon(state: State, m: re.Match[str]) -> RuleEvent:
    w = _work(state, m.group(1))
    if w["status"] not in ("building", "armed"):
        raise _Bad(
            _("{id} is {status}: only a work in hand or an armed mine can be abandoned", id=w["id"], status=w["status"])
        )
    if not w.get("revealed"):  # only its side knows it: by the id its side knows
        return _ev("work_abandoned", {"id": w["id"], "side": w["side"], "reason": m.group(2)}, side_audience(w["side"]))
    return _ev("work_abandoned", {**works.public_ref(state, w), "side": w["side"], "reason": m.group(2)}, PUBLIC)


def _ledger(state: State, m: re.Match[str]) -> RuleEvent:
    side, depot, kind, amount, reason = m.group(1).lower(), m.group(2), m.group(3).lower(), int(m.group(4)), m.group(5)
    depots = state["ks"]["supply"][side]["depots"]
    if depot not in depots:
        raise _Bad(
            _(
                "{side} has no depot {depot} (depots: {value})",
                side=side,
                depot=repr(depot),
                value=", ".join(sorted(depots)) or "none",
            )
        )
    if amount == 0:
        raise _Bad(_("an adjustment of 0 portions changes nothing"))
    return _ev(
        "ledger_adjusted",
        {"side": side, "depot": depot, "kind": kind, "portions": amount, "reason": reason},
        side_audience(side),
    )


def _kill(state: State, m: re.Match[str]) -> RuleEvent:
    return _ev("ruling", {"killed": _figures(state, m.group(1), True), "reason": m.group(2)}, PUBLIC)


def _revive(state: State, m: re.Match[str]) -> RuleEvent:
    return _ev("ruling", {"revived": _figures(state, m.group(1), False), "reason": m.group(2)}, PUBLIC)


def _show(state: State, m: re.Match[str]) -> RuleEvent:
    fid, side = m.group(1).lower(), m.group(2).lower()
    f = state["figures"].get(fid)
    if f is None or f["st"] != "ok":
        raise _Bad(_("{fid} is not a figure on the table", fid=fid))
    if f["side"] == side:
        raise _Bad(_("{fid} is {side}'s own figure", fid=fid, side=side))
    return _ev(
        "sighting_ruled",
        {"side": side, "figure": fid, "at": [f["x"], f["y"], f["arm"]], "reason": m.group(3)},
        side_audience(side),
    )


# The desk's order language as the umpire's page shows it (the module's docstring lists the same).
HELP = _("""\
note red: text                   narrative for one side (side audience); "note all: ..." is public
reveal blue:w3 because ...       reveal a hidden work early, e.g. a disputed sighting (public)
abandon blue:w3 because ...      rule a work abandoned (the owner and the umpire are told)
ledger red wagons food +6 because ...   add (or take, with -) portions to a depot (owner and umpire)
kill red:i3 red:i4 because ...   rule figures dead (a new event, never an edit; public)
revive red:i3 because ...        undo a death the engine got wrong (public)
show blue:i4 to red because ...  grant a sighting the engine denied (that side only)""")

_SIDE = "(" + "|".join(SIDES) + ")"
_WORK = rf"((?:(?:{'|'.join(SIDES)}):)?[wp]\d+)"  # red:w2, blue:p1; w4 in older games
_RULES = [
    (re.compile(rf"^note\s+({'|'.join(SIDES)}|all)\s*:\s*(.+)$", re.I), _note),
    (re.compile(rf"^reveal\s+{_WORK}{_REASON}$", re.I), _reveal),
    (re.compile(rf"^abandon\s+{_WORK}{_REASON}$", re.I), _abandon),
    (re.compile(rf"^ledger\s+{_SIDE}\s+([\w-]+)\s+(food|forage|ammo)\s+([+-]\d+){_REASON}$", re.I), _ledger),
    (re.compile(rf"^kill\s+(.+?){_REASON}$", re.I), _kill),
    (re.compile(rf"^revive\s+(.+?){_REASON}$", re.I), _revive),
    (re.compile(rf"^show\s+{_FIG}\s+to\s+{_SIDE}{_REASON}$", re.I), _show),
]
VERBS = ("note", "reveal", "abandon", "ledger", "kill", "revive", "show")


def desk_events(state: dict[str, Any], text: str) -> tuple[list[RuleEvent], list[LineError]]:
    if state.get("phase") != "play":
        return [], [LineError(0, "", _("the umpire's desk rules on a game in play"))]
    events, errors = [], []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        for rx, make in _RULES:
            m = rx.match(line)
            if m:
                try:
                    events.append(make(state, m))
                except _Bad as exc:
                    errors.append(LineError(n, line, message_of(exc)))
                break
        else:
            verb = line.split()[0].lower()
            why = (
                f"cannot read this '{verb}' ruling; every ruling but a note ends with 'because <reason>'"
                if verb in VERBS
                else f"unknown umpire order '{verb}': orders are {', '.join(VERBS)}"
            )
            errors.append(LineError(n, line, why))
    return ([] if errors else events), errors

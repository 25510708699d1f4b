"""One readable line per event: English, marked for the platform to translate (rules.core.i18n)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.core.i18n import _, gettext_noop, joined, pgettext, reread, side_name, word
from rules.hex.coords import DIRECTION_NAMES

from .fold import PREFIX

# How a game ended (turn.end_of_turn writes the English into the payload; read back here).
ENDINGS = (
    gettext_noop("{side} has no fighting units left"),
    gettext_noop("both sides have no fighting units left; after {turn} turns, {red} to {blue} points (red to blue)"),
    gettext_noop("after {turn} turns, {red} to {blue} points (red to blue)"),
)
# The payloads' English words, as readers see them.
_MODES = {
    "walk": pgettext("move", "walk"),
    "run": pgettext("move", "run"),
    "trot": pgettext("move", "trot"),
    "gallop": pgettext("move", "gallop"),
    "cruise": pgettext("move", "cruise"),
    "accelerate": pgettext("move", "accelerate"),
    "drive": pgettext("move", "drive"),
    "tow": pgettext("move", "tow"),
    "storm": pgettext("move", "storm"),
    "board": pgettext("move", "board"),
}
_DIRECTIONS = {
    "N": pgettext("compass", "N"),
    "NE": pgettext("compass", "NE"),
    "SE": pgettext("compass", "SE"),
    "S": pgettext("compass", "S"),
    "SW": pgettext("compass", "SW"),
    "NW": pgettext("compass", "NW"),
}
_CAUSES = (
    gettext_noop("{unit} ran into it"),
    gettext_noop("it moved"),
    gettext_noop("{unit} came next to it"),
    gettext_noop("it opened fire"),
    gettext_noop("it attacked"),
    gettext_noop("ran into {unit} hidden at {at}"),
    gettext_noop("it held a way out of {at}"),
    gettext_noop("it looked for a way out of {at}"),
    gettext_noop("heavy armour is immune to weapons that are not armour-piercing (WW-25)"),
    gettext_noop("aircraft are not moved on the map: they are placed beside their target when they fire (WW-20)"),
    gettext_noop("no such enemy unit to ram"),
    gettext_noop("a {profile} cannot fight its way into a building (WW-31)"),
    gettext_noop("a {profile} has no melee attack"),
    gettext_noop("a {profile} moves by {moves}, not {mode}"),
    gettext_noop("no way from {start} towards {dest} for a {profile} at {mode} speed"),
    gettext_noop("{dest} cannot be entered; heading for {to}"),
    gettext_noop("{unit} cannot be boarded (an automaton has no crew to fight or replace)"),
    gettext_noop("{unit}: no such enemy unit to fight"),
    gettext_noop("{target} is not adjacent to {unit} (WW-39)"),
    gettext_noop("{unit} cannot fight in melee"),
    gettext_noop("{unit} did not reach {target} at speed: no ramming"),
    gettext_noop("{unit} has a penalty marker: it may not attack in melee (WW-58)"),
    gettext_noop("{unit} has a penalty marker: it may not leave cover (WW-58)"),
    gettext_noop("{unit} has a penalty marker: it may not move towards the enemy (WW-58)"),
    gettext_noop("{unit} has already fired this turn"),
    gettext_noop("{unit} has already fought this turn"),
    gettext_noop("{unit} has already moved this turn"),
    gettext_noop("{unit} has no bonus marker"),
    gettext_noop("{unit} has no crew fit to drive it"),
    gettext_noop("{unit} has no crew fit to fight"),
    gettext_noop("{unit} is in panic and flees by itself (WW-59)"),
    gettext_noop("{unit} is in panic: it does not fight (WW-59)"),
    gettext_noop("{unit} is not a machine that can ram"),
    gettext_noop("{unit} moved at {mode} this turn: it cannot shoot (WW-12)"),
    gettext_noop("{unit}'s engine is wrecked: it cannot move"),
    gettext_noop("{side} has already tried the door at {at} this turn (WW-46)"),
    gettext_noop("heavy losses"),
    gettext_noop("friend destroyed nearby"),
    gettext_noop("terrifying weapon"),
    gettext_noop("charge or ramming"),
    gettext_noop("pinned by fire"),
    gettext_noop("overwhelmed by numbers"),
    gettext_noop("surprise attack"),
    gettext_noop("crossfire"),
    gettext_noop("flank attack in melee"),
)
_WORDS = {
    "panic": gettext_noop("panic"),
    "despondency": gettext_noop("despondency"),
    "calm": gettext_noop("calm"),
    "inspired": gettext_noop("inspired"),
    "heroism": gettext_noop("heroism"),
    "concussion": gettext_noop("concussion"),
    "weapon": gettext_noop("weapon"),
    "engine": gettext_noop("engine"),
    "fire": gettext_noop("fire"),
    "explosion": gettext_noop("explosion"),
    "shooting": gettext_noop("shooting"),
    "melee": gettext_noop("melee"),
}


# The soldiers' roles the payloads name (a unit's models), as readers see them.
_ROLES = {
    "flamer": pgettext("soldier", "flamer"),
    "grenadier": pgettext("soldier", "grenadier"),
    "gunner": pgettext("soldier", "gunner"),
    "lmg": pgettext("soldier", "lmg"),
    "officer": pgettext("soldier", "officer"),
    "rifle": pgettext("soldier", "rifle"),
    "sniper": pgettext("soldier", "sniper"),
    "trooper": pgettext("soldier", "trooper"),
}


def describe_reason(reason: Any) -> Any:
    return reread(reason, ENDINGS)


def _cause(text: Any) -> Any:
    return reread(text, _CAUSES, sides=("side",))


def _units(ids: Any) -> str:
    return ", ".join(ids)


def _roles(roles: Any) -> str:
    return joined([word(_ROLES, r) for r in roles], ", ")


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
        details=", ".join(f"{a}={b}" for a, b in p.items() if a not in ("units", "audience")),
    )


def _moved(p: Mapping[str, Any]) -> str:
    params = {"unit": p["unit"], "mode": word(_MODES, p["mode"]), "path": " → ".join(p["path"])}
    if p.get("short"):
        return _("{unit} moves ({mode}) {path}; stopped short: {short}", short=_cause(p["short"]), **params)
    return _("{unit} moves ({mode}) {path}", **params)


def _struck(p: Mapping[str, Any], machine: bool) -> str:
    """An attack's dice: "{attacks} attacks (rolls …), {hits} hits, {saved} saved[, …]; lost …; {left} left"."""
    rolls = p.get("rolls") or []
    params = {"attacks": p["attacks"], "hits": p["hits"], "saved": p["saved"], "rolls": " ".join(map(str, rolls))}
    if rolls and len(rolls) <= 12:
        dice = _("{attacks} attacks (rolls {rolls}), {hits} hits, {saved} saved", **params)
    else:
        dice = _("{attacks} attacks, {hits} hits, {saved} saved", **params)
    if p.get("stray"):
        dice = _("{dice}, {stray} strike own troops", dice=dice, stray=p["stray"])
    if machine:
        return dice
    lost = [_("lost {units}", units=_roles(p["lost"]))] if p["lost"] else []
    return joined([dice, *lost, _("{left} left", left=p["left"])])


def _attacked(p: Mapping[str, Any], machine: bool = False) -> str:
    return _(
        "{by} attacks {target} with {weapon} (strength {strength}): {dice}.",
        by=p["by"],
        target=p["target"],
        weapon=p["weapon"],
        strength=p["strength"],
        dice=_struck(p, machine),
    )


def _aimed(p: Mapping[str, Any]) -> str:
    params = {"by": p["by"], "weapon": p["weapon"], "at": p["at"], "roll": p["roll"]}
    if not p["d6"]:
        return _("{by} aims {weapon} at {at}: roll {roll}, on target.", **params)
    params |= {"d6": p["d6"], "direction": word(_DIRECTIONS, DIRECTION_NAMES[p["d6"] - 1])}
    if p["lands"]:
        return _(
            "{by} aims {weapon} at {at}: roll {roll}, misses; D6 {d6} ({direction}): lands in {lands}.",
            lands=p["lands"],
            **params,
        )
    return _("{by} aims {weapon} at {at}: roll {roll}, misses; D6 {d6} ({direction}): lands off the field.", **params)


def _melee(p: Mapping[str, Any]) -> str:
    params = {"unit": p["unit"], "target": p["target"]}
    if p.get("storm"):
        text = _("{unit} storms {target}", **params)
    elif p.get("board"):
        text = _("{unit} boards {target}", **params)
    else:
        text = _("{unit} attacks {target} in melee", **params)
    if p["charge"]:
        return _("{attack}, charging (+{charge}).", attack=text, charge=p["charge"])
    return _("{attack}.", attack=text)


def _morale(p: Mapping[str, Any]) -> str:
    params = {"unit": p["unit"], "level": word(_WORDS, p["level"]), "roll": p["roll"]}
    if p["bonus"]:
        return _("{unit} ({level}) rolls {roll}: bonus marker.", **params)
    if p["penalty"]:
        return _("{unit} ({level}) rolls {roll}: penalty marker.", **params)
    if p["recovered"]:
        return _("{unit} ({level}) rolls {roll}: recovers to despondency.", **params)
    return _("{unit} ({level}) rolls {roll}.", **params)


def _fear(p: Mapping[str, Any]) -> str:
    params = {"unit": p["unit"], "why": _cause(p["why"]), "roll": p["roll"], "need": p["need"]}
    if p["from"] == p["to"]:
        return _("{unit} tests morale ({why}): roll {roll} needs {need}+: holds.", **params)
    return _(
        "{unit} tests morale ({why}): roll {roll} needs {need}+: {before} → {after}.",
        before=word(_WORDS, p["from"]),
        after=word(_WORDS, p["to"]),
        **params,
    )


def _came_out(p: Mapping[str, Any]) -> str:
    params = {"unit": p["unit"], "at": p["at"], "out": p["out"]}
    if p["lost"]:
        return _("{unit} must come out of {at}: {out} get out, lost inside: {lost}.", lost=_units(p["lost"]), **params)
    return _("{unit} must come out of {at}: {out} get out.", **params)


def _deployed(p: Mapping[str, Any]) -> str:
    """Version 3: where a side put its hidden units (its eyes only), those the dice placed said so."""
    dice = set(p["by_dice"])
    where = [
        _("{unit} at {at} (by the dice)", unit=u, at=at) if u in dice else _("{unit} at {at}", unit=u, at=at)
        for u, at in p["placed"].items()
    ]
    return _("{side} deploys in hiding: {placed}.", side=side_name(p["side"]), placed=joined(where, ", "))


def _game_over(p: Mapping[str, Any]) -> str:
    if p["winner"]:
        return _("{winner} wins: {reason}.", winner=side_name(p["winner"]), reason=describe_reason(p["reason"]))
    return _("Draw: {reason}.", reason=describe_reason(p["reason"]))


_TEXT: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "battle_set": lambda p: _(
        "The battle is set: {value}; {first} is the attacker and activates first.",
        value=p.get("title") or p["scenario"]["title"],
        first=pgettext("side", p["first"]),
    ),
    "hidden_deployed": lambda p: _("Units deployed in hiding: {units}.", units=_units(sorted(p.get("units", {})))),
    "awaiting_deployment": lambda p: _(
        "Units to deploy in hiding, in your deployment zone: {units}.", units=_units(sorted(p.get("units", {})))
    ),
    "deployed": _deployed,
    "deployment_done": lambda p: _("The hidden units are deployed: the battle begins."),
    "markers_cleared": lambda p: _("Markers cleared for the new turn."),
    "round_started": lambda p: _("Turn {turn}, {round} round.", turn=p["turn"], round=p["round"]),
    "round_opened": lambda p: _("Turn {turn}: the {round} round is open.", turn=p["turn"], round=p["round"]),
    "moved": _moved,
    "order_failed": lambda p: _("Not carried out: '{order}': {reason}.", order=p["order"], reason=_cause(p["reason"])),
    "revealed": lambda p: _("{unit} is revealed at {at}: {why}.", unit=p["unit"], at=p["at"], why=_cause(p["why"])),
    "aircraft_placed": lambda p: _(
        "{unit} swoops in over {at} to attack {target}.", unit=p["unit"], at=p["at"], target=p["target"]
    ),
    "attacked": _attacked,
    "machine_attacked": lambda p: _attacked(p, machine=True),
    "no_effect": lambda p: _(
        "{by}'s {weapon} cannot hurt {target}: {why}.",
        by=p["by"],
        weapon=p["weapon"],
        target=p["target"],
        why=_cause(p["why"]),
    ),
    "damaged": lambda p: _(
        "{target} damaged: roll {roll} → {modified}: {result}; {crew_left} crew left.",
        target=p["target"],
        roll=p["roll"],
        modified=p["modified"],
        result=word(_WORDS, p["result"]),
        crew_left=p["crew_left"],
    ),
    "bailed_out": lambda p: _(
        "The surviving crew of {origin} bail out to {at} as {unit}.", origin=p["from"], at=p["at"], unit=p["unit"]
    ),
    "air_crash": lambda p: (
        _("{unit} crashes into {at} (D6 {d6}).", unit=p["unit"], at=p["at"], d6=p["d6"])
        if p["at"]
        else _("{unit} crashes off the field (D6 {d6}).", unit=p["unit"], d6=p["d6"])
    ),
    "aimed": _aimed,
    "direct_hit": lambda p: (
        _(
            "{by}'s {weapon} direct hit on {target}: roll {roll}, kills {lost}.",
            by=p["by"],
            weapon=p["weapon"],
            target=p["target"],
            roll=p["roll"],
            lost=word(_ROLES, p["lost"][0]),
        )
        if p["lost"]
        else _(
            "{by}'s {weapon} direct hit on {target}: roll {roll}, misses.",
            by=p["by"],
            weapon=p["weapon"],
            target=p["target"],
            roll=p["roll"],
        )
    ),
    "halved": lambda p: _("{unit} has lost half its strength.", unit=p["unit"]),
    "shot_from": lambda p: _(
        "{unit} is under fire from the {direction}.",
        unit=p["unit"],
        direction=word(_DIRECTIONS, DIRECTION_NAMES[p["direction"]]),
    ),
    "activated": lambda p: _("{unit} has acted ({phase}).", unit=p["unit"], phase=word(_WORDS, p["phase"])),
    "melee": _melee,
    "fear_test": _fear,
    "morale_rolled": _morale,
    "surrendered": lambda p: _("{unit} has nowhere to run and surrenders at {at}.", unit=p["unit"], at=p["at"]),
    "deserted": lambda p: _("{unit} flees off the field at {at} and deserts.", unit=p["unit"], at=p["at"]),
    "fire_out": lambda p: _("The fire in {unit} goes out (roll {roll}).", unit=p["unit"], roll=p["roll"]),
    "fire_burns": lambda p: _(
        "{unit} burns on (roll {roll}); {crew_left} crew left.",
        unit=p["unit"],
        roll=p["roll"],
        crew_left=p["crew_left"],
    ),
    "priority_set": lambda p: _("{unit} protects {roles} (hit last).", unit=p["unit"], roles=", ".join(p["roles"])),
    "door_forced": lambda p: (
        _("{unit} tries the door at {at}: roll {roll}, it gives.", unit=p["unit"], at=p["at"], roll=p["roll"])
        if p["open"]
        else _("{unit} tries the door at {at}: roll {roll}, it holds.", unit=p["unit"], at=p["at"], roll=p["roll"])
    ),
    "entered": lambda p: _(
        "{unit}: {soldiers} soldier(s) get in at {at} (D3 {d3}).",
        unit=p["unit"],
        soldiers=p["soldiers"],
        at=p["at"],
        d3=" ".join(map(str, p["d3"])),
    ),
    "came_out": _came_out,
    "crew_fight": lambda p: _(
        "{unit} fights the crew of {machine}: {crew_lost} crew lost, {crew_left} left.",
        unit=p["unit"],
        machine=p["machine"],
        crew_lost=p["crew_lost"],
        crew_left=p["crew_left"],
    ),
    "agility": lambda p: _(
        "{unit} jumps onto the moving {machine} ({need}+): {failed} fail, {lost} lost.",
        unit=p["unit"],
        machine=p["machine"],
        need=p["need"],
        failed=p["failed"],
        lost=p["lost"],
    ),
    "captured": lambda p: _(
        "{unit} captures {machine}: {crew} soldier(s) now crew it.",
        unit=p["unit"],
        machine=p["machine"],
        crew=p["crew"],
    ),
    "rammed": lambda p: _(
        "{unit} rams {target} after {moved} hex(es).", unit=p["unit"], target=p["target"], moved=p["moved"]
    ),
    "game_over": _game_over,
}

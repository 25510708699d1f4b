"""The order language: one line per activation, in the order the side wants them carried out.

    move R1 to 0507 [walk|run|trot|gallop|cruise|drive|accelerate|stride|tow] [bonus]
    hold R1                                   (the unit passes this phase)
    fire R1 at B2[, B3 ...] [with rifle] [aim officer] [bonus]
    ram T1 B2 [bonus]                         (a machine drives at an enemy at speed, WW-51 house)
    attack R1 B2 [bonus]                      (melee, WW-39..43; storming a building or boarding
                                               a machine when B2 is in one or is one, WW-44..50)
    protect R1 officer[, lmg ...]             (standing wound priority, WW-27; any phase)
    deploy B2 at 0807                         (the deployment round before play: a hidden unit's hex)

Blank lines and lines starting with # are ignored. Unit ids are case-insensitive.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.core.compose import CompositionError
from rules.core.i18n import _, joined
from rules.core.orderlines import parse_lines
from rules.core.orderwords import Table, heads
from rules.core.protocol import ParsedOrders

_PLAY_HELP = _("""Each mail round is one phase of the turn: movement, then shooting, then melee (the
organisation phase is rolled by the engine at the start of every turn). Write one line per
unit you activate, in the order you want: the engine alternates the attacker's first line,
the defender's first line, the attacker's second, and so on; units you do not name pass.
If an order can no longer be carried out when its turn comes, it falls back as described
and you are told why.

Movement round:
  move R1 to 0507 run        (modes: walk/run, trot/gallop, cruise/accelerate, drive/accelerate,
                              walk/stride, tow; default the slow one)
  move R1 to 0507 bonus      (spend a bonus marker: one hex more, WW-56)
  ram T1 B2                  (a tank, car or walker drives at B2 at full speed and rams it)
  hold R1
Shooting round:
  fire R1 at B2              (all of R1's weapons in range)
  fire R1 at B2, B3          (B3 if B2 is gone or out of sight when R1's turn comes)
  fire T1 at B2 with tank_gun
  fire S1 at B2 aim officer  (aimed weapons choose who is hit, WW-29)
  fire A1 at B2              (an aircraft: placed beside its target, WW-20)
  fire R1 at B2 bonus        (a bonus marker doubles the attacks)
Melee round:
  attack R1 B2               (adjacent; assault weapons first, charges count, WW-39..43)
  storm R1 B2 / board R1 T2  (the same order: against a squad in a building it is a storm,
                              against a machine it is boarding; D3 soldiers per entrance get in)
Any round:
  protect R1 officer, lmg    (the owner's wound priority: these roles are hit last)
""")
# Version 3: the deployment round, a paragraph of its own (the text above keeps its translation).
_DEPLOY_HELP = _("""Deployment round (before turn 1, when the scenario gives your side hidden units and a
deployment zone; the other side does not see where you put them):
  deploy H1 at 0807          (a hidden unit to a hex of your zone, one line per unit; a unit
                              you leave out is put on a hex of the zone by the dice)
""")
ORDERS_HELP = joined([_PLAY_HELP, _DEPLOY_HELP], "\n")

# What an order line begins with: mail reads a line as an order by these (RuleSet.order_words).
ORDER_WORDS: tuple[str, ...] = (
    "move",
    "hold",
    "pass",
    "fire",
    "shoot",
    "strike",
    "attack",
    "charge",
    "storm",
    "board",
    "ram",
    "protect",
    "deploy",
)
# The Russian order words (RULES.md, "Order words in Russian"): each line is read through them first.
RU_WORDS: Table = {
    "двигать": "move",
    "идти": "move",
    "стоять": "hold",
    "пас": "pass",
    "огонь": "fire",
    "стрелять": "shoot",
    "удар": "strike",
    "атаковать": "attack",
    "атака": "attack",
    "натиск": "charge",
    "штурм": "storm",
    "штурмовать": "storm",
    "абордаж": "board",
    "таран": "ram",
    "таранить": "ram",
    "беречь": "protect",
    "защищать": "protect",
    "к": "to",
    "на": {"deploy": "at", "*": "to"},  # "развернуть B2 в 0807": deploy B2 at 0807
    "в": {"deploy": "at", "*": "to"},
    "по": "at",
    "из": "with",
    "оружием": "with",
    "прицел": "aim",
    "целиться": "aim",
    "бонус": "bonus",
    "шагом": "walk",
    "бегом": "run",
    "рысью": "trot",
    "галопом": "gallop",
    "крейсерской": "cruise",
    "ходом": "drive",
    "ускориться": "accelerate",
    "разгон": "accelerate",
    "шаг": "stride",
    "буксир": "tow",
    "офицер": "officer",
    "офицера": "officer",
    "развернуть": "deploy",
    "разместить": "deploy",
    "укрыть": "deploy",
}
ORDER_WORDS = (*ORDER_WORDS, *heads(RU_WORDS, ORDER_WORDS))

MODES = ("walk", "run", "trot", "gallop", "cruise", "drive", "accelerate", "stride", "tow")
UID = r"[A-Za-z0-9]{1,8}"
HEX = r"\d{4}"


@dataclass(frozen=True)
class Order:
    line: int
    text: str
    verb: str
    unit: str
    dest: str | None = None
    mode: str | None = None
    targets: tuple[str, ...] = ()
    weapon: str | None = None
    aim: str | None = None
    bonus: bool = False
    roles: tuple[str, ...] = ()

    def to_text(self) -> str:
        return self.text


_MOVE = re.compile(rf"^move\s+({UID})\s+to\s+({HEX})((?:\s+\w+)*)$", re.I)
_HOLD = re.compile(rf"^(?:hold|pass)\s+({UID})$", re.I)
_FIRE = re.compile(
    rf"^(?:fire|shoot|strike)\s+({UID})\s+at\s+({UID}(?:\s*,\s*{UID})*)"
    rf"(?:\s+with\s+(\w+))?(?:\s+aim\s+(\w+))?(\s+bonus)?$",
    re.I,
)
_ATTACK = re.compile(rf"^(attack|charge|storm|board|ram)\s+({UID})\s+({UID})(\s+bonus)?$", re.I)
_PROTECT = re.compile(rf"^protect\s+({UID})\s+(\w+(?:\s*,\s*\w+)*)$", re.I)
_DEPLOY = re.compile(rf"^deploy\s+({UID})\s+(?:(?:at|to)\s+)?({HEX})$", re.I)


def parse_line(n: int, text: str) -> Order | str:
    t = " ".join(text.split())
    if m := _MOVE.match(t):
        words = m.group(3).lower().split()
        bonus = "bonus" in words
        words = [w for w in words if w != "bonus"]
        if len(words) > 1 or (words and words[0] not in MODES):
            return _("unknown speed {words} (known: {MODES})", words=repr(" ".join(words)), MODES=", ".join(MODES))
        return Order(n, t, "move", m.group(1).upper(), dest=m.group(2), mode=words[0] if words else None, bonus=bonus)
    if m := _HOLD.match(t):
        return Order(n, t, "hold", m.group(1).upper())
    if m := _FIRE.match(t):
        targets = tuple(x.strip().upper() for x in m.group(2).split(","))
        return Order(
            n,
            t,
            "fire",
            m.group(1).upper(),
            targets=targets,
            weapon=(m.group(3) or "").lower() or None,
            aim=(m.group(4) or "").lower() or None,
            bonus=bool(m.group(5)),
        )
    if m := _ATTACK.match(t):
        verb = "ram" if m.group(1).lower() == "ram" else "attack"
        return Order(n, t, verb, m.group(2).upper(), targets=(m.group(3).upper(),), bonus=bool(m.group(4)))
    if m := _PROTECT.match(t):
        return Order(n, t, "protect", m.group(1).upper(), roles=tuple(r.strip().lower() for r in m.group(2).split(",")))
    if m := _DEPLOY.match(t):
        return Order(n, t, "deploy", m.group(1).upper(), dest=m.group(2))
    verb = t.split()[0].lower()
    if verb in _EXAMPLE:
        return _("cannot read this {verb} order; e.g. {value}", verb=verb, value=_EXAMPLE[verb])
    return _("unknown order {verb}: write move, hold, fire, attack or protect (see the order help)", verb=repr(verb))


_EXAMPLE = {
    "move": "'move R1 to 0507 run'",
    "hold": "'hold R1'",
    "pass": "'hold R1'",
    "fire": "'fire R1 at B2'",
    "shoot": "'fire R1 at B2'",
    "strike": "'fire A1 at B2'",
    "attack": "'attack R1 B2'",
    "charge": "'attack R1 B2'",
    "storm": "'storm R1 B2'",
    "board": "'board R1 T2'",
    "ram": "'ram T1 B2'",
    "protect": "'protect R1 officer, lmg'",
    "deploy": "'deploy H1 at 0807'",
}


def parse_text(text: str) -> ParsedOrders:
    return parse_lines(text, parse_line, RU_WORDS)


def click_engage(board: Mapping[str, Any], unit: dict[str, Any], enemy: dict[str, Any], verb: str) -> str:
    """The order for a unit clicked onto an enemy in this round (the verb "ram" or "fire" may choose)."""
    rnd = str((board.get("turn") or {}).get("round") or "")
    verb = verb or {"shooting": "fire", "melee": "attack"}.get(rnd, "")
    if verb == "fire" and rnd == "shooting":
        return f"fire {unit['id']} at {enemy['id']}"
    if verb == "attack" and rnd == "melee":
        return f"attack {unit['id']} {enemy['id']}"
    if verb == "ram" and rnd == "movement":
        return f"ram {unit['id']} {enemy['id']}"
    if rnd == "movement":
        raise CompositionError(_("this is the {round} round: choose a hex to move to", round=rnd))
    raise CompositionError(_("this is the {round} round: '{verb}' is not an order of this round", round=rnd, verb=verb))


def click_move(board: Mapping[str, Any], unit: dict[str, Any], hex_id: str) -> str:
    if board.get("phase") == "deploy":  # version 3: a hidden unit sent to a hex of its zone
        return f"deploy {unit['id']} at {hex_id}"
    rnd = (board.get("turn") or {}).get("round")
    if rnd != "movement":
        raise CompositionError(_("this is the {round} round: units move in the movement round", round=rnd))
    return f"move {unit['id']} to {hex_id}"

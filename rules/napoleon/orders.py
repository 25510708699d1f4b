"""The order language: one line per action, carried out in the order written (see ORDERS_HELP)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.core.i18n import _
from rules.core.orderlines import parse_lines
from rules.core.orderwords import Table, heads
from rules.core.protocol import ParsedOrders

STANDING = {"square": ("yes", "no"), "countercharge": ("yes", "no"), "leader_morale": ("yes", "no")}

ORDERS_HELP = _("""Napoleon's War (house base, non-canonical): sides take turns. In your turn write one
line per action, in the order you want them done. The engine spends your scenario's command
points (CP); when they are spent (or one point is borrowed past them) it rolls a die for extra
points (ceil(die/2)); it stops at the first action you can no longer pay for and reports the
rest as not carried out. A unit with a leader it obeys pays one point less (NW-37).

  move F1 to 0507            (1 CP; by road with no friend in the way and no enemy next to the
                              road: one hex more, then F1 is done for the turn, NW-9..12)
  road F1 to 0404            (the free road hex alone: 0 CP, F1 is then done, NW-11)
  move NEY to 0405           (a leader: free, 3 points like cavalry, NW-38)
  fire A1 at B2              (1 CP; artillery from a hill reaches one hex further, NW-5..7)
  melee F1 B2                (1 CP; infantry shock, or cavalry melee hitting on 6, NW-35)
  melee F1 B2 dice 2         (buy 2 more dice, 1 CP each: needs an infantry leader, capped at
                              the unit's figures, NW-40/41)
  charge C1 B2 from 0405     (2 CP; cavalry moves to 0405 and charges B2; 'from' may be left out)
  pass                       (do nothing this turn)
Standing instructions, for choices in the opponent's turn (kept until changed; free):
  standing square yes|no         (infantry charged by cavalry tries to form square; default yes)
  standing countercharge yes|no  (cavalry charged by cavalry takes the check; default yes)
  standing leader_morale yes|no  (count the leader's level in those checks, NW-52; default yes)
""")

# What an order line begins with: mail reads a line as an order by these (RuleSet.order_words);
# every example in ORDERS_HELP begins with one (tests/mail/inbound/test_honest_mail.py).
# The Russian order words (RULES.md, "Order words in Russian"): each line is read through them first.
RU_WORDS: Table = {
    "двигать": "move",
    "идти": "move",
    "марш": "move",
    "дорогой": "road",
    "дорога": "road",
    "огонь": "fire",
    "стрелять": "fire",
    "рукопашная": "melee",
    "рукопашный": "melee",
    "атака": "charge",
    "атаковать": "charge",
    "указание": "standing",
    "постоянно": "standing",
    "пас": "pass",
    "пропуск": "pass",
    "к": "to",
    "на": "to",
    "в": "to",
    "по": "at",
    "из": "from",
    "с": "from",
    "кубики": "dice",
    "кубиков": "dice",
    "куба": "dice",
    "кубика": "dice",
    "каре": "square",
    "контратака": "countercharge",
    "да": "yes",
    "нет": "no",
}
ORDER_WORDS = (
    "move",
    "road",
    "fire",
    "melee",
    "charge",
    "standing",
    "pass",
    *heads(RU_WORDS, ("move", "road", "fire", "melee", "charge", "standing", "pass")),
)

UID = r"[A-Za-z0-9]{1,8}"
HEX = r"\d{4}"


@dataclass(frozen=True)
class Order:
    line: int
    text: str
    verb: str
    unit: str = ""
    dest: str | None = None
    target: str | None = None
    dice: int = 0
    key: str | None = None
    value: str | None = None

    def to_text(self) -> str:
        return self.text


_RX = [
    ("move", re.compile(rf"^move\s+({UID})\s+to\s+({HEX})$", re.I)),
    ("road", re.compile(rf"^road\s+({UID})\s+to\s+({HEX})$", re.I)),
    ("fire", re.compile(rf"^fire\s+({UID})\s+at\s+({UID})$", re.I)),
    ("melee", re.compile(rf"^melee\s+({UID})\s+(?:at\s+)?({UID})(?:\s+dice\s+(\d))?$", re.I)),
    ("charge", re.compile(rf"^charge\s+({UID})\s+(?:at\s+)?({UID})(?:\s+from\s+({HEX}))?$", re.I)),
    ("standing", re.compile(r"^standing\s+(\w+)\s+(\w+)$", re.I)),
]
EXAMPLES = {
    "move": "move F1 to 0507",
    "road": "road F1 to 0404",
    "fire": "fire A1 at B2",
    "melee": "melee F1 B2 [dice 2]",
    "charge": "charge C1 B2 [from 0405]",
    "standing": "standing square no",
}


def parse_line(n: int, text: str) -> Order | str:
    t = " ".join(text.split())
    if t.lower() == "pass":
        return Order(n, t, "pass")
    for verb, rx in _RX:
        m = rx.match(t)
        if not m:
            continue
        g = m.groups()
        if verb in ("move", "road"):
            return Order(n, t, verb, g[0].upper(), dest=g[1])
        if verb == "fire":
            return Order(n, t, verb, g[0].upper(), target=g[1].upper())
        if verb == "melee":
            return Order(n, t, verb, g[0].upper(), target=g[1].upper(), dice=int(g[2] or 0))
        if verb == "charge":
            return Order(n, t, verb, g[0].upper(), target=g[1].upper(), dest=g[2])
        key, value = g[0].lower(), g[1].lower()
        if key not in STANDING or value not in STANDING[key]:
            return _(
                "unknown standing instruction; write one of: {choices}",
                choices="; ".join(f"standing {k} {'|'.join(v)}" for k, v in STANDING.items()),
            )
        return Order(n, t, verb, key=key, value=value)
    verb = t.split()[0].lower()
    if verb in EXAMPLES:
        return _("cannot read this {verb} order; e.g. '{value}'", verb=verb, value=EXAMPLES[verb])
    return _(
        "unknown order {verb}: write move, road, fire, melee, charge, standing or pass (see the order help)",
        verb=repr(verb),
    )


def parse_text(text: str) -> ParsedOrders:
    return parse_lines(text, parse_line, RU_WORDS)


def click_engage(board: Mapping[str, Any], unit: dict[str, Any], enemy: dict[str, Any], verb: str) -> str:
    """Artillery fires at the enemy clicked; other troops fight it (cavalry charges when asked)."""
    if verb == "fire" or (not verb and unit.get("arm") in ("artillery", "horse_artillery")):
        return f"fire {unit['id']} at {enemy['id']}"
    if verb == "charge":
        return f"charge {unit['id']} {enemy['id']}"
    return f"melee {unit['id']} {enemy['id']}"


def click_move(board: Mapping[str, Any], unit: dict[str, Any], hex_id: str) -> str:
    return f"move {unit['id']} to {hex_id}"

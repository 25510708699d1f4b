"""The order language: one line per order, parsed into typed orders or an error naming the line.

    <unit> halt
    <unit> advance <inches> [pivot left|right <degrees>]
    <unit> double <inches>                       (also: at the double <inches>)
    <unit> charge <enemy unit>
    <unit> counter-charge <enemy unit>           (also: countercharge)
    <unit> shoot <enemy unit>

Blank lines and text after '#' are ignored. Unit names are the scenario's ids.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rules.core.i18n import _
from rules.core.orderlines import parse_lines
from rules.core.orderwords import Table, heads
from rules.core.protocol import LineError, ParsedOrders

MOVES = ("halt", "advance", "double", "charge", "counter")

ORDERS_HELP = _("""\
One order per line, in the movement phase's words (Kings of War, house order list):
  r1 halt                        stand still (a unit given no order halts, KW-24)
  r2 advance 5                   straight ahead up to Speed inches
  r2 advance 4 pivot left 45     pivot about the centre (at most 90 degrees) first, then ahead
  r3 double 10                   At the Double: straight ahead up to 2 x Speed, no pivot, no shooting,
                                 never through difficult terrain or obstacles (KW-13/14/26)
  r4 charge b2                   charge an enemy partly in your front arc and in sight, up to 2 x Speed
  r5 counter-charge b3           only a unit that charged you in its last turn; no sight or arc needed
  r6 shoot b1                    shooting phase: a target in your front arc, in sight and range
A unit may have one movement order and one shoot line. Write 'pivot' degrees as whole numbers.""")

# What an order line begins with (the unit's id, then the order): mail reads a line as an order by
# these (RuleSet.order_words; "* " stands for the unit).
ORDER_WORDS: tuple[str, ...] = (
    "* halt",
    "* advance",
    "* double",
    "* at the double",
    "* charge",
    "* counter-charge",
    "* counter",
    "* shoot",
)
# The Russian order words (RULES.md, "Order words in Russian"): each line is read through them first.
RU_WORDS: Table = {
    "стоять": "halt",
    "стой": "halt",
    "наступать": "advance",
    "вперед": "advance",
    "бегом": "double",
    "атака": "charge",
    "атаковать": "charge",
    "контратака": "counter-charge",
    "стрелять": "shoot",
    "огонь": "shoot",
    "поворот": "pivot",
    "влево": "left",
    "налево": "left",
    "вправо": "right",
    "направо": "right",
}
ORDER_WORDS = (
    *ORDER_WORDS,
    *(f"* {ru}" for ru in heads(RU_WORDS, ("halt", "advance", "double", "charge", "counter-charge", "shoot"))),
)

_UNIT = r"(?P<unit>[a-z0-9_-]+)"
_NUM = r"(\d+(?:\.\d+)?)"
_PATTERNS = [
    ("halt", re.compile(rf"^{_UNIT}\s+halt$")),
    (
        "advance",
        re.compile(rf"^{_UNIT}\s+advance\s+(?P<dist>{_NUM})(?:\s+pivot\s+(?P<dir>left|right)\s+(?P<deg>\d+))?$"),
    ),
    ("double", re.compile(rf"^{_UNIT}\s+(?:at\s+the\s+)?double\s+(?P<dist>{_NUM})$")),
    ("charge", re.compile(rf"^{_UNIT}\s+charge\s+(?P<target>[a-z0-9_-]+)$")),
    ("counter", re.compile(rf"^{_UNIT}\s+counter-?\s?charge\s+(?P<target>[a-z0-9_-]+)$")),
    ("shoot", re.compile(rf"^{_UNIT}\s+shoot\s+(?P<target>[a-z0-9_-]+)$")),
]
_VERBS = "halt, advance, double, charge, counter-charge or shoot"


@dataclass(frozen=True)
class Order:
    line: int
    text: str
    unit: str
    verb: str  # halt | advance | double | charge | counter | shoot
    dist: float = 0.0
    pivot: int = 0  # degrees, positive = left (anticlockwise)
    target: str | None = None

    @property
    def is_move(self) -> bool:
        return self.verb in MOVES

    @property
    def is_charge(self) -> bool:
        return self.verb in ("charge", "counter")

    def as_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "verb": self.verb, "dist": self.dist, "pivot": self.pivot, "target": self.target}


def parse_line(n: int, raw: str) -> Order | LineError | None:
    text = raw.split("#", 1)[0].strip()
    if not text:
        return None
    low = re.sub(r"\s+", " ", text.lower())
    for verb, pat in _PATTERNS:
        m = pat.match(low)
        if m:
            g = m.groupdict()
            pivot = int(g["deg"]) * (1 if g["dir"] == "left" else -1) if g.get("deg") else 0
            return Order(n, raw.strip(), g["unit"], verb, float(g.get("dist") or 0), pivot, g.get("target"))
    words = low.split()
    if len(words) < 2:
        return LineError(n, raw.strip(), _("write a unit and an order ({VERBS}), e.g. 'r1 advance 5'", VERBS=_VERBS))
    if words[1] in ("advance", "double", "at") or words[1:3] == ["at", "the"]:
        return LineError(
            n,
            raw.strip(),
            _(
                "'{value}' needs a distance in inches, e.g. '{value2} advance 5' or '{value2} advance 4 pivot left 45'",
                value=words[1],
                value2=words[0],
            ),
        )
    if words[1] in ("charge", "counter-charge", "countercharge", "shoot"):
        return LineError(
            n,
            raw.strip(),
            _("'{value}' needs one enemy unit, e.g. '{value2} {value} b2'", value=words[1], value2=words[0]),
        )
    return LineError(n, raw.strip(), _("unknown order '{value}': use {VERBS}", value=" ".join(words[1:]), VERBS=_VERBS))


def parse_text(text: str) -> ParsedOrders:
    return parse_lines(text, parse_line, RU_WORDS)

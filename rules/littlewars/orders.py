"""The order language: one order per line, parsed into small typed records.

Parsing only checks the shape of a line; ``validate`` checks names, ranges and the
rules against the position. Both report per line, so nothing is silently dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from rules.core.i18n import _, joined, message_of
from rules.core.orderwords import MixedScript, Table, canonical, heads
from rules.core.protocol import LineError, ParsedOrders
from rules.tabletop.points import XY

POLICIES = ("nearest", "farthest", "cavalry", "infantry")

ORDERS_HELP = _("""\
Little Wars orders: one order per line; coordinates are inches "x,y" from the south-west corner
(red starts on the south edge y=0, blue on the north edge). Names are your groups (e.g. foot1),
single figures (i12 = infantryman 12, c3 = cavalryman 3), guns (gun1) and prisoner groups (pow1).
Lines starting with # are comments.

  deploy foot1 at 20,4                  deployment turn only: place a group (block) or a gun
  deploy foot1 line 10,3 30,3           deployment: spread a group along a line
  move foot1 to 24,18                   the group's centre goes to the point, formation kept
  move horse to 10,20 then 30,30        along waypoints (path length counts, LW-17/18)
  move foot1 line 10,14 30,14           spread the group along a line
  move i12 to 5,6                       a single figure
  fire gun1 at 30,40 31,40 32,41 30,42  up to 4 aim points (LW-21); not in turn 1 (LW-14)
  move gun1 to 24,14                    the gun moves with 4+ of its crew (move them too, LW-24)
  split foot1 8 as scouts [nearest 20,10]   the 8 figures of foot1 nearest the point form scouts
  merge scouts into foot1
  form column from foot1, horse, i3     a new group from groups and figures
  escort pow1 to 24,2                   move prisoners (infantry pace; keep 1 guard per 7 near, LW-41)
  surrender foot2                       an isolated group gives itself up (LW-45)
  melee kill nearest lose farthest      standing choice for melees you begin (LW-39):
                                        policies nearest | farthest | cavalry | infantry
  edge north                            before deployment, when the game lets you choose the edge
                                        you start from (LW-2; the defender, LW-53): north, south, ...
  hold                                  do nothing (the default)
""")
# LW-66/67, games with settings.supply (the Kriegspiel appendix has its depots instead)
WAGON_HELP = _("""Supply wagons and ammunition carts (games with supply, LW-66/67):
  deploy supply1 at 4,3                 deployment: place a wagon or cart (like a gun)
  move cart1 to 20,10                   a wagon or cart goes 12 in a turn round scenery, no escort needed
""")
CORE_HELP = ORDERS_HELP
ORDERS_HELP = joined([CORE_HELP, WAGON_HELP], "")

_NUM = r"-?\d+(?:\.\d+)?"
_PT = rf"\(?\s*({_NUM})\s*,\s*({_NUM})\s*\)?"
_NAME = r"([A-Za-z][\w-]*)"
_PT_RE = re.compile(_PT)


@dataclass(frozen=True)
class Order:
    line: int
    text: str


@dataclass(frozen=True)
class Move(Order):
    who: str = ""
    points: tuple[Any, ...] = ()  # waypoints for "to", or the two ends for "line"
    line_form: bool = False
    deploy: bool = False


@dataclass(frozen=True)
class Fire(Order):
    gun: str = ""
    aims: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Split(Order):
    who: str = ""
    count: int = 0
    new: str = ""
    near: tuple[Any, ...] | None = None


@dataclass(frozen=True)
class Merge(Order):
    who: str = ""
    into: str = ""


@dataclass(frozen=True)
class Form(Order):
    new: str = ""
    members: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Escort(Order):
    who: str = ""
    points: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Surrender(Order):
    who: str = ""


@dataclass(frozen=True)
class Melee(Order):
    kill: str = "nearest"
    lose: str = "nearest"


@dataclass(frozen=True)
class Edge(Order):
    edge: str = ""


@dataclass(frozen=True)
class Hold(Order):
    extra: tuple[Any, ...] = field(default=())


def parse_points(text: str) -> tuple[XY, ...]:
    """All coordinates in ``text``; raises ValueError if anything else is there."""
    pts = tuple((float(m.group(1)), float(m.group(2))) for m in _PT_RE.finditer(text))
    rest = _PT_RE.sub(" ", text).replace(";", " ")
    rest = re.sub(r"\bthen\b", " ", rest).strip()
    if rest:
        raise ValueError(_("cannot read {rest} as coordinates (write x,y in inches)", rest=repr(rest)))
    return pts


def _parse_move(n: int, raw: str, m: re.Match[str], deploy: bool) -> Move:
    who, how, rest = m.group(1), m.group(2).lower(), m.group(3)
    pts = parse_points(rest)
    if how == "line":
        if len(pts) != 2:
            raise ValueError(_("a line needs exactly two points: line x1,y1 x2,y2"))
        return Move(n, raw, who, pts, True, deploy)
    if not pts:
        raise ValueError(_("no destination: write to x,y"))
    if deploy and len(pts) != 1:
        raise ValueError(_("deploy at takes one point"))
    return Move(n, raw, who, pts, False, deploy)


def _parse_fire(n: int, raw: str, m: re.Match[str]) -> Fire:
    pts = parse_points(m.group(2))
    if not 1 <= len(pts) <= 4:
        raise ValueError(_("a gun fires 1 to 4 shots a turn (LW-21); {pts} aim points given", pts=len(pts)))
    return Fire(n, raw, m.group(1), pts)


def _parse_split(n: int, raw: str, m: re.Match[str]) -> Split:
    near = parse_points(m.group(4)) if m.group(4) else ()
    if m.group(4) and len(near) != 1:
        raise ValueError(_("nearest takes one point"))
    return Split(n, raw, m.group(1), int(m.group(2)), m.group(3), near[0] if near else None)


def _parse_melee(n: int, raw: str, m: re.Match[str]) -> Melee:
    kill = (m.group(1) or "nearest").lower()
    lose = (m.group(2) or "nearest").lower()
    return Melee(n, raw, kill, lose)


_POL = "|".join(POLICIES)
# (pattern, builder): a builder makes the order of a matching line or raises ValueError saying why not.
LineRule = tuple[re.Pattern[str], Callable[[int, str, re.Match[str]], Order]]
_RULES: list[LineRule] = [
    (re.compile(rf"^(?:move|march)\s+{_NAME}\s+(to|line)\s+(.+)$", re.I), lambda n, r, m: _parse_move(n, r, m, False)),
    (re.compile(rf"^deploy\s+{_NAME}\s+(at|line)\s+(.+)$", re.I), lambda n, r, m: _parse_move(n, r, m, True)),
    (re.compile(rf"^fire\s+{_NAME}\s+at\s+(.+)$", re.I), _parse_fire),
    (re.compile(rf"^split\s+{_NAME}\s+(\d+)\s+as\s+{_NAME}(?:\s+nearest\s+(.+))?$", re.I), _parse_split),
    (re.compile(rf"^merge\s+{_NAME}\s+into\s+{_NAME}$", re.I), lambda n, r, m: Merge(n, r, m.group(1), m.group(2))),
    (
        re.compile(rf"^form\s+{_NAME}\s+from\s+([\w\-,\s]+)$", re.I),
        lambda n, r, m: Form(n, r, m.group(1), tuple(x for x in re.split(r"[\s,]+", m.group(2).strip()) if x)),
    ),
    (
        re.compile(rf"^escort\s+{_NAME}\s+to\s+(.+)$", re.I),
        lambda n, r, m: Escort(n, r, m.group(1), parse_points(m.group(2))),
    ),
    (re.compile(rf"^surrender\s+{_NAME}$", re.I), lambda n, r, m: Surrender(n, r, m.group(1))),
    (re.compile(rf"^melee(?:\s+kill\s+({_POL}))?(?:\s+lose\s+({_POL}))?$", re.I), _parse_melee),
    (re.compile(r"^edge\s+(south|north|west|east)$", re.I), lambda n, r, m: Edge(n, r, m.group(1).lower())),
    (re.compile(r"^hold$", re.I), lambda n, r, m: Hold(n, r)),
]

ORDER_VERBS = "deploy, move, fire, split, merge, form, escort, surrender, melee, edge, hold"
# The Russian order words (RULES.md, "Order words in Russian"): each line is read through them first.
RU_WORDS: Table = {
    "развернуть": "deploy",
    "развертывание": "deploy",
    "расставить": "deploy",
    "двигать": "move",
    "идти": "move",
    "марш": "march",
    "двигаться": "move",
    "огонь": "fire",
    "стрелять": "fire",
    "выстрел": "fire",
    "разделить": "split",
    "отделить": "split",
    "слить": "merge",
    "объединить": "merge",
    "сформировать": "form",
    "построить": "form",
    "конвоировать": "escort",
    "конвой": "escort",
    "вести": "escort",
    "сдаться": "surrender",
    "сдача": "surrender",
    "рукопашная": "melee",
    "рукопашный": "melee",
    "край": "edge",
    "стоять": "hold",
    "держать": "hold",  # not "ждать": by mail that is WAIT
    "в": {"deploy": "at", "fire": "at", "merge": "into", "*": "to"},
    "у": "at",
    "по": "at",
    "к": "to",
    "на": "to",
    "до": "to",
    "линия": "line",
    "линией": "line",
    "линию": "line",
    "затем": "then",
    "потом": "then",
    "далее": "then",
    "как": "as",
    "из": "from",
    "ближайшие": "nearest",
    "ближайших": "nearest",
    "дальние": "farthest",
    "дальних": "farthest",
    "кавалерия": "cavalry",
    "кавалерию": "cavalry",
    "кавалеристов": "cavalry",
    "пехота": "infantry",
    "пехоту": "infantry",
    "пехотинцев": "infantry",
    "убивать": "kill",
    "бить": "kill",
    "терять": "lose",
    "север": "north",
    "юг": "south",
    "запад": "west",
    "восток": "east",
}
# What an order line begins with ("march" is "move"): mail reads a line as an order by these.
ORDER_WORDS = (*ORDER_VERBS.split(", "), "march", *heads(RU_WORDS, (*ORDER_VERBS.split(", "), "march")))


def read_by_rules(rules: Iterable[LineRule], n: int, raw: str, text: str) -> Order | LineError | None:
    """The order that the first of ``rules`` (pattern, builder) matching ``text`` builds, or
    that line's error if the builder refuses it (ValueError); None if no pattern matches."""
    for rx, build in rules:
        m = rx.match(text)
        if m:
            try:
                return build(n, raw.strip(), m)
            except ValueError as exc:
                return LineError(n, raw.strip(), exc.args[0])  # the marked message itself
    return None


def parse_line(n: int, raw: str) -> Order | LineError | None:
    text = raw.split("#", 1)[0].strip()
    if not text:
        return None
    item = read_by_rules(_RULES, n, raw, text)
    if item is not None:
        return item
    verb = text.split()[0].lower()
    if verb in ORDER_VERBS.split(", "):
        return LineError(
            n,
            raw.strip(),
            _("cannot read this '{verb}' order; see the examples: {example}", verb=verb, example=_example(verb)),
        )
    return LineError(n, raw.strip(), _("unknown order '{verb}': orders are {verbs}", verb=verb, verbs=ORDER_VERBS))


def _example(verb: str) -> str:
    for line in ORDERS_HELP.splitlines():
        if line.strip().startswith(verb):
            return line.strip().split("  ")[0]
    return verb


def parse_text(
    text: str, read_line: Callable[[int, str], Order | LineError | None] | None = None, words: Table | None = None
) -> ParsedOrders:
    """Every line through ``read_line`` (this order language's, or a variant's that extends it),
    read first through the Russian ``words`` (this language's, or the variant's)."""
    read_line, words = read_line or parse_line, words or RU_WORDS
    orders: list[Order] = []
    errors: list[LineError] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        item = _read_canonical(read_line, words, n, raw)
        if isinstance(item, LineError):
            errors.append(item)
        elif item is not None:
            orders.append(item)
    return ParsedOrders(tuple(orders), tuple(errors))


def _read_canonical(
    read_line: Callable[[int, str], Order | LineError | None], words: Table, n: int, raw: str
) -> Order | LineError | None:
    """``raw`` read in its English words; an error names the line as the player wrote it."""
    try:
        item = read_line(n, canonical(raw, words))
    except MixedScript as exc:
        return LineError(n, raw.strip(), message_of(exc))
    return replace(item, text=raw.strip()) if isinstance(item, LineError) else item

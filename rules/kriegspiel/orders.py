"""The Kriegspiel orders on top of the Little Wars order language (orders.py of the main part).

Every Little Wars order works unchanged; the lines of ``KS_HELP`` are added.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rules.core.i18n import _, joined
from rules.core.orderwords import Table, heads
from rules.core.protocol import LineError, ParsedOrders
from rules.littlewars import orders as lw
from rules.littlewars.orders import (
    CORE_HELP as LW_HELP,  # without the main part's wagons (LW-66/67)
)
from rules.tabletop.points import XY

_NAME = r"([A-Za-z][\w-]*)"


@dataclass(frozen=True)
class Work(lw.Order):
    kind: str = ""
    who: str = ""
    at: tuple[Any, ...] = ()
    to: tuple[Any, ...] | None = None


@dataclass(frozen=True)
class Box(lw.Order):
    who: str = ""
    boxed: bool = True


@dataclass(frozen=True)
class Volley(lw.Order):
    who: str = ""
    aim: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Charge(lw.Order):
    who: str = ""
    at: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Task(lw.Order):
    task: str = ""
    who: str = ""
    target: str = ""  # a bridge's id
    at: tuple[Any, ...] = ()  # or the place of an enemy depot


@dataclass(frozen=True)
class Drive(lw.Order):
    depot: str = ""
    to: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Reform(lw.Order):
    who: str = ""
    column: bool = True


@dataclass(frozen=True)
class Saddle(lw.Order):
    who: str = ""
    mount: bool = True


@dataclass(frozen=True)
class Limber(lw.Order):
    gun: str = ""
    up: bool = True  # limber up (True) or unlimber for action (False)


@dataclass(frozen=True)
class Carry(lw.Order):
    how: str = ""  # "board" | "steam" | "land"
    who: str = ""  # the group boarding, else the vehicle
    vehicle: str = ""
    at: tuple[Any, ...] = ()


def _one_point(text: str, what: str) -> XY:
    pts = lw.parse_points(text)
    if len(pts) != 1:
        raise ValueError(_("{what} takes one point x,y; {pts} given", what=what, pts=len(pts)))
    return pts[0]


def _entrench(n: int, raw: str, m: re.Match[str]) -> Work:
    return Work(n, raw, "entrenchment", m.group(1), _one_point(m.group(2), "from"), _one_point(m.group(3), "to"))


_RULES: list[lw.LineRule] = [
    (
        re.compile(rf"^mine\s+{_NAME}\s+at\s+(.+)$", re.I),
        lambda n, r, m: Work(n, r, "mine", m.group(1), _one_point(m.group(2), "a mine")),
    ),
    (
        re.compile(rf"^gunpit\s+{_NAME}\s+at\s+(.+)$", re.I),
        lambda n, r, m: Work(n, r, "gunpit", m.group(1), _one_point(m.group(2), "a gun pit")),
    ),
    (re.compile(rf"^entrench\s+{_NAME}\s+from\s+(.+?)\s+to\s+(.+)$", re.I), _entrench),
    (re.compile(rf"^(box|unbox)\s+{_NAME}$", re.I), lambda n, r, m: Box(n, r, m.group(2), m.group(1).lower() == "box")),
    (
        re.compile(rf"^volley\s+{_NAME}\s+at\s+(.+)$", re.I),
        lambda n, r, m: Volley(n, r, m.group(1), _one_point(m.group(2), "a volley")),
    ),
    (
        re.compile(rf"^charge\s+{_NAME}\s+at\s+(.+)$", re.I),
        lambda n, r, m: Charge(n, r, m.group(1), _one_point(m.group(2), "a charge")),
    ),
    (
        re.compile(rf"^(demolish|restore)\s+{_NAME}\s+([\w-]+)$", re.I),
        lambda n, r, m: Task(
            n,
            r,
            {"demolish": "bridge_destroy", "restore": "bridge_restore"}[m.group(1).lower()],
            m.group(2),
            m.group(3),
        ),
    ),
    (
        re.compile(rf"^(break|repair)\s+{_NAME}\s+([\w-]+)\s+at\s+(.+)$", re.I),
        lambda n, r, m: Task(
            n,
            r,
            "rail_destroy" if m.group(1).lower() == "break" else "rail_restore",
            m.group(2),
            m.group(3),
            _one_point(m.group(4), "the rails"),
        ),
    ),
    (
        re.compile(rf"^(burn|empty)\s+{_NAME}\s+at\s+(.+)$", re.I),
        lambda n, r, m: Task(
            n,
            r,
            "depot_burn" if m.group(1).lower() == "burn" else "wagons_destroy",
            m.group(2),
            "",
            _one_point(m.group(3), "a depot"),
        ),
    ),
    (
        re.compile(r"^drive\s+([\w-]+)\s+to\s+(.+)$", re.I),
        lambda n, r, m: Drive(n, r, m.group(1), _one_point(m.group(2), "a drive")),
    ),
    (
        re.compile(rf"^(column|line)\s+{_NAME}$", re.I),
        lambda n, r, m: Reform(n, r, m.group(2), m.group(1).lower() == "column"),
    ),
    (
        re.compile(rf"^(dismount|mount)\s+{_NAME}$", re.I),
        lambda n, r, m: Saddle(n, r, m.group(2), m.group(1).lower() == "mount"),
    ),
    (
        re.compile(rf"^(limber|unlimber)\s+{_NAME}$", re.I),
        lambda n, r, m: Limber(n, r, m.group(2), m.group(1).lower() == "limber"),
    ),
    (
        re.compile(rf"^board\s+{_NAME}\s+on\s+([\w-]+)$", re.I),
        lambda n, r, m: Carry(n, r, "board", m.group(1), m.group(2)),
    ),
    (
        re.compile(r"^steam\s+([\w-]+)\s+to\s+(.+)$", re.I),
        lambda n, r, m: Carry(n, r, "steam", m.group(1), m.group(1), _one_point(m.group(2), "a journey")),
    ),
    (
        re.compile(r"^land\s+([\w-]+)\s+at\s+(.+)$", re.I),
        lambda n, r, m: Carry(n, r, "land", m.group(1), m.group(1), _one_point(m.group(2), "a landing")),
    ),
]
VERBS = (
    "mine",
    "entrench",
    "gunpit",
    "box",
    "unbox",
    "volley",
    "charge",
    "demolish",
    "restore",
    "break",
    "repair",
    "burn",
    "empty",
    "drive",
    "column",
    "line",
    "dismount",
    "mount",
    "limber",
    "unlimber",
    "board",
    "steam",
    "land",
)
# The Russian order words (RULES.md, "Order words in Russian"): Little Wars' and these.
_AT_VERBS = ("deploy", "fire", "mine", "gunpit", "volley", "charge", "break", "repair", "burn", "empty", "land")
RU_WORDS: Table = {
    **lw.RU_WORDS,
    "мина": "mine",
    "заминировать": "mine",
    "окопать": "entrench",
    "окопаться": "entrench",
    "окоп": "entrench",
    "капонир": "gunpit",
    "скрыть": "box",
    "раскрыть": "unbox",
    "открыть": "unbox",
    "залп": "volley",
    "атака": "charge",
    "атаковать": "charge",
    "взорвать": "demolish",
    "подорвать": "demolish",
    "восстановить": "restore",
    "разрушить": "break",
    "починить": "repair",
    "чинить": "repair",
    "сжечь": "burn",
    "поджечь": "burn",
    "опустошить": "empty",
    "везти": "drive",
    "перевезти": "drive",
    "колонна": "column",
    "колонной": "column",
    "спешиться": "dismount",
    "спешить": "dismount",
    "оседлать": "mount",
    "верхом": "mount",
    "запрячь": "limber",
    "распрячь": "unlimber",
    "погрузить": "board",
    "погрузиться": "board",
    "ехать": "steam",
    "плыть": "steam",
    "отправить": "steam",
    "высадить": "land",
    "высадиться": "land",
    "в": {"merge": "into", **dict.fromkeys(_AT_VERBS, "at"), "*": "to"},
    "на": {"board": "on", "*": "to"},
    "от": "from",
}
ORDER_WORDS = (*lw.ORDER_WORDS, *VERBS, *heads(RU_WORDS, VERBS))  # Little Wars' orders and these
KS_HELP = _("""\
  mine sappers at 30,20                 two or more figures lay a mine there (6 turns, KS-58); secret
  entrench foot1 from 10,14 to 15,14    infantry dig an entrenchment, 1 in per 2 figures (4 turns, KS-61/63)
  gunpit crew at 24,6                   six or more figures dig a gun pit (4 turns, KS-64)
  box foot2                             move the group in a box at triple speed (LW-63; 20 ft from the enemy)
  unbox foot2                           open the box
  volley foot1 at 24,20                 rifle fire: one gun shot per 5 infantry in line who do not move (KS-8)
  charge horse at 30,40                 8 or more cavalry in formation charge the enemy at the point (KS-68..85)
  demolish sappers bridge1              engineers blow a bridge (2 turns, KS-54)
  restore sappers bridge1               engineers rebuild a blown bridge (10 turns, KS-54)
  break sappers rail1 at 40,60          destroy the rails there (Royal Engineers 1 turn, KS-55; else 4 soldiers 2 turns, LW-73)
  repair sappers rail1 at 40,60         restore broken rails there (Royal Engineers 5 turns, KS-55; else 8 soldiers 3 turns)
  burn raiders at 48,280                one soldier or more burn the enemy depot there (2 turns, KS-56)
  empty raiders at 48,280               each 4 soldiers empty 6 of its wagons in a turn (KS-57)
  drive wagons to 48,20                 move one of your depots (transport pace, KS-20; it supplies nothing that turn)
  column foot1                          form column of fours (half a turn, KS-27/31): half as fast again on roads
  line foot1                            form line again (half a turn); cavalry charge only in line (KS-69)
  dismount horse                        cavalry get off their horses (a turn, KS-32): they fight on foot (KS-76)
  mount horse                           and back into the saddle (a turn)
  limber gun1                           limber up to march (half a turn, KS-33): a gun moves only limbered
  unlimber gun1                         unlimber for action (half a turn): a gun fires only in action
  board foot1 on train1                 board a train or boat from within 4 in (2 turns per 20 figures, KS-28/88)
  steam train1 to 40,60                 a train runs 8 ft along its railway, a boat 1 ft on water (KS-87, KS-22)
  land train1 at 44,62                  everyone aboard lands within 6 in (1 turn per 20 figures, KS-29)
""")
EXAMPLES = {
    v: line.strip().split("  ")[0] for line in KS_HELP.splitlines() for v in VERBS if line.strip().startswith(v + " ")
}
ORDERS_HELP = joined(
    [LW_HELP, _("Kriegspiel orders (hidden works are known only to you and the umpire until finished):"), KS_HELP], "\n"
)


def parse_line(n: int, raw: str) -> lw.Order | LineError | None:
    text = raw.split("#", 1)[0].strip()
    if not text:
        return None
    item = lw.read_by_rules(_RULES, n, raw, text)
    if item is not None:
        return item
    verb = text.split()[0].lower()
    if verb in VERBS:
        return LineError(
            n,
            raw.strip(),
            _("cannot read this '{verb}' order; write it like: {value}", verb=verb, value=EXAMPLES[verb]),
        )
    item = lw.parse_line(n, raw)
    if isinstance(item, LineError) and item.message.startswith("unknown order"):
        return LineError(
            n,
            item.text,
            _(
                "unknown order '{verb}': orders are {VERBS}, {VERBS2}",
                verb=verb,
                VERBS=lw.ORDER_VERBS,
                VERBS2=", ".join(VERBS),
            ),
        )
    return item


def parse_text(text: str) -> ParsedOrders:
    return lw.parse_text(text, parse_line, RU_WORDS)


def split(orders: Iterable[lw.Order]) -> tuple[list[Any], list[Any]]:
    """(Little Wars orders, Kriegspiel orders)."""
    ks = [o for o in orders if isinstance(o, KS_ORDERS)]
    return [o for o in orders if not isinstance(o, KS_ORDERS)], ks


KS_ORDERS = (Work, Box, Volley, Charge, Task, Drive, Carry, Saddle, Reform, Limber)

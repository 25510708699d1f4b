"""The mail command language: commands beside a rule set's orders.

A command is a line whose first word is one of COMMANDS (any case); every
other non-blank line is an order line handed to the rule set. With an
explicit ``ORDERS`` … ``END`` block only the block holds orders; lines
outside it are read for commands only (other text there, a greeting, is
counted in the acknowledgement as not read). ``MESSAGE <to>`` takes the lines after it, up to ``END`` or
the end of the text, as the message.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from . import quotes

COMMANDS = ("READY", "WAIT", "STATUS", "RESEND", "HELP", "ABSENT", "BACK", "MESSAGE", "REPLACE")
ABSENT_RE = re.compile(r"^absent\s+until\s+(\d{4}-\d{2}-\d{2})\s*$", re.IGNORECASE)
MESSAGE_RE = re.compile(r"^message\s+(\S+)\s*:?\s*(.*)$", re.IGNORECASE)

COMMANDS_HELP = """\
MAIL COMMANDS

Reply to a report (its Reply-To is your seat's own secret address) and write,
above any quoted text:
  your orders, one per line (they replace your orders for this turn; send
  again as often as you like until the turn closes), or an explicit block:
      ORDERS
      ...
      END
  READY                  process the turn as soon as every side is ready (default with orders)
  WAIT                   do not process early; wait for the deadline
  STATUS                 the turn, its deadline and your orders in force
  RESEND                 the latest report again
  HELP                   this text and the order language
  ABSENT UNTIL 2026-12-24  tell the umpire you are away until that date
  BACK                   you are back before that date: reminders start again
  MESSAGE umpire         the lines below, up to END, go to the umpire
  MESSAGE <side>         ... or to another side, where the game allows it
Quoted text and signatures are never read as orders.
"""


@dataclass
class Request:
    orders: str = ""
    orders_lines: int = 0
    commands: list[tuple[str, str]] = field(default_factory=list)  # (NAME, argument)
    messages: list[tuple[str, str]] = field(default_factory=list)  # (to, text)
    errors: list[str] = field(default_factory=list)
    unread: int = 0  # lines outside an ORDERS block that are not commands

    @property
    def empty(self) -> bool:
        return not (self.orders.strip() or self.commands or self.messages or self.errors)

    def has(self, name: str) -> bool:
        return any(c == name for c, _ in self.commands)


def _first_word(line: str) -> str:
    parts = line.split(None, 1)
    return parts[0].upper().rstrip(":.!,;") if parts else ""  # "Ready." is READY


def parse(text: str, *, orders_allowed: bool = True) -> Request:
    """``orders_allowed=False``: the orders come from elsewhere (an attachment); read commands only."""
    req = Request()
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    block = quotes.orders_block(text)
    if block is None:
        req.orders = _commands(text, req, orders_allowed=orders_allowed)
    else:
        before, inside, after = block
        _commands(before + "\n" + after, req, orders_allowed=False)
        req.orders = inside
    req.orders = req.orders.strip("\n")
    req.orders_lines = sum(1 for line in req.orders.split("\n") if line.strip())
    return req


def _commands(text: str, req: Request, *, orders_allowed: bool) -> str:
    """Take commands out of ``text``; return the remaining order lines."""
    lines = text.split("\n")
    orders, i = [], 0
    while i < len(lines):
        line = lines[i].strip()
        word = _first_word(line)
        if word == "MESSAGE":
            i = _message(lines, i, req)
            continue
        if word in COMMANDS:
            _command(word, line, req)
        elif line and not orders_allowed:
            req.unread += 1
        else:
            orders.append(lines[i])
        i += 1
    return "\n".join(orders)


def _command(word: str, line: str, req: Request) -> None:
    rest = line.split(None, 1)[1].strip() if len(line.split(None, 1)) > 1 else ""
    if word == "ABSENT":
        m = ABSENT_RE.match(line)
        if not m:
            req.errors.append("write ABSENT UNTIL followed by a date as YYYY-MM-DD, e.g. ABSENT UNTIL 2026-12-24")
            return
        try:
            date.fromisoformat(m.group(1))
        except ValueError:
            req.errors.append(f"ABSENT UNTIL: {m.group(1)} is not a date")
            return
        req.commands.append(("ABSENT", m.group(1)))
    elif rest and word != "REPLACE":
        req.errors.append(f"{word} takes nothing after it (got '{rest[:40]}')")
    else:
        req.commands.append((word, ""))


def _message(lines: list[str], i: int, req: Request) -> int:
    m = MESSAGE_RE.match(lines[i].strip())
    if not m:
        req.errors.append("write MESSAGE followed by umpire or a side, then the message on the lines below, then END")
        return i + 1
    body, j = [m.group(2)] if m.group(2) else [], i + 1
    while j < len(lines) and not quotes.BLOCK_END.match(lines[j]):
        body.append(lines[j])
        j += 1
    text = "\n".join(body).strip()
    if not text:
        req.errors.append(f"MESSAGE {m.group(1)}: the message is empty")
    else:
        req.messages.append((m.group(1).lower(), text))
    return j + 1

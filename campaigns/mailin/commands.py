"""The mail command language: commands beside a rule set's orders, and prose.

A line is read by its first word:
- one of COMMAND_WORDS (any case, English or Russian: READY or ГОТОВ) is a command;
- one of the rule set's ``order_words`` (``RuleSet.order_words``: "move", "if
  attacked", ...) or a '#' comment is an order line, handed to the rule set and
  so parsed (an error there refuses the whole set, as on the web);
- anything else is prose ("Hi umpire,", "Cheers, Bob", "С уважением, Алиса"):
  not read, and listed in the acknowledgement as not read.
With an explicit ``ORDERS`` … ``END`` block (``ПРИКАЗЫ`` … ``КОНЕЦ``) every line
inside it is an order line; lines outside it are read for commands only. An
``ORDERS`` line without its ``END`` is a heading: the lines are read one by one.
``MESSAGE <to>`` takes the lines after it, up to ``END`` or the end of the
text, as the message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache

from django.utils.translation import gettext as _

from .mime import one_line

# Every command word, in one place: the command's name, then the words that say it (any case).
# README's "Orders by mail" lists them; add a language here and there.
COMMAND_WORDS = {
    "READY": ("READY", "ГОТОВ", "ГОТОВА", "ГОТОВЫ", "ГОТОВО"),
    "WAIT": ("WAIT", "ЖДУ", "ЖДЁМ", "ЖДЕМ", "ЖДАТЬ", "ПОДОЖДУ", "ПОДОЖДЁМ", "ПОДОЖДЕМ"),
    "STATUS": ("STATUS", "СТАТУС", "СОСТОЯНИЕ"),
    "RESEND": ("RESEND", "ПОВТОРИ", "ПОВТОРИТЬ", "ПЕРЕШЛИ", "ПЕРЕСЛАТЬ"),
    "HELP": ("HELP", "ПОМОЩЬ", "СПРАВКА"),
    "ABSENT": ("ABSENT", "ОТСУТСТВУЮ", "ОТСУТСТВУЕМ"),  # ABSENT UNTIL 2026-12-24 / ОТСУТСТВУЮ ДО 2026-12-24
    "BACK": ("BACK", "ВЕРНУЛСЯ", "ВЕРНУЛАСЬ", "ВЕРНУЛИСЬ"),
    "MESSAGE": ("MESSAGE", "СООБЩЕНИЕ", "ПИСЬМО"),  # MESSAGE umpire / СООБЩЕНИЕ посреднику
    "REPLACE": ("REPLACE", "ЗАМЕНИТЬ", "ЗАМЕНИ", "ЗАМЕНА"),
}
BLOCK_WORDS = {"ORDERS": ("ORDERS", "ПРИКАЗЫ", "ПРИКАЗ"), "END": ("END", "КОНЕЦ")}
UNTIL_WORDS = ("UNTIL", "ДО")
UMPIRE_WORDS = ("umpire", "посредник", "посреднику", "посреднику:")  # MESSAGE's addressee "umpire"
# MESSAGE's addressee a side, in Russian: СООБЩЕНИЕ красным / синим.
SIDE_WORDS = {"красные": "red", "красным": "red", "красных": "red", "синие": "blue", "синим": "blue", "синих": "blue"}
COMMANDS = {word: name for name, words in COMMAND_WORDS.items() for word in words}


def _alternatives(words) -> str:
    return "|".join(re.escape(w) for w in words)


ABSENT_RE = re.compile(
    rf"^(?:{_alternatives(COMMAND_WORDS['ABSENT'])})\s+(?:{_alternatives(UNTIL_WORDS)})"
    r"\s+(\d{4}-\d{2}-\d{2})\s*$",
    re.IGNORECASE,
)
MESSAGE_RE = re.compile(rf"^(?:{_alternatives(COMMAND_WORDS['MESSAGE'])})\s+(\S+)\s*:?\s*(.*)$", re.IGNORECASE)
BLOCK_START = re.compile(rf"^\s*(?:{_alternatives(BLOCK_WORDS['ORDERS'])})\s*:?\s*$", re.IGNORECASE)
BLOCK_END = re.compile(
    rf"^\s*(?:{_alternatives(BLOCK_WORDS['END'])})(\s+(?:{_alternatives(BLOCK_WORDS['ORDERS'])}))?\s*$", re.IGNORECASE
)
PROSE_LISTED = 10  # lines of prose quoted back in an acknowledgement; the rest are counted


@dataclass
class Request:
    orders: str = ""
    orders_lines: int = 0
    commands: list[tuple[str, str]] = field(default_factory=list)  # (NAME, argument)
    messages: list[tuple[str, str]] = field(default_factory=list)  # (to, text)
    errors: list[str] = field(default_factory=list)
    prose: list[str] = field(default_factory=list)  # lines neither orders nor commands: not read

    @property
    def empty(self) -> bool:
        return not (self.orders.strip() or self.commands or self.messages or self.errors)

    def has(self, name: str) -> bool:
        return any(c == name for c, _ in self.commands)


def _first_word(line: str) -> str:
    parts = line.split(None, 1)
    return parts[0].upper().rstrip(":.!,;") if parts else ""  # "Ready." is READY


@lru_cache(maxsize=16)
def _order_word_re(word: str) -> str:
    # "* halt": the order names its unit first ("r1 halt", Kings of War): any one token, then the word.
    if word.startswith("* "):
        return r"[\w.-]+\s+" + re.escape(word[2:])
    return re.escape(word)


@lru_cache(maxsize=16)
def _order_line_re(order_words: tuple[str, ...]) -> re.Pattern:
    """A line that begins with one of ``order_words`` (a whole word: "formation" is not "form"), or '#'."""
    # Kept per rule set's words (a handful of sets): built anew, it was ~40 escapes and joins per message.
    words = "|".join(_order_word_re(w) for w in order_words)
    return re.compile(rf"^\s*(?:#|(?:{words})\b)", re.IGNORECASE)


def is_order_line(line: str, order_words: tuple[str, ...]) -> bool:
    return bool(_order_line_re(tuple(order_words)).match(line))


def orders_block(text: str) -> tuple[str, str, str] | None:
    """(before, block, after) when the text holds an explicit ORDERS … END block."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if BLOCK_START.match(line)), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if BLOCK_END.match(lines[i])), None)
    if end is None:  # "Orders:" as a heading, no END: the lines are read one by one, as without it
        return None
    return "\n".join(lines[:start]), "\n".join(lines[start + 1 : end]), "\n".join(lines[end + 1 :])


def parse(text: str, *, order_words: tuple[str, ...], orders_allowed: bool = True) -> Request:
    """``order_words``: the rule set's (``RuleSet.order_words``). ``orders_allowed=False``: the
    orders come from elsewhere (an attachment); read commands only."""
    req = Request()
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    block = orders_block(text)
    if block is None:
        req.orders = _commands(text, req, order_words if orders_allowed else ())
    else:
        before, inside, after = block
        _commands(before + "\n" + after, req, ())
        req.orders = inside
    req.orders = req.orders.strip("\n")
    req.orders_lines = sum(1 for line in req.orders.split("\n") if line.strip())
    return req


def _commands(text: str, req: Request, order_words: tuple[str, ...]) -> str:
    """Take commands out of ``text`` and the prose into ``req.prose``; return the order lines
    (blank lines kept between them). No ``order_words``: no line is an order."""
    lines = text.split("\n")
    orders, i = [], 0
    while i < len(lines):
        line = lines[i].strip()
        name = COMMANDS.get(_first_word(line))
        if name == "MESSAGE":
            i = _message(lines, i, req)
            continue
        if name:
            _command(name, line, req)
        elif BLOCK_START.match(line):
            pass  # an ORDERS heading without END: the lines below it speak for themselves
        elif not line or (order_words and is_order_line(line, order_words)):
            orders.append(lines[i])
        else:
            req.prose.append(line)
        i += 1
    return "\n".join(orders)


def prose_note(prose: list[str]) -> str:
    """The acknowledgement's words on lines that were not read."""
    shown = [f"    {one_line(line, 70)}" for line in prose[:PROSE_LISTED]]  # echoed: printable characters only
    more = (
        "\n    " + _("... and %(count)s more") % {"count": len(prose) - PROSE_LISTED}
        if len(prose) > PROSE_LISTED
        else ""
    )
    return (
        _(
            "Not read (these lines begin with neither an order nor a command; if one was meant as an order, "
            "check its first word):"
        )
        + "\n"
        + "\n".join(shown)
        + more
    )


def _command(word: str, line: str, req: Request) -> None:
    rest = line.split(None, 1)[1].strip() if len(line.split(None, 1)) > 1 else ""
    if word == "ABSENT":
        m = ABSENT_RE.match(line)
        if not m:
            req.errors.append(_("write ABSENT UNTIL followed by a date as YYYY-MM-DD, e.g. ABSENT UNTIL 2026-12-24"))
            return
        try:
            date.fromisoformat(m.group(1))
        except ValueError:
            req.errors.append(_("ABSENT UNTIL: %(date)s is not a date") % {"date": m.group(1)})
            return
        req.commands.append(("ABSENT", m.group(1)))
    elif rest and word != "REPLACE":
        req.errors.append(_("%(word)s takes nothing after it (got '%(rest)s')") % {"word": word, "rest": rest[:40]})
    else:
        req.commands.append((word, ""))


def _message(lines: list[str], i: int, req: Request) -> int:
    m = MESSAGE_RE.match(lines[i].strip())
    if not m:
        req.errors.append(
            _("write MESSAGE followed by umpire or a side, then the message on the lines below, then END")
        )
        return i + 1
    body, j = [m.group(2)] if m.group(2) else [], i + 1
    while j < len(lines) and not BLOCK_END.match(lines[j]):
        body.append(lines[j])
        j += 1
    text = "\n".join(body).strip()
    if not text:
        req.errors.append(f"MESSAGE {m.group(1)}: " + _("the message is empty"))
    else:
        to = m.group(1).lower().rstrip(":,")
        req.messages.append(("umpire" if to in UMPIRE_WORDS else SIDE_WORDS.get(to, to), text))
    return j + 1

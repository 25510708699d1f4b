"""Typed orders and the parser of the plain-text order language.

One line, one order. Keywords and point ids are case-insensitive; blank lines
and lines starting with '#' are ignored. The parser checks syntax and that
every named point or line exists on the map; whether an order is *legal* is
decided by :mod:`rules.civilwar.legality`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.core.i18n import _, message_of
from rules.core.orderwords import MixedScript, Table, canonical, heads
from rules.core.protocol import LineError, ParsedOrders

ORDERS_HELP = _("""\
CIVIL WAR: ORDER LANGUAGE

Write one order per line. Keywords and point ids are case-insensitive; blank
lines and lines starting with # are ignored. On the default map cities are C1..C20,
roads are named after the cities they join (R3_8 joins C3 and C8) and the
straight lines are L1..L13.

Each turn: exactly ONE operation, plus any number of standing instructions.

Operations
  form C5                    form a unit in C5 (empty city sympathetic to you)
  move R12 to C2             relocate your unit from R12 to the free adjacent point C2
  assault C1 from R12        assault enemy-held C1; your unit on R12 moves in
  breakthrough C3 from R2_3  break through along the straight line that runs
                             R2_3 -> C3; your whole column behind R2_3 advances
  breakthrough C3 along L1   the same, naming the line (add "from" if ambiguous)
  terror C5                  remove the enemy sympathy token of C5 (your unit is in C5)
  evacuate C5 to C6          move your sympathy token from C5 to the adjacent
                             neutral city C6 (one road away)
  pass                       do nothing this turn (also what a missed turn does)

Standing instructions (secret; kept until you replace them)
  if attacked at C5 retreat to R12   the unit at C5 retreats to R12 if it can
  if attacked at C5 retreat          ... retreats to any free point (lowest id)
  if attacked at C5 fight            ... fights to the end (is destroyed)
  if attacked at C5 ask              ... ask me (overrides the general rule)
  if attacked retreat                general rule for every other point
  if attacked fight                  general rule: never retreat
  if attacked ask                    remove the general rule

Decision turns (when your unit is dislodged and you were asked)
  retreat to R12             retreat to the free adjacent point R12
  fight                      fight to the end: the unit is destroyed

Example turn:
  # push towards the river
  assault C7 from R2_7
  if attacked at C12 retreat to R11_12
  if attacked fight
""")


@dataclass(frozen=True)
class Order:
    line: int = field(default=0, compare=False)
    text: str = field(default="", compare=False)

    is_operation = False
    is_standing = False
    is_decision = False

    def to_text(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError


@dataclass(frozen=True)
class Form(Order):
    city: str = ""
    is_operation = True

    def to_text(self) -> str:
        return f"form {self.city}"


@dataclass(frozen=True)
class Move(Order):
    unit: str = ""
    to: str = ""
    is_operation = True

    def to_text(self) -> str:
        return f"move {self.unit} to {self.to}"


@dataclass(frozen=True)
class Assault(Order):
    target: str = ""
    source: str | None = None
    is_operation = True

    def to_text(self) -> str:
        return f"assault {self.target}" + (f" from {self.source}" if self.source else "")


@dataclass(frozen=True)
class Breakthrough(Order):
    target: str = ""
    source: str | None = None
    along: str | None = None
    is_operation = True

    def to_text(self) -> str:
        text = f"breakthrough {self.target}"
        if self.source:
            text += f" from {self.source}"
        if self.along:
            text += f" along {self.along}"
        return text


@dataclass(frozen=True)
class Terror(Order):
    city: str = ""
    is_operation = True

    def to_text(self) -> str:
        return f"terror {self.city}"


@dataclass(frozen=True)
class Evacuate(Order):
    city: str = ""
    to: str = ""
    is_operation = True

    def to_text(self) -> str:
        return f"evacuate {self.city} to {self.to}"


@dataclass(frozen=True)
class Pass(Order):
    is_operation = True  # fills the turn's one slot, but is never a legal *operation* for CW-11

    def to_text(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Standing(Order):
    """``if attacked [at P] fight|retreat [to Q]|ask``; point None = general rule."""

    point: str | None = None
    action: str = "ask"  # "fight" | "retreat" | "ask"
    to: str | None = None
    is_standing = True

    def to_text(self) -> str:
        text = "if attacked" + (f" at {self.point}" if self.point else "") + f" {self.action}"
        return text + (f" to {self.to}" if self.to else "")

    def as_json(self) -> dict[str, Any]:
        return {"action": self.action, "to": self.to}


@dataclass(frozen=True)
class Retreat(Order):
    to: str | None = None
    is_decision = True

    def to_text(self) -> str:
        return "retreat" + (f" to {self.to}" if self.to else "")


@dataclass(frozen=True)
class Fight(Order):
    is_decision = True

    def to_text(self) -> str:
        return "fight"


OPERATION_WORDS = ("form", "move", "assault", "breakthrough", "terror", "evacuate", "pass")
_SYNONYMS = {"relocate": "move", "storm": "assault", "break": "breakthrough", "evacuation": "evacuate"}
# The Russian order words (RULES.md, "Order words in Russian"): each line is read through them first.
RU_WORDS: Table = {
    "сформировать": "form",
    "формировать": "form",
    "формирование": "form",
    "перейти": "move",
    "переход": "move",
    "двигать": "move",
    "идти": "move",
    "штурм": "assault",
    "штурмовать": "assault",
    "атаковать": "assault",
    "прорыв": "breakthrough",
    "прорваться": "breakthrough",
    "террор": "terror",
    "эвакуация": "evacuate",
    "эвакуировать": "evacuate",
    "пас": "pass",
    "пропуск": "pass",
    "пропустить": "pass",
    "если": "if",
    "атакован": "attacked",
    "атакованы": "attacked",
    "атакуют": "attacked",
    "отступить": "retreat",
    "отступать": "retreat",
    "отход": "retreat",
    "бой": "fight",
    "биться": "fight",
    "сражаться": "fight",
    "спросить": "ask",
    "спрашивать": "ask",
    "в": {"attacked": "at", "*": "to"},
    "у": "at",
    "при": "at",
    "на": "to",
    "к": "to",
    "из": "from",
    "с": "from",
    "от": "from",
    "вдоль": "along",
    "по": "along",
}
# What an order line begins with (``parse_line``'s heads): mail reads a line as an order by these.
ORDER_WORDS = (
    *OPERATION_WORDS,
    *_SYNONYMS,
    "if attacked",
    "retreat",
    "fight",
    *heads(RU_WORDS, (*OPERATION_WORDS, *_SYNONYMS, "retreat", "fight")),
    "если атакован",
    "если атакованы",
)


class _Bad(Exception):
    pass


def _known(tokens_upper: str, points: set[str] | None, what: str = "point") -> str:
    if points is not None and tokens_upper not in points:
        raise _Bad(
            _("unknown line {name}", name=tokens_upper)
            if what == "line"
            else _("unknown point {name}", name=tokens_upper)
        )
    return tokens_upper


def parse_line(words: list[str], line: int, text: str, points: set[str] | None, lines: set[str] | None) -> Order:
    low = [w.lower() for w in words]
    up = [w.upper() for w in words]
    head = _SYNONYMS.get(low[0], low[0])
    n = len(words)

    def pt(i: int) -> str:
        return _known(up[i], points)

    def usage(form: str) -> _Bad:
        return _Bad(_("expected '{form}'", form=form))

    if head == "form":
        if n != 2:
            raise usage(_("form <city>"))
        return Form(line, text, city=pt(1))
    if head == "move":
        if n != 4 or low[2] != "to":
            raise usage(_("move <point> to <point>"))
        return Move(line, text, unit=pt(1), to=pt(3))
    if head == "assault":
        if n == 2:
            return Assault(line, text, target=pt(1))
        if n != 4 or low[2] != "from":
            raise usage(_("assault <point> from <point>"))
        return Assault(line, text, target=pt(1), source=pt(3))
    if head == "breakthrough":
        if n < 2:
            raise usage(_("breakthrough <point> from <point> [along <line>]"))
        target, source, along = pt(1), None, None
        i = 2
        while i < n:
            if i + 1 >= n or low[i] not in ("from", "along"):
                raise usage(_("breakthrough <point> from <point> [along <line>]"))
            if low[i] == "from":
                if source is not None:
                    raise _Bad(_("'from' given twice"))
                source = pt(i + 1)
            else:
                if along is not None:
                    raise _Bad(_("'along' given twice"))
                along = _known(up[i + 1], lines, "line")
            i += 2
        if source is None and along is None:
            raise _Bad(_("say where the column comes from: 'breakthrough <point> from <point>' or '... along <line>'"))
        return Breakthrough(line, text, target=target, source=source, along=along)
    if head == "terror":
        if n != 2:
            raise usage(_("terror <city>"))
        return Terror(line, text, city=pt(1))
    if head == "evacuate":
        if n != 4 or low[2] != "to":
            raise usage(_("evacuate <city> to <city>"))
        return Evacuate(line, text, city=pt(1), to=pt(3))
    if head == "pass":
        if n != 1:
            raise usage("pass")
        return Pass(line, text)
    if head == "if":
        if n < 3 or low[1] != "attacked":
            raise usage(_("if attacked [at <point>] fight|retreat [to <point>]|ask"))
        i, point = 2, None
        if low[i] == "at":
            if n < 5:
                raise usage(_("if attacked at <point> fight|retreat [to <point>]|ask"))
            point, i = pt(3), 4
        action = low[i]
        rest = low[i + 1 :]
        if action in ("fight", "ask") and not rest:
            return Standing(line, text, point=point, action=action)
        if action == "retreat" and not rest:
            return Standing(line, text, point=point, action="retreat")
        if action == "retreat" and len(rest) == 2 and rest[0] == "to":
            return Standing(line, text, point=point, action="retreat", to=pt(i + 2))
        raise usage(_("if attacked [at <point>] fight|retreat [to <point>]|ask"))
    if head == "retreat":
        if n == 1:
            return Retreat(line, text)
        if n != 3 or low[1] != "to":
            raise usage(_("retreat to <point>"))
        return Retreat(line, text, to=pt(2))
    if head == "fight":
        if n != 1:
            raise usage("fight")
        return Fight(line, text)
    raise _Bad(
        _(
            "unknown order '{word}': expected form, move, assault, breakthrough, terror, evacuate, pass or 'if attacked ...'",
            word=words[0],
        )
    )


def parse_text(
    text: str, kind: str = "orders", points: set[str] | None = None, lines: set[str] | None = None
) -> ParsedOrders:
    """Parse orders text; ``points``/``lines`` (upper-case ids) enable existence checks."""
    orders: list[Order] = []
    errors: list[LineError] = []
    for number, raw in enumerate((text or "").splitlines(), 1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            words = canonical(stripped, RU_WORDS).replace(",", " ").split()
        except MixedScript as exc:
            errors.append(LineError(number, stripped, message_of(exc)))
            continue
        if words and words[-1] in (".", ";"):
            words = words[:-1]
        words = [w.rstrip(".;") for w in words]
        if not any(words):  # only punctuation, e.g. "." (found by fuzzing)
            errors.append(LineError(number, stripped, _("no order on this line")))
            continue
        try:
            order = parse_line(words, number, stripped, points, lines)
        except _Bad as exc:
            errors.append(LineError(number, stripped, exc.args[0]))  # the marked message itself
            continue
        if kind == "decision" and not order.is_decision:
            errors.append(
                LineError(number, stripped, _("this is a decision turn: write 'retreat to <point>' or 'fight'"))
            )
            continue
        if kind != "decision" and order.is_decision:
            errors.append(
                LineError(
                    number,
                    stripped,
                    _(
                        "'{to_text}' is only for decision turns; for a standing instruction write 'if attacked [at <point>] {to_text}'",
                        to_text=order.to_text(),
                    ),
                )
            )
            continue
        orders.append(order)
    return ParsedOrders(tuple(orders), tuple(errors))

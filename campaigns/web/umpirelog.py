"""The umpire's whole log on the console, narrowed to one audience and one kind of event, paged by
keyset as the game page's log is (``present.log_page``): the newest LOG_PAGE events that pass the
filter, "older events" a signed cursor away. Nothing here reads the whole log: the choices of the
filter come from DISTINCT queries (a few rows whatever the log's length), the page from the (game,
seq) index, so the console costs the same at 30 events and at 10,000."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, pgettext_lazy

from rules import catalog

from .access import Seen

# The platform's own events (campaigns.turns), by their kind (the part before the dot) and by
# type: what the filter's menu shows; the value sent stays the code. A rule set's events are
# offered by their kind only, named after the rule set (they have no names of their own).
KIND_NAMES = {
    "game": pgettext_lazy("event kind", "The game"),
    "game.created": pgettext_lazy("event kind", "Game created"),
    "game.finished": pgettext_lazy("event kind", "Game over"),
    "orders": pgettext_lazy("event kind", "Orders"),
    "orders.amended": pgettext_lazy("event kind", "Orders amended by the umpire"),
    "orders.defaulted": pgettext_lazy("event kind", "Default orders for a missed turn"),
    "orders.merged": pgettext_lazy("event kind", "Commands' orders merged"),
    "orders.submitted": pgettext_lazy("event kind", "Orders submitted"),
    "results": pgettext_lazy("event kind", "Results"),
    "results.voided": pgettext_lazy("event kind", "Results voided"),
    "seed": pgettext_lazy("event kind", "Dice seeds"),
    "seed.revealed": pgettext_lazy("event kind", "Seed revealed"),
    "seed.sealed": pgettext_lazy("event kind", "Seed sealed"),
    "side": pgettext_lazy("event kind", "Sides"),
    "side.ready": pgettext_lazy("event kind", "Side ready or not"),
    "side.replaced": pgettext_lazy("event kind", "Side handed to another player"),
    "turn": pgettext_lazy("event kind", "Turns"),
    "turn.adjudicated": pgettext_lazy("event kind", "Turn adjudicated"),
    "turn.closed": pgettext_lazy("event kind", "Turn closed"),
    "turn.deadline_set": pgettext_lazy("event kind", "Deadline moved"),
    "turn.late": pgettext_lazy("event kind", "Deadline passed without orders"),
    "turn.opened": pgettext_lazy("event kind", "Turn opened"),
    "turn.published": pgettext_lazy("event kind", "Results published"),
}


@dataclass(frozen=True)
class Kind:
    code: str  # the filter's value: a type ("turn.opened") or a kind ("turn", "littlewars")
    name: str  # in the reader's language
    whole: bool  # a kind (every type before the dot), not one type


def kind_name(code: str) -> str:
    """A kind or type of event as the umpire's filter names it, in the active language."""
    if code in KIND_NAMES:
        return str(KIND_NAMES[code])
    prefix = code.split(".")[0]
    rules = catalog.get(prefix).title if prefix in catalog.names() else prefix
    return gettext("Rules' events: %(rules)s") % {"rules": rules}


def kinds_of(types) -> list[Kind]:
    """The filter's choices for a log holding event ``types``: each kind, and each platform type
    under it (a rule set's types only by their kind)."""
    codes = {t.split(".")[0] for t in types} | {t for t in types if t in KIND_NAMES}
    return [Kind(c, kind_name(c), "." not in c) for c in sorted(codes)]


class LogFilter:
    """The umpire's whole log narrowed to one audience ("public", "umpire", "side:red") and one kind
    of event (a platform type, or the part before the dot: "turn", "orders", "littlewars")."""

    def __init__(self, seen: Seen, query):
        self.seen = seen
        events = seen.events().order_by()
        self.audiences = sorted(events.values_list("audience", flat=True).distinct())
        self.kinds = kinds_of(set(events.values_list("type", flat=True).distinct()))
        codes = {k.code for k in self.kinds}
        self.audience = query.get("audience", "") if query.get("audience", "") in self.audiences else ""
        self.kind = query.get("kind", "") if query.get("kind", "") in codes else ""

    def query(self) -> dict[str, str]:
        """The filter as the query of a link to another page of it."""
        return {k: v for k, v in (("audience", self.audience), ("kind", self.kind)) if v}

    def events(self):
        events = self.seen.events()
        if self.audience:
            events = events.filter(audience=self.audience)
        if self.kind:
            events = (
                events.filter(type=self.kind) if "." in self.kind else events.filter(type__startswith=self.kind + ".")
            )
        return events

"""Words the platform stores in English (a role, a side, a turn's kind) shown in the reader's
language: ``{{ viewer.role|word }}``, ``{{ viewer.side|side }}``. Marked here for the catalogue."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext, gettext_noop, pgettext, pgettext_lazy

from campaigns.i18n import render
from campaigns.turns.lifecycle import prompt_of
from campaigns.turns.state import Turn

register = template.Library()

WORDS = (
    # roles and seat states
    gettext_noop("player"),
    gettext_noop("umpire"),
    gettext_noop("observer"),
    gettext_noop("invited"),
    gettext_noop("active"),
    gettext_noop("declined"),
    # turn kinds and game states
    gettext_noop("orders"),
    gettext_noop("decision"),
    gettext_noop("deployment"),
    gettext_noop("setup"),
    gettext_noop("finished"),
    # turn states (a mail STATUS names them)
    gettext_noop("open"),
    gettext_noop("closed"),
    gettext_noop("adjudicated"),
    gettext_noop("published"),
)
# Every rule set's sides are red and blue; as names of sides they are plural in Russian («красные»).
SIDE_NAMES = (pgettext_lazy("side", "red"), pgettext_lazy("side", "blue"))


@register.filter
def word(value) -> str:
    return gettext(str(value)) if value else ""


@register.filter
def side(value) -> str:
    return pgettext("side", str(value)) if value else ""


PUBLIC = gettext_noop("public")


@register.filter
def audience(value) -> str:
    """Who may see an event ("public", "umpire", "side:red"), as the umpire's log names it."""
    value = str(value or "")
    if value.startswith("side:"):
        return pgettext("side", value.split(":", 1)[1])
    return gettext(value) if value else ""


@register.filter
def prompt(turn) -> str:
    """A turn's prompt (from the game's state) in the reader's language."""
    if isinstance(turn, Turn):  # the state's turn (mail): its prompt, marked where the rule set marked it
        return render(prompt_of(turn)) if turn.prompt else ""
    return render(turn.get("prompt")) if turn and turn.get("prompt") else ""  # lifecycle_view's, marked already


@register.filter
def rendered(value) -> str:
    """A rule set's marked text (a turn's prompt) in the reader's language."""
    return render(value) if value else ""


@register.filter
def ruleset_title(name) -> str:
    """A rule set's title by its name ("littlewars": "Little Wars (H. G. Wells)"); the name if unknown."""
    from rules import catalog

    try:
        return render(catalog.get(str(name)).title)
    except Exception:  # a rule set retired since the record was written: its name
        return str(name)

"""Why a game ended, for every rule set: the English reason its log keeps is read back and shown in
Russian (log line, result on pages and in reports and the game-over mail), and reads as before in
English; a reason no rule set knows passes through unchanged."""

import re

import pytest
from django.utils import translation

from campaigns.i18n import render
from campaigns.turns.viewing import describe_result
from rules import catalog
from rules.kingsofwar import describe as kingsofwar
from rules.littlewars import describe as littlewars
from rules.napoleon import describe as napoleon
from rules.warworlds import describe as warworlds

SIDES = {"side", "winner", "loser", "attacker", "defender"}
ENDINGS = [
    (name, str(msgid))
    for name, module in (
        ("kingsofwar", kingsofwar),
        ("littlewars", littlewars),
        ("napoleon", napoleon),
        ("warworlds", warworlds),
    )
    for msgid in module.ENDINGS
] + [
    ("civilwar", "{side} cannot carry out any operation (CW-11)"),
    ("civilwar", "{count} turns in a row were passed: a draw"),
]


def english_of(msgid: str) -> str:
    """The English the rule set writes into its log for this ending (sides named, numbers put in)."""
    return re.sub(r"\{(\w+)\}", lambda m: "blue" if m.group(1) in SIDES else "3", msgid)


@pytest.mark.parametrize("ruleset, msgid", ENDINGS, ids=[f"{r}: {m[:40]}" for r, m in ENDINGS])
def test_every_ending_reads_in_russian_and_as_before_in_english(ruleset, msgid):
    reason = english_of(msgid)
    marked = catalog.get(ruleset).describe_reason(reason)
    assert marked == reason  # the English is the log's, unchanged
    assert getattr(marked, "msgid", None) == msgid
    with translation.override("ru"):
        russian = describe_result({"winner": "red", "reason": reason}, ruleset)
    assert russian.startswith("победа: красные (") and not re.search(r"[A-Za-z]{4,}", russian.replace("CW", "")), (
        russian
    )
    with translation.override("en"):
        assert describe_result({"winner": "red", "reason": reason}, ruleset) == f"red wins ({reason})"


def test_a_draw_and_an_unknown_reason():
    with translation.override("ru"):
        draw = describe_result({"winner": None, "reason": "after 6 rounds, a draw"}, "kingsofwar")
        assert draw == "ничья (после 6 раундов: ничья)"
        assert describe_result({"winner": None, "reason": "the umpire said so"}, "kriegspiel") == (
            "ничья (the umpire said so)"
        )
        line = render(
            warworlds.describe_event(
                "warworlds.game_over", {"winner": "red", "reason": "blue has no fighting units left"}
            )
        )
        assert line == "Победа — Красные: у стороны синие не осталось боевых отрядов."

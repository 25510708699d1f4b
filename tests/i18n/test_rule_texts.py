"""The rule sets' marked texts (rules.core.i18n): English as before, Russian at display time,
and kept through an event payload's JSON."""

import json

import pytest
from django.utils import translation

from campaigns.i18n import render
from rules.civilwar.describe import describe_event as civil_war
from rules.core.i18n import Msg, _, from_data, marked, to_data
from rules.kriegspiel.describe import describe_event as kriegspiel
from rules.littlewars.describe import describe_event as little_wars


def in_russian(text) -> str:
    with translation.override("ru"):
        return render(text)


CASES = [
    (
        civil_war,
        "civilwar.unit_formed",
        {"side": "red", "city": "C5"},
        "Red formed a unit in C5.",
        "Красные сформировали отряд в C5.",
    ),
    (civil_war, "civilwar.turn_passed", {"side": "blue"}, "Blue passed.", "Синие пасуют."),
    (
        civil_war,
        "civilwar.game_over",
        {"winner": "blue", "reason": "red cannot carry out any operation (CW-11)"},
        "Game over: Blue wins; red cannot carry out any operation (CW-11).",
        "Игра окончена: победа — Синие; красные не могут провести ни одной операции (CW-11).",
    ),
    (little_wars, "littlewars.turn_completed", {"turn": 3}, "Turn 3 is over.", "Ход 3 окончен."),
    (
        little_wars,
        "littlewars.moved",
        {"figures": {"a": 1, "b": 1}, "guns": {}, "contacts": [1]},
        "2 figures and 0 guns moved; 1 contact.",
        "передвинуто: 2 фигуры и 0 орудий; 1 соприкосновение.",
    ),
    (
        kriegspiel,
        "kriegspiel.supplied",
        {"side": "red", "turn": 2, "draws": [1, 2, 3, 4, 5], "groups": {}},
        "Red supply, turn 2: 5 draws.",
        "Красные, снабжение, ход 2: 5 выдач.",
    ),
]


@pytest.mark.parametrize("describe, kind, payload, english, russian", CASES, ids=[c[1] for c in CASES])
def test_event_descriptions_in_both_languages(describe, kind, payload, english, russian):
    text = describe(kind, payload)
    assert text == english and isinstance(text, Msg)
    assert in_russian(text) == russian


def test_a_marked_message_survives_an_event_payloads_json():
    message = _("{value} cannot get there: no way round the scenery", value="i12")
    payload = json.loads(json.dumps({"message": message, **marked("message_msg", message)}))
    assert payload["message"] == "i12 cannot get there: no way round the scenery"
    assert in_russian(from_data(payload["message_msg"])) == "i12 не может туда пройти: нет пути в обход местности"
    assert to_data("plain") is None and marked("k", "plain") == {}


def test_a_refused_line_in_the_little_wars_log_reads_in_russian():
    message = _("{value} cannot get there: no way round the scenery", value="i12")
    payload = json.loads(
        json.dumps(
            {
                "side": "red",
                "errors": [
                    {"line": 2, "text": "move i12 to 3,4", "message": message, **marked("message_msg", message)}
                ],
            }
        )
    )
    text = little_wars("littlewars.orders_rejected", payload)
    assert text == "Red: line 2 ignored (i12 cannot get there: no way round the scenery)."
    assert in_russian(text) == "Красные: строка 2 пропущена (i12 не может туда пройти: нет пути в обход местности)."

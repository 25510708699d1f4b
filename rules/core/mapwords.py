"""The words a map writes, in the reader's language (rules/core/MAPS.md, "Language").

A map is drawn in one language, chosen by its caller: ``render_svg(view, lang="ru")``. The words
(legend, terrain kinds, captions, rulers, hover titles, deployment zones, a gun's crew and limber)
come from term tables kept beside each renderer: English text -> its Russian. A rule set's map
draws through a ``Words`` made of the shared table here and its own, so six rule sets share one
mechanism and ``rules/`` stays free of Django (the platform's catalogue is for pages and mail; a
map's vocabulary is the rule set's, kept with it and tested with it: tests/rules/test_map_language.py).

- ``words("hill")``: a term; ``words("turn {n}", n=3)``: a template, filled in after translation.
- ``"edge|south"``: a term with a context, when Russian needs another form of the same English
  word (an edge named in the genitive); the English is what follows the ``|``.
- A count is written as "killed: 3" («убито: 3»), not "3 killed": one form in every language.

Names the scenario gives (towns, terrain ids, a board's or scenario's title, unit names) and the
words of orders (ids, lines as orders write them) are never translated: the reader types them.
An English map says what the renderers wrote before languages came (only its labels are placed by
the font's measured widths now).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Table = Mapping[str, str]
LANGUAGES = ("en", "ru")

WORDS: Table = {
    # sides, as a sentence names them and as adjectives of their troops
    "side|red": "красные",
    "side|blue": "синие",
    "side|nobody": "никто",
    # a table's edges, as "from the ... edge" names them (genitive in Russian)
    "edge|south": "южного",
    "edge|north": "северного",
    "edge|west": "западного",
    "edge|east": "восточного",
    # rulers, captions and status lines
    "in": "дюйм.",
    "turn {n}": "ход {n}",
    "level {level}": "уровень {level}",
    "Game over: {winner} wins": "Игра окончена: победили {winner}",
    "Game over: draw": "Игра окончена: ничья",
    "Score: {scores}": "Счёт: {scores}",
    "{side} deploys within {reach} in of the {edge} edge": "{side}: развёртывание не далее {reach} дюйм. от {edge} края",
    "{side} (defender) deploys up to {reach} in from the {edge} edge": (
        "{side} (оборона): развёртывание до {reach} дюйм. от {edge} края"
    ),
    "{side} set up within {reach} in of the {edge} edge": "{side}: расстановка не далее {reach} дюйм. от {edge} края",
}


class Words:
    """One map's words in one language: ``lang`` ("en", "ru"; anything else draws English) and the
    term tables of the map (the shared one first). A term a table lacks is drawn in English
    (tests/rules/test_map_language.py finds any on the maps it draws)."""

    def __init__(self, lang: str | None, *tables: Table):
        code = (lang or "en").split("-")[0].lower()
        self.lang = code if code in LANGUAGES else "en"
        self.table: dict[str, str] = {}
        for table in (WORDS, *tables) if self.lang != "en" else ():
            self.table.update(table)

    def __call__(self, english: str, /, **params: Any) -> str:
        template = english.split("|", 1)[-1]
        if self.lang != "en":
            template = self.table.get(english, template)
        return template.format(**params) if params else template

    def side(self, side: Any) -> str:
        """A side as a sentence names it ("red", «красные»); nobody for none."""
        return self(f"side|{side or 'nobody'}")


def game_over(result: Mapping[str, Any], words: Words) -> str:
    """A finished game's status line. The result's reason is the rule set's English text from the
    event (marked texts are rendered by the platform, not here), so only an English map adds it; the
    reader's log and report give it in their language."""
    winner = result.get("winner")
    line = words("Game over: {winner} wins", winner=words.side(winner)) if winner else words("Game over: draw")
    return line + (f" ({result.get('reason', '')})" if words.lang == "en" else "")


def score_line(view: Mapping[str, Any], words: Words) -> str:
    """ "Score: red 3, blue 1" (a hex game's victory points so far)."""
    score = view.get("score") or {}
    return words("Score: {scores}", scores=", ".join(f"{words.side(s)} {p}" for s, p in score.items()))

"""The Civil War map's words in Russian (rules/core/mapwords.py). Orders quoted on the map (standing
instructions, the points' ids) stay as orders write them; the last operation is the rules' own
marked text, which the platform renders (campaigns.i18n.draw_map)."""

from __future__ import annotations

from rules.core.mapwords import Table

WORDS: Table = {
    "Civil War: the map has not been laid out yet": "Гражданская война: карта ещё не разложена",
    "Civil War: {name}": "Гражданская война: {name}",
    "turn {n}: {acting} must decide (retreat or fight)": "ход {n}: {acting} решают (отступить или сражаться)",
    "turn {n}: {side} to move": "ход {n}: ходят {side}",
    "{side}: {on_map} units on map, {in_box} in box, {tokens}/{dealt} tokens": (
        "{side}: отрядов на карте {on_map}, в коробке {in_box}, жетонов {tokens}/{dealt}"
    ),
    "Last turn ({side}): {lines}": "Прошлый ход ({side}): {lines}",
    "Pending: {side} unit driven from {point}: retreat to {options} or fight.": (
        "Ожидается: отряд ({side}) выбит из {point}: отступить в {options} или сражаться."
    ),
    "Standing instructions of {side}: {lines}": "Постоянные указания ({side}): {lines}",
    "none": "нет",
    "line {id}": "линия {id}",
    # the letters on units and tokens
    "letter|R": "К",
    "letter|B": "С",
    # legend
    "red unit": "красный отряд",
    "blue unit": "синий отряд",
    "red/blue/neutral city": "город красных/синих/ничей",
    "road point": "точка дороги",
    "just occupied (safe this turn)": "только что занят (в этот ход неуязвим)",
    "straight line L…: a breakthrough runs along it": "прямая L…: по ней идёт прорыв",
    "battle being fought (B1, B2…)": "идёт сражение (B1, B2…)",
}

"""The Little Wars map's words in Russian (rules/core/mapwords.py); Kriegspiel's map adds its own."""

from __future__ import annotations

from rules.core.mapwords import Table

WORDS: Table = {
    "No table yet": "Стола ещё нет",
    # terrain kinds (the scenario's terrain ids stay as it spells them)
    "hill": "холм",
    "wood": "лес",
    "building": "здание",
    "wall": "стена",
    "river": "река",
    "ford": "брод",
    "bridge": "мост",
    "road": "дорога",
    # guns and wagons
    "no crew": "без расчёта",
    "limbered": "на передках",
    "supply wagon": "обозная повозка",
    "ammunition cart": "зарядный ящик",
    "impact, {killed} killed": "попадание, убито: {killed}",
    "melee: {killed} killed, {captured} captured": "рукопашная: убито {killed}, взято в плен {captured}",
    # caption and scale
    "turn {n}: choosing the edge": "ход {n}: выбор края",
    "turn {n}: deployment": "ход {n}: развёртывание",
    "the game is over after turn {n}": "игра окончена после хода {n}",
    "{bar} in": "{bar} дюйм.",
    "{bar} in (1 ft): an infantry move": "{bar} дюйм. (1 фут): ход пехоты",
    # legend
    "infantry figure": "пехотинец",
    "cavalry figure": "кавалерист",
    "prisoner or disarmed": "пленный или обезоруженный",
    "your group: name (figures)": "ваша группа: имя (фигур)",
    "gun, crewed (4 within 6 in)": "орудие с расчётом (4 в пределах 6 дюйм.)",
    "gun without crew": "орудие без расчёта",
    "gun limbered up": "орудие на передках",
    "supply wagon (dark: ammunition cart)": "обозная повозка (тёмная: зарядный ящик)",
    "shot fell": "падение снаряда",
    "melee": "рукопашная",
}

"""The Kings of War map's words in Russian (rules/core/mapwords.py)."""

from __future__ import annotations

from rules.core.mapwords import Table

WORDS: Table = {
    # terrain kinds (the scenario's terrain ids stay as it spells them)
    "hill": "холм",
    "difficult": "труднопроходимая",
    "impassable": "непроходимая",
    "obstacle": "препятствие",
    "decorative": "декоративная",
    "{height} in": "{height} дюйм.",
    # units: their state and the profiles' unit types
    "steady": "стойкий",
    "wavering": "колеблется",
    "routed": "бежит",
    "mark|W": "К",
    "{id} {type} ({side}): damage {damage}, {status}": "{id} {type} ({side}): урон {damage}, {status}",
    "spearmen": "копейщики",
    "foot guard": "пешая гвардия",
    "archers": "лучники",
    "crossbowmen": "арбалетчики",
    "skirmishers": "застрельщики",
    "knights": "рыцари",
    "outriders": "разъезд",
    "ogre guard": "гвардия огров",
    "ballista": "баллиста",
    "axe band": "отряд топорщиков",
    "great axes": "большие топоры",
    "bowmen": "стрелки из лука",
    "spear throwers": "метатели копий",
    "boar riders": "всадники на кабанах",
    "wolf riders": "всадники на волках",
    "trolls": "тролли",
    "giant": "великан",
    "bolt thrower": "болтомёт",
    # objectives and legend
    "objective {i}: {held}": "цель {i}: {held}",
    "objective {i}": "цель {i}",
    "unit (dark edge: its front)": "отряд (тёмный край: его фронт)",
    "routed unit": "бегущий отряд",
    "objective (filled: held)": "цель (закрашена: удерживается)",
}

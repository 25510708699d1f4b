"""The Napoleon's War map's words in Russian (over the hex maps' own, rules/hex/mapwords.py)."""

from __future__ import annotations

from rules.core.mapwords import Table

WORDS: Table = {
    "Napoleon's War: {title}": "Война Наполеона: {title}",
    "Napoleon's War: no battle yet": "Война Наполеона: сражения ещё нет",
    "Turn {n} of {turns}: {army} ({side}) to act": "Ход {n} из {turns}: действуют {army} ({side})",
    # terrain and hexsides
    "open": "открытая местность",
    "forest": "лес",
    "town": "город",
    "fortification": "укрепление",
    "stream": "ручей",
    "bridge": "мост",
    # counters: short arms, states, leaders
    "short|inf": "пех",
    "short|rifles": "стр",
    "short|lt inf": "л.пех",
    "short|skirm": "заст",
    "short|cav": "кав",
    "short|hv cav": "т.кав",
    "short|lt cav": "л.кав",
    "short|drag": "драг",
    "short|guns": "пуш",
    "short|h.guns": "к.пуш",
    "square": "каре",
    "L{level}": "У{level}",
    "leader": "командир",
    "{name} (level {level})": "{name} (уровень {level})",
    # arms, in hover titles
    "infantry": "пехота",
    "rifles": "стрелки",
    "light_infantry": "лёгкая пехота",
    "skirmishers": "застрельщики",
    "cavalry": "кавалерия",
    "heavy_cavalry": "тяжёлая кавалерия",
    "light_cavalry": "лёгкая кавалерия",
    "dragoons": "драгуны",
    "artillery": "артиллерия",
    "horse_artillery": "конная артиллерия",
}

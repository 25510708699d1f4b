"""The War of the Worlds map's words in Russian (over the hex maps' own, rules/hex/mapwords.py)."""

from __future__ import annotations

from rules.core.mapwords import Table

WORDS: Table = {
    "War of the Worlds: {title}": "Война миров: {title}",
    "War of the Worlds: no battle yet": "Война миров: сражения ещё нет",
    "Turn {n} of {turns}, {round} round; {attacker} activates first": (
        "Ход {n} из {turns}, фаза: {round}; первыми действуют {attacker}"
    ),
    "Aircraft off the field: {aircraft}": "Авиация вне поля: {aircraft}",
    "Deployment round before turn 1: hidden units are placed in their zones": (
        "Развёртывание перед ходом 1: скрытые отряды расставляются в своих зонах"
    ),
    "movement": "движение",
    "shooting": "стрельба",
    "melee": "рукопашная",
    # terrain and hexsides
    "open": "открытая местность",
    "rough": "пересечённая",
    "very_rough": "сильно пересечённая",
    "wood": "лес",
    "building": "здание",
    "water": "вода",
    "stream": "ручей",
    "wall": "стена",
    "cliff": "обрыв",
    # counters: short kinds, crews, states
    "short|inf": "пех",
    "short|cav": "кав",
    "short|tank": "танк",
    "short|car": "авто",
    "short|gun": "пуш",
    "short|h.gun": "к.пуш",
    "short|walker": "трен",
    "short|air": "авиа",
    "short|auto": "авт",
    "crew {crew}/{start}": "экипаж {crew}/{start}",
    "panic": "паника",
    "despondency": "уныние",
    "calm": "спокойствие",
    "inspired": "воодушевление",
    "heroism": "героизм",
    "bonus": "бонус",
    "penalty": "штраф",
    "immobile": "обездвижен",
    "burning": "горит",
    "active": "в строю",
    "abandoned": "брошен",
    "wreck": "обломки",
    "crewing": "занимает экипаж",
    "deserted": "дезертировал",
    "destroyed": "уничтожен",
    "surrendered": "сдался",
    # profiles, in hover titles
    "infantry": "пехота",
    "cavalry": "кавалерия",
    "tank": "танк",
    "light_vehicle": "лёгкая машина",
    "towed_artillery": "буксируемая артиллерия",
    "infantry_artillery": "пехотная артиллерия",
    "cavalry_artillery": "конная артиллерия",
    "walker": "треножник",
    "aircraft": "летательный аппарат",
    "automaton": "автоматон",
}

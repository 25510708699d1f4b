"""The words every hex map writes, in Russian (rules/core/mapwords.py); each hex rule set adds its own."""

from __future__ import annotations

from rules.core.mapwords import Table

WORDS: Table = {
    "{hex} {terrain} elevation {elevation}": "{hex} {terrain}, высота {elevation}",
    "{feature} (hexside)": "{feature} (край гекса)",
    "road": "дорога",
    "unit: id kind, strength (yellow: its state)": "отряд: номер, род, численность (жёлтым: состояние)",
    "hidden from the enemy": "скрыт от противника",
    "objective": "цель",
}

"""Counted nouns in English for event descriptions: "1 gun", "2 guns" (never "1 guns")."""

from __future__ import annotations


def count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"

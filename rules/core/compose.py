"""Helpers the rule sets' order composers share (rules.core.protocol.OrderComposer)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rules.core.i18n import _

from .protocol import RulesError


class CompositionError(RulesError):
    """A click that makes no order: the message says why, before anything is sent."""


def inches(value: Any) -> str:
    """A coordinate as the order language writes it: a tenth of an inch at most, no trailing zeros."""
    try:
        number = round(float(value), 1)
    except (TypeError, ValueError):
        raise CompositionError(_("'{value}' is not a number of inches", value=value)) from None
    return f"{number:g}" if number != 0 else "0"


def point(target: Mapping[str, Any]) -> tuple[str, str]:
    if "x" not in target or "y" not in target:
        raise CompositionError(_("choose a point on the table"))
    return inches(target["x"]), inches(target["y"])


def marks(text: str, read: Callable[[str], dict[str, Any] | None]) -> list[dict[str, Any]]:
    """``read`` applied to each line that is not blank or a comment, the lines it reads kept."""
    found = (read(line.strip()) for line in text.splitlines() if line.strip() and not line.strip().startswith("#"))
    return [m for m in found if m]


def by_place(lines: Iterable[str], place_of: Callable[[str], str | None]) -> dict[str, list[str]]:
    """{place: lines} for the lines ``place_of`` names a place for."""
    out: dict[str, list[str]] = {}
    for line in lines:
        place = place_of(line)
        if place:
            out.setdefault(place, []).append(line)
    return out

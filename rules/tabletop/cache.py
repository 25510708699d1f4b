"""Geometry rebuilt from a scenario's JSON once, not on every question a turn asks of it."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any, TypeVar

from rules.core.canonical import canonical_json

T = TypeVar("T")


def built_per_scenario(
    build: Callable[[Any], T], part: Callable[[dict[str, Any]], Any], maxsize: int = 16
) -> Callable[[dict[str, Any]], T]:
    """``scenario -> build(part(scenario))``, built once for each distinct part (told apart by
    its canonical JSON) and kept for the ``maxsize`` latest: the game state holds only JSON, so
    geometry is rebuilt from it, and a turn asks for the same geometry again and again."""

    @functools.lru_cache(maxsize=maxsize)
    def built(text: str) -> T:
        return build(json.loads(text))

    def of(scenario: dict[str, Any]) -> T:
        return built(canonical_json(part(scenario)))

    return of

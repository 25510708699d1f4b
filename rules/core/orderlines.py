"""Reading an order text line by line: the loop every line-based order language shares."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .i18n import message_of
from .orderwords import MixedScript, Table, canonical
from .protocol import LineError, ParsedOrders


def parse_lines(text: str, parse_line: Callable[[int, str], Any], words: Table | None = None) -> ParsedOrders:
    """Every line that is neither blank nor a '#' comment through ``parse_line(n, line)`` (1-based
    line number, the line stripped), which gives the order, None for a line with nothing to do, or the
    line's error as a LineError or as a message. ``words``: the language's Russian order words
    (rules.core.orderwords); a line is read in its English words, an error names it as written."""
    orders, errors = [], []
    for n, raw in enumerate((text or "").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            got = parse_line(n, canonical(line, words) if words else line)
        except MixedScript as exc:
            got = message_of(exc)
        if isinstance(got, LineError) and words:
            got = replace(got, text=line)
        if got is None:  # nothing to do on this line (a language's own comment form)
            continue
        if isinstance(got, str):
            errors.append(LineError(n, line, got))
        elif isinstance(got, LineError):
            errors.append(got)
        else:
            orders.append(got)
    return ParsedOrders(tuple(orders), tuple(errors))

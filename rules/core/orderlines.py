"""Reading an order text line by line: the loop every line-based order language shares."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .protocol import LineError, ParsedOrders


def parse_lines(text: str, parse_line: Callable[[int, str], Any]) -> ParsedOrders:
    """Every line that is neither blank nor a '#' comment through ``parse_line(n, line)`` (1-based
    line number, the line stripped), which gives the order, None for a line with nothing to do, or the
    line's error as a LineError or as a message."""
    orders, errors = [], []
    for n, raw in enumerate((text or "").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        got = parse_line(n, line)
        if got is None:  # nothing to do on this line (a language's own comment form)
            continue
        if isinstance(got, str):
            errors.append(LineError(n, line, got))
        elif isinstance(got, LineError):
            errors.append(got)
        else:
            orders.append(got)
    return ParsedOrders(tuple(orders), tuple(errors))

"""Small checks for JSON maps and scenarios whose errors name the field ("units[2].at: ...").

Hand-written rather than a JSON-Schema validator: the checks that matter (a hex on the map,
a terrain from the rule set's chart, a side of two adjacent hexes) are about meaning, and the
messages are for players writing scenario files.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import resources
from typing import Any, NoReturn

from rules.core.protocol import ScenarioError

_TYPES = {
    int: "a whole number",
    float: "a number",
    str: "a string",
    bool: "true or false",
    list: "a list",
    dict: "an object",
}


def fail(where: str, message: str) -> NoReturn:
    raise ScenarioError(f"{where}: {message}")


def field(obj: Any, key: str, typ: type, where: str, default: Any = ..., choices: Iterable[Any] | None = None) -> Any:
    """``obj[key]`` checked to be of ``typ`` (and one of ``choices``); ``default`` when absent."""
    path = f"{where}.{key}" if where else key
    if not isinstance(obj, dict):
        fail(where or "scenario", "must be an object")
    if key not in obj:
        if default is ...:
            fail(path, "is missing")
        return default
    value = obj[key]
    ok = isinstance(value, typ) and not (typ in (int, float) and isinstance(value, bool))
    if typ is float and isinstance(value, int) and not isinstance(value, bool):
        ok, value = True, float(value)
    if not ok:
        fail(path, f"must be {_TYPES.get(typ, typ.__name__)}, not {value!r}")
    if choices is not None:
        choices = list(choices)
        if value not in choices:
            fail(path, f"{value!r} is not one of: {', '.join(map(str, choices))}")
    return value


def number(
    obj: Any,
    key: str,
    where: str,
    lo: float | None = None,
    hi: float | None = None,
    default: Any = ...,
    whole: bool = True,
) -> Any:
    value = field(obj, key, int if whole else float, where, default)
    path = f"{where}.{key}" if where else key
    if value is not None and value is not default:
        if lo is not None and value < lo:
            fail(path, f"must be at least {lo}, not {value}")
        if hi is not None and value > hi:
            fail(path, f"must be at most {hi}, not {value}")
    return value


def builtin_scenario(package: str, names: tuple[str, ...], name: str) -> dict[str, Any]:
    """A scenario shipped as ``scenarios/<name>.json`` in ``package``; an unknown name says which are known."""
    if name not in names:
        fail("scenario", f"unknown scenario {name!r} (known: {', '.join(names)})")
    data: dict[str, Any] = json.loads(resources.files(package).joinpath(f"scenarios/{name}.json").read_text())
    return data


def scenario_data(data: Any, package: str, names: tuple[str, ...]) -> dict[str, Any]:
    """The scenario object to check: ``data`` itself, a shipped one by name, or (None) the first shipped."""
    if data is None or isinstance(data, str):
        data = builtin_scenario(package, names, data or names[0])
    if not isinstance(data, dict):
        fail("scenario", "must be an object")
    return data

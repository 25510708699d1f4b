"""Canonical JSON: one byte string per value, for hashes and snapshots; and reading it back."""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

# orjson reads an integer past 64 bits as a float (json keeps it exact): such text goes to json.
# 19 digits in a row anywhere (in a string too) is enough; a false alarm only costs the speed.
_LONG_NUMBER = re.compile(r"\d{19}")


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def read_json(text: str) -> Any:
    """``json.loads(text)``, the same values, about half the CPU (snapshots are thawed on every
    command). What orjson refuses (NaN, Infinity, numbers out of range) json reads or refuses as before."""
    if _LONG_NUMBER.search(text):
        return json.loads(text)
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)

"""Dice players can trust: commit to a secret seed, reveal it with the results.

When a turn opens the platform publishes ``commitment(seed)``; the seed itself
is stored in an umpire-only event and revealed publicly with the results, so
anyone can check ``commitment(revealed) == published`` and re-run the
adjudication with ``rng_for(seed)`` to get the same events.
"""

from __future__ import annotations

import hashlib
import random
import secrets


def new_seed() -> str:
    """A fresh 256-bit secret seed, hex encoded."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    return hashlib.sha256(f"kriegsbrief-seed:{seed}".encode()).hexdigest()


def rng_for(seed: str, purpose: str = "turn") -> random.Random:
    """A deterministic generator for ``seed``; ``purpose`` separates streams."""
    digest = hashlib.sha256(f"{purpose}:{seed}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))

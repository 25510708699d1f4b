"""Hex capacity: how many figures and large models a hex holds.

A rule set gives a ``Capacity``; each occupant is (figures, large) — a squad of 8 is (8, 0),
a machine (0, 1). ``mixed`` says whether figures may share a hex with a large model.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Capacity:
    figures: int = 20
    large: int = 1
    mixed: bool = False

    def refusal(self, present: Iterable[tuple[int, int]], newcomer: tuple[int, int]) -> str | None:
        """None if ``newcomer`` fits beside ``present``; else why not, in words."""
        figs = large = 0
        for f, g in present:
            figs += f
            large += g
        nf, ng = newcomer
        if ng and large + ng > self.large:
            return f"the hex already holds {large} large model(s) (at most {self.large})"
        if nf and figs + nf > self.figures:
            return f"the hex holds {figs} figures; {nf} more would exceed {self.figures}"
        if not self.mixed and ((ng and figs) or (nf and large)):
            return "figures and a large model cannot share a hex"
        return None

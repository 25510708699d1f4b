"""The working state of one player turn: events are folded as they are made, the command
points are counted, the dice are rolled from the seeded RNG.

``Battle.emit`` folds each event at once, so what the engine reads is always what the log
replays to.
"""

from __future__ import annotations

import random
from typing import Any

from rules.core.protocol import RuleEvent
from rules.core.versions import scenario_version
from rules.hex import coords as C
from rules.hex import los
from rules.hex.board import hexmap

from .data import ARMS, COVER, SIDES, extra_caps, kind
from .fold import PREFIX, apply, audience


def other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


# rules/README.md "Versions": the version a game is played by is recorded in its scenario at setup
# (``rules_version``); a game without it plays version 1 (0.2.0) for good.
RULES_VERSION = 2


def rules_version(state: dict[str, Any]) -> int:
    return scenario_version(state["scenario"])


class Battle:
    def __init__(self, state: dict[str, Any], rng: random.Random) -> None:
        self.state = {
            **state,
            "units": dict(state["units"]),
            "leaders": dict(state["leaders"]),
            "log": list(state["log"]),
        }
        self.rng = rng
        self.events: list[RuleEvent] = []
        self.map = hexmap(state["scenario"]["map"])
        side = state["side"]
        self.base = 0 if state.get("opening") else state["scenario"]["caps"][side]  # NW-55: 0 points
        self.spent = 0
        self.extra: int | None = None  # None until the extra-point die is rolled (NW-8)

    # -- events and dice ---------------------------------------------------------------------------
    def emit(self, kind_: str, payload: dict[str, Any]) -> None:
        ev = RuleEvent(PREFIX + kind_, payload, audience(PREFIX + kind_, payload))
        apply(self.state, ev.type, ev.payload)
        self.events.append(ev)

    def d6(self) -> int:
        return self.rng.randint(1, 6)

    # -- command points (NW-8, NW-EX-1/2) ----------------------------------------------------------
    def affordable(self, cost: int) -> bool:
        """Whether ``cost`` points can be paid now. Before the roll a player may borrow at most
        one point past the scenario's points: the least roll (ceil(1/2) = 1) always covers it,
        so the roll never leaves a debt (ambiguity 2)."""
        if cost == 0:
            return True
        if self.extra is not None:
            return self.spent + cost <= self.base + self.extra
        return self.base > 0 and self.spent + cost <= self.base + 1

    def pay(self, cost: int) -> None:
        self.spent += cost
        if self.extra is None and self.base > 0 and self.spent >= self.base:
            self.roll_extra()

    def roll_extra(self) -> None:
        die = self.d6()
        self.extra = extra_caps(die)
        self.emit(
            "points_rolled",
            {
                "side": self.state["side"],
                "die": die,
                "extra": self.extra,
                "spent": self.spent,
                "available": self.base + self.extra,
                "left": self.left(),
            },
        )

    def left(self) -> int:
        return max(0, self.base + (self.extra or 0) - self.spent)

    # -- places and units ----------------------------------------------------------------------------
    def unit(self, uid: str) -> dict[str, Any] | None:
        unit: dict[str, Any] | None = self.state["units"].get(uid)
        return unit

    def leader(self, lid: str) -> dict[str, Any] | None:
        leader: dict[str, Any] | None = self.state["leaders"].get(lid)
        return leader

    def the_unit(self, uid: str) -> dict[str, Any]:
        """A unit that exists (an order's unit or target once checked): KeyError otherwise."""
        unit: dict[str, Any] = self.state["units"][uid]
        return unit

    def the_leader(self, lid: str) -> dict[str, Any]:
        """A leader that exists (KeyError otherwise)."""
        leader: dict[str, Any] = self.state["leaders"][lid]
        return leader

    def active(self, side: str | None = None) -> list[dict[str, Any]]:
        return [u for u in self.state["units"].values() if u["status"] == "active" and side in (None, u["side"])]

    def at(self, h: C.Hex) -> list[dict[str, Any]]:
        lab = C.label(h)
        return [u for u in self.active() if u["hex"] == lab]

    def leaders_at(self, lab: str, side: str) -> list[dict[str, Any]]:
        return [
            x
            for x in self.state["leaders"].values()
            if x["status"] == "active" and x["hex"] == lab and x["side"] == side
        ]

    @staticmethod
    def h(lab: str) -> C.Hex:
        return C.parse_label(lab)

    def enemy_adjacent(self, h: C.Hex, side: str) -> list[C.Hex]:
        return [n for n in C.neighbours(h) if any(u["side"] != side for u in self.at(n))]

    def high(self, h: C.Hex) -> bool:
        return self.map.elevation(h) > 0

    def open_field(self, h: C.Hex) -> bool:
        """Open field: clear terrain, not a hill (ambiguity 10)."""
        return self.map.terrain(h) == "open" and not self.high(h)

    def cover(self, h: C.Hex) -> bool:
        return self.map.terrain(h) in COVER

    def sees(self, a: C.Hex, b: C.Hex) -> bool:
        """Cover hexes block the view, and so do hills higher than both ends (house)."""
        top = max(self.map.elevation(a), self.map.elevation(b))
        return los.visible(
            a,
            b,
            lambda x: x in self.map and (self.cover(x) or self.map.elevation(x) > top),
            version=los.version_of(self.state["scenario"]),
        )

    # -- leaders (NW-37..45) -------------------------------------------------------------------------
    @staticmethod
    def commands(ldr: dict[str, Any], u: dict[str, Any]) -> bool:
        """NW-43..45: level 3 any troops of any nation; levels 1-2 their own nation; level 1 only
        his own arm (an infantry leader foot troops and guns, a cavalry leader mounted troops)."""
        if ldr["level"] == 3:
            return True
        if ldr["nation"] != u["nation"]:
            return False
        if ldr["level"] == 1:
            foot = kind(u) in ("infantry", "artillery")
            return foot if ldr["arm"] == "infantry" else not foot
        return True

    def reducer(self, u: dict[str, Any], verb: str = "") -> dict[str, Any] | None:
        """The leader whose presence makes ``u``'s action ``verb`` one point cheaper (NW-37): with it,
        not moved this turn, obeyed by it, and not already reducing another unit this turn. From
        version 2 an infantry leader gives cavalry nothing in a melee or a charge (NW-42)."""
        best = None
        no_foot_leader = rules_version(self.state) >= 2 and kind(u) == "cavalry" and verb in ("melee", "charge")
        for ldr in self.leaders_at(u["hex"], u["side"]):
            if ldr["moved"] or ldr["used"] not in (None, u["id"]) or not self.commands(ldr, u):
                continue
            if no_foot_leader and ldr["arm"] == "infantry":
                continue
            if best is None or (ldr["level"], ldr["id"]) > (best["level"], best["id"]):
                best = ldr
        return best

    def morale_leader(self, u: dict[str, Any], arm: str) -> int:
        """The leader's level added to a check (NW-34, NW-42, NW-52: the owner's standing choice)."""
        if self.state["standing"][u["side"]]["leader_morale"] != "yes":
            return 0
        levels = [x["level"] for x in self.leaders_at(u["hex"], u["side"]) if x["arm"] == arm and self.commands(x, u)]
        return max(levels, default=0)

    def arm(self, u: dict[str, Any]) -> dict[str, Any]:
        return ARMS[u["arm"]]

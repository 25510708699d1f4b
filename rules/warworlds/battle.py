"""The working state of one adjudication: events are folded as they are made.

``Battle`` holds the state being adjudicated, the seeded RNG and the events made so far.
Every change goes through ``emit``, which folds the event at once, so what the engine reads
is always what the log will replay to. It also keeps an index of who stands where.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, ValuesView
from typing import Any

from rules.core.protocol import PUBLIC, RuleEvent, side_audience
from rules.core.versions import scenario_version
from rules.hex import coords as C
from rules.hex import los
from rules.hex.board import hexmap

from .data import COVER_BONUS, OBSTACLE, PROFILES, SIDES
from .fold import PREFIX, apply
from .scenario import CAPACITY

ON_MAP = ("active", "abandoned", "wreck")


def other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


# rules/README.md "Versions": the version a game is played by is recorded in its scenario at setup
# (``rules_version``); a game without it plays version 1 (0.2.0) for good.
RULES_VERSION = 3


def rules_version(state: dict[str, Any]) -> int:
    return scenario_version(state["scenario"])


class Battle:
    def __init__(self, state: dict[str, Any], rng: random.Random) -> None:
        # a private working copy: events are applied to it in place (fold.apply)
        self.state = {**state, "units": dict(state["units"]), "log": list(state["log"])}
        self.rng = rng
        self.events: list[RuleEvent] = []
        self.map = hexmap(state["scenario"]["map"])
        self.rule = state["scenario"]["los_rule"]
        self.los_version = los.version_of(state["scenario"])  # the one the game was set up with
        self._index()

    # -- events and dice -----------------------------------------------------------------------
    def emit(
        self, kind: str, payload: dict[str, Any], units: tuple[str, ...] = (), audience: str | None = None
    ) -> None:
        """Fold and record an event. It is public unless it concerns a hidden unit (then only
        that unit's side, or the umpire if hidden units of both sides are involved) or
        ``audience`` says otherwise."""
        audience = audience or self._audience(units)
        if audience != PUBLIC:
            payload = {**payload, "audience": audience}
        self._record(RuleEvent(PREFIX + kind, payload, audience))

    def _record(self, ev: RuleEvent) -> None:
        apply(self.state, ev.type, ev.payload)
        self.events.append(ev)
        for uid in ev.payload.get("units", ()):
            self._place(uid)

    def _audience(self, uids: Iterable[str]) -> str:
        sides = {self.unit(u)["side"] for u in uids if self.unit(u)["hidden"]}
        if not sides:
            return PUBLIC
        return side_audience(sides.pop()) if len(sides) == 1 else "umpire"

    def roll(self, sides: int = 10) -> int:
        return self.rng.randint(1, sides)

    def dice(self, spec: str) -> int:
        return self.roll(3 if spec == "D3" else 6)

    # -- units and places --------------------------------------------------------------------------
    def unit(self, uid: str) -> dict[str, Any]:
        unit: dict[str, Any] = self.state["units"][uid]
        return unit

    def units(self) -> ValuesView[dict[str, Any]]:
        units: dict[str, dict[str, Any]] = self.state["units"]
        return units.values()

    def active(self, side: str | None = None) -> list[dict[str, Any]]:
        return [u for u in self.units() if u["status"] == "active" and (side is None or u["side"] == side)]

    def _index(self) -> None:
        self.at: dict[str, list[str]] = {}  # label -> unit ids on the map there
        self.at_hex: dict[C.Hex, list[str]] = {}  # the same by axial hex (movement's hot loop)
        self.where: dict[str, str] = {}
        for uid in sorted(self.state["units"]):
            self._place(uid)

    def _place(self, uid: str) -> None:
        """Keep the who-stands-where index in step with one unit."""
        old = self.where.pop(uid, None)
        if old is not None:
            self.at[old].remove(uid)  # at[old] and at_hex[h] are the same list
            if not self.at[old]:
                del self.at[old]
                del self.at_hex[C.parse_label(old)]
        u = self.unit(uid)
        if u["hex"] and u["status"] in ON_MAP and u["kind"] != "aircraft":
            self.where[uid] = u["hex"]
            if u["hex"] not in self.at:
                self.at[u["hex"]] = self.at_hex[C.parse_label(u["hex"])] = []
            self.at[u["hex"]].append(uid)

    def occupants(self, hx: str) -> list[dict[str, Any]]:
        return [self.unit(i) for i in self.at.get(hx, [])]

    def size(self, u: dict[str, Any]) -> tuple[int, int]:
        return (len(u["models"]), 0) if u["kind"] == "squad" else (0, 1)

    def refusal(self, u: dict[str, Any], hx: str, seen: bool = False) -> str | None:
        """Why ``u`` may not end its move in ``hx`` (WW-3, WW-30), or None; ``seen``: as far as its
        side can tell (an enemy hidden there takes no room it knows of)."""
        present = [
            self.size(o)
            for o in self.occupants(hx)
            if o["id"] != u["id"] and not (seen and o["hidden"] and o["side"] != u["side"])
        ]
        return CAPACITY.refusal(present, self.size(u))

    def enemies_in(self, u: dict[str, Any], hx: str) -> list[dict[str, Any]]:
        return [o for o in self.occupants(hx) if o["side"] != u["side"] and o["status"] == "active"]

    def profile(self, u: dict[str, Any]) -> dict[str, Any]:
        return PROFILES[u["profile"]]

    def h(self, label: str) -> C.Hex:
        return C.parse_label(label)

    def dist(self, a: str, b: str) -> int:
        return C.distance(C.parse_label(a), C.parse_label(b))

    def around(self, hx: str, radius: int) -> list[tuple[int, dict[str, Any]]]:
        """(distance, unit) for every unit on the map within ``radius`` of ``hx``, nearest first
        (ring by ring through the occupancy index, so the cost does not grow with the army)."""
        centre, out = C.parse_label(hx), []
        for r in range(radius + 1):
            for h in C.ring(centre, r):
                out += [(r, self.unit(i)) for i in self.at.get(C.label(h), ())]
        return out

    def nearest_enemy(self, u: dict[str, Any], hx: str | None = None, seen: bool = False) -> int:
        """Distance to the nearest active enemy on the ground (99 if there is none); ``seen``: only
        those ``u``'s side can see (as its view shows them: hidden ones are not)."""
        centre = C.parse_label(hx or u["hex"])
        foe = other(u["side"])
        for r in range(1, self.map.cols + self.map.rows + 1):
            for h in C.ring(centre, r):
                for i in self.at.get(C.label(h), ()):
                    e = self.unit(i)
                    if e["side"] == foe and e["status"] == "active" and not (seen and e["hidden"]):
                        return r
        return 99

    def terrain(self, hx: str) -> str:
        return self.map.terrain(C.parse_label(hx))

    # -- line of sight (WW-35, WW-36) -----------------------------------------------------------------
    def top(self, h: C.Hex) -> int:
        """How high the view-blocking top of a hex is: ground, plus a wood, building or machine."""
        label = C.label(h)
        tall = OBSTACLE.get(self.map.terrain(h), 0)
        if any(o["kind"] == "machine" for o in self.occupants(label)):
            tall = max(tall, 1)
        return self.map.elevation(h) + tall

    def sees(self, a: str, b: str) -> bool:
        """A large obstacle between blocks the view unless one end is higher than it (WW-36);
        a cliff hexside is an obstacle as high as the higher ground beside it."""
        ha, hb = C.parse_label(a), C.parse_label(b)
        eye = max(self.map.elevation(ha), self.map.elevation(hb))

        def blocks(h: C.Hex) -> bool:
            return h in self.map and self.top(h) > eye

        def side_blocks(side: C.Side) -> bool:
            if self.map.sides.get(side) != "cliff":
                return False
            x, y = C.side_hexes(side)
            return max(self.map.elevation(x), self.map.elevation(y)) > eye

        return los.visible(ha, hb, blocks, side_blocks, self.rule, self.los_version)

    def in_cover(self, u: dict[str, Any]) -> int:
        """Cover the unit's hex gives, none after running or galloping (WW-12)."""
        if u["mode"] in self.profile(u)["fast"] and u["moved"]:
            return 0
        return COVER_BONUS.get(self.terrain(u["hex"]), 0) if u["hex"] else 0

    def visible_to(self, side: str, u: dict[str, Any]) -> bool:
        return u["side"] == side or not u["hidden"]

    def reveal(self, u: dict[str, Any], why: str) -> None:
        if u["hidden"]:
            # public: the revealed unit is placed for everybody from now on
            ev_payload = {"unit": u["id"], "why": why, "at": u["hex"], "units": {u["id"]: {**u, "hidden": False}}}
            self._record(RuleEvent(PREFIX + "revealed", ev_payload, PUBLIC))

    def fail(self, side: str, order: Any, reason: str) -> None:
        """An order that can no longer be carried out: said to its side only."""
        self.emit("order_failed", {"side": side, "order": order, "reason": reason}, audience=side_audience(side))

"""Napoleon's War benchmark: one player turn of 20 actions with 30, 120 and 480 units a side.

Run: python bench/napoleon.py [--runs N]. Pure rules, no database. Two armies (6/10 infantry,
2/10 cavalry, 2/10 artillery, a level-2 leader per 10 units) face each other across a gap on a
map that holds them, one unit a hex, with 40 command points a turn so that 20 actions are paid.
The scripted player (rules/napoleon/testing.py, limited to 20 lines) melees, charges, fires
and closes. Two player turns bring the armies into contact; the third is timed: parsing,
validating and adjudicating its 20 actions, in CPU time of this process (the fastest of
several runs from the same state). view_ms_120 is one player's view at 120 a side (wall time).
Ends with one key=value summary line. No assertions.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.core.protocol import Viewer
from rules.hex import coords as C
from rules.napoleon import RULESET as RS
from rules.napoleon.testing import bot_orders, fold_all

GAP = 3
ACTIONS = 20


def arm(i: int) -> tuple[str, int]:
    k = i % 10
    return ("infantry", 4) if k < 6 else ("cavalry", 3) if k < 8 else ("artillery", 3)


def scenario(n: int) -> dict:
    rows = max(10, math.ceil(math.sqrt(n * 3)))
    depth = math.ceil(n / rows)
    cols = 2 * depth + GAP
    units, leaders = [], []
    for side, first in (("red", 0), ("blue", depth + GAP)):
        for i in range(n):
            col = first + (i // rows if side == "red" else depth - 1 - i // rows)
            at = C.label(C.from_offset(col, i % rows))
            a, figures = arm(i)
            units.append(
                {
                    "id": f"{side[0].upper()}{i + 1}",
                    "side": side,
                    "arm": a,
                    "figures": figures,
                    "at": at,
                    "nation": side,
                }
            )
            if i % 10 == 0:
                leaders.append(
                    {
                        "id": f"L{side[0].upper()}{i + 1}",
                        "side": side,
                        "level": 2,
                        "arm": "infantry",
                        "at": at,
                        "nation": side,
                    }
                )
    return {
        "name": f"bench{n}",
        "turns": 50,
        "first": "red",
        "caps": {"red": 40, "blue": 40},
        "map": {"name": f"bench{n}", "cols": cols, "rows": rows, "hexes": {}, "sides": {}},
        "units": units,
        "leaders": leaders,
    }


def play(state: dict, seed: int) -> tuple[float, list]:
    side = state["side"]
    text = bot_orders(state, side, limit=ACTIONS)
    t0 = time.process_time()  # CPU time: the machine is shared
    parsed = RS.parse_orders(state, side, text)
    RS.validate(state, side, parsed.orders)
    events = RS.adjudicate(state, {side: parsed.orders}, random.Random(seed))
    return (time.process_time() - t0) * 1000, events


def measure(n: int, runs: int) -> dict:
    state = RS.initial_state()
    for ev in RS.setup(scenario(n), random.Random(1)):
        state = RS.fold(state, ev.type, ev.payload)
    for r in range(2):
        _, events = play(state, r)
        state = fold_all(state, events)
    times = []
    for _ in range(runs):
        ms, events = play(state, 100)
        times.append(ms)
    actions = sum(1 for e in events if e.type in ("napoleon.moved", "napoleon.attacked"))
    t0 = time.perf_counter()
    for _ in range(runs):
        RS.view(state, Viewer("player", "red"))
    view_ms = (time.perf_counter() - t0) * 1000 / runs
    return {"turn_ms": min(times), "events": len(events), "actions": actions, "view_ms": view_ms}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    summary = {}
    for n in (30, 120, 480):
        m = measure(n, args.runs)
        print(
            f"{n:4d} units a side: turn {m['turn_ms']:8.1f} ms ({m['actions']} actions carried out, "
            f"{m['events']} events), view {m['view_ms']:.1f} ms"
        )
        summary[f"turn_ms_{n}"] = round(m["turn_ms"], 1)
        if n == 120:
            summary["view_ms_120"] = round(m["view_ms"], 2)
    print(" ".join(f"{k}={v}" for k, v in summary.items()))


if __name__ == "__main__":
    main()

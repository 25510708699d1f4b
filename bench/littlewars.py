"""Little Wars benchmark: time to adjudicate one turn with 100, 400 and 1,600 figures a side.

Run: python bench/littlewars.py [--runs N]. Pure rules, no database. Each army (6 guns,
3/4 infantry and 1/4 cavalry in groups of 40) faces the other 14 in apart in lines;
every group charges, every gun fires 4 shots, so one turn has fire, movement with
contacts and melee (a continuous front is one melee: RULES.md §5). Times are the median of several runs of ``adjudicate``
(which validates both sides' orders first) and, separately, of folding its events.
Ends with one key=value summary line. No assertions: figures only.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.littlewars import RULESET as RS
from rules.littlewars.testing import build, fold_all

GROUP = 40
FRONT_Y = 30.0
GAP = 14.0


def army(n: int, side: str, per_line: int, width: float):
    groups, sign = [], (1 if side == "red" else -1)
    front = FRONT_Y if side == "red" else FRONT_Y + GAP
    for k in range(math.ceil(n / GROUP)):
        count = min(GROUP, n - k * GROUP)
        line, slot = divmod(k, per_line)
        arm = "cav" if k % 4 == 3 else "inf"
        cols = 20 if arm == "inf" else 12
        gap = 0.75 if arm == "inf" else 1.25
        x0 = 6 + slot * (width - 12) / per_line
        y0 = front - sign * line * (2 + 4 * gap)
        pts = [(x0 + (i % cols) * gap, y0 - sign * (i // cols) * gap) for i in range(count)]
        groups.append((f"g{k + 1}", arm, pts))
    return groups


def position(n: int) -> dict:
    n_groups = math.ceil(n / GROUP)
    per_line = max(3, math.ceil(math.sqrt(n_groups * 2.5)))
    width = per_line * 20 + 12
    red, blue = army(n, "red", per_line, width), army(n, "blue", per_line, width)
    guns = []
    for k in range(6):
        x = 6 + (k + 0.5) * (width - 12) / 6
        guns += [("red", f"gun{k + 1}", x, FRONT_Y - 3.5, 90.0), ("blue", f"gun{k + 1}", x, FRONT_Y + GAP + 3.5, 270.0)]
    return build(red=red, blue=blue, guns=guns, table=(width, FRONT_Y * 2 + GAP), turn=2)


def orders(state: dict, side: str) -> str:
    figs = state["figures"]
    sign = 1 if side == "red" else -1
    lines = []
    for name, ids in sorted(state["groups"][side].items()):
        cx = sum(figs[i]["x"] for i in ids) / len(ids)
        cy = sum(figs[i]["y"] for i in ids) / len(ids)
        # the whole army advances 11.5 in keeping its order: cavalry going farther would end on top of
        # the infantry ahead of it, which LW-27 refuses (figures stand 1/16 in apart)
        lines.append(f"move {name} to {cx:.3f},{cy + sign * 11.5:.3f}")
    for g in state["guns"].values():
        if g["owner"] == side:
            ty = g["y"] + sign * 20
            lines.append(
                f"fire {g['name']} at {g['x']:.1f},{ty:.1f} {g['x'] + 3:.1f},{ty:.1f} "
                f"{g['x'] - 3:.1f},{ty:.1f} {g['x']:.1f},{ty + sign * 3:.1f}"
            )
    return "\n".join(lines)


def measure(n: int, runs: int) -> dict:
    state = position(n)
    parsed = {s: RS.parse_orders(state, s, orders(state, s)) for s in ("red", "blue")}
    for s, p in parsed.items():
        errs = RS.validate(state, s, p.orders)
        assert p.ok and not errs, (s, p.errors, errs[:3])
    adj, fold, events = [], [], []
    for r in range(runs):
        t0 = time.perf_counter()
        events = RS.adjudicate(state, {s: p.orders for s, p in parsed.items()}, random.Random(r))
        t1 = time.perf_counter()
        fold_all(state, events)
        t2 = time.perf_counter()
        adj.append((t1 - t0) * 1000)
        fold.append((t2 - t1) * 1000)
    melees = sum(1 for e in events if e.type == "littlewars.melee")
    killed = sum(len(e.payload["killed"]) for e in events if e.type == "littlewars.melee")
    return {
        "n": n,
        "turn_ms": statistics.median(adj),
        "fold_ms": statistics.median(fold),
        "melees": melees,
        "melee_killed": killed,
        "events": len(events),
        "width": state["scenario"]["table"]["width"],
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    measure(100, 1)  # warm the caches (tables, imports)
    results = {}
    for n in (100, 400, 1600):
        r = measure(n, args.runs)
        results[n] = r
        print(
            f"{n:5d} figures a side + 6 guns each on a {r['width']:g} in table: adjudicate median {r['turn_ms']:.1f} ms, "
            f"fold {r['fold_ms']:.1f} ms; {r['melees']} melees, {r['melee_killed']} killed in melee, {r['events']} events"
        )
    growth = results[1600]["turn_ms"] / results[400]["turn_ms"]
    nlogn = (1600 * math.log(1600)) / (400 * math.log(400))
    print(f"growth 400 -> 1600: x{growth:.2f} (n log n would be x{nlogn:.2f}, n^2 x16)")
    print(
        " ".join(
            [f"turn_ms_{n}={results[n]['turn_ms']:.1f}" for n in (100, 400, 1600)]
            + [f"fold_ms_{n}={results[n]['fold_ms']:.1f}" for n in (100, 400, 1600)]
            + [f"growth_400_1600={growth:.2f}", f"nlogn_400_1600={nlogn:.2f}", f"runs={args.runs}"]
        )
    )


if __name__ == "__main__":
    main()

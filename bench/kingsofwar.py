"""Kings of War benchmark: one player turn with 10, 40 and 160 units a side.

Run: python bench/kingsofwar.py [--runs N]. Pure rules, no database. Two lines of units face
each other 8 in apart on a table as wide as they need. Every red unit acts: the even ones
(spearmen) charge the blue unit opposite, the odd ones (archers) halt and shoot the blue unit
opposite. So a turn has planning with charges, sight and cover for every shot, fights and Nerve
tests. The times (wall clock, and CPU time, steadier on a shared machine) are the median over several runs of ``adjudicate`` (which plans and checks
the orders again itself) and, separately, of folding its events. Growth from 40 to 160 is
printed beside n log n. The output ends with one key=value summary line. No assertions:
figures only.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.core.dice import rng_for
from rules.kingsofwar import RULESET as KW
from rules.kingsofwar.testing import make_scenario, start

SPACING = 6.0
RED_Y, BLUE_Y = 10.0, 18.0


def position(n: int) -> dict:
    units = []
    for k in range(n):
        x = 6 + k * SPACING
        units.append((f"r{k + 1}", "spearmen" if k % 2 == 0 else "archers", x, RED_Y, 90))
        units.append((f"b{k + 1}", "axe band", x, BLUE_Y, 270))
    sc = make_scenario(units, table=(12 + n * SPACING, 30))
    sc["terrain"] = [
        {
            "id": f"scrub{k}",
            "kind": "difficult",
            "height": 0,
            "polygon": [[6 + k * 24, 12], [9 + k * 24, 12], [9 + k * 24, 14], [6 + k * 24, 14]],
        }
        for k in range(max(1, n // 4))
    ]
    return start(sc)


def orders(n: int) -> str:
    return "\n".join(
        f"r{k + 1} charge b{k + 1}" if k % 2 == 0 else f"r{k + 1} halt\nr{k + 1} shoot b{k + 1}" for k in range(n)
    )


def measure(n: int, runs: int) -> dict:
    state = position(n)
    parsed = KW.parse_orders(state, "red", orders(n))
    errs = KW.validate(state, "red", parsed.orders)
    if errs:
        raise SystemExit(f"bench orders refused at n={n}: {errs[:3]}")
    times, cpus, folds, events = [], [], [], []
    for r in range(runs):
        c0, t0 = time.process_time(), time.perf_counter()
        events = KW.adjudicate(state, {"red": parsed.orders}, rng_for(f"bench{r}"))
        t1 = time.perf_counter()
        cpus.append((time.process_time() - c0) * 1000)
        after = state
        for ev in events:
            after = KW.fold(after, ev.type, ev.payload)
        times.append((t1 - t0) * 1000)
        folds.append((time.perf_counter() - t1) * 1000)
    kinds = [e.type.split(".")[1] for e in events]
    return {
        "ms": statistics.median(times),
        "cpu_ms": statistics.median(cpus),
        "fold_ms": statistics.median(folds),
        "fights": kinds.count("fight"),
        "shots": kinds.count("shot"),
        "events": len(events),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    measure(10, 1)  # warm the caches (battlefield, imports)
    summary, results = {}, {}
    for n in (10, 40, 160):
        m = results[n] = measure(n, args.runs)
        print(
            f"{n:>4} units a side: adjudicate median {m['ms']:.1f} ms ({m['cpu_ms']:.1f} ms CPU), fold {m['fold_ms']:.1f} ms; "
            f"{m['fights']} fights, {m['shots']} shots, {m['events']} events"
        )
        summary[f"turn_ms_{n}"] = round(m["ms"], 1)
    for n in (10, 40, 160):
        summary[f"cpu_ms_{n}"] = round(results[n]["cpu_ms"], 1)
    for n in (10, 40, 160):
        summary[f"fold_ms_{n}"] = round(results[n]["fold_ms"], 1)
    growth = results[160]["ms"] / results[40]["ms"]
    nlogn = (160 * math.log(160)) / (40 * math.log(40))
    print(f"growth 40 -> 160: x{growth:.2f} (n log n would be x{nlogn:.2f}, n^2 x16)")
    summary.update(growth_40_160=round(growth, 2), nlogn_40_160=round(nlogn, 2), runs=args.runs)
    print(" ".join(f"{k}={v}" for k, v in summary.items()))


if __name__ == "__main__":
    main()

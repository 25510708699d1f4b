"""Kriegspiel benchmark: one side's fog-of-war view, the sighting behind it, and a whole turn.

Run: python bench/kriegspiel.py [--runs N]. Pure rules, no database. The position is the
Little Wars benchmark's (bench/littlewars.py: lines of groups 14 in apart, 6 guns a side,
every group charging and every gun firing) with the Kriegspiel state on top: 20 hidden
works (10 a side: mines being laid and armed, entrenchments, gun pits), woods, buildings
and hills across the field for the sight lines, and supply depots behind each army.
Figures: ``view_ms`` is ``view(state, red player)`` (what every page, API call and mail
report computes); ``sight_ms`` is computing one side's sightings (done once a turn by
adjudication); ``turn_ms`` is the Kriegspiel ``adjudicate`` (fire under the blast rule,
movement, mines, melees, works, supply and sighting for both sides), next to the Little
Wars ``adjudicate`` of the same position. Medians of several runs; ends with one key=value
line. No assertions: figures only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import littlewars as lw_bench

from rules.core.protocol import Viewer
from rules.kriegspiel import works
from rules.kriegspiel.ruleset import RULESET as KS
from rules.kriegspiel.sighting import sightings
from rules.kriegspiel.state import initial_ks
from rules.kriegspiel.turn import Log, _sight
from rules.littlewars import RULESET as LW

WORKS = 20


def terrain(width: float, depth: float) -> list[dict]:
    """Woods, buildings and hills in bands across the field (sight lines have something to cross)."""
    out = []
    for k in range(int(width // 40)):
        x = 20 + 40 * k
        out.append({"id": f"wood{k}", "type": "wood", "polygon": [[x, 8], [x + 6, 8], [x + 6, 14], [x, 14]]})
        out.append(
            {
                "id": f"house{k}",
                "type": "building",
                "polygon": [[x + 12, depth - 14], [x + 16, depth - 14], [x + 16, depth - 10], [x + 12, depth - 10]],
            }
        )
        out.append(
            {
                "id": f"hill{k}",
                "type": "hill",
                "level": 1 + k % 2,
                "polygon": [[x + 24, 2], [x + 32, 2], [x + 32, 10], [x + 24, 10]],
            }
        )
    return out


def kriegspiel_position(n: int) -> dict:
    state = lw_bench.position(n)
    sc = dict(state["scenario"])
    w, d = sc["table"]["width"], sc["table"]["depth"]
    sc["terrain"] = terrain(w, d)
    sc["kriegspiel"] = {
        "supply": {
            "red": [{"name": "wagons", "at": [w / 2, 1], "food": 50, "forage": 50, "ammo": 50}],
            "blue": [{"name": "wagons", "at": [w / 2, d - 1], "food": 50, "forage": 50, "ammo": 50}],
        },
        "scouts": {},
        "generals": {},
    }
    state = {**state, "scenario": sc, "ks": initial_ks(sc)}
    figs = state["figures"]
    hidden = {}
    for k in range(WORKS):
        side = "red" if k % 2 == 0 else "blue"
        group = sorted(state["groups"][side])[k // 2 % len(state["groups"][side])]
        ids = state["groups"][side][group][:6]
        at = (figs[ids[0]]["x"], figs[ids[0]]["y"] + (-1.5 if side == "red" else 1.5))
        kind = ("mine", "entrenchment", "gunpit")[k % 3]
        w_ = works.new_work(f"w{k + 1}", kind, side, ids, at, (at[0] + 3, at[1]) if kind == "entrenchment" else None, 1)
        w_["status"], w_["done"] = ("armed", 6) if kind == "mine" and k % 4 == 0 else ("building", 2)
        hidden[w_["id"]] = w_
    state["ks"] = {**state["ks"], "works": hidden, "counter": WORKS}
    log = Log(state)
    _sight(log)  # the sighting reports every view reads
    return log.state


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def measure(n: int, runs: int) -> dict:
    state = kriegspiel_position(n)
    red = Viewer("player", "red")
    view_ms = median_ms(lambda: KS.view(state, red), runs)
    sight_ms = median_ms(lambda: sightings(state, "red"), runs)
    parsed = {s: KS.parse_orders(state, s, lw_bench.orders(state, s)) for s in ("red", "blue")}
    orders = {s: p.orders for s, p in parsed.items()}
    turn_ms = median_ms(lambda: KS.adjudicate(state, orders, random.Random(1)), runs)
    lw_state = {k: v for k, v in state.items() if k != "ks"}
    lw_ms = median_ms(lambda: LW.adjudicate(lw_state, orders, random.Random(1)), runs)
    seen = len(state["ks"]["seen"]["red"]["now"]["figures"])
    return {"n": n, "view_ms": view_ms, "sight_ms": sight_ms, "turn_ms": turn_ms, "lw_turn_ms": lw_ms, "seen": seen}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    measure(100, 1)  # warm the caches
    res = {}
    for n in (100, 400):
        r = res[n] = measure(n, args.runs)
        print(
            f"{n:4d} figures a side, {WORKS} hidden works: red's view {r['view_ms']:.1f} ms "
            f"(red sees {r['seen']} blue figures), one side's sighting {r['sight_ms']:.1f} ms, "
            f"Kriegspiel turn {r['turn_ms']:.1f} ms, Little Wars turn {r['lw_turn_ms']:.1f} ms"
        )
    print(
        " ".join(
            [f"view_ms_{n}={res[n]['view_ms']:.1f}" for n in res]
            + [f"sight_ms_{n}={res[n]['sight_ms']:.1f}" for n in res]
            + [f"turn_ms_{n}={res[n]['turn_ms']:.1f}" for n in res]
            + [f"lw_turn_ms_{n}={res[n]['lw_turn_ms']:.1f}" for n in res]
            + [f"runs={args.runs}"]
        )
    )


if __name__ == "__main__":
    main()

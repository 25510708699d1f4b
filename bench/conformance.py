"""The conformance kit's long run (issue 33): every rule set, every shipped scenario, many seeds,
games of two scripted players to their end, every adjudication checked (tests/support/conformance.py).

    python bench/conformance.py [--seeds 20] [--turns 200] [--only littlewars,kriegspiel]

Prints per rule set: games, games that ended, turns, events, melees, charges, broken promises
(must be 0) and seconds, beside the CI run's bound (1 seed, 60 turns). Nothing is asserted here;
the figures go into the note of the issue that asks for them.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import catalog
from tests.support.conformance import Broken, play, scenarios


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--turns", type=int, default=200)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    names = [n for n in catalog.names() if not args.only or n in args.only.split(",")]
    print(
        f"{'rule set':<12}{'games':>7}{'ended':>7}{'turns':>8}{'events':>9}{'melees':>8}{'charges':>9}{'broken':>8}{'s':>8}"
    )
    for name in names:
        total = {"games": 0, "ended": 0, "turns": 0, "events": 0, "melees": 0, "charges": 0, "broken": 0}
        start = time.monotonic()
        for scenario in scenarios(name):
            for seed in range(1, args.seeds + 1):
                total["games"] += 1
                try:
                    counts = play(name, scenario, seed, args.turns)
                except Broken as exc:
                    total["broken"] += 1
                    print(f"  BROKEN {exc}"[:400])
                    continue
                total["ended"] += int(counts["over"])
                for key in ("turns", "events", "melees", "charges"):
                    total[key] += counts[key]
        secs = time.monotonic() - start
        print(
            f"{name:<12}{total['games']:>7}{total['ended']:>7}{total['turns']:>8}{total['events']:>9}"
            f"{total['melees']:>8}{total['charges']:>9}{total['broken']:>8}{secs:>8.1f}"
        )


if __name__ == "__main__":
    main()

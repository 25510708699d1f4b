"""Random-order fuzzing of the Kriegspiel (issue 15 item 8): every shipped scenario played with random
orders, legal or not - the main part's and the appendix's - for a bounded number of turns; after every
adjudication every invariant holds (figures, prisoners, guns, depots and trains on the table and
outside scenery; no figure in two melees). Seeded, so a failure replays exactly."""

import pytest

from rules.kriegspiel.ruleset import RULESET as KS
from rules.littlewars.testing import fuzz_game, point_near


def _charge(state, side, name, c, rng):
    seen = sorted(state["ks"]["seen"][side]["now"]["figures"].values())  # what the side sees, to charge
    x, y = rng.choice(seen)[:2] if seen and rng.random() < 0.8 else point_near(c, rng, 36)
    return f"charge {name} at {x:.1f},{y:.1f}"


def _volley(state, side, name, c, rng):
    x, y = point_near(c, rng, 48)
    return f"volley {name} at {x:.1f},{y:.1f}"


def _work(state, side, name, c, rng):
    x, y = point_near(c, rng, 3)
    kind = rng.choice(["mine {} at {:.1f},{:.1f}", "gunpit {} at {:.1f},{:.1f}"])
    if rng.random() < 0.4:
        return f"entrench {name} from {x:.1f},{y:.1f} to {x + 4:.1f},{y:.1f}"
    return kind.format(name, x, y)


def _formation(state, side, name, c, rng):
    return f"{rng.choice(['box', 'unbox', 'column', 'line', 'dismount', 'mount'])} {name}"


def _raid(state, side, name, c, rng):
    x, y = point_near(c, rng, 10)
    return f"{rng.choice(['burn', 'empty'])} {name} at {x:.1f},{y:.1f}"


def _guns(state, side, name, c, rng):
    own = sorted(g["name"] for g in state["guns"].values() if g["owner"] == side)
    return f"{rng.choice(['limber', 'unlimber'])} {rng.choice(own)}" if own else "hold"


def _drive(state, side, name, c, rng):
    depots = sorted(state["ks"]["supply"][side]["depots"])
    if not depots:
        return "hold"
    d = state["ks"]["supply"][side]["depots"][depots[0]]
    x, y = point_near((d["x"], d["y"]), rng, 8)
    return f"drive {depots[0]} to {x:.1f},{y:.1f}"


VERBS = (_charge, _charge, _volley, _work, _formation, _raid, _guns, _drive)


def at_the_farm():
    """The farm with both armies deployed round the farmhouse, its wall, the orchard and the knoll, 2 ft
    apart: random orders then make charges (KS-68..85) among the scenery (the shipped start is 23 ft
    apart, out of any charge's reach for as long as the fuzz plays)."""
    from rules.kriegspiel.scenario import load

    sc = load("ks_farm")
    sc["settings"]["deploy_depth"] = 150
    places = {"foot1": (16, 124, 164), "foot2": (80, 124, 164), "horse": (48, 126, 156)}
    for side in ("red", "blue"):
        for g in sc["forces"][side]["groups"]:
            x, y_red, y_blue = places[g["name"]]
            g["at"] = [x, y_red if side == "red" else y_blue]
    return load(sc)


# (scenario, seeds, turns): the big tables are slow, so they play fewer turns (bounded: ~15 s in all)
RUNS = [
    ("ks_farm", (1, 3), 16),
    (at_the_farm(), (1, 2, 5), 8),  # seeds 2 and 5 charge
    ("skirmish", (1, 2), 8),
    ("defence", (1, 2), 8),
    ({"base": "wells"}, (1,), 3),
]


@pytest.mark.parametrize("scenario,seeds,turns", RUNS, ids=lambda v: v if isinstance(v, str) else None)
def test_random_orders_keep_every_invariant(scenario, seeds, turns):
    for seed in seeds:
        fuzz_game(KS, scenario, seed, turns=turns, verbs=VERBS)


def test_every_shipped_kriegspiel_scenario_is_fuzzed():
    from rules.kriegspiel.scenario import builtin_names

    assert set(builtin_names()) <= {r[0] for r in RUNS if isinstance(r[0], str)}

"""Random-order fuzzing of every shipped Little Wars scenario (issue 15 item 8): random orders, legal or
not, in random order, for a bounded number of turns; after every adjudication every invariant holds
(figures, prisoners, guns and wagons on the table and outside scenery; no figure in two melees). Seeded, so a
failure replays exactly (rules.littlewars.testing.fuzz_game)."""

import pytest

from rules.littlewars import RULESET as RS
from rules.littlewars.scenario import builtin_names
from rules.littlewars.testing import fuzz_game

# (scenario, seeds, turns): the big tables are slow, so they play fewer turns (bounded: ~15 s in all)
TURNS = {
    "skirmish": ((1, 2, 3), 14),
    "defence": ((1, 2, 3), 14),
    "wells": ((1,), 5),
    "big_battle": ((1,), 4),
    "convoy": ((1,), 10),
}  # convoy: supply wagons and ammunition carts moved at random too (LW-66/67)


def test_every_shipped_scenario_is_fuzzed():
    assert set(TURNS) == set(builtin_names())


@pytest.mark.parametrize("name", sorted(TURNS))
def test_random_orders_keep_every_invariant(name):
    seeds, turns = TURNS[name]
    for seed in seeds:
        fuzz_game(RS, name, seed, turns)


# per-game options on shipped scenarios: the choice of edge, the coin for the defender, deployment
# without the curtain and the distance scale take their own paths through setup and play
VARIANTS = [
    {"base": "defence", "settings": {"defender_coin": True}},
    {"base": "skirmish", "settings": {"deployment": "alternate", "choose_edge": True, "scale": 3}},
    {"base": "convoy", "settings": {"deployment": "alternate", "choose_edge": True, "scale": 2}},
]


@pytest.mark.parametrize("scenario", VARIANTS, ids=["defence-coin", "skirmish-alternate-x3", "convoy-alternate-x2"])
def test_random_orders_keep_every_invariant_with_the_options(scenario):
    for seed in (1, 2):
        fuzz_game(RS, scenario, seed, 12)


def _skirmish_with_wagons() -> dict:
    """The skirmish's close table with LW-66/67 wagons and the blast rule: random orders there reach the
    wagons, so capture and destruction are fuzzed too (the convoy's long table rarely gets that far)."""
    from rules.littlewars.scenario import builtin_scenario

    sc = builtin_scenario("skirmish")
    sc["name"] = "skirmish-wagons"
    sc["settings"].update(supply=True, blast=True)
    sc["forces"]["red"]["wagons"] = [
        {"name": "supply1", "kind": "supply", "at": [4, 3]},
        {"name": "cart1", "kind": "ammo", "at": [28, 2.5]},
    ]
    sc["forces"]["blue"]["wagons"] = [
        {"name": "supply1", "kind": "supply", "at": [44, 33]},
        {"name": "cart1", "kind": "ammo", "at": [20, 33.5]},
    ]
    return sc


def test_random_orders_keep_every_invariant_with_wagons_taken_and_destroyed():
    ends = [fuzz_game(RS, _skirmish_with_wagons(), seed, 14)["wagons"].values() for seed in range(1, 9)]
    fates = {
        ("destroyed" if w["st"] != "ok" else "captured" if w["owner"] != w["side"] else "kept")
        for wagons in ends
        for w in wagons
    }
    assert fates == {"kept", "captured", "destroyed"}  # every path of LW-66/67 was reached

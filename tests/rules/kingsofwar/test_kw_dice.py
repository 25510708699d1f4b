"""To-hit, halving, damage, doubtful cover and the Nerve test (KW-36..53, KW-EX-6..8, KW-DT-1/2/4)."""

import random

import pytest

from rules.kingsofwar import combat


class Loaded(random.Random):
    """A generator that returns given d6 results in order (and fails when they run out)."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        assert (a, b) == (1, 6)
        return self.faces.pop(0)


def test_shooting_modifiers_kw_ex_6():
    assert combat.to_hit(4, 10, 0).needed == 4
    assert combat.to_hit(4, 10, -1).needed == 5  # moved
    assert combat.to_hit(4, 10, -2) == combat.ToHit(6, 10)  # moved and target in cover: 6s, all dice


def test_melee_modifiers_kw_ex_7():
    assert combat.to_hit(4, 12, -1).needed == 5  # hindered
    assert combat.to_hit(4, 12, -2) == combat.ToHit(6, 12)


def test_above_six_halves_the_dice_kw_dt_1():
    assert combat.to_hit(5, 10, -2) == combat.ToHit(6, 5)
    assert combat.to_hit(5, 1, -2) == combat.ToHit(6, 0)  # ambiguity 8: no dice at all


def test_natural_one_always_misses_kw_39():
    assert combat.to_hit(2, 5, +3).needed == 2  # a bonus never makes a 1 hit
    assert combat.successes([1, 1, 2, 6], 2) == 2


def test_damage_against_defence_kw_dt_2():
    assert combat.damage_needed(6, -1) is None  # cannot be damaged
    assert combat.damage_needed(5) == 5
    assert combat.successes([1], combat.damage_needed(1)) == 0  # a 1 never damages
    assert combat.successes([6, 6], None) == 0


def test_attack_rerolls_the_hits_to_damage_kw_41():
    rng = Loaded([4, 2, 6, 1, 5, 5, 3, 6])  # five to-hit dice, then three damage dice
    res = combat.attack(rng, combat.ToHit(4, 5), defence=5)
    assert res["hit_rolls"] == [4, 2, 6, 1, 5] and res["hits"] == 3
    assert res["damage_rolls"] == [5, 3, 6] and res["damage"] == 2


def test_flank_and_rear_multiply_attacks_kw_dt_4():
    assert 10 * combat.MULTIPLIER["left"] == 20 and 10 * combat.MULTIPLIER["right"] == 20
    assert 10 * combat.MULTIPLIER["rear"] == 30 and combat.MULTIPLIER["front"] == 1


@pytest.mark.parametrize("die,cover", [(1, True), (2, True), (3, True), (4, False), (5, False), (6, False)])
def test_doubtful_cover_roll_kw_ex_8(die, cover):
    assert combat.doubtful_cover(Loaded([die])) == (die, cover)


@pytest.mark.parametrize(
    "dice,damage,outcome",
    [
        ([3, 4], 5, "steady"),  # 12 < waver 13
        ([3, 4], 6, "wavering"),  # 13
        ([6, 4], 5, "routed"),  # 15 = rout
        ([1, 1], 20, "steady"),  # a double 1 always holds (house)
    ],
)
def test_nerve_test(dice, damage, outcome):
    res = combat.nerve(Loaded(dice), damage, waver=13, rout=15)
    assert res["outcome"] == outcome and res["total"] == sum(dice) + damage


def test_fearless_units_never_waver():
    assert combat.nerve(Loaded([6, 5]), 4, waver=None, rout=17)["outcome"] == "steady"
    assert combat.nerve(Loaded([6, 5]), 6, waver=None, rout=17)["outcome"] == "routed"


def test_a_second_test_that_holds_does_not_end_a_wavering():
    from rules.kingsofwar.fold import fold

    state = {"units": {"b1": {"status": "wavering"}}}
    assert (
        fold(state, "kingsofwar.nerve_test", {"unit": "b1", "outcome": "steady"})["units"]["b1"]["status"] == "wavering"
    )
    assert (
        fold(state, "kingsofwar.nerve_test", {"unit": "b1", "outcome": "routed"})["units"]["b1"]["status"] == "routed"
    )
    assert state["units"]["b1"]["status"] == "wavering"  # fold never mutates its input

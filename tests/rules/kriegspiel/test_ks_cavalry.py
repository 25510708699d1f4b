"""Cavalry charges (KS-68..86, T-KS-3) with the digest's derived cases KS-DT-4..8, 11."""

import random

import pytest

from rules.kriegspiel import cavalry as c

FT = 12.0


@pytest.mark.parametrize("d,cav_lost,inf_lost", [(2.5 * FT, 6, 10), (1.5 * FT, 3, 20), (0.5 * FT, 2, 30)])
def test_open_order_table(d, cav_lost, inf_lost):
    # KS-DT-4: 10 cavalry charge 30 open-order infantry
    res = c.vs_infantry(10, 30, d, "open")
    assert (res["cav_lost"], res["inf_lost"]) == (cav_lost, inf_lost)
    assert "fall back 1 ft" in res["after"]


@pytest.mark.parametrize("d,cav_lost,inf_lost", [(2 * FT, 15, 2), (1.5 * FT, 10, 3), (0.5 * FT, 5, 5)])
def test_close_order_table(d, cav_lost, inf_lost):
    # KS-DT-5: 30 cavalry charge 5 close-order infantry (6 capped at the 5 there are)
    res = c.vs_infantry(30, 5, d, "close")
    assert (res["cav_lost"], res["inf_lost"]) == (cav_lost, inf_lost)
    assert "cannot move" in res["after"]


def test_bands_at_their_edges():
    assert c.band_open(2 * FT) == "mid" and c.band_open(2 * FT + 0.01) == "far" and c.band_open(FT) == "mid"
    assert c.band_close(2 * FT) == "far" and c.band_close(FT - 0.01) == "near"


def test_fewer_than_eight_never_charge():
    # KS-DT-6
    with pytest.raises(c.ChargeError, match="KS-68"):
        c.vs_infantry(7, 10, FT, "open")
    c.vs_infantry(8, 10, FT, "open")
    with pytest.raises(c.ChargeError, match="KS-69"):
        c.check_charge(8, formed=False)


def test_downhill_multiplies_and_unequal_numbers_use_little_wars():
    # KS-DT-7: 10 cavalry across 2 levels count as 30 against 20: LW melee 30 v 20, the 20 supported:
    # all 20 die and kill 20 men's worth - 20 / 3 real horsemen, 7 (RULES.md: the multiplier's losses)
    assert c.effective(10, 2) == 30
    res = c.vs_cavalry(10, 20, random.Random(0), levels_down=2)
    assert res["def_lost"] == 20 and res["att_lost"] == 7 and res["coin"] is None
    # isolated 20: 10 taken, 10 killed; the charger loses 10 men's worth, 3 horsemen
    res = c.vs_cavalry(10, 20, random.Random(0), levels_down=2, smaller_isolated=True)
    assert (res["def_lost"], res["def_captured"], res["att_lost"], res["att_captured"]) == (20, 10, 3, 0)
    # a smaller charger, isolated, is partly taken: 8 charge 12 on the level, 8 isolated: 4 taken, 4 killed
    res = c.vs_cavalry(8, 12, random.Random(0), smaller_isolated=True)
    assert (res["att_lost"], res["att_captured"], res["def_lost"], res["def_captured"]) == (8, 4, 4, 0)


def test_equal_cavalry_on_level_ground_toss_a_coin():
    # KS-DT-8: 12 v 12: the loser of the toss loses 9 and withdraws, the winner 3
    outcomes = set()
    for seed in range(20):
        res = c.vs_cavalry(12, 12, random.Random(seed))
        loser = res["withdraws"]
        assert (res["att_lost"], res["def_lost"]) == ((9, 3) if loser == "attacker" else (3, 9))
        outcomes.add(loser)
    assert outcomes == {"attacker", "defender"}


def test_guns_standing_cavalry_and_withdrawing_infantry():
    # KS-DT-11: 8 cavalry charge an unsupported gun from 1.5 ft: gun taken, cavalry -3
    assert c.vs_guns(8, 1.5 * FT) == {"cav_lost": 3, "guns_taken": 1}
    assert c.vs_guns(8, 2.5 * FT)["cav_lost"] == 4 and c.vs_guns(8, 0.5 * FT)["cav_lost"] == 1
    # KS-75: standing cavalry loses 5 per attacker, 15 per attacker fall back 3 ft
    assert c.vs_standing_cavalry(8, 100) == {"att_lost": 0, "def_lost": 40, "fall_back": 60}
    # KS-82/83: withdrawing infantry caught: open order double losses; column 2 or 3 per attacker
    assert c.vs_retreating_infantry(10, 30, 2.5 * FT, "open")["inf_lost"] == 20
    assert c.vs_retreating_infantry(10, 40, 2.5 * FT, "column")["inf_lost"] == 20
    assert c.vs_retreating_infantry(10, 40, 1.5 * FT, "column")["inf_lost"] == 30
    assert c.reaction_error("charge") is None and "KS-74" in c.reaction_error("pray")

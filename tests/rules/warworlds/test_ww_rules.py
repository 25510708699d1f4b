"""War of the Worlds rules: the seed's worked examples (WW-EX), the derived tests (WW-DT) and
the house base's main mechanisms, each through the engine where the engine does it."""

import pytest

from rules.core.protocol import ScenarioError, Viewer
from rules.warworlds import RULESET as RS
from rules.warworlds.battle import Battle
from rules.warworlds.combat import Strike, attack_squad, damage
from rules.warworlds.data import ATTACK_TARGET, attack_target, boarding_target, damage_result, friendly_fire_limit
from rules.warworlds.morale import organisation_roll, pinned, reaction
from rules.warworlds.testing import Loaded, battle, play_round


def inf(uid, side, at, n=10, **kw):
    return {"id": uid, "side": side, "profile": "infantry", "at": at, "models": {"rifle": n}, **kw}


def events_of(events, kind):
    return [e.payload for e in events if e.type == "warworlds." + kind]


# -- WW-EX-1: strength 4 hits on 7+ -------------------------------------------------------------


def test_ww_ex_1_table_point():
    assert attack_target(4) == 7
    assert {s: min(10, max(2, 11 - s)) for s in range(13)} == ATTACK_TARGET


@pytest.mark.parametrize("roll", range(1, 11))
def test_ww_ex_1_through_an_attack(roll):
    st = battle([inf("R1", "red", "0101"), inf("B1", "blue", "0103")], rnd="shooting")
    b = Battle(st, Loaded([roll, 1]))  # the attack roll, then a failed save
    attack_squad(b, b.unit("R1"), b.unit("B1"), "test", 1, 4, [], Strike())
    hit = events_of(b.events, "attacked")[0]
    assert hit["hits"] == (1 if roll >= 7 else 0)
    assert len(b.unit("B1")["models"]) == (9 if roll >= 7 else 10)


# -- WW-EX-2: friendly fire into a melee --------------------------------------------------------------


def test_ww_ex_2_limits():
    assert friendly_fire_limit([]) == 3
    for prop in ("indirect", "rapid", "incendiary", "fragments"):
        assert friendly_fire_limit([prop]) == 5


@pytest.mark.parametrize("props, ff_roll, stray", [([], 3, 1), ([], 4, 0), (["rapid"], 5, 1), (["rapid"], 6, 0)])
def test_ww_ex_2_hits_go_astray(props, ff_roll, stray):
    st = battle([inf("R1", "red", "0101"), inf("R2", "red", "0304"), inf("B1", "blue", "0303")], rnd="shooting")
    st["units"]["B1"] = {**st["units"]["B1"], "locked": ["R2"]}
    st["units"]["R2"] = {**st["units"]["R2"], "locked": ["B1"]}
    b = Battle(st, Loaded([10, ff_roll, 1, 1]))
    attack_squad(b, b.unit("R1"), b.unit("B1"), "test", 1, 4, props, Strike())
    first = events_of(b.events, "attacked")[0]
    assert first["stray"] == stray
    assert len(b.unit("R2")["models"]) == 10 - stray
    assert len(b.unit("B1")["models"]) == 9 + stray


# -- WW-EX-3 and WW-DT-1..3: the damage table ----------------------------------------------------------


@pytest.mark.parametrize(
    "roll, band",
    [
        (1, "concussion"),
        (2, "concussion"),
        (3, "weapon"),
        (4, "weapon"),
        (5, "engine"),
        (6, "engine"),
        (7, "fire"),
        (8, "fire"),
        (9, "explosion"),
        (10, "explosion"),
    ],
)
def test_ww_ex_3_bands(roll, band):
    assert damage_result(roll, 2, 2) == (roll, band)


def test_ww_dt_1_to_3_modifiers():
    assert damage_result(4, 5, 3) == (6, "engine")  # DT-1: 4 + 3 − 1
    assert damage_result(3, 2, 6) == (1, "concussion")  # DT-2: −1 clamped to 1
    assert damage_result(9, 6, 2) == (13, "explosion")  # DT-3: above 10 counts as 10


def test_damage_through_the_engine_engine_wrecked_and_explosion():
    st = battle(
        [
            {"id": "R1", "side": "red", "profile": "tank", "at": "0101"},
            {"id": "B1", "side": "blue", "profile": "tank", "at": "0103"},
        ],
        rnd="shooting",
    )
    b = Battle(st, Loaded([4, 10]))  # DT-1 via the table: tank gun 7 vs armour 5: 4 + 5 − 3 = 6; crew attack misses
    damage(b, b.unit("R1"), b.unit("B1"), 7, Strike())
    assert events_of(b.events, "damaged")[0]["result"] == "engine"
    assert b.unit("B1")["immobile"]
    b = Battle(st, Loaded([9, 3, 1, 1, 1]))
    damage(b, b.unit("R1"), b.unit("B1"), 7, Strike())
    assert b.unit("B1")["status"] == "wreck"


# -- WW-DT-4: hex capacity -------------------------------------------------------------------------------


def test_ww_dt_4_capacity():
    st = battle(
        [
            inf("R1", "red", "0303", 18),
            inf("R2", "red", "0301", 3),
            {"id": "R3", "side": "red", "profile": "tank", "at": "0101"},
            {"id": "R4", "side": "red", "profile": "tank", "at": "0102"},
            inf("B1", "blue", "0808"),
        ]
    )
    st2, ev = play_round(st, {"red": "move R2 to 0303 run\nmove R3 to 0102", "blue": ""}, 1)
    assert st2["units"]["R2"]["hex"] == "0302"  # stopped short of the full hex
    assert "20" in events_of(ev, "moved")[0]["short"]
    assert st2["units"]["R3"]["hex"] == "0101"  # a machine cannot enter a hex with another
    with pytest.raises(ScenarioError, match=r"units\[1\]\.at: 0303: the hex holds 18 figures; 3 more would exceed 20"):
        battle([inf("R1", "red", "0303", 18), inf("R2", "red", "0303", 3), inf("B1", "blue", "0808")])
    with pytest.raises(ScenarioError, match="figures and a large model cannot share a hex"):
        battle(
            [
                inf("R1", "red", "0303", 5),
                {"id": "R2", "side": "red", "profile": "tank", "at": "0303"},
                inf("B1", "blue", "0808"),
            ]
        )


# -- WW-DT-5: boarding agility --------------------------------------------------------------------------


def test_ww_dt_5_boarding_target():
    assert boarding_target(2) == 6
    assert boarding_target(3) == 8
    assert boarding_target(0) is None


# -- WW-DT-6: pinned by fire -------------------------------------------------------------------------------


def test_ww_dt_6_pinned():
    assert pinned(20, 10) and not pinned(19, 10)


@pytest.mark.parametrize("attacks, tested", [(20, True), (19, False)])
def test_ww_dt_6_through_a_volley(attacks, tested):
    st = battle([inf("R1", "red", "0101", 20), inf("B1", "blue", "0103", 10)], rnd="shooting")
    st["units"]["R1"] = {**st["units"]["R1"], "models": ["rifle"] * attacks}
    # every attack hits (10), every save succeeds (10): no losses, only the weight of fire
    b = Battle(st, Loaded([10] * (2 * attacks) + [10]))
    from rules.warworlds.activate import shoot
    from rules.warworlds.orders import parse_line

    shoot(b, parse_line(1, "fire R1 at B1"))
    factors = [p["factor"] for p in events_of(b.events, "fear_test")]
    assert (5 in factors) == tested


# -- WW-DT-7 / WW-DT-8: organisation rolls and panic ------------------------------------------------------


@pytest.mark.parametrize(
    "level, roll, bonus, penalty",
    [(4, 8, True, False), (4, 7, False, False), (5, 6, True, False), (2, 7, False, True), (2, 6, False, False)],
)
def test_ww_dt_7_markers(level, roll, bonus, penalty):
    st = battle([inf("R1", "red", "0101", morale=level), inf("B1", "blue", "0808")])
    b = Battle(st, Loaded([roll]))
    organisation_roll(b, "R1")
    assert (b.unit("R1")["bonus"], b.unit("R1")["penalty"]) == (bonus, penalty)


@pytest.mark.parametrize("roll, level", [(6, 2), (5, 1)])
def test_ww_dt_8_panic_recovers_on_6(roll, level):
    st = battle([inf("R1", "red", "0101", morale=1), inf("B1", "blue", "0808")])
    b = Battle(st, Loaded([roll]))
    organisation_roll(b, "R1")
    assert b.unit("R1")["morale"] == level


def test_ww_dt_8_panic_with_no_escape_surrenders():
    # R1 in the middle of a small map, boxed in by enemies on every side
    from rules.hex import coords as C

    ring = [C.label(h) for h in C.neighbours(C.parse_label("0403"))]
    units = [inf("R1", "red", "0403", 5, morale=1)] + [inf(f"B{i}", "blue", h, 5) for i, h in enumerate(ring, 1)]
    units += [inf("R2", "red", "0101")]
    st = battle(units, cols=8, rows=8)
    st2, ev = play_round(st, {"red": "", "blue": ""}, 1)
    assert st2["units"]["R1"]["status"] == "surrendered"
    assert events_of(ev, "surrendered")[0]["unit"] == "R1"


def test_panic_flees_away_and_deserts_off_the_edge():
    st = battle([inf("R1", "red", "0102", morale=1), inf("B1", "blue", "0303"), inf("R2", "red", "0808")])
    st2, ev = play_round(st, {"red": "", "blue": ""}, 1)
    assert st2["units"]["R1"]["status"] == "deserted"
    st = battle(
        [inf("R1", "red", "0404", morale=1), inf("B1", "blue", "0504"), inf("R2", "red", "0808")], cols=9, rows=9
    )
    st2, _ = play_round(st, {"red": "", "blue": ""}, 1)
    r1 = st2["units"]["R1"]
    assert r1["status"] == "active" and r1["hex"] != "0404"


def test_fear_reaction_table():
    assert reaction(3, 6) == 3 and reaction(3, 5) == 2 and reaction(3, 1) == 1
    assert reaction(5, 4) == 5 and reaction(5, 3) == 4
    assert reaction(2, 6) == 1 and reaction(1, 1) == 1


# -- armour (WW-24, WW-25), line of sight (WW-35/36), running (WW-12) ---------------------------------------


def test_heavy_armour_is_immune_to_small_arms_and_ap_ignores_light_saves():
    st = battle(
        [
            inf("R1", "red", "0101"),
            {"id": "B1", "side": "blue", "profile": "tank", "at": "0103"},
            inf("B2", "blue", "0201"),
        ],
        rnd="shooting",
    )
    errors = RS.validate(st, "red", RS.parse_orders(st, "red", "fire R1 at B1").orders)
    assert not errors  # in range and sight; the rifles just cannot hurt it
    b = Battle(st, Loaded([]))
    from rules.warworlds.combat import attack_machine

    attack_machine(b, b.unit("R1"), b.unit("B1"), "rifle", 5, 3, [], Strike())
    assert events_of(b.events, "no_effect")
    b = Battle(st, Loaded([10]))  # one AP hit on a squad: no save is rolled
    attack_squad(b, b.unit("R1"), b.unit("B2"), "ap", 1, 6, ["ap"], Strike())
    assert len(b.unit("B2")["models"]) == 9


def test_wood_blocks_sight_unless_higher():
    units = [inf("R1", "red", "0101"), inf("B1", "blue", "0104")]
    st = battle(units, hexes={"0102": {"terrain": "wood"}}, rnd="shooting")
    errs = RS.validate(st, "red", RS.parse_orders(st, "red", "fire R1 at B1").orders)
    assert errs and "out of range or out of sight" in errs[0].message
    st = battle(units, hexes={"0102": {"terrain": "wood"}, "0101": {"elevation": 1}}, rnd="shooting")
    assert not RS.validate(st, "red", RS.parse_orders(st, "red", "fire R1 at B1").orders)


def test_sight_along_a_hex_border_is_the_same_both_ways_and_old_games_keep_theirs():
    """WW-36 "and is seen back". 0102 and 0203 look along the border of 0103 and 0202: a wood on
    one side does not block under the lenient rule, does under the strict one, both ways. A game
    set up before line-of-sight versions (no ``los_version``) keeps its old one-way answer, so
    its stored turns re-adjudicate to the same events."""
    st = battle(
        [inf("R1", "red", "0102"), inf("B1", "blue", "0203")], hexes={"0103": {"terrain": "wood"}}, rnd="shooting"
    )
    assert st["scenario"]["los_version"] == 2
    assert RS.view(st, Viewer("player", "red"))["scenario"]["los_version"] == 2
    for side, text in (("red", "fire R1 at B1"), ("blue", "fire B1 at R1")):
        assert not RS.validate(st, side, RS.parse_orders(st, side, text).orders)
    b = Battle(st, Loaded([]))
    assert b.sees("0102", "0203") and b.sees("0203", "0102")
    strict = Battle({**st, "scenario": {**st["scenario"], "los_rule": "strict"}}, Loaded([]))
    assert not strict.sees("0102", "0203") and not strict.sees("0203", "0102")
    old = {**st, "scenario": {k: v for k, v in st["scenario"].items() if k != "los_version"}}
    assert RS.view(old, Viewer("player", "red"))["scenario"]["los_version"] == 1
    b = Battle(old, Loaded([]))
    assert b.sees("0102", "0203") and not b.sees("0203", "0102")
    errs = RS.validate(old, "blue", RS.parse_orders(old, "blue", "fire B1 at R1").orders)
    assert errs and "out of range or out of sight" in errs[0].message


def test_runners_cannot_shoot_and_lose_cover():
    st = battle([inf("R1", "red", "0101"), inf("B1", "blue", "0105")])
    st, _ = play_round(st, {"red": "move R1 to 0103 run", "blue": ""}, 1)
    errs = RS.validate(st, "red", RS.parse_orders(st, "red", "fire R1 at B1").orders)
    assert "cannot shoot (WW-12)" in errs[0].message


# -- melee: charges (WW-42), assault weapons (WW-43), penalty (WW-58) ---------------------------------------


def test_cavalry_charge_bonus_and_extra_attack():
    st = battle(
        [
            {"id": "R1", "side": "red", "profile": "cavalry", "at": "0101", "models": {"trooper": 6}},
            inf("B1", "blue", "0105", 10),
        ]
    )
    st, _ = play_round(st, {"red": "move R1 to 0104 gallop", "blue": ""}, 1)
    st, _ = play_round(st, {"red": "", "blue": ""}, 2)
    st2, ev = play_round(st, {"red": "attack R1 B1", "blue": ""}, 3)
    attacks = [p for p in events_of(ev, "attacked") if p["by"] == "R1"]
    assert attacks[0]["strength"] == 4 + 2 and attacks[0]["attacks"] == 6
    assert attacks[1]["weapon"] == "horses" and attacks[1]["strength"] == 4
    assert (
        any(p["factor"] == 4 for p in events_of(ev, "fear_test") if p["unit"] == "B1")
        or st2["units"]["B1"]["status"] != "active"
    )
    assert "B1" in st2["units"]["R1"]["locked"] or st2["units"]["B1"]["status"] != "active"


def test_assault_weapons_before_melee_and_penalty_forbids_melee():
    st = battle(
        [
            {"id": "R1", "side": "red", "profile": "infantry", "at": "0101", "models": {"rifle": 4, "grenadier": 2}},
            inf("B1", "blue", "0102"),
        ],
        rnd="melee",
    )
    st2, ev = play_round(st, {"red": "attack R1 B1", "blue": ""}, 4)
    weapons = [p["weapon"] for p in events_of(ev, "attacked") if p["by"] == "R1"]
    assert weapons[0] == "grenades" and "melee" in weapons
    st["units"]["R1"] = {**st["units"]["R1"], "penalty": True}
    errs = RS.validate(st, "red", RS.parse_orders(st, "red", "attack R1 B1").orders)
    assert "penalty marker" in errs[0].message


def test_heroic_unit_attacks_unbidden():
    st = battle([inf("R1", "red", "0101", morale=5), inf("B1", "blue", "0102")], rnd="melee")
    st2, ev = play_round(st, {"red": "", "blue": ""}, 4)
    assert [p for p in events_of(ev, "melee") if p["unit"] == "R1"]


def test_wound_priority_and_aimed_attacks():
    from rules.warworlds.combat import allocation

    u = {"models": ["officer", "rifle", "rifle", "lmg"], "priority": ["officer", "lmg"]}
    assert allocation(u, 2) == [1, 2]
    assert allocation(u, 4) == [1, 2, 3, 0]  # the officer last
    assert allocation(u, 5)[4] == 1  # evenly: the fifth goes round again
    assert allocation(u, 1, aim="officer") == [0]  # a sniper picks the officer (WW-29)


def test_scatter_convention():
    st = battle([inf("R1", "red", "0101"), inf("B1", "blue", "0404")], rnd="shooting")
    from rules.warworlds.combat import scatter

    assert scatter(Battle(st, Loaded([6])), "0404") == (6, 0, "0404")
    assert scatter(Battle(st, Loaded([5, 1])), "0404") == (5, 1, "0403")  # 1 = north
    assert scatter(Battle(st, Loaded([5, 4])), "0404") == (5, 4, "0405")  # 4 = south


def test_aircraft_is_placed_beside_its_target_and_leaves_at_turn_end():
    st = battle(
        [{"id": "R1", "side": "red", "profile": "aircraft"}, inf("B1", "blue", "0505"), inf("R2", "red", "0101")],
        rnd="shooting",
    )
    st2, ev = play_round(st, {"red": "fire R1 at B1", "blue": ""}, 5)
    assert events_of(ev, "aircraft_placed")[0]["at"] in ("0404", "0405", "0504", "0506", "0604", "0605")
    assert st2["units"]["R1"]["hex"]
    st3, _ = play_round(st2, {"red": "", "blue": ""}, 6)
    assert st3["units"]["R1"]["hex"] is None and st3["turn"] == 2


def test_ww_ex_2_also_when_the_target_is_a_machine():
    st = battle(
        [
            {"id": "R1", "side": "red", "profile": "infantry", "at": "0101", "models": {"rifle": 10}},
            inf("R2", "red", "0304"),
            {"id": "B1", "side": "blue", "profile": "light_vehicle", "at": "0303"},
        ],
        rnd="shooting",
    )
    st["units"]["B1"] = {**st["units"]["B1"], "locked": ["R2"]}
    from rules.warworlds.combat import attack_machine

    b = Battle(st, Loaded([10, 2, 1]))  # a hit, friendly-fire roll 2 (≤ 3): it strikes R2, whose save fails
    attack_machine(b, b.unit("R1"), b.unit("B1"), "rifle", 1, 3, [], Strike())
    assert [e.payload["stray"] for e in b.events if e.type.endswith("machine_attacked")] == [1]
    assert len(b.unit("R2")["models"]) == 9 and not [e for e in b.events if e.type.endswith("damaged")]


def test_first_player_by_dice_is_the_seeds_choice():
    import random

    from rules.warworlds.scenario import builtin

    sc = {**builtin("field_battle"), "first": "dice"}
    firsts = {RS.setup(sc, random.Random(s))[0].payload["first"] for s in range(12)}
    assert firsts == {"red", "blue"}
    assert RS.setup(sc, random.Random(3))[0].payload == RS.setup(sc, random.Random(3))[0].payload

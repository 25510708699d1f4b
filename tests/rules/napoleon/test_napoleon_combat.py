"""Napoleon's War: charges, squares, counter-charges, flank attacks, cavalry melee, leaders
(NW-19..45, NW-DT-1, 2, 4, 5) and the scenario settings (NW-54..58)."""

import pytest

from rules.core.protocol import ScenarioError
from rules.napoleon import RULESET as RS
from rules.napoleon import combat
from rules.napoleon.battle import Battle
from rules.napoleon.scenario import builtin, load
from rules.napoleon.testing import Loaded, battle

from .test_napoleon_rules import kinds, leader, run, setp, stream_below, unit

# -- counter-charge check: NW-DT-1, NW-31..34 ----------------------------------------------------------


@pytest.mark.parametrize(
    "figures,die,passed", [(3, 1, True), (3, 5, True), (3, 6, False), (4, 6, False), (2, 5, False), (2, 4, True)]
)
def test_nw_dt_1_counter_charge_strength_is_two_plus_figures_and_a_6_always_fails(figures, die, passed):
    st = battle([unit("B1", "blue", "cavalry", "0404", figures), unit("R1", "red", "cavalry", "0101")])
    b = Battle(st, Loaded([die]))
    strength, rolled, ok = combat.check(b, b.unit("B1"), "cavalry")
    assert (strength, rolled, ok) == (2 + figures, die, passed)


def test_a_cavalry_leader_adds_his_level_and_an_infantry_leader_does_not():
    units = [unit("B1", "blue", "cavalry", "0404", 2), unit("R1", "red", "cavalry", "0101")]
    st = battle(units, leaders=[leader("BC", "blue", "0404", level=2, arm="cavalry")], options=["cavalry_leaders"])
    assert combat.check(Battle(st, Loaded([5])), st["units"]["B1"], "cavalry")[0] == 6
    st = battle(units, leaders=[leader("BI", "blue", "0404", level=2, arm="infantry")])
    assert combat.check(Battle(st, Loaded([5])), st["units"]["B1"], "cavalry")[0] == 4  # NW-42
    st = battle(units, leaders=[leader("BC", "blue", "0404", level=2, arm="cavalry")], options=["cavalry_leaders"])
    st = {**st, "standing": {**st["standing"], "blue": {**st["standing"]["blue"], "leader_morale": "no"}}}
    assert combat.check(Battle(st, Loaded([5])), st["units"]["B1"], "cavalry")[0] == 4  # NW-52


def test_a_passed_counter_charge_costs_the_charger_a_figure_per_1_and_a_failed_one_gives_a_die():
    units = [unit("R1", "red", "cavalry", "0401", 4), unit("B1", "blue", "cavalry", "0404", 3)]
    st = battle(units)
    # check 3 (passes, strength 5); charge 4 dice on 5+: 6 5 1 1 -> 2 hits, 2 figures off the charger
    st2, ev = run(st, "charge R1 B1", rolls=[3, 6, 5, 1, 1, 4, 4])
    a = kinds(ev, "attacked")[0]
    assert a["hit_on"] == 5 and a["hits"] == 2 and a["recoil"] == 2 and a["countercharge"] == "passed"
    assert st2["units"]["R1"]["figures"] == 2 and st2["units"]["B1"]["figures"] == 1
    st2, ev = run(st, "charge R1 B1", rolls=[6, 2, 2, 2, 2, 2])
    a = kinds(ev, "attacked")[0]
    assert a["dice"] == 5 and a["recoil"] == 0 and ["the counter-charge check failed", 1] in a["mods"]
    no = {**st, "standing": {**st["standing"], "blue": {**st["standing"]["blue"], "countercharge": "no"}}}
    _, ev = run(no, "standing countercharge no\ncharge R1 B1", rolls=[2, 2, 2, 1])
    assert not kinds(ev, "countercharge_check") and kinds(ev, "attacked")[0]["recoil"] == 0


# -- charges: NW-25..30, NW-DT-4, squares NW-19/20 -----------------------------------------------------


def test_nw_dt_4_no_charge_ending_in_forest():
    st = battle(
        [unit("R1", "red", "cavalry", "0401"), unit("B1", "blue", "infantry", "0404")],
        hexes={h: {"terrain": "forest"} for h in ("0403", "0303", "0503", "0304", "0504")},
    )
    reason = kinds(run(st, "charge R1 B1 from 0403")[1], "order_failed")[0]["reason"]
    assert "NW-26" in reason


def test_nw_dt_4_cavalry_on_a_hill_charging_infantry_not_in_square_nets_zero():
    st = battle(
        [unit("R1", "red", "cavalry", "0401", 3), unit("B1", "blue", "infantry", "0404")],
        hexes={"0403": {"elevation": 1}},
    )
    st = {**st, "standing": {**st["standing"], "blue": {**st["standing"]["blue"], "square": "no"}}}
    _, ev = run(st, "charge R1 B1 from 0403", rolls=[4, 4, 4])
    a = kinds(ev, "attacked")[0]
    assert a["dice"] == 3 and a["hit_on"] == 4 and a["hits"] == 3
    assert sorted(a["mods"]) == [["charge from or onto high ground", -1], ["infantry not in square", 1]]


def test_a_square_turns_the_charge_to_hits_on_6_and_failing_it_costs_nothing():
    st = battle([unit("R1", "red", "cavalry", "0401", 3), unit("B1", "blue", "infantry", "0404", 3)])
    st2, ev = run(st, "charge R1 B1", rolls=[4, 6, 5, 5])  # square check 4 <= 5: formed
    assert kinds(ev, "square_check")[0]["formed"] and st2["units"]["B1"]["square"]
    a = kinds(ev, "attacked")[0]
    assert a["hit_on"] == 6 and a["dice"] == 3 and a["hits"] == 1
    _, ev = run(st, "charge R1 B1", rolls=[6, 3, 3, 3, 3])  # a 6 fails: not in square, +1 die, no other loss
    a = kinds(ev, "attacked")[0]
    assert not kinds(ev, "square_check")[0]["formed"] and a["dice"] == 4 and a["hit_on"] == 4


def test_infantry_and_artillery_get_a_die_against_a_square():
    st = battle([unit("R1", "red", "infantry", "0403"), unit("B1", "blue", "infantry", "0404")])
    st = setp(st, "B1", square=True)
    assert ["target in square", 1] in kinds(run(st, "fire R1 at B1", rolls=[1] * 5)[1], "attacked")[0]["mods"]
    assert ["target in square", 1] in kinds(run(st, "melee R1 B1", rolls=[1] * 5)[1], "attacked")[0]["mods"]


def test_charge_conditions_artillery_hex_stream_and_the_first_adjacent_hex():
    units = [
        unit("R1", "red", "cavalry", "0401"),
        unit("B1", "blue", "infantry", "0404"),
        unit("G1", "red", "artillery", "0403", 3),
    ]
    st = battle(units)
    assert "NW-28" in kinds(run(st, "charge R1 B1 from 0403")[1], "order_failed")[0]["reason"]
    st = battle(units[:2], sides=stream_below(3))
    assert "NW-29" in kinds(run(st, "charge R1 B1 from 0403")[1], "order_failed")[0]["reason"]
    st = battle(units[:2], sides=stream_below(2))
    assert "NW-29" in kinds(run(st, "charge R1 B1")[1], "order_failed")[0]["reason"]
    # NW-30: 0503 is next to B1 on the way to 0504: a charge cannot shift along the line
    st = battle([unit("R1", "red", "cavalry", "0502"), unit("B1", "blue", "infantry", "0404")])
    assert "NW-30" in kinds(run(st, "charge R1 B1 from 0505")[1], "order_failed")[0]["reason"]
    # already adjacent: no charge (melee instead)
    st = battle([unit("R1", "red", "cavalry", "0403"), unit("B1", "blue", "infantry", "0404")])
    assert "NW-30" in kinds(run(st, "charge R1 B1")[1], "order_failed")[0]["reason"]


def test_no_charge_at_a_target_in_cover():
    st = battle(
        [unit("R1", "red", "cavalry", "0401"), unit("B1", "blue", "infantry", "0404")],
        hexes={"0404": {"terrain": "town"}},
    )
    assert "NW-26" in kinds(run(st, "charge R1 B1")[1], "order_failed")[0]["reason"]


def test_charges_against_guns_hit_on_4():
    st = battle([unit("R1", "red", "cavalry", "0401", 3), unit("B1", "blue", "artillery", "0404", 3)])
    a = kinds(run(st, "charge R1 B1", rolls=[4, 4, 3])[1], "attacked")[0]
    assert a["hit_on"] == 4 and a["hits"] == 2


@pytest.mark.parametrize(
    "mate,square,hit_on", [(None, False, 4), ("cavalry", False, 5), ("infantry", False, 4), ("infantry", True, 6)]
)
def test_guns_in_the_same_hex_are_charged_as_the_unit_they_stand_with(mate, square, hit_on):
    units = [unit("R1", "red", "cavalry", "0401", 3), unit("B1", "blue", "artillery", "0404", 3)]
    if mate:
        units.append(unit("B2", "blue", mate, "0404", 3))
    st = battle(units)
    if square:
        st = setp(st, "B2", square=True)
    _, ev = run(st, "charge R1 B1", rolls=[6] * 8)
    assert kinds(ev, "attacked")[0]["hit_on"] == hit_on


# -- cavalry melee NW-35/36 ---------------------------------------------------------------------------


def test_cavalry_melee_one_point_hits_on_6_and_never_after_moving():
    st = battle(
        [unit("R1", "red", "cavalry", "0403", 3), unit("B1", "blue", "cavalry", "0404", 3)], caps={"red": 1, "blue": 1}
    )
    st2, ev = run(st, "melee R1 B1", rolls=[6, 5, 5, 1])
    a = kinds(ev, "attacked")[0]
    assert a["kind"] == "cavalry_melee" and a["hit_on"] == 6 and a["hits"] == 1
    st = battle([unit("R1", "red", "cavalry", "0402", 3), unit("B1", "blue", "cavalry", "0404", 3)])
    assert "NW-35" in kinds(run(st, "move R1 to 0403\nmelee R1 B1")[1], "order_failed")[0]["reason"]
    st = battle([unit("R1", "red", "cavalry", "0403", 3), unit("B1", "blue", "cavalry", "0404", 3)])
    assert "does not fire" in kinds(run(st, "fire R1 at B1")[1], "order_failed")[0]["reason"]


def test_cavalry_melees_infantry_only_in_open_field_but_cavalry_anywhere():
    inf = battle(
        [unit("R1", "red", "cavalry", "0403"), unit("B1", "blue", "infantry", "0404")],
        hexes={"0404": {"terrain": "forest"}},
    )
    assert "NW-36" in kinds(run(inf, "melee R1 B1")[1], "order_failed")[0]["reason"]
    cav = battle(
        [unit("R1", "red", "cavalry", "0403"), unit("B1", "blue", "cavalry", "0404")],
        hexes={"0404": {"terrain": "forest"}},
    )
    assert kinds(run(cav, "melee R1 B1", rolls=[6] * 4)[1], "attacked")


# -- flank attacks NW-21..24 --------------------------------------------------------------------------


def _ring(units_at):
    return [unit(f"R{i}", "red", "infantry", at) for i, at in enumerate(units_at, 1)] + [
        unit("B1", "blue", "infantry", "0404", 8)
    ]


def _around(at="0404"):
    from rules.hex import coords as C

    t = C.parse_label(at)
    return {d: C.label(C.neighbour(t, d)) for d in range(6)}


def test_flank_at_180_degrees_then_every_later_melee_counts():
    n = _around()  # an attack from the north side, a melee from the south (180), then from the north-east
    st = battle(_ring([n[0], n[3], n[1]]))
    _, ev = run(st, "fire R1 at B1\nmelee R2 B1\nmelee R3 B1", rolls=[2] * 20)
    a = kinds(ev, "attacked")
    assert ["flank", 1] not in a[0]["mods"]
    assert ["flank", 1] in a[1]["mods"] and ["flank", 1] in a[2]["mods"]


def test_flank_at_120_degrees_and_not_from_the_next_side():
    n = _around()
    st = battle(_ring([n[0], n[1]]))
    a = kinds(run(st, "melee R1 B1\nmelee R2 B1", rolls=[2] * 20)[1], "attacked")
    assert ["flank", 1] not in a[1]["mods"]  # 60 degrees: not a flank
    st = battle(_ring([n[0], n[2], n[4]]))
    a = kinds(run(st, "melee R1 B1\nmelee R2 B1\nmelee R3 B1", rolls=[2] * 20)[1], "attacked")
    assert [["flank", 1] in x["mods"] for x in a] == [False, True, True]


def test_flank_directions_are_forgotten_at_the_end_of_the_turn():
    st = battle(_ring(["0403", "0405"]))
    st2, _ = run(st, "fire R1 at B1", rolls=[2] * 5)
    assert st2["units"]["B1"]["from"] == []


# -- leaders NW-37..45, NW-DT-2, NW-DT-5 ---------------------------------------------------------------


def test_nw_dt_2_a_leader_makes_actions_one_point_cheaper_for_one_unit_unless_he_moved():
    units = [
        unit("R1", "red", "infantry", "0401"),
        unit("R2", "red", "infantry", "0401"),
        unit("C1", "red", "cavalry", "0601"),
        unit("B1", "blue", "infantry", "0808"),
    ]
    st = battle(units, leaders=[leader("L1", "red", "0401"), leader("L2", "red", "0601")])
    _, ev = run(st, "move R1 to 0402\nmove R2 to 0302")
    assert [m["cost"] for m in kinds(ev, "moved")] == [0, 1]  # only one of the two units
    _, ev = run(
        battle(
            [unit("C1", "red", "cavalry", "0601", 3), unit("B1", "blue", "infantry", "0604")],
            leaders=[leader("L2", "red", "0601", arm="cavalry")],  # NW-42: a foot leader gives cavalry nothing
            options=["cavalry_leaders"],
        ),
        "charge C1 B1",
        rolls=[6] * 8,
    )
    assert kinds(ev, "moved")[0]["cost"] == 1  # a 2-point action costs 1
    _, ev = run(st, "move L1 to 0402\nmove R1 to 0302")
    assert kinds(ev, "moved")[0]["cost"] == 1  # the leader left: full price
    _, ev = run(st, "move R1 to 0402\nmove L1 to 0404")
    assert "NW-37" in kinds(ev, "order_failed")[0]["reason"]


@pytest.mark.parametrize(
    "level,arm,nation,target,ok",
    [
        (3, "infantry", "Prussian", "cavalry", True),
        (2, "infantry", "French", "cavalry", True),
        (2, "infantry", "Prussian", "infantry", False),
        (1, "infantry", "French", "cavalry", False),
        (1, "infantry", "French", "infantry", True),
        (1, "cavalry", "French", "cavalry", True),
        (1, "cavalry", "French", "infantry", False),
    ],
)
def test_who_may_command_whom_by_level_nationality_and_arm(level, arm, nation, target, ok):
    assert Battle.commands({"level": level, "arm": arm, "nation": nation}, {"arm": target, "nation": "French"}) is ok


def test_nw_dt_5_bought_melee_dice_are_capped_at_the_figures_and_need_an_infantry_leader():
    units = [unit("R1", "red", "infantry", "0403", 3), unit("B1", "blue", "infantry", "0404")]
    st = battle(units, leaders=[leader("L1", "red", "0403")])
    st2, ev = run(st, "melee R1 B1 dice 3", rolls=[1] * 6 + [4])
    a = kinds(ev, "attacked")[0]
    assert a["base"] == 3 and a["dice"] == 3
    assert kinds(ev, "leader_helps")
    st = battle(units, leaders=[leader("L1", "red", "0403", arm="cavalry")], options=["cavalry_leaders"])
    assert "NW-41" in kinds(run(st, "melee R1 B1 dice 1")[1], "order_failed")[0]["reason"]
    st = battle(units)
    assert kinds(run(st, "melee R1 B1", rolls=[6, 6])[1], "attacked")[0]["dice"] == 2  # house base: 2 dice


def test_a_leader_checks_when_a_1_is_rolled_and_when_his_unit_is_destroyed():
    units = [
        unit("R1", "red", "infantry", "0403"),
        unit("B1", "blue", "infantry", "0404", 1),
        unit("B2", "blue", "infantry", "0707"),
    ]
    st = battle(units, leaders=[leader("BL", "blue", "0404")])
    # melee 2 dice: 5 and 1 -> B1 destroyed; a 1 rolled: check (3, unhurt); destroyed: check (4), then retreat
    st2, ev = run(st, "melee R1 B1", rolls=[5, 1, 3, 4])
    checks = kinds(ev, "leader_check")
    assert [c["die"] for c in checks] == [3, 4] and not any(c["killed"] for c in checks)
    assert st2["leaders"]["BL"]["hex"] == "0707"
    st2, ev = run(st, "melee R1 B1", rolls=[5, 1, 1])
    assert st2["leaders"]["BL"]["status"] == "killed"


def test_an_enemy_leader_alone_holds_his_hex():
    st = battle(
        [unit("R1", "red", "cavalry", "0401"), unit("B1", "blue", "infantry", "0808")],
        leaders=[leader("BL", "blue", "0402")],
    )
    assert "held by the enemy" in kinds(run(st, "move R1 to 0402")[1], "order_failed")[0]["reason"]
    st2, _ = run(st, "move R1 to 0403")
    assert st2["units"]["R1"]["hex"] == "0403" and kinds(run(st, "move R1 to 0403")[1], "moved")[0]["path"][1] != "0402"


def test_reinforcements_enter_at_their_edge_hex_as_having_moved():
    units = [
        unit("R1", "red", "infantry", "0404"),
        unit("B1", "blue", "infantry", "0806"),
        {**unit("R2", "red", "infantry", "0403"), "enters": 2},
    ]
    with pytest.raises(ScenarioError, match="edge"):
        battle(units)
    units[2] = {**unit("R2", "red", "infantry", "0101"), "enters": 2}
    st = battle(units, turns=3)
    assert st["units"]["R2"]["status"] == "reserve" and st["units"]["R2"]["hex"] is None
    errors = RS.validate(st, "red", RS.parse_orders(st, "red", "move R2 to 0102").orders)
    assert "enters the field on turn 2" in errors[0].message
    st, _ = run(st, "pass")
    st, _ = run(st, "pass")  # blue
    st2, ev = run(st, "move R2 to 0102\nfire R2 at B1")
    assert kinds(ev, "arrived")[0]["at"] == "0101" and st2["units"]["R2"]["hex"] == "0101"
    reasons = [f["reason"] for f in kinds(ev, "order_failed")]
    assert "R2 has already moved this turn" in reasons[0] and "may not fire" in reasons[1]
    blocked = setp(setp(st, "B1", hex="0101"), "R1", hex="0707")
    st3, ev = run(blocked, "pass")
    assert kinds(ev, "arrival_delayed") and st3["units"]["R2"]["status"] == "reserve"


# -- settings and scenarios NW-54..58 --------------------------------------------------------------


def test_optional_troops_need_the_players_agreement():
    with pytest.raises(ScenarioError, match="NW-54"):
        battle([unit("R1", "red", "dragoons", "0101"), unit("B1", "blue", "infantry", "0808")])
    with pytest.raises(ScenarioError, match="cavalry_leaders"):
        battle(
            [unit("R1", "red", "infantry", "0101"), unit("B1", "blue", "infantry", "0808")],
            leaders=[leader("L", "red", "0101", arm="cavalry")],
        )
    with pytest.raises(ScenarioError, match="not one of|optional troop"):
        battle([unit("R1", "red", "infantry", "0101"), unit("B1", "blue", "infantry", "0808")], options=["elephants"])


def test_quatre_bras_changes():
    sc = load("quatre_bras")
    cuirassiers = [u for u in sc["units"] if u["arm"] == "heavy_cavalry" and u["side"] == "red"]
    assert len(cuirassiers) == 2 and all(u["figures"] == 3 for u in cuirassiers)  # NW-56
    assert any(x["side"] == "red" and x["level"] == 2 for x in sc["leaders"])  # NW-58
    raw = builtin("quatre_bras")
    raw["options"] = ["light_infantry", "skirmishers"]
    raw["units"].append(
        {"id": "A10", "side": "blue", "arm": "skirmishers", "figures": 2, "at": "0101", "nation": "British"}
    )
    with pytest.raises(ScenarioError, match="only one of light_infantry, skirmishers"):  # NW-57
        load(raw)


def test_quatre_bras_opens_with_a_zero_point_allied_turn():
    from rules.napoleon.testing import start

    st = start("quatre_bras")
    assert st["side"] == "blue" and st["opening"]
    errors = RS.validate(st, "blue", RS.parse_orders(st, "blue", "fire A7 at F6\nmove A2 to 0704").orders)
    assert [e.line for e in errors] == [1, 2] and all("NW-55" in e.message for e in errors)
    st2, ev = run(st, "road A1 to 0604\nmove WEL to 0703")
    assert st2["units"]["A1"]["hex"] == "0604" and st2["leaders"]["WEL"]["hex"] == "0703"
    assert not kinds(ev, "points_rolled")
    assert st2["side"] == "red" and not st2["opening"] and st2["turn"] == 1


# -- version 2 (issue 33): NW-51's "3 - 3 = 0" and NW-42; version 1 games keep 0.2.0's rules ---------


def _as_version_1(state):
    """A game set up by version 1 (0.2.0): its scenario records no rules version."""
    return {**state, "scenario": {k: v for k, v in state["scenario"].items() if k != "rules_version"}}


def _moved_horse_guns_at_a_gun_in_a_wood():
    """The seed's own example (NW-51): horse artillery of 3 that moved, firing at extended range at a
    unit in cover: 3 dice, -3."""
    units = [unit("H1", "red", "horse_artillery", "0402", 3), unit("B1", "blue", "infantry", "0406")]
    return battle(units, hexes={"0403": {"elevation": 1}, "0406": {"terrain": "forest"}}, options=["horse_artillery"])


def test_nw_51_an_attack_left_with_no_dice_is_not_made_and_not_paid_for():
    st = _moved_horse_guns_at_a_gun_in_a_wood()
    assert st["scenario"]["rules_version"] == 2 and RS.version == 2
    after, ev = run(st, "move H1 to 0403\nfire H1 at B1", rolls=[6, 6, 6])
    assert not kinds(ev, "attacked")
    why = kinds(ev, "order_failed")[0]["reason"]
    assert "would roll 0 dice" in why and "NW-51" in why
    assert after["units"]["B1"]["figures"] == 4


def test_nw_51_a_version_1_game_still_rolls_one_die():
    st = _as_version_1(_moved_horse_guns_at_a_gun_in_a_wood())
    _, ev = run(st, "move H1 to 0403\nfire H1 at B1", rolls=[6, 6, 6])
    a = kinds(ev, "attacked")[0]
    assert a["dice"] == 1 and a["hits"] == 1


def _cavalry_with_an_infantry_leader():
    return battle(
        [unit("C1", "red", "cavalry", "0601", 3), unit("B1", "blue", "infantry", "0604")],
        leaders=[leader("L1", "red", "0601", level=2, arm="infantry")],
    )


def test_nw_42_an_infantry_leader_makes_no_cavalry_charge_cheaper():
    _, ev = run(_cavalry_with_an_infantry_leader(), "charge C1 B1", rolls=[6] * 8)
    assert kinds(ev, "moved")[0]["cost"] == 2
    # a cavalry leader still does (NW-37)
    st = battle(
        [unit("C1", "red", "cavalry", "0601", 3), unit("B1", "blue", "infantry", "0604")],
        leaders=[leader("L2", "red", "0601", level=2, arm="cavalry")],
        options=["cavalry_leaders"],
    )
    assert kinds(run(st, "charge C1 B1", rolls=[6] * 8)[1], "moved")[0]["cost"] == 1


def test_nw_42_a_version_1_game_keeps_the_infantry_leaders_discount():
    _, ev = run(_as_version_1(_cavalry_with_an_infantry_leader()), "charge C1 B1", rolls=[6] * 8)
    assert kinds(ev, "moved")[0]["cost"] == 1


def test_moving_a_version_1_game_on_records_version_2_in_its_scenario():
    st = _as_version_1(_cavalry_with_an_infantry_leader())
    assert RS.unrecorded_version(st) == 1
    moved = RS.pinned(2).carry_over(st, 1)
    assert moved["scenario"]["rules_version"] == 2 and RS.unrecorded_version(moved) == 2
    assert kinds(run(moved, "charge C1 B1", rolls=[6] * 8)[1], "moved")[0]["cost"] == 2


def test_nw_51_the_refusal_reads_back_into_the_readers_language():
    """The log keeps the refusal in English; its description marks it again for translation."""
    _, ev = run(_moved_horse_guns_at_a_gun_in_a_wood(), "move H1 to 0403\nfire H1 at B1", rolls=[6, 6, 6])
    failed = next(e for e in ev if e.type.endswith("order_failed"))
    text = RS.describe_event(failed.type, failed.payload)
    reason = text.params["reason"]
    assert reason.msgid == combat.NO_DICE_LEFT and reason.params == {"unit": "H1", "dice": "0"}

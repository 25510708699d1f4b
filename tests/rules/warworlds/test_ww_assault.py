"""Storming buildings, boarding and capturing machines (WW-32, WW-44..50) and ramming (WW-51 house)."""

from rules.warworlds.activate import fight, ram
from rules.warworlds.battle import Battle
from rules.warworlds.orders import parse_line
from rules.warworlds.testing import Loaded, battle, play_round


def inf(uid, side, at, n=10, **kw):
    return {"id": uid, "side": side, "profile": "infantry", "at": at, "models": {"rifle": n}, **kw}


def kinds(b):
    return [e.type.split(".", 1)[1] for e in b.events]


def _with_building(units, reinforced, entrances):
    st = battle(units, hexes={"0304": {"terrain": "building"}}, rnd="melee")
    sc = {**st["scenario"], "buildings": {"0304": {"entrances": entrances, "reinforced": reinforced}}}
    return {**st, "scenario": sc}


def test_reinforced_door_holds_on_7_and_one_try_a_turn():
    st = _with_building([inf("R1", "red", "0303"), inf("R2", "red", "0404"), inf("B1", "blue", "0304", 3)], True, 2)
    b = Battle(st, Loaded([7]))
    fight(b, parse_line(1, "storm R1 B1"))
    assert "door_forced" in kinds(b) and "entered" not in kinds(b)
    assert b.state["doors"]["0304"] == {"open": False, "tried": {"red": 1}}
    fight(b, parse_line(2, "storm R2 B1"))
    assert "order_failed" in kinds(b)[-3:] or any("already tried" in e.payload.get("reason", "") for e in b.events)


def test_storm_d3_per_entrance_and_taking_the_building():
    st = _with_building([inf("R1", "red", "0303"), inf("B1", "blue", "0304", 1)], True, 2)
    # door 8 opens; D3s 3 and 2 → 5 inside; 5 melee attacks all hit (10), the one defender fails every save (1)
    b = Battle(st, Loaded([8, 3, 2] + [10, 1] * 5))
    fight(b, parse_line(1, "storm R1 B1"))
    entered = [e.payload for e in b.events if e.type.endswith("entered")][0]
    assert entered["soldiers"] == 5 and entered["d3"] == [3, 2]
    assert b.unit("B1")["status"] == "destroyed"
    assert b.unit("R1")["hex"] == "0304"  # the stormers take the building


def test_stormers_who_fail_must_come_out():
    st = _with_building([inf("R1", "red", "0303"), inf("B1", "blue", "0304", 10)], False, 1)
    # 3 get in; all 3 attacks miss (1); ten defenders strike back: all miss (1); coming out D3 = 1: two stay inside
    b = Battle(st, Loaded([3] + [1] * 3 + [1] * 10 + [1]))
    fight(b, parse_line(1, "storm R1 B1"))
    out = [e.payload for e in b.events if e.type.endswith("came_out")][0]
    assert out["out"] == 1 and len(out["lost"]) == 2
    assert len(b.unit("R1")["models"]) == 8 and b.unit("R1")["hex"] == "0303"


def test_boarding_a_stationary_abandoned_machine_captures_it():
    st = battle(
        [
            inf("R1", "red", "0303"),
            {"id": "B1", "side": "blue", "profile": "light_vehicle", "at": "0304"},
            inf("B2", "blue", "0808"),
        ],
        rnd="melee",
    )
    st["units"]["B1"] = {**st["units"]["B1"], "crew": [], "status": "abandoned"}
    b = Battle(st, Loaded([2]))  # light vehicle: no armoured hatch; D3 = 2 get in
    fight(b, parse_line(1, "board R1 B1"))
    m = b.unit("B1")
    assert m["side"] == "red" and m["status"] == "active" and m["crew"] == ["driver", "gunner"]
    assert len(b.unit("R1")["models"]) == 8
    from rules.warworlds.turn import score

    assert score(b.state)["red"] == 5  # the captured car counts for its captor


def test_boarding_a_moving_machine_needs_agility():
    st = battle(
        [
            inf("R1", "red", "0303"),
            {"id": "B1", "side": "blue", "profile": "light_vehicle", "at": "0304"},
            inf("B2", "blue", "0808"),
        ],
        rnd="melee",
    )
    st["units"]["B1"] = {**st["units"]["B1"], "moved": 3}
    # D3 = 2 try; agility 8+ (moved 3, WW-50): 7 fails (save roll 1: lost), 8 passes; the one inside fights the crew
    b = Battle(st, Loaded([2, 7, 1, 8]))
    fight(b, parse_line(1, "board R1 B1"))
    ag = [e.payload for e in b.events if e.type.endswith("agility")][0]
    assert ag["need"] == 8 and ag["failed"] == 1 and ag["lost"] == 1


def test_heavy_machine_hatch_and_automaton_cannot_be_boarded():
    st = battle(
        [
            inf("R1", "red", "0303"),
            {"id": "B1", "side": "blue", "profile": "tank", "at": "0304"},
            {"id": "B2", "side": "blue", "profile": "automaton", "at": "0302"},
        ],
        rnd="melee",
    )
    b = Battle(st, Loaded([5]))
    fight(b, parse_line(1, "board R1 B1"))
    assert [e.payload["open"] for e in b.events if e.type.endswith("door_forced")] == [False]
    from rules.warworlds import RULESET as RS

    errs = RS.validate(st, "red", RS.parse_orders(st, "red", "board R1 B2").orders)
    assert "automaton" in errs[0].message


def test_ramming_a_squad():
    st = battle([{"id": "R1", "side": "red", "profile": "tank", "at": "0101"}, inf("B1", "blue", "0104", 10)])
    b = Battle(st, Loaded([10, 1] * 4))  # 2 hexes at speed → 4 attacks of strength 5, all hit, all unsaved
    ram(b, parse_line(1, "ram R1 B1"))
    rammed = [e.payload for e in b.events if e.type.endswith("rammed")][0]
    assert rammed["moved"] == 2
    assert len(b.unit("B1")["models"]) == 6
    assert any(e.payload.get("factor") == 4 for e in b.events if e.type.endswith("fear_test"))


def test_panicked_garrison_with_every_entrance_held_surrenders():
    st = _with_building(
        [inf("R1", "red", "0303"), inf("B1", "blue", "0304", 3, morale=1), inf("B2", "blue", "0808")], True, 1
    )
    st = {**st, "round": "movement"}
    st2, ev = play_round(st, {"red": "", "blue": ""}, 1)
    assert st2["units"]["B1"]["status"] == "surrendered"

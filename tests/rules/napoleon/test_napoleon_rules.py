"""Napoleon's War (seed 003) on the hex engine: the worked examples NW-EX-1, 2, 3, 5, the derived
tests NW-DT-1..5 and the NW rules one by one, on hand-made battles with loaded dice."""

from rules.core.protocol import Viewer
from rules.hex import coords as C
from rules.napoleon import RULESET as RS
from rules.napoleon.battle import Battle
from rules.napoleon.data import extra_caps
from rules.napoleon.testing import Loaded, battle, fold_all


def unit(uid, side, arm, at, figures=4, nation=None):
    return {
        "id": uid,
        "side": side,
        "arm": arm,
        "at": at,
        "figures": figures,
        "nation": nation or ("French" if side == "red" else "Allied"),
    }


def leader(lid, side, at, level=2, arm="infantry", nation=None):
    return {
        "id": lid,
        "side": side,
        "at": at,
        "level": level,
        "arm": arm,
        "nation": nation or ("French" if side == "red" else "Allied"),
    }


def run(state, text, rolls=(), seed=0):
    parsed = RS.parse_orders(state, state["side"], text)
    assert not parsed.errors, parsed.errors
    assert not RS.validate(state, state["side"], parsed.orders)
    events = RS.adjudicate(state, {state["side"]: parsed.orders}, Loaded(rolls, seed))
    return fold_all(state, events), events


def kinds(events, k):
    return [e.payload for e in events if e.type == "napoleon." + k]


def stream_below(row, cols=8, rows=8, feature="stream"):
    """A stream along the whole map between ``row`` and ``row + 1`` (1-based)."""
    out = {}
    for h in C.iter_rect(cols, rows):
        for n in C.neighbours(h):
            if C.to_offset(h)[1] + 1 == row and C.to_offset(n)[1] + 1 == row + 1 and 0 <= C.to_offset(n)[0] < cols:
                out[f"{C.label(h)}/{C.label(n)}"] = feature
    return out


def setp(state, uid, **patch):
    return {**state, "units": {**state["units"], uid: {**state["units"][uid], **patch}}}


# -- command points: NW-8, NW-EX-1, NW-EX-2 --------------------------------------------------------


def test_extra_points_are_half_the_die_rounded_up():
    assert [extra_caps(d) for d in range(1, 7)] == [1, 1, 2, 2, 3, 3]


def test_nw_ex_1_three_points_spent_then_a_5_gives_three_more():
    units = [unit(f"R{i}", "red", "infantry", f"01{i:02d}") for i in range(1, 8)]
    units.append(unit("B1", "blue", "infantry", "0808"))
    st = battle(units, caps={"red": 3, "blue": 3})
    text = "\n".join(f"move R{i} to 02{i:02d}" for i in range(1, 8))
    st, ev = run(st, text, rolls=[5])
    rolled = kinds(ev, "points_rolled")
    assert rolled == [{"side": "red", "die": 5, "extra": 3, "spent": 3, "available": 6, "left": 3}]
    assert [p["unit"] for p in kinds(ev, "moved")] == [f"R{i}" for i in range(1, 7)]  # 3 + 3
    assert kinds(ev, "points_exhausted")[0]["not_done"] == ["move R7 to 0207"]
    # the roll comes after the third point, not before
    order = [e.type.split(".")[1] for e in ev if e.type.split(".")[1] in ("moved", "points_rolled")]
    assert order.index("points_rolled") == 3


def test_nw_ex_2_a_borrowed_point_is_covered_by_the_roll_and_nothing_costly_follows():
    # 4 points: three 1-point moves, then a 2-point action (guns across a stream, NW-14): 5 spent,
    # 1 borrowed; the die shows 2: one extra point, already spent.
    units = [
        unit("R1", "red", "infantry", "0101"),
        unit("R2", "red", "infantry", "0102"),
        unit("R3", "red", "infantry", "0103"),
        unit("G1", "red", "artillery", "0505", 3),
        unit("R4", "red", "infantry", "0104"),
        unit("R5", "red", "infantry", "0106"),
        unit("B1", "blue", "infantry", "0808"),
    ]
    st = battle(
        units,
        caps={"red": 4, "blue": 4},
        sides={"0505/0506": "stream"},
        hexes={"0201": {"road": True}, "0301": {"road": True}, "0104": {"road": True}, "0204": {"road": True}},
    )
    text = "move R1 to 0201\nmove R2 to 0202\nmove R3 to 0203\nmove G1 to 0506\nroad R4 to 0204\nmove R5 to 0206"
    st, ev = run(st, text, rolls=[2])
    assert [p["unit"] for p in kinds(ev, "moved")] == ["R1", "R2", "R3", "G1", "R4"]
    assert kinds(ev, "points_exhausted")[0]["not_done"] == ["move R5 to 0206"]
    assert kinds(ev, "points_rolled") == [{"side": "red", "die": 2, "extra": 1, "spent": 5, "available": 5, "left": 0}]
    assert st["units"]["G1"]["hex"] == "0506"
    # only actions that cost nothing remain: the free road hex is done, the next move is not
    assert st["units"]["R4"]["hex"] == "0204" and st["units"]["R5"]["hex"] == "0106"


def test_no_more_than_one_point_is_borrowed_before_the_roll():
    units = [
        unit("R1", "red", "infantry", "0101"),
        unit("G1", "red", "artillery", "0505", 3),
        unit("B1", "blue", "infantry", "0808"),
    ]
    st = battle(units, caps={"red": 1, "blue": 1}, sides={"0505/0506": "stream"})
    # 0 spent of 1, a 2-point action borrows one: allowed; then the roll
    st2, ev = run(st, "move G1 to 0506", rolls=[6])
    assert kinds(ev, "points_rolled")[0]["spent"] == 2 and st2["units"]["G1"]["hex"] == "0506"
    st3 = battle(units, caps={"red": 0, "blue": 1}, sides={"0505/0506": "stream"})
    _, ev = run(st3, "move R1 to 0201\nmove G1 to 0506")
    assert kinds(ev, "points_exhausted")[0]["not_done"] == ["move R1 to 0201", "move G1 to 0506"]
    assert not kinds(ev, "points_rolled")  # 0 points: no die (NW-55's 0-point turn)


def test_an_illegal_action_is_reported_costs_nothing_and_the_list_goes_on():
    st = battle(
        [
            unit("R1", "red", "infantry", "0101"),
            unit("R2", "red", "infantry", "0103"),
            unit("B1", "blue", "infantry", "0808"),
        ],
        caps={"red": 1, "blue": 1},
    )
    st, ev = run(st, "move R1 to 0505\nmove R2 to 0104", rolls=[1])
    assert "cannot reach 0505" in kinds(ev, "order_failed")[0]["reason"]
    assert st["units"]["R2"]["hex"] == "0104"


# -- fire: NW-EX-3, NW-5..7, 15..19 -------------------------------------------------------------------


def test_nw_ex_3_artillery_point_blank_at_a_square_in_the_open_rolls_five_dice_hitting_on_5():
    st = battle([unit("G1", "red", "artillery", "0404", 3), unit("B1", "blue", "infantry", "0405")])
    st = setp(st, "B1", square=True)
    st, ev = run(st, "fire G1 at B1", rolls=[5, 5, 4, 3, 2])
    a = kinds(ev, "attacked")[0]
    assert a["dice"] == 5 and a["hit_on"] == 5 and a["hits"] == 2
    assert sorted(v for _, v in a["mods"]) == [1, 1]


def test_artillery_extended_range_only_from_a_hill_at_a_lower_target():
    units = [unit("G1", "red", "artillery", "0401", 3), unit("B1", "blue", "infantry", "0405")]
    st = battle(units)  # 4 hexes, on flat ground: out of reach
    assert "only from a hill" in kinds(run(st, "fire G1 at B1")[1], "order_failed")[0]["reason"]
    st = battle(units, hexes={"0401": {"elevation": 1}})
    _, ev = run(st, "fire G1 at B1", rolls=[6, 6])
    a = kinds(ev, "attacked")[0]
    assert a["dice"] == 2 and a["hit_on"] == 6 and ["extended range", -1] in a["mods"]  # NW-15, NW-46
    st = battle(units, hexes={"0401": {"elevation": 1}, "0405": {"elevation": 1}})
    assert "lower target" in kinds(run(st, "fire G1 at B1")[1], "order_failed")[0]["reason"]  # NW-6


def test_horse_artillery_reaches_3_from_a_hill_and_fires_after_moving_with_one_die_less():
    units = [unit("H1", "red", "horse_artillery", "0402", 3), unit("B1", "blue", "infantry", "0406")]
    st = battle(units, hexes={"0403": {"elevation": 1}}, options=["horse_artillery"])
    _, ev = run(st, "move H1 to 0403\nfire H1 at B1", rolls=[6, 6, 6])
    a = kinds(ev, "attacked")[0]
    assert a["dice"] == 1 and ["fired after moving", -1] in a["mods"] and ["extended range", -1] in a["mods"]


def test_infantry_fires_at_two_hexes_from_the_ground_with_one_die_less_hitting_on_6():
    st = battle([unit("R1", "red", "infantry", "0403"), unit("B1", "blue", "infantry", "0405")])
    _, ev = run(st, "fire R1 at B1", rolls=[6, 5, 1])
    a = kinds(ev, "attacked")[0]
    assert a["dice"] == 3 and a["hit_on"] == 6 and a["hits"] == 1


def test_line_infantry_may_not_fire_after_moving():
    st = battle([unit("R1", "red", "infantry", "0402"), unit("B1", "blue", "infantry", "0405")])
    _, ev = run(st, "move R1 to 0403\nfire R1 at B1")
    assert "may not fire" in kinds(ev, "order_failed")[0]["reason"]


def test_no_fire_at_a_distant_enemy_with_one_adjacent_and_the_two_unit_exception():
    units = [
        unit("R1", "red", "infantry", "0404"),
        unit("R2", "red", "infantry", "0404"),
        unit("B1", "blue", "infantry", "0405"),
        unit("B2", "blue", "infantry", "0402"),
    ]
    st = battle(units)
    _, ev = run(st, "fire R2 at B2")
    assert "NW-16" in kinds(ev, "order_failed")[0]["reason"]
    _, ev = run(st, "melee R1 B1\nfire R2 at B2", rolls=[1, 1] + [6, 6, 6])
    assert [a["by"] for a in kinds(ev, "attacked")] == ["R1", "R2"]
    lone = battle(
        [
            unit("R2", "red", "infantry", "0404"),
            unit("B1", "blue", "infantry", "0405"),
            unit("B2", "blue", "infantry", "0402"),
            unit("B3", "blue", "infantry", "0403"),
        ]
    )
    assert "NW-16" in kinds(run(lone, "fire R2 at B2")[1], "order_failed")[0]["reason"]


def test_cover_and_high_ground_cost_a_die_each_and_cumulate():
    st = battle(
        [unit("R1", "red", "infantry", "0404"), unit("B1", "blue", "infantry", "0405")],
        hexes={"0405": {"terrain": "forest", "elevation": 1}},
    )
    a = kinds(run(st, "fire R1 at B1", rolls=[6, 6])[1], "attacked")[0]
    assert a["dice"] == 2 and {r for r, _ in a["mods"]} == {"target on high ground", "target in cover"}


def test_sight_along_a_hex_border_is_the_same_both_ways_and_old_games_keep_theirs():
    """0102 and 0203 look along the border of 0103 and 0202; a forest on one side does not block
    (the lenient rule), both ways. A game set up before line-of-sight versions keeps the old
    one-way answer, so its stored turns re-adjudicate to the same events."""
    st = battle(
        [unit("R1", "red", "infantry", "0102"), unit("B1", "blue", "infantry", "0203")],
        hexes={"0103": {"terrain": "forest"}},
    )
    assert st["scenario"]["los_version"] == 2
    assert RS.view(st, Viewer("player", "blue"))["scenario"]["los_version"] == 2
    b = Battle(st, Loaded([]))
    assert b.sees(C.parse_label("0102"), C.parse_label("0203")) and b.sees(C.parse_label("0203"), C.parse_label("0102"))
    assert kinds(run(st, "fire R1 at B1", rolls=[6, 6])[1], "attacked")
    old = {**st, "scenario": {k: v for k, v in st["scenario"].items() if k != "los_version"}}
    assert RS.view(old, Viewer("player", "blue"))["scenario"]["los_version"] == 1
    b = Battle(old, Loaded([]))
    assert b.sees(C.parse_label("0102"), C.parse_label("0203")) and not b.sees(
        C.parse_label("0203"), C.parse_label("0102")
    )


# -- movement: NW-EX-5, NW-9..14, NW-38 ----------------------------------------------------------------


def test_nw_ex_5_cavalry_crosses_a_stream_and_goes_one_hex_further_but_stops_in_forest():
    units = [unit("C1", "red", "cavalry", "0402", 3), unit("B1", "blue", "infantry", "0808")]
    st = battle(units, sides=stream_below(2))
    st2, ev = run(st, "move C1 to 0404")
    assert kinds(ev, "moved")[0]["path"] == ["0402", "0403", "0404"]
    assert "cannot reach" in kinds(run(st, "move C1 to 0405")[1], "order_failed")[0]["reason"]
    forest = battle(units, sides=stream_below(2), hexes={"0403": {"terrain": "forest"}})
    assert "cannot reach 0404" in kinds(run(forest, "move C1 to 0404")[1], "order_failed")[0]["reason"]


def test_artillery_crosses_a_stream_only_from_its_bank_for_two_points():
    st = battle(
        [unit("G1", "red", "artillery", "0402", 3), unit("B1", "blue", "infantry", "0808")],
        sides={"0402/0403": "stream"},
        caps={"red": 6, "blue": 6},
    )
    st2, ev = run(st, "move G1 to 0403")
    assert kinds(ev, "moved")[0]["cost"] == 2
    assert st2["units"]["G1"]["hex"] == "0403"
    # not from further back: 0401 -> 0403 is two hexes and a stream
    st = battle(
        [unit("G1", "red", "artillery", "0401", 3), unit("B1", "blue", "infantry", "0808")],
        sides={"0402/0403": "stream"},
    )
    assert "cannot reach" in kinds(run(st, "move G1 to 0403")[1], "order_failed")[0]["reason"]


def test_nw_dt_3_road_bonus_hex_its_conditions_and_the_end_of_the_units_turn():
    road = {f"01{r:02d}": {"road": True} for r in range(1, 9)}
    units = [unit("R1", "red", "infantry", "0101"), unit("B1", "blue", "infantry", "0808")]
    st = battle(units, hexes=road)
    st2, ev = run(st, "move R1 to 0103\nfire R1 at B1")
    assert kinds(ev, "moved")[0]["done"] and st2["units"]["R1"]["hex"] == "0103"  # 1 MP + the free hex
    assert "NW-12" in kinds(ev, "order_failed")[0]["reason"]
    # an enemy next to the road: no bonus (NW-10)
    st = battle([unit("R1", "red", "infantry", "0101"), unit("B1", "blue", "infantry", "0203")], hexes=road)
    assert "cannot reach" in kinds(run(st, "move R1 to 0103")[1], "order_failed")[0]["reason"]
    # a friend on the road: no bonus (NW-9)
    st = battle(units + [unit("R2", "red", "infantry", "0102")], hexes=road)
    assert "cannot reach" in kinds(run(st, "move R1 to 0103")[1], "order_failed")[0]["reason"]
    # the free road hex alone costs nothing
    st = battle(units, hexes=road, caps={"red": 0, "blue": 0})
    st2, ev = run(st, "road R1 to 0102")
    assert st2["units"]["R1"]["hex"] == "0102" and kinds(ev, "moved")[0]["cost"] == 0


def test_a_leader_moves_free_three_points_like_cavalry():
    st = battle(
        [unit("R1", "red", "infantry", "0101"), unit("B1", "blue", "infantry", "0808")],
        leaders=[leader("L1", "red", "0101")],
        caps={"red": 0, "blue": 0},
    )
    st2, ev = run(st, "move L1 to 0104")
    assert st2["leaders"]["L1"]["hex"] == "0104" and not kinds(ev, "points_exhausted")
    assert "3 movement points" in kinds(run(st, "move L1 to 0105")[1], "order_failed")[0]["reason"]

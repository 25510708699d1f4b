"""Little Wars version 3 (Kriegspiel 4): a team's merge keeps a command's own follow-up lines (LW-61, KS-9).

A command that splits a group and orders the new group in the same turn (``split foot1 2 as
scouts`` then ``move scouts …``; in the Kriegspiel ``split foot1 2 as sappers`` then ``mine
sappers at …``) had its second line dropped as a "conflict" with itself. Games laid before keep
that merge (the golden logs re-adjudicate their turns with it).
"""

import random

import pytest

from rules.kriegspiel.ruleset import RULESET as KS
from rules.kriegspiel.version import ks_version
from rules.littlewars.ruleset import RULESET as LW
from rules.littlewars.version import lw_version
from tests.rules.littlewars.test_lw_teams import fold_all, play_until, team_game

SPLIT_THEN_MOVE = "split foot1 2 as scouts\nmove scouts to 20,8"


def laid_before_version_3(state):
    """The same table as laid by Little Wars 2 / Kriegspiel 3 (no lw_version in its table_laid)."""
    old = {k: v for k, v in state.items() if k != "lw_version"}
    if "ks" in old:
        old["ks"] = {**old["ks"], "rules_version": 3}
    return old


@pytest.mark.parametrize("rs,base", [(LW, "skirmish"), (KS, "ks_farm")])
def test_new_games_record_the_little_wars_version(rs, base):
    state = team_game(rs, base)
    assert lw_version(state) == 3
    assert rs.unrecorded_version(state) == rs.version
    if rs is KS:
        assert ks_version(state) == 4


@pytest.mark.parametrize("command", ["infantry", "commander"])
def test_a_command_orders_the_group_it_splits_off_in_the_same_turn(command):
    state = play_until(LW, team_game())
    text, conflicts = LW.merge_orders(state, "red", {command: SPLIT_THEN_MOVE, "cavalry": "hold"})
    assert conflicts == []
    assert text.splitlines()[1:] == SPLIT_THEN_MOVE.splitlines()
    orders = {"red": LW.parse_orders(state, "red", text).orders, "blue": ()}
    assert not LW.validate(state, "red", orders["red"])
    after = fold_all(state, LW.adjudicate(state, orders, random.Random(2)))
    scouts = after["groups"]["red"]["scouts"]
    assert scouts and all(after["figures"][f]["y"] != state["figures"][f]["y"] for f in scouts)


def test_another_commands_line_on_the_split_group_is_still_a_conflict():
    state = play_until(LW, team_game())
    text, conflicts = LW.merge_orders(state, "red", {"commander": SPLIT_THEN_MOVE, "infantry": "move scouts to 5,5"})
    assert conflicts == [{"unit": "scouts", "kept": "commander", "dropped": "infantry", "line": "move scouts to 5,5"}]
    assert "move scouts to 5,5" not in text


def test_kriegspiel_sappers_split_off_lay_their_mine():
    state = play_until(KS, team_game(KS, "ks_farm"))
    x, y = (state["figures"][f][k] for f in state["groups"]["red"]["foot1"][:1] for k in ("x", "y"))
    lines = f"split foot1 2 as sappers nearest {x:g},{y:g}\nmine sappers at {x:g},{y:g}"
    text, conflicts = KS.merge_orders(state, "red", {"infantry": lines})
    assert conflicts == [] and f"mine sappers at {x:g},{y:g}" in text
    orders = {"red": KS.parse_orders(state, "red", text).orders, "blue": ()}
    assert not KS.validate(state, "red", orders["red"])
    after = fold_all(state, KS.adjudicate(state, orders, random.Random(2)), KS)
    assert any(w["kind"] == "mine" and w["side"] == "red" for w in after["ks"]["works"].values())


@pytest.mark.parametrize("rs,base", [(LW, "skirmish"), (KS, "ks_farm")])
def test_games_laid_before_keep_the_old_merge(rs, base):
    state = laid_before_version_3(play_until(rs, team_game(rs, base)))
    assert lw_version(state) == 2
    text, conflicts = rs.merge_orders(state, "red", {"infantry": SPLIT_THEN_MOVE})
    assert [c["line"] for c in conflicts] == ["move scouts to 20,8"]
    assert "move scouts" not in text


@pytest.mark.parametrize("rs,base", [(LW, "skirmish"), (KS, "ks_farm")])
def test_a_game_laid_before_moves_on_to_the_new_merge(rs, base):
    state = rs.carry_over(laid_before_version_3(team_game(rs, base)), 2)
    assert lw_version(state) == 3 and rs.unrecorded_version(state) == rs.version

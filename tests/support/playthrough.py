"""Whole games through the REST API by two scripted players, for every rule set in the catalogue
whose ``rules/<set>/testing.py`` offers them (issue 33): ``bot_orders(state, side)``, a player that
writes clean orders, and ``state_from_view(view)``, the position a side's own view rebuilds. A rule
set that lacks either is skipped, with the reason (``why_not_scripted``); none is named here.

bob plays red and carol blue (alice umpires, and never has to act). Each scripted player knows only
what the API shows it: it rebuilds a position from its own board (GET .../view/, through the rule
set's ``state_from_view``), lets the rule set's bot write legal orders for it (or, in a turn of
another kind than orders, such as a Civil War decision, the rule set's own default orders for it, as
the conformance kit does), and sends them; the server must accept them as they are. The API
play-through test (tests/api/test_playthrough_api.py), the same games on a real worker
(tests/platform) and the pages and mail built on such games all start here.

A finished game is checked the same way for every rule set (``check_scored_end``): its result, every
player's board, the one game-over event and the verified log; a rule set's testing module may add its
own reading of the result, ``check_result(result, board)``.
"""

from __future__ import annotations

import contextlib
import importlib
import json
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from campaigns.turns.gamelog import verify_game
from rules import catalog
from tests.support.api import client_for
from tests.support.games import new_game_with_people

PLAYERS = {"red": "bob", "blue": "carol"}
# Most platform turns a shipped scenario may take (a War of the Worlds mail round, a Kings of War player
# turn is one), one generous bound for all (the per-rule-set limits it replaces were 30 to 90).
TURN_LIMIT = 150
SCRIPTED = ("bot_orders", "state_from_view")  # what a rule set's testing module offers a scripted player


def campaign_name(ruleset: str) -> str:
    """The rule set's title less its note: "Little Wars (H. G. Wells)" is "Little Wars"."""
    return str(catalog.get(ruleset).title).split(" (")[0]


# ruleset: (its testing module, campaign name, most turns a shipped scenario may take), for every rule set
GAMES: dict[str, tuple[ModuleType, str, int]] = {
    name: (importlib.import_module(f"rules.{name}.testing"), campaign_name(name), TURN_LIMIT)
    for name in catalog.names()
}


def why_not_scripted(ruleset: str) -> str | None:
    """Why the rule set cannot be played by scripted players through the API (None: it can)."""
    bots = GAMES[ruleset][0]
    missing = [name for name in SCRIPTED if not callable(getattr(bots, name, None))]
    if missing:
        return f"rules.{ruleset}.testing offers no {' and no '.join(missing)}: no scripted player knows its view"
    return None


def scenarios(ruleset: str) -> list[str | None]:
    """The rule set's shipped scenarios by name (None: the one it sets up by default)."""
    listed: list[str | None] = [name for name, _ in catalog.get(ruleset).scenarios()]
    return listed or [None]


def catalogue_games() -> list[tuple[str, str | None, str | None]]:
    """(rule set, scenario, why it cannot be played or None) for every scenario of every rule set."""
    return [(name, scenario, why_not_scripted(name)) for name in catalog.names() for scenario in scenarios(name)]


def new_game(people, ruleset: str, scenario):
    return new_game_with_people(people, ruleset, scenario, GAMES[ruleset][1])


def view(client, game) -> dict:
    resp = client.get(f"/api/games/{game.pk}/view/")
    assert resp.status_code == 200, resp.content
    return resp.json()


def scripted_orders(ruleset: str, board: dict, side: str, kind: str) -> str:
    """What the scripted player of ``side`` sends, knowing only its own ``board``."""
    bots = GAMES[ruleset][0]
    state = bots.state_from_view(board)
    if kind == "orders":
        return str(bots.bot_orders(state, side))
    return str(catalog.get(ruleset).default_orders(state, side, kind))


def play_through_api(game, people, submit=contextlib.nullcontext, wait=None) -> dict:
    """Every side to order orders, turn after turn, until the game is over; the last turn view.

    ``submit``: a context manager around each POST (e.g. running the on-commit adjudication in
    process); ``wait(game, number)``: blocks until turn ``number`` is no longer open (a real worker)."""
    why = why_not_scripted(game.ruleset)
    assert why is None, why
    limit = GAMES[game.ruleset][2]
    clients = {side: client_for(people[name]) for side, name in PLAYERS.items()}
    for _ in range(limit):
        turn = view(clients["red"], game)["turn"]
        if turn["game_status"] != "active":
            return turn
        assert turn["status"] == "open", turn
        for side in turn["sides"]:  # one side in an alternating game, both in a simultaneous one
            board = view(clients[side], game)["board"]
            assert side in board.get("awaiting", [side]), board.get("awaiting")
            text = scripted_orders(game.ruleset, board, side, turn["kind"])
            with submit():
                resp = clients[side].post(f"/api/games/{game.pk}/orders/", {"text": text, "ready": True}, format="json")
            assert resp.status_code == 201, (side, text, resp.content)
        if wait is not None:
            wait(game, turn["number"])
        after = view(clients["blue"], game)["turn"]
        assert after["number"] > turn["number"] or after["game_status"] != "active", (turn, after)
    raise AssertionError(f"the game did not end in {limit} turns")


def check_scored_end(game, people, turn: dict) -> dict:
    """Finished, with a whole result (``check_result``), the same on every player's board, one
    game-over event in each player's log that says the same, and a log that verifies (hash chain,
    snapshots, re-adjudication from the revealed seeds)."""
    result = turn["result"]
    assert turn["game_status"] == "finished" and result is not None, turn
    check_result(game.ruleset, result)
    bots = GAMES[game.ruleset][0]
    for name in PLAYERS.values():
        client = client_for(people[name])
        board = view(client, game)["board"]
        assert board["phase"] == "over"
        shown = board["result"]
        assert shown["winner"] == result["winner"] and shown["reason"] == result["reason"], (shown, result)
        assert {k: v for k, v in result.items() if k in shown} == shown, (shown, result)  # what it shows agrees
        _one_game_over_event(client, game, result)
        if hasattr(bots, "check_result"):  # the rule set's own reading of its result
            bots.check_result(result, board)
    report = verify_game(game)
    assert report.ok, report
    return result


def check_result(ruleset: str, result: Mapping[str, Any]) -> None:
    """What every rule set's result must be: plain JSON; a winner among its sides or none; a loser,
    if named, the other side; a reason its ``describe_reason`` reads; and every score kept per side
    kept for each side. What a score sheet adds up to is the rule set's own ``check_result``."""
    rs = catalog.get(ruleset)
    sides = set(rs.sides)
    assert json.loads(json.dumps(result)) == result, result
    assert result["winner"] in (*rs.sides, None), result
    if result.get("loser") is not None:
        assert result["loser"] in sides and result["loser"] != result["winner"], result
    assert isinstance(result["reason"], str) and result["reason"].strip(), result
    assert str(rs.describe_reason(result["reason"])).strip(), result
    for per_side in _kept_per_side(result, sides):
        assert set(per_side) == sides, (per_side, result)


def _kept_per_side(value: Any, sides: set[str]) -> list[Mapping[str, Any]]:
    """Every mapping inside ``value`` keyed by one of the sides (a score per side)."""
    if not isinstance(value, Mapping):
        return [found for item in value for found in _kept_per_side(item, sides)] if isinstance(value, list) else []
    found = [value] if sides & set(value) else []
    return found + [inner for v in value.values() for inner in _kept_per_side(v, sides)]


def _one_game_over_event(client, game, result: Mapping[str, Any]) -> None:
    """The player's log has one game-over event (the rule set's ``<name>.game_over``), saying what the
    result says where it says it."""
    events = client.get(f"/api/games/{game.pk}/events/?limit=500").json()
    over = [e for e in events["results"] if e["type"].endswith(".game_over")]
    while events["next"]:  # the game_over event is near the end of the log
        events = client.get(events["next"]).json()
        over += [e for e in events["results"] if e["type"].endswith(".game_over")]
    assert len(over) == 1, over
    said = over[0]["payload"]
    assert {k: v for k, v in said.items() if k in result} == {k: result[k] for k in said if k in result}, (said, result)

"""Whole games through the REST API by two scripted players, for every rule set in the catalogue
(issue 33): its bots are its ``rules/<set>/testing.py`` (``bot_orders``, ``state_from_view``).

bob plays red and carol blue (alice umpires, and never has to act). Each scripted player knows only
what the API shows it: it rebuilds a position from its own board (GET .../view/, through the rule
set's ``state_from_view``), lets the rule set's bot write legal orders for it, and sends them; the
server must accept them as they are. The API play-through tests, the same games on a real worker
(tests/platform) and the pages and mail built on such games all start here.
"""

from __future__ import annotations

import contextlib
import importlib
from types import ModuleType

from campaigns.turns.gamelog import verify_game
from rules import catalog
from tests.support.api import client_for
from tests.support.games import new_game_with_people

PLAYERS = {"red": "bob", "blue": "carol"}
# Most platform turns a shipped scenario may take (a War of the Worlds mail round, a Kings of War player
# turn is one), one generous bound for all (the per-rule-set limits it replaces were 30 to 90).
TURN_LIMIT = 150


def campaign_name(ruleset: str) -> str:
    """The rule set's title less its note: "Little Wars (H. G. Wells)" is "Little Wars"."""
    return str(catalog.get(ruleset).title).split(" (")[0]


# ruleset: (bots, campaign name, most turns a shipped scenario may take), for every rule set in the catalogue
GAMES: dict[str, tuple[ModuleType, str, int]] = {
    name: (importlib.import_module(f"rules.{name}.testing"), campaign_name(name), TURN_LIMIT)
    for name in catalog.names()
}


def new_game(people, ruleset: str, scenario):
    return new_game_with_people(people, ruleset, scenario, GAMES[ruleset][1])


def view(client, game) -> dict:
    resp = client.get(f"/api/games/{game.pk}/view/")
    assert resp.status_code == 200, resp.content
    return resp.json()


def play_through_api(game, people, submit=contextlib.nullcontext, wait=None) -> dict:
    """Every side to order orders, turn after turn, until the game is over; the last turn view.

    ``submit``: a context manager around each POST (e.g. running the on-commit adjudication in
    process); ``wait(game, number)``: blocks until turn ``number`` is no longer open (a real worker)."""
    bots, _, limit = GAMES[game.ruleset]
    assert hasattr(bots, "state_from_view"), f"rules.{game.ruleset}.testing has no state_from_view to play by the API"
    clients = {side: client_for(people[name]) for side, name in PLAYERS.items()}
    for _ in range(limit):
        turn = view(clients["red"], game)["turn"]
        if turn["game_status"] != "active":
            return turn
        assert turn["status"] == "open", turn
        for side in turn["sides"]:  # one side in an alternating game, both in a simultaneous one
            board = view(clients[side], game)["board"]
            assert side in board.get("awaiting", [side]), board.get("awaiting")
            text = bots.bot_orders(bots.state_from_view(board), side)
            with submit():
                resp = clients[side].post(f"/api/games/{game.pk}/orders/", {"text": text, "ready": True}, format="json")
            assert resp.status_code == 201, (side, text, resp.content)
        if wait is not None:
            wait(game, turn["number"])
        after = view(clients["blue"], game)["turn"]
        assert after["number"] > turn["number"] or after["game_status"] != "active", (turn, after)
    raise AssertionError(f"the game did not end in {limit} turns")


def check_scored_end(game, people, turn: dict) -> dict:
    """Finished, with the rule set's whole result, the same in every player's view, and a log that
    verifies (hash chain, snapshots, re-adjudication from the revealed seeds)."""
    result = turn["result"]
    assert turn["game_status"] == "finished" and result is not None and result["reason"]
    SCORE_SHAPES[game.ruleset](result)
    for name in PLAYERS.values():
        client = client_for(people[name])
        board = view(client, game)["board"]
        assert board["phase"] == "over"
        if game.ruleset == "littlewars":
            assert board["result"]["scores"] == result["scores"]
            _one_game_over_event(client, game, result)
        else:
            assert board["result"] == result
    report = verify_game(game)
    assert report.ok, report
    return result


def _littlewars_scores(result: dict) -> None:
    assert set(result["scores"]) == set(PLAYERS)
    for sheet in result["scores"].values():
        parts = ("victory", "guns_points", "cavalry_points", "infantry_points", "prisoner_points")
        assert sheet["total"] == sum(sheet[part] for part in parts)
    assert sum(s["victory"] for s in result["scores"].values()) == 100


def _side_scores(result: dict) -> None:
    assert set(result["score"]) == set(PLAYERS)


def _kingsofwar_scores(result: dict) -> None:
    """Points of enemy units routed per side (and objectives held, in that scenario)."""
    assert set(result["score"]["routed_points"]) == set(PLAYERS) and result["winner"] in (*PLAYERS, None)


SCORE_SHAPES = {
    "littlewars": _littlewars_scores,
    "warworlds": _side_scores,
    "napoleon": _side_scores,
    "kingsofwar": _kingsofwar_scores,
}


def _one_game_over_event(client, game, result: dict) -> None:
    events = client.get(f"/api/games/{game.pk}/events/?limit=500").json()
    while events["next"]:  # the game_over event is near the end of the log
        events = client.get(events["next"]).json()
    over = [e for e in events["results"] if e["type"] == "littlewars.game_over"]
    assert len(over) == 1 and over[0]["payload"]["scores"] == result["scores"]

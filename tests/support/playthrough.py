"""Whole games through the REST API by two scripted players, for the rule sets whose bots live in
``rules/<set>/testing.py`` (Little Wars, War of the Worlds, Kings of War, Napoleon's War).

bob plays red and carol blue (alice umpires, and never has to act). Each scripted player knows only
what the API shows it: it rebuilds a position from its own board (GET .../view/, through the rule
set's ``state_from_view``), lets the rule set's bot write legal orders for it, and sends them; the
server must accept them as they are. The API play-through tests, the same games on a real worker
(tests/platform) and the pages and mail built on such games all start here.
"""

from __future__ import annotations

import contextlib
from types import ModuleType

from campaigns.turns.gamelog import verify_game
from rules.kingsofwar import testing as kingsofwar_bots
from rules.littlewars import testing as littlewars_bots
from rules.napoleon import testing as napoleon_bots
from rules.warworlds import testing as warworlds_bots
from tests.support.api import client_for
from tests.support.games import new_game_with_people

PLAYERS = {"red": "bob", "blue": "carol"}

# ruleset: (bots, campaign name, most turns a shipped scenario may take)
GAMES: dict[str, tuple[ModuleType, str, int]] = {
    "littlewars": (littlewars_bots, "Little Wars", 90),
    "warworlds": (warworlds_bots, "War of the Worlds", 40),  # a mail round is a platform turn
    "kingsofwar": (kingsofwar_bots, "Kings of War", 30),  # a player turn is a platform turn
    "napoleon": (napoleon_bots, "Napoleon's War", 40),
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

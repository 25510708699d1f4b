"""A Little Wars game through the platform: both sides order every (simultaneous) turn through
campaigns.turns, turns close when both are ready and are adjudicated in-process, to a scored end."""
import pytest

from campaigns import eventstore, turns
from campaigns.models import Campaign, Event
from campaigns.verify import verify_game
from rules.core.protocol import Viewer
from rules.core import registry
from rules.littlewars.testing import bot_orders

pytestmark = pytest.mark.django_db(transaction=True)

RS = registry.get("littlewars")


def new_game(people, scenario):
    return turns.create_game(
        campaign=Campaign.objects.create(name="Little Wars"), name=f"LW {scenario}", ruleset="littlewars",
        scenario=scenario,
        seats=[{"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
               {"role": "player", "side": "red", "user": people["bob"], "email": "bob@example.org"},
               {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"}])


def play_to_the_end(game, limit=80):
    for _ in range(limit):
        state = eventstore.load(game.pk).state
        if state["status"] != "active":
            return state
        turn = state["turn"]
        assert turn["status"] == "open" and turn["sides"] == ["red", "blue"]  # simultaneous: both every turn
        for side in turn["sides"]:
            text = bot_orders(state["rules"], side)
            result = turns.submit_orders(game.pk, side, text, source="api", by="bot")
            assert result.accepted, (side, text, result.errors)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("scenario", ["skirmish", "defence", "wells", "big_battle"])
def test_a_scripted_game_is_played_to_a_scored_end(people, scenario):
    game = new_game(people, scenario)
    state = play_to_the_end(game)
    result = state["rules"]["result"]
    assert result is not None and set(result["scores"]) == {"red", "blue"}
    for sheet in result["scores"].values():
        assert sheet["total"] == (sheet["victory"] + sheet["guns_points"] + sheet["cavalry_points"]
                                  + sheet["infantry_points"] + sheet["prisoner_points"])
    finished = Event.objects.get(game=game, type="game.finished")
    assert finished.payload["result"]["reason"] == result["reason"]
    over = Event.objects.get(game=game, type="littlewars.game_over")
    assert over.audience == "public" and over.payload["scores"] == result["scores"]
    # the log replays: hash chain, snapshots and re-adjudication from the revealed seeds
    report = verify_game(game)
    assert report.ok, report


def test_the_curtain_and_private_orders_through_the_platform(people):
    game = new_game(people, "skirmish")
    state = eventstore.load(game.pk).state
    assert state["turn"]["sides"] == ["red", "blue"] and "curtain" in state["turn"]["prompt"]
    red_view = RS.view(state["rules"], Viewer("player", "red"))
    assert {f["side"] for f in red_view["figures"]} == {"red"}
    bad = turns.submit_orders(game.pk, "red", "deploy foot1 at 16,30\nfly away", source="web")
    assert not bad.accepted and [e.line for e in bad.errors] == [1, 2]
    assert "deployment is within 8 in" in bad.errors[0].message
    assert turns.submit_orders(game.pk, "red", "deploy foot1 at 16,5", source="web").accepted
    state = eventstore.load(game.pk).state
    assert state["turn"]["status"] == "open"  # blue has not ordered: the turn waits for both
    assert turns.submit_orders(game.pk, "blue", "hold", source="web").accepted
    state = eventstore.load(game.pk).state
    assert state["turn"]["number"] == 2 and state["rules"]["phase"] == "play"
    assert state["rules"]["figures"]["red:i1"]["y"] == 5.0
    orders = Event.objects.filter(game=game, type="orders.submitted").values_list("audience", flat=True)
    assert set(orders) == {"side:red", "side:blue"}


def test_game_page_and_map_render_for_both_players_and_the_umpire(people, client):
    from tests.conftest import PASSWORD

    game = new_game(people, "wells")
    for side in ("red", "blue"):
        assert turns.submit_orders(game.pk, side, "hold", source="web").accepted
    for user in ("bob", "carol", "alice"):
        client.login(username=user, password=PASSWORD)
        page = client.get(f"/games/{game.pk}/")
        assert page.status_code == 200, user
        assert b"deploy foot1" in page.content  # the order language help is shown
        svg = client.get(f"/games/{game.pk}/map.svg")
        assert svg.status_code == 200 and b"littlewars-map" in svg.content
        client.logout()

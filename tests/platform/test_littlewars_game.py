"""A Little Wars game through the platform: a whole game with orders through the API and every turn
adjudicated by a real Celery worker on Redis; the curtain and per-line refusal through campaigns.turns;
the game page and map for every seat. (Every scenario to its end through the API, with in-process
adjudication: tests/api/test_littlewars_api.py.)"""

import pytest

from campaigns.models import Event
from campaigns.turns import commands, gamelog
from rules import catalog
from rules.core.protocol import Viewer
from tests.services import needs_redis
from tests.support.playthrough import check_scored_end, new_game, play_through_api
from tests.support.workers import wait_for_adjudication

pytestmark = pytest.mark.django_db(transaction=True)

RS = catalog.get("littlewars")


@needs_redis
def test_a_whole_game_on_a_real_celery_worker(people, lw_worker):
    """Orders through the API; every turn is adjudicated by a Celery worker process on Redis."""
    game = new_game(people, "littlewars", "skirmish")
    turn = play_through_api(game, people, wait=wait_for_adjudication)
    result = check_scored_end(game, people, turn)
    assert turn["number"] >= 3  # the deployment and at least two turns of fighting
    adjudicated = Event.objects.filter(game=game, type="turn.adjudicated").values_list("turn", flat=True)
    assert sorted(adjudicated) == list(range(1, turn["number"] + 1))  # every turn exactly once
    finished = Event.objects.get(game=game, type="game.finished")
    assert finished.payload["result"]["reason"] == result["reason"]
    over = Event.objects.get(game=game, type="littlewars.game_over")
    assert over.audience == "public" and over.payload["scores"] == result["scores"]


def test_the_curtain_and_private_orders_through_the_platform(people):
    game = new_game(people, "littlewars", "skirmish")
    state = gamelog.load(game.pk).state
    assert state.turn.sides == ["red", "blue"] and "curtain" in state.turn.prompt
    red_view = RS.view(state.rules, Viewer("player", "red"))
    assert {f["side"] for f in red_view["figures"]} == {"red"}
    bad = commands.submit_orders(game.pk, "red", "deploy foot1 at 16,30\nfly away", source="web")
    assert not bad.accepted and [e.line for e in bad.errors] == [1, 2]
    assert "deployment is within 8 in" in bad.errors[0].message
    assert commands.submit_orders(game.pk, "red", "deploy foot1 at 16,5", source="web").accepted
    state = gamelog.load(game.pk).state
    assert state.turn.status == "open"  # blue has not ordered: the turn waits for both
    assert commands.submit_orders(game.pk, "blue", "hold", source="web").accepted
    state = gamelog.load(game.pk).state
    assert state.turn.number == 2 and state.rules["phase"] == "play"
    assert state.rules["figures"]["red:i1"]["y"] == 5.0
    orders = Event.objects.filter(game=game, type="orders.submitted").values_list("audience", flat=True)
    assert set(orders) == {"side:red", "side:blue"}


def test_game_page_and_map_render_for_both_players_and_the_umpire(people, client):
    from tests.conftest import PASSWORD

    game = new_game(people, "littlewars", "wells")
    for side in ("red", "blue"):
        assert commands.submit_orders(game.pk, side, "hold", source="web").accepted
    for user in ("bob", "carol", "alice"):
        client.login(username=user, password=PASSWORD)
        page = client.get(f"/games/{game.pk}/")
        assert page.status_code == 200, user
        assert b"deploy foot1" in page.content  # the order language help is shown
        svg = client.get(f"/games/{game.pk}/map.svg")
        assert svg.status_code == 200 and b"littlewars-map" in svg.content
        client.logout()


def test_deployment_without_the_curtain_is_two_turns_through_the_platform(people):
    """LW-7 as a per-game option: the First Player deploys in turn 1, the other, seeing it, in turn 2."""
    game = new_game(people, "littlewars", {"base": "skirmish", "settings": {"deployment": "alternate"}})
    state = gamelog.load(game.pk).state
    first = state.rules["first"]
    second = "blue" if first == "red" else "red"
    assert state.turn.sides == [first] and "LW-7" in state.turn.prompt
    with pytest.raises(commands.TurnError, match=f"{second} has no orders to give in turn 1"):
        commands.submit_orders(game.pk, second, "hold", source="web")
    assert commands.submit_orders(game.pk, first, "hold", source="web").accepted
    state = gamelog.load(game.pk).state
    assert state.turn.number == 2 and state.turn.sides == [second]
    assert {f["side"] for f in RS.view(state.rules, Viewer("player", second))["figures"]} == {"red", "blue"}
    assert commands.submit_orders(game.pk, second, "hold", source="web").accepted
    state = gamelog.load(game.pk).state
    assert state.turn.number == 3 and state.turn.sides == ["red", "blue"]
    assert state.rules["phase"] == "play" and state.rules["turn"] == 3  # the game's turn number


def test_the_defender_chooses_its_edge_in_a_turn_of_its_own(people):
    """LW-53 through the platform: turn 1 is the defender's choice of edge, turn 2 the deployment."""
    game = new_game(people, "littlewars", {"base": "defence", "settings": {"choose_edge": True}})
    state = gamelog.load(game.pk).state
    defender = state.rules["scenario"]["settings"]["defender"]
    edge = state.rules["scenario"]["edges"][defender]
    other = {"north": "south", "south": "north"}[edge]
    assert state.turn.sides == [defender] and "LW-53" in state.turn.prompt
    bad = commands.submit_orders(game.pk, defender, "edge west", source="web")
    assert not bad.accepted and "choose one of those" in bad.errors[0].message
    assert commands.submit_orders(game.pk, defender, f"edge {other}", source="web").accepted
    state = gamelog.load(game.pk).state
    assert state.turn.number == 2 and state.turn.sides == ["red", "blue"]
    assert state.rules["phase"] == "deploy" and state.rules["scenario"]["edges"][defender] == other


def test_one_turn_number_everywhere(people, client):
    """Issue 15: the page, the map, the rules' messages, the log, the mail and the API give the same
    number for the same moment: the game's turn number (every round of orders is a turn, turn 1 is
    the deployment; RULES.md §1)."""
    from campaigns.models import OutboxMail
    from tests.conftest import PASSWORD
    from tests.support.api import client_for

    game = new_game(people, "littlewars", "skirmish")
    for side in ("red", "blue"):
        assert commands.submit_orders(game.pk, side, "hold", source="web").accepted  # turn 1: deployment
    state = gamelog.load(game.pk).state
    assert state.turn.number == 2 and state.rules["turn"] == 2
    # the rules' message: the first turn of play is turn 2, so guns fire from turn 3 (LW-14)
    bad = commands.submit_orders(game.pk, "red", "fire gun1 at 24,30", source="web")
    assert not bad.accepted and "no gun fires before turn 3" in bad.errors[0].message
    view = RS.view(state.rules, Viewer("player", "red"))
    assert view["turn"]["number"] == 2 and view["turn"]["prompt"].startswith("Turn 2:")
    assert "Guns may not fire before turn 3" in view["turn"]["prompt"]
    assert "skirmish at the farm, turn 2<" in RS.render_svg(view)  # the map's caption
    # the API: the platform's turn and the board's agree
    api = client_for(people["bob"]).get(f"/api/games/{game.pk}/view/").json()
    assert api["turn"]["number"] == 2 and api["board"]["turn"]["number"] == 2
    # the page and its map
    client.login(username="bob", password=PASSWORD)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "<dt>Turn</dt><dd>2 · orders" in page
    assert "skirmish at the farm, turn 2<" in client.get(f"/games/{game.pk}/map.svg").content.decode()
    # the log: turn 1's rules events are filed under turn 1
    done = Event.objects.get(game=game, type="littlewars.deployment_done")
    assert done.turn == 1
    # the mail: turn 1's report says the next turn is 2, and its map says so too
    report = OutboxMail.objects.filter(game=game, kind="report", seat__side="red").latest("pk")
    assert "turn 1 results" in report.subject and "Next turn: 2" in report.body
    assert "skirmish at the farm, turn 2<" in report.svg

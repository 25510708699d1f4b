"""The battles of a strategic game through the REST API (issue 28): read by every seat, chosen and
reviewed by the umpire only, refused with a reason when they cannot be."""

import pytest

from campaigns.models import Game
from tests.battles.test_linked_battles import open_battles, play_strategic_until, strategic_game
from tests.support.api import client_for
from tests.support.playthrough import play_through_api

pytestmark = pytest.mark.django_db


def url(game, tail=""):
    return f"/api/games/{game.pk}/battles/{tail}"


def test_the_umpire_chooses_and_every_seat_reads_the_battle(people, django_capture_on_commit_callbacks):
    game = strategic_game(people, battle_ruleset="ask")
    play_strategic_until(game, django_capture_on_commit_callbacks, lambda s: open_battles(s))
    bob, alice = client_for(people["bob"]), client_for(people["alice"])
    assert client_for(people["dave"]).get(url(game)).status_code == 404  # no seat: no such game
    listed = bob.get(url(game)).json()
    (battle,) = listed["battles"]
    assert battle["status"] == "joined" and battle["waiting_for_umpire"] and battle["game"] is None
    assert battle["place"]["kind"] in ("town", "crossing", "open", "hills")
    assert listed["standings"]["red"] == {"won": 0, "lost": 0, "drawn": 0, "units_lost": 0}

    choose = url(game, f"{battle['id']}/choose/")
    assert bob.post(choose, {"ruleset": "littlewars"}, format="json").status_code == 403
    refused = alice.post(choose, {"ruleset": "chess"}, format="json")
    assert refused.status_code == 400 and "ruleset" in refused.json()  # the field named, its choices in the schema
    assert alice.post(choose, {"ruleset": "littlewars", "typo": 1}, format="json").status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        chosen = alice.post(choose, {"ruleset": "littlewars"}, format="json")
    assert chosen.status_code == 200, chosen.content
    assert chosen.json()["status"] == "fighting" and chosen.json()["ruleset"] == "littlewars"
    fought = Game.objects.get(pk=chosen.json()["game"])
    assert bob.get(f"/api/games/{fought.pk}/").status_code == 200  # the same players sit at the battle
    again = alice.post(choose, {"ruleset": "rules"}, format="json")
    assert again.status_code == 409 and "nothing to do now" in again.json()["detail"]

    play_through_api(fought, people, submit=lambda: django_capture_on_commit_callbacks(execute=True))
    listed = bob.get(url(game)).json()
    (battle,) = listed["battles"]
    assert battle["status"] == "resolved" and battle["result"]["by"] == "table"
    assert listed["fought"] == 1
    winner = battle["result"]["winner"]
    if winner:
        assert listed["standings"][winner]["won"] == 1


def test_the_umpire_reviews_a_result_through_the_api(people, django_capture_on_commit_callbacks):
    game = strategic_game(people, battle_review=True)
    play_strategic_until(game, django_capture_on_commit_callbacks, lambda s: open_battles(s))
    alice, carol = client_for(people["alice"]), client_for(people["carol"])
    (battle,) = carol.get(url(game)).json()["battles"]
    review = url(game, f"{battle['id']}/review/")
    early = alice.post(review, {}, format="json")
    assert early.status_code == 409 and "fighting" in early.json()["detail"]
    play_through_api(
        Game.objects.get(pk=battle["game"]), people, submit=lambda: django_capture_on_commit_callbacks(execute=True)
    )
    (battle,) = carol.get(url(game)).json()["battles"]
    assert battle["status"] == "finished" and battle["waiting_for_umpire"]
    assert carol.post(review, {}, format="json").status_code == 403
    bad = alice.post(review, {"lost": {"red": ["C99"]}}, format="json")
    assert bad.status_code == 409 and "C99 did not fight for red" in bad.json()["detail"]
    done = alice.post(review, {"winner": None, "note": "a draw, by the umpire"}, format="json")
    assert done.status_code == 200, done.content
    body = done.json()
    assert body["status"] == "resolved" and body["result"]["by"] == "umpire" and body["result"]["winner"] is None
    assert body["result"]["amended"]["note"] == "a draw, by the umpire"
    assert carol.get(url(game)).json()["standings"]["red"]["drawn"] == 1


def test_the_schema_lists_the_battle_endpoints(client):
    schema = client.get("/api/schema/?format=json").json()
    assert {
        "/api/games/{id}/battles/",
        "/api/games/{id}/battles/{battle}/choose/",
        "/api/games/{id}/battles/{battle}/review/",
    } <= set(schema["paths"])


def test_a_campaign_game_made_through_the_api_fights_its_battles_as_asked(people):
    from campaigns.turns import gamelog

    body = {
        "name": "Volna",
        "ruleset": "civilwar",
        "options": {"battles": True},
        "campaign_name": "Volna season",
        "umpire": {"username": "alice"},
        "players": [{"username": "bob", "side": "red"}, {"username": "carol", "side": "blue"}],
        "settings": {"battle_ruleset": "kingsofwar", "battle_review": True},
    }
    alice = client_for(people["alice"])
    made = alice.post("/api/games/", body, format="json")
    assert made.status_code == 201, made.content
    settings = gamelog.load(made.json()["id"]).state.settings
    assert settings["battle_ruleset"] == "kingsofwar" and settings["battle_review"] is True
    wrong = alice.post("/api/games/", {**body, "settings": {"battle_ruleset": "chess"}}, format="json")
    assert wrong.status_code == 400 and "battle_ruleset" in str(wrong.json()), wrong.json()


def test_a_campaign_through_the_api(people, django_capture_on_commit_callbacks):
    game = strategic_game(people, battle_ruleset="ask")
    play_strategic_until(game, django_capture_on_commit_callbacks, lambda s: open_battles(s))
    url = f"/api/campaigns/{game.campaign_id}/"
    assert client_for(people["dave"]).get(url).status_code == 404  # no seat in it: no such campaign
    body = client_for(people["bob"]).get(url).json()
    assert body["name"] == "The Volna campaign" and [g["id"] for g in body["games"]] == [game.pk]
    assert body["games"][0]["side"] == "red"
    (war,) = body["wars"]
    assert war["game"] == game.pk and war["battles"][0]["status"] == "joined"
    assert [e["kind"] for e in body["timeline"]] == ["joined"]
    schema = client_for(people["bob"]).get("/api/schema/?format=json").json()
    assert "/api/campaigns/{campaign_id}/" in schema["paths"]

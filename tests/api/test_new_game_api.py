"""POST /api/games/ creates a game by the web's own road (turns.create_game as its creator):
the seats named are invited, the creator's own seat is taken; the invited answer through
POST /api/seats/<id>/accept/ and /decline/; turn 1 opens when the last player or umpire accepts."""

import pytest

from campaigns.models import Campaign, Game, OutboxMail, Seat

pytestmark = pytest.mark.django_db

URL = "/api/games/"


def body(**over):
    data = {
        "name": "Bull Run",
        "ruleset": "civilwar",
        "campaign_name": "Summer",
        "umpire": {"username": "alice"},
        "players": [{"side": "red", "username": "bob"}, {"side": "blue", "email": "carol@example.org"}],
    }
    return {**data, **over}


def seat_of(game_id, user) -> Seat:
    return Seat.objects.get(game_id=game_id, user=user)


def test_the_umpire_creates_a_game_and_the_players_are_invited_until_they_accept(clients, people):
    res = clients["alice"].post(URL, body(settings={"deadline_hours": 12, "require_approval": True}), format="json")
    assert res.status_code == 201, res.json()
    out = res.json()
    assert res["Location"].endswith(f"/api/games/{out['id']}/")
    assert out["started"] is False and out["invited"] == ["bob", "carol"]
    assert {p["side"]: p["status"] for p in out["roster"]["players"]} == {"red": "invited", "blue": "invited"}
    game = Game.objects.get(pk=out["id"])
    assert game.created_by == people["alice"] and game.campaign.name == "Summer"
    # The creator's own seat is taken at once; the invitees got the invitation by mail.
    assert seat_of(game.pk, people["alice"]).status == Seat.Status.ACTIVE
    assert set(OutboxMail.objects.filter(kind="invite").values_list("to", flat=True)) == {
        "bob@example.org",
        "carol@example.org",
    }
    # An invitation is not a seat: no view of the game yet.
    assert clients["bob"].get(f"{URL}{game.pk}/").status_code == 404
    # Only the invited user can answer their seat.
    bob_seat = seat_of(game.pk, people["bob"])
    assert clients["carol"].post(f"/api/seats/{bob_seat.pk}/accept/").status_code == 404
    assert clients["anon"].post(f"/api/seats/{bob_seat.pk}/accept/").status_code in (401, 403)
    res = clients["bob"].post(f"/api/seats/{bob_seat.pk}/accept/")
    assert res.status_code == 200 and res.json()["status"] == "active"
    assert Game.objects.get(pk=game.pk).turn_number == 0  # carol has not accepted
    carol_seat = seat_of(game.pk, people["carol"])
    assert clients["carol"].post(f"/api/seats/{carol_seat.pk}/accept/").status_code == 200
    assert Game.objects.get(pk=game.pk).turn_number == 1
    view = clients["bob"].get(f"{URL}{game.pk}/").json()
    assert view["turn_status"] == "open" and view["side"] == "red"
    # Answering twice is a conflict that says why.
    again = clients["bob"].post(f"/api/seats/{bob_seat.pk}/accept/")
    assert again.status_code == 409 and "already been answered" in again.json()["detail"]


def test_a_declined_seat_is_freed_and_the_creator_is_told(clients, people):
    out = clients["alice"].post(URL, body(), format="json").json()
    seat = seat_of(out["id"], people["bob"])
    res = clients["bob"].post(f"/api/seats/{seat.pk}/decline/")
    assert res.status_code == 200 and res.json()["status"] == "declined"
    seat.refresh_from_db()
    assert seat.user is None and seat.status == Seat.Status.DECLINED
    assert OutboxMail.objects.filter(to="alice@example.org", subject__contains="declined").exists()


def test_scenario_and_options_of_the_rule_set(clients, people):
    res = clients["alice"].post(
        URL, body(ruleset="napoleon", scenario="mill_ford", options={"dragoons": True}), format="json"
    )
    assert res.status_code == 201, res.json()
    assert res.json()["roster"]["scenario"]["name"] == "mill_ford"
    bad = clients["alice"].post(URL, body(ruleset="napoleon", scenario="waterloo"), format="json")
    assert bad.status_code == 400 and "no scenario 'waterloo'" in bad.json()["scenario"][0]
    bad = clients["alice"].post(URL, body(ruleset="civilwar", options={"dragoons": True}), format="json")
    assert bad.status_code == 400 and "option" in bad.json()["detail"]


@pytest.mark.parametrize(
    "over, field, words",
    [
        ({"umpire": {"username": "nobody"}}, "umpire.username", "no user called 'nobody'"),
        ({"umpire": {"email": "alice@elsewhere.org"}}, "umpire.email", "no user has confirmed this address"),
        ({"umpire": {"username": "alice", "email": "alice@example.org"}}, "umpire.non_field_errors", "one of the two"),
        ({"players": [{"side": "green", "username": "bob"}]}, "players[0].side", "not a valid choice"),
        (
            {"players": [{"side": "red", "username": "bob"}, {"side": "blue", "username": "zed"}]},
            "players[1].username",
            "no user called 'zed'",
        ),
        ({"ruleset": "chess"}, "ruleset", "not a valid choice"),
        ({"campaign_id": 99999}, "campaign_id", "no such campaign"),
        ({"colour": "red"}, "colour", "unknown field"),
    ],
)
def test_a_wrong_field_is_named(clients, people, over, field, words):
    res = clients["alice"].post(URL, body(**over), format="json")
    assert res.status_code == 400
    assert words in str(res.json()[field]), res.json()
    assert not Game.objects.exists() and not Campaign.objects.exists()


def test_a_game_refused_as_a_whole_says_why_and_leaves_nothing(clients, people):
    res = clients["alice"].post(URL, body(players=[{"side": "red", "username": "bob"}]), format="json")
    assert res.status_code == 400 and "needs a player for each of" in res.json()["detail"]
    res = clients["alice"].post(
        URL, body(players=[{"side": "red", "username": "alice"}, {"side": "blue", "username": "carol"}]), format="json"
    )
    assert res.status_code == 400 and "cannot also play" in res.json()["detail"]
    assert not Game.objects.exists() and not Campaign.objects.exists()


def test_only_my_own_campaigns_and_only_signed_in(clients, people):
    theirs = Campaign.objects.create(name="Dave's", created_by=people["dave"])
    neither = body()
    del neither["campaign_name"]
    res = clients["alice"].post(URL, neither, format="json")
    assert res.status_code == 400 and "one of the two" in res.json()["non_field_errors"][0]
    res = clients["alice"].post(URL, {**neither, "campaign_id": theirs.pk}, format="json")
    assert res.status_code == 400 and "no such campaign" in res.json()["campaign_id"][0]
    res = clients["dave"].post(URL, {**neither, "campaign_id": theirs.pk}, format="json")
    assert res.status_code == 201 and res.json()["campaign_id"] == theirs.pk
    assert clients["anon"].post(URL, body(), format="json").status_code in (401, 403)


def test_a_player_creating_the_game_holds_their_seat_at_once(clients, people):
    res = clients["bob"].post(URL, body(), format="json")
    assert res.status_code == 201
    assert seat_of(res.json()["id"], people["bob"]).status == Seat.Status.ACTIVE
    assert res.json()["invited"] == ["alice", "carol"]


@pytest.mark.parametrize("address", ["carol@example.org", "nobody-confirmed-this@example.org"])
def test_a_request_refused_for_another_reason_does_not_tell_whether_an_address_is_confirmed(clients, people, address):
    """Issue 29: with a bad rule set, an unconfirmed invitee's address added an error of its own: an
    oracle for which addresses are confirmed. Both answers are now the same."""
    over = {"ruleset": "chess", "players": [{"side": "red", "username": "bob"}, {"side": "blue", "email": address}]}
    res = clients["alice"].post(URL, body(**over), format="json")
    assert res.status_code == 400
    assert sorted(res.json()) == ["ruleset"], res.json()

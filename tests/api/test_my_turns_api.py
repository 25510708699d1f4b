"""GET /api/me/turns/ (issue 28, point 5): the web's "my turns" through the API, per user, nearest
deadline first, each game seen through the user's own seat."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from rest_framework.test import APIClient

from campaigns.models import Campaign, Profile
from campaigns.turns import commands, creation, deadlines
from tests.conftest import PASSWORD
from tests.support.api import all_strings
from tests.support.games import legal_op, state_of

pytestmark = pytest.mark.django_db(transaction=True)

URL = "/api/me/turns/"


def civilwar(people, campaign: str, name: str, red: str, blue: str, **settings):
    return creation.create_game(
        campaign=Campaign.objects.create(name=campaign),
        name=name,
        ruleset="civilwar",
        settings=settings,
        seats=[
            {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
            {"role": "player", "side": "red", "user": people[red], "email": f"{red}@example.org"},
            {"role": "player", "side": "blue", "user": people[blue], "email": f"{blue}@example.org"},
        ],
        operator=True,
    )


@pytest.fixture
def two_games(people):
    spring = civilwar(people, "Spring campaign", "Shiloh", red="bob", blue="carol")
    autumn = civilwar(people, "Autumn campaign", "Perryville", red="carol", blue="bob")
    for game, hours in ((spring, 30), (autumn, 6)):
        moment = (timezone.now() + timedelta(hours=hours)).replace(second=0, microsecond=0)
        deadlines.set_deadline(game.pk, 1, moment)
    return spring, autumn


def test_needs_authentication(clients):
    response = clients["anon"].get(URL)
    assert response.status_code == 401


def test_a_player_gets_their_games_nearest_deadline_first(clients, two_games):
    spring, autumn = two_games
    body = clients["bob"].get(URL).json()
    assert body["timezone"] == "America/New_York"
    perryville, shiloh = body["turns"]
    assert (perryville["name"], shiloh["name"]) == ("Perryville", "Shiloh")
    assert perryville["campaign"] == "Autumn campaign" and shiloh["campaign_id"] == spring.campaign_id
    assert parse_datetime(perryville["deadline"]) < parse_datetime(shiloh["deadline"])
    assert perryville["waits"] == [] and perryville["waiting_for"] == ["red"] and not perryville["to_do"]
    assert shiloh["to_do"] and shiloh["waiting_for"] == []
    assert shiloh["waits"] == [
        {"kind": "orders", "text": "your orders are awaited", "side": "red", "battle": None, "place": None}
    ]
    assert (shiloh["role"], shiloh["side"], shiloh["played"]) == ("player", "red", ["red"])
    spring.refresh_from_db()
    assert parse_datetime(shiloh["deadline"]) == spring.deadline_at
    assert shiloh["deadline_local"].endswith("(America/New_York)")
    # dave holds no seat: nothing
    assert clients["dave"].get(URL).json()["turns"] == []


def test_what_waits_follows_my_own_orders_and_never_shows_another_sides(clients, two_games):
    spring, _ = two_games
    order = legal_op(spring)
    commands.submit_orders(spring.pk, "red", order, source="api", ready=False)
    (shiloh,) = [t for t in clients["bob"].get(URL).json()["turns"] if t["id"] == spring.pk]
    assert [w["kind"] for w in shiloh["waits"]] == ["not_ready"]
    commands.submit_orders(spring.pk, "red", order, source="api", ready=False)
    carols = clients["carol"].get(URL).json()
    (theirs,) = [t for t in carols["turns"] if t["id"] == spring.pk]
    assert theirs["waits"] == [] and theirs["waiting_for"] == ["red"]
    assert order not in set(all_strings(carols)) and "not_ready" not in set(all_strings(carols))


def test_the_umpire_gets_results_awaiting_approval(clients, people):
    game = civilwar(people, "Summer campaign", "Gettysburg", red="bob", blue="carol", require_approval=True)
    commands.submit_orders(game.pk, "red", legal_op(game), source="api", ready=True)
    assert state_of(game).turn.status == "adjudicated"
    (turn,) = clients["alice"].get(URL).json()["turns"]
    assert turn["role"] == "umpire" and turn["turn_status"] == "adjudicated" and turn["deadline"] is None
    assert [w["kind"] for w in turn["waits"]] == ["approve"] and turn["to_do"]


def test_with_a_token_and_in_russian(people, two_games):
    Profile.objects.filter(user=people["bob"]).update(language="ru")
    client = APIClient()
    token = client.post("/api/auth/token/", {"username": "bob", "password": PASSWORD}, format="json").json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    body = client.get(URL).json()
    (shiloh,) = [t for t in body["turns"] if t["name"] == "Shiloh"]
    assert shiloh["waits"][0]["text"] == "ждём ваших приказов"


def test_the_schema_documents_it(tmp_path):
    import yaml

    out = tmp_path / "s.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    get = schema["paths"][URL]["get"]
    assert {"200", "401"} <= set(get["responses"])
    kinds = schema["components"]["schemas"]["WaitKindEnum"]["enum"]
    assert set(kinds) == {"orders", "not_ready", "ready", "approve", "failed", "battle_choice", "battle_review"}

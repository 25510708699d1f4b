"""What the application does to its database, run as a process of its own (so DATABASE_URL can name
the runtime role of deploy/db-roles.sql): test_db_roles.py starts it after load_demo.

Web sign-in and sign-out (sessions), API tokens (knox) and sign-in failures (axes), a game created
through the API with invitations accepted and declined, orders, a turn adjudicated and published,
the outbox sent, the sweep (its heartbeat, reminders, requeues), mail in from a seat (ingested,
applied, acknowledged). Prints OK at the end; any refusal of the database raises.
"""

import os
import sys
from email.message import EmailMessage
from email.utils import formatdate

sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django

django.setup()

from django.test import Client  # noqa: E402

from campaigns.mailin import ingest  # noqa: E402
from campaigns.mailout import outbox  # noqa: E402
from campaigns.models import Game, OutboxMail, Seat  # noqa: E402
from campaigns.turns import (  # noqa: E402
    addresses,
    deadlines,
    gamelog,
)
from rules import catalog  # noqa: E402

PASSWORD = "kriegsbrief"  # load_demo's


def api_as(username: str) -> Client:
    client = Client()
    res = client.post("/api/auth/token/", {"username": username, "password": PASSWORD}, content_type="application/json")
    assert res.status_code == 200, res.content
    client.defaults["HTTP_AUTHORIZATION"] = f"Token {res.json()['token']}"
    return client


def main() -> None:
    web = Client()
    assert web.post("/accounts/login/", {"username": "red", "password": PASSWORD}).status_code == 302
    assert web.get("/").status_code == 200
    assert web.post("/accounts/logout/").status_code == 302
    assert Client().post("/accounts/login/", {"username": "red", "password": "wrong"}).status_code == 200
    umpire, red, blue = api_as("umpire"), api_as("red"), api_as("blue")
    res = umpire.post(
        "/api/games/",
        {
            "name": "Roles",
            "ruleset": "civilwar",
            "campaign_name": "Roles",
            "umpire": {"username": "umpire"},
            "players": [{"side": "red", "username": "red"}, {"side": "blue", "username": "blue"}],
        },
        content_type="application/json",
    )
    assert res.status_code == 201, res.content
    game = Game.objects.get(pk=res.json()["id"])
    for client, name in ((red, "red"), (blue, "blue")):
        seat = Seat.objects.get(game=game, user__username=name)
        assert client.post(f"/api/seats/{seat.pk}/accept/").status_code == 200
    clients = {"red": red, "blue": blue}
    for _ in range(3):  # three turns: orders, adjudication, publication, the next turn's mail
        state = gamelog.load(game.pk).state
        for side in state.turn.sides:
            text = catalog.get("civilwar").legal_operations(state.rules, side)[0]
            res = clients[side].post(
                f"/api/games/{game.pk}/orders/", {"text": text, "ready": True}, content_type="application/json"
            )
            assert res.status_code == 201, res.content
    assert red.post(
        f"/api/games/{game.pk}/orders/", {"text": "no such order"}, content_type="application/json"
    ).status_code in (400, 409)
    assert umpire.get(f"/api/games/{game.pk}/events/?limit=5").status_code == 200
    deadlines.sweep()
    for row_id in OutboxMail.objects.filter(status=OutboxMail.Status.PENDING).values_list("pk", flat=True):
        outbox.send(row_id)
    seat = Seat.objects.get(game=game, user__username="red")
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"Red <{seat.email}>", addresses.reply_address(seat), "orders"
    msg["Date"], msg["Message-ID"] = formatdate(), "<roles-1@client.example>"
    msg.set_content("hold\n")
    ingest.ingest(msg.as_bytes(), via="test")
    # A second game's seat declined: the seat is freed (an UPDATE, never a DELETE).
    res = umpire.post(
        "/api/games/",
        {
            "name": "Roles 2",
            "ruleset": "civilwar",
            "campaign_name": "Roles 2",
            "umpire": {"username": "umpire"},
            "players": [{"side": "red", "username": "red"}, {"side": "blue", "username": "blue"}],
        },
        content_type="application/json",
    )
    seat = Seat.objects.get(game_id=res.json()["id"], user__username="blue")
    assert blue.post(f"/api/seats/{seat.pk}/decline/").status_code == 200
    assert red.post("/api/auth/logout/").status_code == 204
    assert blue.post("/api/auth/logout-all/").status_code == 204
    print("OK")


if __name__ == "__main__":
    main()

"""Seats by invitation and verified addresses (campaigns/turns/invitations.py, campaigns/turns/mailaddress.py),
with the real outbox and a real SMTP sink: naming someone only invites them, a seat's mail goes
to the address its holder confirmed, and the umpire plays a side only where the game says so."""

import html
import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from campaigns.mailin import ingest
from campaigns.models import Campaign, Game, OutboxMail, Seat
from campaigns.turns import addresses, commands, creation, invitations
from tests.conftest import PASSWORD, make_user
from tests.support.games import legal_op
from tests.support.mail import mail, plain

pytestmark = pytest.mark.django_db(transaction=True)

NEW_GAME = {
    "new_campaign": "Spring",
    "ruleset": "civilwar",
    "deadline_hours": "48",
    "decision_deadline_hours": "12",
    "ready_delay_seconds": "0",
}


def create(client, user, name, **fields):
    client.force_login(user)
    response = client.post(reverse("new_game"), {**NEW_GAME, "name": name, **fields})
    assert response.status_code == 302, html.unescape(response.content.decode())[:3000]
    return Game.objects.get(name=name)


def text_of(response) -> str:
    """A page's words: tags dropped, entities decoded, white space collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def link_in(msg) -> str:
    """The site-relative path of the one link in a mail."""
    return re.search(r"https?://[^/\s]+(/\S+/)", plain(msg)).group(1)


def bodies_to(smtp, address) -> str:
    return "\n".join(plain(m) for m in smtp.to(address))


def answer(client, user, path, what):
    client.force_login(user)
    return client.post(path, {"answer": what}, follow=True)


# --- the attack of the issue ---------------------------------------------------


def test_a_player_cannot_conscript_the_opponent_onto_their_own_address(client, people, smtp):
    """bob creates a game naming carol as blue with bob's second address for her seat: the address is
    ignored (there is no such field any more, and the service refuses one), carol is only invited, and
    nothing of her seat ever reaches bob's second address: no start mail, reply address or reports."""
    bob, carol = people["bob"], people["carol"]
    game = create(
        client,
        bob,
        "Conscript",
        umpire="bob",
        player_red="alice",
        player_blue="carol",
        email_blue="bob+carol@example.org",
        email_red="bob+alice@example.org",
    )
    blue = game.seats.get(side="blue")
    assert blue.status == "invited" and blue.email == ""
    assert not OutboxMail.objects.filter(to__startswith="bob+").exists()
    assert not OutboxMail.objects.filter(kind="start").exists()  # no seat is active but bob's own
    [invite] = smtp.to("carol@example.org")  # carol's own address, only an invitation
    assert "bob invites you to Conscript (Civil War" in plain(invite) and "as the blue player" in plain(invite)
    assert not invite.get("Reply-To")  # no reply address in it
    with pytest.raises(ValueError):
        addresses.reply_address(blue)  # no reply address before accepting

    # bob cannot take carol's invitation, nor order for blue, by any channel
    path = link_in(invite)
    assert "This invitation is not for you." in text_of(answer(client, bob, path, "accept"))
    with pytest.raises(commands.TurnError, match="has not started"):
        commands.submit_orders(game.pk, "blue", "pass", source="mail")
    # the service refuses a typed address for anyone (operator aside)
    with pytest.raises(commands.TurnError, match="cannot be given here"):
        creation.create_game(
            campaign=game.campaign,
            name="Again",
            ruleset="civilwar",
            created_by=bob,
            seats=[
                {"role": "umpire", "user": bob},
                {"role": "player", "side": "red", "user": people["alice"]},
                {"role": "player", "side": "blue", "user": carol, "email": "bob+carol@example.org"},
            ],
        )

    # once both accept, the game's mail goes to each player's own confirmed address only
    answer(client, carol, path, "accept")
    answer(client, people["alice"], link_in(smtp.to("alice@example.org")[0]), "accept")
    game.refresh_from_db()
    assert game.turn_number == 1
    blue.refresh_from_db()
    assert blue.email == "carol@example.org"
    [start] = [m for m in smtp.to("carol@example.org") if "the game begins" in m["Subject"]]
    assert start["Reply-To"] == addresses.reply_address(blue)
    assert not [m for rcpt, m in smtp.messages if any(r.startswith("bob+") for r in rcpt)]
    # and a message to blue's reply address from bob is not blue's
    row = ingest.ingest(mail(to=addresses.reply_address(blue), frm="bob+carol@example.org", body="pass"), via="test")
    assert row.status != "applied"


# --- invitations ----------------------------------------------------------------


def test_accept_decline_reinvite_and_the_start_of_the_game(client, people, smtp):
    alice, bob, carol, dave = people["alice"], people["bob"], people["carol"], people["dave"]
    game = create(client, alice, "Invited", umpire="alice", player_red="bob", player_blue="carol", observers="dave")
    assert game.seats.get(role="umpire").status == "active"  # the creator takes their own seat
    assert game.turn_number == 0 and game.deadline_at is None
    page = text_of(client.get(reverse("game_seats", args=[game.pk])))
    assert "bob (invited)" in page and "carol (invited)" in page and "dave (invited)" in page
    assert "not started" in text_of(client.get(reverse("game", args=[game.pk])))  # the umpire waits with them
    assert client.get(reverse("umpire", args=[game.pk])).status_code == 200

    # bob sees the invitation on his pages and by mail, with who umpires and observes
    client.force_login(bob)
    mine = text_of(client.get(reverse("my_games")))
    assert "Invitations" in mine and "Invited" in mine and "umpire: alice" in mine
    assert client.get(reverse("game", args=[game.pk])).status_code == 404  # not a seat yet
    assert client.get(f"/api/games/{game.pk}/").status_code == 404
    [invite] = smtp.to("bob@example.org")
    text = plain(invite)
    assert "Umpire: alice" in text and "Observers: dave (invited)" in text and "The umpire also plays: no" in text
    bob_link = link_in(invite)
    shown = text_of(client.get(bob_link))
    assert "the umpire holds no side" in shown and "dave" in shown
    assert client.get(bob_link).status_code == 200  # GET changes nothing (mail scanners)
    assert game.seats.get(side="red").status == "invited"

    answer(client, bob, bob_link, "accept")
    red = game.seats.get(side="red")
    assert (red.status, red.email) == ("active", "bob@example.org")
    game.refresh_from_db()
    assert game.turn_number == 0  # blue has not accepted
    reused = text_of(answer(client, bob, bob_link, "decline"))
    assert "already been answered" in reused and game.seats.get(side="red").status == "active"

    # carol declines: the seat is free and alice is told
    answer(client, carol, link_in(smtp.to("carol@example.org")[0]), "decline")
    blue = game.seats.get(side="blue")
    assert blue.status == "declined" and blue.user is None
    told = bodies_to(smtp, "alice@example.org")
    assert "carol declined the blue player's seat in Invited" in told
    client.force_login(alice)
    assert "blue free seat" in text_of(client.get(reverse("game_seats", args=[game.pk])))

    # only the creator or umpire may invite someone else to it; erin has no confirmed address yet
    erin = get_user_model().objects.create_user("erin", "erin@example.org", PASSWORD)
    client.force_login(bob)
    assert client.post(reverse("game_seats", args=[game.pk]), {"seat": blue.pk, "username": "erin"}).status_code == 404
    client.force_login(alice)
    refused = client.post(reverse("game_seats", args=[game.pk]), {"seat": blue.pk, "username": "bob"})
    assert "named for more than one seat" in text_of(refused)
    client.post(reverse("game_seats", args=[game.pk]), {"seat": blue.pk, "username": "erin"})
    blue.refresh_from_db()
    assert blue.user == erin and blue.status == "invited"
    assert not smtp.to("erin@example.org")  # no verified address: the web only
    token = invitations.pending_for(erin)[0].token
    refused = text_of(answer(client, erin, reverse("invitation", args=[token]), "accept"))
    assert "Confirm your mail address on your settings page first" in refused
    make_verified(client, erin, "erin@example.org", smtp)
    answer(client, erin, reverse("invitation", args=[token]), "accept")

    # every player and the umpire accepted: turn 1 opens now, with its full deadline
    game.refresh_from_db()
    assert game.turn_number == 1 and game.turn_status == "open"
    assert timedelta(hours=47) < game.deadline_at - timezone.now() <= timedelta(hours=48)
    for address in ("alice@example.org", "bob@example.org", "erin@example.org"):
        [start] = [m for m in smtp.to(address) if "the game begins" in m["Subject"]]
        assert "Umpire: alice" in plain(start) and "Observers: dave (invited)" in plain(start)
    assert not [m for m in smtp.to("dave@example.org") if "the game begins" in m["Subject"]]
    assert commands.submit_orders(game.pk, "red", legal_op(game), source="web").accepted

    # an observer who accepts after the start gets the game's first mail then
    answer(client, dave, link_in(smtp.to("dave@example.org")[0]), "accept")
    assert [m for m in smtp.to("dave@example.org") if "the game begins" in m["Subject"]]


def make_verified(client, user, address, smtp):
    client.force_login(user)
    client.post(reverse("my_settings"), {"action": "address", "email": address})
    link = link_in([m for m in smtp.to(address) if "Confirm your mail address" in m["Subject"]][-1])
    client.post(link)
    user.profile.refresh_from_db()
    assert user.profile.verified_email == address


def test_an_invitation_expires(client, people, smtp):
    game = create(client, people["alice"], "Slow", umpire="alice", player_red="bob", player_blue="carol")
    link = link_in(smtp.to("bob@example.org")[0])
    with time_machine.travel(timezone.now() + invitations.MAX_AGE + timedelta(minutes=1)):
        text = text_of(answer(client, people["bob"], link, "accept"))
        assert "has expired" in text
        assert game.seats.get(side="red").status == "invited"
        # the creator may now offer the expired seat again (to the same player: a fresh link)
        client.force_login(people["alice"])
        seat = game.seats.get(side="red")
        client.post(reverse("game_seats", args=[game.pk]), {"seat": seat.pk, "username": "bob"})
        fresh = link_in(smtp.to("bob@example.org")[-1])
        assert fresh != link
        answer(client, people["bob"], fresh, "accept")
        assert game.seats.get(side="red").status == "active"
    assert "not a valid invitation" in text_of(answer(client, people["bob"], link.replace(":", ":x", 1), "accept"))


# --- verified addresses --------------------------------------------------------------


def test_a_user_confirms_their_own_address_by_a_link_that_works_once(client, people, smtp):
    frank = make_user("frank")
    frank.profile.verified_email = ""
    frank.profile.save()
    client.force_login(frank)
    page = client.get(reverse("my_settings")).content.decode()
    assert "No confirmed address yet" in page
    client.post(reverse("my_settings"), {"action": "address", "email": "frank@home.example"})
    [msg] = smtp.to("frank@home.example")
    assert msg["Subject"] == "[Kriegsbrief] Confirm your mail address" and "frank" in plain(msg)
    link = link_in(msg)
    frank.profile.refresh_from_db()
    assert frank.profile.pending_email == "frank@home.example" and frank.profile.verified_email == ""
    client.get(link)  # following the link is not confirming
    frank.profile.refresh_from_db()
    assert frank.profile.verified_email == ""

    client.force_login(people["bob"])  # someone else cannot confirm it
    assert "another user" in text_of(client.post(link, follow=True))
    client.force_login(frank)
    assert "is confirmed" in text_of(client.post(link, follow=True))
    frank.profile.refresh_from_db()
    frank.refresh_from_db()
    assert frank.profile.verified_email == frank.email == "frank@home.example"
    assert "used already" in text_of(client.post(link, follow=True))

    with time_machine.travel(timezone.now() - timedelta(days=4)):
        client.post(reverse("my_settings"), {"action": "address", "email": "frank@old.example"})
    old = link_in(smtp.to("frank@old.example")[0])
    assert "expired" in text_of(client.post(old, follow=True))
    frank.profile.refresh_from_db()
    assert frank.profile.verified_email == "frank@home.example"


# --- the umpire's seat -----------------------------------------------------------------


def seats_with_umpire_playing(people):
    return [
        {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
        {"role": "player", "side": "red", "user": people["alice"], "email": "alice@example.org"},
        {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"},
    ]


def test_the_umpire_plays_only_where_the_game_says_so_and_everyone_sees_it(client, people, smtp):
    campaign = Campaign.objects.create(name="C")
    for operator in (True, False):  # the service refuses, on every path
        seats = (
            seats_with_umpire_playing(people)
            if operator
            else [{k: v for k, v in s.items() if k != "email"} for s in seats_with_umpire_playing(people)]
        )
        with pytest.raises(commands.TurnError, match="umpires this game and cannot also play a side"):
            creation.create_game(
                campaign=campaign,
                name="No",
                ruleset="civilwar",
                seats=seats,
                operator=operator,
                created_by=people["alice"],
            )
    client.force_login(people["alice"])
    refused = client.post(
        reverse("new_game"),
        {**NEW_GAME, "name": "No", "umpire": "alice", "player_red": "alice", "player_blue": "carol"},
    )
    assert "cannot also play a side" in text_of(refused)
    assert not Game.objects.filter(name="No").exists()

    game = create(
        client,
        people["alice"],
        "Umpire plays",
        umpire="alice",
        player_red="alice",
        player_blue="carol",
        observers="dave",
        umpire_plays="on",
    )
    assert game.seats.filter(user=people["alice"], status="active").count() == 2
    [invite] = smtp.to("carol@example.org")
    assert "The umpire also plays: yes" in plain(invite) and "Red: alice" in plain(invite)
    client.force_login(people["carol"])
    link = link_in(invite)
    assert "yes: the umpire may also hold a side" in text_of(client.get(link))
    answer(client, people["carol"], link, "accept")

    text = text_of(client.get(reverse("game", args=[game.pk])))
    assert "Who is in this game" in text and "yes: the umpire may also hold a side" in text
    detail = client.get(f"/api/games/{game.pk}/").json()
    assert detail["roster"]["umpire_plays"] is True
    assert detail["roster"]["umpires"] == [{"user": "alice", "status": "active"}]
    assert detail["roster"]["observers"] == [{"user": "dave", "status": "invited"}]
    start = [m for m in smtp.to("carol@example.org") if "the game begins" in m["Subject"]][0]
    assert "The umpire also plays: yes" in plain(start) and "Umpire: alice" in plain(start)


def test_every_player_sees_who_umpires_and_observes(client, people, game):
    Seat.objects.create(game=game, role=Seat.Role.OBSERVER, user=people["dave"], email="dave@example.org")
    client.force_login(people["carol"])
    text = text_of(client.get(reverse("game", args=[game.pk])))
    roster = text[text.index("Who is in this game") :]
    assert "alice" in roster and "dave" in roster and "no: the umpire holds no side" in roster
    detail = client.get(f"/api/games/{game.pk}/").json()["roster"]
    assert detail["umpires"] == [{"user": "alice", "status": "active"}]
    assert detail["observers"] == [{"user": "dave", "status": "active"}]
    assert {p["side"]: p["user"] for p in detail["players"]} == {"red": "bob", "blue": "carol"}

"""A Russian-speaking umpire and players walk the whole site and read all their mail, in a short game
of every rule set: no English sentence is left (tests/support/english.py says what counts), on
any page they can reach, in the API's messages meant for people, or in any mail (text and HTML)."""

import re

import pytest
from django.urls import reverse
from knox.models import AuthToken

from campaigns.mailin import ingest
from campaigns.models import Campaign, OutboxMail, Profile, Seat
from campaigns.turns import addresses, commands, creation
from campaigns.turns.state import TurnStatus
from rules import catalog
from rules.kingsofwar.testing import make_scenario
from tests.support.conformance import bot, scenarios
from tests.support.english import english, visible
from tests.support.games import state_of
from tests.support.mail import mail, seat_mail

pytestmark = pytest.mark.django_db(transaction=True)

OUR_AR = "mx.kriegsbrief.localhost"
# Every rule set in the catalogue (issue 33), each on its first shipped scenario (or its default),
# its sides played by its own scripted player (rules.<name>.testing.bot_orders), except:
SHORT = {  # games short enough to end in the three turns played: their game-over lines are read too
    "kingsofwar": make_scenario([("r1", "archers", 36, 6, 90), ("b1", "axe band", 36, 30.1, 270)], rounds=1),
}
SCENARIOS = {
    **SHORT,
    # Napoleon's War on the scenario it was read on before the kit (Quatre Bras, its first, opens with a
    # turn of no command points: road and leader moves only).
    "napoleon": "mill_ford",
}
GAMES = [(name, SCENARIOS.get(name, scenarios(name)[0])) for name in catalog.names()]
GAME_NAME = "Партия"
NONSENSE = "fly to the moon"  # a player's own bad line: quoted back to them as written


def orders_for(game, state, side) -> str:
    """The rule set's own scripted player in an orders turn (a decision: the default orders)."""
    return bot(game.ruleset)(state.rules, side) if state.turn.kind == "orders" else ""


def play(game, turns: int) -> None:
    """``turns`` turns, every side to order sending its bot's orders (its default when refused)."""
    rs = catalog.get(game.ruleset)
    for _ in range(turns):
        state = state_of(game)
        if state.status != "active" or state.turn.status != TurnStatus.OPEN:
            return
        for side in state.turn.sides:
            text = orders_for(game, state, side) or rs.default_orders(state.rules, side, state.turn.kind)
            result = commands.submit_orders(game.pk, side, text, source="web", by=side, ready=True)
            if not result.accepted:
                default = rs.default_orders(state.rules, side, state.turn.kind)
                assert commands.submit_orders(game.pk, side, default, source="web", by=side, ready=True).accepted


def new_game(people, ruleset, scenario):
    for name in ("alice", "bob", "carol", "dave"):
        Profile.objects.filter(user=people[name]).update(language="ru")
    return creation.create_game(
        campaign=Campaign.objects.create(name="Кампания"),
        name=GAME_NAME,
        ruleset=ruleset,
        scenario=scenario,
        seats=[
            {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
            {"role": "player", "side": "red", "user": people["bob"], "email": "bob@example.org"},
            {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"},
        ],
        operator=True,
    )


def mail_in(game) -> None:
    """What a Russian player's mail meets: a reply address nobody holds (refused, told in Russian),
    orders our mail server could not authenticate (held, the umpire told), STATUS and a bad line."""
    red = game.seats.get(side="red")
    genuine = {"Authentication-Results": f"{OUR_AR}; dmarc=pass header.from=example.org"}
    stranger = mail(to="orders+" + "0" * 32 + "@kriegsbrief.localhost", frm=red.email, body="pass", headers=genuine)
    assert ingest.ingest(stranger, via="test").status == "rejected"
    failed = {"Authentication-Results": f"{OUR_AR}; dmarc=fail header.from=example.org"}
    assert ingest.ingest(seat_mail(red, "STATUS", headers=failed), via="test").status == "held"
    assert ingest.ingest(seat_mail(red, f"STATUS\nHELP\n{NONSENSE}"), via="test").status == "applied"


def umpire_actions(client, game) -> None:
    """The umpire rejects the held mail, gives red a new reply address, and tries a seat change that fails."""
    held = ingest.InboundMessage.objects.get(seat__game=game, status="held")
    client.post(reverse("mailin_held", args=[game.pk]), {"message": held.pk, "action": "reject", "reason": ""})
    red = game.seats.get(side="red")
    client.post(reverse("umpire", args=[game.pk]), {"action": "address", "address-seat": red.pk})
    addresses.reply_address(red)


def pages(game) -> list[str]:
    urls = [reverse("my_games"), reverse("new_game"), reverse("my_settings")]
    urls += [reverse(n, args=[game.pk]) for n in ("game", "game_seats", "verification", "umpire", "mailin_held")]
    return urls + [reverse("turn_history", args=[game.pk, 1])]


def api_texts(client, game) -> list[str]:
    """The API's texts for people: the events' lines and the refusals' messages."""
    events = client.get(f"/api/games/{game.pk}/events/?limit=500").json()["results"]
    bad = client.post(f"/api/games/{game.pk}/orders/", {"text": NONSENSE}, content_type="application/json")
    foreign = client.post(
        f"/api/games/{game.pk}/orders/", {"side": "green", "text": "pass"}, content_type="application/json"
    )
    return [e["text"] for e in events] + [bad.content.decode(), foreign.content.decode()]


def read_everything(client, people, game) -> dict[str, str]:
    found = {}
    for who in ("alice", "bob"):
        client.force_login(people[who])
        for url in pages(game):
            response = client.get(url)
            if response.status_code == 404 and who == "bob":
                continue  # the umpire's pages: not his
            assert response.status_code == 200, (who, url, response.status_code)
            found[f"{who} {url}"] = visible(response.content.decode())
        _, token = AuthToken.objects.create(people[who])
        api = client.__class__(HTTP_AUTHORIZATION=f"Token {token}")
        for n, text in enumerate(api_texts(api, game)):
            found[f"{who} api {n}"] = text
    for row in OutboxMail.objects.filter(to__in=["alice@example.org", "bob@example.org"]):
        found[f"mail {row.kind} {row.key}"] = "\n".join([row.subject, row.body, visible(row.html)])
    return found


@pytest.mark.parametrize("ruleset, scenario", GAMES, ids=[g[0] for g in GAMES])
def test_a_russian_umpire_and_player_read_no_english_anywhere(client, people, ruleset, scenario):
    game = new_game(people, ruleset, scenario)
    play(game, 3)
    if ruleset in SHORT:  # e.g. one round on a small field: the game is over, its reason read too
        assert state_of(game).status == "finished"
    client.force_login(people["bob"])
    client.post(reverse("game", args=[game.pk]), {"text": NONSENSE})  # a refusal, as it is shown
    mail_in(game)
    client.force_login(people["alice"])
    umpire_actions(client, game)
    seen = read_everything(client, people, game)
    assert len([k for k in seen if k.startswith("mail")]) >= 5
    names = (GAME_NAME, "Кампания", NONSENSE, str(catalog.get(ruleset).title))
    left = {where: english(text, names) for where, text in seen.items()}
    left = {where: found for where, found in left.items() if found}
    assert not left, "\n".join(f"{where}: {found}" for where, found in left.items())


def test_seat_changes_are_told_in_russian(client, people):
    """A refused and a done hand-over of a side, and a declined invitation: the umpire's page and the
    notices (to the player who leaves, the one who comes, the creator told of a refusal) in Russian."""
    from campaigns.turns import invitations

    game = new_game(people, "civilwar", None)
    client.force_login(people["alice"])
    page = reverse("umpire", args=[game.pk])
    refused = client.post(page, {"action": "replace", "replace-side": "red", "replace-username": "carol"})
    assert "carol уже занимает место в этой партии" in visible(refused.content.decode())
    offered = client.post(page, {"action": "replace", "replace-side": "red", "replace-username": "dave"}, follow=True)
    assert "dave получил по почте предложение взять сторону красные" in visible(offered.content.decode())
    offer = OutboxMail.objects.get(to="dave@example.org", kind="invite")
    assert "возьмёте ли вы сторону красные?" in offer.subject
    client.force_login(people["dave"])
    link = re.search(r"https?://\S+(/handovers/\S+/)", offer.body).group(1)
    assert "Взять сторону" in visible(client.get(link).content.decode())
    done = client.post(link, follow=True)
    assert "Теперь вы играете за красные" in visible(done.content.decode())
    told = OutboxMail.objects.get(to="bob@example.org", kind="notice")
    assert told.subject.endswith("вы больше не играете за сторону красные") and "Спасибо за игру" in told.body
    observer = invitations.offer(Seat(game=game, role="observer"), people["bob"])
    invitations.decline(invitations.token_for(observer), people["bob"])
    declined = OutboxMail.objects.get(to="alice@example.org", key__startswith="declined:")
    assert "bob отказался от приглашения: место «наблюдатель»" in declined.body
    rows = OutboxMail.objects.filter(to__in=["alice@example.org", "bob@example.org", "dave@example.org"])
    left = {r.key: english("\n".join([r.subject, r.body, visible(r.html)]), (GAME_NAME,)) for r in rows}
    assert not {k: v for k, v in left.items() if v}, left

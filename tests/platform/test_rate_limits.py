"""Rate limits where input arrives (issue 29; campaigns/ratelimit.py): one seat's orders a minute on
every channel (2,000 real submissions went into the append-only log in 13 s), and confirmation
mails an hour to one address and for one user (20 requests made 20 mails to a stranger's address).
Refused with a clear reason, nothing already accepted lost."""

import pytest
from django.core.cache import cache

from campaigns.models import Event, OutboxMail
from campaigns.turns import commands
from campaigns.turns.errors import TurnError
from tests.support.api import client_for
from tests.support.games import legal_red_orders, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


def submitted(game):
    return Event.objects.filter(game=game, type="orders.submitted").count()


def test_a_seat_sending_orders_too_fast_is_refused_on_every_channel(game, people, settings):
    settings.ORDERS_PER_SEAT_PER_MINUTE = 3
    order = legal_red_orders(game)[0]
    for _ in range(3):
        assert commands.submit_orders(game.pk, "red", order, source="mail", ready=False).accepted
    mail = commands.submit_orders(game.pk, "red", order, source="mail", ready=False)
    assert not mail.accepted and mail.retry_after > 0
    assert "too many orders sent in a minute" in mail.errors[0].message
    bob = client_for(people["bob"])
    api = bob.post(f"/api/games/{game.pk}/orders/", {"text": order, "ready": False}, format="json")
    assert api.status_code == 429 and int(api["Retry-After"]) > 0 and api.json()["accepted"] is False
    page = bob.post(f"/games/{game.pk}/", {"text": order})
    assert page.status_code == 200 and "too many orders sent in a minute" in page.content.decode()
    assert submitted(game) == 3  # the log grew by the accepted ones only
    assert state_of(game).turn.orders["red"]["text"] == order  # and they stand
    # another seat is counted apart: blue gets past the limit to the turn's own answer
    with pytest.raises(TurnError, match="blue has no orders to give"):
        commands.submit_orders(game.pk, "blue", "pass", source="api", ready=False)


def test_confirmation_mails_are_limited_per_address_and_per_user(client, people, settings):
    settings.CONFIRMATIONS_PER_ADDRESS_PER_HOUR = 2
    settings.CONFIRMATIONS_PER_USER_PER_HOUR = 3
    client.force_login(people["dave"])
    for _ in range(4):
        client.post("/accounts/settings/", {"action": "address", "email": "stranger@example.net"})
    assert OutboxMail.objects.filter(to="stranger@example.net", kind="verify").count() == 2
    page = client.post(
        "/accounts/settings/", {"action": "address", "email": "stranger@example.net"}, follow=True
    ).content.decode()
    assert "Too many confirmation mails in an hour" in page
    client.post("/accounts/settings/", {"action": "address", "email": "other@example.net"})
    client.post("/accounts/settings/", {"action": "address", "email": "third@example.net"})
    sent = OutboxMail.objects.filter(kind="verify").values_list("to", flat=True)
    assert sorted(sent) == ["other@example.net", "stranger@example.net", "stranger@example.net"]  # dave's 3 an hour


def test_the_confirmation_mail_is_in_the_users_language(client, people):
    from campaigns.models import Profile

    Profile.objects.filter(user=people["dave"]).update(language="ru")
    client.force_login(people["dave"])
    client.post("/accounts/settings/", {"action": "address", "email": "dave.new@example.org"})
    mail = OutboxMail.objects.get(kind="verify")
    assert "Подтвердите" in mail.subject and "Someone signed in" not in mail.body
    assert "Кто-то" in mail.body and "dave" in mail.body

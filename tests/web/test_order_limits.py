"""Orders have one size limit on every channel (issue 29): 2 MB of orders through the web form went
into the append-only log for good and made the game page 8.8 MB."""

import pytest

from campaigns.models import Event
from campaigns.turns import commands
from tests.support.games import legal_op
from tests.support.web import game_url

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_web_form_refuses_orders_over_the_limit_and_keeps_those_before(client, people, game):
    client.force_login(people["bob"])
    first = legal_op(game)
    assert client.post(game_url(game, "game"), {"text": first}).status_code == 302
    huge = first + "\n" + "# " + "x" * (2 * 1024 * 1024)
    resp = client.post(game_url(game, "game"), {"text": huge})
    assert resp.status_code == 200 and "at most 20000 characters" in resp.content.decode()
    texts = [e.payload["text"] for e in Event.objects.filter(game=game, type="orders.submitted")]
    assert texts == [first]


def test_every_channel_shares_the_limit(game):
    text = legal_op(game) + "\n# " + "x" * commands.MAX_ORDERS_CHARS
    result = commands.submit_orders(game.pk, "red", text, source="mail", by="bob")
    assert not result.accepted and "at most 20000 characters" in str(result.errors[0].message)
    assert not Event.objects.filter(game=game, type="orders.submitted").exists()

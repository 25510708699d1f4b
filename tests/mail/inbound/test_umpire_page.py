"""The umpire's page for held mail: only the umpire sees it; release applies, reject refuses."""

from campaigns.mailin import ingest
from campaigns.mailin.models import InboundMessage
from tests.conftest import PASSWORD
from tests.support.games import orders_of, red_opening
from tests.support.mail import last_reply, seat_mail

HELD = {"Authentication-Results": "mx.kriegsbrief.localhost; dmarc=fail"}


def held(game, red, body):
    row = ingest.ingest(seat_mail(red, body, headers=HELD), via="test")
    assert row.status == InboundMessage.Status.HELD
    return row


def test_only_the_umpire_sees_held_mail(client, game, red):
    held(game, red, red_opening(game))
    url = f"/mail/games/{game.pk}/held/"
    client.login(username="bob", password=PASSWORD)
    assert client.get(url).status_code == 404
    client.login(username="alice", password=PASSWORD)
    page = client.get(url)
    assert page.status_code == 200 and red_opening(game) in page.content.decode() and "DMARC" in page.content.decode()


def test_release_applies_and_reject_refuses(client, game, red):
    first = held(game, red, red_opening(game))
    client.login(username="alice", password=PASSWORD)
    url = f"/mail/games/{game.pk}/held/"
    assert client.post(url, {"message": first.pk, "action": "release"}).status_code == 302
    assert orders_of(game, "red")["text"] == red_opening(game)
    second = held(game, red, "pass")
    client.post(url, {"message": second.pk, "action": "reject", "reason": "not you"})
    second.refresh_from_db()
    assert second.status == InboundMessage.Status.REJECTED
    assert "not you" in last_reply(red.email).body
    assert orders_of(game, "red")["text"] == red_opening(game)
    # A message that is no longer held cannot be acted on twice.
    assert client.post(url, {"message": first.pk, "action": "release"}).status_code == 404


def test_the_umpire_page_links_to_held_mail_with_the_count(client, game, red):
    from html.parser import HTMLParser

    class Links(HTMLParser):
        def __init__(self):
            super().__init__()
            self.found, self._href = [], None

        def handle_starttag(self, tag, attrs):
            self._href = dict(attrs).get("href") if tag == "a" else None

        def handle_endtag(self, tag):
            self._href = None

        def handle_data(self, data):
            if self._href:
                self.found.append((self._href, data.strip()))

    def held_link():
        links = Links()
        links.feed(client.get(f"/games/{game.pk}/umpire/").content.decode())
        return [text for href, text in links.found if href == f"/mail/games/{game.pk}/held/"]

    client.login(username="alice", password=PASSWORD)
    assert held_link() == ["No message held"]
    held(game, red, red_opening(game))
    assert held_link() == ["1 message held for you"]
    second = held(game, red, "pass")
    assert held_link() == ["2 messages held for you"]
    ingest.reject_held(second)
    assert held_link() == ["1 message held for you"]

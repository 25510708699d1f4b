"""The page behind List-Unsubscribe (issue 30, point 6): a GET shows what it does and changes
nothing; a provider's one-click POST (RFC 8058: no login, no cookie, no CSRF token) sets the seat
to less mail, twice as once; the page's other button brings reminders back; a forged token or a
seat handed over since opens nothing."""

from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import include, path

from campaigns.mailout import unsubscribe
from campaigns.models import Seat
from campaigns.web import unsubscribe as page

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.urls(__name__)]

# The site's URLs with the page's line (campaigns/web/urls.py gets the same line).
urlpatterns = [
    path("mail/unsubscribe/<str:token>/", page.mail_less, name="mail_unsubscribe"),
    path("", include("kriegsbrief.urls")),
]


def address(seat) -> str:
    return urlsplit(unsubscribe.url(seat)).path


@pytest.fixture
def red(game):
    return game.seats.get(side="red")


def test_a_get_shows_the_button_and_changes_nothing(red):
    response = Client().get(address(red))
    assert response.status_code == 200
    text = response.content.decode()
    assert "Mail me less" in text and "no reminders" in text and red.game.name in text
    assert response["Cache-Control"] == "private, no-store" and "noindex" in response["X-Robots-Tag"]
    assert Seat.objects.get(pk=red.pk).mail == Seat.Mail.ALL


def test_a_one_click_post_sets_less_mail_once(red):
    client = Client(enforce_csrf_checks=True)  # as a provider posts: no cookie, no token
    for _ in range(2):
        response = client.post(address(red), {"List-Unsubscribe": "One-Click"})
        assert response.status_code == 200
        assert Seat.objects.get(pk=red.pk).mail == Seat.Mail.LESS
    assert "Send me reminders again" in response.content.decode()
    response = client.post(address(red), {"mail": "all"})
    assert response.status_code == 200 and Seat.objects.get(pk=red.pk).mail == Seat.Mail.ALL


def test_a_forged_or_outdated_token_opens_nothing(red):
    client = Client(enforce_csrf_checks=True)
    forged = address(red).replace(f"/{red.pk}.", f"/{red.pk + 1}.")
    assert client.post(forged, {"List-Unsubscribe": "One-Click"}).status_code == 404
    old = address(red)
    Seat.objects.filter(pk=red.pk).update(version=red.version + 1)  # handed over to another player
    assert client.post(old, {"List-Unsubscribe": "One-Click"}).status_code == 404
    assert client.get(old).status_code == 404
    assert Seat.objects.get(pk=red.pk).mail == Seat.Mail.ALL

"""One real-browser run: sign in as bob, send orders, see the turn resolve on the page."""

import os

import pytest

from tests.conftest import PASSWORD
from tests.services import needs_chromium
from tests.support.games import legal_op, state_of
from tests.support.playthrough import new_game

CHROMIUM = "/usr/bin/chromium"
# The live server runs in a thread while playwright's sync API runs an event loop.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    needs_chromium,  # skips only outside CI; under KRIEGSBRIEF_REQUIRE_SERVICES=1 a missing browser fails
]

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def browser_page():
    from django.db import connections
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            page.set_default_timeout(20_000)
            yield page
        finally:
            browser.close()
            # While Playwright's event loop runs, Django keeps this thread's database connections
            # apart from its usual ones (asgiref's Local follows a running loop): what the test
            # opened in here is closed here, or it stays open after the test, to the end of the run.
            connections.close_all()


def sign_in(page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]:has-text('Sign in')")
    page.wait_for_url(base + "/")


def test_bob_sees_the_hex_map_of_a_warworlds_game_and_orders(live_server, browser_page, people):
    from campaigns.turns import commands, viewing
    from rules.core.protocol import Viewer
    from rules.warworlds.testing import bot_orders, state_from_view

    game = new_game(people, "warworlds", "town_assault")
    # the deployment round (rules version 3): blue alone places its hidden pickets; red orders in turn 1
    assert commands.submit_orders(game.pk, "blue", "deploy B2 at 0807", source="web").accepted
    assert state_of(game).turn.sides == ["red", "blue"]
    page = browser_page
    sign_in(page, live_server.url, "bob")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    hexes = page.locator("section.map svg polygon")
    assert hexes.count() > 50 and page.locator("section.map svg text:has-text('R1 inf')").count() == 1
    assert page.locator("section.map svg text:has-text('B2 inf')").count() == 0  # blue's hidden pickets
    assert "B2" not in page.inner_html("section.map svg")
    page.click(".map-tools [data-zoom=in]")  # the toolbar is shown for the hex map and zooms it
    assert page.inner_text(".map-tools [data-zoom-level]") == "×1.5"
    board = viewing.game_view(game, state_of(game), Viewer(role="player", side="red"))["board"]
    order = bot_orders(state_from_view(board), "red").splitlines()[0]
    page.fill("#id_text", order)
    page.click("button:has-text('Send orders')")
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    page.locator(".messages").wait_for()
    assert "Orders accepted" in page.inner_text(".messages")
    assert state_of(game).turn.orders["red"]["text"] == order


def test_bob_signs_in_sends_orders_and_sees_the_result(live_server, browser_page, game):
    page = browser_page
    op = legal_op(game)
    page.goto(live_server.url + "/")
    assert "/accounts/login/" in page.url
    page.fill("#id_username", "bob")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]:has-text('Sign in')")
    page.wait_for_url(live_server.url + "/")
    assert page.locator("text=your orders are awaited").count() == 1
    page.click("text=Test game")
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    assert page.locator("section.map svg").count() == 1
    page.fill("#id_text", op)
    assert not page.is_checked("#id_ready")  # ready is never implied
    page.check("#id_ready")
    page.once("dialog", lambda d: d.accept())  # red alone orders: its ready closes the turn, and the page asks
    page.click("button:has-text('Send orders')")
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    page.locator(".messages").wait_for()
    assert "Orders accepted" in page.inner_text(".messages")
    log = page.inner_text(".log")
    assert "Turn 1 published" in log and "Turn 2 opened for blue" in log
    assert page.locator("#id_text").count() == 0  # blue's turn now
    assert page.locator("section.map svg").count() == 1
    state = state_of(game)
    assert state.turn.number == 2
    svg = page.request.get(f"{live_server.url}/games/{game.pk}/map.svg")
    assert svg.status == 200 and svg.headers["content-type"].startswith("image/svg+xml")


def test_bob_accepts_an_invitation_from_my_games(live_server, browser_page, people):
    from campaigns.models import Campaign
    from campaigns.turns import creation

    game = creation.create_game(
        campaign=Campaign.objects.create(name="C"),
        name="Invited game",
        ruleset="civilwar",
        created_by=people["alice"],
        seats=[
            {"role": "umpire", "user": people["alice"]},
            {"role": "player", "side": "red", "user": people["bob"]},
            {"role": "player", "side": "blue", "user": people["carol"]},
        ],
    )
    page = browser_page
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "bob")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]:has-text('Sign in')")
    page.wait_for_url(live_server.url + "/")
    invitations = page.inner_text("#invitations")
    assert (
        "Invited game" in invitations and "umpire: alice" in invitations and "the umpire holds no side" in invitations
    )
    page.click("#invitations button:has-text('Accept')")
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    assert "You joined Invited game" in page.inner_text(".messages")
    assert "alice" in page.inner_text("#roster")
    assert game.seats.get(side="red").status == "active"


@pytest.mark.parametrize(
    "viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}], ids=["desktop", "phone"]
)
def test_a_refused_order_is_at_the_top_of_the_viewport_with_the_focus(live_server, browser_page, game, viewport):
    """Issue 31: after Send the page reloaded at the top and the errors sat far below (y=964 on a
    900 px desktop, y=1742 on a phone); now the outcome is first, focused, in view, in both languages."""
    page = browser_page
    page.set_viewport_size(viewport)
    sign_in(page, live_server.url, "bob")
    for lang, refused in (("en", "Your orders were not accepted"), ("ru", "Ваши приказы не приняты")):
        page.context.set_extra_http_headers({"Accept-Language": lang})
        page.goto(f"{live_server.url}/games/{game.pk}/")
        page.fill("#id_text", "fly to the moon")
        page.click("button:has-text('Send orders'), button:has-text('Отправить приказы')")
        page.wait_for_load_state("load")
        outcome = page.locator("#outcome")
        assert refused in outcome.inner_text() and "fly to the moon" in outcome.inner_text()
        assert page.evaluate("document.activeElement.id") == "outcome"
        box = outcome.bounding_box()
        assert 0 <= box["y"] < viewport["height"] / 3, box  # at the top of what is shown, not below it
    page.context.set_extra_http_headers({"Accept-Language": "en"})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.fill("#id_text", legal_op(game))
    page.click("button:has-text('Send orders')")
    page.wait_for_load_state("load")
    assert "Orders accepted" in page.locator("#outcome").inner_text()
    assert page.evaluate("document.activeElement.id") == "outcome"

"""The game page's "older events" link in a real Chromium, in Russian (issue 18)."""

from campaigns.models import Profile
from campaigns.web import present
from tests.support.games import grow_log, legal_red_orders

from .test_browser import browser_page, pytestmark, sign_in  # noqa: F401  (the fixture; browser, database and Chromium marks)


def test_bob_pages_back_through_a_long_log_in_russian(live_server, browser_page, people, game):
    grow_log(game, 2 * present.LOG_PAGE + 50, legal_red_orders(game)[0])
    Profile.objects.filter(user=people["bob"]).update(language="ru")
    page = browser_page
    sign_in(page, live_server.url, "bob")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    lines = page.locator(".area-log li")
    assert lines.count() <= present.LOG_PAGE
    newest = lines.first.inner_text()
    page.click("text=Более ранние события")
    page.wait_for_url("**cursor=**")
    assert page.is_visible("text=Последние события")
    assert 0 < lines.count() <= present.LOG_PAGE
    older_page = [lines.nth(i).inner_text() for i in range(lines.count())]
    page.click("text=Последние события")
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    assert lines.first.inner_text() == newest
    assert not page.is_visible("text=Последние события")
    assert older_page  # the older page showed lines of its own

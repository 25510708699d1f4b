"""The umpire's console pages its whole log in a real Chromium, in Russian (issue 18): the filter by
kind, named in Russian, then "older events" and back, the filter kept."""

from campaigns.models import Profile
from campaigns.web import present
from tests.support.games import grow_log, legal_red_orders

from .test_browser import browser_page, pytestmark, sign_in  # noqa: F401  (the fixture; browser, database and Chromium marks)


def test_the_umpire_pages_back_through_a_filtered_log_in_russian(live_server, browser_page, people, game):
    grow_log(game, 3 * present.LOG_PAGE, legal_red_orders(game)[0])
    Profile.objects.filter(user=people["alice"]).update(language="ru")
    page = browser_page
    sign_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/umpire/")
    lines = page.locator("#umpire-log .log li")
    assert lines.count() == present.LOG_PAGE
    page.select_option("#log-kind", label="· Приказы отправлены")  # htmx swaps the log in place
    page.wait_for_function("document.querySelector('#log-kind').value === 'orders.submitted'")
    page.wait_for_selector("#umpire-log a.older-log[href*='kind=orders.submitted']")
    newest = lines.first.inner_text()
    page.click("text=Более ранние события")
    page.wait_for_url("**cursor=**")
    assert "kind=orders.submitted" in page.url
    assert page.locator("#log-kind").input_value() == "orders.submitted"
    assert page.is_visible("text=Последние события")
    assert 0 < lines.count() <= present.LOG_PAGE
    older_page = [lines.nth(i).inner_text() for i in range(lines.count())]
    assert all("приказы получены" in line for line in older_page)  # orders only, in Russian
    page.click("text=Последние события")
    page.wait_for_url("**kind=orders.submitted")
    assert lines.first.inner_text() == newest
    assert not page.is_visible("text=Последние события")

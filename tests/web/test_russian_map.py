"""One Chromium check of a map drawn in Russian (issue 17): a Russian player's Little Wars map
reads Russian and still orders by clicks, the order written from the SVG's attributes as in
English (the words change, the contract of rules/core/MAPS.md does not)."""

from campaigns.models import Profile
from campaigns.turns import commands
from tests.support.playthrough import new_game

from .test_browser import browser_page, pytestmark, sign_in  # noqa: F401  (the fixture; browser, database and Chromium marks)
from .test_click_orders import group_at, order_by_clicks


def test_a_russian_player_orders_by_clicks_on_a_russian_map(live_server, browser_page, people):
    Profile.objects.filter(user=people["bob"]).update(language="ru")
    game = new_game(people, "littlewars", "skirmish")
    for side in ("red", "blue"):  # deployment as set out: the battle's first turn follows
        assert commands.submit_orders(game.pk, side, "hold", source="web").accepted
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 900})
    sign_in(page, live_server.url, "bob")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    legend = page.locator("section.map svg g.legend").text_content()
    assert "пехотинец" in legend and "infantry" not in legend
    x, y = group_at(game, "red", "foot1")
    line = order_by_clicks(page, "foot1", x, y + 4)
    assert line.startswith("move foot1 to ")
    page.locator("#order-check [data-check=ok]").wait_for()  # the rule set reads it

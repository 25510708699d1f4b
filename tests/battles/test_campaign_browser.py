"""The campaign's pages in Chromium (issue 28): the umpire chooses how a battle is fought on the
strategic game's page, follows it to the campaign's page and the battle's game; a player reads My
turns on a phone. No console error anywhere."""

import contextlib

import pytest

from tests.battles.test_linked_battles import open_battles, play_strategic_until, strategic_game
from tests.services import needs_chromium
from tests.web.test_browser import browser_page, sign_in  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), needs_chromium]


def in_process(execute=True):
    return contextlib.nullcontext()  # committed at once: on-commit work runs as it commits


def test_the_umpire_chooses_a_battle_and_follows_the_campaign(live_server, browser_page, people):
    game = strategic_game(people, battle_ruleset="ask")
    play_strategic_until(game, in_process, lambda s: open_battles(s))
    page, base = browser_page, live_server.url
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in(page, base, "alice")
    page.goto(f"{base}/games/{game.pk}/")
    card = page.locator("#battles")
    assert "waiting for the umpire" in card.inner_text()
    card.locator("select[name=ruleset]").select_option("littlewars")
    card.locator("button:has-text('Choose')").click()
    page.wait_for_url(f"{base}/games/{game.pk}/#battles")
    assert "your choice is made" in page.content()
    link = page.locator('#battles a:has-text("the battle\'s game")')
    assert link.count() == 1
    page.click(f"a[href='/campaigns/{game.campaign_id}/']")
    page.wait_for_url(f"{base}/campaigns/{game.campaign_id}/")
    assert "fought in Little Wars" in page.locator("#timeline").inner_text()
    page.locator("#timeline a").first.click()
    assert "Little Wars" in page.locator("h1").inner_text() or page.locator(".map-frame svg").count() == 1
    assert errors == []


def test_a_player_reads_my_turns_on_a_phone(live_server, browser_page, people):
    game = strategic_game(people)
    page, base = browser_page, live_server.url
    page.set_viewport_size({"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in(page, base, "bob")
    page.click("a:has-text('My turns')")
    page.wait_for_url(f"{base}/turns/")
    row = page.locator(".agenda-row").first
    assert game.name in row.inner_text()
    box = row.bounding_box()
    assert box is not None and box["width"] <= 390  # stacked, not wider than the phone
    assert errors == []

"""Zoom and pan on the game page's map, in a real Chromium: a Little Wars big battle (420 figures)
and, since the control is the same for every rule set, a Civil War map."""

import pytest

from campaigns.turns import commands
from tests.conftest import PASSWORD
from tests.support.playthrough import new_game

from .test_browser import browser_page, pytestmark  # noqa: F401  (the fixture; browser, database and Chromium marks)

FIGURES = "section.map svg .unit.figure"  # the figures on the table (MAPS.md), not the legend's samples


def sign_in(page, url, user):
    page.goto(url + "/accounts/login/")
    page.fill("#id_username", user)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]:has-text('Sign in')")
    page.wait_for_url(url + "/")


def view_box(page) -> list[float]:
    return [float(v) for v in page.get_attribute("section.map svg", "viewBox").split()]


def first_figure_width(page) -> float:
    return page.locator(FIGURES).first.bounding_box()["width"]


def test_the_big_battle_map_zooms_and_pans(live_server, browser_page, people):
    game = new_game(people, "littlewars", "big_battle")
    for side in ("red", "blue"):  # the curtain lifts: both armies on the map
        assert commands.submit_orders(game.pk, side, "hold", source="web").accepted
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 900})
    sign_in(page, live_server.url, "bob")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.locator(FIGURES).count() == 420
    assert page.is_visible("button[aria-label='Zoom in']")
    home = view_box(page)
    assert home[2] >= 218 and page.inner_text("[data-zoom-level]") == "×1"  # the whole 216 in table, and its margins
    size = first_figure_width(page)

    page.click("button[aria-label='Zoom in']")
    assert page.inner_text("[data-zoom-level]") == "×1.5"
    page.click("button[aria-label='Zoom in']")
    x, y, w, h = view_box(page)
    assert w == pytest.approx(home[2] / 2.25, abs=0.01) and h == pytest.approx(home[3] / 2.25, abs=0.01)
    assert x + w / 2 == pytest.approx(home[0] + home[2] / 2, abs=0.01)  # zoomed about the middle
    assert y + h / 2 == pytest.approx(home[1] + home[3] / 2, abs=0.01)
    assert first_figure_width(page) == pytest.approx(size * 2.25, rel=0.05)  # the figures really grow

    box = page.locator("section.map svg").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx - 100, cy - 40, steps=5)
    page.mouse.up()
    px, py, pw, _ = view_box(page)
    assert px - x == pytest.approx(100 * w / box["width"], rel=0.05)  # dragged left: the view moves east
    assert py - y == pytest.approx(40 * w / box["width"], rel=0.05)
    assert pw == pytest.approx(w, abs=0.01)

    page.mouse.move(box["x"] + 10, box["y"] + 10)
    page.mouse.wheel(0, -120)
    page.wait_for_function(f"document.querySelector('section.map svg').viewBox.baseVal.width < {pw - 0.01}")
    assert view_box(page)[2] == pytest.approx(pw / 1.25, abs=0.01)

    page.click("text=Whole map")
    assert view_box(page) == home
    page.click("button[aria-label='Zoom out']")  # never smaller than the whole table
    assert view_box(page) == home


def test_the_same_control_zooms_a_civil_war_map(live_server, browser_page, game):
    page = browser_page
    sign_in(page, live_server.url, "carol")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    home = view_box(page)
    page.click("button[aria-label='Zoom in']")
    assert view_box(page)[2] == pytest.approx(home[2] / 1.5, abs=0.01)
    page.click("text=Whole map")
    assert view_box(page) == home


def test_the_table_map_says_where_the_pointer_is_in_inches(live_server, browser_page, people):
    """Coordinates on hover, as orders write them (y from the south edge), before and after zooming."""
    game = new_game(people, "littlewars", "big_battle")
    for side in ("red", "blue"):
        assert commands.submit_orders(game.pk, side, "hold", source="web").accepted
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 900})
    sign_in(page, live_server.url, "bob")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    read = []
    for zoomed in (False, True):
        if zoomed:
            page.click("button[aria-label='Zoom in']")
            page.click("button[aria-label='Zoom in']")
        frame = page.locator("section.map svg").bounding_box()
        figures = page.locator('section.map svg [data-kind="figure"][data-side="red"]').all()
        figure, box = next(
            (f, b)
            for f in figures[::7]
            if (b := f.bounding_box())  # one in sight
            and frame["x"] < b["x"] < frame["x"] + frame["width"] - 20
            and frame["y"] < b["y"] < frame["y"] + frame["height"] - 20
        )
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        x, y = (float(v) for v in page.inner_text("[data-map-coords]").split("=")[1].split()[0].split(","))
        assert x == pytest.approx(float(figure.get_attribute("data-x")), abs=0.15)
        assert y == pytest.approx(float(figure.get_attribute("data-y")), abs=0.15)
        read.append((x, y))
    assert read[0] != read[1]  # the readout followed the pointer to another figure

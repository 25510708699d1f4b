"""Orders by clicks on the map, in a real Chromium: a whole Little Wars turn ordered without typing
and adjudicated, with the confirmation of a ready that closes the turn and the side's pending
orders drawn on its own map only; a Civil War operation by clicks."""

from campaigns.turns import commands
from tests.support.games import legal_op, new_game_with_people, state_of
from tests.support.playthrough import new_game

from .test_browser import browser_page, pytestmark, sign_in  # noqa: F401  (the fixture; browser, database and Chromium marks)


def at_inches(page, x: float, y: float) -> dict:
    """The page position of table point x,y (inches, y up), as the map draws it (MAPS.md)."""
    return page.evaluate(
        """([x, y]) => {
        const svg = document.querySelector("section.map .map-frame svg");
        const p = svg.createSVGPoint(); p.x = x; p.y = +svg.getAttribute("data-depth") - y;
        const s = p.matrixTransform(svg.getScreenCTM());
        return {x: s.x, y: s.y};
    }""",
        [x, y],
    )


def click_table(page, x: float, y: float) -> None:
    p = at_inches(page, x, y)
    page.mouse.click(p["x"], p["y"])


def select_unit(page, unit_id: str, side: str = "") -> None:
    side = side or page.evaluate("JSON.parse(document.getElementById('map-orders').textContent).side")
    page.locator(f'section.map svg .unit[data-id="{unit_id}"][data-side="{side}"]').focus()
    page.keyboard.press("Enter")
    page.locator("#compose-status [data-selected]").wait_for()


def order_by_clicks(page, unit_id: str, x: float, y: float) -> str:
    before = page.input_value("#id_text")
    select_unit(page, unit_id)
    click_table(page, x, y)
    page.wait_for_function("before => document.querySelector('#id_text').value !== before", arg=before)
    return page.input_value("#id_text").strip().splitlines()[-1]


def group_at(game, side, name):
    board = state_of(game).rules
    ids = board["groups"][side][name]
    figs = [board["figures"][i] for i in ids]
    return sum(f["x"] for f in figs) / len(figs), sum(f["y"] for f in figs) / len(figs)


def test_a_little_wars_turn_is_ordered_by_clicks_and_adjudicated(live_server, browser_page, people):
    game = new_game(people, "littlewars", "skirmish")
    for side in ("red", "blue"):  # deployment as set out: the battle's first turn follows
        assert commands.submit_orders(game.pk, side, "hold", source="web").accepted
    number = state_of(game).turn.number
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 900})
    lines = {}
    for side, user, dy in (("red", "bob", 4), ("blue", "carol", -4)):
        sign_in(page, live_server.url, user)
        page.goto(f"{live_server.url}/games/{game.pk}/")
        assert not page.is_checked("#id_ready")  # ready is never implied
        x, y = group_at(game, side, "foot1")
        lines[side] = order_by_clicks(page, "foot1", x, y + dy)
        assert lines[side].startswith("move foot1 to ")
        page.locator("#order-check [data-check=ok]").wait_for()  # checked live by the rule set's parser
        page.check("#id_ready")
        dialogs = []
        page.once("dialog", lambda d: (dialogs.append(d.message), d.accept()))  # noqa: B023  (answered in this pass)
        page.click("button:has-text('Send orders')")
        page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
        page.locator(".messages").wait_for()
        if side == "red":
            assert dialogs == []  # blue was not ready: this ready closes nothing
            # red's sent order is drawn on red's own map as a ghost and an arrow
            assert page.locator("section.map svg g.kb-pending .ghost").count() == 1
            page.context.clear_cookies()
        else:
            assert dialogs and "closes the turn" in dialogs[0]
    state = state_of(game)
    assert state.turn.number == number + 1
    assert f"Turn {number} published" in page.inner_text(".log")
    assert page.locator("section.map svg g.kb-pending .ghost").count() == 0  # adjudicated: no ghosts left


def test_pending_orders_are_drawn_on_the_orderers_map_only(live_server, browser_page, people):
    game = new_game(people, "littlewars", "skirmish")
    for side in ("red", "blue"):
        assert commands.submit_orders(game.pk, side, "hold", source="web").accepted
    x, y = group_at(game, "red", "foot1")
    line = f"move foot1 to {x:.1f},{y + 3:.1f}"
    assert commands.submit_orders(game.pk, "red", line, source="web", ready=False).accepted
    page = browser_page
    sign_in(page, live_server.url, "bob")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.locator("section.map svg g.kb-pending .ghost").count() == 1
    assert page.locator("section.map svg g.kb-pending line").count() == 1
    page.context.clear_cookies()
    sign_in(page, live_server.url, "carol")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.locator("section.map svg").wait_for()
    assert page.locator("section.map svg g.kb-pending *").count() == 0
    assert line not in page.content()


def test_a_civil_war_operation_by_clicks(live_server, browser_page, game):
    page = browser_page
    sign_in(page, live_server.url, "bob")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    op = legal_op(game)  # the first legal operation: "form C2" on a new game
    verb, place = op.split()[0], op.split()[1]
    assert verb == "form"
    page.click(f'section.map svg .node[data-node="{place}"]')
    page.locator(f'section.map svg .kb-target[data-node="{place}"]').wait_for()  # its operations light up
    page.click(f'section.map svg .node[data-node="{place}"]')
    page.wait_for_function("() => document.querySelector('#id_text').value.trim() !== ''")
    assert page.input_value("#id_text").strip() == op
    page.check("#id_ready")
    page.once("dialog", lambda d: d.accept())  # the only side to order: its ready closes the turn
    page.click("button:has-text('Send orders')")
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    assert state_of(game).turn.number == 2


def test_a_hex_unit_is_sent_to_a_hex_by_clicks(live_server, browser_page, people):

    game = new_game(people, "warworlds", "town_assault")
    # the deployment round (rules version 3): blue alone places its hidden pickets; red orders in turn 1
    assert commands.submit_orders(game.pk, "blue", "deploy B2 at 0807", source="web").accepted
    assert state_of(game).turn.sides == ["red", "blue"]
    page = browser_page
    sign_in(page, live_server.url, "bob")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    unit = page.locator('section.map svg .unit[data-side="red"]').first
    unit_id, here = unit.get_attribute("data-id"), unit.get_attribute("data-hex")
    select_unit(page, unit_id)
    there = f"{here[:2]}{int(here[2:]) + 1:02d}"  # the next hex of its column
    page.locator(f'section.map svg polygon[data-hex="{there}"]').dispatch_event("click")
    page.wait_for_function("() => document.querySelector('#id_text').value.trim() !== ''")
    assert page.input_value("#id_text").strip() == f"move {unit_id} to {there}"
    # and by the keyboard alone, into an empty box: the unit's id, Enter, the hex, Enter
    farther = f"{here[:2]}{int(here[2:]) + 2:02d}"
    page.fill("#id_text", "")
    page.fill("#compose-target", unit_id)
    page.press("#compose-target", "Enter")
    page.locator("#compose-status [data-selected]").wait_for()
    page.fill("#compose-target", farther)
    page.press("#compose-target", "Enter")
    page.wait_for_function("() => document.querySelector('#id_text').value.trim() !== ''")
    assert page.input_value("#id_text").strip() == f"move {unit_id} to {farther}"


def test_the_umpires_close_asks_first(live_server, browser_page, game):
    page = browser_page
    sign_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/umpire/")
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("button:has-text('Close turn 1')")
    assert asked and "Close turn 1 now?" in asked[0]
    # Answered no, nothing was sent: had it been, the page would now be turn 2's, with no such button.
    page.once("dialog", lambda d: d.accept())
    page.click("button:has-text('Close turn 1')")
    page.locator(".messages").wait_for()
    assert state_of(game).turn.number == 2
    from campaigns.models import Event

    assert Event.objects.filter(game=game, type="turn.closed").count() == 1


def pinch(page, spread: float) -> None:
    """Two fingers on the map move apart by ``spread`` pixels each (pointer events, as a touch screen sends)."""
    page.evaluate(
        """spread => {
        const svg = document.querySelector("section.map .map-frame svg"), r = svg.getBoundingClientRect();
        const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
        const send = (type, id, x) => svg.dispatchEvent(new PointerEvent(type, {pointerId: id, clientX: x, clientY: cy,
                                                                               pointerType: "touch", bubbles: true}));
        send("pointerdown", 1, cx - 20); send("pointerdown", 2, cx + 20);
        send("pointermove", 1, cx - 20 - spread); send("pointermove", 2, cx + 20 + spread);
        send("pointerup", 1, cx - 20 - spread); send("pointerup", 2, cx + 20 + spread);
    }""",
        spread,
    )


def test_a_phone_sees_the_map_first_pinches_it_and_never_scrolls_sideways(live_server, browser_page, people):
    game = new_game(people, "littlewars", "skirmish")
    context = browser_page.context.browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    sign_in(page, live_server.url, "bob")
    for url in (f"/games/{game.pk}/", "/", f"/games/{game.pk}/seats/", "/games/new/", "/accounts/settings/"):
        page.goto(live_server.url + url)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, url
    page.goto(f"{live_server.url}/games/{game.pk}/")
    map_top = page.locator("section.map").bounding_box()["y"]
    assert map_top < page.locator("#orders").bounding_box()["y"]  # the map comes before the forms
    assert page.is_visible(".map-tools .hint-touch") and not page.is_visible(".map-tools .hint-mouse")
    page.click(".map-tools [data-zoom=reset]")
    assert page.inner_text(".map-tools [data-zoom-level]") == "×1"
    pinch(page, 60)
    assert page.inner_text(".map-tools [data-zoom-level]") != "×1"  # two fingers apart zoom in
    # the Kriegspiel table (96 x 288 in) starts on the player's own troops, where labels can be read
    strip = new_game_with_people(people, "kriegspiel", None, "Kriegspiel")
    page.goto(f"{live_server.url}/games/{strip.pk}/")
    mine = [float(v) for v in page.get_attribute("section.map svg", "data-mine").split()]
    x, y, w, h = (float(v) for v in page.get_attribute("section.map svg", "viewBox").split())
    assert page.inner_text(".map-tools [data-zoom-level]") != "×1"
    assert x <= mine[0] and y <= mine[1] and x + w >= mine[0] + mine[2] - 0.01 and y + h >= mine[1] + mine[3] - 0.01
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def test_civil_war_standing_instructions_are_offered_in_russian_and_added_by_clicks(live_server, browser_page, game):
    from campaigns.models import Profile
    from tests.support.games import play_one

    play_one(game)  # red forms a unit
    play_one(game)  # blue's turn: red orders again, with a unit to instruct
    Profile.objects.filter(user__username="bob").update(language="ru")
    rules = state_of(game).rules
    point = next(p for p, side in rules["units"].items() if side == "red")
    page = browser_page
    sign_in(page, live_server.url, "bob")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click("summary:has-text('Постоянные указания, доступные вам')")
    offered = page.locator(".add-lines li", has_text=f"if attacked at {point} fight")
    assert f"на {point}: биться до конца" in offered.inner_text()
    offered.locator("button").click()
    page.click("summary:has-text('Доступные вам сейчас операции')")
    op = legal_op(game)
    page.locator(f'.add-lines button[data-add-line="{op}"]').click()
    assert page.input_value("#id_text").strip().splitlines() == [f"if attacked at {point} fight", op]
    page.check("#id_ready")
    page.once("dialog", lambda d: d.accept())
    page.click("button[type=submit]:has-text('Отправить приказы')")
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    assert state_of(game).rules["standing"]["red"][point]["action"] == "fight"

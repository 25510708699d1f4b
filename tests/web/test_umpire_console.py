"""The umpire's console: the whole log filtered by audience and kind, every side's orders side by side,
the map with its zoom; the approval note reaching the players' logs and turn reports; confirmations."""

from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.models import Event, OutboxMail
from campaigns.turns import deadlines
from tests.support.games import legal_op, state_of
from tests.support.web import game_url, page, post_orders

pytestmark = pytest.mark.django_db(transaction=True)  # the adjudication runs when the orders' transaction commits


def test_the_umpires_note_reaches_the_players_log_and_report(client, people, approval_game):
    game = approval_game
    client.force_login(people["bob"])
    post_orders(client, game, legal_op(game))
    client.force_login(people["alice"])
    text = page(client, game, "umpire")
    assert 'data-confirm="Publish the results of turn 1' in text  # approving asks first
    client.post(game_url(game, "umpire"), {"action": "approve", "approve-note": "Mind the river crossings"})
    assert Event.objects.get(game=game, type="turn.published").payload["note"] == "Mind the river crossings"
    for name in ("bob", "carol"):
        client.force_login(people[name])
        assert "The umpire's note: Mind the river crossings" in page(client, game), name
    report = OutboxMail.objects.get(game=game, kind="report", seat__side="red")
    assert "The umpire's note: Mind the river crossings" in report.body


def test_the_umpire_filters_the_whole_log_by_audience_and_kind(client, people, game):
    client.force_login(people["bob"])
    post_orders(client, game, legal_op(game), ready=False)
    client.force_login(people["alice"])
    whole = page(client, game, "umpire")
    assert "red submitted orders by web" in whole and "Turn 1 opened" in whole
    red_only = page(client, game, "umpire", query="?audience=side:red")
    assert "red submitted orders by web" in red_only and "Turn 1 opened" not in red_only
    turns_only = page(client, game, "umpire", query="?kind=turn")
    assert "Turn 1 opened" in turns_only and "red submitted orders by web" not in turns_only
    bogus = page(client, game, "umpire", query="?kind=nonsense&audience=side:green")
    assert "red submitted orders by web" in bogus  # an unknown filter filters nothing
    assert 'class="orders-side-by-side"' in whole and 'class="map-tools"' in whole
    assert 'data-confirm="Close turn 1 now?' in whole  # closing asks first


def test_a_deadline_in_the_log_is_in_the_readers_zone(client, people, game):
    when = timezone.now().replace(microsecond=0) + timedelta(days=2)
    deadlines.set_deadline(game.pk, 1, when, "a holiday")
    client.force_login(people["alice"])  # Europe/Berlin
    assert "(Europe/Berlin): a holiday" in page(client, game)
    client.force_login(people["carol"])  # Asia/Tokyo
    assert "(Asia/Tokyo): a holiday" in page(client, game)


def test_a_players_log_has_no_seeds_or_commitments_but_a_verification_page(client, people, game):
    state = state_of(game)
    commitment = state.turn.commitment
    client.force_login(people["bob"])
    text = page(client, game)
    assert commitment not in text and commitment[:12] not in text
    assert game_url(game, "verification") in text
    assert commitment in page(client, game, "verification")


def test_the_favicon_is_served(client, people, game):
    from django.templatetags.static import static

    client.force_login(people["bob"])
    assert static("kb/favicon.svg") in page(client, game)
    assert client.get(static("kb/favicon.svg")).status_code == 200
    assert client.get("/favicon.ico", follow=True).status_code == 200


def test_the_console_shows_the_rules_version_and_says_why_a_0_1_0_game_cannot_move_on(client, people):
    from campaigns.turns import commands
    from tests.turns.test_rules_versions import GOLDEN, _import_golden

    game = _import_golden(GOLDEN / "0.1.0" / "littlewars-open.jsonl")
    commands.close_turn(game.pk, "deadline")  # the next turn opens with no orders in: a turn boundary
    client.force_login(game.seats.get(role="umpire").user)
    text = page(client, game, "umpire")
    from rules import catalog

    newest = catalog.get("littlewars").version
    assert f"This game is played by version 1 of its rules; the newest is {newest}." in text
    assert f"Play on by version {newest}" in text
    resp = client.post(game_url(game, "umpire"), {"action": "rules_version", "version": str(newest)}, follow=True)
    assert "plays on by it to its end" in resp.content.decode()
    assert not Event.objects.filter(game=game, type="game.rules_changed").exists()
    new = page(client, game, "umpire")
    assert f"Play on by version {newest}" in new  # nothing changed


def test_the_console_of_a_game_on_the_newest_rules_offers_no_move(client, people, game):
    client.force_login(people["alice"])
    text = page(client, game, "umpire")
    from rules import catalog

    newest = catalog.get(game.ruleset).version  # a new game takes the newest (Civil War 2 since battles)
    assert f"This game is played by version {newest} of its rules; the newest is {newest}." in text
    assert "Play on by version" not in text

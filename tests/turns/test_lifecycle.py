"""The turn lifecycle: open → orders → ready → close → adjudicate → publish → next."""

from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns.models import Event, OutboxMail
from campaigns.turns import commands, deadlines, viewing
from campaigns.turns.gamelog import verify_game
from rules.core import dice
from rules.core.protocol import Viewer
from tests.support.games import play_one, state_of

pytestmark = pytest.mark.django_db(transaction=True)


def types(game, **filters):
    return list(Event.objects.filter(game=game, **filters).order_by("seq").values_list("type", flat=True))


def test_new_game_opens_turn_one_for_red_with_a_sealed_seed(game):
    state = state_of(game)
    turn = state.turn
    assert (turn.number, turn.status, turn.sides) == (1, "open", ["red"])
    sealed = Event.objects.get(game=game, type="seed.sealed", turn=1)
    assert sealed.audience == "umpire"
    assert dice.commitment(sealed.payload["seed"]) == turn.commitment
    assert game.seats.count() == 3 and game.deadline_at is not None


def test_valid_orders_close_adjudicate_and_publish_the_turn(game):
    side, text = play_one(game)
    state = state_of(game)
    assert state.turn.number == 2 and state.turn.sides == ["blue"]
    turn1 = types(game, turn=1)
    for step in ("turn.opened", "orders.submitted", "side.ready", "turn.closed", "turn.adjudicated", "turn.published"):
        assert step in turn1
    published = Event.objects.get(game=game, type="turn.published", turn=1)
    assert (
        dice.commitment(published.payload["seed"])
        == Event.objects.get(game=game, type="turn.opened", turn=1).payload["commitment"]
    )
    assert OutboxMail.objects.filter(game=game, kind="report").count() == 3


def test_invalid_orders_are_refused_with_line_errors_and_earlier_orders_stay(game):
    state = state_of(game)
    from rules.civilwar import legal_operations

    good = legal_operations(state.rules, "red")[0]
    assert commands.submit_orders(game.pk, "red", good, source="web", ready=False).accepted
    result = commands.submit_orders(game.pk, "red", f"{good}\nfly to the moon", source="web")
    assert not result.accepted and [e.line for e in result.errors] == [2]
    assert state_of(game).turn.orders["red"]["text"] == good


def test_wrong_side_and_closed_turn_are_refused(game):
    with pytest.raises(commands.TurnError, match="blue has no orders to give in turn 1"):
        commands.submit_orders(game.pk, "blue", "pass", source="web")


def test_latest_orders_before_close_count(game):
    from rules.civilwar import legal_operations

    ops = legal_operations(state_of(game).rules, "red")
    commands.submit_orders(game.pk, "red", ops[0], source="web", ready=False)
    commands.submit_orders(game.pk, "red", ops[1], source="api", ready=False)
    assert commands.close_turn(game.pk, "closed by the umpire")
    adjudicated = Event.objects.get(game=game, type="turn.adjudicated", turn=1)
    assert adjudicated.payload["orders"] == {"red": ops[1]}
    assert "orders.defaulted" not in types(game)


def test_deadline_sweep_closes_and_defaults_a_silent_side_as_missed(game):
    result = deadlines.sweep(now=timezone.now() + timedelta(days=30))
    assert result["closed"] == 1
    defaulted = Event.objects.get(game=game, type="orders.defaulted", turn=1)
    assert defaulted.audience == "public"
    state = state_of(game)
    assert state.missed == {"red": 1} and state.turn.number == 2


def test_submitted_but_not_ready_orders_are_never_missed(game):
    from rules.civilwar import legal_operations

    text = legal_operations(state_of(game).rules, "red")[0]
    commands.submit_orders(game.pk, "red", text, source="web", ready=False)
    deadlines.sweep(now=timezone.now() + timedelta(days=30))
    assert "orders.defaulted" not in types(game)
    assert state_of(game).missed == {}


def test_a_second_sweep_before_the_deadline_does_nothing(game):
    assert deadlines.sweep()["closed"] == 0
    assert state_of(game).turn.status == "open"


@pytest.mark.django_db(transaction=False)
def test_adjudication_runs_exactly_once(game, django_capture_on_commit_callbacks):
    from rules.civilwar import legal_operations

    commands.submit_orders(game.pk, "red", legal_operations(state_of(game).rules, "red")[0], source="web", ready=False)
    with django_capture_on_commit_callbacks(execute=False):
        commands.close_turn(game.pk, "closed by the umpire")
    assert commands.adjudicate(game.pk, 1) is True
    assert commands.adjudicate(game.pk, 1) is False
    assert types(game).count("turn.adjudicated") == 1


def test_ready_delay_leaves_time_to_change_orders(people):
    from tests.conftest import new_civilwar_game

    game = new_civilwar_game(people, ready_delay_seconds=600)
    play_one(game)
    assert state_of(game).turn.status == "open"
    assert deadlines.sweep(now=timezone.now() + timedelta(seconds=601))["closed"] == 1
    assert state_of(game).turn.number == 2


def test_results_wait_for_umpire_approval_hidden_from_players(approval_game):
    game = approval_game
    play_one(game)
    state = state_of(game)
    assert state.turn.status == "adjudicated" and state.pending
    blue = Viewer("player", "blue")
    visible = viewing.visible_events(game, state, blue)
    assert not visible.filter(seq__gte=state.pending_from).exists()
    assert viewing.game_view(game, state, blue)["board"] == viewing.game_view(game, state, blue)["board"]
    assert "preview" in viewing.game_view(game, state, Viewer("umpire"))
    assert OutboxMail.objects.filter(game=game, kind="report").count() == 0
    commands.approve(game.pk, 1)
    state = state_of(game)
    assert state.turn.number == 2 and not state.pending
    assert OutboxMail.objects.filter(game=game, kind="report").count() == 3


def test_umpire_amends_results_by_readjudicating_with_the_same_seed(approval_game):
    from rules.civilwar import legal_operations

    game = approval_game
    ops = legal_operations(state_of(game).rules, "red")
    commands.submit_orders(game.pk, "red", ops[0], source="web")
    errors = commands.amend(game.pk, 1, {"red": "nonsense order"}, reason="typo")
    assert any(e.line == 1 and e.side == "red" for e in errors)
    assert commands.amend(game.pk, 1, {"red": ops[1]}, reason="the player's typo") == []
    commands.approve(game.pk, 1, note="amended")
    state = state_of(game)
    published = Event.objects.get(game=game, type="turn.published", turn=1)
    assert published.payload["amended"] is True
    red_view = viewing.visible_events(game, state, Viewer("player", "red"))
    voided = state.voided[0]
    assert not red_view.filter(seq__gte=voided[0], seq__lte=voided[1]).exists()
    assert verify_game(game).ok


def test_whole_log_verifies_after_several_turns(game):
    for _ in range(6):
        play_one(game)
    game.refresh_from_db()
    report = verify_game(game)
    assert report.ok, report.problems
    assert report.adjudications == 6

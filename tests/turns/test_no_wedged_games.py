"""A game never wedges on its rule set's exception (issue 33; campaigns/turns/failures.py).

A rule set that raises where it is told to (``Faulty.raises``: adjudicate, validate, view,
render_svg, describe_event) is played by the real platform. Before this, an adjudication that
raised was re-queued by the rescue for ever and nobody was told; a validate that raised answered
the player with a server error; a view or a map that raised made every page of the game a 500.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from campaigns.models import Event, Game, OutboxMail
from campaigns.turns import commands, deadlines, failures, gamelog
from campaigns.turns.state import TurnStatus
from kriegsbrief import health
from rules import catalog
from rules.core.protocol import RuleEvent
from tests.support.api import client_for
from tests.turns.test_rules_versions import SIDES, Duel, _new_game

pytestmark = pytest.mark.django_db(transaction=True)


class Faulty(Duel):
    """The versions test's duel, raising in the calls named in ``raises``."""

    name, title = "faulty", "Faulty duel (tests)"
    version = 1
    versions = {1: "raises where told"}
    past = {}
    raises: frozenset[str] = frozenset()

    def _maybe(self, call: str) -> None:
        if call in self.raises:
            raise IndexError(f"list index out of range in {call} (a bug in the rules)")

    def adjudicate(self, state: Any, orders: Any, rng: random.Random, kind: str = "orders") -> list[RuleEvent]:
        events = super().adjudicate(state, orders, rng, kind)  # draws first: a failure comes late
        self._maybe("adjudicate")
        return events

    def validate(self, state: Any, side: str, orders: Any, kind: str = "orders"):
        self._maybe("validate")
        return super().validate(state, side, orders, kind)

    def view(self, state: Any, viewer: Any) -> Any:
        self._maybe("view")
        return super().view(state, viewer)

    def render_svg(self, view: Any, crop: bool = False, lang: str = "en") -> str:
        self._maybe("render_svg")
        return super().render_svg(view, crop, lang)

    def describe_event(self, event_type: str, payload: Any) -> str:
        self._maybe("describe_event")
        return super().describe_event(event_type, payload)


@pytest.fixture
def faulty(monkeypatch):
    monkeypatch.setitem(catalog.BUILT_IN, Faulty.name, Faulty())
    monkeypatch.setattr(Duel, "name", Faulty.name)  # _new_game creates a game of Duel.name
    return lambda *calls: monkeypatch.setattr(Faulty, "raises", frozenset(calls))


def _both_fire(game) -> None:
    for side in SIDES:
        assert commands.submit_orders(game.pk, side, "fire", source="web", by="test").accepted


def test_an_adjudication_that_raises_holds_the_turn_for_the_umpire_and_nothing_half_written(people, faulty):
    faulty("adjudicate")
    game = _new_game(people)
    _both_fire(game)  # the turn closes; its adjudication (in process) raises
    state = gamelog.load(game.pk).state
    assert state.turn.status is TurnStatus.FAILED and state.turn.number == 1
    assert "IndexError: list index out of range in adjudicate" in state.turn.failure["error"]
    assert "test_no_wedged_games.py" in state.turn.failure["where"]
    assert not Event.objects.filter(game=game, type__startswith="duel.shot").exists()
    assert not Event.objects.filter(game=game, type="turn.adjudicated").exists()
    failed = Event.objects.get(game=game, type="turn.adjudication_failed")
    assert failed.audience == "umpire"
    game.refresh_from_db()
    assert game.turn_status == "adjudication_failed"

    # not queued again and again: the rescue leaves it; /healthz counts it; the umpire is told
    assert deadlines.rescue()["adjudications"] == 0
    assert health.check_work()["adjudications_failed"] == 1
    told = OutboxMail.objects.get(game=game, seat__role="umpire", subject__contains="could not be adjudicated")
    assert "IndexError" in told.body and f"/games/{game.pk}/umpire/" in told.body
    assert not OutboxMail.objects.filter(game=game, body__contains="IndexError").exclude(seat__role="umpire")

    # the error is the umpire's: the players see the turn held, not why
    umpire, red = client_for(people["alice"]), client_for(people["bob"])
    assert "IndexError" in umpire.get(f"/api/games/{game.pk}/view/").content.decode()
    for url in (f"/api/games/{game.pk}/view/", f"/api/games/{game.pk}/events/", f"/games/{game.pk}/"):
        body = red.get(url).content.decode()
        assert "IndexError" not in body and "list index out of range" not in body, url
    assert "held: the umpire looks into its adjudication" in red.get(f"/games/{game.pk}/").content.decode()
    page = umpire.get(f"/games/{game.pk}/umpire/").content.decode()
    assert "Turn 1 could not be adjudicated" in page and "Adjudicate turn 1 again" in page


def test_the_umpire_adjudicates_it_again_once_fixed_and_the_log_verifies(people, faulty):
    faulty("adjudicate")
    game = _new_game(people)
    _both_fire(game)
    umpire = client_for(people["alice"])
    assert umpire.post(f"/api/games/{game.pk}/retry/").status_code == 200  # still broken: held again
    state = gamelog.load(game.pk).state
    assert state.turn.status is TurnStatus.FAILED
    assert Event.objects.filter(game=game, type="turn.adjudication_failed").count() == 2
    assert client_for(people["bob"]).post(f"/api/games/{game.pk}/retry/").status_code == 403

    faulty()  # the rules fixed
    resp = umpire.post(f"/games/{game.pk}/umpire/", {"action": "retry"}, follow=True)
    assert "Turn 1 is being adjudicated again." in resp.content.decode()
    state = gamelog.load(game.pk).state
    assert state.turn.number == 2 and state.turn.status is TurnStatus.OPEN and state.turn.failure is None
    assert Event.objects.filter(game=game, type="turn.adjudicated").count() == 1
    report = gamelog.verify_game(game)
    assert report.ok and report.adjudications == 1, report.problems
    assert umpire.post(f"/api/games/{game.pk}/retry/").status_code == 409  # nothing failed now


def test_a_deploy_that_changes_the_rules_code_retries_the_failed_turn_once(people, faulty, monkeypatch):
    faulty("adjudicate")
    game = _new_game(people)
    _both_fire(game)
    assert deadlines.sweep()["retried"] == 0  # the same code: it would only fail again
    faulty()
    monkeypatch.setattr(failures, "rules_code", lambda: "another-release")  # what a deploy changes
    assert deadlines.sweep()["retried"] == 1
    assert gamelog.load(game.pk).state.turn.number == 2
    assert Event.objects.get(game=game, type="turn.adjudication_retried").payload["by"] == "deploy"
    assert deadlines.sweep()["retried"] == 0


def test_a_validate_that_raises_refuses_the_orders_with_a_message_and_keeps_those_before(people, faulty):
    game = _new_game(people)
    assert commands.submit_orders(game.pk, "red", "hold", source="web", by="test").accepted
    faulty("validate")
    result = commands.submit_orders(game.pk, "red", "fire", source="web", by="test")
    assert not result.accepted
    assert "the rules could not read these orders" in str(result.errors[0].message)
    assert gamelog.load(game.pk).state.turn.orders["red"]["text"] == "hold"
    resp = client_for(people["bob"]).post(f"/api/games/{game.pk}/orders/", {"text": "fire"}, format="json")
    assert resp.status_code == 400 and "could not read these orders" in resp.content.decode()


@pytest.mark.parametrize("call", ["view", "render_svg", "describe_event"])
def test_pages_maps_and_the_api_answer_when_the_rules_cannot_show_the_game(people, faulty, call):
    game = _new_game(people)
    assert commands.submit_orders(game.pk, "red", "hold", source="web", by="test").accepted
    faulty(call)
    for who in ("alice", "bob"):
        client = client_for(people[who])
        for url in (
            f"/games/{game.pk}/",
            f"/games/{game.pk}/map.svg",
            f"/api/games/{game.pk}/view/",
            f"/api/games/{game.pk}/events/",
            f"/api/games/{game.pk}/map.svg",
        ):
            assert client.get(url).status_code == 200, (who, url)
    if call == "render_svg":
        assert (
            "The map could not be drawn." in client_for(people["bob"]).get(f"/games/{game.pk}/map.svg").content.decode()
        )
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE

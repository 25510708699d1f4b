"""A game keeps the rules it started with (rules/README.md, "Versions").

A small two-version rule set (a duel: each side fires or holds; a shot hits on 4+ in version 1, on
5+ in version 2) stands for a rule fix that changes what adjudication produces. The real platform
plays it: created under version 1, the game is adjudicated and verified by version 1 after the
code moved on to version 2; the umpire's logged move to version 2
at a turn boundary changes only the turns after it, and verification re-runs each turn with the
version that adjudicated it.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from campaigns.models import Event
from campaigns.turns import archive, commands, gamelog, versions
from campaigns.turns.errors import TurnError
from rules import catalog
from rules.core.base import RuleSetBase
from rules.core.orderlines import parse_lines
from rules.core.protocol import LineError, ParsedOrders, RuleEvent, TurnSpec, UnknownRulesVersion
from tests.support.api import client_for
from tests.support.games import new_game_with_people

SIDES = ("red", "blue")


@dataclass(frozen=True)
class Order:
    line: int
    verb: str

    def to_text(self) -> str:
        return self.verb


def _parse_line(n: int, line: str) -> Order | str:
    verb = line.lower()
    return Order(n, verb) if verb in ("fire", "hold") else f"unknown order {line!r}: write fire or hold"


class Duel(RuleSetBase):
    """Version 2: a shot hits on 5+ (version 1, ``DuelV1``, hit on 4+)."""

    name, title, turn_mode = "duel_versions", "Duel (versions test)", "simultaneous"
    sides: tuple[str, ...] = SIDES
    order_words: tuple[str, ...] = ("fire", "hold")
    orders_help = "fire\nhold"
    version = 2
    versions = {1: "hits on 4+", 2: "hits on 5+"}
    past = {1: lambda: DuelV1()}
    hit_on = 5

    def initial_state(self) -> dict[str, Any]:
        return {"men": {}, "turn": 0, "result": None}

    def fold(self, state: Any, event_type: str, payload: Any) -> Any:
        new = {**state, "men": dict(state["men"])}
        if event_type == "duel.set_up":
            new["men"] = dict(payload["men"])
        elif event_type == "duel.hit":
            new["men"][payload["side"]] -= 1
        elif event_type == "duel.turn_completed":
            new["turn"] += 1
            if new["turn"] >= 4:
                new["result"] = {"winner": None, "reason": "four turns"}
        return new

    def load_scenario(self, scenario: Any) -> dict[str, Any]:
        return {"name": "duel", "men": 3}

    def setup(self, scenario: Any, rng: random.Random) -> list[RuleEvent]:
        return [RuleEvent("duel.set_up", {"men": dict.fromkeys(SIDES, 3)})]

    def next_turn(self, state: Any) -> TurnSpec:
        return TurnSpec(() if state["result"] else SIDES)

    def parse_orders(self, state: Any, side: str, text: str, kind: str = "orders") -> ParsedOrders:
        return parse_lines(text, _parse_line)

    def validate(self, state: Any, side: str, orders: Any, kind: str = "orders") -> tuple[LineError, ...]:
        return ()

    def default_orders(self, state: Any, side: str, kind: str = "orders") -> str:
        return "hold"

    def adjudicate(self, state: Any, orders: Any, rng: random.Random, kind: str = "orders") -> list[RuleEvent]:
        events = []
        for side in SIDES:
            if any(o.verb == "fire" for o in orders.get(side, ())):
                roll = rng.randint(1, 6)
                events.append(RuleEvent("duel.shot", {"side": side, "roll": roll}))
                if roll >= self.hit_on:
                    events.append(RuleEvent("duel.hit", {"side": "blue" if side == "red" else "red"}))
        return events + [RuleEvent("duel.turn_completed", {"turn": state["turn"] + 1})]

    def view(self, state: Any, viewer: Any) -> Any:
        return {"men": state["men"], "turn": state["turn"]}

    def render_svg(self, view: Any, crop: bool = False, lang: str = "en") -> str:
        return "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>"

    def describe_event(self, event_type: str, payload: Any) -> str:
        return event_type


class DuelV1(Duel):
    """Version 1 kept in code: the one rule that changed."""

    hit_on = 4


@pytest.fixture
def duel(monkeypatch):
    monkeypatch.setitem(catalog.BUILT_IN, Duel.name, Duel())
    return Duel.name


def _code_at(monkeypatch, version: int) -> None:
    """The code as a release had it: version 1 newest (DuelV1, nothing older), or version 2 newest
    with version 1 kept in code."""
    if version == 1:
        monkeypatch.setattr(DuelV1, "version", 1)
        monkeypatch.setattr(DuelV1, "past", {})
        monkeypatch.setitem(catalog.BUILT_IN, Duel.name, DuelV1())
    else:
        monkeypatch.setitem(catalog.BUILT_IN, Duel.name, Duel())


def _new_game(people):
    """A duel of the rule set registered as ``Duel.name``: alice umpires, bob red, carol blue."""
    return new_game_with_people(people, Duel.name, None, "Versions")


def _play_turn(game) -> list[Event]:
    """Both sides fire; the turn closes and is adjudicated in process; the events it produced."""
    number = gamelog.load(game.pk).state.turn.number
    for side in SIDES:  # the turn closes once both sides have ordered
        assert commands.submit_orders(game.pk, side, "fire", source="web", by="test").accepted
    state = gamelog.load(game.pk).state
    assert state.turn.number == number + 1 or state.status.value == "finished", state.turn
    return list(Event.objects.filter(game=game, turn=number, type__startswith="duel.").order_by("seq"))


def _hits_agree_with(events: list[Event], hit_on: int) -> None:
    shots = [e for e in events if e.type == "duel.shot"]
    hits = [e for e in events if e.type == "duel.hit"]
    assert shots, "both sides fired"
    assert len(hits) == sum(1 for s in shots if s.payload["roll"] >= hit_on)


@pytest.mark.django_db(transaction=True)
def test_a_new_game_records_the_version_it_is_played_by(people, duel):
    game = _new_game(people)
    created = Event.objects.get(game=game, type="game.created")
    assert created.payload["rules_version"] == 2
    assert gamelog.load(game.pk).state.rules_version == 2


@pytest.mark.django_db(transaction=True)
def test_a_game_keeps_its_version_when_the_code_moves_on_and_verifies_by_it(people, monkeypatch):
    # The game is created while the code's newest version is 1 ...
    _code_at(monkeypatch, 1)
    game = _new_game(people)
    _hits_agree_with(_play_turn(game), 4)
    # ... then the code moves on: version 2 is current, version 1 kept in code.
    _code_at(monkeypatch, 2)
    for _ in range(3):
        _hits_agree_with(_play_turn(game), 4)  # still version 1's rule
    report = gamelog.verify_game(game)
    assert report.ok, report.problems
    assert report.adjudications == 4


@pytest.mark.django_db(transaction=True)
def test_verification_fails_when_a_version_changes_its_events_without_a_bump(people, monkeypatch):
    """What the golden logs guard: the same version, other events."""
    monkeypatch.setitem(catalog.BUILT_IN, Duel.name, Duel())
    game = _new_game(people)
    for _ in range(4):
        _play_turn(game)
    assert gamelog.verify_game(game).ok
    monkeypatch.setattr(Duel, "hit_on", 1)  # a "fix" shipped as version 2 again: every shot hits
    report = gamelog.verify_game(game)
    assert not report.ok
    assert any("re-adjudication" in p for p in report.problems)


@pytest.mark.django_db(transaction=True)
def test_the_umpire_moves_a_game_on_at_a_turn_boundary_and_each_turn_verifies_by_its_own_version(people, monkeypatch):
    _code_at(monkeypatch, 1)
    game = _new_game(people)  # created at version 1, then the code moves on
    _code_at(monkeypatch, 2)
    assert gamelog.load(game.pk).state.rules_version == 1
    _hits_agree_with(_play_turn(game), 4)
    info = versions.version_info(gamelog.load(game.pk).state)
    assert (info.played_by, info.newest, info.newer) == (1, 2, {2: "hits on 5+"})

    # not once someone has ordered in the open turn
    assert commands.submit_orders(game.pk, "red", "hold", source="web", by="test").accepted
    with pytest.raises(TurnError, match="orders have been given"):
        versions.change_rules_version(game.pk, 2, by="alice")
    # the turn after: at its boundary
    for side in SIDES:
        assert commands.submit_orders(game.pk, side, "fire", source="web", by="test").accepted
    state = versions.change_rules_version(game.pk, 2, by="alice", reason="the 5+ fix")
    assert state.rules_version == 2
    changed = Event.objects.get(game=game, type="game.rules_changed")
    assert changed.audience == "public"
    assert changed.payload == {"from": 1, "to": 2, "by": "alice", "reason": "the 5+ fix"}
    _hits_agree_with(_play_turn(game), 5)
    report = gamelog.verify_game(game)
    assert report.ok, report.problems

    with pytest.raises(TurnError, match="only move to a newer one"):
        versions.change_rules_version(game.pk, 1, by="alice")
    with pytest.raises(TurnError, match="no rules version 7"):
        versions.change_rules_version(game.pk, 7, by="alice")


@pytest.mark.django_db(transaction=True)
def test_a_version_this_code_does_not_keep_is_refused_not_replayed_by_other_rules(people, monkeypatch):
    monkeypatch.setitem(catalog.BUILT_IN, Duel.name, Duel())
    monkeypatch.setattr(Duel, "past", {})  # version 1 dropped from the code
    with pytest.raises(UnknownRulesVersion, match="no rules version 1"):
        catalog.get(Duel.name, 1)
    assert catalog.get(Duel.name, 2) is catalog.BUILT_IN[Duel.name]
    assert catalog.get(Duel.name, None) is catalog.BUILT_IN[Duel.name]


def test_every_built_in_rule_set_says_what_each_of_its_versions_changed():
    for name in catalog.names():
        rs = catalog.get(name)
        assert sorted(rs.versions) == list(range(1, rs.version + 1)), name
        for v in rs.versions:
            assert catalog.get(name, v) is not None  # every version shipped is kept


GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def _import_golden(path: Path):
    header = json.loads(path.open(encoding="utf-8").readline())
    for seat in header.get("seats", []):
        if seat.get("username"):
            get_user_model().objects.get_or_create(username=seat["username"], defaults={"email": seat["email"]})
    with path.open(encoding="utf-8") as fh:
        return archive.import_stream(fh)


def _seat_user(game, role: str, side: str = ""):
    return game.seats.get(role=role, side=side).user


@pytest.mark.django_db(transaction=True)
def test_the_api_shows_the_umpire_the_version_and_refuses_to_carry_a_0_1_0_game_over():
    game = _import_golden(GOLDEN / "0.1.0" / "littlewars-open.jsonl")
    umpire, red = client_for(_seat_user(game, "umpire")), client_for(_seat_user(game, "player", "red"))
    url = f"/api/games/{game.pk}/rules-version/"
    got = umpire.get(url).json()
    newest = catalog.get("littlewars").version
    assert got["played_by"] == 1 and got["recorded"] is False and got["newest"] == newest
    assert set(got["newer"]) == {str(v) for v in range(2, newest + 1)}
    assert red.get(url).status_code == 403
    assert red.post(url, {"version": 2}, format="json").status_code == 403
    # the open turn has red's orders in: not a turn boundary
    refused = umpire.post(url, {"version": 2}, format="json")
    assert refused.status_code == 409 and "orders have been given" in refused.json()["detail"]
    commands.close_turn(game.pk, "deadline")  # adjudicated in process: the next turn opens, no orders
    refused = umpire.post(url, {"version": 2}, format="json")
    assert refused.status_code == 409 and "plays on by it to its end" in refused.json()["detail"]
    assert not Event.objects.filter(game=game, type="game.rules_changed").exists()


@pytest.mark.django_db(transaction=True)
def test_a_game_of_0_2_0_is_played_by_littlewars_version_2():
    game = _import_golden(GOLDEN / "0.2.0" / "littlewars-open.jsonl")
    got = client_for(_seat_user(game, "umpire")).get(f"/api/games/{game.pk}/rules-version/").json()
    assert got["played_by"] == 2 and set(got["newer"]) == {"3"}  # Little Wars 3: the team merge (LW-61)


@pytest.mark.django_db(transaction=True)
def test_a_game_moves_only_to_a_version_its_upcaster_records():
    """A version kept by its log's flags is one object for all its versions, whose carry_over records
    the newest: moving a Kriegspiel 2 game "to 3" would have recorded 3 and played 4."""
    game = _import_golden(GOLDEN / "0.2.0" / "kriegspiel-works-open.jsonl")
    umpire = client_for(_seat_user(game, "umpire"))
    url = f"/api/games/{game.pk}/rules-version/"
    state = gamelog.load(game.pk).state
    if state.turn.orders or state.turn.ready:
        commands.close_turn(game.pk, "deadline")
    refused = umpire.post(url, {"version": 3}, format="json")
    assert refused.status_code == 409 and "only to version 4" in refused.json()["detail"]
    moved = umpire.post(url, {"version": 4}, format="json")
    assert moved.status_code == 200, moved.content
    assert gamelog.load(game.pk).state.rules_version == 4

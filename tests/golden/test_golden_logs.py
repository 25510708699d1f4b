"""Golden logs: games made by each release, kept here, must live on under the current code.

Each folder ``tests/golden/<release>/`` holds complete exports of games that release played through
its own API and mail (tests/golden/build/ made them; its MANIFEST.json says how). Under the code of
today every one of them must:

1. import, which verifies it (campaigns.log.portable): the hash chain, and every turn
   re-adjudicated from its sealed seed gives the events the release recorded. A change to a rule
   set that alters what an old game's turn produces, without a new rules version
   (rules/README.md, "Versions"), fails here;
2. render every page and map for every viewer (each player, the umpire, an observer), on the web
   and through the API, never a server error;
3. play on to its end by the platform's own turn machinery, and verify again.

A golden log that stops verifying is a failed test, never a file to regenerate.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from campaigns.models import Event, Game, Seat
from campaigns.turns import archive, commands, gamelog
from campaigns.turns.state import GameStatus, TurnStatus
from rules.kingsofwar import testing as kingsofwar_bots
from rules.littlewars import testing as littlewars_bots
from rules.napoleon import testing as napoleon_bots
from rules.warworlds import testing as warworlds_bots
from tests.support.api import client_for

HERE = Path(__file__).parent
LOGS = sorted(p for p in HERE.glob("*/*.jsonl"))
BOTS = {
    "littlewars": littlewars_bots,
    "warworlds": warworlds_bots,
    "kingsofwar": kingsofwar_bots,
    "napoleon": napoleon_bots,
}
MOST_TURNS = 150  # more than any shipped scenario's limit


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def test_every_release_has_golden_logs_of_its_rule_sets():
    releases = {p.parent.name for p in LOGS}
    assert {"0.1.0", "0.2.0"} <= releases, releases
    assert all((HERE / r / "MANIFEST.json").exists() for r in releases)
    for release in releases:
        manifest = json.loads((HERE / release / "MANIFEST.json").read_text())
        made = {g["slug"] for g in manifest["games"]}
        assert made == {p.stem for p in LOGS if p.parent.name == release}, release


def _import(path: Path) -> Game:
    header = json.loads(path.open(encoding="utf-8").readline())
    User = get_user_model()
    for seat in header.get("seats", []):
        if seat.get("username"):
            User.objects.get_or_create(username=seat["username"], defaults={"email": seat["email"]})
    with path.open(encoding="utf-8") as fh:
        return archive.import_stream(fh)


def _viewers(game: Game) -> list[tuple[str, object]]:
    """(who, user) for every seat with a user, and an observer."""
    out = [(f"{s.role}:{s.side or '-'}", s.user) for s in game.seats.select_related("user") if s.user]
    observer, _ = get_user_model().objects.get_or_create(username="golden-observer")
    Seat.objects.get_or_create(game=game, role=Seat.Role.OBSERVER, user=observer, defaults={"email": "o@example.org"})
    return out + [("observer", observer)]


def _pages(game: Game) -> list[str]:
    turns = game.turn_number
    pages = [
        f"/games/{game.pk}/",
        f"/games/{game.pk}/map.svg",
        f"/games/{game.pk}/verification/",
        f"/games/{game.pk}/seats/",
        f"/api/games/{game.pk}/",
        f"/api/games/{game.pk}/view/",
        f"/api/games/{game.pk}/events/",
        f"/api/games/{game.pk}/map.svg",
    ]
    return pages + [f"/games/{game.pk}/turns/{n}/" for n in range(1, turns)]  # the turns behind it


def _check_pages(game: Game) -> int:
    """Every page and map for every viewer: the game's page, maps, views and log answer 200; the
    rest (a page for seats or the umpire) 200 or a refusal, and never a server error. The number of
    pages fetched."""
    fetched = 0
    for who, user in _viewers(game):
        client = client_for(user)
        for url in _pages(game) + [f"/games/{game.pk}/umpire/"]:
            resp = client.get(url)
            fetched += 1
            assert resp.status_code < 500, (who, url, resp.status_code)
            if url.endswith(("/view/", "/events/", "map.svg", f"/games/{game.pk}/")) or "/turns/" in url:
                assert resp.status_code == 200, (who, url, resp.status_code, resp.content[:300])
    return fetched


def _bot_orders(game: Game, side: str, user) -> str | None:
    bots = BOTS.get(game.ruleset)
    if bots is None:
        return None
    board = client_for(user).get(f"/api/games/{game.pk}/view/").json()["board"]
    return str(bots.bot_orders(bots.state_from_view(board), side))


def _play_on(game: Game) -> int:
    """Turn after turn to the game's end: each side's bot orders (sent through the API, which must
    take them) where the rule set has bots, the deadline's default orders otherwise; results held
    for approval are approved. The turns played."""
    players = {s.side: s.user for s in game.seats.filter(role=Seat.Role.PLAYER) if s.user}
    played = 0
    for _ in range(MOST_TURNS):
        state = gamelog.load(game.pk).state
        if state.status is GameStatus.FINISHED:
            return played
        turn = state.turn
        played += 1
        if turn.status is TurnStatus.ADJUDICATED:
            commands.approve(game.pk, turn.number)
            continue
        if turn.status is TurnStatus.CLOSED:
            commands.adjudicate(game.pk, turn.number)
            continue
        assert turn.status is TurnStatus.OPEN, turn
        for side in turn.sides:
            text = _bot_orders(game, side, players[side]) if side in players and turn.kind == "orders" else None
            if text:
                resp = client_for(players[side]).post(f"/api/games/{game.pk}/orders/", {"text": text}, format="json")
                assert resp.status_code < 300, (side, text, resp.content[:500])
        commands.close_turn(game.pk, "deadline", turn_number=turn.number)
    raise AssertionError(f"game {game.name} did not end in {MOST_TURNS} steps")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", LOGS, ids=_id)
def test_a_golden_log_imports_verifies_renders_and_plays_on_to_its_end(path, settings):
    settings.MAIL_REQUIRE_AUTHENTICATION = False
    game = _import(path)  # verifies: it raises ImportRejected naming the problems
    events = Event.objects.filter(game=game).count()
    finished = game.status == Game.Status.FINISHED
    assert _check_pages(game) > 0
    played = _play_on(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert finished or played > 0
    report = gamelog.verify_game(game)
    assert report.ok, report.problems
    assert report.events > events or finished

"""Several players a side (LW-61, KS-9) through the REST API: a whole Kriegspiel game, red played by
a commander and a cavalry arm, blue by an infantry arm and a cavalry arm. Each seat reads its own
view (its command and what that command orders), orders only its own units (another command's unit
is refused, naming the unit and its command), is ready on its own (the turn waits for every seat of a
side), and gets its own mail report."""

import pytest

from campaigns.models import Campaign, Event, OutboxMail, Seat
from campaigns.turns import creation
from campaigns.turns.gamelog import verify_game
from rules.littlewars.testing import bot_orders, state_from_view
from tests.conftest import make_user
from tests.support.api import client_for

pytestmark = pytest.mark.django_db

COMMANDS = {
    "red": {"infantry": ["foot1", "foot2"], "cavalry": ["horse", "gun1"]},
    "blue": {"infantry": ["foot1", "foot2"], "cavalry": ["horse", "gun1"]},
}
# (user, side, command)
SEATS = [
    ("bob", "red", "commander"),
    ("frank", "red", "cavalry"),
    ("carol", "blue", "infantry"),
    ("gina", "blue", "cavalry"),
]


@pytest.fixture
def team_game(people):
    users = {**people, "frank": make_user("frank"), "gina": make_user("gina")}
    seats = [{"role": "umpire", "user": users["alice"], "email": "alice@example.org"}]
    seats += [
        {"role": "player", "side": side, "command": cmd, "user": users[name], "email": f"{name}@example.org"}
        for name, side, cmd in SEATS
    ]
    game = creation.create_game(
        campaign=Campaign.objects.create(name="Teams"),
        name="Kriegspiel in teams",
        ruleset="kriegspiel",
        seats=seats,
        operator=True,
        scenario={"base": "ks_farm", "settings": {"max_turns": 5}, "commands": COMMANDS},
    )
    return game, {name: client_for(users[name]) for name, _, _ in SEATS}


def my_view(client, game) -> dict:
    resp = client.get(f"/api/games/{game.pk}/view/")
    assert resp.status_code == 200, resp.content
    return resp.json()


def seat_orders(view: dict, leave=()) -> str:
    """The scripted player's orders for the side, kept to the lines naming this seat's units (but
    ``leave``: units another player of the side orders)."""
    mine = {u.lower() for u in view["turn"]["command_units"]} - {u.lower() for u in leave}
    state, side = state_from_view(view["board"]), view["viewer"]["side"]
    lines = [ln for ln in bot_orders(state, side).splitlines() if len(ln.split()) > 1 and ln.split()[1].lower() in mine]
    if not lines and state["phase"] == "play":  # no enemy in sight: march on, 6 in towards the other edge
        step = 6 if side == "red" else -6
        for name, ids in sorted(state["groups"][side].items()):
            if name.lower() in mine:
                x = sum(state["figures"][i]["x"] for i in ids) / len(ids)
                y = sum(state["figures"][i]["y"] for i in ids) / len(ids)
                lines.append(f"move {name} to {x:.1f},{y + step:.1f}")
    return "\n".join(lines) or "hold"


def post_orders(client, game, view, leave=()) -> None:
    """Sends the seat's orders; lines the server refuses (e.g. a gun whose crew is another command's
    and does not move with it) are left out and the rest sent again, as a player would."""
    text = seat_orders(view, leave)
    for _ in range(5):
        resp = client.post(f"/api/games/{game.pk}/orders/", {"text": text, "ready": True}, format="json")
        if resp.status_code == 201:
            return
        assert resp.status_code == 400, resp.content
        bad = {e["line"] for e in resp.json()["errors"]}
        text = "\n".join(ln for n, ln in enumerate(text.splitlines(), 1) if n not in bad) or "hold"
    raise AssertionError(resp.content)


def test_a_whole_kriegspiel_game_with_two_players_a_side(team_game, django_capture_on_commit_callbacks):
    game, clients = team_game
    assert {(s.side, s.command) for s in game.seats.filter(role=Seat.Role.PLAYER)} == {(s, c) for _, s, c in SEATS}
    views = {name: my_view(c, game) for name, c in clients.items()}
    assert views["frank"]["turn"]["command"] == "cavalry"
    assert views["frank"]["turn"]["command_units"] == ["horse", "gun1"]
    assert set(views["bob"]["turn"]["command_units"]) >= {"foot1", "foot2", "horse", "gun1"}  # the commander
    refused_once = conflicted = False
    for _ in range(12):
        turn = my_view(clients["bob"], game)["turn"]
        if turn["game_status"] != "active":
            break
        assert turn["status"] == "open", turn
        for i, (name, side, cmd) in enumerate(SEATS):
            view = my_view(clients[name], game)
            if name == "frank" and view["board"]["phase"] == "play" and not refused_once:
                # the cavalry arm may not order the infantry: refused whole, naming the unit and its command
                resp = clients[name].post(
                    f"/api/games/{game.pk}/orders/", {"text": "move foot1 to 20,12"}, format="json"
                )
                assert resp.status_code == 400
                assert "foot1 is the infantry command's" in resp.json()["errors"][0]["message"]
                refused_once = True
            # the commander leaves the cavalry to its arm, but for one turn of play orders it too (a conflict)
            leave = (
                views["frank"]["turn"]["command_units"]
                if name == "bob" and not (view["board"]["phase"] == "play" and not conflicted)
                else ()
            )
            conflicted = conflicted or (name == "bob" and not leave)
            with django_capture_on_commit_callbacks(execute=True):
                post_orders(clients[name], game, view, leave)
            after = my_view(clients[name], game)["turn"]
            if i in (0, 2):  # the first seat of each side is ready; its side waits for the other seat
                assert after["number"] == turn["number"] and after["status"] == "open"
                assert side not in after["ready"] and after["ready_commands"] == [cmd]
        assert (
            my_view(clients["carol"], game)["turn"]["number"] > turn["number"]
            or my_view(clients["carol"], game)["turn"]["game_status"] != "active"
        )
    final = my_view(clients["gina"], game)
    assert final["turn"]["game_status"] == "finished" and final["board"]["phase"] == "over"
    assert refused_once
    assert verify_game(game).ok  # the merged orders re-adjudicate to the same log
    # both of red's commands had lines executed; the conflict was told to red's seats, not to blue's
    used = [e.payload["orders"]["red"] for e in Event.objects.filter(game=game, type="turn.adjudicated")]
    assert any("# commander\nmove foot" in t and "# cavalry\nmove horse" in t for t in used), used
    merged = Event.objects.filter(game=game, type="orders.merged")
    assert merged.count() == 1 and merged[0].audience == "side:red"
    assert {c["kept"] for c in merged[0].payload["conflicts"]} == {"commander"}
    frank_events = [
        e["type"] for e in clients["frank"].get(f"/api/games/{game.pk}/events/?limit=500").json()["results"]
    ]
    gina_events = [e["type"] for e in clients["gina"].get(f"/api/games/{game.pk}/events/?limit=500").json()["results"]]
    assert "orders.merged" in frank_events and "orders.merged" not in gina_events
    # every seat got its own report of every turn, naming its command
    for _name, side, cmd in SEATS:
        seat = game.seats.get(side=side, command=cmd)
        reports = OutboxMail.objects.filter(seat=seat, kind="report")
        assert reports.count() >= 5
        label = f"{side}, the commander" if cmd == "commander" else f"{side}, {cmd} command"
        assert all(f"You are: {label}" in m.body for m in reports)
        if cmd != "commander":
            assert all("Your command orders: " in m.body for m in reports)

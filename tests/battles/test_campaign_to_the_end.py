"""A Civil War campaign played to its end through the API, the web and mail, with two assaults fought as
battles in two tactical rule sets (Little Wars, chosen on the umpire's page; Kings of War, chosen
through the API), each played to its end by its rule set's scripted players, their results changing
the strategic game as the conversions say, and the campaign verified at the end (issue 28)."""

import random

import pytest

from campaigns.battles import record
from campaigns.battles.verify import verify_campaign
from campaigns.mailin import ingest
from campaigns.models import Event, Game
from campaigns.turns import gamelog
from rules.civilwar import RULESET as CW
from tests.battles.test_linked_battles import aggressive, strategic_game
from tests.support.api import client_for
from tests.support.mail import seat_mail
from tests.support.playthrough import play_through_api

pytestmark = pytest.mark.django_db

TABLES = {"B1": "littlewars", "B2": "kingsofwar"}


def send(game, side, text, channel, people, client):
    """``side``'s orders with ready, by ``channel``: the API, the game page or mail to its seat."""
    if channel == "api":
        who = client_for(people["bob" if side == "red" else "carol"])
        resp = who.post(f"/api/games/{game.pk}/orders/", {"text": text, "ready": True}, format="json")
        assert resp.status_code == 201, (text, resp.content)
    elif channel == "web":
        client.force_login(people["bob" if side == "red" else "carol"])
        resp = client.post(f"/games/{game.pk}/", {"text": text, "ready": "on"})
        assert resp.status_code == 302, (text, resp.content.decode()[:2000])
    else:
        seat = game.seats.get(side=side)
        row = ingest.ingest(seat_mail(seat, f"{text}\nREADY\n"), via="test")
        assert row.status == "applied", (text, row.status, row.outcome)


def choose(game, battle_id, people, client, capture):
    """The umpire's choice: Little Wars on the page, Kings of War through the API."""
    ruleset = TABLES[battle_id]
    with capture(execute=True):
        if ruleset == "littlewars":
            client.force_login(people["alice"])
            client.post(f"/games/{game.pk}/battles/{battle_id}/", {"action": "choose", "ruleset": ruleset})
        else:
            resp = client_for(people["alice"]).post(
                f"/api/games/{game.pk}/battles/{battle_id}/choose/", {"ruleset": ruleset}, format="json"
            )
            assert resp.status_code == 200, resp.content


def test_a_campaign_with_two_battles_in_two_rule_sets_played_to_its_end(
    client, people, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    game = strategic_game(people, battle_ruleset="ask")
    rng = random.Random(11)
    channels = ["api", "web", "mail"]
    units_before: dict[str, dict] = {}
    for n in range(400):
        state = gamelog.load(game.pk).state
        if state.status != "active":
            break
        for battle in record.battles(game.campaign).values():
            if battle.status == "joined" and battle.battle in TABLES:
                units_before[battle.battle] = dict(state.rules["units"])
                choose(game, battle.battle, people, client, capture)
            elif battle.status == "fighting":
                fought = Game.objects.get(uid=battle.game)
                play_through_api(fought, people, submit=lambda: capture(execute=True))
        state = gamelog.load(game.pk).state
        if state.status != "active":
            break
        side = state.turn.sides[0]
        done = len([b for b in record.battles(game.campaign).values() if b.status == "resolved"]) >= 2
        if state.turn.kind == "decision":
            text = CW.default_orders(state.rules, side, "decision")
        elif len(CW.battles(state.rules)) + len(record.battles(game.campaign)) >= 2 and done:
            text = "pass"  # two battles fought: the sides pass to the end (six passes: a draw)
        else:
            text = aggressive(state.rules, side, rng)
            if text.startswith("assault") and len(record.battles(game.campaign)) >= 2:
                text = "pass"  # no third battle: the campaign's two are fought first
        with capture(execute=True):
            send(game, side, text, channels[n % 3], people, client)
    else:
        raise AssertionError("the campaign did not end")

    final = gamelog.load(game.pk).state
    assert final.status == "finished" and final.result is not None
    battles = record.battles(game.campaign)
    assert {b.battle: b.ruleset for b in battles.values()} == TABLES
    assert all(b.status == "resolved" and b.by == "table" for b in battles.values())
    for b in battles.values():
        spec, after = b.spec, final.rules["battles"][b.battle]
        # the result, as the conversion read it, is what the strategic game folded in
        assert after["winner"] == b.result["winner"]
        taken = b.result["winner"] == spec["attacker"]
        assert after["holds"] == (spec["attacker"] if taken else spec["defender"])
        fought = Game.objects.get(uid=b.game)
        assert fought.ruleset == TABLES[b.battle] and fought.status == "finished"
        # the units the battle cost were taken off the strategic map then (the garrison never is)
        (event,) = Event.objects.filter(game=game, type="civilwar.battle_resolved", payload__battle=b.battle)
        garrison = spec["source"] if taken else spec["target"]
        for side, units in b.result["lost"].items():
            assert set(event.payload["lost"][side]) == {u for u in units if u != garrison}
            for unit in event.payload["lost"][side]:
                assert units_before[b.battle].get(unit) == side  # it stood there when the battle began
    report = verify_campaign(game.campaign)
    assert report.ok and report.battles == 2 and report.games == 3, report.problems

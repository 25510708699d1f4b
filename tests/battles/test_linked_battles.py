"""A Civil War campaign whose assaults are fought as battles (issue 28): spawned with the same players,
played to their end by the rule sets' own scripted players through the API, their results carried
back into the strategic game as the conversion says, and the whole campaign verified (and found out
when a battle's log is tampered with)."""

import random

import pytest
from django.db import connection

from campaigns.battles import linking, record
from campaigns.battles.verify import verify_campaign
from campaigns.models import Campaign, Event, Game
from campaigns.turns import commands, creation, gamelog
from campaigns.turns.errors import TurnError
from rules.civilwar import RULESET as CW
from tests.support.playthrough import play_through_api

pytestmark = pytest.mark.django_db


def strategic_game(people, battle_ruleset="littlewars", **settings):
    campaign = Campaign.objects.create(name="The Volna campaign")
    return creation.create_game(
        campaign=campaign,
        name="Civil War",
        ruleset="civilwar",
        options={"battles": True},
        settings={"battle_ruleset": battle_ruleset, **settings},
        seats=[
            {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
            {"role": "player", "side": "red", "user": people["bob"], "email": "bob@example.org"},
            {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"},
        ],
        operator=True,
    )


def aggressive(state, side, rng):
    """Assault or break through when open, else form a unit, else a random move (else pass)."""
    ops = CW.legal_operations(state, side)
    for prefix in ("assault", "breakthrough", "form"):
        chosen = [op for op in ops if op.startswith(prefix)]
        if chosen:
            return rng.choice(chosen)
    return rng.choice(ops) if ops else "pass"


def play_strategic_until(game, capture, stop, turns=80, seed=5):
    """Strategic turns by the aggressive player until ``stop(state)`` holds; the state then."""
    rng = random.Random(seed)
    for _ in range(turns):
        state = gamelog.load(game.pk).state
        if stop(state) or state.status != "active":
            return state
        side = state.turn.sides[0]
        text = (
            aggressive(state.rules, side, rng)
            if state.turn.kind == "orders"
            else CW.default_orders(state.rules, side, "decision")
        )
        with capture(execute=True):
            result = commands.submit_orders(game.pk, side, text, source="api", by="test", ready=True)
        assert result.accepted, (text, result.errors)
    raise AssertionError("the strategic game did not get there")


def open_battles(state):
    return CW.battles(state.rules)


def test_a_battle_is_spawned_fought_and_its_result_carried_back(people, django_capture_on_commit_callbacks):
    game = strategic_game(people)
    state = play_strategic_until(game, django_capture_on_commit_callbacks, lambda s: open_battles(s))
    (spec,) = open_battles(state)
    battles = record.battles(game.campaign)
    (battle,) = battles.values()
    assert battle.status == "fighting" and battle.ruleset == "littlewars"
    fought = Game.objects.get(uid=battle.game)
    assert fought.campaign_id == game.campaign_id and fought.ruleset == "littlewars"
    seats = {(s.role, s.side, s.user.username) for s in fought.seats.all()}
    assert seats == {("umpire", "", "alice"), ("player", "red", "bob"), ("player", "blue", "carol")}
    assert fought.turn_number == 1  # begun at once: the campaign's seats are the consent
    units_before = dict(state.rules["units"])

    end = play_through_api(fought, people, submit=lambda: django_capture_on_commit_callbacks(execute=True))
    assert end["game_status"] == "finished"
    battle = record.battles(game.campaign)[battle.key]
    assert battle.status == "resolved" and battle.by == "table"
    after = gamelog.load(game.pk).state.rules
    resolved = after["battles"][spec["battle"]]
    assert resolved["status"] == "resolved" and resolved["winner"] == battle.result["winner"]
    # the conversion: every unit the battle lost is gone from the strategic map, the place's holder there
    lost = battle.result["lost"]
    holder = resolved["holds"]
    assert after["units"][spec["target"]] == holder
    for side, units in lost.items():
        for unit in units:
            if unit not in (spec["target"], spec["source"]):
                assert after["units"].get(unit) != side or units_before.get(unit) != side
    assert verify_campaign(game.campaign).ok, verify_campaign(game.campaign).problems


def test_by_the_rules_and_by_the_umpires_choice(people, django_capture_on_commit_callbacks):
    game = strategic_game(people, battle_ruleset="ask")
    state = play_strategic_until(game, django_capture_on_commit_callbacks, lambda s: open_battles(s))
    (spec,) = open_battles(state)
    (battle,) = record.battles(game.campaign).values()
    assert battle.waiting == "umpire" and battle.game is None
    with pytest.raises(TurnError, match="is not one of"):
        linking.choose(game, spec["battle"], "chess")
    linking.choose(game, spec["battle"], "rules")
    after = gamelog.load(game.pk).state.rules
    assert after["units"][spec["target"]] == spec["attacker"]  # CW-14: the assault succeeds
    assert record.battles(game.campaign)[battle.key].by == "rules"
    with pytest.raises(TurnError, match="resolved: nothing to do now"):
        linking.choose(game, spec["battle"], "littlewars")
    assert verify_campaign(game.campaign).ok


def test_the_umpire_reviews_and_amends_a_result_before_it_feeds_back(people, django_capture_on_commit_callbacks):
    game = strategic_game(people, battle_review=True)
    play_strategic_until(game, django_capture_on_commit_callbacks, lambda s: open_battles(s))
    (battle,) = record.battles(game.campaign).values()
    fought = Game.objects.get(uid=battle.game)
    play_through_api(fought, people, submit=lambda: django_capture_on_commit_callbacks(execute=True))
    battle = record.battles(game.campaign)[battle.key]
    assert battle.status == "finished" and open_battles(gamelog.load(game.pk).state)  # held for the umpire
    other = "blue" if battle.result["winner"] == "red" else "red"
    linking.review(game, battle.battle, amended={"winner": other, "lost": {}}, note="the bridge was never taken")
    battle = record.battles(game.campaign)[battle.key]
    assert battle.status == "resolved" and battle.by == "umpire"
    assert battle.amended["to"]["winner"] == other and battle.amended["note"] == "the bridge was never taken"
    resolved = Event.objects.get(game=game, type="civilwar.battle_resolved")
    assert resolved.payload["winner"] == other and resolved.payload["by"] == "umpire"
    assert verify_campaign(game.campaign).ok


def test_verify_campaign_finds_a_tampered_battle_log(people, django_capture_on_commit_callbacks):
    game = strategic_game(people)
    play_strategic_until(game, django_capture_on_commit_callbacks, lambda s: open_battles(s))
    (battle,) = record.battles(game.campaign).values()
    fought = Game.objects.get(uid=battle.game)
    play_through_api(fought, people, submit=lambda: django_capture_on_commit_callbacks(execute=True))
    assert verify_campaign(game.campaign).ok
    middle = Event.objects.filter(game=fought, type="orders.submitted").order_by("seq").first()
    with connection.cursor() as cur:  # as someone with the database in hand would, triggers off
        if connection.vendor == "postgresql":
            cur.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the test's transaction holds deferred checks
            cur.execute("ALTER TABLE campaigns_event DISABLE TRIGGER USER")
            cur.execute(
                'UPDATE campaigns_event SET payload = payload || \'{"text": "pass"}\' WHERE id = %s', [middle.pk]
            )
            cur.execute("ALTER TABLE campaigns_event ENABLE TRIGGER USER")
        else:
            cur.execute("DROP TRIGGER campaigns_event_no_update")
            cur.execute(
                "UPDATE campaigns_event SET payload = json_set(payload, '$.text', 'pass') WHERE id = %s", [middle.pk]
            )
    report = verify_campaign(game.campaign)
    assert not report.ok
    assert any(str(fought.uid) in p for p in report.problems), report.problems


def test_the_record_is_append_only_and_its_chain_is_checked(people, django_capture_on_commit_callbacks):
    from django.db import DatabaseError, transaction

    from campaigns.battles.models import CampaignEvent

    game = strategic_game(people, battle_ruleset="rules")
    play_strategic_until(game, django_capture_on_commit_callbacks, lambda s: s.rules.get("battles"))
    first = CampaignEvent.objects.filter(campaign=game.campaign).order_by("seq").first()
    assert first.type == "battle.joined"
    with pytest.raises(DatabaseError), transaction.atomic():
        CampaignEvent.objects.filter(pk=first.pk).update(payload={**first.payload, "battle": "B9"})
    assert verify_campaign(game.campaign).ok
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cur.execute("ALTER TABLE battles_campaignevent DISABLE TRIGGER USER")
            cur.execute(
                'UPDATE battles_campaignevent SET payload = payload || \'{"waiting": "umpire"}\' WHERE id = %s',
                [first.pk],
            )
            cur.execute("ALTER TABLE battles_campaignevent ENABLE TRIGGER USER")
        else:
            cur.execute("DROP TRIGGER battles_campaignevent_no_update")
            cur.execute(
                "UPDATE battles_campaignevent SET payload = json_set(payload, '$.waiting', 'umpire') WHERE id = %s",
                [first.pk],
            )
    problems = verify_campaign(game.campaign).problems
    assert any("record entry 1 (battle.joined)" in p for p in problems), problems


def test_verify_campaign_is_asked_by_id_or_uid_and_names_one_it_cannot_find(people):
    from io import StringIO

    from django.core.management import CommandError, call_command

    game = strategic_game(people)
    for given in (str(game.campaign_id), str(game.campaign.uid)):
        out = StringIO()
        call_command("verify_campaign", given, stdout=out)
        assert f"campaign {game.campaign_id} 'The Volna campaign': OK" in out.getvalue()
    for wrong in ("999999", "not-a-uid", "00000000-0000-0000-0000-000000000000"):
        with pytest.raises(CommandError, match="no campaign"):
            call_command("verify_campaign", wrong)

"""A whole campaign moved (issue 28, point 3): export_campaign here, import_campaign into a scratch
PostgreSQL database of its own (manage.py in a subprocess, as tests/log/test_verify_portable.py
moves a game), where verify_campaign passes; a file with one changed byte in its record or in a
battle's log is refused and leaves nothing behind; a record begun before campaigns had uids still
verifies, here and moved."""

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
from django.core.management import CommandError, call_command

from campaigns.battles import portable, record
from campaigns.battles.models import CampaignEvent, LegacyRecordName
from campaigns.battles.verify import verify_campaign
from campaigns.models import Game
from tests.battles.test_linked_battles import open_battles, play_strategic_until, strategic_game
from tests.services import postgres_only
from tests.support.playthrough import play_through_api

pytestmark = [pytest.mark.django_db, postgres_only]
ROOT = Path(__file__).resolve().parents[2]
HOST = "postgres://postgres@127.0.0.1:5432"


def admin(sql: str) -> None:
    with psycopg.connect(f"{HOST}/postgres", autocommit=True) as conn:
        conn.execute(sql)


class Elsewhere:
    """Another server's database: manage.py run against it in a subprocess."""

    def __init__(self, db: str, env: dict[str, str]):
        self.db, self.env = db, env

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        out = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=600
        )
        if check:
            assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-4000:]
        return out

    def count(self, table: str) -> int:
        with psycopg.connect(f"{HOST}/{self.db}") as conn:
            return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]

    def holds_nothing(self) -> bool:
        return all(
            self.count(t) == 0
            for t in ("campaigns_campaign", "campaigns_game", "campaigns_event", "battles_campaignevent")
        )


@pytest.fixture
def elsewhere(tmp_path):
    db = f"kb_h28p_moved_{uuid.uuid4().hex[:8]}"
    admin(f'CREATE DATABASE "{db}"')
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "KRIEGSBRIEF_VAR_DIR": str(tmp_path / "var"),
        "CELERY_BROKER_URL": "",
        "DATABASE_URL": f"{HOST}/{db}",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    try:
        there = Elsewhere(db, env)
        there.run("migrate", "--noinput", "-v", "0")
        yield there
    finally:
        admin(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')


def sections(path: Path) -> dict[str, list[str]]:
    return sections_of(path.read_text(encoding="utf-8").splitlines())


def sections_of(lines: list[str]) -> dict[str, list[str]]:
    """The file's lines by section: "header", each game's uid, "record"."""
    out: dict[str, list[str]] = {"header": [lines[0]]}
    current = ""
    for line in lines[1:]:
        doc = json.loads(line)
        if "section" in doc:
            current = doc["uid"] if doc["section"] == "game" else "record"
            out[current] = []
        else:
            out[current].append(line)
    return out


def changed(path: Path, out: Path, where, key: str) -> Path:
    """A copy of the file with one character of one line's payload[key] changed."""
    lines = path.read_text(encoding="utf-8").splitlines()
    n = next(i for i, line in enumerate(lines) if where(line))
    doc = json.loads(lines[n])
    value = doc["payload"][key]
    doc["payload"][key] = value[:-1] + ("X" if value[-1:] != "X" else "Y")
    lines[n] = json.dumps(doc, sort_keys=True, ensure_ascii=False)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def test_a_campaign_with_a_battle_fought_moves_whole_and_verifies_there(
    people, django_capture_on_commit_callbacks, tmp_path, elsewhere
):
    game = strategic_game(people)
    play_strategic_until(game, django_capture_on_commit_callbacks, lambda s: open_battles(s))
    (battle,) = record.battles(game.campaign).values()
    fought = Game.objects.get(uid=battle.game)
    play_through_api(fought, people, submit=lambda: django_capture_on_commit_callbacks(execute=True))
    campaign = game.campaign
    assert record.battles(campaign)[battle.key].status == "resolved"
    assert record.campaign_uid(campaign) == f"campaign:{campaign.uid}"
    assert verify_campaign(campaign).ok

    export = tmp_path / "campaign.jsonl"
    call_command("export_campaign", str(campaign.pk), "--out", str(export))
    parts = sections(export)
    header = json.loads(parts["header"][0])
    assert header["format"] == "kriegsbrief-campaign" and header["campaign"]["uid"] == str(campaign.uid)
    assert header["campaign"]["name"] == "The Volna campaign"
    assert [g["uid"] for g in header["games"]] == [str(game.uid), str(fought.uid)]
    # each game's part is its export as export_game writes it
    alone = tmp_path / "battle.jsonl"
    call_command("export_game", str(fought.uid), "-o", str(alone))
    assert parts[str(fought.uid)] == alone.read_text(encoding="utf-8").splitlines()
    assert len(parts["record"]) == header["record"] == CampaignEvent.objects.filter(campaign=campaign).count() >= 3

    # here, where its games are, it is refused before anything is written
    with pytest.raises(CommandError, match=f"campaign {campaign.uid} already exists"):
        call_command("import_campaign", str(export))

    # one changed byte of a record entry, or of the battle's log: refused there, naming it; nothing kept
    spawned = changed(
        export,
        tmp_path / "record.jsonl",
        lambda line: '"type": "battle.spawned"' in line and '"prev_hash"' in line,
        "ruleset",
    )
    out = elsewhere.run("import_campaign", str(spawned), check=False)
    assert out.returncode != 0 and "nothing imported" in out.stderr, out.stdout + out.stderr
    assert "the campaign's record does not verify" in out.stderr and "(battle.spawned)" in out.stderr, out.stderr
    assert elsewhere.holds_nothing()

    first_orders = next(line for line in parts[str(fought.uid)] if json.loads(line).get("type") == "orders.submitted")
    battle_log = changed(export, tmp_path / "battle-log.jsonl", lambda line: line == first_orders, "text")
    out = elsewhere.run("import_campaign", str(battle_log), check=False)
    assert out.returncode != 0 and f"game {fought.uid}" in out.stderr, out.stdout + out.stderr
    assert "does not verify" in out.stderr
    assert elsewhere.holds_nothing()

    # the file as it was: imported, the same uids and hashes, and verify_campaign passes there
    imported = elsewhere.run("import_campaign", str(export)).stdout
    assert f"{campaign.uid} 'The Volna campaign': 2 games, {header['record']} record entries" in imported
    verified = elsewhere.run("verify_campaign", "all").stdout
    assert "OK — 2 games, 1 battles" in verified, verified
    again = elsewhere.run("export_campaign", str(campaign.uid)).stdout.splitlines()
    moved = sections_of(again)
    assert moved["record"] == parts["record"]
    for uid in (str(game.uid), str(fought.uid)):
        assert moved[uid][1:] == parts[uid][1:]  # every event byte-identical (the other server has no users)
    # and a second time is refused there too
    out = elsewhere.run("import_campaign", str(export), check=False)
    assert out.returncode != 0 and "already exists" in out.stderr


def test_a_record_begun_before_campaigns_had_uids_still_verifies_here_and_moved(
    people, django_capture_on_commit_callbacks, monkeypatch, tmp_path, elsewhere
):
    import importlib

    from django.apps import apps

    legacy = importlib.import_module("campaigns.battles.migrations.0002_legacy_record_name")
    game = strategic_game(people, battle_ruleset="rules")
    campaign = game.campaign
    # the code before campaigns had uids: the record hashed with the campaign's database id
    monkeypatch.setattr(record, "campaign_uid", lambda c: f"campaign:{c.pk}")
    play_strategic_until(game, django_capture_on_commit_callbacks, lambda s: s.rules.get("battles"))
    monkeypatch.undo()
    begun = CampaignEvent.objects.filter(campaign=campaign).count()
    assert begun >= 2
    # without the name written down, the uid does not reproduce those hashes
    assert any("its hash does not follow" in p for p in verify_campaign(campaign).problems)
    legacy.name_legacy_records(apps, None)  # what battles migration 0002 does on upgrade
    assert LegacyRecordName.objects.get(campaign=campaign).name == f"campaign:{campaign.pk}"
    assert verify_campaign(campaign).ok, verify_campaign(campaign).problems
    # and the record goes on under the name it was begun with
    joined = CampaignEvent.objects.filter(campaign=campaign, type="battle.joined").order_by("seq").first()
    later = record.append(campaign, "battle.joined", {**joined.payload, "battle": "B99"})
    assert later.seq == begun + 1
    assert verify_campaign(campaign).ok, verify_campaign(campaign).problems

    export = tmp_path / "legacy.jsonl"
    call_command("export_campaign", str(campaign.pk), "-o", str(export))
    header = json.loads(export.read_text(encoding="utf-8").splitlines()[0])
    assert header["campaign"]["record_name"] == f"campaign:{campaign.pk}"
    elsewhere.run("import_campaign", str(export))
    verified = elsewhere.run("verify_campaign", "all").stdout
    assert "OK — 1 games" in verified, verified
    # another server, another database id: the name came with the record
    with psycopg.connect(f"{HOST}/{elsewhere.db}") as conn:
        (name,) = conn.execute("SELECT name FROM battles_legacyrecordname").fetchone()
    assert name == f"campaign:{campaign.pk}"
    assert portable.FORMAT in export.read_text(encoding="utf-8").splitlines()[0]

"""verify_game finds tampering; export → import elsewhere → identical hashes."""

import io
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from campaigns.log.portable import ImportRejected
from campaigns.models import Event, Game
from campaigns.turns import archive, gamelog
from tests.support.games import play_one

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


def tamper(event_id: int, new_text: str) -> None:
    """Change one byte of a stored event the way an attacker with DB access would."""
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute("ALTER TABLE campaigns_event DISABLE TRIGGER USER")
            cur.execute(
                "UPDATE campaigns_event SET payload = jsonb_set(payload, '{reason}', to_jsonb(%s::text)) WHERE id = %s",
                [new_text, event_id],
            )
            cur.execute("ALTER TABLE campaigns_event ENABLE TRIGGER USER")
        else:
            cur.execute("DROP TRIGGER campaigns_event_no_update")  # restored below
            cur.execute(
                "UPDATE campaigns_event SET payload = json_set(payload, '$.reason', %s) WHERE id = %s",
                [new_text, event_id],
            )
            cur.execute(
                "CREATE TRIGGER campaigns_event_no_update BEFORE UPDATE ON campaigns_event "
                "BEGIN SELECT RAISE(ABORT, 'campaigns_event is append-only: UPDATE refused'); END;"
            )


def test_verify_game_passes_then_finds_a_changed_byte(game):
    for _ in range(3):
        play_one(game)
    out = io.StringIO()
    call_command("verify_game", str(game.pk), "--no-progress", stdout=out)
    assert "OK" in out.getvalue()
    closed = Event.objects.filter(game=game, type="turn.closed").first()
    tamper(closed.pk, closed.payload["reason"][:-1] + "S")
    out = io.StringIO()
    with pytest.raises(Exception, match="failed verification"):
        call_command("verify_game", str(game.pk), "--no-progress", stdout=out)
    assert f"seq {closed.seq}: hash mismatch" in out.getvalue()


def test_export_import_into_another_database_keeps_every_hash(game, tmp_path):
    for _ in range(4):
        play_one(game)
    export = tmp_path / "game.jsonl"
    call_command("export_game", str(game.pk), "-o", str(export))
    other = tmp_path / "other.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{other}", "KRIEGSBRIEF_VAR_DIR": str(tmp_path / "var")}

    def run(*args):
        return subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        )

    run("migrate", "-v", "0")
    imported = run("import_game", str(export)).stdout
    assert gamelog.head(game.pk)[1] in imported
    again = run("export_game", "1").stdout.splitlines()
    original = export.read_text().splitlines()
    # Every event line is byte-identical; the header differs only in that the
    # other database has no user accounts for the seats.
    assert again[1:] == original[1:] and len(original) > 40
    assert "OK" in run("verify_game", "all", "--no-progress").stdout


def test_import_refuses_a_game_that_exists_and_a_side_export(game, tmp_path):
    export = tmp_path / "game.jsonl"
    call_command("export_game", str(game.pk), "-o", str(export))
    with pytest.raises(Exception, match="already exists"):
        call_command("import_game", str(export))
    side = tmp_path / "red.jsonl"
    call_command("export_game", str(game.pk), "--side", "red", "-o", str(side))
    assert '"umpire"' not in side.read_text()
    with pytest.raises(Exception, match="single viewer's export"):
        call_command("import_game", str(side))


def test_import_names_the_line_of_an_event_with_an_unreadable_date_and_keeps_nothing(game, tmp_path):
    export = tmp_path / "game.jsonl"
    call_command("export_game", str(game.pk), "-o", str(export))
    header, first, *rest = export.read_text().splitlines()
    header = json.loads(header)
    header["game"]["uid"] = str(uuid.uuid4())  # elsewhere, as a game of its own
    broken = {**json.loads(first), "created_at": "the eve of battle"}
    text = "\n".join([json.dumps(header), json.dumps(broken), *rest]) + "\n"
    with pytest.raises(ImportRejected, match="line 2: not an event .*'the eve of battle' is not an ISO date-time"):
        archive.import_stream(io.StringIO(text))
    assert not Game.objects.filter(uid=header["game"]["uid"]).exists()


def test_rebuild_snapshots_command_is_byte_identical(people, settings):
    from campaigns.models import Snapshot
    from tests.conftest import new_civilwar_game

    game = new_civilwar_game(people)
    for _ in range(3):
        play_one(game)
    call_command("rebuild_snapshots", str(game.pk), "--no-progress", stdout=io.StringIO())
    before = list(Snapshot.objects.filter(game=game).order_by("seq").values_list("seq", "state"))
    call_command("rebuild_snapshots", "all", "--no-progress", stdout=io.StringIO())
    assert before and before == list(Snapshot.objects.filter(game=game).order_by("seq").values_list("seq", "state"))

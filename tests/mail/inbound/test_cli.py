"""ingest_mail (an MTA pipe: raw message on stdin) and feed_reply (play by
"mail" from the outbox folder, no mail server)."""

import io
import os
import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command

from campaigns.mailin.models import InboundMessage
from campaigns.mailout.composing import build_message
from campaigns.mailout.outbox import queue_mail
from campaigns.models import Event
from tests.services import database_url, postgres_only
from tests.support.games import orders_of, red_opening
from tests.support.mail import last_reply, seat_mail


def run_ingest(monkeypatch, raw: bytes, *args):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    out = io.StringIO()
    call_command("ingest_mail", *args, stdout=out)
    return out.getvalue()


def test_ingest_mail_reads_stdin(monkeypatch, game, red):
    out = run_ingest(monkeypatch, seat_mail(red, red_opening(game)), "--recipient", "x@y")
    assert "applied" in out
    assert orders_of(game, "red")["text"] == red_opening(game)
    assert InboundMessage.objects.get().via == "pipe"


def test_empty_stdin_is_a_temporary_failure(monkeypatch, db):
    with pytest.raises(SystemExit) as exc:
        run_ingest(monkeypatch, b"")
    assert exc.value.code == 75


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_ingest_mail_as_a_real_pipe(game, red, tmp_path):
    """As Postfix runs it: a separate process, the message on a real pipe."""
    env = {**os.environ, "DATABASE_URL": database_url(), "OUTBOX_DIR": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "manage.py", "ingest_mail", "--recipient", "orders@kriegsbrief.localhost"],
        input=seat_mail(red, red_opening(game)),
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"applied" in proc.stdout, proc.stdout + proc.stderr
    # red alone orders in turn 1, so its orders close the turn at once and the
    # in-process worker adjudicates it: look in the log, not the open turn.
    submitted = Event.objects.get(game=game, type="orders.submitted")
    assert submitted.payload["text"] == red_opening(game) and submitted.payload["source"] == "mail"


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_database_down_is_a_temporary_failure(game, red, tmp_path):
    env = {**os.environ, "DATABASE_URL": "postgres://postgres@127.0.0.1:1/none", "OUTBOX_DIR": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "manage.py", "ingest_mail"],
        input=seat_mail(red, "pass"),
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 75, proc.stderr.decode()


def write_report(tmp_path, game, seat):
    row = queue_mail(
        key="report-feed",
        to=seat.email,
        subject="[Kriegsbrief] Test game: turn 0 results",
        body="Turn report\nform C99 would be quoted\n",
        game=game,
        seat=seat,
        kind="report",
    )
    path = tmp_path / "report.eml"
    path.write_bytes(build_message(row).message().as_bytes())
    return path


def test_feed_reply_answers_a_report_from_the_outbox(tmp_path, game, red):
    report = write_report(tmp_path, game, red)
    text = tmp_path / "orders.txt"
    text.write_text(f"{red_opening(game)}\n")
    out = io.StringIO()
    call_command("feed_reply", str(report), str(text), stdout=out)
    assert "applied" in out.getvalue()
    assert orders_of(game, "red")["text"] == red_opening(game)  # the quoted report was not read
    assert "ORDERS ACCEPTED" in last_reply(red.email).body


def test_feed_reply_takes_a_whole_eml(tmp_path, game, red):
    path = tmp_path / "reply.eml"
    path.write_bytes(seat_mail(red, red_opening(game)))
    call_command("feed_reply", "--eml", str(path), stdout=io.StringIO())
    assert orders_of(game, "red")["text"] == red_opening(game)


def test_feed_reply_errors_are_clear(tmp_path, db):
    with pytest.raises(CommandError, match="give a report"):
        call_command("feed_reply")
    with pytest.raises(CommandError, match="cannot read"):
        call_command("feed_reply", "--eml", str(tmp_path / "missing.eml"))
    bogus = tmp_path / "bogus.eml"
    bogus.write_bytes(b"Subject: hi\n\nno addresses\n")
    (tmp_path / "t.txt").write_text("pass")
    with pytest.raises(CommandError, match="Kriegsbrief report"):
        call_command("feed_reply", str(bogus), str(tmp_path / "t.txt"))


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_the_postfix_pipe_command_line_works(game, red, tmp_path):
    """deploy/postfix/master.cf's argv, with this checkout's paths and ${recipient} filled in as Postfix would."""
    import re
    import shlex
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    master = (root / "deploy/postfix/master.cf").read_text()
    argv = shlex.split(re.search(r"argv=(.+)", master).group(1))
    argv = [
        a.replace("/srv/kriegsbrief/.venv/bin/python", sys.executable)
        .replace("/srv/kriegsbrief", str(root))
        .replace("${recipient}", "orders@kriegsbrief.localhost")
        for a in argv
    ]
    env = {**os.environ, "DATABASE_URL": database_url(), "OUTBOX_DIR": str(tmp_path)}
    proc = subprocess.run(argv, input=seat_mail(red, "STATUS"), capture_output=True, env=env, timeout=120, cwd=root)
    assert proc.returncode == 0, proc.stderr.decode()
    assert InboundMessage.objects.get().envelope_to == "orders@kriegsbrief.localhost"


def test_feed_reply_finds_the_latest_report_in_the_outbox_folder(tmp_path, settings, game, red):
    from campaigns.mailout.outbox import send

    settings.OUTBOX_DIR = tmp_path / "outbox"
    settings.EMAIL_BACKEND = "campaigns.mailout.eml_backend.EmlFileBackend"
    row = queue_mail(
        key="report-latest",
        to=red.email,
        subject="[Kriegsbrief] Test game: turn 0 results",
        body="Turn report\n",
        game=game,
        seat=red,
        kind="report",
    )
    assert send(row.pk)  # written as .eml by the embedded backend, as in the demo
    text = tmp_path / "orders.txt"
    text.write_text(red_opening(game))
    call_command("feed_reply", str(text), latest_for=red.email, stdout=io.StringIO())
    assert orders_of(game, "red")["text"] == red_opening(game)
    with pytest.raises(CommandError, match="no report to nobody@example.org"):
        call_command("feed_reply", str(text), latest_for="nobody@example.org")


def test_feed_reply_latest_for_never_answers_another_games_mail(tmp_path, settings, people, game, red):
    """bob plays red in two games; fred@… contains bob's address: neither may be answered by mistake."""
    from campaigns.mailout.outbox import send
    from tests.conftest import new_civilwar_game

    settings.OUTBOX_DIR = tmp_path / "outbox"
    settings.EMAIL_BACKEND = "campaigns.mailout.eml_backend.EmlFileBackend"
    other = new_civilwar_game(people)
    other_red = other.seats.get(side="red")
    fred = other.seats.get(side="blue")
    fred.email = "fred" + red.email  # "fredbob@example.org" contains "bob@example.org"
    fred.save()
    for key, g, seat in (("r-this", game, red), ("r-fred", other, fred), ("r-other", other, other_red)):
        row = queue_mail(
            key=key,
            to=seat.email,
            subject=f"[Kriegsbrief] {g.name}: turn 0 results",
            body="Turn report\n",
            game=g,
            seat=seat,
            kind="report",
        )
        assert send(row.pk)
    text = tmp_path / "orders.txt"
    text.write_text("pass\nWAIT")
    with pytest.raises(CommandError, match=r"reports from 2 games: .*say which with --game"):
        call_command("feed_reply", str(text), latest_for=red.email)
    assert not InboundMessage.objects.exists()
    call_command("feed_reply", str(text), latest_for=red.email, game=str(game.pk), stdout=io.StringIO())
    assert orders_of(game, "red")["text"] == "pass" and orders_of(other, "red") is None
    call_command("feed_reply", str(text), latest_for=red.email, game=str(other.pk), stdout=io.StringIO())
    assert orders_of(other, "red")["text"] == "pass" and orders_of(other, "blue") is None
    with pytest.raises(CommandError, match="no game with id 999999"):
        call_command("feed_reply", str(text), latest_for=red.email, game="999999")

"""Golden game logs made BY THE CURRENT CODE (the release being cut; issue 26, "golden logs from every release").

What it makes, in tests/golden/<label>/ (label from --label, default 0.2.0):
  <slug>.jsonl     each game's complete (umpire) export, JSON Lines (campaigns.turns.archive.export_lines,
                   what `manage.py export_game <id>` writes), every game verified first (verify_game)
  MANIFEST.json    {"release", "commit" (git rev-parse HEAD), "games": [{"slug", "ruleset", "rules_version",
                   "status", "turn", "turn_status", "channels", "notes"}]}

Two games or more of every rule set in rules/catalog.py: one played to its finish (game over) and one
left mid-game with an open turn where one side has sent orders (in a simultaneous rule set, the other
not); besides, a Kriegspiel game with hidden works laid by one side (kriegspiel-works-open) and a Civil
War game with require_approval whose last turn's results are held for the umpire
(civilwar-approval-held). Every rule set has a game where some orders came by mail.

Everything goes through the platform's public channels, in this process: games are created with
POST /api/games/ and the seats accepted with POST /api/seats/<id>/accept/ (DRF's APIClient,
force_authenticate); orders by the API (POST /api/games/<id>/orders/; the umpire's approve and ruling)
or by mail (an RFC 5322 message from the seat's registered address to the Reply-To of the seat's latest
mail, in its thread, fed to campaigns.mailin.ingest.ingest as the mail-in tests do). The orders are the
rule sets' own bots (rules/<set>/testing.py: bot_orders on state_from_view of the side's own GET
.../view/; Kriegspiel by Little Wars' bot; Civil War picks among the `legal_operations` its view lists)
or scripted lines (Kriegspiel's works). Users are made as the test suite makes them (create_user and a
Profile with a confirmed address). Settings: kriegsbrief.settings with DEBUG=true, no
CELERY_BROKER_URL (tasks eager, in-process), mail written as .eml files into a scratch outbox folder.
Dice seeds come from secrets: a re-run makes different (equally valid) games of the same shapes.

The scratch database (--database, default kb_golden_build) is DROPPED and created afresh, then migrated;
afterwards a second scratch database (<database>_import) is made the same way and every export is
imported into it with `manage.py import_game` (which verifies on import); any failure stops the run.

Re-run it (PostgreSQL at 127.0.0.1:5432, user postgres, trust), from the repository's root:

  .venv/bin/python tests/golden/build/release_head.py --label 0.2.0

Options: --database NAME (scratch; dropped), --pg-url (default postgres://postgres@127.0.0.1:5432),
--label LABEL (the folder and the manifest's release), --no-import-check (skip the re-import),
--keep-mail (keep the scratch outbox folder of .eml files; by default it is deleted at the end).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from datetime import datetime
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, formataddr, make_msgid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden"
SECRET_KEY = "kriegsbrief-golden-release-head-not-secret"
PROTECTED = {"kriegsbrief", "kb_release_2c3e6be", "postgres", "template0", "template1"}

# username -> (display name, time zone)
PEOPLE = {
    "ursula": ("Ursula Umpire", "Europe/Berlin"),
    "rolf": ("Rolf Becker", "Europe/Berlin"),
    "bertha": ("Bertha Blake", "America/New_York"),
    "kenji": ("Kenji Sato", "Asia/Tokyo"),
    "maria": ("Maria Souza", "America/Sao_Paulo"),
    "olga": ("Olga Observer", "UTC"),
}


def email_of(username: str) -> str:
    return f"{username}@players.example"


# Kriegspiel's works on ks_farm (red on the south edge): a mine takes 2 figures 6 turns, an
# entrenchment infantry 4 turns (2 figures an inch), a gun pit 6 figures 4 turns (RULES.md KS-58..64);
# the workers stand within 2 in of the work and must not move while it is made.
KS_RED_WORKS = "split foot1 2 as sappers nearest 16,3\nmine sappers at 16,4\nentrench foot2 from 29.5,4.5 to 34.5,4.5"


def log(msg: str) -> None:
    print(f"[{datetime.now():%H:%M:%S}] {msg}", flush=True)


# =============================================================================================
# Process set-up: the environment a development process gets (./kb demo, tests/settings.py)
# =============================================================================================


def configure(db_url: str, var_dir: str) -> None:
    for key in list(os.environ):
        if key.startswith(("CELERY_", "EMAIL_", "MAIL_", "DATABASE_", "CACHE_", "KRIEGSBRIEF_", "DJANGO_")):
            del os.environ[key]
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "kriegsbrief.settings",
            "DEBUG": "true",  # the development profile, as ./kb demo and the test suite ask for it
            "SECRET_KEY": SECRET_KEY,
            "DATABASE_URL": db_url,
            "DATABASE_CONN_MAX_AGE": "0",
            "KRIEGSBRIEF_VAR_DIR": var_dir,  # the outbox folder (.eml files) and nothing else of ours
            "LOG_LEVEL": "WARNING",
        }
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings

    assert settings.DEBUG and settings.CELERY_TASK_ALWAYS_EAGER, "want DEBUG and eager tasks"
    assert settings.EMAIL_BACKEND.endswith("EmlFileBackend"), settings.EMAIL_BACKEND


def recreate_database(pg_url: str, name: str) -> None:
    if name in PROTECTED or not name.replace("_", "").isalnum():
        sys.exit(f"refusing to drop the database {name!r}")
    import psycopg

    with psycopg.connect(f"{pg_url.rstrip('/')}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def migrate() -> None:
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)


# =============================================================================================
# The players: API clients and mail
# =============================================================================================


class Table:
    """The people, their API clients, and what they do through the channels."""

    def __init__(self) -> None:
        self.rng = random.Random(20260)
        self.clients: dict[str, object] = {}
        self.users: dict[str, object] = {}
        self.last_date = 0.0
        self.mail_count = 0

    # --- people --------------------------------------------------------------------------------

    def make_people(self) -> None:
        from django.contrib.auth import get_user_model

        from campaigns.models import Profile

        User = get_user_model()
        for username, (full, tz) in PEOPLE.items():
            first, last = full.split(" ", 1)
            user = User.objects.create_user(username, email_of(username), first_name=first, last_name=last)
            # As the suite's people (tests/conftest.py make_user): the address confirmed.
            Profile.objects.create(user=user, timezone=tz, verified_email=user.email)
            self.users[username] = user

    def api(self, username: str):
        from rest_framework.test import APIClient

        if username not in self.clients:
            client = APIClient()
            client.force_authenticate(self.users[username])
            self.clients[username] = client
        return self.clients[username]

    def post(self, username: str, url: str, body: dict | None = None, expect: int = 200) -> dict:
        resp = self.api(username).post(url, body or {}, format="json")
        assert resp.status_code == expect, (username, url, body, resp.status_code, resp.content.decode()[:3000])
        return resp.json()

    def get(self, username: str, url: str) -> dict:
        resp = self.api(username).get(url)
        assert resp.status_code == 200, (username, url, resp.status_code, resp.content.decode()[:3000])
        return resp.json()


class Game:
    """One game being played: its row, who sits where, and the moves made through the channels."""

    def __init__(
        self,
        table: Table,
        slug: str,
        ruleset: str,
        *,
        umpire: str,
        red: str,
        blue: str,
        scenario: str | None = None,
        settings: dict | None = None,
        observers: tuple[str, ...] = (),
        name: str = "",
    ) -> None:
        from campaigns.models import Game as GameRow

        self.t, self.slug, self.ruleset = table, slug, ruleset
        self.players = {"red": red, "blue": blue}
        self.umpire = umpire
        self.channels: set[str] = {"api"}
        self.notes: list[str] = []
        self.started = time.time()
        body = {
            "name": name or slug.replace("-", " ").title(),
            "ruleset": ruleset,
            "campaign_name": f"Golden games: {ruleset}",
            "umpire": {"username": umpire},
            "players": [{"side": "red", "username": red}, {"side": "blue", "username": blue}],
            "observers": [{"username": o} for o in observers],
            "settings": settings or {},
        }
        if scenario:
            body["scenario"] = scenario
        out = table.post(umpire, "/api/games/", body, expect=201)
        self.row = GameRow.objects.get(pk=out["id"])
        for username in out["invited"]:  # each invitee accepts through the API; the last opens turn 1
            seats = table.get(username, "/api/seats/")
            seats = seats["results"] if isinstance(seats, dict) else seats
            for seat in seats:
                if seat["game"] == self.row.pk and seat["status"] == "invited":
                    table.post(username, f"/api/seats/{seat['id']}/accept/")
        self.row.refresh_from_db()
        assert self.row.turn_number == 1, (slug, self.row.turn_number)
        self.ruleset_title = ruleset
        log(f"{slug}: game {self.row.pk} ({ruleset}{', ' + scenario if scenario else ''}) created by the API")

    # --- reading -------------------------------------------------------------------------------

    def view(self, who: str) -> dict:
        """``who``: a side (its player) or 'umpire'."""
        user = self.umpire if who == "umpire" else self.players[who]
        return self.t.get(user, f"/api/games/{self.row.pk}/view/")

    def turn(self) -> dict:
        return self.view("umpire")["turn"]

    def state(self):
        from campaigns.turns import gamelog

        return gamelog.load(self.row.pk).state

    # --- orders by API -------------------------------------------------------------------------

    def api_orders(self, side: str, text: str, ready: bool = True) -> dict:
        self.channels.add("api")
        return self.t.post(
            self.players[side], f"/api/games/{self.row.pk}/orders/", {"text": text, "ready": ready}, expect=201
        )

    def umpire_post(self, action: str, body: dict, expect: int = 200) -> dict:
        self.channels.add("umpire")
        return self.t.post(self.umpire, f"/api/games/{self.row.pk}/{action}/", body, expect=expect)

    # --- orders by mail ------------------------------------------------------------------------

    def seat(self, side: str):
        return self.row.seats.get(role="player", side=side)

    def letter(self, side: str, text: str) -> bytes:
        """A player's answer to the newest mail its seat got, as a mail client writes it: from the
        seat's registered address to that mail's Reply-To (the seat's reply address), in its thread,
        the mail quoted below the answer."""
        from campaigns.models import OutboxMail
        from campaigns.turns import addresses

        seat = self.seat(side)
        user = self.t.users[self.players[side]]
        last = OutboxMail.objects.filter(seat=seat).exclude(reply_to="").order_by("-pk").first()
        self.t.mail_count += 1
        # Dates rise a second at least from one message to the next (campaigns/mailin/replay.py).
        self.t.last_date = max(time.time(), self.t.last_date + 1)
        when = datetime.fromtimestamp(self.t.last_date).astimezone()
        domain = seat.email.split("@")[1]
        msg = EmailMessage()
        msg["From"] = formataddr((user.get_full_name(), seat.email))
        msg["To"] = last.reply_to if last else addresses.reply_address(seat)
        subject = last.subject if last else f"Orders for {self.row.name}"
        msg["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
        msg["Date"] = format_datetime(when)
        msg["Message-ID"] = make_msgid(idstring=f"golden{self.t.mail_count}", domain=domain)
        if last is not None:
            msg["In-Reply-To"] = last.message_id
            msg["References"] = " ".join([*last.references, last.message_id])
        msg["User-Agent"] = self.t.rng.choice(["Mozilla Thunderbird 128.3", "Apple Mail (2.3774)", "Roundcube 1.6.9"])
        body = f"Dear umpire,\n\n{text.rstrip()}\n\nYours,\n{user.get_full_name()}\n"
        if last is not None:
            quoted = "\n".join("> " + line for line in last.body.splitlines())
            body += f"\nOn {format_datetime(last.created_at)}, Kriegsbrief wrote:\n{quoted}\n"
        msg.set_content(body)
        return msg.as_bytes(policy=SMTP)

    def mail(self, side: str, text: str) -> object:
        """Send a letter through mail-in's one entry (ingest.ingest, as tests/mail/inbound do)."""
        from campaigns.mailin import ingest
        from campaigns.mailin.models import InboundMessage

        self.channels.add("mail")
        row = ingest.ingest(self.letter(side, text), via="golden")
        assert row.status == InboundMessage.Status.APPLIED, (self.slug, side, row.status, row.error, text)
        return row

    def mail_orders(self, side: str, text: str, ready: bool = True) -> None:
        """Orders by mail in an ORDERS ... END block (WAIT below it: not ready); refused orders fail the run."""
        from campaigns.models import Event, OutboxMail

        before = Event.objects.filter(game=self.row, type="orders.submitted").count()
        self.mail(side, f"ORDERS\n{text.strip()}\nEND" + ("" if ready else "\nWAIT"))
        after = Event.objects.filter(game=self.row, type="orders.submitted").order_by("-seq").first()
        if (
            Event.objects.filter(game=self.row, type="orders.submitted").count() == before
            or after.payload.get("source") != "mail"
        ):
            ack = OutboxMail.objects.filter(to=self.seat(side).email, kind="mail-reply").order_by("-pk").first()
            raise AssertionError(
                f"{self.slug}: {side}'s orders by mail not accepted:\n{text}\n{ack.body if ack else ''}"
            )

    def orders(self, side: str, text: str, channel: str, ready: bool = True) -> None:
        if channel == "mail":
            self.mail_orders(side, text, ready)
        else:
            self.api_orders(side, text, ready)

    # --- the end -------------------------------------------------------------------------------

    def done(self, note: str) -> None:
        self.row.refresh_from_db()
        self.notes.insert(0, note)
        log(
            f"{self.slug}: turn {self.row.turn_number} {self.row.turn_status}, game {self.row.status} "
            f"({time.time() - self.started:.1f} s)"
        )


# =============================================================================================
# Bots: legal orders from a side's own view
# =============================================================================================


def bots_for(ruleset: str):
    from rules.kingsofwar import testing as kingsofwar
    from rules.littlewars import testing as littlewars
    from rules.napoleon import testing as napoleon
    from rules.warworlds import testing as warworlds

    return {
        "littlewars": littlewars,
        "kriegspiel": littlewars,
        "warworlds": warworlds,
        "kingsofwar": kingsofwar,
        "napoleon": napoleon,
    }[ruleset]


def bot_text(game: Game, side: str) -> str:
    board = game.view(side)["board"]
    bots = bots_for(game.ruleset)
    return bots.bot_orders(bots.state_from_view(board), side)


def civilwar_text(
    game: Game, side: str, rng: random.Random, *, passes: bool = False, attack: float = 0.5, standing: float = 0.25
) -> str:
    """From the side's own view: on a decision turn fight or a retreat it offers; else one of the
    legal operations it lists (an attack, when there is one, with probability ``attack``), or pass;
    now and then a standing instruction beside it (with it in force no decision turn is asked)."""
    view = game.view(side)
    board, turn = view["board"], view["turn"]
    if turn["kind"] == "decision":
        pending = board.get("pending") or {}
        return rng.choice(["fight"] + [f"retreat to {p}" for p in pending.get("options", [])])
    if passes:
        return "pass"
    options = board.get("legal_operations") or ["pass"]
    attacks = [o for o in options if o.startswith(("assault", "breakthrough"))]
    pick = rng.choice(attacks) if attacks and rng.random() < attack else rng.choice(options)
    if rng.random() < standing:
        pick += "\nif attacked " + rng.choice(["retreat", "fight"])
    return pick


def play_turns(game: Game, turns: int, channel_of=lambda n, side: "api", stop_before_last_side: bool = False) -> dict:
    """Up to ``turns`` turns by the bots (every side to move orders, ready); the turn view after.
    ``channel_of(turn number, side)``: 'api' or 'mail'."""
    rng = random.Random(zlib.crc32(game.slug.encode()))
    for _ in range(turns):
        turn = game.turn()
        if turn["game_status"] != "active":
            return turn
        assert turn["status"] == "open", turn
        for side in turn["sides"]:
            text = civilwar_text(game, side, rng) if game.ruleset == "civilwar" else bot_text(game, side)
            game.orders(side, text, channel_of(turn["number"], side))
        after = game.turn()
        assert after["number"] > turn["number"] or after["game_status"] != "active" or after["status"] != "open", (
            turn,
            after,
        )
    return game.turn()


# =============================================================================================
# The games
# =============================================================================================


def every_third_by_mail(sides=("red", "blue")):
    """Turn n's orders of a side by mail when n is a multiple of 3 (and the side is listed), else by API."""
    return lambda n, side: "mail" if n % 3 == 0 and side in sides else "api"


def play_to_finish(game: Game, limit: int, channel_of) -> dict:
    turn = play_turns(game, limit, channel_of)
    assert turn["game_status"] == "finished", (game.slug, turn)
    return turn


def leave_open(game: Game, turns: int, channel_of, last_channel: str) -> dict:
    """``turns`` turns by the bots, then the first side to move sends its orders by ``last_channel``:
    in a simultaneous game ready (the other side has not answered), in an alternating one not ready
    (WAIT), so the turn stays open either way."""
    turn = play_turns(game, turns, channel_of)
    assert turn["game_status"] == "active" and turn["status"] == "open", (game.slug, turn)
    side = turn["sides"][0]
    simultaneous = len(turn["sides"]) > 1
    text = civilwar_text(game, side, random.Random(7)) if game.ruleset == "civilwar" else bot_text(game, side)
    game.orders(side, text, last_channel, ready=simultaneous)
    after = game.turn()
    assert after["number"] == turn["number"] and after["status"] == "open", (game.slug, after)
    state = game.state()
    assert side in state.turn.orders and all(s not in state.turn.orders for s in turn["sides"][1:]), state.turn
    return after


# --- Civil War (alternating, decision turns) ---------------------------------------------------


def civilwar_finished(t: Table) -> Game:
    g = Game(
        t,
        "civilwar-finished",
        "civilwar",
        umpire="ursula",
        red="rolf",
        blue="bertha",
        name="The Divided Country, played out",
    )
    rng = random.Random(11)
    # Operations, attacks preferred and no standing instructions (so an attacked unit's side is
    # asked in a decision turn), until there has been an attack and a decision turn.
    seen: set[str] = set()
    for _ in range(60):
        turn = g.turn()
        if turn["game_status"] != "active" or (turn["number"] > 10 and {"attack", "decision"} <= seen):
            break
        side = turn["sides"][0]
        text = civilwar_text(g, side, rng, attack=0.9, standing=0)
        seen |= {"decision"} if turn["kind"] == "decision" else set()
        seen |= {"attack"} if text.startswith(("assault", "breakthrough")) else set()
        g.orders(side, text, "mail" if turn["number"] % 3 == 0 else "api")
    assert {"attack", "decision"} <= seen, seen
    # Then both sides pass: six passes in a row end the game as a draw (RULES.md 18, 23).
    for n in range(60):
        turn = g.turn()
        if turn["game_status"] != "active":
            break
        side = turn["sides"][0]
        g.orders(side, civilwar_text(g, side, rng, passes=True), "mail" if n % 2 else "api")
    g.done(
        "operations chosen from each side's legal_operations, attacks preferred, with decision turns, by "
        "API and mail every third turn; then passes by API and mail until six in a row ended it as a draw (rules 18, 23)"
    )
    return g


def civilwar_open(t: Table) -> Game:
    g = Game(
        t,
        "civilwar-open",
        "civilwar",
        name="The Divided Country, a game in hand",
        umpire="ursula",
        red="kenji",
        blue="maria",
    )
    leave_open(g, 6, every_third_by_mail(), "mail")
    g.done(
        "six turns by API and mail; the side to move has sent its orders by mail with WAIT (not ready), "
        "so the turn is open with its orders in"
    )
    return g


def civilwar_approval_held(t: Table) -> Game:
    g = Game(
        t,
        "civilwar-approval-held",
        "civilwar",
        name="The Divided Country, umpired",
        umpire="ursula",
        red="bertha",
        blue="kenji",
        settings={"require_approval": True},
    )
    rng = random.Random(13)
    for n in range(1, 6):
        turn = g.turn()
        assert turn["status"] == "open", turn
        side = turn["sides"][0]
        g.orders(side, civilwar_text(g, side, rng), "mail" if n == 2 else "api")
        turn = g.turn()
        assert turn["status"] == "adjudicated", turn  # the results wait for the umpire
        if n < 5:
            g.umpire_post("approve", {"turn": turn["number"], "note": f"turn {turn['number']} approved as adjudicated"})
    g.done(
        "require_approval: the umpire approved turns 1-4 through the API; the last turn's results are "
        "adjudicated and held for the umpire (turn_status adjudicated)"
    )
    return g


# --- Little Wars (simultaneous) ----------------------------------------------------------------


def littlewars_finished(t: Table) -> Game:
    g = Game(
        t,
        "littlewars-finished",
        "littlewars",
        name="Skirmish at the farm",
        umpire="ursula",
        red="rolf",
        blue="kenji",
        scenario="skirmish",
        observers=("olga",),
    )
    play_to_finish(g, 30, lambda n, side: "mail" if side == "red" and n % 2 == 0 else "api")
    g.done("skirmish played to its scored end by the bots; red's orders by mail every other turn; an observer seat")
    return g


def littlewars_open(t: Table) -> Game:
    g = Game(
        t,
        "littlewars-open",
        "littlewars",
        name="Orchard skirmish",
        umpire="ursula",
        red="maria",
        blue="bertha",
        scenario="skirmish",
    )
    leave_open(g, 2, lambda n, side: "api", "mail")
    g.done("skirmish, two turns by API; red's orders for the open turn by mail (ready), blue has not answered")
    return g


# --- Kriegspiel (simultaneous, fog of war, hidden works) -----------------------------------------


def kriegspiel_finished(t: Table) -> Game:
    g = Game(
        t,
        "kriegspiel-finished",
        "kriegspiel",
        name="Kriegspiel skirmish",
        umpire="ursula",
        red="bertha",
        blue="rolf",
        scenario="skirmish",
    )
    play_to_finish(g, 30, lambda n, side: "mail" if side == "blue" and n % 2 == 1 else "api")
    g.done(
        "skirmish as Kriegspiel, played to its end by Little Wars' bot from each side's fogged view; "
        "blue's orders by mail every other turn"
    )
    return g


def kriegspiel_works_open(t: Table) -> Game:
    from campaigns.models import Event

    g = Game(
        t,
        "kriegspiel-works-open",
        "kriegspiel",
        name="Kriegspiel at the farm: sappers at work",
        umpire="ursula",
        red="kenji",
        blue="maria",
        scenario="ks_farm",
        observers=("olga",),
    )
    red_script = {
        1: ("hold", "api"),  # deployment behind the curtain: the scenario's places
        2: (KS_RED_WORKS + "\nmove horse to 24,40", "mail"),
        3: ("move horse to 24,60", "api"),
    }
    for n, (red, channel) in red_script.items():
        turn = g.turn()
        assert turn["number"] == n and turn["status"] == "open", turn
        g.orders("red", red, channel)
        g.orders("blue", "hold" if n == 1 else bot_text(g, "blue"), "api")
        rejected = Event.objects.filter(game=g.row, turn=n, type="littlewars.orders_rejected")
        for ev in rejected:  # no scripted line may have been refused in the adjudication
            assert not ev.payload.get("errors") and not ev.payload.get("rejected"), (n, ev.payload)
    g.mail("red", "MESSAGE umpire\nMy sappers dig by night; please keep the lanterns out of sight.\nEND")
    g.umpire_post("ruling", {"text": "note red: the sappers dig by night; nobody on the hill saw them"})
    g.orders("red", "move horse to 24,76", "mail")  # turn 4: red's orders in; blue has not answered
    state = g.state()
    works = (state.rules.get("ks") or {}).get("works") or {}
    assert works and all(w["side"] == "red" for w in works.values()), works
    assert state.turn.status == "open" and set(state.turn.orders) == {"red"}, state.turn
    g.done(
        f"ks_farm; red laid hidden works in turn 2 by mail ({', '.join(sorted(w['kind'] for w in works.values()))}; "
        "still in hand, unseen by blue), blue played by the bot; a message to the umpire and an umpire's note; "
        "turn 4 open with red's orders in (by mail), blue not"
    )
    return g


# --- War of the Worlds (simultaneous, three mail rounds a turn) ---------------------------------


def warworlds_finished(t: Table) -> Game:
    g = Game(
        t,
        "warworlds-finished",
        "warworlds",
        name="The assault on Brennick",
        umpire="ursula",
        red="kenji",
        blue="bertha",
        scenario="town_assault",
    )
    play_to_finish(g, 60, every_third_by_mail())
    g.done("town_assault played to its scored end by the bots; every third round's orders by mail")
    return g


def warworlds_open(t: Table) -> Game:
    g = Game(
        t,
        "warworlds-open",
        "warworlds",
        name="Meeting at the Mill Stream",
        umpire="ursula",
        red="rolf",
        blue="maria",
        scenario="field_battle",
    )
    leave_open(g, 4, lambda n, side: "api", "mail")
    g.done("field_battle, four rounds by API; red's orders for the open round by mail (ready), blue has not answered")
    return g


# --- Kings of War (alternating player turns) -----------------------------------------------------


def kingsofwar_finished(t: Table) -> Game:
    g = Game(
        t,
        "kingsofwar-finished",
        "kingsofwar",
        name="Pitched battle",
        umpire="ursula",
        red="maria",
        blue="kenji",
        scenario="pitched",
    )
    play_to_finish(g, 40, every_third_by_mail())
    g.done("pitched battle played to its scored end by the bots; every third player turn by mail")
    return g


def kingsofwar_open(t: Table) -> Game:
    g = Game(
        t,
        "kingsofwar-open",
        "kingsofwar",
        name="Hold the objectives",
        umpire="ursula",
        red="bertha",
        blue="rolf",
        scenario="objectives",
    )
    leave_open(g, 3, lambda n, side: "api", "mail")
    g.done(
        "hold-the-objectives, three player turns by API; the side to move has sent its orders by mail "
        "with WAIT (not ready): the turn is open with its orders in"
    )
    return g


# --- Napoleon's War (alternating player turns) ---------------------------------------------------


def napoleon_finished(t: Table) -> Game:
    g = Game(
        t,
        "napoleon-finished",
        "napoleon",
        name="The fight at the mill ford",
        umpire="ursula",
        red="rolf",
        blue="maria",
        scenario="mill_ford",
    )
    play_to_finish(g, 60, every_third_by_mail())
    g.done("mill_ford played to its scored end by the bots; every third player turn by mail")
    return g


def napoleon_open(t: Table) -> Game:
    g = Game(
        t,
        "napoleon-open",
        "napoleon",
        name="Quatre Bras",
        umpire="ursula",
        red="kenji",
        blue="bertha",
        scenario="quatre_bras",
    )
    leave_open(g, 3, lambda n, side: "api", "api")
    g.done(
        "Quatre Bras, three player turns by API; the side to move has sent its orders by API, not ready: "
        "the turn is open with its orders in"
    )
    return g


BUILDERS = [
    civilwar_finished,
    civilwar_open,
    civilwar_approval_held,
    littlewars_finished,
    littlewars_open,
    kriegspiel_finished,
    kriegspiel_works_open,
    warworlds_finished,
    warworlds_open,
    kingsofwar_finished,
    kingsofwar_open,
    napoleon_finished,
    napoleon_open,
]


# =============================================================================================
# Verify, export, manifest; the re-import check
# =============================================================================================


def verify_all(games: list[Game]) -> None:
    from campaigns.turns.gamelog import verify_game

    bad = []
    for g in games:
        report = verify_game(g.row)
        if not report.ok:
            bad.append(f"{g.slug} (game {g.row.pk}): {report}")
    if bad:
        sys.exit("VERIFICATION FAILED:\n" + "\n".join(bad))
    log(f"verify_game: all {len(games)} games verify")


def export_all(games: list[Game], out: Path) -> list[dict]:
    from campaigns.models import Event
    from campaigns.turns.archive import export_lines

    out.mkdir(parents=True, exist_ok=True)
    for stale in [*out.glob("*.jsonl"), out / "MANIFEST.json"]:
        stale.unlink(missing_ok=True)
    entries = []
    for g in games:
        path = out / f"{g.slug}.jsonl"
        with open(path, "w", encoding="utf-8") as fh:
            for line in export_lines(g.row):  # the complete (umpire) export, as export_game writes it
                fh.write(line + "\n")
        size = path.stat().st_size
        if size > 1_000_000:
            sys.exit(f"{path.name} is {size} bytes: choose a smaller scenario")
        g.row.refresh_from_db()
        created = Event.objects.filter(game=g.row, type="game.created").order_by("seq").first()
        state = g.state()
        entries.append(
            {
                "slug": g.slug,
                "ruleset": g.ruleset,
                "rules_version": created.payload.get("rules_version") if created else None,
                "status": state.status,
                "turn": state.turn.number,
                "turn_status": state.turn.status,
                "channels": sorted(g.channels),
                "notes": "; ".join(g.notes),
            }
        )
        log(f"{path.name}: {size} bytes, {Event.objects.filter(game=g.row).count()} events")
    return entries


def git_head() -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()


def reimport(args) -> None:
    """Phase of its own (a child process): a fresh scratch database, migrated, takes every export."""
    from django.core.management import call_command

    migrate()
    out = GOLDEN / args.label
    for path in sorted(out.glob("*.jsonl")):
        call_command("import_game", str(path))  # verifies on import; a refusal raises CommandError
    log(f"import_game accepted all {len(list(out.glob('*.jsonl')))} exports in {args.database}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--label", default="0.2.0", help="release label: tests/golden/<label>/ (default 0.2.0)")
    ap.add_argument("--database", default="kb_golden_build", help="scratch database, DROPPED and re-created")
    ap.add_argument("--pg-url", default="postgres://postgres@127.0.0.1:5432")
    ap.add_argument("--no-import-check", action="store_true", help="skip re-importing the exports")
    ap.add_argument("--keep-mail", action="store_true", help="keep the scratch outbox (.eml files) and say where")
    ap.add_argument("--phase", choices=["reimport"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    var_dir = tempfile.mkdtemp(prefix="kb-golden-head-")
    try:
        run(args, var_dir)
    finally:
        if args.keep_mail:
            log(f"the mail sent is kept in {var_dir}/outbox")
        else:
            shutil.rmtree(var_dir, ignore_errors=True)


def run(args, var_dir: str) -> None:
    started = time.time()
    recreate_database(args.pg_url, args.database)
    configure(f"{args.pg_url.rstrip('/')}/{args.database}", var_dir)
    if args.phase == "reimport":
        return reimport(args)
    log(f"scratch database {args.database}, outbox {var_dir}/outbox")
    migrate()

    table = Table()
    table.make_people()
    games = [build(table) for build in BUILDERS]
    verify_all(games)
    out = GOLDEN / args.label
    entries = export_all(games, out)
    manifest = {"release": args.label, "commit": git_head(), "games": entries}
    (out / "MANIFEST.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    log(f"wrote {len(entries)} games and MANIFEST.json to {out} ({time.time() - started:.0f} s)")

    if not args.no_import_check:
        from django.db import connections

        connections.close_all()
        check = [
            sys.executable,
            str(Path(__file__).resolve()),
            "--phase",
            "reimport",
            "--label",
            args.label,
            "--database",
            f"{args.database}_import",
            "--pg-url",
            args.pg_url,
        ]
        if subprocess.run(check).returncode != 0:
            sys.exit("the exports did not all re-import")
    log(f"done in {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()

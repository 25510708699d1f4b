"""Turn reports over real SMTP: one per seat, threaded, with Reply-To, a PNG map and the
deadline in the seat's own time zone."""

import io
import zoneinfo

import pytest
from django.utils.dateparse import parse_datetime
from PIL import Image

from campaigns.mailout.outbox import thread_root
from campaigns.turns import commands
from campaigns.turns.addresses import reply_address
from tests.support.games import play_one, state_of
from tests.support.mail import part, plain

pytestmark = pytest.mark.django_db(transaction=True)

EMAILS = {"umpire": "alice@example.org", "red": "bob@example.org", "blue": "carol@example.org"}


def seat(game, who):
    return game.seats.get(side=who) if who in ("red", "blue") else game.seats.get(role="umpire")


def test_each_seat_gets_one_threaded_report_with_its_reply_address(game, smtp):
    play_one(game)
    assert sorted(r[0] for r, _ in smtp.messages) == sorted(EMAILS.values())
    ids = set()
    for who, address in EMAILS.items():
        [msg] = smtp.to(address)
        assert msg["Reply-To"] == reply_address(seat(game, who))
        assert msg["Auto-Submitted"] == "auto-generated"
        assert msg["In-Reply-To"] == thread_root(game, seat(game, who))
        assert msg["References"] == thread_root(game, seat(game, who))
        assert msg["Subject"] == "[Kriegsbrief] Test game: turn 1 results"
        ids.add(msg["Message-ID"])
    assert len(ids) == 3  # each message its own id, all in one thread


def test_the_map_is_a_real_png_and_there_is_an_html_alternative(game, smtp):
    play_one(game)
    msg = smtp.to(EMAILS["blue"])[0]
    png = part(msg, "image/png")
    assert png.get_filename() == "map.png"
    image = Image.open(io.BytesIO(png.get_content()))
    image.verify()
    assert image.format == "PNG" and image.size[0] > 100 and image.size[1] > 100
    html = part(msg, "text/html").get_content()
    assert "<h2>Test game" in html and "You are: <b>blue</b>" in html


def test_the_deadline_is_given_in_each_seats_time_zone(game, smtp):
    play_one(game)
    deadline = parse_datetime(state_of(game).turn.deadline)
    for who, tz in (("umpire", "Europe/Berlin"), ("red", "America/New_York"), ("blue", "Asia/Tokyo")):
        body = plain(smtp.to(EMAILS[who])[0])
        local = deadline.astimezone(zoneinfo.ZoneInfo(tz))
        assert f"Deadline: {local:%Y-%m-%d %H:%M} {local.tzname()} ({tz})" in body


def test_orders_as_executed_own_side_for_players_all_sides_for_the_umpire(game, smtp):
    side, text = play_one(game)  # red moves first in the Civil War
    assert side == "red"
    red = plain(smtp.to(EMAILS["red"])[0])
    assert f"Orders as executed:\n[red]\n    {text}" in red
    umpire = plain(smtp.to(EMAILS["umpire"])[0])
    assert f"[red]\n    {text}" in umpire
    blue = plain(smtp.to(EMAILS["blue"])[0])
    assert "Orders as executed" not in blue  # blue gave no orders in turn 1 and sees none of red's


def test_a_missed_turn_reports_the_default_that_was_applied(game, smtp):
    commands.close_turn(game.pk, "deadline passed")
    red = plain(smtp.to(EMAILS["red"])[0])
    assert "[red]\n    (none received; default applied) pass" in red


def test_every_turn_of_a_game_stays_in_one_thread(game, smtp):
    for _ in range(3):
        play_one(game)
    reports = smtp.to(EMAILS["blue"])
    assert [m["Subject"].split(": ")[1] for m in reports] == ["turn 1 results", "turn 2 results", "turn 3 results"]
    assert {m["References"] for m in reports} == {thread_root(game, seat(game, "blue"))}
    assert len({m["Message-ID"] for m in reports}) == 3


def test_game_over_summary_goes_to_every_seat(game, smtp):
    # Six passed turns in a row end a Civil War game as a draw (CW rules).
    while state_of(game).status == "active":
        side = state_of(game).turn.sides[0]
        assert commands.submit_orders(game.pk, side, "pass", source="mail").accepted
    for who, address in EMAILS.items():
        summaries = [m for m in smtp.to(address) if "game over" in m["Subject"]]
        assert len(summaries) == 1
        body = plain(summaries[0])
        assert "Result: draw (6 turns in a row were passed: a draw)." in body
        assert summaries[0]["References"] == thread_root(game, seat(game, who))
        assert part(summaries[0], "image/png")


def test_embedded_mode_writes_each_report_as_an_eml_file(game, settings, tmp_path):
    import email
    from email import policy

    settings.EMAIL_BACKEND = "campaigns.mailout.eml_backend.EmlFileBackend"
    settings.OUTBOX_DIR = tmp_path
    play_one(game)
    files = sorted(tmp_path.glob("*.eml"))
    assert len(files) == 3
    msgs = [email.message_from_bytes(f.read_bytes(), policy=policy.default) for f in files]
    assert sorted(m["To"] for m in msgs) == sorted(EMAILS.values())
    roots = {thread_root(game, seat(game, who)) for who in EMAILS}
    for m in msgs:
        assert m["References"] in roots and m["Reply-To"].startswith("orders+")
        Image.open(io.BytesIO(part(m, "image/png").get_content())).verify()


def test_a_game_name_cannot_inject_headers(game, smtp):
    from campaigns.models import Game

    Game.objects.filter(pk=game.pk).update(name="Evil\r\nBcc: victim@example.net")
    play_one(game)  # publishing is not broken by the name
    assert len(smtp.messages) == 3 and all(rcpt != ["victim@example.net"] for rcpt, _ in smtp.messages)
    msg = smtp.to(EMAILS["red"])[0]
    assert msg["Subject"] == "[Kriegsbrief] Evil Bcc: victim@example.net: turn 1 results" and msg["Bcc"] is None


def test_without_a_png_renderer_the_map_is_mailed_as_svg(game, smtp, monkeypatch):
    from campaigns.mailout import pictures

    # What a machine without libcairo2 (and libvips) gives: neither loaded when pictures.py was imported.
    monkeypatch.setattr(pictures, "cairosvg", None)
    monkeypatch.setattr(pictures, "pyvips", None)
    play_one(game)
    svg = part(smtp.to(EMAILS["blue"])[0], "image/svg+xml")
    assert svg.get_filename() == "map.svg" and svg.get_content().lstrip().startswith(b"<svg")


def test_a_report_shows_the_orders_as_the_umpire_amended_them(approval_game, smtp):
    from campaigns.turns import viewing
    from rules.civilwar import legal_operations
    from rules.core.protocol import Viewer

    game = approval_game
    ops = legal_operations(state_of(game).rules, "red")
    assert commands.submit_orders(game.pk, "red", ops[0], source="web").accepted
    assert commands.amend(game.pk, 1, {"red": ops[1]}, reason="red's typo, agreed by mail") == []
    commands.approve(game.pk, 1)
    red = plain(smtp.to(EMAILS["red"])[0])
    assert f"Orders as executed:\n[red]\n    (amended by the umpire) {ops[1]}" in red
    assert "red's typo" not in red  # the umpire's reason is the umpire's
    blue = plain(smtp.to(EMAILS["blue"])[0])
    assert "Orders as executed" not in blue and "red's typo" not in blue  # the publication says "amended", public
    state = state_of(game)
    seen = {
        who: [e.type for e in viewing.visible_events(game, state, Viewer("player", who))] for who in ("red", "blue")
    }
    assert seen["red"].count("orders.amended") == 1 and "orders.amended" not in seen["blue"]


def test_the_game_begins_with_one_mail_per_seat_that_roots_the_thread(people, smtp):
    from campaigns.models import OutboxMail
    from tests.conftest import new_civilwar_game

    game = new_civilwar_game(people)
    starts = {to[0]: m for to, m in smtp.messages if m["Subject"] == "[Kriegsbrief] Test game: the game begins"}
    assert sorted(starts) == sorted(EMAILS.values()) and len(smtp.messages) == 3
    for who, address in EMAILS.items():
        msg = starts[address]
        root = thread_root(game, seat(game, who))
        assert msg["Message-ID"] == root and msg["In-Reply-To"] is None and msg["References"] is None
        assert msg["Reply-To"] == reply_address(seat(game, who)) and msg["Auto-Submitted"] == "auto-generated"
        assert part(msg, "image/png") is not None
    red, blue, umpire = (plain(starts[EMAILS[w]]) for w in ("red", "blue", "umpire"))
    deadline = parse_datetime(state_of(game).turn.deadline).astimezone(zoneinfo.ZoneInfo("America/New_York"))
    assert f"Deadline: {deadline:%Y-%m-%d %H:%M}" in red and "reply to this message with your orders" in red
    assert "ABSENT UNTIL" in red and "Do not forward these messages" in red
    assert "Your side does not order this turn" in blue
    assert "You umpire this game" in umpire
    play_one(game)  # the first report threads under the start
    report = next(m for to, m in smtp.messages if to == [EMAILS["red"]] and "results" in m["Subject"])
    assert report["References"] == starts[EMAILS["red"]]["Message-ID"] == thread_root(game, seat(game, "red"))
    assert OutboxMail.objects.filter(game=game, kind="start").count() == 3
    assert len({m["Message-ID"] for m in starts.values()}) == 3  # every reader's start mail is a message of its own


def test_a_report_shows_each_sides_orders_once_indented_and_its_dice_only_in_the_footer(game, smtp):
    """Resubmissions are not news: the report gives the orders as executed once (issue 16)."""
    from rules.civilwar.legality import legal_operations

    options = legal_operations(state_of(game).rules, "red")
    for text in options[:5]:  # red changes its mind four times, then is ready
        assert commands.submit_orders(game.pk, "red", text, source="mail", ready=False).accepted
    assert commands.submit_orders(game.pk, "red", options[0], source="mail").accepted
    for who in ("red", "umpire"):
        body = plain(smtp.to(EMAILS[who])[0])
        report, footer = body.split("\n--\n")
        report = report.split("How to answer by mail")[0]  # the order help below quotes example orders
        assert report.count(options[0]) == 1 and all(o not in report for o in options[1:5])
        assert f"Orders as executed:\n[red]\n    {options[0]}\n" in report
        assert "commitment" not in report and "seed" not in report
        assert "Verification" in footer and "turn 2 dice commitment" in footer and "turn 1 seed" in footer
    html = part(smtp.to(EMAILS["red"])[0], "text/html").get_content()
    assert html.split("How to answer by mail")[0].count(options[0]) == 1 and "turn 2 dice commitment" in html


def test_counted_things_in_reports_are_singular_for_one():
    from rules import catalog

    lw, ks = catalog.get("littlewars"), catalog.get("kriegspiel")
    moved = lw.describe_event("littlewars.moved", {"figures": {"i1": [0, 0]}, "guns": {"g": [1, 1]}, "contacts": []})
    assert moved == "1 figure and 1 gun moved; 0 contacts."
    shots = lw.describe_event("littlewars.fired", {"shots": [{"gun": "red:gun1", "killed": ["blue:i1"]}]})
    assert shots == "Guns fired 1 shot (gun1): 1 figure killed."
    seen = ks.describe_event(
        "kriegspiel.sighted", {"side": "red", "turn": 2, "figures": ["i1"], "guns": ["g"], "boxes": ["b"]}
    )
    assert seen == "Red scouts report after turn 2: 1 enemy figure, 1 gun, 1 box in sight."

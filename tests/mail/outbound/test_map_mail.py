"""The map in the mail (issue 16): inline in the HTML part by Content-ID as well as attached, a
Kriegspiel report's picture cropped to the reader's own troops, and the Date header in the
reader's own zone. Read back with the email library from what the SMTP sink received."""

import io
import zoneinfo
from email.utils import parsedate_to_datetime

import pytest
from PIL import Image

from campaigns.mailout.mapmail import MAP_CID
from campaigns.models import Campaign
from campaigns.turns import commands, creation
from tests.support.games import play_one

pytestmark = pytest.mark.django_db(transaction=True)

EMAILS = {"umpire": "alice@example.org", "red": "bob@example.org", "blue": "carol@example.org"}
ZONES = {"umpire": "Europe/Berlin", "red": "America/New_York", "blue": "Asia/Tokyo"}


def tree(part):
    """The MIME structure as nested (content type, children or disposition)."""
    if part.is_multipart():
        return (part.get_content_type(), [tree(p) for p in part.get_payload()])
    return (part.get_content_type(), part.get_content_disposition())


def test_the_map_is_inline_in_the_html_once(game, smtp):
    play_one(game)
    msg = smtp.to(EMAILS["blue"])[0]
    assert tree(msg) == (
        "multipart/alternative",
        [("text/plain", None), ("multipart/related", [("text/html", None), ("image/png", "inline")])],
    )
    related = next(p for p in msg.walk() if p.get_content_type() == "multipart/related")
    html, inline = related.get_payload()
    assert f'src="cid:{MAP_CID}"' in html.get_content() and inline["Content-ID"] == f"<{MAP_CID}>"
    assert inline.get_filename() == "map.png"  # the map once (issue 30): no attached copy
    Image.open(io.BytesIO(inline.get_content())).verify()


def test_the_date_header_is_in_each_readers_zone(game, smtp):
    play_one(game)
    for who, zone in ZONES.items():
        msg = smtp.to(EMAILS[who])[0]
        sent = parsedate_to_datetime(msg["Date"])
        assert sent.utcoffset() == sent.astimezone(zoneinfo.ZoneInfo(zone)).utcoffset(), (who, msg["Date"])
    offsets = {parsedate_to_datetime(smtp.to(EMAILS[w])[0]["Date"]).utcoffset() for w in ZONES}
    assert len(offsets) == 3  # Berlin, New York and Tokyo differ all year round


def test_a_mail_without_html_keeps_the_map_attached(people, smtp):
    from tests.conftest import new_civilwar_game

    new_civilwar_game(people)  # the game's first mail: plain text and the map
    msg = smtp.to(EMAILS["red"])[0]
    assert tree(msg) == ("multipart/mixed", [("text/plain", None), ("image/png", "attachment")])
    assert (
        parsedate_to_datetime(msg["Date"]).utcoffset()
        == parsedate_to_datetime(msg["Date"]).astimezone(zoneinfo.ZoneInfo("America/New_York")).utcoffset()
    )


def test_a_kriegspiel_report_shows_the_readers_troops_not_the_whole_strip(people, smtp):
    game = creation.create_game(
        campaign=Campaign.objects.create(name="Kriegspiel"),
        name="KS map",
        ruleset="kriegspiel",
        seats=[
            {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
            {"role": "player", "side": "red", "user": people["bob"], "email": "bob@example.org"},
            {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"},
        ],
        operator=True,
    )
    for side in ("red", "blue"):  # deployment as the scenario placed them: turn 1 is published
        assert commands.submit_orders(game.pk, side, "hold", source="api").accepted
    reports = {to[0]: m for to, m in smtp.messages if "turn 1 results" in m["Subject"]}
    red = Image.open(
        io.BytesIO(next(p for p in reports[EMAILS["red"]].walk() if p.get_content_type() == "image/png").get_content())
    )
    umpire = Image.open(
        io.BytesIO(
            next(p for p in reports[EMAILS["umpire"]].walk() if p.get_content_type() == "image/png").get_content()
        )
    )
    # The table is three times deeper than wide: the umpire's picture is a tall strip, red's a
    # landscape picture of its own corner (its troops' box plus a margin, with rulers and legend).
    assert umpire.size[1] > 2.5 * umpire.size[0]
    assert red.size[1] < 1.3 * red.size[0]


def test_every_boundary_is_set_before_flattening_and_unique_per_message(game, smtp):
    """MapMail sets each multipart's boundary itself (the generator's collision scan over the base64
    maps was ~40 % of flattening): all differ, each occurs only on its own boundary lines (and its
    Content-Type parameter), and the message reads back whole."""
    play_one(game)
    msg = smtp.to(EMAILS["red"])[0]
    raw = msg.as_bytes()
    boundaries = [p.get_boundary() for p in msg.walk() if p.is_multipart()]
    assert len(boundaries) == 2 and len(set(boundaries)) == 2
    assert all(b.startswith("=_kb_") and len(b) == len("=_kb_") + 32 for b in boundaries)
    for b in boundaries:
        lines = [line.strip() for line in raw.splitlines() if b.encode() in line]
        assert {line for line in lines if b"boundary=" not in line} == {b"--" + b.encode(), b"--" + b.encode() + b"--"}
    assert len([p for p in msg.walk() if p.get_content_type() == "image/png"]) == 1
    other = smtp.to(EMAILS["blue"])[0]
    assert not set(boundaries) & {p.get_boundary() for p in other.walk() if p.is_multipart()}


@pytest.mark.parametrize(
    "body",
    [
        "Приказы исполнены.\nFrom the front: all quiet\n\n-- \nKriegsbrief\n",
        "CR only\rlines\r\nmixed\n\nand no ending",
        "a long line " * 200,
    ],
)
def test_the_line_generator_writes_the_stdlibs_bytes(body):
    from email.generator import BytesGenerator
    from io import BytesIO

    from campaigns.mailout.mapmail import MapMail

    png = bytes(range(256)) * 200  # 51 KB: base64 over ~700 lines
    mail = MapMail(
        "Донесение", body, "umpire@example.org", ["red@example.org"], inline_map=("map.png", png, "image/png")
    )
    mail.attach_alternative(f"<p>{body}</p>", "text/html")
    mail.attach("map.png", png, "image/png")
    mail.attach("orders.txt", body, "text/plain")
    msg = mail.message()
    for linesep in ("\r\n", "\n"):
        fp = BytesIO()
        BytesGenerator(fp, mangle_from_=False).flatten(msg, linesep=linesep)
        assert msg.as_bytes(linesep=linesep) == fp.getvalue()


def test_the_map_encoded_once_is_the_part_django_would_make():
    """MapMail encodes the map once for its inline and attached parts: each is byte for byte the
    part Django's own _create_mime_attachment makes (Encoders.encode_base64)."""
    from django.core.mail import EmailMessage

    from campaigns.mailout.mapmail import MapMail

    png = bytes(range(256)) * 431 + b"\x00"  # not a multiple of 57 bytes: a short last line
    mail = MapMail("s", "b", "umpire@example.org", ["red@example.org"], inline_map=("map.png", png, "image/png"))
    mail.attach_alternative("<p>b</p>", "text/html")
    mail.attach("map.png", png, "image/png")
    plain = EmailMessage("s", "b", "umpire@example.org", ["red@example.org"])
    expected = plain._create_attachment("map.png", png, "image/png").as_bytes()
    msg = mail.message()
    images = [p for p in msg.walk() if p.get_content_type() == "image/png"]
    attached = next(p for p in images if p.get_content_disposition() == "attachment")
    inline = next(p for p in images if p.get_content_disposition() == "inline")
    assert attached.as_bytes() == expected
    assert inline.get_payload() == attached.get_payload() and inline.get_payload(decode=True) == png

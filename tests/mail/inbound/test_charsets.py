"""Text that names no charset (issue 30, 2): Cyrillic orders in windows-1251, KOI8-R and CP866,
as an unlabelled .txt attachment (as Outlook attaches one) or an unlabelled text part, are read
as the player wrote them; the messages are real MIME built with the email package."""

from email import message_from_bytes
from email.message import EmailMessage
from email.policy import SMTP

import pytest

from campaigns.mailin import ingest, mime
from campaigns.mailin.mime import parse
from campaigns.mailin.models import InboundMessage
from campaigns.models import Event
from campaigns.turns import addresses
from tests.support.games import red_opening
from tests.support.mail import last_reply

ENCODINGS = ["cp1251", "koi8_r", "cp866"]


def russian_orders(game) -> str:
    city = red_opening(game).split()[1]
    return f"Добрый день!\nсформировать {city}\nГОТОВ\n\nС уважением,\nБорис\n"


def unlabelled(seat, text: str, encoding: str, *, attached: bool) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"Борис <{seat.email}>"
    msg["To"] = addresses.reply_address(seat)
    msg["Subject"] = "Re: turn report"
    msg["Message-ID"] = f"<charset-{encoding}-{attached}@client.example>"
    data = text.encode(encoding)
    if attached:
        msg.set_content("Приказы во вложении.\n", charset="utf-8")
        msg.add_attachment(data, maintype="text", subtype="plain", filename="orders.txt")
    else:
        msg.set_content(data, maintype="text", subtype="plain", cte="8bit")
    return msg.as_bytes(policy=SMTP)


def _no_charset_on_the_orders(raw: bytes, attached: bool) -> None:
    msg = parse(raw, max_parts=20)  # what mail-in reads
    parts = [p for p in message_from_bytes(raw).walk() if not p.is_multipart()]
    orders = parts[-1]
    assert orders.get_content_type() == "text/plain" and orders.get_content_charset() is None
    assert (msg.text_attachments != []) is attached


@pytest.mark.parametrize("attached", [True, False], ids=["attachment", "part"])
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_unlabelled_cyrillic_orders_are_read(game, encoding, attached):
    red = game.seats.get(side="red")
    text = russian_orders(game)
    raw = unlabelled(red, text, encoding, attached=attached)
    _no_charset_on_the_orders(raw, attached)
    parsed = parse(raw, max_parts=20)
    read = parsed.text_attachments[0][1] if attached else parsed.body
    assert read.replace("\r\n", "\n") == text
    row = ingest.ingest(raw, via="test")
    assert row.status == InboundMessage.Status.APPLIED, row.error
    assert Event.objects.filter(game=game, type="orders.submitted").exists()
    ack = last_reply(red.email).body
    assert "ORDERS ACCEPTED" in ack and "Добрый день!" in ack


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize(
    "text", ["ГОТОВ\n", "ЖДУ\n", "штурм C7 из R2_7\nесли атакован бой\n", "двигать foot1 к 24,18\n"]
)
def test_short_cyrillic_texts_are_told_apart(encoding, text):
    assert mime.guess_text(text.encode(encoding)) == text


@pytest.mark.parametrize("text", ["Grüße, move A1 to B2\n", "déplacer à gauche\n"])
def test_western_text_stays_western(text):
    assert mime.guess_text(text.encode("cp1252")) == text

"""Faithful samples of what real mail clients send (tests/mail/corpus/*.eml):
the orders and commands read from each, and quoted text never read."""

from email.parser import BytesHeaderParser
from email.utils import parseaddr
from pathlib import Path

import pytest

from campaigns.mailin import apply, ingest, mime
from campaigns.mailin.models import InboundMessage
from campaigns.turns import addresses
from rules.civilwar.orders import ORDER_WORDS
from tests.support.mail import last_reply

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
SAMPLE_TOKEN = b"5f1c0e9a7b3d42c68e1f0a2b3c4d5e6f"

# file: (order lines, commands, lines outside an ORDERS block, errors mentioning)
EXPECTED = {
    "gmail-top-posted.eml": (["assault C7 from R2_7", "if attacked at C12 retreat to R11_12"], [], 0, None),
    "outlook-top-posted.eml": (["move R12 to C2", "if attacked fight"], [], 0, None),
    "outlook-html-only.eml": (["breakthrough C3 along L1", "if attacked retreat"], [], 2, None),
    "apple-mail-bottom-posted.eml": (["terror C5"], ["READY"], 0, None),
    "thunderbird-cyrillic.eml": (
        ["# наступаем к реке", "assault C7 from R2_7", "if attacked at C12 retreat to R11_12"],
        [],
        4,
        None,
    ),
    "thunderbird-forwarded-koi8r.eml": (["pass"], ["WAIT"], 0, None),
    "thunderbird-html-only.eml": (["evacuate C5 to C6", "if attacked ask"], [], 0, None),
    "gmail-forwarded.eml": (["form C5", "if attacked at C5 fight"], [], 1, None),
    "gmail-txt-attachment.eml": (["move R12 to C2", "if attacked fight"], [], 1, None),
    "broken-mime.eml": (["form C5", "if attacked fight"], [], 0, "junk.bin"),
    "no-body.eml": ([], [], 0, None),
    # Greetings, sign-offs and quotes without '>' (issue 16): prose is listed as not read, never refused.
    "iphone-signoff.eml": (["move R12 to C2", "if attacked fight"], ["READY"], 3, None),
    "outlook-android-unmarked-quote.eml": (["evacuate C5 to C6", "if attacked at C5 fight"], [], 1, None),
    "yandex-ru-prose.eml": (["move R12 to C2", "if attacked fight"], ["READY"], 4, None),
    "mailru-ru-unmarked.eml": (["move R12 to C2"], ["WAIT"], 1, None),
    "outlook-ru-from-block.eml": (["assault C7 from R2_7", "if attacked at C12 retreat to R11_12"], [], 2, None),
    "outlook-ru-original-message.eml": (["terror C5"], ["READY"], 0, None),
    "gmail-ru-top-posted.eml": (["move R12 to C2"], ["READY"], 0, None),
    "apple-mail-ru-bottom-posted.eml": (["terror C5"], ["WAIT"], 1, None),
}
# Samples that cannot be read at all: refused with the reason, never "no orders found".
UNREADABLE = {"thunderbird-broken-boundary.eml": "boundary"}
# Lines that appear only in the quoted report or forwarded original.
QUOTED = ("form C5", "assault C1 from R12", "Test game, turn 3 results", "Deadline")


def as_red(name: str, red) -> bytes:
    """A sample as red's mail: red's reply address, and red's registered address as the sender's."""
    raw = (CORPUS / name).read_bytes()
    token = addresses.reply_address(red).split("+")[1].split("@")[0].encode()
    sender = parseaddr(mime.decode(BytesHeaderParser().parsebytes(raw)["From"]))[1].encode()
    return raw.replace(SAMPLE_TOKEN, token).replace(sender, red.email.encode())


def read(name: str):
    return apply.read_request(mime.parse((CORPUS / name).read_bytes(), max_parts=20), ORDER_WORDS)


def test_every_sample_is_listed():
    assert sorted(p.name for p in CORPUS.glob("*.eml")) == sorted([*EXPECTED, *UNREADABLE])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_orders_and_commands_as_read(name):
    lines, cmds, unread, error = EXPECTED[name]
    req = read(name)
    assert [line.strip() for line in req.orders.split("\n") if line.strip()] == lines
    assert [c for c, _ in req.commands] == cmds
    assert len(req.prose) == unread
    if error:
        assert any(error in e for e in req.errors)
    else:
        assert req.errors == []


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if n not in ("broken-mime.eml", "gmail-forwarded.eml")))
def test_quoted_text_is_never_read(name):
    req = read(name)
    for quoted in QUOTED:
        assert quoted not in req.orders


def test_cyrillic_subject_and_sender_decoded():
    msg = mime.parse((CORPUS / "thunderbird-cyrillic.eml").read_bytes(), max_parts=20)
    assert msg.first("Subject") == "Re: [Kriegsbrief] ход 3"
    assert "Борис" in msg.first("From")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_sample_goes_through_the_whole_pipeline(game, red, name):
    raw = as_red(name, red)
    row = ingest.ingest(raw, via="test")
    assert row.status == InboundMessage.Status.APPLIED, row.error
    ack = last_reply(red.email).body
    for line in EXPECTED[name][0]:
        assert line in ack
    if EXPECTED[name][2]:
        assert "Not read" in ack


@pytest.mark.parametrize("name", sorted(UNREADABLE))
def test_an_unreadable_sample_is_answered_could_not_be_read(game, red, name):
    raw = as_red(name, red)
    row = ingest.ingest(raw, via="test")
    assert row.status == InboundMessage.Status.REJECTED and UNREADABLE[name] in row.error
    reply = last_reply(red.email)
    assert "could not be read" in reply.body and "No orders" not in reply.body
    assert reply.subject == "Re: [Kriegsbrief] Test game: turn 3 results"


def test_every_example_of_the_order_language_survives_quote_stripping():
    from campaigns.mailin import quotes
    from rules.civilwar.orders import ORDERS_HELP

    examples = [line.strip().split("  ")[0] for line in ORDERS_HELP.splitlines() if line.startswith("  ")]
    examples = [e for e in examples if e and not e.startswith(("#", "..."))]
    assert len(examples) > 15
    assert quotes.new_text("\n".join(examples)).split("\n") == examples
    for example in examples:
        assert quotes.new_text(example) == example


def test_a_txt_attachment_whose_name_is_an_encoded_word_is_read():
    """Outlook and older Thunderbirds name attachments with RFC 2047 words (here "приказы.txt")."""
    import base64

    word = "=?utf-8?B?" + base64.b64encode("приказы.txt".encode()).decode() + "?="
    raw = (
        "From: Red <r@example.org>\r\nTo: x@example.org\r\nSubject: orders\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/mixed; boundary="b1"\r\n\r\n'
        "--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nREADY\r\n"
        f'--b1\r\nContent-Type: text/plain; charset=utf-8; name="{word}"\r\n'
        f'Content-Disposition: attachment; filename="{word}"\r\nContent-Transfer-Encoding: base64\r\n\r\n'
        + base64.b64encode(b"move R12 to C2\r\n").decode()
        + "\r\n--b1--\r\n"
    ).encode()
    msg = mime.parse(raw, max_parts=20)
    assert [name for name, _ in msg.text_attachments] == ["приказы.txt"] and msg.other_attachments == []
    req = apply.read_request(msg, ORDER_WORDS)
    assert req.orders.strip() == "move R12 to C2" and [c for c, _ in req.commands] == ["READY"]

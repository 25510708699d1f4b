"""Hypothesis: the ingestion function and the order parsers never crash,
never lose a message, and account for every line."""

import string
from email.message import EmailMessage
from email.policy import SMTP

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.mailin import apply, commands, ingest, quotes
from campaigns.mailin.htmltext import html_to_text
from campaigns.mailin.models import InboundMessage
from campaigns.turns import addresses, gamelog
from rules import catalog
from rules.civilwar.orders import ORDER_WORDS

pytestmark = pytest.mark.filterwarnings(
    "ignore:Do not use the .random. module:hypothesis.errors.HypothesisDeprecationWarning"
)
FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
order_words = st.sampled_from(
    [
        "form",
        "move",
        "to",
        "assault",
        "from",
        "breakthrough",
        "along",
        "terror",
        "evacuate",
        "pass",
        "if",
        "attacked",
        "at",
        "retreat",
        "fight",
        "ask",
        "C1",
        "C5",
        "R2_7",
        "L1",
        "READY",
        "WAIT",
        "STATUS",
        "ORDERS",
        "END",
        "MESSAGE",
        "umpire",
        ">",
        "--",
        "#",
        "ABSENT",
        "UNTIL",
        "2026-12-24",
        "Привет",
        "\u2028",
        "\x0b",
        ".",
    ]
)
order_text = st.lists(st.lists(order_words, max_size=6).map(" ".join), max_size=12).map("\n".join)
any_text = st.one_of(order_text, st.text(max_size=400))


@FUZZ
@given(raw=st.binary(max_size=3000))
def test_ingesting_random_bytes_never_fails(db, raw):
    row = ingest.ingest(raw, via="fuzz")
    assert row.status != InboundMessage.Status.FAILED, row.error
    assert InboundMessage.objects.filter(pk=row.pk).exists()


@st.composite
def messages(draw, to):
    msg = EmailMessage()
    msg["From"] = draw(st.sampled_from(["bob@example.org", "Bob <bob@example.org>", "x@evil.example", "bad"]))
    msg["To"] = to
    msg["Subject"] = " ".join(draw(st.text(string.printable + "ёжЖ", max_size=60)).split())
    for name in draw(st.lists(st.sampled_from(["Auto-Submitted", "Precedence", "Authentication-Results"]), max_size=2)):
        msg[name] = draw(st.sampled_from(["no", "bulk", "auto-replied", "mx.kriegsbrief.localhost; dmarc=fail"]))
    body = draw(any_text)
    charset = draw(st.sampled_from(["utf-8", "koi8-r", "iso-8859-1"]))
    try:
        body.encode(charset)
    except UnicodeEncodeError:
        charset = "utf-8"
    if draw(st.booleans()):
        msg.set_content(body, charset=charset, cte=draw(st.sampled_from(["quoted-printable", "base64"])))
    else:
        msg.set_content(f"<div>{body}</div>", subtype="html", charset="utf-8")
    if draw(st.booleans()):
        msg.add_attachment(draw(order_text), filename="orders.txt")
    return msg.as_bytes(policy=SMTP)


@FUZZ
@given(data=st.data())
def test_ingesting_random_mail_to_a_seat_never_fails(game, data):
    red = game.seats.get(side="red")
    raw = data.draw(messages(addresses.reply_address(red)))
    row = ingest.ingest(raw, via="fuzz")
    assert row.status != InboundMessage.Status.FAILED, row.error
    assert row.status in InboundMessage.Status.values


@FUZZ
@given(text=any_text)
def test_mail_readers_never_crash_and_keep_lines_in_order(text):
    new = quotes.new_text(text)
    req = commands.parse(new, order_words=ORDER_WORDS)
    for line in req.orders.split("\n"):
        assert line in new.split("\n") or not line.strip()


@FUZZ
@given(text=any_text)
def test_civilwar_order_parser_accounts_for_every_line(game, text):
    state = gamelog.load(game.pk).state
    rs = catalog.get("civilwar")
    parsed = rs.parse_orders(state.rules, "red", text, "orders")
    lines = text.splitlines()
    meaningful = {n for n, line in enumerate(lines, 1) if line.strip() and not line.strip().startswith("#")}
    seen = {o.line for o in parsed.orders} | {e.line for e in parsed.errors}
    assert seen == meaningful  # nothing a player wrote is silently dropped
    assert all(e.message for e in parsed.errors)
    for error in rs.validate(state.rules, "red", parsed.orders, "orders"):
        assert error.message


@FUZZ
@given(text=any_text)
def test_acknowledgement_lists_every_line(game, text):
    from campaigns.turns import commands

    text = commands.clean_text(text)
    orders, errors = commands.check_orders(gamelog.load(game.pk).state, "red", text)
    listing = apply.understood(text, orders, errors)
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            assert f"{n:>2}. {line.strip()}" in listing


@FUZZ
@given(
    html=st.lists(
        st.sampled_from(
            [
                "<div>",
                "</div>",
                "<blockquote>",
                "</blockquote>",
                "<br>",
                "<p>",
                "text",
                '<div class="gmail_quote">',
                '<div id="divRplyFwdMsg">',
                "<style>",
                "&nbsp;",
                "</style>",
                "<",
                ">",
                "&#0;",
                "\n",
            ]
        ),
        max_size=30,
    ).map("".join)
)
def test_html_converter_never_crashes_and_keeps_unquoted_text(html):
    text = html_to_text(html)
    assert isinstance(text, str)
    if html == "<div>text</div>":
        assert text == "text"


def test_deeply_nested_quotes_do_not_multiply_the_text():
    text = html_to_text("<blockquote>" * 20000 + "x<br>" * 20000)
    # Linear in the input: every line carries at most a five-level prefix (not 20,000).
    assert len(text) < 40000 * 12 and max(len(line) for line in text.splitlines()) <= len("> " * 5 + "x")

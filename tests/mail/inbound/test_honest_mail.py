"""Mail read the way people write it, and acknowledgements that tell the truth (issue 16):
prose and sign-offs beside orders, Russian command words, unmarked quotes, the reply brake,
WAIT with refused orders, a reused Message-ID, replays."""

import re

import pytest
from django.test import override_settings

from campaigns.mailin import commands, ingest, quotes
from campaigns.mailin.models import InboundMessage
from campaigns.models import Campaign, Event, OutboxMail
from campaigns.turns import addresses, creation, gamelog
from rules import catalog
from tests.support.games import orders_of, red_opening
from tests.support.mail import last_reply, mail, replies_to, seat_mail

S = InboundMessage.Status


def send(seat, body, **kw):
    row = ingest.ingest(seat_mail(seat, body, **kw), via="test")
    assert row.status == S.APPLIED, row.error
    return last_reply(seat.email).body


def ready_sides(game):
    return set(gamelog.load(game.pk).state.turn.ready)


@pytest.fixture
def little(people):
    """A Little Wars game: both sides order in the same turn, so one can be ready while the turn stays open."""
    return creation.create_game(
        campaign=Campaign.objects.create(name="c"),
        name="Little game",
        ruleset="littlewars",
        seats=[
            {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
            {"role": "player", "side": "red", "user": people["bob"], "email": "bob@example.org"},
            {"role": "player", "side": "blue", "user": people["carol"], "email": "carol@example.org"},
        ],
        operator=True,
    )


# --- 1. prose and orders ------------------------------------------------------


def test_greeting_and_sign_off_are_not_read_and_the_orders_are_applied(game, red):
    body = send(red, f"Hi umpire,\n\n{red_opening(game)}\n\nCheers,\nBob\n\nSent from my iPhone")
    assert "ORDERS ACCEPTED" in body
    assert orders_of(game, "red")["text"] == red_opening(game)
    assert "Not read" in body and "    Hi umpire," in body and "    Cheers," in body and "    Bob" in body


def test_a_line_with_an_order_word_must_parse_and_refuses_the_set(game, red):
    body = send(red, f"Hello,\n{red_opening(game)}\nmove R12 somewhere\nThanks")
    assert "ORDERS NOT ACCEPTED" in body and "move R12 somewhere" in body
    assert orders_of(game, "red") is None


def test_russian_letter_with_prose_and_command_words(little):
    red = little.seats.get(side="red")
    body = send(red, "Добрый день!\nМои приказы:\nhold\nГОТОВ\n\nС уважением,\nАлиса")
    assert "ORDERS ACCEPTED" in body and "Your side is marked ready" in body
    assert "    Добрый день!" in body and "    С уважением," in body and "    Алиса" in body
    assert ready_sides(little) == {"red"}
    assert "WAIT: your side is not ready" in send(red, "ЖДУ")
    assert ready_sides(little) == set()
    assert "MESSAGE to umpire: sent" in send(red, "СООБЩЕНИЕ посреднику\nМожно продлить срок?\nКОНЕЦ")
    assert "Можно продлить срок?" in OutboxMail.objects.get(to="alice@example.org", kind="mail-forward").body


@pytest.mark.parametrize("ruleset", catalog.names())
def test_every_example_of_each_order_language_begins_with_an_order_word(ruleset):
    rs = catalog.get(ruleset)
    # An example starts at the help's first indent; deeper lines continue the one above.
    examples = [
        line.strip().split("  ")[0]
        for line in rs.orders_help.splitlines()
        if line.startswith("  ") and not line.startswith("   ")
    ]
    examples = [e for e in examples if e and not e.startswith("...")]
    assert len(examples) >= 7  # the help's examples were found
    prose = [e for e in examples if not commands.is_order_line(e, rs.order_words)]
    assert prose == []


def test_every_command_word_is_read_in_both_languages():
    for name, words in commands.COMMAND_WORDS.items():
        for word in words:
            line = {
                "ABSENT": f"{word} {'ДО' if word != 'ABSENT' else 'UNTIL'} 2026-12-24",
                "MESSAGE": f"{word} umpire\nhi\nEND",
            }.get(name, word.capitalize())
            req = commands.parse(line, order_words=())
            assert [c for c, _ in req.commands] == ([name] if name != "MESSAGE" else []), line
            assert req.messages == ([("umpire", "hi")] if name == "MESSAGE" else []), line


# --- 2. unmarked quotes --------------------------------------------------------

REPORT = (
    "Test game, turn 3 results\n\nMAIL COMMANDS\n  your orders, one per line, or an explicit block:\n"
    "      ORDERS\n      form C5\n      END\n  MESSAGE umpire         the lines below, up to END, go to the umpire\n"
    "Quoted text and signatures are never read as orders.\n"
)


@pytest.mark.parametrize(
    "attribution",
    [
        "On Tue, Nov 17, 2026 at 9:00 AM Kriegsbrief <umpire@kriegsbrief.localhost> wrote:",
        "On Tue, Nov 17, 2026 at 9:00 AM Kriegsbrief <umpire@kriegsbrief.localhost>\nwrote:",
        "17.11.2026 10:00, Kriegsbrief пишет:",
        "17 нояб. 2026 г., в 10:00, Kriegsbrief <umpire@kriegsbrief.localhost> написал(а):",
        "вт, 17 нояб. 2026 г. в 10:00, Kriegsbrief <umpire@kriegsbrief.localhost>:",
        "-----Original Message-----",
        "-----Исходное сообщение-----",
        "From: Kriegsbrief <umpire@kriegsbrief.localhost>\nSent: Tuesday, November 17, 2026 9:00 AM\nTo: Bob",
        "От: Kriegsbrief <umpire@kriegsbrief.localhost>\nОтправлено: 17 ноября 2026 г. 9:00\nКому: Борис",
    ],
)
def test_an_attribution_ends_the_new_text_when_the_quote_is_unmarked(attribution):
    assert quotes.new_text(f"pass\nREADY\n\n{attribution}\n\n{REPORT}") == "pass\nREADY"


def test_a_marked_quote_below_an_attribution_lets_a_bottom_posted_reply_through():
    text = "On Tue, Nov 17, 2026, Kriegsbrief <umpire@kriegsbrief.localhost> wrote:\n> ORDERS\n> form C5\n> END\n\npass"
    assert quotes.new_text(text) == "pass"


def test_a_quoted_help_text_sends_nothing_to_the_umpire(game, red, umpire):
    body = send(
        red, f"{red_opening(game)}\n\nOn Tue, Nov 17, 2026 at 9:00 AM Kriegsbrief <x@y.example> wrote:\n\n{REPORT}"
    )
    assert "ORDERS ACCEPTED" in body and "MESSAGE" not in body
    assert orders_of(game, "red")["text"] == red_opening(game)
    assert not OutboxMail.objects.filter(to=umpire.email, kind="mail-forward").exists()


# --- 3. the reply brake ---------------------------------------------------------


@override_settings(MAIL_ACKS_PER_THREAD_HOUR=3, MAIL_REPLIES_PER_THREAD_HOUR=2)
def test_a_person_resubmitting_is_told_once_that_acknowledgements_pause_and_mail_is_applied(game, red):
    for i in range(6):
        row = ingest.ingest(seat_mail(red, f"pass\n# try {i}\nWAIT"), via="test")
        assert row.status == S.APPLIED
        assert orders_of(game, "red")["text"] == f"pass\n# try {i}"  # every one applied
    acks = replies_to(red.email)
    assert len(acks) == 4  # three acknowledgements, then one that says they pause
    assert "ACKNOWLEDGEMENTS PAUSED" in acks[3].body and "still read and applied" in acks[3].body
    assert "# try 3" in acks[3].body  # and it acknowledges its own message too
    assert not any("PAUSED" in a.body for a in acks[:3])


@override_settings(MAIL_ACKS_PER_THREAD_HOUR=50, MAIL_REPLIES_PER_THREAD_HOUR=2)
def test_mail_with_nothing_to_read_is_braked_as_a_loop_would_be(game, red):
    for i in range(5):
        ingest.ingest(seat_mail(red, f"I am out of the office until Monday ({i})."), via="test")
    for i in range(3):
        ingest.ingest(seat_mail(red, "STATUS", subject=f"Automatic reply: turn {i}"), via="test")
    assert len(replies_to(red.email)) == 2  # silent after the brake: a loop gets nothing to answer
    assert "STATUS of" in send(red, "STATUS")  # a person's mail is still acknowledged


# --- 4. WAIT with refused orders ---------------------------------------------------


def test_wait_with_refused_orders_tells_the_truth_about_readiness(little):
    red = little.seats.get(side="red")
    assert "Your side is marked ready" in send(red, "hold")
    assert ready_sides(little) == {"red"}
    body = send(red, "move nobody to nowhere\nWAIT")
    assert "ORDERS NOT ACCEPTED" in body
    assert ready_sides(little) == set() and "WAIT: your side is not ready" in body


def test_ready_with_refused_orders_says_the_side_was_not_marked_ready(little):
    red = little.seats.get(side="red")
    body = send(red, "move nobody to nowhere\nREADY")
    assert "READY: not done, because your orders were not accepted; your side is not marked ready" in body
    assert ready_sides(little) == set()


# --- 5. the same Message-ID with another body ---------------------------------------


def test_the_same_message_id_with_another_body_is_stored_and_answered(game, red):
    first = ingest.ingest(seat_mail(red, "STATUS", msgid="<same@client.example>"), via="test")
    again = ingest.ingest(seat_mail(red, "pass\nWAIT", msgid="<same@client.example>"), via="test")
    assert again.pk != first.pk and again.status == S.APPLIED
    assert bytes(InboundMessage.objects.get(pk=again.pk).raw).endswith(b"pass\r\nWAIT\r\n")
    assert orders_of(game, "red")["text"] == "pass"
    assert "ORDERS ACCEPTED" in last_reply(red.email).body and len(replies_to(red.email)) == 2
    # A redelivery of either, with other trace headers on top, is still the one message.
    redelivered = b"Received: from relay.example by mx.example; Tue, 17 Nov 2026 10:00:00 +0000\r\n" + bytes(
        InboundMessage.objects.get(pk=again.pk).raw
    )
    assert ingest.ingest(redelivered, via="test").pk == again.pk
    assert InboundMessage.objects.count() == 2


def test_a_batch_stores_a_reused_message_id_with_another_body_as_its_own_message(game, red):
    before = ingest.ingest(seat_mail(red, "STATUS", msgid="<batch-same@client.example>"), via="test")
    copy = bytes(InboundMessage.objects.get(pk=before.pk).raw)
    rows = ingest.ingest_many(
        [copy, seat_mail(red, "pass\nWAIT", msgid="<batch-same@client.example>"), copy], via="imap"
    )
    assert [r.pk for r in rows][0] == rows[2].pk == before.pk
    assert rows[1].pk != before.pk and rows[1].status == S.APPLIED
    assert orders_of(game, "red")["text"] == "pass" and InboundMessage.objects.count() == 2


def test_the_pipe_answers_a_reused_message_id_with_its_own_outcome(game, red, monkeypatch):
    import io
    import sys

    from django.core.management import call_command

    def pipe(raw):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
        out = io.StringIO()
        call_command("ingest_mail", stdout=out)
        return out.getvalue()

    first = pipe(seat_mail(red, "hello", msgid="<pipe@client.example>", headers={"Auto-Submitted": "auto-replied"}))
    assert "ignored" in first
    second = pipe(seat_mail(red, "pass\nWAIT", msgid="<pipe@client.example>"))
    assert "applied" in second and orders_of(game, "red")["text"] == "pass"


# --- 10. replays ------------------------------------------------------------------


def _dated(seat, body, date, msgid):
    raw = mail(to=addresses.reply_address(seat), frm=seat.email, body=body, msgid=msgid)
    return re.sub(rb"(?m)^Date: .*\r\n", f"Date: {date}\r\n".encode(), raw, count=1)


def test_a_replayed_message_under_a_new_message_id_is_held_for_the_umpire(game, red, umpire):
    old = _dated(red, "pass\nWAIT", "Tue, 17 Nov 2026 09:00:00 +0000", "<a@client.example>")
    assert ingest.ingest(old, via="test").status == S.APPLIED
    newer = _dated(red, f"{red_opening(game)}\nWAIT", "Tue, 17 Nov 2026 09:30:00 +0000", "<b@client.example>")
    assert ingest.ingest(newer, via="test").status == S.APPLIED
    # The first message, captured and sent again under a new Message-ID:
    replayed = ingest.ingest(old.replace(b"<a@client.example>", b"<c@client.example>"), via="test")
    assert replayed.status == S.HELD and "older than the newest message already applied" in replayed.error
    assert orders_of(game, "red")["text"] == red_opening(game)  # not overwritten
    assert "held for the umpire" in last_reply(red.email).body
    assert OutboxMail.objects.filter(to=umpire.email, kind="mail-forward").exists()
    # The latest one replayed: the same Date and text.
    again = ingest.ingest(newer.replace(b"<b@client.example>", b"<d@client.example>"), via="test")
    assert again.status == S.HELD and "same Date, same text" in again.error
    # The umpire may still release one.
    assert ingest.release(replayed).status == S.APPLIED
    assert orders_of(game, "red")["text"] == "pass"
    assert Event.objects.filter(game=game, type="orders.submitted").count() == 3


def test_an_order_language_that_names_the_unit_first_is_read_by_its_second_word():
    words = catalog.get("kingsofwar").order_words
    assert commands.is_order_line("r2 advance 4 pivot left 45", words)
    assert commands.is_order_line("Knights-1 counter-charge b3", words)
    assert not commands.is_order_line("Cheers, Bob", words)
    assert not commands.is_order_line("advance", words)  # the unit is missing: prose, listed as not read

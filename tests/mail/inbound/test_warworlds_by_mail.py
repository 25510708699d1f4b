"""A War of the Worlds game played to its scored end only by mail.

Each player reads nothing but the mail their seat receives over real SMTP (aiosmtpd): the game's
first mail, then each mail round's report. A scripted player orders from its own view and answers
the Reply-To of its latest mail, quoting it below as a mail client would; every answer goes in as a
real MIME message through the ingestion function. The town assault has blue's pickets (B2) hidden:
blue places them by mail in the deployment round before turn 1 (rules version 3, red not asked), and
red's mail must not name them, on the page or on the map, until a report tells red they are revealed.
"""

import io

import pytest
from django.utils.html import escape
from PIL import Image

from campaigns.mailin import ingest
from campaigns.mailin.models import InboundMessage
from campaigns.models import Event, OutboxMail
from campaigns.turns import gamelog, viewing
from rules.warworlds.orders import ORDERS_HELP
from rules.warworlds.testing import bot_orders, state_from_view
from tests.support.mail import mail, part, plain
from tests.support.playthrough import check_scored_end, new_game

pytestmark = pytest.mark.django_db(transaction=True)

EMAILS = {"umpire": "alice@example.org", "red": "bob@example.org", "blue": "carol@example.org"}
HIDDEN = "B2"  # blue's pickets in the town assault (WW-61 #7)


def answer(msg, seat, text: str) -> bytes:
    """The player's reply to ``msg``: orders on top, a signature, the mail quoted below."""
    quoted = "\n".join("> " + line for line in plain(msg).splitlines())
    return mail(
        to=msg["Reply-To"],
        frm=f"Player <{seat.email}>",
        subject=f"Re: {msg['Subject']}",
        headers={"In-Reply-To": msg["Message-ID"]},
        body=f"{text}\n\n-- \nsent from a test\n\nOn a day, Kriegsbrief wrote:\n{quoted}\n",
    )


def ours(msgs) -> list:
    """The game's own mail (its first mail and reports), not the acknowledgements of orders."""
    return [m for m in msgs if str(m["Subject"]).startswith("[Kriegsbrief]")]


def orders_from_own_view(game, seat) -> str:
    state = gamelog.load(game.pk).state
    board = viewing.game_view(game, state, viewing.viewer_of_seat(seat))["board"]
    return bot_orders(state_from_view(board), seat.side)


def check_start_mail(msg, player: bool) -> None:
    body = plain(msg)
    assert "in a game of War of the Worlds" in body
    assert ("move R1 to 0507 run" in body) == player  # the order language, for those who order
    png = part(msg, "image/png")
    assert png.get_filename() == "map.png"
    image = Image.open(io.BytesIO(png.get_content()))
    assert image.format == "PNG" and min(image.size) > 100


def mail_texts_in_order(game, address: str) -> list[str]:
    """Every message to ``address`` as queued: its text, HTML and the map it carries, without the
    order language (the same for everyone, and its examples name a B2)."""
    rows = OutboxMail.objects.filter(game=game, to=address).order_by("pk")
    return [
        f"{r.subject}\n{r.body}\n{r.html}\n{r.svg}".replace(ORDERS_HELP, "").replace(escape(ORDERS_HELP), "")
        for r in rows
    ]


def check_red_never_told_of_the_pickets_until_revealed(game) -> bool:
    revealed = False
    for text in mail_texts_in_order(game, EMAILS["red"]):
        revealed = revealed or f"{HIDDEN} is revealed" in text
        assert revealed or HIDDEN not in text, text
    return revealed


def test_a_town_assault_played_to_its_end_only_by_mail(people, smtp):
    game = new_game(people, "warworlds", "town_assault")
    seats = {s.side: s for s in game.seats.filter(role="player")}
    for who, address in EMAILS.items():
        [start] = smtp.to(address)
        check_start_mail(start, player=who != "umpire")
    # the deployment round: B2 stands nowhere yet, on no map; blue alone is asked for orders
    assert f"{HIDDEN} inf" not in smtp_map_of(game, EMAILS["blue"]) and HIDDEN not in smtp_map_of(game, EMAILS["red"])
    assert "Your side does not order this turn" in plain(smtp.to(EMAILS["red"])[0])
    assert "reply to this message with your orders" in plain(smtp.to(EMAILS["blue"])[0])
    sent = 0
    for _ in range(40):
        state = gamelog.load(game.pk).state
        if state.status != "active":
            break
        number = state.turn.number
        for side in state.turn.sides:
            seat = seats[side]
            latest = ours(smtp.to(seat.email))[-1]  # the game's first mail or the last report
            row = ingest.ingest(answer(latest, seat, orders_from_own_view(game, seat)), via="test")
            assert row.status == InboundMessage.Status.APPLIED, (row.status, row.error)
            sent += 1
        assert gamelog.load(game.pk).state.turn.number > number or gamelog.load(game.pk).state.status != "active", (
            f"round {number} was not adjudicated"
        )
    state = gamelog.load(game.pk).state
    check_scored_end(game, people, viewing.game_view(game, state, viewing.viewer_of_seat(seats["red"]))["turn"])
    submitted = Event.objects.filter(game=game, type="orders.submitted")
    assert submitted.count() == sent and {e.payload["source"] for e in submitted} == {"mail"}
    assert all("Kriegsbrief wrote" not in e.payload["text"] for e in submitted)  # quotes never read
    deployed = submitted.order_by("pk").first().payload  # blue's deployment, by mail, before turn 1
    assert deployed["side"] == "blue" and deployed["text"].startswith(f"deploy {HIDDEN} at "), deployed
    rounds = state.turn.number - 1 if state.turn.status == "open" else state.turn.number
    for address in EMAILS.values():
        msgs = smtp.to(address)
        reports = [m for m in ours(msgs) if "results" in str(m["Subject"])]
        assert len(reports) == rounds and all(part(m, "image/png").get_filename() == "map.png" for m in reports)
        assert "game over" in str(ours(msgs)[-1]["Subject"]), address
    red_reports = [plain(m) for m in ours(smtp.to(EMAILS["red"])) if "results" in str(m["Subject"])]
    # each report lists the orders open to red next, from red's own view (the game's last one none)
    assert "Orders open to you now:\n  move R" in red_reports[0]  # after the deployment, turn 1's movement
    assert "Orders open to you now:\n  move R" in red_reports[3] and "Orders open to you" not in red_reports[-1]
    assert not any("Orders open to you" in plain(m) for m in smtp.to(EMAILS["umpire"]))
    revealed = Event.objects.filter(game=game, type="warworlds.revealed", payload__unit=HIDDEN).exists()
    assert check_red_never_told_of_the_pickets_until_revealed(game) == revealed
    assert any(HIDDEN in text for text in mail_texts_in_order(game, EMAILS["blue"])[1:])  # blue's own reports
    blue_deployed = [m for m in ours(smtp.to(EMAILS["blue"])) if "results" in str(m["Subject"])][0]
    assert f"Blue deploys in hiding: {HIDDEN} at " in plain(blue_deployed)  # where it went: blue's alone
    assert f"{HIDDEN} inf" in report_map_of(game, EMAILS["blue"], 0)
    assert HIDDEN not in report_map_of(game, EMAILS["red"], 0) and "deploys in hiding" not in red_reports[0]


def smtp_map_of(game, address: str) -> str:
    return OutboxMail.objects.filter(game=game, to=address, kind="start").get().svg


def report_map_of(game, address: str, index: int) -> str:
    """The map of the ``index``-th report to ``address`` (0: the deployment round's)."""
    return OutboxMail.objects.filter(game=game, to=address, kind="report").order_by("pk")[index].svg

"""Mail in each seat's language, over real SMTP and parsed back as MIME: the turn report, the
reminder, the invitation and the acknowledgement of orders by mail (Russian order words, in
UTF-8, KOI8-R and windows-1251); English readers' mail unchanged."""

from datetime import timedelta

import pytest

from campaigns.i18n import render
from campaigns.mailin import ingest
from campaigns.mailout.commands_help import COMMANDS_HELP
from campaigns.models import Profile
from campaigns.turns import deadlines
from tests.support.games import play_one, red_opening
from tests.support.mail import part, plain, seat_mail
from tests.turns.test_invitations import create

from .test_reminders import clock

pytestmark = pytest.mark.django_db(transaction=True)


def speaks(user, language: str) -> None:
    Profile.objects.filter(user=user).update(language=language)


def test_each_seat_reads_its_turn_report_in_its_own_language(people, game, smtp):
    speaks(people["bob"], "ru")  # red reads Russian, blue and the umpire English
    play_one(game)
    [ru] = smtp.to("bob@example.org")
    # An RFC 2047 encoded header; Python folds the long encoded word onto a continuation line.
    assert ru["Subject"].strip() == "[Kriegsbrief] Test game: итоги хода 1" and "=?utf-8?" in ru.as_string()
    body = plain(ru)
    assert "Что произошло:" in body and "Срок:" in body and "Kriegsbrief. Это автоматическая сводка." in body
    assert "Красные сформировали отряд в" in body
    assert "Что произошло" in part(ru, "text/html").get_content()
    [en] = smtp.to("carol@example.org")
    assert en["Subject"] == "[Kriegsbrief] Test game: turn 1 results"
    assert "What happened:" in plain(en) and "Red formed a unit in" in plain(en)
    # (the commands' help every report carries names the Russian command words too)
    english = plain(en).replace("\r\n", "\n").replace(render(COMMANDS_HELP), "").replace("Гражданская война", "")
    assert not any("а" <= c <= "я" for c in english)


def test_a_russian_player_is_reminded_in_russian(people, game, smtp):
    speaks(people["bob"], "ru")
    _, deadline = clock(game)
    deadlines.sweep(deadline - timedelta(hours=23, minutes=59))
    [reminder] = smtp.to("bob@example.org")
    assert reminder["Subject"].strip() == "[Kriegsbrief] Test game: приказы на ход 1 нужны через 23 ч 59 мин"
    body = plain(reminder)
    assert "От стороны красные ещё нет приказов на ход 1." in body and "Срок:" in body
    assert "Ход 1: красные проводят одну операцию." in body  # the rule set's prompt, kept with its msgid


def test_an_invitation_is_written_in_the_invitees_language_else_the_inviters(client, people, smtp):
    speaks(people["bob"], "ru")  # bob chose Russian
    speaks(people["alice"], "ru")  # carol chose nothing: she gets alice's, the inviter's
    create(client, people["alice"], "Invited", umpire="alice", player_red="bob", player_blue="carol")
    for address in ("bob@example.org", "carol@example.org"):
        [invite] = smtp.to(address)
        assert invite["Subject"].strip() == "[Kriegsbrief] Вас приглашают в партию Invited"
        text = plain(invite)
        assert "alice приглашает вас в партию Invited" in text and "Приглашение действует до" in text
    speaks(people["alice"], "")
    create(client, people["alice"], "Invited too", umpire="alice", player_red="dave", player_blue="carol")
    [invite] = smtp.to("dave@example.org")
    assert "alice invites you to Invited too" in plain(invite)


@pytest.mark.parametrize("charset", ["utf-8", "koi8-r", "windows-1251"])
def test_russian_orders_by_mail_are_acknowledged_in_russian(people, game, smtp, charset):
    speaks(people["bob"], "ru")
    red = game.seats.get(side="red")
    city = red_opening(game).split()[1]
    row = ingest.ingest(
        seat_mail(red, f"Добрый день!\nсформировать {city}\nГОТОВ\nС уважением, Боб", charset=charset), via="test"
    )
    assert row.status == "applied", row.error
    [ack] = [m for m in smtp.to("bob@example.org") if m["Subject"].startswith("Re:")]
    body = plain(ack)
    assert "прочитано так" in body and "ПРИКАЗЫ ПРИНЯТЫ" in body and f"сформировать {city}  ->  form {city}" in body
    assert "Не прочитано" in body and "Добрый день!" in body  # the greeting is listed as not read


def test_a_refused_russian_order_is_explained_in_russian_and_in_english_to_an_english_reader(people, game, smtp):
    red = game.seats.get(side="red")
    speaks(people["bob"], "ru")
    ingest.ingest(seat_mail(red, "штурм C99 из R1"), via="test")
    body = plain([m for m in smtp.to("bob@example.org") if m["Subject"].startswith("Re:")][-1])
    assert "ПРИКАЗЫ НЕ ПРИНЯТЫ" in body and "ОШИБКА: неизвестный пункт C99" in body
    speaks(people["bob"], "")
    ingest.ingest(seat_mail(red, "штурм C98 из R1"), via="test")
    body = plain([m for m in smtp.to("bob@example.org") if m["Subject"].startswith("Re:")][-1])
    assert "ORDERS NOT ACCEPTED" in body and "ERROR: unknown point C98" in body

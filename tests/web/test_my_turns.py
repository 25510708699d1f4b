"""My turns and my calendar of deadlines (issue 28, point 5): every game where I hold a seat, grouped by
campaign, with what waits on me and the deadline in my time zone, nearest first; the same deadlines as
an iCalendar feed at a secret address that renewing replaces, carrying nothing of any side's orders."""

import re
import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from campaigns.models import CalendarFeed, Campaign, Profile
from campaigns.turns import agenda, commands, creation, deadlines
from tests.support.english import english, visible
from tests.support.games import legal_op, state_of

pytestmark = pytest.mark.django_db(transaction=True)


def civilwar(people, campaign: str, name: str, red: str, blue: str, **settings):
    """A Civil War game (red orders first) in a campaign of its own name; alice umpires."""
    return creation.create_game(
        campaign=Campaign.objects.get_or_create(name=campaign)[0],
        name=name,
        ruleset="civilwar",
        settings=settings,
        seats=[
            {"role": "umpire", "user": people["alice"], "email": "alice@example.org"},
            {"role": "player", "side": "red", "user": people[red], "email": f"{red}@example.org"},
            {"role": "player", "side": "blue", "user": people[blue], "email": f"{blue}@example.org"},
        ],
        operator=True,
    )


def deadline_in(game, hours: float) -> datetime:
    moment = (timezone.now() + timedelta(hours=hours)).replace(second=0, microsecond=0)
    return deadlines.set_deadline(game.pk, game.turn_number or 1, moment)


@pytest.fixture
def two_games(people):
    """Bob plays red in one campaign (his orders are due) and blue in another (red's turn: he waits)."""
    spring = civilwar(people, "Spring campaign", "Shiloh", red="bob", blue="carol")
    autumn = civilwar(people, "Autumn campaign", "Perryville", red="carol", blue="bob")
    deadline_in(spring, 30)
    deadline_in(autumn, 6)
    return spring, autumn


def rows_of(text: str) -> list[str]:
    return re.findall(r'<tr class="agenda-row">(.*?)</tr>', text, re.S)


def test_a_player_sees_both_games_by_campaign_nearest_deadline_first(client, people, two_games):
    spring, _ = two_games
    client.force_login(people["bob"])
    response = client.get(reverse("my_turns"))
    assert response.status_code == 200
    text = response.content.decode()
    assert "{{" not in text and "{%" not in text
    # grouped by campaign, the campaign with the nearest deadline (Perryville's, in 6 hours) first
    assert text.index("Autumn campaign") < text.index("Perryville") < text.index("Spring campaign")
    assert text.index("Spring campaign") < text.index("Shiloh")
    perryville, shiloh = rows_of(text)
    assert "Perryville" in perryville and "waiting for the orders of red" in perryville
    assert 'data-wait="' not in perryville  # nothing waits on bob there
    assert "Shiloh" in shiloh and 'data-wait="orders"' in shiloh and "your orders are awaited" in shiloh
    # the deadline in bob's own zone, as the game page shows it
    spring.refresh_from_db()
    shown = spring.deadline_at.astimezone(zoneinfo.ZoneInfo("America/New_York"))
    assert shown.strftime("%Y-%m-%d %H:%M") in shiloh and "(America/New_York)" in shiloh
    assert "umpire page" not in text
    # dave holds no seat: an empty page, nothing of theirs
    client.force_login(people["dave"])
    text = client.get(reverse("my_turns")).content.decode()
    assert "Shiloh" not in text and "You hold no seat in any game yet." in text


def test_orders_sent_then_ready_change_what_waits(client, people, two_games):
    spring, _ = two_games
    commands.submit_orders(spring.pk, "red", legal_op(spring), source="web", ready=False)
    client.force_login(people["bob"])
    (_, shiloh) = rows_of(client.get(reverse("my_turns")).content.decode())
    assert 'data-wait="not_ready"' in shiloh and "orders sent; not marked ready" in shiloh
    (item,) = [i for i in agenda.items(people["bob"]) if i.game.pk == spring.pk]
    assert [w.kind for w in item.waits] == ["not_ready"] and item.to_do
    # carol's view of the same game says nothing of red's orders: it waits on red, that is all
    (carols,) = [i for i in agenda.items(people["carol"]) if i.game.pk == spring.pk]
    assert carols.waits == [] and carols.others_to_order == ["red"]


def test_the_umpire_sees_results_awaiting_approval(client, people):
    game = civilwar(people, "Summer campaign", "Gettysburg", red="bob", blue="carol", require_approval=True)
    civilwar(people, "Winter campaign", "Fredericksburg", red="bob", blue="carol")
    commands.submit_orders(game.pk, "red", legal_op(game), source="web", ready=True)
    assert state_of(game).turn.status == "adjudicated"
    client.force_login(people["alice"])
    text = client.get(reverse("my_turns")).content.decode()
    rows = rows_of(text)
    (gettysburg,) = [r for r in rows if "Gettysburg" in r]
    (fredericksburg,) = [r for r in rows if "Fredericksburg" in r]
    assert 'data-wait="approve"' in gettysburg and "results await your approval" in gettysburg
    assert f'href="{reverse("umpire", args=[game.pk])}"' in gettysburg
    assert 'data-wait="' not in fredericksburg and "waiting for the orders of red" in fredericksburg
    # the open turn's deadline comes first, the turn awaiting approval has none
    assert text.index("Fredericksburg") < text.index("Gettysburg")


def test_the_umpire_sees_a_battle_awaiting_their_choice(client, people, django_capture_on_commit_callbacks):
    from tests.battles.test_linked_battles import open_battles, play_strategic_until, strategic_game

    game = strategic_game(people, battle_ruleset="ask")
    play_strategic_until(game, django_capture_on_commit_callbacks, lambda s: open_battles(s))
    client.force_login(people["alice"])
    text = client.get(reverse("my_turns")).content.decode()
    assert 'data-wait="battle_choice"' in text and "awaits your choice" in text
    client.force_login(people["bob"])
    assert 'data-wait="battle_choice"' not in client.get(reverse("my_turns")).content.decode()


def test_a_russian_player_reads_the_page_in_russian(client, people, two_games):
    Profile.objects.filter(user=people["bob"]).update(language="ru")
    client.force_login(people["bob"])
    text = client.get(reverse("my_turns")).content.decode()
    assert '<html lang="ru">' in text
    assert "Мои ходы" in text and "ждём ваших приказов" in text and "Срок" in text and "Для вас" in text
    assert "ждём приказов: красные" in text
    names = ("Spring campaign", "Autumn campaign", "Shiloh", "Perryville")
    assert english(visible(text), names) == []
    for word in ("My turns", "your orders are awaited", "waiting for the orders of", "Deadline"):
        assert word not in text, word
    # the calendar's card on the settings page, before and after its address is made
    assert english(visible(client.get(reverse("my_settings")).content.decode())) == []
    make_feed(client, people["bob"])
    text = client.get(reverse("my_settings")).content.decode()
    assert "Календарь ваших сроков" in text and english(visible(text)) == []


# --- the calendar ---------------------------------------------------------------------------------


def make_feed(client, user) -> str:
    client.force_login(user)
    response = client.post(reverse("calendar_address"), {"action": "renew"})
    assert response.status_code == 302 and response.url.endswith("#calendar")
    return CalendarFeed.objects.get(user=user).token


def events_of(body: bytes) -> list:
    return [c for c in Calendar.from_ical(body).walk() if c.name == "VEVENT"]


def test_the_feed_holds_my_deadlines_and_renewing_it_invalidates_the_old_address(client, people, two_games):
    spring, autumn = two_games
    token = make_feed(client, people["bob"])
    settings_page = client.get(reverse("my_settings")).content.decode()
    assert reverse("calendar_feed", args=[token]) in settings_page
    client.logout()  # a calendar program has no session: the token alone opens the feed
    response = client.get(reverse("calendar_feed", args=[token]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    assert client.head(reverse("calendar_feed", args=[token])).status_code == 200
    assert client.post(reverse("calendar_feed", args=[token])).status_code == 405
    assert "no-store" in response["Cache-Control"]
    (event,) = events_of(response.content)  # Perryville waits on red (carol): not bob's to order
    spring.refresh_from_db()
    assert event.decoded("dtstart") == spring.deadline_at.astimezone(UTC)
    assert event["dtstart"].to_ical().decode().endswith("Z")  # in UTC
    assert "Shiloh" in str(event["summary"]) and "1" in str(event["summary"])
    assert "Spring campaign" in str(event["description"])
    assert str(event["url"]).endswith(reverse("game", args=[spring.pk]))
    uid = str(event["uid"])
    # stable per game and turn: the same after the deadline moves
    deadline_in(spring, 40)
    (moved,) = events_of(client.get(reverse("calendar_feed", args=[token])).content)
    assert str(moved["uid"]) == uid and moved.decoded("dtstart") > event.decoded("dtstart")
    # renewed: the old address is gone, the new one works
    new = make_feed(client, people["bob"])
    assert new != token
    client.logout()
    assert client.get(reverse("calendar_feed", args=[token])).status_code == 404
    assert client.get(reverse("calendar_feed", args=[new])).status_code == 200
    assert client.get(reverse("calendar_feed", args=["no-such-token"])).status_code == 404
    # stopped: nothing answers
    client.force_login(people["bob"])
    client.post(reverse("calendar_address"), {"action": "stop"})
    client.logout()
    assert client.get(reverse("calendar_feed", args=[new])).status_code == 404


def test_another_users_token_gives_nothing_of_mine(client, people, two_games):
    spring, autumn = two_games
    bobs = make_feed(client, people["bob"])
    daves = make_feed(client, people["dave"])
    client.logout()
    assert events_of(client.get(reverse("calendar_feed", args=[daves])).content) == []
    carols = make_feed(client, people["carol"])
    client.logout()
    text = client.get(reverse("calendar_feed", args=[carols])).content.decode()
    (event,) = events_of(text.encode())  # Perryville, where carol's red orders; not Shiloh, where red is bob's
    assert "Perryville" in str(event["summary"]) and "Shiloh" not in text
    assert bobs not in text


def test_the_feed_carries_no_sides_orders_state(client, people, two_games):
    spring, autumn = two_games
    order = legal_op(spring)
    commands.submit_orders(spring.pk, "red", order, source="web", ready=False)
    for name in ("bob", "carol", "alice"):
        token = make_feed(client, people[name])
        client.logout()
        text = client.get(reverse("calendar_feed", args=[token])).content.decode()
        unfolded = text.replace("\r\n ", "")
        assert order not in unfolded, name
        for word in ("ready", "orders sent", "awaited"):
            assert word not in unfolded.lower(), (name, word)
    # the umpire's calendar: one deadline per game they umpire, named as such
    alices = events_of(text.encode())
    assert {str(e["summary"]) for e in alices} == {"Shiloh: deadline of turn 1", "Perryville: deadline of turn 1"}
    assert all("You umpire this game." in str(e["description"]) for e in alices)


def test_a_russian_users_feed_is_in_russian(client, people, two_games):
    Profile.objects.filter(user=people["bob"]).update(language="ru")
    token = make_feed(client, people["bob"])
    client.logout()
    (event,) = events_of(client.get(reverse("calendar_feed", args=[token])).content)
    assert "Кампания: Spring campaign" in str(event["description"]) and "красные" in str(event["description"])

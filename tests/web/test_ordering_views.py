"""The htmx views behind orders by clicks and the live check of the orders box: the line comes
from the rule set, an illegal target says why, and nothing is stored or shown to another side."""

from django.urls import reverse

from campaigns.models import Event
from tests.support.games import legal_op, state_of
from tests.support.playthrough import new_game


def compose(client, game, **values):
    return client.post(reverse("order_compose", args=[game.pk]), values, HTTP_HX_REQUEST="true")


def check(client, game, text):
    return client.post(reverse("order_check", args=[game.pk]), {"text": text}, HTTP_HX_REQUEST="true")


def test_a_civil_war_place_lights_its_operations_and_a_click_makes_the_line(client, people, game):
    op = legal_op(game)  # "form C2" on a new game
    place = op.split()[1]
    client.force_login(people["bob"])
    chosen = compose(client, game, select=place, map="graph").content.decode()
    assert f'data-targets="{place}"' in chosen
    made = compose(client, game, select=place, node=place, map="graph").content.decode()
    assert f'data-line="{op}"' in made
    refused = compose(client, game, select=place, node="C99", map="graph").content.decode()
    assert "data-line" not in refused and f"no operation open to you now takes {place} to C99" in refused
    before = Event.objects.filter(game=game).count()
    assert "data-line" not in compose(client, game, select="R1", map="graph").content.decode()
    assert Event.objects.filter(game=game).count() == before  # nothing is stored


def test_a_second_operation_is_added_but_says_why_it_fails(client, people, game):
    client.force_login(people["bob"])
    first, second = legal_op(game, index=0), legal_op(game, index=1)
    place = second.split()[1]
    made = compose(client, game, select=place, node=place, text=f"\r\n\r\n{first}\r\n", map="graph").content.decode()
    assert "data-line" not in made and f"Not added: <code>{second}</code>" in made  # one operation a turn (CW)


def test_compose_is_for_the_side_to_order_only(client, people, game):
    client.force_login(people["carol"])  # blue: not its turn
    assert compose(client, game, select="C1", node="C1").status_code == 400
    client.force_login(people["alice"])  # the umpire orders on the umpire's page
    assert compose(client, game, select="C1", node="C1").status_code == 400


def test_a_table_click_becomes_a_line_in_inches_and_a_gun_fires_only_in_battle(client, people):
    game = new_game(people, "littlewars", "skirmish")
    client.force_login(people["bob"])
    made = compose(client, game, select="foot1", x="12.34", y="3", map="table").content.decode()
    assert 'data-line="deploy foot1 at 12.3,3"' in made
    assert "only guns fire" in compose(client, game, select="foot1", x="1", y="1", verb="fire").content.decode()
    assert "not one of your troops" in compose(client, game, select="nobody", x="1", y="1").content.decode()
    far = compose(client, game, select="foot1", x="24", y="30", map="table").content.decode()
    assert "Not added" in far  # deploying in the enemy's half: the rule set's own check says why


def test_the_orders_box_is_checked_line_by_line(client, people, game):
    client.force_login(people["bob"])
    good = check(client, game, legal_op(game)).content.decode()
    assert 'data-check="ok"' in good and "1 line reads as a valid order" in good
    bad = check(client, game, legal_op(game) + "\nmarch C1 to nowhere").content.decode()
    assert 'data-check="bad"' in bad and "line 2" in bad
    assert 'data-check="empty"' in check(client, game, "").content.decode()
    assert state_of(game).turn.orders == {}  # checking sends nothing


def test_the_ready_box_is_unticked_and_asks_when_it_closes_the_turn(client, people, game):
    client.force_login(people["bob"])
    text = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'name="ready"' in text and 'name="ready" id="id_ready" checked' not in text
    # Civil War: red alone orders this turn, so its ready closes the turn: the page asks first
    assert 'data-confirm-when="#id_ready"' in text

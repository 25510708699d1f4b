"""The admin is a window, not a door (issue 29): a seat's holder, address or role cannot be edited
there (it bypassed the log and left the old reply address valid; it could seat the umpire as a
player); snapshots are read-only and their state (every secret, the sealed seed) is not shown; a
turn's sealed dice seed is not shown before the turn is published."""

import pytest

from campaigns.models import Event, Seat, Snapshot
from tests.support.games import legal_red_orders

pytestmark = pytest.mark.django_db


def sealed_seed(game, turn):
    return Event.objects.get(game=game, type="seed.sealed", payload__turn=turn).payload["seed"]


def test_seats_are_shown_not_edited(admin_client, game, people):
    page = admin_client.get(f"/admin/campaigns/game/{game.pk}/change/").content.decode()
    assert "bob@example.org" in page  # the seats are there to read
    assert 'name="seats-0-user"' not in page and 'name="seats-0-email"' not in page
    red = Seat.objects.get(game=game, side="red")
    before = (red.user_id, red.email, red.role, red.version)
    form = {
        "name": game.name,
        "campaign": game.campaign_id,
        "seats-TOTAL_FORMS": "1",
        "seats-INITIAL_FORMS": "1",
        "seats-0-id": red.pk,
        "seats-0-game": game.pk,
        "seats-0-user": people["alice"].pk,
        "seats-0-email": "mallory@example.org",
        "seats-0-role": "player",
        "seats-0-side": "red",
    }
    admin_client.post(f"/admin/campaigns/game/{game.pk}/change/", form)
    red.refresh_from_db()
    assert (red.user_id, red.email, red.role, red.version) == before


def test_snapshots_are_read_only_and_their_state_is_not_shown(admin_client, game):
    snap = Snapshot.objects.filter(game=game).order_by("-seq").first()
    page = admin_client.get(f"/admin/campaigns/snapshot/{snap.pk}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert str(len(snap.state)) in text and str(sealed_seed(game, 1)) not in text
    assert 'name="state"' not in text
    assert admin_client.get("/admin/campaigns/snapshot/add/").status_code == 403
    admin_client.post(f"/admin/campaigns/snapshot/{snap.pk}/change/", {"game": game.pk, "seq": snap.seq, "state": "{}"})
    assert admin_client.post(f"/admin/campaigns/snapshot/{snap.pk}/delete/", {"post": "yes"}).status_code == 403
    snap.refresh_from_db()
    assert snap.state != "{}"


def test_a_sealed_seed_is_shown_only_once_its_turn_is_published(
    admin_client, game, people, django_capture_on_commit_callbacks
):
    from campaigns.turns import commands

    sealed = Event.objects.get(game=game, type="seed.sealed", payload__turn=1)
    seed = str(sealed.payload["seed"])
    page = admin_client.get(f"/admin/campaigns/event/{sealed.pk}/change/").content.decode()
    assert "sealed until the turn is published" in page and seed not in page
    listing = admin_client.get("/admin/campaigns/event/?q=seed").content.decode()
    assert seed not in listing
    with django_capture_on_commit_callbacks(execute=True):
        assert commands.submit_orders(game.pk, "red", legal_red_orders(game)[0], source="test", ready=True).accepted
    assert Event.objects.filter(game=game, type="turn.published", payload__turn=1).exists()
    page = admin_client.get(f"/admin/campaigns/event/{sealed.pk}/change/").content.decode()
    assert seed in page  # public now: the published turn carries it

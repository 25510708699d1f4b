"""The admin: the inbound store is readable, never editable; held mail is released or rejected by action."""

import pytest
from django.contrib.auth import get_user_model

from campaigns.mailin import ingest
from campaigns.mailin.models import InboundMessage
from tests.support.games import orders_of, red_opening
from tests.support.mail import seat_mail

HELD = {"Authentication-Results": "mx.kriegsbrief.localhost; dmarc=fail"}


@pytest.fixture
def staff(client, db):
    get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-123")
    client.login(username="root", password="pw-root-123")
    return client


def test_changelist_and_detail_render_without_the_token_field(staff, game, red):
    row = ingest.ingest(seat_mail(red, red_opening(game)), via="test")
    assert staff.get("/admin/mailin/inboundmessage/").status_code == 200
    page = staff.get(f"/admin/mailin/inboundmessage/{row.pk}/change/")
    assert page.status_code == 200 and red_opening(game) in page.content.decode()
    assert staff.get("/admin/mailin/seataddress/").status_code == 200
    assert staff.get("/admin/mailin/inboundmessage/add/").status_code == 403


@pytest.mark.parametrize("action, status", [("release_held", "applied"), ("reject_held", "rejected")])
def test_admin_actions_on_held_mail(staff, game, red, action, status):
    row = ingest.ingest(seat_mail(red, red_opening(game), headers=HELD), via="test")
    assert row.status == "held"
    response = staff.post("/admin/mailin/inboundmessage/", {"action": action, "_selected_action": [row.pk]})
    assert response.status_code == 302
    row.refresh_from_db()
    assert row.status == status
    assert (orders_of(game, "red") is not None) is (status == "applied")
    assert InboundMessage.objects.count() == 1

"""API test fixtures: clients logged in as the shared people (alice umpires, bob
plays red, carol plays blue, dave holds no seat), plus erin who observes."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.support.api import client_for


@pytest.fixture
def erin(db):
    return get_user_model().objects.create_user("erin", "erin@example.org", "observer password long enough")


@pytest.fixture
def clients(people, erin):
    out = {name: client_for(user) for name, user in people.items()}
    out["erin"] = client_for(erin)
    out["anon"] = APIClient()
    return out

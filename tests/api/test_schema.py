"""The OpenAPI schema validates and is served with its Swagger UI."""

import pytest
import yaml
from django.core.management import call_command
from rest_framework.test import APIClient


def test_schema_validates_without_warnings(tmp_path):
    out = tmp_path / "s.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    paths = schema["paths"]
    for path in (
        "/api/games/",
        "/api/games/{id}/",
        "/api/games/{id}/orders/",
        "/api/games/{id}/ready/",
        "/api/games/{id}/view/",
        "/api/games/{id}/map.svg",
        "/api/games/{id}/events/",
        "/api/games/{id}/approve/",
        "/api/games/{id}/amend/",
        "/api/games/{id}/close/",
        "/api/seats/",
        "/api/auth/token/",
    ):
        assert path in paths, path
    orders = paths["/api/games/{id}/orders/"]["post"]["responses"]
    assert {"201", "400", "403", "404", "409"} <= set(orders)
    assert "image/svg+xml" in paths["/api/games/{id}/map.svg"]["get"]["responses"]["200"]["content"]
    text = schema["components"]["schemas"]["OrdersRequest"]["properties"]["text"]
    assert text["maxLength"] == 20000
    ready = schema["components"]["schemas"]["OrdersRequest"]["properties"]["ready"]
    assert ready["default"] is False and "not ready" in ready["description"]  # ready is never implied


@pytest.mark.django_db
def test_schema_and_docs_are_served():
    client = APIClient()
    assert client.get("/api/schema/").status_code == 200
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()


@pytest.mark.django_db
def test_docs_work_offline_with_no_cdn():
    """Swagger UI's scripts come from this server (drf-spectacular-sidecar), so the docs
    work on a machine with no internet and leak no visit to a third party."""
    import re

    from django.test import Client

    html = APIClient().get("/api/docs/").content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(s.startswith("/") for s in sources), sources
    assert "cdn" not in html.lower()
    client = Client()
    for src in sources:
        if src.endswith((".js", ".css")):
            assert client.get(src).status_code == 200, src

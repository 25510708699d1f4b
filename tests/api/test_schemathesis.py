"""The published schema tells the truth: a bounded schemathesis run against /api/schema/, as a
player and as the umpire, finds no 5xx and no response the schema does not describe."""

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from knox.models import get_token_model
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

MAX_EXAMPLES = 8
UMPIRE_NAMES_SIDE = {"side": ["the umpire must name the side to act for"]}


# A new game names people and a campaign only the server knows, and is checked as a whole by the
# rules (a scenario or option of another rule set, a user named twice, a side without a player).
NEW_GAME_REFUSALS = {"umpire", "players", "observers", "campaign_id", "scenario", "options", "detail"}


def refused_beyond_the_schema(response) -> bool:
    """The 400s a schema cannot rule out, each documented in it: orders the rule set refuses line
    by line, a cursor this server did not give out (opaque and signed), the umpire acting for a
    side without naming it, a new game naming someone or something the server does not know or
    the rules refuse. Every other 400 for schema-valid data means the schema lies."""
    body = response.json()
    new_game = response.request.method == "POST" and response.request.url.endswith("/api/games/")
    return (
        (body.get("accepted") is False and bool(body.get("errors")))
        or set(body) == {"cursor"}
        or body == UMPIRE_NAMES_SIDE
        or (new_game and {key.split(".")[0].split("[")[0] for key in body} <= NEW_GAME_REFUSALS)
    )


@pytest.fixture
def wsgi_app(db):
    """Django's own WSGI handler, in this thread and this test's transaction (as the test client:
    requests must not close the connection the test's transaction lives on)."""
    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    yield get_wsgi_application()
    for signal in (signals.request_started, signals.request_finished):
        signal.connect(close_old_connections)


def run_operation(operation, game, user, mode) -> list[str]:
    failures = []
    ids = {"id": game.pk} if "{id}" in operation.path else None

    @given(case=operation.as_strategy(mode, path_parameters=ids))
    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def check(case):
        _, token = get_token_model().objects.create(user=user)
        try:
            # Schemathesis' own "schema-valid data is accepted" check (ST202), less the refusals above.
            response = case.call_and_validate(
                headers={"Authorization": f"Token {token}"}, excluded_checks=[positive_data_acceptance]
            )
            if mode == GenerationMode.POSITIVE and response.status_code == 400:
                assert refused_beyond_the_schema(response), f"schema-valid request refused: {response.text[:1500]}"
        except (Exception, BaseExceptionGroup) as exc:  # every failing case, all reported together
            failures.append(
                f"[{mode}] {case.method} {case.formatted_path} {case.query or ''} {case.body!r:.200}: "
                f"{type(exc).__name__}: {str(exc)[:800]}"
            )

    try:
        check()
    except Unsatisfiable:  # nothing to make invalid (e.g. no parameters and no body)
        assert mode == GenerationMode.NEGATIVE
    return failures


@pytest.mark.parametrize("who", ["bob", "alice"])  # red's player, the umpire
def test_schemathesis_finds_no_5xx_and_no_schema_violation(wsgi_app, game, people, who):
    schema = schemathesis.openapi.from_wsgi("/api/schema/", wsgi_app)
    failures = []
    for result in schema.get_all_operations():
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            failures += run_operation(result.ok(), game, people[who], mode)
    assert not failures, "\n".join(failures)

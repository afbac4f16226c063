"""A property-based run of the API's OpenAPI schema (schemathesis): no input makes a server error,
and no request the schema calls valid is refused as malformed (schemathesis's
positive_data_acceptance, "valid request rejected").

Schemathesis reads /api/v1/openapi.json and sends generated requests, valid and not, to every
operation in this process (WSGI), with a real token; the example count is small to keep it quick.
A valid request may still meet the state of things: 403 (not yours), 404 (no such match or
player), 409 (already seated, started, changed). One operation may answer a schema-valid request
with a 400: a move, which the game's rules judge (an illegal move), as the schema says.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import positive_data_acceptance

from api.models import ApiToken
from tests.helpers import start_match

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


@pytest.fixture
def api_schema(db, settings):  # noqa: F811 (pytest-django's settings fixture)
    from django.core import signals
    from django.core.wsgi import get_wsgi_application
    from django.db import close_old_connections

    settings.DIZZY_API_LONGPOLL_SECONDS = 0  # a long poll answers at once here
    settings.DIZZY_API_RATE_LIMIT = 100_000
    # As Django's test client does: the requests run inside the test's transaction, whose
    # connection the end of a request must not close.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def auth_header(alice, bob):
    return {"Authorization": f"Bearer {ApiToken.issue(alice, 'schemathesis')[1]}"}


@pytest.fixture
def match_id(alice, bob) -> int:
    """A running match of alice's: generated requests also go to a match that exists."""
    return start_match(alice, [bob]).pk


JUDGED_BY_THE_RULES = {"POST /api/v1/matches/{match_id}/moves"}
REVOKES_ITS_TOKEN = "DELETE /api/v1/token"  # each of its cases gets a token of its own
EXAMPLES = 12  # per operation and mode: enough to reach every error path, quick enough for `make test`


def test_no_generated_request_makes_a_server_error(api_schema, auth_header, match_id, alice):
    def fresh_header() -> dict[str, str]:
        return {"Authorization": f"Bearer {ApiToken.issue(alice, 'schemathesis')[1]}"}

    # Schemathesis's own pytest loader does not run under this pytest, so each operation's
    # strategy is driven here with Hypothesis directly: valid and invalid requests, to any match
    # id and to one that exists.
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 10
    for operation in operations:
        real = {"match_id": match_id} if "{match_id}" in operation.path else None
        label = f"{operation.method.upper()} {operation.path}"
        checks = [not_a_server_error] + ([] if label in JUDGED_BY_THE_RULES else [positive_data_acceptance])
        for mode, path in [(GenerationMode.POSITIVE, None), (GenerationMode.NEGATIVE, None)] + (
            [(GenerationMode.POSITIVE, real)] if real else []
        ):

            @given(case=operation.as_strategy(generation_mode=mode, path_parameters=path))
            @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
            def run(case) -> None:
                headers = fresh_header() if label == REVOKES_ITS_TOKEN else auth_header  # noqa: B023 (run at once)
                case.call_and_validate(headers=headers, checks=checks)  # noqa: B023

            run()


def test_a_chat_message_the_schema_calls_valid_is_one_the_server_takes(api_schema):
    """The chat's pattern is one schemathesis generates from (an ECMA pattern naming surrogates was
    dropped, and NUL characters, which the server refuses, came through as valid)."""
    operation = next(r.ok() for r in api_schema.get_all_operations() if r.ok().path.endswith("/chat"))
    refused = []

    @given(case=operation.as_strategy(generation_mode=GenerationMode.POSITIVE))
    @settings(max_examples=200, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    def run(case) -> None:
        text = case.body["text"]
        if "\x00" in text or not text.strip():
            refused.append(text)

    run()
    assert refused == []

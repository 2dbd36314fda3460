"""The OpenAPI document describes what the API really answers (errors as `{"detail": string}`, every status a
route can give, the request bodies), and schemathesis, run in-process over the API routes with a bounded number
of examples, finds no status, body or server error the document does not describe."""

from __future__ import annotations

import warnings

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")

import schemathesis  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import (content_type_conformance, not_a_server_error,  # noqa: E402
                                 response_schema_conformance, status_code_conformance)

from tablepress.web.app import create_app  # noqa: E402
from tablepress.web.openapi import BODIES, STATUSES  # noqa: E402

#: Examples per operation: enough to reach every error of each route, few enough for about a minute.
EXAMPLES = 25
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """One app for the module (its AI seats move at once)."""
    return create_app(tmp_path_factory.mktemp("openapi") / "games.db", ai_delay=0.0)


def test_errors_are_detail_objects_and_every_route_lists_its_statuses_and_body(app):
    document = app.openapi()
    assert document["components"]["schemas"]["Error"]["properties"]["detail"] == {"type": "string"}
    assert "HTTPValidationError" not in document["components"]["schemas"]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            assert (method, path) in STATUSES, f"{method} {path} has no statuses listed"
            for status in STATUSES[(method, path)]:
                answer = operation["responses"][str(status)]
                assert answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
            if (method, path) in BODIES:
                assert operation["requestBody"]["content"]["application/json"]["schema"] == BODIES[(method, path)]
    statuses = {code for ops in document["paths"].values() for op in ops.values() for code in op["responses"]}
    assert {"403", "404", "409", "413", "422", "429", "503", "507"} <= statuses


def test_the_api_answers_as_its_document_says(app):
    from hypothesis import given

    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == len(STATUSES)
    failures: list[str] = []
    for operation in operations:
        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def conforms(case) -> None:
            case.call_and_validate(checks=CHECKS)

        try:
            conforms()
        except Exception as exc:  # noqa: BLE001 - collect every operation's failure, then report them all
            failures.append(f"{operation.method.upper()} {operation.path}: {str(exc)[:1500]}")
    assert not failures, "\n\n".join(failures)

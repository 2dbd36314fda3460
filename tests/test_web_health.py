"""`/healthz` answers while the process lives; `/readyz` only while the store answers with a current schema."""

from __future__ import annotations

from types import SimpleNamespace

from tablepress.web.health import store_ready


def test_ready_while_the_store_answers_and_not_once_it_does_not(app, client):
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 200 and client.get("/readyz").json() == {"ok": True}
    app.state.hub.store.close()
    reply = client.get("/readyz")
    assert reply.status_code == 503 and reply.json()["ok"] is False and "\n" not in reply.json()["detail"]
    assert client.get("/healthz").status_code == 200


def test_a_store_whose_schema_is_not_current_is_not_ready():
    old = SimpleNamespace(check=lambda: SimpleNamespace(ok=False, reason="schema version 1, this code needs 2"))
    assert store_ready(old) == (False, "schema version 1, this code needs 2")
    current = SimpleNamespace(check=lambda: SimpleNamespace(ok=True, reason=""))
    assert store_ready(current) == (True, "")

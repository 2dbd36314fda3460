"""Whose X-Forwarded-For the server believes (`serve --forwarded-allow-ips`): only the named proxies', so a
peer cannot spend another client's quota by naming it, and a named proxy's clients are told apart."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tablepress.core.errors import TablepressError
from tablepress.web import hub as hub_module
from tablepress.web.app import create_app
from tablepress.web.settings import parse_forwarded_allow_ips

PROXY, HONEST, FORGER = "10.0.0.7", "203.0.113.9", "198.51.100.66"
GAME = {"game": "by-this", "seats": ["human", "human"]}


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setattr(hub_module, "CLIENT_OPEN_GAMES", 3)
    return create_app(tmp_path / "games.db", ai_delay=3600.0, forwarded_allow_ips=(PROXY,))


def from_peer(app, peer: str) -> TestClient:
    """A client whose connection comes from `peer` (no lifespan: several share one app; no seat is an AI)."""
    return TestClient(app, client=(peer, 40000))


def creator(app, game_id: str) -> str | None:
    """The address a game was counted against."""
    return app.state.hub.rooms[game_id].row.client


def test_a_forged_x_forwarded_for_cannot_spend_another_clients_quota(app):
    forger, honest = from_peer(app, FORGER), from_peer(app, HONEST)
    codes = [forger.post("/api/games", json=GAME, headers={"X-Forwarded-For": HONEST}).status_code
             for _ in range(5)]
    assert codes == [201, 201, 201, 429, 429]  # counted against the forger's own address
    reply = honest.post("/api/games", json=GAME)
    assert reply.status_code == 201, reply.text
    assert creator(app, reply.json()["id"]) == HONEST
    assert {room.row.client for room in app.state.hub.rooms.values()} == {FORGER, HONEST}


def test_an_allowed_proxys_x_forwarded_for_is_the_client(app):
    proxy = from_peer(app, PROXY)
    reply = proxy.post("/api/games", json=GAME, headers={"X-Forwarded-For": f"{FORGER}, {HONEST}"})
    assert reply.status_code == 201 and creator(app, reply.json()["id"]) == HONEST  # the nearest untrusted hop
    for _ in range(2):
        assert proxy.post("/api/games", json=GAME, headers={"X-Forwarded-For": HONEST}).status_code == 201
    assert proxy.post("/api/games", json=GAME, headers={"X-Forwarded-For": HONEST}).status_code == 429
    other = proxy.post("/api/games", json=GAME, headers={"X-Forwarded-For": "192.0.2.5"})  # another player
    assert other.status_code == 201 and creator(app, other.json()["id"]) == "192.0.2.5"


def test_without_allowed_proxies_nobody_is_believed(tmp_path):
    app = create_app(tmp_path / "games.db", ai_delay=3600.0)
    local = from_peer(app, "127.0.0.1")
    reply = local.post("/api/games", json=GAME, headers={"X-Forwarded-For": HONEST})
    assert creator(app, reply.json()["id"]) == "127.0.0.1"


def test_allowed_proxies_are_addresses_or_networks():
    assert parse_forwarded_allow_ips(None) == () == parse_forwarded_allow_ips(" ")
    assert parse_forwarded_allow_ips("10.0.0.1, 10.1.0.0/16,::1,10.0.0.1") == ("10.0.0.1", "10.1.0.0/16", "::1")
    for bad in ("proxy.example", "10.0.0.300", "10.0.0.0/99"):
        with pytest.raises(TablepressError, match="--forwarded-allow-ips"):
            parse_forwarded_allow_ips(bad)

"""How the site answers a browser: HTML error pages for page requests (JSON stays for the API), the link
preview as a PNG of the game's faces, and gzip for large responses (not for event streams or WebSockets)."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from tablepress.core.registry import game_names
from tablepress.web.app import GZIP_MINIMUM
from tablepress.web.pages.share_image import HEIGHT, WIDTH

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


# ----- error pages ------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/make", "/games", "/simulations/no-such-job", "/make/no-such-game", "/no/such/page"])
def test_a_browser_asking_for_a_missing_page_gets_an_html_page(client, path):
    reply = client.get(path, headers=BROWSER)
    assert reply.status_code == 404
    assert reply.headers["content-type"].startswith("text/html")
    assert '<html lang="en">' in reply.text and "<title>" in reply.text and 'href="/"' in reply.text
    assert '{"detail"' not in reply.text


@pytest.mark.parametrize("path", ["/api/games/no-such-game", "/api/simulations/no-such-job", "/api/nothing"])
def test_the_api_answers_json_even_to_a_browser(client, path):
    reply = client.get(path, headers=BROWSER)
    assert reply.status_code == 404
    assert reply.headers["content-type"] == "application/json" and "detail" in reply.json()


def test_a_script_not_asking_for_html_still_gets_json(client):
    reply = client.get("/simulations/no-such-job", headers={"Accept": "application/json"})
    assert reply.status_code == 404 and reply.json()["detail"]


def test_a_refused_method_on_a_page_keeps_its_allow_header(client):
    reply = client.post("/games/flowers/rules", headers=BROWSER)
    assert reply.status_code == 405 and reply.headers.get("allow") == "GET"


# ----- the link preview -------------------------------------------------------------------------
@pytest.mark.parametrize("name", game_names())
def test_the_intro_links_a_png_preview_drawn_from_the_cards(client, name):
    text = client.get(f"/games/{name}/intro").text
    meta = dict(re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)"', text))
    assert meta["og:image"].endswith(f"/games/{name}/share.png") and meta["og:image:type"] == "image/png"
    reply = client.get(f"/games/{name}/share.png")
    assert reply.status_code == 200 and reply.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(reply.content)).convert("RGB")
    assert image.size == (WIDTH, HEIGHT) == (int(meta["og:image:width"]), int(meta["og:image:height"]))
    strip = image.crop((WIDTH // 2, 0, WIDTH, HEIGHT))  # the cards' half: many colours, not a blank
    assert len(set(strip.get_flattened_data())) > 200


def test_an_unknown_games_preview_is_a_404(client):
    assert client.get("/games/no-such-game/share.png").status_code == 404


# ----- gzip -------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/games/pressed", "/static/table.js", "/api/catalog"])
def test_large_responses_are_gzipped(client, path):
    reply = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert reply.status_code == 200 and len(reply.content) >= GZIP_MINIMUM
    assert reply.headers.get("content-encoding") == "gzip"
    assert "accept-encoding" in reply.headers.get("vary", "").lower()


def test_small_responses_and_clients_without_gzip_get_plain_bodies(client):
    small = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in small.headers
    plain = client.get("/", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and "<html" in plain.text


def test_an_event_stream_and_a_websocket_are_not_compressed(client):
    job = client.post("/api/simulations", json={"game": "by-this", "games": 2, "seats": ["random"]}).json()["id"]
    with client.stream("GET", f"/api/simulations/{job}/events", headers={"Accept-Encoding": "gzip"}) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert "content-encoding" not in stream.headers
        assert any(line.startswith("data: ") for line in stream.iter_lines())
    game = client.post("/api/games", json={"game": "by-this", "seats": ["random", "random"]}).json()["id"]
    with client.websocket_connect(f"/ws/games/{game}") as socket:
        assert socket.receive_json()["game"] == "by-this"

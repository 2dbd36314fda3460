"""The README's Deploy section, run as written: its nginx configuration (only addresses, ports and the
certificate put in) in front of two `tablepress serve` processes started with its flags over one throwaway
PostgreSQL. Through nginx a game is created and played to its end, a WebSocket hears the moves made on
either process, the app sees the client address nginx forwards, and share links use the public URL."""

from __future__ import annotations

import ssl
import time

import httpx
import pytest

from nginx_helpers import deploy_section, main_config, nginx_binary, self_signed, serve_flags, site_config, start_nginx

NGINX = nginx_binary()
pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (make test installs nginx-light)")
#: The address the test client claims to forward for, as a proxy in front of nginx would.
FAR_CLIENT = "198.51.100.7"


@pytest.fixture
def site(postgres, tmp_path):
    """The README's deployment on 127.0.0.1: (nginx, its HTTPS client and TLS context, the two processes, the
    database URL, the README's flags)."""
    from cluster_helpers import environment, serve
    from pg_helpers import free_port

    section = deploy_section()
    flags = serve_flags(section)
    assert flags["--forwarded-allow-ips"] and flags["--public-url"].startswith("https://"), flags
    url = postgres.database()
    args = {**flags, "--database": url, "--forwarded-allow-ips": "127.0.0.1",
            "--workers": str(min(int(flags.get("--workers", "1")), 2))}
    args.pop("--host"), args.pop("--port")
    backends = [serve(environment(url), tmp_path, *(word for pair in args.items() for word in pair)) for _ in range(2)]
    name = flags["--public-url"].split("://", 1)[1].rstrip("/")
    certificate, key = self_signed(tmp_path, name)
    port = free_port()
    config = main_config(tmp_path, site_config(section, port, [b.port for b in backends], certificate, key))
    nginx = start_nginx(NGINX, tmp_path, config, port)
    context = ssl.create_default_context(cafile=str(certificate))
    client = httpx.Client(base_url=f"https://127.0.0.1:{port}", verify=context, timeout=15, headers={"Host": name})
    try:
        yield nginx, client, context, backends, url, flags
    finally:
        client.close()
        nginx.stop()
        for backend in backends:
            backend.stop()
        postgres.drop(url)
    assert "[emerg]" not in nginx.errors() and "[crit]" not in nginx.errors(), nginx.errors()


def stored_client(url: str, gid: str) -> str | None:
    """The client address a game was stored with, read straight from PostgreSQL."""
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute("SELECT client FROM games WHERE id = %s", (gid,)).fetchone()[0]


def act(client: httpx.Client, gid: str, tokens: dict[str, str], count: int) -> tuple[str | None, int]:
    """Take the first legal action of the seat to move through `client` once the process answering has the game's
    `count` moves: (its text, how many times it was answered 409 first); (None, ...) if the game ended there."""
    refused = 0
    deadline = time.monotonic() + 30
    while True:
        assert time.monotonic() < deadline, "the processes did not agree on the game within 30 s"
        state = client.get(f"/api/games/{gid}").json()
        if len(state["log"]) != count:  # a process that has not heard of the last move yet
            time.sleep(0.02)
            continue
        if not state["to_move"]:  # the game ended with the last move (a process asked earlier had not heard yet)
            return None, refused
        header = {"Authorization": f"Bearer {tokens[str(state['to_move'][0])]}"}
        seen = client.get(f"/api/games/{gid}", headers=header).json()
        if len(seen["log"]) != count:
            continue
        reply = client.post(f"/api/games/{gid}/actions", headers=header, json={"action": seen["legal_actions"][0]})
        if reply.status_code == 200:
            return seen["legal_actions"][0], refused
        assert reply.status_code == 409, reply.text  # 409: the process taking it had not heard of the last move
        refused += 1


def test_the_readmes_nginx_in_front_of_two_processes_serves_the_site(site):
    from websockets.sync.client import connect

    from cluster_helpers import next_view

    nginx, client, context, backends, url, flags = site
    public = flags["--public-url"].rstrip("/")
    assert client.get("/api/catalog").json()["public_url"] == public
    intro = client.get("/games/flowers/intro")
    assert intro.status_code == 200 and f"{public}/games/flowers/intro" in intro.text
    assert "127.0.0.1" not in intro.text

    created = client.post("/api/games", json={"game": "flowers", "seats": ["human", "human"], "seed": 5},
                          headers={"X-Forwarded-For": FAR_CLIENT})
    assert created.status_code == 201, created.text
    gid, tokens = created.json()["id"], created.json()["tokens"]
    assert stored_client(url, gid) == FAR_CLIENT  # what nginx forwarded ("FAR_CLIENT, 127.0.0.1"), not its own address

    with connect(f"wss://127.0.0.1:{nginx.port}/ws/games/{gid}", ssl=context, open_timeout=10) as watcher:
        assert next_view(watcher, lambda v: True)["version"] == 0
        count = 0
        for backend in backends:  # one of the two is not the process this WebSocket reached through nginx
            action, _ = act(backend.client, gid, tokens, count)
            count += 1
            view = next_view(watcher, lambda v, n=count: v["version"] >= n)
            assert view["version"] == count and view["log"][-1]["text"] == action
        refused = 0
        while client.get(f"/api/games/{gid}").json()["status"] != "over" or count < 3:
            assert count < 400, "the game did not end within 400 moves"
            action, again = act(client, gid, tokens, count)
            refused += again
            if action is None:
                break
            count += 1
            view = next_view(watcher, lambda v, n=count: v["version"] >= n)
            assert view["version"] == count and view["log"][-1]["text"] == action
    logs = [[e["text"] for e in b.client.get(f"/api/games/{gid}").json()["log"]] for b in backends]
    through = [e["text"] for e in client.get(f"/api/games/{gid}").json()["log"]]
    assert logs[0] == logs[1] == through and len(through) > 2
    print(f"a game of {len(through)} moves played through nginx; {refused} moves answered 409 first")

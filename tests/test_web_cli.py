"""`tablepress serve` refuses what it cannot do with one clear line and exit code 2."""

from __future__ import annotations

import socket

import pytest

from tablepress.web import server
from tablepress.web.settings import parse_public_url


def test_serve_on_a_port_in_use_is_a_clear_error(cli, tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        result = cli("serve", "--port", str(port), "--db", str(tmp_path / "g.db"))
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr and "Traceback" not in result.stderr


def test_serve_with_a_file_that_is_not_a_database_is_a_clear_error(cli, tmp_path):
    bad = tmp_path / "notes.db"
    bad.write_text("these are my notes, not a database " * 20)
    result = cli("serve", "--port", "0", "--db", str(bad))
    assert result.exit_code == 2 and "not a database" in result.stderr
    assert bad.read_text().startswith("these are my notes")


def test_serve_rejects_bad_numbers(cli):
    assert cli("serve", "--port", "70000").exit_code == 2
    assert cli("serve", "--port", "0", "--ai-delay", "-1").exit_code == 2


@pytest.mark.parametrize("url", ["ftp://games.example.org", "games.example.org", "https://", "https://x.org/?a=1",
                                 "https://x.org/#top", "https://x.org/tables", "http://x.org:99999",
                                 "https://me@x.org"])
def test_serve_refuses_a_public_url_that_is_no_site_address(cli, tmp_path, url, monkeypatch):
    db = tmp_path / "g.db"
    result = cli("serve", "--port", "0", "--db", str(db), "--public-url", url)
    assert result.exit_code == 2 and "--public-url" in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not db.exists()
    monkeypatch.setenv("TABLEPRESS_PUBLIC_URL", url)
    assert cli("serve", "--port", "0", "--db", str(db)).exit_code == 2


def test_serve_refuses_proxies_that_are_no_addresses(cli, tmp_path, monkeypatch):
    result = cli("serve", "--port", "0", "--db", str(tmp_path / "g.db"), "--forwarded-allow-ips", "10.0.0.1,proxy")
    assert result.exit_code == 2 and "'proxy'" in result.stderr and "Traceback" not in result.stderr
    monkeypatch.setenv("TABLEPRESS_FORWARDED_ALLOW_IPS", "10.0.0.300")
    assert cli("serve", "--port", "0", "--db", str(tmp_path / "g.db")).exit_code == 2


def test_public_urls_are_read_to_their_root():
    assert parse_public_url("https://Games.Example.org/") == "https://games.example.org"
    assert parse_public_url("http://192.168.1.20:8000") == "http://192.168.1.20:8000"
    assert parse_public_url("http://[::1]:8000") == "http://[::1]:8000"


def test_without_a_public_url_links_use_the_announced_address(monkeypatch):
    monkeypatch.setattr(server, "lan_address", lambda: "192.168.1.20")
    assert server.default_public_url("0.0.0.0", 8000) == "http://192.168.1.20:8000"
    assert server.default_public_url("127.0.0.1", 8001) == "http://127.0.0.1:8001"
    assert server.default_public_url("::1", 80) == "http://[::1]:80"
    monkeypatch.setattr(server, "lan_address", lambda: None)
    assert server.default_public_url("0.0.0.0", 8000) == "http://127.0.0.1:8000"


@pytest.mark.parametrize("workers", [1, 2])
def test_serve_on_port_0_announces_the_port_it_got_and_its_links_use_it(request, tmp_path, workers):
    import re
    import subprocess
    import sys
    from pathlib import Path

    import httpx
    from web_helpers import eventually

    if workers > 1:
        database = request.getfixturevalue("postgres").database()
    else:
        database = str(tmp_path / "g.db")
    exe = Path(sys.executable).with_name("tablepress")
    proc = subprocess.Popen([str(exe), "serve", "--host", "127.0.0.1", "--port", "0", "--database", database,
                             "--workers", str(workers)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        first = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
        assert found and found.group(1) != "0", first
        port = int(found.group(1))
        links = "".join(proc.stdout.readline() for _ in range(2))
        assert f"http://127.0.0.1:{port}/" in links and ":0/" not in links
        def answers() -> bool:
            try:
                return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200
            except httpx.TransportError:
                return proc.poll() is not None  # stop waiting: it exited

        assert eventually(answers) and proc.poll() is None, "the server did not answer on its port"
        intro = httpx.get(f"http://127.0.0.1:{port}/games/flowers/intro", timeout=10).text
        assert f'property="og:url" content="http://127.0.0.1:{port}/games/flowers/intro"' in intro
    finally:
        proc.terminate()
        proc.wait(timeout=30)

"""`tablepress serve` refuses what it cannot do with one clear line and exit code 2."""

from __future__ import annotations

import socket


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

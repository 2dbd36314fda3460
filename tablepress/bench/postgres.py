"""A throwaway PostgreSQL cluster: initdb in a temporary folder, started on a free port of 127.0.0.1 with its
socket in that folder, fresh databases made in it, stopped and deleted at the end. The load benchmark
(`tablepress bench --web`) runs the server over one; the tests (tests/pg_helpers.py) use it too.

PostgreSQL refuses to run as root: as root the cluster runs as the `postgres` OS user (through
`runuser`), otherwise as the user running this. `missing()` says why the cluster cannot be made here (no
initdb, pg_ctl or postgres binary, no runuser or postgres user as root).
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

#: Settings that make a throwaway cluster fast: nothing it writes needs to survive a crash.
FAST = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"


def binary(name: str) -> str | None:
    """The path of a PostgreSQL program: on PATH, in /usr/local/bin, or in the newest /usr/lib/postgresql/N/bin."""
    found = shutil.which(name) or shutil.which(name, path="/usr/local/bin")
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(Path(p).parts[4]))
    return versions[-1] if versions else None


def missing() -> str | None:
    """Why a cluster cannot be started here (None if it can)."""
    for name in ("initdb", "pg_ctl", "postgres"):
        if binary(name) is None:
            return f"PostgreSQL's {name} is not installed"
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            return "runuser is missing (PostgreSQL will not run as root)"
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "there is no postgres OS user (PostgreSQL will not run as root)"
    return None


def free_port() -> int:
    """A TCP port of 127.0.0.1 free just now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Cluster:
    """A running throwaway cluster; `database()` makes a fresh database and gives its URL. `settings` are
    the server's `-c` options (default FAST; "" for PostgreSQL's own, durable defaults)."""

    def __init__(self, settings: str = FAST) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="tablepress-pg-"))
        self.data = self.base / "data"
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            account = pwd.getpwnam("postgres")
            os.chown(self.base, account.pw_uid, account.pw_gid)
            self.as_user = [shutil.which("runuser") or "runuser", "-u", "postgres", "--"]
        self._names = itertools.count(1)
        self._run(binary("initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                  "--locale=C", "--no-sync")
        try:
            self._run(binary("pg_ctl"), "-D", str(self.data), "-l", str(self.base / "log"), "-w", "-t", "60", "-o",
                      f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.base} {settings}", "start")
        except RuntimeError as exc:
            log = (self.base / "log").read_text(errors="replace") if (self.base / "log").exists() else ""
            shutil.rmtree(self.base, ignore_errors=True)
            raise RuntimeError(f"{exc}\n{log}") from None

    def _run(self, *command: str | None) -> None:
        """Run a PostgreSQL program as the cluster's user; RuntimeError with its output if it fails."""
        done = subprocess.run([*self.as_user, *map(str, command)], cwd=self.base, capture_output=True, text=True,
                              timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(map(str, command))} failed ({done.returncode}): {done.stdout}{done.stderr}")

    def url(self, database: str = "postgres") -> str:
        """The URL of one of the cluster's databases."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new, empty database's URL."""
        import psycopg

        name = f"test_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def drop(self, url: str) -> None:
        """Drop a database made by `database()`, closing whatever connections it still has."""
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        """Stop the cluster and delete its folder."""
        try:
            self._run(binary("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.base, ignore_errors=True)

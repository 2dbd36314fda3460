"""The README's Deploy section as the tests run it: its `tablepress serve` command and its nginx
configuration, read from the README's code blocks with only the addresses, ports and certificate paths
put in (each substitution must match, so a README that changes shape fails here rather than being
tested as something it no longer says), and nginx itself run as a non-daemon on 127.0.0.1 with every
path it writes in a temporary folder.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
#: The paths nginx writes besides its log and pid, each set in the temporary folder.
TEMP_PATHS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


def nginx_binary() -> str | None:
    """nginx's path (on PATH or in /usr/sbin), or None when it is not installed."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


def deploy_section(text: str | None = None) -> str:
    """The README's Deploy section: from its `**Deploy` paragraph to the next image, bold paragraph or heading."""
    text = README.read_text() if text is None else text
    start = text.index("**Deploy")
    ends = [text.find(mark, start + 1) for mark in ("\n![", "\n**", "\n## ")]
    end = min([i for i in ends if i != -1] or [len(text)])
    return text[start:end]


def code_block(section: str, language: str) -> str:
    """The one fenced code block of `language` in `section`."""
    blocks = re.findall(rf"```{language}\n(.*?)```", section, re.S)
    assert len(blocks) == 1, f"the Deploy section has {len(blocks)} {language} blocks, not one"
    return blocks[0]


def serve_flags(section: str) -> dict[str, str]:
    """The options of the section's `tablepress serve` command, by name (`--workers` → "4")."""
    command = code_block(section, "sh").replace("\\\n", " ")
    lines = [line for line in command.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert len(lines) == 1, f"the sh block holds {len(lines)} commands, not one"
    words = shlex.split(lines[0])
    assert words[:2] == ["tablepress", "serve"], words
    flags = dict(zip(words[2::2], words[3::2]))
    assert all(name.startswith("--") for name in flags) and len(words) % 2 == 0, words
    return flags


def substitute(text: str, pattern: str, replacement: str | Callable[[re.Match[str]], str], count: int = 1) -> str:
    """`text` with `pattern` replaced; AssertionError unless it matched exactly `count` times."""
    replaced, found = re.subn(pattern, replacement, text)
    assert found == count, f"the README's nginx block: {pattern!r} matched {found} times, not {count}"
    return replaced


def site_config(section: str, port: int, backends: list[int], certificate: Path, key: Path) -> str:
    """The section's nginx block with the upstream servers at 127.0.0.1:`backends`, listening on
    127.0.0.1:`port`, and the given certificate and key."""
    block = code_block(section, "nginx")
    servers = iter(f"server 127.0.0.1:{backend};" for backend in backends)
    block = substitute(block, r"server\s+[\w.-]+:\d+;", lambda _m: next(servers), len(backends))
    block = substitute(block, r"listen\s+443\s+ssl;", f"listen 127.0.0.1:{port} ssl;")
    block = substitute(block, r"ssl_certificate\s+\S+;", f"ssl_certificate {certificate};")
    return substitute(block, r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};")


def main_config(folder: Path, site: str) -> str:
    """A whole nginx.conf around a site's blocks, every path it writes in `folder`."""
    temps = "\n".join(f"    {name}_temp_path {folder / name};" for name in TEMP_PATHS)
    user = "user root;\n" if os.geteuid() == 0 else ""  # else nginx's workers drop to nobody, who cannot read `folder`
    return (f"{user}daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
            f"events {{ worker_connections 256; }}\nhttp {{\n    access_log {folder / 'access.log'};\n{temps}\n"
            f"{site}}}\n")


def self_signed(folder: Path, name: str) -> tuple[Path, Path]:
    """A certificate for `name` and 127.0.0.1 signed by itself, and its key (openssl)."""
    certificate, key = folder / "site.crt", folder / "site.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", f"/CN={name}",
                    "-addext", f"subjectAltName=DNS:{name},IP:127.0.0.1", "-keyout", str(key), "-out", str(certificate)],
                   check=True, capture_output=True, timeout=60)
    return certificate, key


@dataclass
class Nginx:
    """A running nginx (not a daemon) and the folder holding its configuration, pid and logs."""

    proc: subprocess.Popen
    folder: Path
    port: int

    def errors(self) -> str:
        """What nginx wrote to its error log."""
        log = self.folder / "error.log"
        return log.read_text(errors="replace") if log.exists() else ""

    def stop(self) -> None:
        """Stop nginx (SIGQUIT: finish the requests in flight) and wait for it."""
        if self.proc.poll() is None:
            self.proc.send_signal(3)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_nginx(binary: str, folder: Path, config: str, port: int) -> Nginx:
    """Check `config` (nginx -t) and run nginx with it until 127.0.0.1:`port` accepts (30 s at most)."""
    for name in TEMP_PATHS:
        (folder / name).mkdir(exist_ok=True)
    conf = folder / "nginx.conf"
    conf.write_text(config)
    base = [binary, "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(conf)]
    checked = subprocess.run([*base, "-t"], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, f"nginx -t refused the README's configuration:\n{checked.stderr}\n{config}"
    proc = subprocess.Popen(base, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return Nginx(proc, folder, port)
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"nginx did not start: {proc.communicate()[1]}")
        time.sleep(0.05)

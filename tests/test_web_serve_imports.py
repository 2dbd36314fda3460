"""Serving needs none of the research extras: the web app, the server and the CLI import no torch, Ray,
OpenSpiel, PettingZoo or Gymnasium at start (`make run` installs only `pip install -e .`)."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("torch", "ray", "open_spiel", "pyspiel", "pettingzoo", "gymnasium")


def test_starting_the_site_imports_no_research_extras(tmp_path):
    script = f"""
import json, sys
import tablepress.cli
from tablepress.web.server import serve
from tablepress.web.app import create_app
from fastapi.testclient import TestClient
app = create_app({str(tmp_path / 'g.db')!r}, ai_delay=0.0)
with TestClient(app) as client:
    assert client.get("/").status_code == 200 and client.get("/api/catalog").status_code == 200
    assert client.get("/games/by-this").status_code == 200
print(json.dumps(sorted(name for name in sys.modules if name.split(".")[0] in {HEAVY!r})))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []

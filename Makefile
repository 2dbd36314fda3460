# Two entry points: `make run` and `make test`. Both build .venv themselves from nothing but Python 3.11.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
EXTRAS ?= test,ray,rl,train
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test bench load clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Serving needs only the package itself; the tests (and bench) need every extra (torch, Ray, OpenSpiel).
$(VENV)/.installed-serve: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS)]"
	touch $(VENV)/.installed-serve $@

# PUBLIC_URL=https://games.example.org: the address share links use (or set TABLEPRESS_PUBLIC_URL).
run: $(VENV)/.installed-serve
	$(BIN)/tablepress serve --host $(HOST) --port $(PORT) $(if $(PUBLIC_URL),--public-url $(PUBLIC_URL))

test: $(VENV)/.installed-test
	sh scripts/ensure-debian-packages chromium:/usr/bin/chromium poppler-utils:pdftoppm nginx-light:nginx openssl:openssl
	sh scripts/ensure-axe-core
	$(BIN)/python -m pytest

# The whole benchmark: engine, agent and simulator speed per CPU second with the machine (cores, load
# average) before and after, then the pytest-benchmark micro-benchmarks. Measured, never asserted.
# `make bench AGAINST=HEAD~1` also times the agents of that commit beside this code's, alternately.
bench: $(VENV)/.installed-test
	$(BIN)/tablepress bench --simulator $(if $(AGAINST),--against $(AGAINST))
	$(BIN)/python -m pytest -m benchmark --benchmark-enable -q

# Load: concurrent human-paced games (two people a game, each on their own loopback address) against 1 and 2
# server processes over a throwaway PostgreSQL and over SQLite, then the lobby and chat (named players meeting
# at open tables, chatting while they play, spectators on the lobby's stream) at 100 and 200 games over
# PostgreSQL with 1 and 2 processes (bench/load.py's DEFAULT_RUNS); writes docs/LOAD.md. About 11 minutes.
load: $(VENV)/.installed-test
	$(BIN)/tablepress bench --web -o docs/LOAD.md

clean:
	rm -rf $(VENV) .pytest_cache

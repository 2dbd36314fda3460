# Two entry points: `make run` and `make test`. Both build .venv themselves from nothing but Python 3.11.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
EXTRAS ?= test,ray,rl,train
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS)]"
	touch $@

run: $(VENV)/.installed
	$(BIN)/tablepress serve --host $(HOST) --port $(PORT)

test: $(VENV)/.installed
	sh scripts/ensure-debian-packages chromium:/usr/bin/chromium poppler-utils:pdftoppm
	$(BIN)/python -m pytest

# The whole benchmark: engine, agent and simulator speed per CPU second with the machine (cores, load
# average) before and after, then the pytest-benchmark micro-benchmarks. Measured, never asserted.
# `make bench AGAINST=HEAD~1` also times the agents of that commit beside this code's, alternately.
bench: $(VENV)/.installed
	$(BIN)/tablepress bench --simulator $(if $(AGAINST),--against $(AGAINST))
	$(BIN)/python -m pytest -m benchmark --benchmark-enable -q

clean:
	rm -rf $(VENV) .pytest_cache

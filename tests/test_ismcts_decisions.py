"""The search decides as it did before its settings became typed presets: `ismcts:50` at a few positions of
every game and player count, and other settings at some of them (tests/ismcts_decisions.py recorded
tests/data/ismcts_decisions.json on the earlier agent)."""

from __future__ import annotations

import json

import pytest

from tablepress.agents.base import make_agent
from tablepress.agents.ismcts import IsmctsAgent
from tablepress.core.match import SeatInfo
from tablepress.core.registry import get_game

from ismcts_decisions import DATA, as_presets, position

RECORDED = json.loads(DATA.read_text())


@pytest.mark.parametrize("key", sorted(RECORDED["plain"]))
def test_a_seat_spec_search_chooses_what_it_chose_before(key):
    name, players, deal = key.split("/")
    game = get_game(name)
    state, seat, _ = position(game, int(players), int(deal))
    assert make_agent("ismcts:50", int(deal)).choose(SeatInfo(game, state, seat)) == RECORDED["plain"][key]


@pytest.mark.parametrize("recorded", RECORDED["variants"], ids=lambda r: f"{r[0]}/{r[1]}/{r[2]}/{r[3]}")
def test_the_search_with_other_settings_chooses_what_it_chose_before(recorded):
    name, players, deal, old, choice = recorded
    game = get_game(name)
    state, seat, _ = position(game, players, deal)
    search, changes = as_presets(name, players, old)
    agent = IsmctsAgent(seed=deal, budget=30, search=search, **changes)
    assert agent.choose(SeatInfo(game, state, seat)) == choice

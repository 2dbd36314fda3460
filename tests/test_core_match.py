"""Records and replay, seat specs, option parsing, name matching."""

from __future__ import annotations

import json

import pytest

from tablepress.agents.base import make_agent, parse_seats
from tablepress.agents.base import SeatInfo
from tablepress.core import records
from tablepress.core.errors import RecordError, TablepressError
from tablepress.core.match import Match
from tablepress.core.names import NameIndex
from tablepress.core.registry import get_game
from tablepress.core.rng import derive_seed


def play_out(match: Match, seed: int = 0) -> None:
    agents = [make_agent("random", seed + i) for i in range(match.players)]
    while not match.is_over:
        seat = match.to_move()[0]
        match.act(seat, agents[seat].choose(SeatInfo(match.game, match.state, seat)))


def test_record_round_trip_reproduces_the_game():
    match = Match(get_game("flowers"), 3, seed=12, seats=["random"] * 3)
    play_out(match)
    record = json.loads(json.dumps(match.record()))
    assert record["game"] == "flowers" and record["seed"] == 12 and record["scores"] == match.game.scores(match.state)
    again = records.from_record(record)
    assert again.state == match.state


def test_a_tampered_record_names_the_bad_step():
    match = Match(get_game("flowers"), 2, seed=3)
    play_out(match)
    record = match.record()
    record["actions"][5]["action"] = "place Q9 9,9"
    with pytest.raises(RecordError, match="action 6"):
        records.from_record(record)
    with pytest.raises(RecordError, match="no 'seed' field"):
        records.from_record({"game": "flowers", "players": 2, "actions": []})
    with pytest.raises(RecordError, match="unknown game"):
        records.from_record({"game": "chess", "players": 2, "seed": 1, "actions": []})


def test_seat_specs():
    assert parse_seats("human,random", 4) == ["human", "random", "random", "random"]
    with pytest.raises(TablepressError, match="unknown seat 'wizard'"):
        parse_seats("wizard", 2)
    with pytest.raises(TablepressError, match="3 seats given for 2 players"):
        parse_seats("random,random,random", 2)
    with pytest.raises(TablepressError, match="positive whole number"):
        parse_seats("random:zero", 2)


def test_derived_seeds_are_stable_and_distinct():
    assert derive_seed(1, 2) == derive_seed(1, 2)
    assert len({derive_seed(1, i) for i in range(1000)}) == 1000


def test_names_fold_case_accents_and_plurals():
    index = NameIndex(["Macramé Hanger", "Lily", "Daisy", "Baby's Breath"])
    assert index.get("macrame hanger") == "Macramé Hanger"
    assert index.get("Lilies") == "Lily"
    assert index.get("DAISIES") == "Daisy"
    assert index.get("Baby’s Breath") == "Baby's Breath"
    assert index.get("Rose") is None


def test_records_hold_the_canonical_text_of_what_was_typed():
    flowers = Match(get_game("flowers"), 2, seed=4)
    flowers.act(0, "  draw   1 ")
    assert flowers.actions == [(0, "draw 1")]
    planted = Match(get_game("planted"), 2, seed=4)
    seat = planted.to_move()[0]
    full = planted.game.legal_actions(planted.state, seat)[0]  # e.g. "play 15 LL"
    planted.act(seat, " ".join(full.split()[:2]))              # typed short: "play 15"
    assert planted.actions == [(seat, full)]
    assert records.from_record(planted.record()).state == planted.state


def test_a_proposed_action_changes_nothing_until_adopted_and_goes_stale_once_the_match_moves_on():
    match = Match(get_game("flowers"), 2, seed=3)
    seat = match.next_mover()
    first, second = match.legal(seat)[:2]
    before = json.dumps(match.game.view(match.state, seat), sort_keys=True, default=str)
    proposal = match.propose(seat, first, at=1.0)
    assert match.moves == [] and json.dumps(match.game.view(match.state, seat), sort_keys=True, default=str) == before
    late = match.propose(seat, second)
    assert match.adopt(proposal).action == first and [m.action for m in match.moves] == [first]
    with pytest.raises(RuntimeError, match="proposal was made at move 0"):
        match.adopt(late)
    twin = Match(get_game("flowers"), 2, seed=3)
    twin.act(seat, first)
    assert match.actions == twin.actions and match.to_move() == twin.to_move()
    assert match.game.view(match.state, seat) == twin.game.view(twin.state, seat)

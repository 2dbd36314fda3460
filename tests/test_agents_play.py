"""AI players in every registered game: seeded determinism, no peeking, only legal actions, greedy > random.

Games come from the registry, so every game added later is covered without touching this file.
"""

from __future__ import annotations

import pickle
import random
import zlib
from typing import Any

import pytest

from tablepress.agents.base import Agent, SeatInfo, make_agent
from tablepress.agents.ladder import run_rung
from tablepress.core.game import Game
from tablepress.core.registry import game_names, get_game, own_game_names

#: Cheap specs of every agent (the search budget kept small: these tests are about behaviour, not strength).
SPECS = ("random", "greedy:2", "ismcts:16")


def positions(game: Game, players: int, seed: int, count: int) -> list[Any]:
    """`count` states from one random game, spread over its length (game over excluded)."""
    rng = random.Random(seed)
    state = game.new(players, seed)
    states = []
    while not game.is_over(state):
        states.append(game.clone(state))
        seat = rng.choice(game.to_move(state))
        game.apply_legal(state, seat, rng.choice(game.legal_actions(state, seat)))
    step = max(1, len(states) // count)
    return states[::step][:count]


def counts(game: Game) -> list[int]:
    """2 players and the largest count."""
    return sorted({max(2, game.min_players), game.max_players})


def play(game: Game, specs: list[str], seed: int) -> tuple[list[tuple[int, str]], Any]:
    """One game between agent specs, every action checked by `Game.apply`; the actions and the final state."""
    agents = [make_agent(spec, seed * 7 + seat) for seat, spec in enumerate(specs)]
    state = game.new(len(specs), seed)
    actions = []
    while not game.is_over(state):
        for seat in game.to_move(state):
            if seat in game.to_move(state) and not game.is_over(state):
                action = agents[seat].choose(SeatInfo(game, state, seat))
                game.apply(state, seat, action)  # raises IllegalAction on anything illegal
                actions.append((seat, action))
    return actions, state


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("spec", SPECS)
def test_same_seed_same_decisions(name: str, spec: str) -> None:
    """An agent made from the same spec and seed decides the same in the same positions, and reseeds."""
    game = get_game(name)
    players = max(2, game.min_players)
    states = positions(game, players, seed=11, count=6)
    first, second = make_agent(spec, 5), make_agent(spec, 5)
    for state in states:
        seat = game.to_move(state)[0]
        assert first.choose(SeatInfo(game, state, seat)) == second.choose(SeatInfo(game, state, seat))
    second.reseed(99)
    first.reseed(99)
    state = states[len(states) // 2]
    seat = game.to_move(state)[0]
    assert first.choose(SeatInfo(game, state, seat)) == second.choose(SeatInfo(game, state, seat))


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("spec", SPECS)
def test_no_peeking(name: str, spec: str) -> None:
    """Shuffling what a seat cannot see (a determinization for that seat) never changes its decision."""
    game = get_game(name)
    checked = 0
    for players in counts(game):
        for state in positions(game, players, seed=23 + players, count=5):
            for seat in game.to_move(state):
                if len(game.legal_actions(state, seat)) < 2:
                    continue
                for shuffle in range(2):
                    other = game.determinize(state, seat, random.Random(1000 + shuffle))
                    assert game.view(other, seat) == game.view(state, seat)
                    original = make_agent(spec, 3).choose(SeatInfo(game, state, seat))
                    shuffled = make_agent(spec, 3).choose(SeatInfo(game, other, seat))
                    assert original == shuffled, f"{spec} in {name} changed its decision when hidden cards moved"
                    checked += 1
    assert checked > 0


class PeekingAgent(Agent):
    """A cheating agent that reads the true state (to show the no-peeking test can fail)."""

    def choose(self, info: SeatInfo) -> str:
        """Picks by a hash of the hidden state."""
        actions = info.legal_actions()
        return actions[zlib.crc32(pickle.dumps(info._state)) % len(actions)]


def test_the_no_peeking_test_catches_a_cheat() -> None:
    """The check above fails for an agent that reads hidden information."""
    game = get_game("flowers")
    caught = 0
    for state in positions(game, 2, seed=3, count=12):
        seat = game.to_move(state)[0]
        if len(game.legal_actions(state, seat)) < 2:
            continue
        other = game.determinize(state, seat, random.Random(1))
        if other == state:
            continue
        cheat = PeekingAgent()
        if cheat.choose(SeatInfo(game, state, seat)) != cheat.choose(SeatInfo(game, other, seat)):
            caught += 1
    assert caught > 0


@pytest.mark.parametrize("name", game_names())
def test_only_legal_actions_over_thousands_of_decisions(name: str) -> None:
    """Every agent, in every player count, only ever returns legal actions (checked by Game.apply)."""
    game = get_game(name)
    decisions = {spec: 0 for spec in SPECS}
    seed = 0
    while min(decisions.values()) < 60 or sum(decisions.values()) < 1000:
        for players in counts(game):
            specs = [SPECS[(seed + seat) % len(SPECS)] for seat in range(players)]
            actions, state = play(game, specs, seed)
            assert game.is_over(state)
            for seat, _ in actions:
                decisions[specs[seat]] += 1
            seed += 1
        assert seed < 400, f"too few decisions in {name}: {decisions}"


@pytest.mark.parametrize("name", own_game_names())
def test_greedy_beats_random(name: str) -> None:
    """A small seeded ladder: greedy wins most of 8 two-player games against random (the same every run).

    tablepress's own games only: their heuristics are tuned; a plugin's greedy player may judge by score alone."""
    rung = run_rung(name, 2, "greedy:1", "random", games=8, seed=1)
    assert rung.games == 8
    assert rung.wins >= 6, f"greedy won only {rung.wins} of 8 {name} games against random"


def test_agents_pickle_and_keep_deciding_the_same() -> None:
    """Agents pickle (process pools, Ray) mid-game and the copy decides exactly as the original."""
    game = get_game("flowers")
    state = positions(game, 2, seed=4, count=3)[1]
    seat = game.to_move(state)[0]
    for spec in SPECS:
        agent = make_agent(spec, 8)
        agent.choose(SeatInfo(game, state, seat))
        copy = pickle.loads(pickle.dumps(agent))
        assert copy.choose(SeatInfo(game, state, seat)) == agent.choose(SeatInfo(game, state, seat))


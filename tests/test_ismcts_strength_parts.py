"""The rollout improvement of greedy (`RolloutImprovement`): greedy's best actions compared by greedy rollouts on
shared determinizations."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tablepress.agents import rollout_improvement
from tablepress.agents.decision import Decision
from tablepress.agents.evaluation import fast_step_values_for, heuristic_for, turn_goes_on_for
from tablepress.agents.greedy import GreedyAgent, action_values
from tablepress.agents.ismcts import IsmctsAgent
from tablepress.agents.presets import Backup, RolloutImprovement, TreeSearch
from tablepress.agents.rollout_improvement import Tally, best_half, greedy_rollout, halving_rounds
from tablepress.core.match import SeatInfo
from tablepress.core.registry import get_game


def _position(name: str, players: int, seed: int, moves: int) -> tuple[Any, Any, int]:
    """A game `moves` greedy decisions in: (game, state, seat to move next)."""
    game = get_game(name)
    state = game.new(players, seed)
    greedy = GreedyAgent(seed=seed)
    for _ in range(moves):
        seat = game.to_move(state)[0]
        game.apply_legal(state, seat, greedy.choose(SeatInfo(game, state, seat)))
    return game, state, game.to_move(state)[0]


@pytest.mark.parametrize("name", ["by-this", "pressed"])
def test_a_rollout_step_is_the_greedy_players_move(name: str) -> None:
    """In a determinization a rollout step takes an action of the best greedy value (greedy's whole-turn
    lookahead with that one state), as the greedy agent would if it saw that state."""
    game, state, seat = _position(name, 3, 6, 5)
    rival = (seat + 1) % 3
    game.apply_legal(state, seat, game.legal_actions(state, seat)[0])
    mover = game.to_move(state)[0]
    assert mover != seat or rival == mover
    legal = game.legal_actions(state, mover)
    values = action_values(game, [game.clone(state)], mover, legal, heuristic_for(game), random.Random(1),
                           step_values=fast_step_values_for(game), turn_goes_on=turn_goes_on_for(game))
    best = {a for a, v in zip(legal, values) if v >= max(values) - 1e-9}
    decision = Decision.of(game, seat, 3, random.Random(4), Backup.BEST, None)
    assert decision.greedy_step(game.clone(state), mover) in best


@pytest.mark.parametrize("name", ["by-this", "pressed"])
def test_the_root_candidates_decide_from_the_seats_information_only(name: str) -> None:
    """Two true states the seat cannot tell apart (another deal of what it does not see) give the same
    search and so the same choice, for the same seed: only determinizations reach the search."""
    game, state, seat = _position(name, 3, 8, 4)
    other = game.determinize(state, seat, random.Random(99))
    assert game.view(other, seat) == game.view(state, seat) and repr(other) != repr(state)
    choices = [IsmctsAgent(seed=5, budget=20, candidates=3).choose(SeatInfo(game, s, seat))
               for s in (state, other, state)]
    assert choices[0] == choices[1] == choices[2]
    assert choices[0] in game.legal_actions(state, seat)


def test_the_rollout_stops_when_the_seats_turn_comes_round() -> None:
    """`rollout_turns=1` plays the rivals' turns after the candidate and cuts off when the searching seat is
    to move again; 2 plays one more round (its own greedy turn and the rivals' replies)."""
    game, state, seat = _position("pressed", 3, 5, 2)
    game.apply_legal(state, seat, game.legal_actions(state, seat)[0])
    moves_of = {}
    for turns in (1, 2):
        leaf = game.clone(state)
        greedy_rollout(Decision.of(game, seat, 3, random.Random(1), Backup.BEST, None), leaf, turns)
        moves_of[turns] = game.turn(leaf) - game.turn(state)
        assert game.is_over(leaf) or seat in game.to_move(leaf)
    assert moves_of[2] > moves_of[1] > 0


@pytest.mark.parametrize(("settings", "name"), [({"rollout_turns": 0}, "rollout_turns"),
                                                ({"candidates": 0}, "candidates"), ({"candidates": 1.5}, "candidates"),
                                                ({"halving": "yes"}, "halving"), ({"prior_samples": -1}, "prior_samples")])
def test_a_bad_rollout_improvement_is_refused_in_one_line_naming_the_setting(settings: dict, name: str) -> None:
    """A rollout that reaches none of the seat's turns, no candidate or a fractional number of them, a halving
    that is not true or false: refused when the preset is made, and when an agent is given it as a change."""
    with pytest.raises(ValueError, match=f"^RolloutImprovement: {name} must be [^\n]*$"):
        RolloutImprovement(**{"candidates": 2, **settings})
    with pytest.raises(ValueError, match=name):
        IsmctsAgent(**settings)


def _spy_rollouts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Each rollout's candidate and the determinization it starts from, as the search runs them."""
    seen: list[tuple[str, int]] = []
    real = rollout_improvement.after

    def spy(game: Any, shared: Any, seat: int, action: str) -> Any:
        seen.append((action, id(shared)))
        return real(game, shared, seat, action)

    monkeypatch.setattr(rollout_improvement, "after", spy)
    return seen


def _spy_judgement(monkeypatch: pytest.MonkeyPatch) -> list[tuple[dict[str, int], list[str]]]:
    """The rollouts by candidate, and the survivors, the final choice is made among."""
    judged: list[tuple[dict[str, int], list[str]]] = []
    real = rollout_improvement.best_mean

    def spy(tally: Tally, prior: dict[str, float], survivors: list[str]) -> str:
        judged.append((dict(tally.n), list(survivors)))
        return real(tally, prior, survivors)

    monkeypatch.setattr(rollout_improvement, "best_mean", spy)
    return judged


def test_root_candidates_compare_greedys_best_actions_on_shared_determinizations(monkeypatch: pytest.MonkeyPatch) -> None:
    """With `candidates=k` only greedy's k best-judged root actions are tried, each on the same
    determinizations (as many rollouts each), and the choice is the best mean among them; repeatable."""
    game, state, seat = _position("pressed", 3, 2, 3)
    info = SeatInfo(game, state, seat)
    assert len(info.legal_actions()) > 4
    choices = []
    for _ in range(2):
        seen = _spy_rollouts(monkeypatch)
        choices.append(IsmctsAgent(seed=7, budget=12, candidates=3, halving=False).choose(info))
        monkeypatch.undo()
        tried = {action for action, _ in seen}
        assert len(seen) == 12 and len(tried) == 3
        for start in range(0, 12, 3):  # each group of three rollouts shares one determinization
            assert len({shared for _, shared in seen[start:start + 3]}) == 1
    assert choices[0] == choices[1] and choices[0] in tried


def test_each_game_declares_its_algorithm_and_an_agents_own_search_wins() -> None:
    """By This and Pressed compare greedy's best actions at every player count, Flowers and Planted search a
    tree (Planted with the defaults); an agent given a search, or a change, uses it instead."""
    agent = IsmctsAgent()
    for players in (2, 3, 4):
        assert agent.preset_for(get_game("by-this"), players) == RolloutImprovement(candidates=4, rollout_turns=3)
        assert agent.preset_for(get_game("planted"), players) == TreeSearch()
        assert isinstance(agent.preset_for(get_game("flowers"), players), TreeSearch)
    assert IsmctsAgent(search=TreeSearch()).preset_for(get_game("by-this"), 3) == TreeSearch()
    assert IsmctsAgent(rollout_turns=2).preset_for(get_game("by-this"), 3) == RolloutImprovement(candidates=4,
                                                                                               rollout_turns=2)


def test_a_rollout_improvement_runs_its_budget_in_rollouts() -> None:
    """Every rollout is one iteration: a budget of 4 runs 4."""
    game, state, seat = _position("flowers", 2, 4, 2)
    agent = IsmctsAgent(seed=1, budget=4, search=RolloutImprovement(candidates=2, rollout_turns=2))
    agent.choose(SeatInfo(game, state, seat))
    assert agent.last_iterations == 4


@pytest.mark.parametrize("budget, counted", [(7, 2), (2, 1)])
def test_a_budget_ending_inside_a_group_counts_whole_groups_only(monkeypatch: pytest.MonkeyPatch, budget: int,
                                                                 counted: int) -> None:
    """With 3 candidates and 7 rollouts the seventh (a group begun, not finished) is not counted, so every
    candidate is judged on the same determinizations; a budget inside the first group keeps what it has."""
    game, state, seat = _position("pressed", 3, 2, 3)
    agent = IsmctsAgent(seed=7, budget=budget, candidates=3, halving=False)
    judged = _spy_judgement(monkeypatch)
    agent.choose(SeatInfo(game, state, seat))
    assert agent.last_iterations == budget
    if budget >= 3:
        assert sorted(judged[0][0].values()) == [counted] * 3
    else:
        assert sum(judged[0][0].values()) == budget


@pytest.mark.parametrize("budget, candidates, plan", [(300, 12, [6, 12, 25, 37]), (60, 8, [2, 5, 10]),
                                                      (300, 3, [50, 75]), (10, 2, [5]), (5, 16, [1, 1, 1, 1])])
def test_halving_splits_the_budget_evenly_over_log2_rounds(budget: int, candidates: int, plan: list[int]) -> None:
    """Sequential halving's plan: ceil(log2 k) rounds of about budget / rounds rollouts each, so every round's
    groups (one rollout per survivor) shrink the field by half (at least one group a round)."""
    assert halving_rounds(budget, candidates) == plan


def test_the_better_half_is_kept_in_the_roots_order() -> None:
    """After a round the survivors with the better mean rollout reward go on (ties by the prior), in the order
    greedy ranked them; at least two are left for the last comparison."""
    tally, prior = Tally(), {}
    for action, (reward, judged) in {"a": (1.0, 0.0), "b": (3.0, 0.0), "c": (2.0, 1.0), "d": (2.0, 0.5),
                                     "e": (0.0, 9.0)}.items():
        tally.add(action, 2, 2 * reward)
        prior[action] = judged
    assert best_half(tally, prior, ["a", "b", "c", "d", "e"]) == ["b", "c", "d"]
    assert best_half(tally, prior, ["a", "e", "d"]) == ["a", "d"]
    assert best_half(tally, prior, ["a", "e"]) == ["a", "e"]


@pytest.mark.parametrize("halving, counts", [(True, [2, 2, 2, 2, 7, 7, 19, 19]), (False, [7] * 8)])
def test_halving_gives_the_finalists_the_most_rollouts(monkeypatch: pytest.MonkeyPatch, halving: bool,
                                                       counts: list[int]) -> None:
    """With `halving` the 8 candidates' 60 rollouts go 2 each to all, 5 more to the better 4 and the rest
    (12 each) to the better 2, and the choice is a finalist; without it every candidate has the same number."""
    game, state, seat = _position("by-this", 2, 3, 4)
    info = SeatInfo(game, state, seat)
    assert len(info.legal_actions()) >= 8
    judged = _spy_judgement(monkeypatch)
    choice = IsmctsAgent(seed=7, budget=60, candidates=8, halving=halving).choose(info)
    visits, survivors = judged[0]
    assert sorted(visits.values()) == counts
    assert choice in survivors and len(survivors) == (2 if halving else 8)
    assert {action for action, n in visits.items() if n == max(counts)} == set(survivors)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_pressed_searches_by_halving_greedys_best_actions(players: int) -> None:
    """Pressed's preset replaces the tree at every player count: 12 root candidates by sequential halving,
    rollouts through the seat's next turn."""
    preset = IsmctsAgent().preset_for(get_game("pressed"), players)
    assert preset == RolloutImprovement(candidates=12, halving=True, rollout_turns=2)

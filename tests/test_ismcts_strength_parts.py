"""The root-candidates mode of ismcts: greedy's best actions compared by greedy rollouts on shared determinizations."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tablepress.agents.evaluation import fast_step_values_for, heuristic_for, search_hints_for, turn_goes_on_for
from tablepress.agents.greedy import GreedyAgent, action_values
from tablepress.agents.ismcts import IsmctsAgent, Node, _Fast
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
    agent = IsmctsAgent(seed=4)
    fast = _Fast(fast_step_values_for(game), None)
    chosen = agent._greedy_step(game, game.clone(state), mover, heuristic_for(game), fast, turn_goes_on_for(game))
    assert chosen in best


@pytest.mark.parametrize("name", ["by-this", "pressed"])
def test_the_root_candidates_decide_from_the_seats_information_only(name: str) -> None:
    """Two true states the seat cannot tell apart (another deal of what it does not see) give the same
    search and so the same choice, for the same seed: only determinizations reach the search."""
    game, state, seat = _position(name, 3, 8, 4)
    other = game.determinize(state, seat, random.Random(99))
    assert game.view(other, seat) == game.view(state, seat) and repr(other) != repr(state)
    choices = [IsmctsAgent(seed=5, budget=20, root_candidates=3).choose(SeatInfo(game, s, seat))
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
        agent = IsmctsAgent(seed=1, rollout_turns=turns)
        agent._players, agent._turns = 3, turns
        leaf = game.clone(state)
        agent._greedy_rollout(game, leaf, heuristic_for(game), seat)
        moves_of[turns] = game.turn(leaf) - game.turn(state)
        assert game.is_over(leaf) or seat in game.to_move(leaf)
    assert moves_of[2] > moves_of[1] > 0


def test_a_rollout_of_no_turns_is_refused() -> None:
    """A rollout that reaches none of the seat's turns is a clear error."""
    with pytest.raises(ValueError, match="rollout_turns"):
        IsmctsAgent(rollout_turns=0)


def test_root_candidates_compare_greedys_best_actions_on_shared_determinizations() -> None:
    """With `root_candidates=k` only greedy's k best-judged root actions are tried, each on the same
    determinizations (as many rollouts each), and the choice is the best mean among them; repeatable."""
    game, state, seat = _position("pressed", 3, 2, 3)
    info = SeatInfo(game, state, seat)
    legal = info.legal_actions()
    assert len(legal) > 4
    choices = []
    for _ in range(2):
        agent = IsmctsAgent(seed=7, budget=12, root_candidates=3)
        seen: list[tuple[str, int]] = []
        real = agent._flat_rollout

        def spy(game_: Any, shared: Any, root: Node, action: str, *rest: Any) -> None:
            seen.append((action, id(shared)))
            real(game_, shared, root, action, *rest)

        agent._flat_rollout = spy  # type: ignore[method-assign]
        choices.append(agent.choose(info))
        tried = {action for action, _ in seen}
        assert len(seen) == 12 and len(tried) == 3
        for start in range(0, 12, 3):  # each group of three rollouts shares one determinization
            assert len({shared for _, shared in seen[start:start + 3]}) == 1
    assert choices[0] == choices[1] and choices[0] in tried


def test_a_negative_number_of_root_candidates_is_refused() -> None:
    """root_candidates counts actions: a negative count is a clear error."""
    with pytest.raises(ValueError, match="root_candidates"):
        IsmctsAgent(root_candidates=-1)


def test_a_game_may_ask_for_root_candidates(monkeypatch: pytest.MonkeyPatch) -> None:
    """`root_candidates` and `rollout_turns` come from the game's heuristics.SEARCH when the agent is not
    given them (by default the tree searches every seat, as before); given ones win. By This asks for them."""
    from tablepress.agents import ismcts

    game, state, seat = _position("pressed", 3, 4, 2)
    info = SeatInfo(game, state, seat)
    plain = IsmctsAgent(seed=1, budget=3)
    plain.choose(info)
    assert plain._candidates == 0
    monkeypatch.setattr(ismcts, "search_hints_for", lambda game: {"root_candidates": 2, "rollout_turns": 2})
    hinted = IsmctsAgent(seed=1, budget=4)
    hinted.choose(info)
    assert (hinted._candidates, hinted._turns) == (2, 2)
    assert hinted.last_iterations == 4
    given = IsmctsAgent(seed=1, budget=3, root_candidates=0, rollout_turns=1)
    given.choose(info)
    assert (given._candidates, given._turns) == (0, 1)
    monkeypatch.undo()
    assert search_hints_for(get_game("by-this")) == {"root_candidates": 4, "rollout_turns": 3}


@pytest.mark.parametrize("budget, counted", [(7, 2), (2, 1)])
def test_a_budget_ending_inside_a_group_counts_whole_groups_only(budget: int, counted: int) -> None:
    """With 3 candidates and 7 rollouts the seventh (a group begun, not finished) is not counted, so every
    candidate is judged on the same determinizations; a budget inside the first group keeps what it has."""
    game, state, seat = _position("pressed", 3, 2, 3)
    agent = IsmctsAgent(seed=7, budget=budget, root_candidates=3)
    judged: list[dict[str, int]] = []
    real = agent._best_mean

    def spy(root: Node) -> str:
        judged.append(dict(root.n))
        return real(root)

    agent._best_mean = spy  # type: ignore[method-assign]
    agent.choose(SeatInfo(game, state, seat))
    assert agent.last_iterations == budget
    if budget >= 3:
        assert sorted(judged[0].values()) == [counted] * 3
    else:
        assert sum(judged[0].values()) == budget

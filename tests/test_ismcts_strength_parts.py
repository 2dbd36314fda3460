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
        agent = IsmctsAgent(seed=7, budget=12, root_candidates=3, root_halving=False)
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
    given them (by default the tree searches every seat, as before: Flowers asks for none); given ones win.
    By This asks for them."""
    from tablepress.agents import ismcts

    game, state, seat = _position("flowers", 2, 4, 2)
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
    agent = IsmctsAgent(seed=7, budget=budget, root_candidates=3, root_halving=False)
    judged: list[dict[str, int]] = []
    real = agent._best_mean

    def spy(root: Node, survivors: list[str]) -> str:
        judged.append(dict(root.n))
        return real(root, survivors)

    agent._best_mean = spy  # type: ignore[method-assign]
    agent.choose(SeatInfo(game, state, seat))
    assert agent.last_iterations == budget
    if budget >= 3:
        assert sorted(judged[0].values()) == [counted] * 3
    else:
        assert sum(judged[0].values()) == budget


@pytest.mark.parametrize("budget, candidates, plan", [(300, 12, [6, 12, 25, 37]), (60, 8, [2, 5, 10]),
                                                      (300, 3, [50, 75]), (10, 2, [5]), (5, 16, [1, 1, 1, 1])])
def test_halving_splits_the_budget_evenly_over_log2_rounds(budget: int, candidates: int, plan: list[int]) -> None:
    """Sequential halving's plan: ceil(log2 k) rounds of about budget / rounds rollouts each, so every round's
    groups (one rollout per survivor) shrink the field by half (at least one group a round)."""
    from tablepress.agents.ismcts import halving_rounds

    assert halving_rounds(budget, candidates) == plan


def test_the_better_half_is_kept_in_the_roots_order() -> None:
    """After a round the survivors with the better mean rollout reward go on (ties by the prior), in the order
    greedy ranked them; at least two are left for the last comparison."""
    from tablepress.agents.ismcts import _best_half

    root = Node()
    for action, (reward, prior) in {"a": (1.0, 0.0), "b": (3.0, 0.0), "c": (2.0, 1.0), "d": (2.0, 0.5),
                                    "e": (0.0, 9.0)}.items():
        root.n[action], root.w[action], root.prior[action] = 2, 2 * reward, prior
    assert _best_half(root, ["a", "b", "c", "d", "e"]) == ["b", "c", "d"]
    assert _best_half(root, ["a", "e", "d"]) == ["a", "d"]
    assert _best_half(root, ["a", "e"]) == ["a", "e"]


@pytest.mark.parametrize("halving, counts", [(True, [2, 2, 2, 2, 7, 7, 19, 19]), (False, [7] * 8)])
def test_halving_gives_the_finalists_the_most_rollouts(halving: bool, counts: list[int]) -> None:
    """With `root_halving` the 8 candidates' 60 rollouts go 2 each to all, 5 more to the better 4 and the rest
    (12 each) to the better 2, and the choice is a finalist; without it every candidate has the same number."""
    game, state, seat = _position("by-this", 2, 3, 4)
    info = SeatInfo(game, state, seat)
    assert len(info.legal_actions()) >= 8
    agent = IsmctsAgent(seed=7, budget=60, root_candidates=8, root_halving=halving)
    judged: list[tuple[dict[str, int], list[str]]] = []
    real = agent._best_mean

    def spy(root: Node, survivors: list[str]) -> str:
        judged.append((dict(root.n), list(survivors)))
        return real(root, survivors)

    agent._best_mean = spy  # type: ignore[method-assign]
    choice = agent.choose(info)
    visits, survivors = judged[0]
    assert sorted(visits.values()) == counts
    assert choice in survivors and len(survivors) == (2 if halving else 8)
    assert {action for action, n in visits.items() if n == max(counts)} == set(survivors)


def test_root_candidates_and_rollout_turns_may_be_hinted_by_the_number_of_players(monkeypatch: pytest.MonkeyPatch) -> None:
    """`root_candidates_by_players` and `rollout_turns_by_players` set them for one player count only (the
    others get the plain hint or the default); a count below its least (0 candidates, 1 turn), a number that
    is not whole and a `root_halving` that is not true or false are refused in one line."""
    from tablepress.agents import ismcts

    monkeypatch.setattr(ismcts, "search_hints_for", lambda game: {
        "root_candidates_by_players": {3: 2}, "rollout_turns_by_players": {3: 2}, "rollout_turns": 3})
    for players, expected in ((3, (2, 2)), (2, (0, 3))):
        game, state, seat = _position("pressed", players, 4, 2)
        agent = IsmctsAgent(seed=1, budget=4)
        agent.choose(SeatInfo(game, state, seat))
        assert (agent._candidates, agent._turns) == expected
    for bad, message in (({"root_candidates_by_players": {"3": 2}}, "whole number of 0 or more"),
                         ({"root_candidates": 1.5}, "whole number of 0 or more"),
                         ({"rollout_turns_by_players": {3: -1}}, "whole number of 1 or more"),
                         ({"rollout_turns": 0}, "whole number of 1 or more"),
                         ({"root_halving": "yes"}, "root_halving 'yes': it must be true or false")):
        monkeypatch.setattr(ismcts, "search_hints_for", lambda game, bad=bad: bad)
        with pytest.raises(ValueError, match=message):
            IsmctsAgent(seed=1, budget=4).choose(SeatInfo(game, state, seat))
    with pytest.raises(ValueError, match="root_halving must be true or false, not 'no'"):
        IsmctsAgent(root_halving="no")  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "candidates"), [(2, 12), (3, 12), (4, 12), (5, 12)])
def test_pressed_searches_by_halving_greedys_best_actions(players: int, candidates: int) -> None:
    """Pressed's hints replace the tree at every player count: 12 root candidates by sequential halving,
    rollouts through the seat's next turn; an agent's own setting wins."""
    game, state, seat = _position("pressed", players, 4, 2)
    info = SeatInfo(game, state, seat)
    hinted = IsmctsAgent(seed=1, budget=30)
    hinted.choose(info)
    assert (hinted._candidates, hinted._halving, hinted._turns) == (candidates, True, 2)
    told = IsmctsAgent(seed=1, budget=30, root_candidates=0, root_halving=False)
    told.choose(info)
    assert (told._candidates, told._halving) == (0, False)

"""What makes the agents strong: By This's shelf race (closing now weighed against keeping) and the
search's backups for more than two players. Strength itself is measured on the ladder, not here."""

from __future__ import annotations

import random

import pytest

from tablepress.agents.greedy import GreedyAgent
from tablepress.agents.ismcts import IsmctsAgent
from tablepress.agents.presets import Backup, Rivals, TreeSearch
from tablepress.agents.rewards import relative_values
from tablepress.agents.tree_search import TreeSearcher
from tablepress.core.match import Match, SeatInfo
from tablepress.core.registry import get_game
from tablepress.games.by_this.heuristics import GROWTH_DISCOUNT, TURN_DISCOUNT, seat_value, shelf_race
from tablepress.games.by_this.scoring import close_points
from tablepress.games.by_this.state import CLOSE_STEP, PLAY

BY_THIS = get_game("by-this")
FLOWERS = get_game("flowers")
SMALL_TO_LARGE = BY_THIS.key_by_plain["Small to Large"]


def things(*names: str) -> list[int]:
    """Card ids of things by name."""
    return [BY_THIS.by_name[name] for name in names]


def position(players: int, shelf: list[str], hands: list[list[str]], phase: str = PLAY, floor: tuple[str, ...] = ()):
    """A By This state under Small → Large with the given shelf, hands and Floor, seat 0 to act, no deck."""
    state = BY_THIS.new(players, 1)
    state.key, state.phase, state.current = SMALL_TO_LARGE, phase, 0
    state.shelf = things(*shelf)
    state.hands = [sorted(things(*hand)) for hand in hands]
    state.floor = things(*floor)
    state.deck = []
    return state


def test_a_shelf_goes_to_the_first_seat_that_can_make_it_long_enough() -> None:
    """Sizes 1, 2, 10 take only a 1 on the left or a 10 on the right: seat 0 (Coin, Hat) cannot extend the
    shelf to the 4 a close needs; seat 1 (Mountain) can, and the race credits the close to seat 1, one
    turn ahead and needing its own placement."""
    state = position(3, ["Ant", "Needle", "Oak"], [["Coin", "Hat"], ["Mountain"], ["Key"]])
    shares = shelf_race(BY_THIS, state)
    expected = GROWTH_DISCOUNT * TURN_DISCOUNT * close_points([1, 2, 10, 10])
    assert shares[1] == pytest.approx(expected)
    assert shares[0] < shares[1]


def test_a_kept_shelf_is_the_next_seats_and_greedy_closes_it() -> None:
    """At the close step, keeping offers the shelf to the next player, who may close it after extending:
    the race credits it there, so greedy closes (a greedy that keeps a minimum shelf loses every game:
    0 of 200 at 2 players on the ladder)."""
    state = position(3, ["Ant", "Rice", "Needle", "Hat"], [["Coin"], ["Oak"], ["Key"]], phase=CLOSE_STEP)
    kept = BY_THIS.clone(state)
    BY_THIS.apply_legal(kept, 0, "keep")
    assert seat_value(BY_THIS, kept, 1) >= close_points(BY_THIS.shelf_numbers(state))
    info = SeatInfo(BY_THIS, state, 0)
    assert GreedyAgent(seed=1).choose(info) == "close"


def test_with_four_players_the_closer_is_placed_to_close_the_next_shelf_too() -> None:
    """After a close the next four placements build the next shelf: with 4 players the fourth lands on the
    closer's turn again, and the race credits the next shelf to the seat that just closed."""
    state = position(4, ["Ant", "Rice", "Needle", "Hat"],
                     [["Coin"], ["Key", "Pencil"], ["Lemon", "Tent"], ["Violin", "Whale"]], phase=CLOSE_STEP)
    BY_THIS.apply_legal(state, 0, "close")
    assert state.current == 1 and state.shelf == []
    shares = shelf_race(BY_THIS, state)
    assert shares[0] > 0 and shares[0] == max(shares)


def test_rewards_for_more_than_two_players() -> None:
    """A seat's reward is its margin over the best rival, over the rivals' mean, or its own value."""
    values = [5.0, 3.0, 1.0]
    assert relative_values(values, "best") == [2.0, -2.0, -4.0]
    assert relative_values(values, "mean") == [3.0, 0.0, -3.0]
    assert relative_values(values, "own") == values
    assert relative_values([4.0], "mean") == [4.0]


@pytest.mark.parametrize("backup", ["mean", "own"])
def test_the_search_backs_up_any_reward(backup: str) -> None:
    """ISMCTS with another backup still decides legally and repeatably; an unknown backup is refused."""
    match = Match(BY_THIS, 3, 4)
    rng = random.Random(2)
    for _ in range(6):
        seat = match.next_mover()
        match.act(seat, rng.choice(match.legal(seat)))
    seat = match.next_mover()
    chosen = [IsmctsAgent(seed=3, budget=30, backup=backup).choose(match.seat_info(seat)) for _ in range(2)]
    assert chosen[0] == chosen[1] and chosen[0] in match.legal(seat)
    with pytest.raises(ValueError, match="backup"):
        IsmctsAgent(backup="paranoid")


def _flowers_decision(players: int) -> SeatInfo:
    """A Flowers draw decision a few turns into a game of `players`."""
    match = Match(get_game("flowers"), players, 7)
    rng = random.Random(1)
    for _ in range(4 * players):
        seat = match.next_mover()
        match.act(seat, rng.choice(match.legal(seat)))
    return match.seat_info(match.next_mover())


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_flowers_search_backs_up_its_own_value(players: int) -> None:
    """Flowers' presets ask every seat to back up its own value at every count; the search then plays as if
    given that backup, and an agent's own backup wins over the game's."""
    info = _flowers_decision(max(players, 2))
    assert IsmctsAgent().preset_for(FLOWERS, players).backup == Backup.OWN
    chosen = IsmctsAgent(seed=3, budget=20).choose(info)
    assert IsmctsAgent(seed=3, budget=20, backup="own").choose(info) == chosen
    assert IsmctsAgent(backup="mean").preset_for(FLOWERS, players).backup == Backup.MEAN


@pytest.mark.parametrize(("players", "expected", "depth"), [(1, "tree", 1), (2, "tree", 1), (3, "greedy", 2),
                                                            (4, "policy", 3)])
def test_flowers_search_moves_the_rivals_outside_the_tree_from_three_players(players: int, expected: str,
                                                                           depth: int) -> None:
    """Flowers' presets choose how rivals move, and roll out one step per rival, by the number of players;
    an agent's own setting wins."""
    preset = IsmctsAgent().preset_for(FLOWERS, players)
    assert isinstance(preset, TreeSearch)
    assert (preset.rivals, preset.rollout_depth, preset.rollout_sample) == (expected, depth, 8)
    assert IsmctsAgent(rivals="tree").preset_for(FLOWERS, players).rivals == Rivals.TREE


@pytest.mark.parametrize("rivals", ["tree", "policy", "random", "greedy"])
def test_with_policy_rivals_the_tree_holds_only_the_searching_seats_decisions(
        rivals: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With `rivals="policy"`, "random" or "greedy" no rival's decision becomes a tree node (none is ever ranked into
    one) and the searching seat's own next turn is reached inside the tree; with the tree, rivals' nodes
    are searched."""
    info = _flowers_decision(3)
    agent = IsmctsAgent(seed=4, budget=60, rivals=rivals)
    ranked: list[int] = []
    rank = TreeSearcher.rank

    def recording_rank(self, state, node, seat, *rest):
        ranked.append(seat)
        return rank(self, state, node, seat, *rest)

    monkeypatch.setattr(TreeSearcher, "rank", recording_rank)
    assert agent.choose(info) in info.legal_actions()
    others = {seat for seat in ranked if seat != info.seat}
    if rivals != "tree":
        assert not others and len(ranked) > 2  # its draw, its placement, and decisions of its next turn
    else:
        assert others


@pytest.mark.parametrize("rivals", ["policy", "random"])
def test_random_rivals_take_no_rollout_step(rivals: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With `rivals="random"` a rival's every step inside the search (in the tree's place, in the rollouts
    and finishing its turn) is a random legal action, never a rollout step judged by the heuristic; with
    policy rivals the rivals' steps are judged."""
    info = _flowers_decision(4)
    agent = IsmctsAgent(seed=4, budget=40, rivals=rivals, backup="own")
    stepped: list[int] = []
    rollout_step = TreeSearcher.rollout_step

    def recording_step(self, state, seat, *rest):
        stepped.append(seat)
        return rollout_step(self, state, seat, *rest)

    monkeypatch.setattr(TreeSearcher, "rollout_step", recording_step)
    assert agent.choose(info) in info.legal_actions()
    rival_steps = {seat for seat in stepped if seat != info.seat}
    assert info.seat in stepped
    assert bool(rival_steps) == (rivals == "policy")


@pytest.mark.parametrize("rivals", ["tree", "policy", "random"])
def test_with_random_rivals_a_cut_off_values_only_the_searcher(
        rivals: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With random rivals and the "own" backup a cut-off values only the searching seat (no rival's reward
    is backed up); the rivals are valued once, at the root, for the rewards' scale. With the rivals in the
    tree or moved by policy every cut-off values every seat (their rewards set the scale)."""
    from tablepress.agents import decision

    info = _flowers_decision(4)
    agent = IsmctsAgent(seed=4, budget=40, rivals=rivals, backup="own")
    valued: list[int] = []
    value = decision.seat_value_for(info.game)

    def recording_value(game, state, seat):
        valued.append(seat)
        return value(game, state, seat)

    monkeypatch.setattr(decision, "seat_value_for", lambda game: recording_value)
    assert agent.choose(info) in info.legal_actions()
    rivals_valued = [seat for seat in valued if seat != info.seat]
    assert valued.count(info.seat) >= 40
    if rivals == "random":
        assert sorted(rivals_valued) == sorted(set(range(4)) - {info.seat})
    else:
        assert len(rivals_valued) >= 3 * 40


@pytest.mark.parametrize("rivals", ["policy", "greedy"])
def test_greedy_rivals_move_as_the_greedy_player_would(rivals: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With `rivals="greedy"` every rival step inside the search is the greedy player's choice in that
    determinization: an action of the best whole-turn value (`greedy.action_values`, so a draw is valued by
    the best place for the card drawn). Rivals by policy (the best of a few sampled steps, each valued
    alone) are not: a mutant of the greedy branch fails here."""
    from tablepress.agents.evaluation import fast_step_values_for, heuristic_for, turn_goes_on_for
    from tablepress.agents.greedy import action_values

    info = _flowers_decision(3)
    game = info.game
    agent = IsmctsAgent(seed=4, budget=30, rivals=rivals)
    steps: list[tuple[object, int, object]] = []
    rival_step = TreeSearcher.rival_step

    def recording_step(self, state, seat, legal):
        before = game.clone(state)
        rival_step(self, state, seat, legal)
        steps.append((before, seat, game.clone(state)))

    monkeypatch.setattr(TreeSearcher, "rival_step", recording_step)
    assert agent.choose(info) in info.legal_actions()
    assert len(steps) > 30

    def greedy_made(before, seat, after) -> bool:
        legal = game.legal_actions(before, seat)
        values = action_values(game, [before], seat, legal, heuristic_for(game), random.Random(0),
                               step_values=fast_step_values_for(game), turn_goes_on=turn_goes_on_for(game))
        best = max(values)
        for action, value in zip(legal, values):
            if value >= best - 1e-9:
                child = game.clone(before)
                game.apply_legal(child, seat, action)
                if child == after:
                    return True
        return False

    made = [greedy_made(*step) for step in steps]
    assert all(made) == (rivals == "greedy")


def test_a_bad_rivals_setting_is_refused() -> None:
    """An unknown `rivals` is a clear error, from the agent's changes or from a preset."""
    with pytest.raises(ValueError, match="rivals must be one of tree, policy, random, greedy, not 'oracle'"):
        IsmctsAgent(rivals="oracle")
    with pytest.raises(ValueError, match="^TreeSearch: rivals must be one of tree, policy, random, greedy, not 'oracle'$"):
        TreeSearch(rivals="oracle")  # type: ignore[arg-type]

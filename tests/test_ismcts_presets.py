"""Search presets (agents/presets.py): typed, checked when made, chosen by the game and the number of players."""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError

import pytest

from tablepress.agents.base import Seconds, make_agent
from tablepress.agents.evaluation import search_presets_for
from tablepress.agents.ismcts import IsmctsAgent
from tablepress.agents.presets import (Backup, RolloutImprovement, RolloutPolicy, Rivals, TreeSearch, by_players,
                                       preset_for)
from tablepress.core.match import SeatInfo
from tablepress.core.registry import game_names, get_game


@pytest.mark.parametrize("make", [lambda: TreeSearch(rivalz=Rivals.POLICY),  # type: ignore[call-arg]
                                  lambda: RolloutImprovement(candidates=4, rollout_turn=3),  # type: ignore[call-arg]
                                  lambda: RolloutImprovement(candidate=4)])  # type: ignore[call-arg]
def test_a_mistyped_setting_in_a_preset_is_an_error_naming_it(make) -> None:
    """A typo in a preset fails when the game declares it, naming the setting: it cannot leave the agent on
    another algorithm's defaults (the old hints' silent fallback to the plain tree)."""
    with pytest.raises(TypeError, match="unexpected keyword argument '(rivalz|rollout_turn|candidate)'"):
        make()


def test_a_mistyped_change_to_the_agent_is_an_error_naming_it() -> None:
    """An agent's changes are checked by name when it is made, in one line."""
    with pytest.raises(ValueError, match="^unknown search setting 'root_candidate' [^\n]*$"):
        IsmctsAgent(root_candidate=4)


@pytest.mark.parametrize(("settings", "name"), [
    ({"exploration": -0.1}, "exploration"), ({"widening": float("nan")}, "widening"), ({"rollout_depth": -1}, "rollout_depth"),
    ({"rollout_depth": 1.0}, "rollout_depth"), ({"rollout_sample": 0}, "rollout_sample"),
    ({"prior_weight": -1}, "prior_weight"), ({"prior_samples": -2}, "prior_samples"), ({"finish_turn": 1}, "finish_turn"),
    ({"rollout_policy": "smart"}, "rollout_policy"), ({"backup": "paranoid"}, "backup"), ({"rivals": "oracle"}, "rivals")])
def test_a_bad_tree_search_value_is_a_one_line_error_naming_the_setting(settings: dict, name: str) -> None:
    with pytest.raises(ValueError, match=f"^TreeSearch: {name} must be [^\n]*$"):
        TreeSearch(**settings)


def test_settings_given_as_text_become_their_enums_and_presets_are_frozen() -> None:
    """Text from a command line or JSON names the same choice as the enum; a preset cannot be changed in place."""
    preset = TreeSearch(rivals="greedy", backup="own", rollout_policy="random")  # type: ignore[arg-type]
    assert (preset.rivals, preset.backup, preset.rollout_policy) == (Rivals.GREEDY, Backup.OWN, RolloutPolicy.RANDOM)
    assert preset == TreeSearch(rivals=Rivals.GREEDY, backup=Backup.OWN, rollout_policy=RolloutPolicy.RANDOM)
    with pytest.raises(FrozenInstanceError):
        preset.rivals = Rivals.TREE  # type: ignore[misc]


def test_a_table_gives_each_count_its_preset_and_the_rest_the_default() -> None:
    """Presets by player count: a count named gets its own, another the "default" (else `TreeSearch()`); a
    function of players works the same."""
    table = {2: TreeSearch(rollout_depth=1), "default": RolloutImprovement(candidates=3)}
    assert preset_for(table, 2) == TreeSearch(rollout_depth=1)
    assert preset_for(table, 4) == RolloutImprovement(candidates=3)
    assert preset_for({3: TreeSearch(rollout_depth=2)}, 4) == TreeSearch()
    assert preset_for(lambda players: TreeSearch(rollout_depth=players), 3) == TreeSearch(rollout_depth=3)
    assert preset_for(None, 2) == TreeSearch()


@pytest.mark.parametrize("table", [{"3": TreeSearch()}, {"defualt": TreeSearch()}, {0: TreeSearch()},
                                   {2: {"rivals": "tree"}}])
def test_a_bad_table_is_refused_when_declared_and_when_read(table: dict) -> None:
    """A key that is no player count (a string "3" would never match one, a mistyped "default") or a value
    that is no preset is refused, naming it — when declared and whichever count is asked for."""
    key = repr(next(iter(table)))
    with pytest.raises(ValueError, match=key):
        by_players(table)
    for players in (2, 3):
        with pytest.raises(ValueError, match=key):
            preset_for(table, players)
    with pytest.raises(ValueError, match=key):
        IsmctsAgent(search=table)
    with pytest.raises(ValueError, match="not a TreeSearch or RolloutImprovement"):
        preset_for(lambda players: {"rivals": "tree"}, 2)


@pytest.mark.parametrize("name", game_names())
def test_every_game_declares_a_preset_for_every_player_count(name: str) -> None:
    game = get_game(name)
    for players in range(game.min_players, game.max_players + 1):
        assert isinstance(preset_for(search_presets_for(game), players), (TreeSearch, RolloutImprovement))


def test_changes_apply_to_the_settings_the_chosen_preset_has() -> None:
    """A change is made to whichever preset a decision uses; a rollout depth does not reach a rollout
    improvement (it has none), but its halving does."""
    agent = IsmctsAgent(rollout_depth=0, halving=False)
    by_this, flowers = get_game("by-this"), get_game("flowers")
    assert agent.preset_for(by_this, 2) == RolloutImprovement(candidates=4, rollout_turns=3, halving=False)
    tree = agent.preset_for(flowers, 3)
    assert isinstance(tree, TreeSearch) and tree.rollout_depth == 0 and tree.rivals == Rivals.GREEDY
    with pytest.raises(ValueError, match="halving"):
        IsmctsAgent(halving="yes")


def test_seat_specs_build_the_agent_with_its_budget_and_the_games_presets() -> None:
    """`ismcts:N` and `ismcts:2s` make the agent as before: N iterations or seconds a decision, no search of its
    own; it pickles (process pools) and decides legally."""
    counted, timed, plain = make_agent("ismcts:50", 1), make_agent("ismcts:2s", 1), make_agent("ismcts", 1)
    assert isinstance(counted, IsmctsAgent) and counted.budget == 50 and counted.search is None
    assert isinstance(timed, IsmctsAgent) and timed.budget == Seconds(2.0) and isinstance(timed.budget, Seconds)
    assert isinstance(plain, IsmctsAgent) and plain.budget == 300 and not plain.changes
    game = get_game("pressed")
    state = game.new(3, 4)
    seat = game.to_move(state)[0]
    copy = pickle.loads(pickle.dumps(counted))
    assert copy.choose(SeatInfo(game, state, seat)) == counted.choose(SeatInfo(game, state, seat))
    assert counted.last_iterations == 50

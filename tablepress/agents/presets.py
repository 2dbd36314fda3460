"""Search presets: the settings of the `ismcts` agent's two algorithms as typed, validated values.

A game declares its presets as `heuristics.SEARCH` (its package's `Heuristics.search`): one preset for
every player count, a table `{players: preset, "default": preset}`, or a function of the number of players.
A preset is checked when it is made, so a mistyped setting or a value out of range fails at once with one
line naming the setting; a table is checked when it is declared (`by_players`) or first read.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NoReturn, Union


class Rivals(StrEnum):
    """How the other seats move inside a tree search.

    TREE: each is searched in the tree as a player of its own interests. POLICY: by rollout steps, so the
    tree holds only the searching seat's decisions (an open-loop tree that reaches its next turn within a
    few iterations). RANDOM: as POLICY, but each rival step is a uniformly random legal action, in the tree
    and in the rollouts, and only the searcher's reward is backed up (the cheapest search). GREEDY: as POLICY,
    but each rival step is the greedy player's choice in the determinization.
    """

    TREE = "tree"
    POLICY = "policy"
    RANDOM = "random"
    GREEDY = "greedy"


class Backup(StrEnum):
    """The reward each seat backs up: its margin over the best other seat (BEST), over the others' mean
    (MEAN), or its own value (OWN, max^n on absolute values)."""

    BEST = "best"
    MEAN = "mean"
    OWN = "own"


class RolloutPolicy(StrEnum):
    """A tree search's rollout step: the best one-step heuristic action of a few sampled (GREEDY), or a
    random legal action (RANDOM)."""

    GREEDY = "greedy"
    RANDOM = "random"


def _fail(preset: object, name: str, value: Any, wanted: str) -> NoReturn:
    raise ValueError(f"{type(preset).__name__}: {name} must be {wanted}, not {value!r}")


def _whole(preset: object, name: str, least: int) -> None:
    value = getattr(preset, name)
    if type(value) is not int or value < least:
        _fail(preset, name, value, f"a whole number of {least} or more")


def _number(preset: object, name: str, least: float, optional: bool = False) -> None:
    value = getattr(preset, name)
    if optional and value is None:
        return
    if type(value) not in (int, float) or not math.isfinite(value) or value < least:
        _fail(preset, name, value, f"a number of {least:g} or more")


def _flag(preset: object, name: str) -> None:
    if not isinstance(getattr(preset, name), bool):
        _fail(preset, name, getattr(preset, name), "true or false")


def _choice(preset: object, name: str, kind: type[StrEnum]) -> None:
    value = getattr(preset, name)
    if isinstance(value, str) and value in kind._value2member_map_:
        object.__setattr__(preset, name, kind(value))
    else:
        _fail(preset, name, value, "one of " + ", ".join(member.value for member in kind))


def _end_bonus(preset: object) -> None:
    value = getattr(preset, "end_bonus")
    if value is not None and (type(value) not in (int, float) or not math.isfinite(value)):
        _fail(preset, "end_bonus", value, "a number of points or None")


@dataclass(frozen=True)
class TreeSearch:
    """Information-set MCTS (agents/tree_search.py).

    `exploration`: the UCB constant (rewards scaled into [0, 1] by the range seen in the search).
    `widening`, `widening_power`: a node visited v times considers ceil(widening * v ** widening_power) of
    its actions, best first. `rollout_depth`: steps played out after the tree before the heuristic cut-off;
    `rollout_policy` and `rollout_sample` (how many actions a greedy step tries) make those steps.
    `prior_weight`: visits' worth of reward the heuristic's judgement of an action counts for, per rival
    seat (0: none); `prior_samples`: determinizations the root's judgement (the greedy player's) is averaged
    over (0: the one-step judgement, as at every other node). `finish_turn`: the last mover finishes its
    turn greedily before a cut-off. `rivals`, `backup`: see `Rivals`, `Backup`. `end_bonus`: with it, a
    finished game rewards each seat this many points times its share of the victory less its fair share
    (rewards.final_margins); without it, a win adds half a point.
    """

    exploration: float = 0.5
    widening: float = 2.0
    widening_power: float = 0.5
    rollout_depth: int = 5
    rollout_policy: RolloutPolicy = RolloutPolicy.GREEDY
    rollout_sample: int = 4
    prior_weight: float = 5.0
    prior_samples: int = 4
    finish_turn: bool = True
    rivals: Rivals = Rivals.TREE
    backup: Backup = Backup.BEST
    end_bonus: float | None = None

    def __post_init__(self) -> None:
        for name in ("exploration", "widening", "widening_power", "prior_weight"):
            _number(self, name, 0.0)
        _whole(self, "rollout_depth", 0)
        _whole(self, "rollout_sample", 1)
        _whole(self, "prior_samples", 0)
        _flag(self, "finish_turn")
        _choice(self, "rollout_policy", RolloutPolicy)
        _choice(self, "rivals", Rivals)
        _choice(self, "backup", Backup)
        _end_bonus(self)


@dataclass(frozen=True)
class RolloutImprovement:
    """A rollout improvement of the greedy player (agents/rollout_improvement.py, Bertsekas).

    The `candidates` root actions greedy judges best are each rolled out on shared determinizations, every
    seat playing as the greedy player until the searcher's turn has come round `rollout_turns` times; the
    best mean wins. `halving`: sequential halving over the candidates (Karnin, Koren & Somekh 2013) instead
    of the same number of rollouts each. `prior_samples`: determinizations greedy's ranking of the root is
    averaged over (0: the one-step margins). `backup`, `end_bonus`: as in `TreeSearch`.
    """

    candidates: int
    rollout_turns: int = 1
    halving: bool = False
    prior_samples: int = 4
    backup: Backup = Backup.BEST
    end_bonus: float | None = None

    def __post_init__(self) -> None:
        _whole(self, "candidates", 1)
        _whole(self, "rollout_turns", 1)
        _whole(self, "prior_samples", 0)
        _flag(self, "halving")
        _choice(self, "backup", Backup)
        _end_bonus(self)


Preset = Union[TreeSearch, RolloutImprovement]
#: What a game declares: one preset, a table by player count (int keys, and "default"), or a function of players.
SearchPresets = Union[Preset, Mapping[Union[int, str], Preset], Callable[[int], Preset]]
PRESETS = (TreeSearch, RolloutImprovement)
DEFAULT = "default"


def by_players(table: Mapping[int | str, Preset]) -> Mapping[int | str, Preset]:
    """`table` (presets by player count, and "default") once every key and value is checked."""
    for key, preset in table.items():
        if not (key == DEFAULT or (type(key) is int and key >= 1)):
            raise ValueError(f"search presets: {key!r} is not a player count (a whole number) or {DEFAULT!r}")
        if not isinstance(preset, PRESETS):
            raise ValueError(f"search presets: {key!r} is {preset!r}, not a TreeSearch or RolloutImprovement")
    return table


def preset_for(declared: SearchPresets | None, players: int) -> Preset:
    """The preset `declared` gives at `players` (none declared, or none for this count: `TreeSearch()`)."""
    if declared is None:
        return TreeSearch()
    if isinstance(declared, PRESETS):
        return declared
    if isinstance(declared, Mapping):
        table = by_players(declared)
        return table.get(players, table.get(DEFAULT, TreeSearch()))
    if callable(declared):
        preset = declared(players)
        if not isinstance(preset, PRESETS):
            raise ValueError(f"search presets at {players} players: {preset!r} is not a TreeSearch or RolloutImprovement")
        return preset
    raise ValueError(f"search presets must be a preset, a table by players or a function, not {declared!r}")


#: Every setting a preset has, by name.
SETTINGS = frozenset(field.name for kind in PRESETS for field in dataclasses.fields(kind))


def checked_changes(changes: Mapping[str, Any]) -> dict[str, Any]:
    """`changes` (settings by name, made to whichever preset a decision uses) once each name is a setting of
    a preset and each value one that preset takes."""
    for name in changes:
        if name not in SETTINGS:
            raise ValueError(f"unknown search setting {name!r} (settings: {', '.join(sorted(SETTINGS))})")
    for sample in (TreeSearch(), RolloutImprovement(candidates=1)):
        with_changes(sample, changes)
    return dict(changes)


def with_changes(preset: Preset, changes: Mapping[str, Any]) -> Preset:
    """`preset` with the `changes` among its own settings made (a change to a setting only the other
    algorithm has, such as a rollout depth for a rollout improvement, does not apply)."""
    own = {field.name for field in dataclasses.fields(preset)}
    mine = {name: value for name, value in changes.items() if name in own}
    return dataclasses.replace(preset, **mine) if mine else preset

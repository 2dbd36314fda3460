"""OpenSpiel Python games for every registered tablepress game: importing this module registers them.

`pyspiel.load_game("tablepress_flowers", {"players": 3})` (a game `by-this` is `tablepress_by_this`).
Parameters: `players`; `reward` ("win": +1/-1, or "score": normalised margin; solo games give
s/(1+|s|)); `obs_size` (tensor length); `deal_bytes`; and each of the game's own options (a "set"
option as names joined by "+": `electives=Chrysanthemum+Tulip`).

Chance: the game begins with `deal_bytes` chance nodes, each choosing one byte (256 equally likely
outcomes) of the seed; the engine is then created with `Game.new(players, seed)`. Every later
shuffle and draw is a function of that seed inside the engine, so the chance outcomes are explicit,
enumerable and sampled by OpenSpiel, though lumped at the start (the protocol exposes no per-draw
chance events). Players never see the chance outcomes, only their views.

Actions: id k is the k-th legal action in the engine's order (`encoding`); `action_to_string` gives
its text. Simultaneous choices are taken seat by seat, hidden by the engine's views.

Information: the observation string is the seat's view as JSON; the information-state string is the
seat, the log of every action as that seat saw it (its own in full, others' through
`public_action`), and its view. Tensors hash the same data (`encoding.encode_features`).
`resample_from_infostate` calls `Game.determinize`, so OpenSpiel's ISMCTS bot can play. States
serialise through their history (chance bytes and action ids) and pickle.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from ..core.game import Game, Option
from ..core.registry import game_names, get_game
from .encoding import bounds, encode_features, feature_texts, final_rewards, legal_mask

DEFAULT_OBS_SIZE = 512
DEFAULT_DEAL_BYTES = 4
#: A "set" option's names are joined with "+" (a comma would end the parameter in a game string).
SET_SEPARATOR = "+"


def short_name(game: Game) -> str:
    """The pyspiel name of a tablepress game: `tablepress_by_this` for `by-this`."""
    return "tablepress_" + game.name.replace("-", "_")


def _option_param(option: Option) -> Any:
    if option.kind == "set":
        return SET_SEPARATOR.join(option.default)
    if option.kind == "bool":
        return bool(option.default)
    if option.kind == "int":
        return int(option.default)
    return str(option.default)


def _from_param(option: Option, value: Any) -> Any:
    if option.kind == "set" and isinstance(value, str):
        return value.split(SET_SEPARATOR)
    return value


def game_type(game: Game) -> pyspiel.GameType:
    """The pyspiel GameType of a tablepress game, with its parameters and their defaults."""
    params: dict[str, Any] = {
        "players": game.default_players,
        "reward": "win",
        "obs_size": DEFAULT_OBS_SIZE,
        "deal_bytes": DEFAULT_DEAL_BYTES,
    }
    params.update({option.name: _option_param(option) for option in game.options})
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"tablepress {game.title or game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


@dataclass(frozen=True)
class SpielConfig:
    """What a state needs from its game's parameters (kept in the state so that it pickles alone)."""

    players: int
    reward_mode: str
    deal_bytes: int
    options: tuple[tuple[str, Any], ...]
    actions: int


class TablepressSpielGame(pyspiel.Game):
    """A tablepress game seen by OpenSpiel. Subclassed once per registered game (see `register`)."""

    tablepress_game: Game
    state_class: type["TablepressSpielState"]

    def __init__(self, params: Mapping[str, Any] | None = None):
        game = self.tablepress_game
        spiel_type = game_type(game)
        given = dict(params or {})
        full = {**spiel_type.parameter_specification, **given}
        self.players = int(full["players"])
        game.check_players(self.players)
        self.reward_mode = str(full["reward"])
        if self.reward_mode not in ("win", "score"):
            raise ValueError("reward must be win or score (OpenSpiel needs bounded utilities)")
        self.obs_size = int(full["obs_size"])
        self.deal_bytes = int(full["deal_bytes"])
        self.options = game.normalise_options({o.name: _from_param(o, full[o.name]) for o in game.options})
        self.bounds = bounds(game, self.players, self.options)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.bounds.actions,
            max_chance_outcomes=256,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.bounds.length + self.deal_bytes,
        )
        self.config = SpielConfig(self.players, self.reward_mode, self.deal_bytes,
                                  tuple(sorted(self.options.items())), self.bounds.actions)
        super().__init__(spiel_type, info, given)

    def new_initial_state(self) -> "TablepressSpielState":
        """A state before the deal: `deal_bytes` chance nodes come first."""
        return self.state_class(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "ViewObserver":
        """An observer of views (perfect recall adds the action log)."""
        return ViewObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class Inner:
    """The mutable part of a state. OpenSpiel clones Python states with deepcopy; this copies itself
    with `Game.clone` instead of a generic deep copy, and pickles its game by name."""

    __slots__ = ("game", "seed_bytes", "engine", "log", "legal")

    def __init__(self, game: Game, seed_bytes: list[int], engine: Any, log: list[tuple[int, str, str]]):
        self.game = game
        self.seed_bytes = seed_bytes
        self.engine = engine
        #: Each action: (seat, full text, what the other seats saw of it).
        self.log = log
        #: (seat, its legal actions) for the current engine state, or None.
        self.legal: tuple[int, list[str]] | None = None

    def __deepcopy__(self, memo: dict) -> "Inner":
        engine = None if self.engine is None else self.game.clone(self.engine)
        copy = Inner(self.game, list(self.seed_bytes), engine, list(self.log))
        copy.legal = self.legal
        return copy

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _restore_inner, (short_name(self.game), self.seed_bytes, self.engine, self.log)


def _restore_inner(name: str, seed_bytes: list[int], engine: Any, log: list[tuple[int, str, str]]) -> Inner:
    return Inner(REGISTERED[name].tablepress_game, seed_bytes, engine, log)


class TablepressSpielState(pyspiel.State):
    """An OpenSpiel state wrapping a tablepress engine state, its chance bytes and its action log."""

    tablepress_game: Game

    def __init__(self, game: TablepressSpielGame):
        super().__init__(game)
        self._config = game.config
        self._inner = Inner(self.tablepress_game, [], None, [])

    @property
    def _engine(self) -> Any:
        """The tablepress engine state (None during the deal)."""
        return self._inner.engine

    # ----- flow --------------------------------------------------------------------------------
    def current_player(self) -> int:
        """CHANCE during the deal, the lowest seat to move after it, TERMINAL at the end."""
        if self._engine is None:
            return pyspiel.PlayerId.CHANCE
        if self.tablepress_game.is_over(self._engine):
            return pyspiel.PlayerId.TERMINAL
        return self.tablepress_game.to_move(self._engine)[0]

    def _legal_texts(self, player: int) -> list[str]:
        inner = self._inner
        if inner.engine is None or player < 0:
            return []
        if inner.legal is None or inner.legal[0] != player:
            inner.legal = (player, self.tablepress_game.legal_actions(inner.engine, player))
        return inner.legal[1]

    def _legal_actions(self, player: int) -> list[int]:
        """Indices of `player`'s legal actions (0 … n-1)."""
        legal = self._legal_texts(player)
        legal_mask(legal, self._config.actions, self.tablepress_game.name)
        return list(range(len(legal)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next seed byte: 256 equally likely outcomes."""
        return [(value, 1.0 / 256) for value in range(256)]

    def _apply_action(self, action: int) -> None:
        """A seed byte during the deal; otherwise the player's k-th legal action."""
        inner = self._inner
        if inner.engine is None:
            inner.seed_bytes.append(int(action))
            if len(inner.seed_bytes) == self._config.deal_bytes:
                seed = int.from_bytes(bytes(inner.seed_bytes), "big")
                inner.engine = self.tablepress_game.new(self._config.players, seed, dict(self._config.options))
            return
        seat = self.current_player()
        text = self._legal_texts(seat)[action]
        public = self.tablepress_game.public_action(inner.engine, seat, text)
        inner.legal = None
        self.tablepress_game.apply_legal(inner.engine, seat, text)
        inner.log.append((seat, text, public))

    def _action_to_string(self, player: int, action: int) -> str:
        """A seed byte, or the text of the player's k-th legal action now."""
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal byte {action}"
        legal = self._legal_texts(player)
        return legal[action] if 0 <= action < len(legal) else f"action {action}"

    def is_terminal(self) -> bool:
        """Whether the engine says the game is over."""
        return self._engine is not None and self.tablepress_game.is_over(self._engine)

    def returns(self) -> list[float]:
        """The final rewards (zeros until the end)."""
        if not self.is_terminal():
            return [0.0] * self._config.players
        return final_rewards(self.tablepress_game, self._engine, self._config.reward_mode)

    # ----- information -------------------------------------------------------------------------
    def view(self, player: int | None) -> dict[str, Any] | None:
        """The engine's view for a seat (None: spectator); None during the deal."""
        return None if self._engine is None else self.tablepress_game.view(self._engine, player)

    def log_as_seen(self, player: int | None) -> list[str]:
        """Every action as `player` saw it: its own in full, the others' public forms."""
        return [f"{seat}:{text if seat == player else public}" for seat, text, public in self._inner.log]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "TablepressSpielState":
        """A state `player_id` cannot tell from this one, with everything it cannot see resampled by
        `Game.determinize`; the others' secret actions in the log are replaced by their public forms."""
        rng = random.Random(int(probability_sampler() * 2**53))
        clone = self.clone()
        inner = clone._inner
        if inner.engine is None:
            inner.seed_bytes = [rng.randrange(256) for _ in inner.seed_bytes]
            return clone
        inner.engine = self.tablepress_game.determinize(self._engine, player_id, rng)
        inner.legal = None
        inner.log = [(seat, text if seat == player_id else public, public) for seat, text, public in inner.log]
        return clone

    def __str__(self) -> str:
        """The seed bytes and the full engine state (for debugging and serialisation checks)."""
        return f"deal {self._inner.seed_bytes}\n{self._engine!r}"


class ViewObserver:
    """OpenSpiel's PyObserver over views: `tensor`/`dict` and strings for one seat (or the public)."""

    def __init__(self, game: TablepressSpielGame, iig_obs_type: Any, params: Any):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.size = game.obs_size
        self.tensor = np.zeros(self.size, np.float32)
        self.dict = {"view": self.tensor}

    def _seat(self, player: int) -> int | None:
        return player if self.private else None

    def _features(self, state: TablepressSpielState, player: int) -> list[tuple[str, float | None]]:
        seat = self._seat(player)
        view = state.view(seat)
        if view is None:
            features: list[tuple[str, float | None]] = [(f"seat={seat}", None), ("dealing", None)]
        else:
            features = feature_texts(view, seat)
        if self.perfect_recall:
            features += [(f"log[{i}]={entry}", None) for i, entry in enumerate(state.log_as_seen(seat))]
        return features

    def set_from(self, state: TablepressSpielState, player: int) -> None:
        """Fill `tensor` with the hashed view (and log) of `player`."""
        self.tensor[:] = encode_features(self._features(state, player), self.size)

    def string_from(self, state: TablepressSpielState, player: int) -> str:
        """The view as JSON, after the seat and (perfect recall) the action log."""
        seat = self._seat(player)
        view = state.view(seat)
        parts = [f"seat {seat}"]
        if self.perfect_recall:
            parts += state.log_as_seen(seat)
        parts.append("dealing" if view is None else json.dumps(view, sort_keys=True, separators=(",", ":")))
        return "\n".join(parts)


def register(game: Game) -> type[TablepressSpielGame]:
    """Register one tablepress game with pyspiel (once) and return its pyspiel Game class."""
    name = short_name(game)
    if name in REGISTERED:
        return REGISTERED[name]
    cls_name = f"Spiel_{name}"
    state_name = f"SpielState_{name}"
    state_cls = type(state_name, (TablepressSpielState,), {"tablepress_game": game, "__module__": __name__})
    cls = type(cls_name, (TablepressSpielGame,),
               {"tablepress_game": game, "state_class": state_cls, "__module__": __name__})
    globals()[cls_name] = cls  # picklable by name
    globals()[state_name] = state_cls
    pyspiel.register_game(game_type(game), cls)
    REGISTERED[name] = cls
    return cls


REGISTERED: dict[str, type[TablepressSpielGame]] = {}

for _name in game_names():
    register(get_game(_name))

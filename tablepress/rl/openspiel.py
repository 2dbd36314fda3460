"""OpenSpiel Python games for every registered tablepress game: importing this module registers them.

`pyspiel.load_game("tablepress_flowers", {"players": 3})` (a game `by-this` is `tablepress_by_this`).
Parameters: `players`; `reward` ("win": +1/-1, or "score": normalised margin; solo games give
s/(1+|s|)); and each of the game's own options (a "set" option as names
joined by "+": `electives=Chrysanthemum+Tulip`).

Chance: every random draw of the engine is an explicit chance node. Engines draw all game chance
through `core.rng.chance`; the adapter runs each engine call (`Game.new` for the setup, `apply_legal`
for an action) under `core.rng.scripted_chance` with the outcomes chosen so far for that call. When
the script runs out the engine raises `NeedChance(n)`: the state becomes a chance node with outcomes
0 … n−1, each 1/n; choosing one runs the call again from the state before it with one more outcome,
until it completes. A shuffle of k cards is k−1 nodes (Fisher–Yates: k, k−1, …, 2 outcomes); their
counts are known once it starts (`NeedChance.then`), so the call runs again only after the last of
them. The setup of Flowers is 107 nodes; a reshuffle in the middle of a game (Pressed's rounds,
Planted's discards) comes as nodes right after the action that caused it: that action is in the log
at once, its effects reach the views when its chance is resolved. Games whose decks are shuffled once
at the setup (Flowers, By This) draw from that order later, with no further chance. Players never see
the outcomes, only their views. `max_chance_outcomes` and the extra game length are measured
(`encoding.chance_bounds`); `from_engine_game` gives the OpenSpiel state of a seeded engine game.

Actions: the game's fixed action space (`tablepress.rl.spaces`; `num_distinct_actions` is its size
and id k means the same move in every state); `action_to_string` gives the legal text, or the id's
name when it is not legal now. A game without a fixed space gets the legal-index one. Simultaneous
choices are taken seat by seat, hidden by the engine's views.

Information: the observation string is the seat's view as JSON; the information-state string is the
seat, the log of every action as that seat saw it (its own in full, others' through
`public_action`), and its view. The observation tensor is the game's observation planes of the view
(the observer's `dict` names each plane); the information-state tensor adds the seat's own action ids
in order (`spaces.InfoState`: perfect recall). A public observer encodes the spectator's view.
`resample_from_infostate` calls `Game.determinize`, so OpenSpiel's ISMCTS bot can play (a resampled
state's future chance is still chance nodes; at a chance node the pending call starts its chance
again). States serialise through their history (chance outcomes and action ids) and pickle.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import pyspiel

from ..core.errors import TablepressError
from ..core.game import Game, Option
from ..core.match import Match, Move
from ..core.registry import game_names, get_game
from ..core.rng import NeedChance, record_chance, scripted_chance
from .encoding import bounds, chance_bounds, final_rewards
from .spaces import Spaces, spaces

#: A "set" option's names are joined with "+" (a comma would end the parameter in a game string).
SET_SEPARATOR = "+"


def short_name(game: Game) -> str:
    """The pyspiel name of a tablepress game: `tablepress_by_this` for `by-this`."""
    return "tablepress_" + game.name.replace("-", "_")


def _keep(move: Move, state: Any) -> None:
    """Nothing to store before a match adopts an action's result."""


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
    options: tuple[tuple[str, Any], ...]
    actions: int
    chance_outcomes: int


class ChanceSpaceExceeded(TablepressError):
    """A chance event has more outcomes than the game's measured `max_chance_outcomes`."""


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
        self.options = game.normalise_options({o.name: _from_param(o, full[o.name]) for o in game.options})
        self.bounds = bounds(game, self.players, self.options)
        self.chance = chance_bounds(game, self.players, self.options)
        self.spaces: Spaces = spaces(game, self.players, self.options)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spaces.actions.size,
            max_chance_outcomes=self.chance.outcomes,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.bounds.length + self.chance.events,
        )
        self.config = SpielConfig(self.players, self.reward_mode, tuple(sorted(self.options.items())),
                                  self.spaces.actions.size, self.chance.outcomes)
        super().__init__(spiel_type, info, given)

    def new_initial_state(self) -> "TablepressSpielState":
        """A state before the setup: its chance nodes (the setup's shuffles) come first."""
        return self.state_class(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "ViewObserver":
        """An observer of views (perfect recall adds the action log)."""
        return ViewObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


#: `Inner.pending` for the setup (`Game.new`); an action waiting on chance is (seat, text).
SETUP: tuple[()] = ()


class Inner:
    """The mutable part of a state: the `Match` being played and the engine call waiting on chance.

    OpenSpiel clones Python states with deepcopy; this copies itself cheaply instead (the match's
    state is shared: every action is applied to a copy through `Match.act(commit=...)`, never in
    place), and pickles its game by name.
    """

    __slots__ = ("game", "match", "pending", "pending_move", "outcomes", "need", "ahead", "ids", "legal")

    def __init__(self, game: Game, match: Match | None, pending: tuple[Any, ...] | None, outcomes: list[int],
                 pending_move: Move | None = None, need: int = 0, ahead: tuple[int, ...] = (),
                 ids: list[tuple[int, int]] | None = None):
        self.game = game
        #: (seat, action id) of every player action so far, the pending one included.
        self.ids = ids or []
        #: The match: at the state before the pending call while chance is being chosen; None before
        #: the setup is complete.
        self.match = match
        #: The engine call waiting on chance: SETUP, (seat, action text), or None.
        self.pending = pending
        #: The pending action as the log shows it (it is in the log at once; its effects come with its chance).
        self.pending_move = pending_move
        #: The chance outcomes chosen so far for the pending call.
        self.outcomes = outcomes
        #: The number of outcomes of the chance node now (0 when no call is pending).
        self.need = need
        #: The outcome counts of the chance nodes known to follow (`NeedChance.then`: the rest of a
        #: shuffle); the call is run again only once they are chosen.
        self.ahead = ahead
        #: {player: {action id: legal text}} of this position (emptied by every change; not copied).
        self.legal: dict[int, dict[int, str]] = {}

    @property
    def engine(self) -> Any:
        """The engine state (None during the setup)."""
        return None if self.match is None else self.match.state

    @property
    def log(self) -> list[Move]:
        """Every action so far, the pending one included."""
        moves = [] if self.match is None else list(self.match.moves)
        return moves + ([self.pending_move] if self.pending_move is not None else [])

    def __deepcopy__(self, memo: dict) -> "Inner":
        return Inner(self.game, None if self.match is None else self.match.fork(), self.pending,
                     list(self.outcomes), self.pending_move, self.need, self.ahead, list(self.ids))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        match = self.match
        saved = None if match is None else (match.players, match.options, match.state,
                                            [(m.seat, m.action, m.public) for m in match.moves])
        return _restore_inner, (short_name(self.game), saved, self.pending, self.outcomes, self.pending_move,
                                self.need, self.ahead, self.ids)


def _restore_inner(name: str, saved: tuple[int, dict, Any, list[tuple[int, str, str]]] | None,
                   pending: tuple[Any, ...] | None, outcomes: list[int], pending_move: Move | None, need: int,
                   ahead: tuple[int, ...], ids: list[tuple[int, int]]) -> Inner:
    game = REGISTERED[name].tablepress_game
    match = None
    if saved is not None:
        players, options, engine, moves = saved
        match = _new_match(game, players, options)
        match.state = engine
        match.moves = [Move(seat, text, public) for seat, text, public in moves]
    return Inner(game, match, pending, outcomes, pending_move, need, ahead, list(ids))


def _new_match(game: Game, players: int, options: Mapping[str, Any]) -> Match:
    """A match of `game` (its chance comes from the running script, if any)."""
    return Match(game, players, 0, dict(options), ["openspiel"] * players)


#: Uniform outcome lists kept built, by their number of outcomes (a game's shuffles and draws use a few).
UNIFORM_KEPT = 256


@lru_cache(maxsize=UNIFORM_KEPT)
def _uniform(n: int) -> list[tuple[int, float]]:
    """The uniform chance outcomes of a node with `n` outcomes (shared: never changed)."""
    return [(value, 1.0 / n) for value in range(n)]


class TablepressSpielState(pyspiel.State):
    """An OpenSpiel state wrapping a tablepress engine state, the chance of its pending call and its log."""

    tablepress_game: Game

    def __init__(self, game: TablepressSpielGame):
        super().__init__(game)
        self._config = game.config
        self._inner = Inner(self.tablepress_game, None, SETUP, [])
        self._resume()

    @property
    def _spaces(self) -> Spaces:
        """The game's action space and observation (looked up, not kept: OpenSpiel deep-copies states)."""
        config = self._config
        return spaces(self.tablepress_game, config.players, dict(config.options))

    @property
    def _engine(self) -> Any:
        """The tablepress engine state (None during the setup; the state before the action while an
        action's chance is being chosen)."""
        return self._inner.engine

    def _resume(self) -> None:
        """Run the pending engine call with the outcomes chosen so far: it completes, or it needs one more
        (the state stays a chance node with that many outcomes)."""
        inner = self._inner
        inner.legal = {}
        game = self.tablepress_game
        try:
            with scripted_chance(inner.outcomes):
                if inner.pending == SETUP:
                    inner.match = _new_match(game, self._config.players, self._config.options)
                else:
                    seat, text = inner.pending  # type: ignore[misc]
                    assert inner.match is not None
                    inner.match = inner.match.fork()
                    inner.match.act(seat, text, commit=_keep)
        except NeedChance as need:
            if need.n > self._config.chance_outcomes:
                raise ChanceSpaceExceeded(
                    f"{game.name}: a chance event with {need.n} outcomes exceeds max_chance_outcomes "
                    f"{self._config.chance_outcomes}") from None
            inner.need = need.n
            inner.ahead = need.then
            return
        inner.pending = None
        inner.pending_move = None
        inner.outcomes = []
        inner.need = 0
        inner.ahead = ()

    # ----- flow --------------------------------------------------------------------------------
    def current_player(self) -> int:
        """CHANCE while an engine call waits on chance, else the lowest seat to move; TERMINAL at the end."""
        if self._inner.pending is not None:
            return pyspiel.PlayerId.CHANCE
        if self.tablepress_game.is_over(self._engine):
            return pyspiel.PlayerId.TERMINAL
        assert self._inner.match is not None
        return self._inner.match.next_mover()

    def _legal_by_id(self, player: int) -> dict[int, str]:
        """{action id: legal text} of `player` now (empty at chance nodes and for others)."""
        inner = self._inner
        if inner.pending is not None or player < 0 or inner.match is None:
            return {}
        found = inner.legal.get(player)
        if found is None:
            legal = inner.match.legal(player)
            found = inner.legal[player] = (
                self._spaces.legal(self.tablepress_game.view(inner.engine, player), player, legal) if legal else {})
        return found

    def _legal_actions(self, player: int) -> list[int]:
        """The ids of `player`'s legal actions, ascending."""
        return list(self._legal_by_id(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the engine's next chance event: 0 … n−1, each 1/n."""
        return list(_uniform(self._inner.need))

    def _apply_action(self, action: int) -> None:
        """A chance outcome for the pending call; otherwise the player's action id (legal now)."""
        inner = self._inner
        if inner.pending is not None:
            if not 0 <= action < inner.need:
                raise ValueError(f"chance outcome {action} is not one of the {inner.need} outcomes")
            inner.outcomes.append(int(action))
            if inner.ahead:
                inner.need, inner.ahead = inner.ahead[0], inner.ahead[1:]
            else:
                self._resume()
            return
        seat = self.current_player()
        legal = self._legal_by_id(seat)
        if action not in legal:
            raise ValueError(f"action {action} is not legal for seat {seat} now")
        text = legal[action]
        inner.ids.append((seat, int(action)))
        inner.pending_move = Move(seat, text, self.tablepress_game.public_action(inner.engine, seat, text))
        inner.pending = (seat, text)
        inner.outcomes = []
        self._resume()

    def _action_to_string(self, player: int, action: int) -> str:
        """A chance outcome, the legal text of an id legal now, or the id's name."""
        if player == pyspiel.PlayerId.CHANCE:
            need = self._inner.need
            return f"chance {action} of {need}" if need else f"chance {action}"
        text = self._legal_by_id(player).get(action)
        if text is not None:
            return text
        return self._spaces.actions.name(action) if 0 <= action < self._spaces.actions.size else f"action {action}"

    def is_terminal(self) -> bool:
        """Whether the engine says the game is over (and no call waits on chance)."""
        return self._inner.pending is None and self.tablepress_game.is_over(self._engine)

    def returns(self) -> list[float]:
        """The final rewards (zeros until the end)."""
        if not self.is_terminal():
            return [0.0] * self._config.players
        return final_rewards(self.tablepress_game, self._engine, self._config.reward_mode)

    # ----- information -------------------------------------------------------------------------
    def view(self, player: int | None) -> dict[str, Any] | None:
        """The engine's view for a seat (None: spectator); None during the setup."""
        return None if self._engine is None else self.tablepress_game.view(self._engine, player)

    def log_as_seen(self, player: int | None) -> list[str]:
        """Every action as `player` saw it: its own in full, the others' public forms."""
        return [f"{move.seat}:{move.seen_by(player)}" for move in self._inner.log]

    def own_ids(self, player: int) -> list[int]:
        """The action ids `player` took, in order."""
        return [action_id for seat, action_id in self._inner.ids if seat == player]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "TablepressSpielState":
        """A state `player_id` cannot tell from this one, with everything it cannot see resampled by
        `Game.determinize`; the others' secret actions in the log are replaced by their public forms.

        At a chance node the pending call starts its chance again (nobody has seen those outcomes); an
        action of another seat waiting on chance is resampled among the actions with the same public form
        in the resampled state (if up to 16 determinizations offer none, the state keeps the true one)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        game = self.tablepress_game
        clone = self.clone()
        inner = clone._inner
        if inner.engine is None:
            inner.outcomes = []
            inner.ahead = ()
            clone._resume()
            return clone
        match = inner.match
        assert match is not None
        # Another seat's secret action is unknown to player_id: its id becomes -1 (no plane entry).
        inner.ids = [(seat, action_id if seat == player_id or move.seen_by(player_id) == move.action else -1)
                     for (seat, action_id), move in zip(inner.ids, inner.log)]
        match.moves = [Move(m.seat, m.seen_by(player_id), m.public) for m in match.moves]
        if inner.pending is None:
            match.state = game.determinize(self._engine, player_id, rng)
            return clone
        seat, text = inner.pending
        if seat != player_id and inner.pending_move is not None:
            inner.pending_move = Move(seat, inner.pending_move.public, inner.pending_move.public)
        for _ in range(16):
            engine = game.determinize(self._engine, player_id, rng)
            if seat == player_id:
                choices = [text]
            else:
                public = inner.pending_move.public if inner.pending_move else None
                choices = [a for a in game.legal_actions(engine, seat)
                           if game.public_action(engine, seat, a) == public]
            if choices:
                match.state = engine
                inner.pending = (seat, rng.choice(choices))
                break
        inner.outcomes = []
        inner.ahead = ()
        clone._resume()
        return clone

    def __str__(self) -> str:
        """The pending call and its chance so far, and the full engine state (for debugging and
        serialisation checks)."""
        inner = self._inner
        return f"pending {inner.pending} chance {inner.outcomes} of {inner.need}\n{self._engine!r}"


def from_engine_game(spiel_game: TablepressSpielGame, seed: int, path: list[int]) -> TablepressSpielState:
    """The OpenSpiel state of the engine game `Game.new(players, seed, options)` after `path`: each entry
    the index of an action in the engine's legal list of the first seat to move (played in OpenSpiel as
    that action's id); its chance nodes take the outcomes that the seeded engine drew
    (`core.rng.record_chance`), so both worlds hold the same game."""
    game = spiel_game.tablepress_game
    config = spiel_game.config
    texts = []
    with record_chance() as draws:
        match = Match(game, config.players, seed, dict(config.options), ["openspiel"] * config.players)
        for index in path:
            seat = match.next_mover()
            texts.append(match.legal(seat)[index])
            match.act(seat, texts[-1])
    outcomes = iter([outcome for _, outcome in draws])
    state = spiel_game.new_initial_state()
    for text in [*texts, None]:
        while state.is_chance_node():
            state.apply_action(next(outcomes))
        if text is not None:
            by_text = {t: i for i, t in state._legal_by_id(state.current_player()).items()}
            if text not in by_text:
                raise TablepressError(f"{game.name}: {text!r} has no id in the game's action space "
                                      "(outside the game's fixed action space); choose paths inside it")
            state.apply_action(by_text[text])
    return state


class ViewObserver:
    """OpenSpiel's PyObserver over views: the game's observation planes (perfect recall: the information
    state) as `tensor`, each plane by name in `dict`, and strings, for one seat (or the public)."""

    def __init__(self, game: TablepressSpielGame, iig_obs_type: Any, params: Any):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        space = game.spaces
        self.encoder = space.info_state if self.perfect_recall else space.observation
        planes = self.encoder.planes
        self.tensor = np.zeros(sum(plane.size for plane in planes), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        start = 0
        for plane in planes:
            self.dict[plane.name] = self.tensor[start:start + plane.size]
            start += plane.size

    def _seat(self, player: int) -> int | None:
        return player if self.private else None

    def set_from(self, state: TablepressSpielState, player: int) -> None:
        """Fill `tensor` with the planes of `player`'s view (and its own actions, with perfect recall);
        zeros during the setup."""
        view = state.view(self._seat(player))
        if view is None:
            self.tensor[:] = 0.0
        elif self.perfect_recall:
            self.tensor[:] = self.encoder.encode(view, player, state.own_ids(player) if self.private else [])
        else:
            self.tensor[:] = self.encoder.encode(view, player)

    def string_from(self, state: TablepressSpielState, player: int) -> str:
        """The view as JSON, after the seat and (perfect recall) the action log."""
        seat = self._seat(player)
        view = state.view(seat)
        parts = [f"seat {seat}"]
        if self.perfect_recall:
            parts += state.log_as_seen(seat)
        parts.append("setup" if view is None else json.dumps(view, sort_keys=True, separators=(",", ":")))
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

"""Generic encodings shared by the adapters: measured bounds, chance sizes, hashed view features, rewards.

Nothing here knows any game: everything goes through the `Game` protocol.

Bounds: a game's `action_bound(...)` and `length_bound(...)` if it declares them, otherwise the
largest number of legal actions and the longest game seen in `MEASURE_GAMES` seeded random games
(actions doubled and rounded up to a power of two; length doubled plus 16) — deterministic. The
legal-index action space of a game without a fixed one (`spaces.LegalIndexSpace`) is that wide.

Hashed features (the observation of a game that declares no planes): the view JSON is flattened into
leaves `path=value` (`public.stacks[0].cards=14`); each leaf sets feature `crc32(path=value) mod
size` to 1; a numeric leaf also adds `v/(1+|v|)` to feature `crc32(path#) mod size`, and a scalar
inside a list also sets the index-free `path[]=value` feature (a bag, for hands). `seat=N` says whose
view it is. The vector is clipped to [-1, 1].
"""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ..core.errors import TablepressError
from ..core.game import Game
from ..core.match import Match, random_playout
from ..core.registry import get_game
from ..core.rng import derive_seed, record_chance

#: Seeded random games played to measure a game's bounds when it declares none.
MEASURE_GAMES = 32
#: Reward modes: +1 winners / -1 others; normalised score margin in [-1, 1]; raw final scores.
REWARD_MODES = ("win", "score", "raw")


@dataclass(frozen=True)
class Bounds:
    """Fixed sizes for one game at one player count: action-space width and the longest game in actions."""

    actions: int
    length: int


def resolve_game(game: str | Game) -> Game:
    """A registered game by name, or the Game object itself (a variant, say)."""
    return get_game(game) if isinstance(game, str) else game


def _next_power_of_two(n: int) -> int:
    return 1 << max(0, n - 1).bit_length()


def measure(game: Game, players: int, options: Mapping[str, Any] | None = None,
            games: int = MEASURE_GAMES) -> Bounds:
    """The largest legal-action count and game length seen in `games` seeded uniformly random games."""
    most = longest = 0
    for index in range(games):
        rng = random.Random(derive_seed("tablepress.rl.measure", game.name, players, index))
        match = Match(game, players, rng.getrandbits(63), options)

        def widest(match: Match, seat: int, legal: list[str]) -> None:
            nonlocal most
            most = max([most, *(len(match.legal(s)) for s in match.to_move())])

        random_playout(match, rng, widest)
        longest = max(longest, len(match.moves))
    return Bounds(actions=most, length=longest)


def _options_key(options: Mapping[str, Any] | None) -> str:
    return json.dumps(dict(options or {}), sort_keys=True, default=str)


@lru_cache(maxsize=64)
def _cached_bounds(game: Game, players: int, options_key: str) -> Bounds:
    options = json.loads(options_key)
    declared_actions = game.action_bound(players, options)
    declared_length = game.length_bound(players, options)
    measured = None
    if declared_actions is None or declared_length is None:
        measured = measure(game, players, options)
    actions = declared_actions or _next_power_of_two(2 * measured.actions)  # type: ignore[union-attr]
    length = declared_length or 2 * measured.length + 16  # type: ignore[union-attr]
    return Bounds(actions=actions, length=length)


def bounds(game: Game, players: int, options: Mapping[str, Any] | None = None) -> Bounds:
    """The fixed action-space width and game-length bound for a game at a player count (cached)."""
    return _cached_bounds(game, players, _options_key(options))


@dataclass(frozen=True)
class ChanceBounds:
    """Fixed chance sizes for one game at one player count (see `chance_bounds`)."""

    #: The most outcomes of one chance event (`core.rng`: one `_randbelow(n)` call).
    outcomes: int
    #: A bound on the chance events of a whole game.
    events: int


def measure_chance(game: Game, players: int, options: Mapping[str, Any] | None = None,
                   games: int = MEASURE_GAMES) -> ChanceBounds:
    """The most outcomes of one chance event and the most events in a game, seen (`core.rng.record_chance`)
    in `games` seeded uniformly random games."""
    most = longest = 0
    for index in range(games):
        rng = random.Random(derive_seed("tablepress.rl.measure_chance", game.name, players, index))
        with record_chance() as draws:
            random_playout(Match(game, players, rng.getrandbits(63), options), rng)
        most = max([most, *(n for n, _ in draws)])
        longest = max(longest, len(draws))
    return ChanceBounds(outcomes=most, events=longest)


@lru_cache(maxsize=64)
def _cached_chance_bounds(game: Game, players: int, options_key: str) -> ChanceBounds:
    options = json.loads(options_key)
    measured = measure_chance(game, players, options)
    cards = sum(game.card_counts(game.new(players, 0, options)).values())
    return ChanceBounds(outcomes=max(measured.outcomes, cards, players, 2), events=2 * measured.events + 16)


def chance_bounds(game: Game, players: int, options: Mapping[str, Any] | None = None) -> ChanceBounds:
    """Chance sizes for a game at a player count (cached): the most outcomes of one event — the largest
    seen in seeded random games, at least every card in the game (a shuffle never holds more) and the
    player count — and a bound on events per game: twice the most seen, plus 16."""
    return _cached_chance_bounds(game, players, _options_key(options))


# ----- observations ---------------------------------------------------------------------------
def leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every scalar of a JSON-ready value with its path (`public.stacks[0].cards`), in document order."""
    if isinstance(value, Mapping):
        for key in sorted(value, key=str):
            yield from leaves(value[key], f"{path}.{key}" if path else str(key))
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from leaves(item, f"{path}[{index}]")
            if item is None or isinstance(item, (str, int, float, bool)):
                yield f"{path}[]", item
    else:
        yield path, value


def _index(text: str, size: int) -> int:
    return zlib.crc32(text.encode()) % size


def feature_texts(view: Mapping[str, Any], seat: int | None) -> list[tuple[str, float | None]]:
    """The hashed features of a view: (text, None) sets a 1; (text, v) adds a squashed magnitude."""
    features: list[tuple[str, float | None]] = [(f"seat={seat}", None)]
    for path, value in leaves(view):
        if isinstance(value, bool) or value is None or isinstance(value, str):
            features.append((f"{path}={json.dumps(value)}", None))
        elif isinstance(value, (int, float)):
            features.append((f"{path}={value}", None))
            features.append((f"{path}#", float(value)))
        else:
            features.append((f"{path}={value!r}", None))
    return features


def encode_features(features: list[tuple[str, float | None]], size: int) -> np.ndarray:
    """Hash features into a float32 vector of `size`, clipped to [-1, 1]."""
    vector = np.zeros(size, dtype=np.float32)
    for text, magnitude in features:
        index = _index(text, size)
        if magnitude is None:
            vector[index] += 1.0
        else:
            vector[index] += magnitude / (1.0 + abs(magnitude))
    np.clip(vector, -1.0, 1.0, out=vector)
    return vector


def encode_view(view: Mapping[str, Any], seat: int | None, size: int) -> np.ndarray:
    """The fixed-length feature vector of a seat's view (see the module docstring)."""
    return encode_features(feature_texts(view, seat), size)


# ----- rewards --------------------------------------------------------------------------------
def final_rewards(game: Game, state: Any, mode: str = "win") -> list[float]:
    """Each seat's reward at the end of a game.

    "win": +1 for each winner, -1 for every other seat, 0 for all when every seat (or none) wins.
    "score": (score - mean score) / max(1, largest |score - mean|), zero-sum, in [-1, 1].
    "raw": the final scores. A solo game has no winner: "win" and "score" give s / (1 + |s|).
    """
    if mode not in REWARD_MODES:
        raise TablepressError(f"reward must be one of {', '.join(REWARD_MODES)}, not {mode!r}")
    scores = [float(s) for s in game.scores(state)]
    if mode == "raw":
        return scores
    if len(scores) == 1:
        return [scores[0] / (1.0 + abs(scores[0]))]
    if mode == "win":
        winners = set(game.winners(state))
        if not winners or len(winners) == len(scores):
            return [0.0] * len(scores)
        return [1.0 if seat in winners else -1.0 for seat in range(len(scores))]
    mean = sum(scores) / len(scores)
    scale = max(1.0, max(abs(s - mean) for s in scores))
    return [(s - mean) / scale for s in scores]


def reward_range(players: int, mode: str) -> tuple[float, float]:
    """The smallest and largest reward a seat can get in a mode (raw scores: unbounded)."""
    if mode == "raw":
        return float("-inf"), float("inf")
    return -1.0, 1.0

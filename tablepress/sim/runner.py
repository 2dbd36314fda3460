"""Play one game of a simulation and reduce it to a plain, picklable result row.

A run is described by a `SimSpec` (game, players, seats, options, variant). Game `index` of a run with
seed S is played with seed `derive_seed(S, index)`, and each seat's agent is seeded from that game seed,
so a game's result depends only on (spec, run seed, index) — never on the worker that plays it.
Every game is driven through `core.match.Match`: each action is validated and logged.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agents.base import make_agent
from ..core.collector import games_running
from ..core.errors import TablepressError
from ..core.game import Game
from ..core.match import Match
from ..core.registry import get_game, package_of
from ..core.rng import derive_seed
from .design import seat_entrants


@dataclass(frozen=True)
class SimSpec:
    """What every game of a run shares: game name, player count, seat specs, options and variant."""

    game: str
    players: int
    seats: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    variant: Mapping[str, Any] | None = None
    #: Where to write each game's record (JSON), or None.
    records: str | None = None
    #: Whether the seats turn with the game index: game i seats `seats[0]` at seat i % players (the ladder).
    rotate: bool = False
    #: Whether the seats follow the balanced rotation of `design.py` by turn position (simulate).
    balanced: bool = False

    def key(self) -> str:
        """A stable text key for caching the game object in a worker."""
        return json.dumps([self.game, self.variant], sort_keys=True, default=str)

    def seats_of(self, index: int) -> list[str]:
        """The seat specs of game `index`, each seat's spec at its place."""
        if not self.rotate:
            return list(self.seats)
        return [self.seats[(seat - index) % self.players] for seat in range(self.players)]

    def entrants_for(self, index: int, first: int) -> list[int]:
        """Which --seats spec (its index) sits at each seat of game `index` when seat `first` acts first."""
        if self.balanced:
            return seat_entrants(self.players, index, first)
        if self.rotate:
            return [(seat - index) % self.players for seat in range(self.players)]
        return list(range(self.players))


#: Games (with their variants) a worker process keeps built at most, the most recently used: a run's arms, and
#: the last candidates of a tune, which tries many one after another.
GAMES_KEPT = 16
_games: OrderedDict[str, Game] = OrderedDict()


def resolve_game(spec: SimSpec) -> Game:
    """The game object for a spec (with its variant applied), built once per worker process while it is among
    the GAMES_KEPT most recently used."""
    key = spec.key()
    game = _games.get(key)
    if game is not None:
        _games.move_to_end(key)
        return game
    game = get_game(spec.game)
    if spec.variant is not None:
        game = game.with_variant(spec.variant)
    _games[key] = game
    while len(_games) > GAMES_KEPT:
        _games.popitem(last=False)
    return game


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game `index` of a run."""
    return derive_seed(run_seed, index)


def _leader(scores: Sequence[float]) -> int:
    """The seat with the unique highest score, or -1 on a tie."""
    best = max(scores)
    top = [seat for seat, value in enumerate(scores) if value == best]
    return top[0] if len(top) == 1 else -1


def play_one(spec: SimSpec, run_seed: int, index: int) -> dict[str, Any]:
    """Play game `index` of a run to the end and return its result row (plain data, picklable).

    The row holds: index, seed, seats, first (the seat that acts first, by the game's own rule), scores,
    winners, win shares (1/k to each of k winners), turns, decisions, branching (mean legal actions per
    decision), lead changes, the leader at halfway (-1: tied), `rounds` (every seat's score after each
    round of turns), the game's card-level figures (`fig.NAME`) and, where its stats module has them,
    per-seat card counts (`cards`: {measure: {card: [per seat]}}) and samples (`samples`: {name: [values]}).
    With a balanced spec the seats' agents are placed by turn position once the first player is known.

    The leader (the one seat with the highest score, if there is one) is looked at after every round of
    turns (every `players` turns: each seat has had its turn, so turn order alone does not swing the
    lead) and at the end; a lead change is a new sole leader.
    """
    game = resolve_game(spec)
    seed = game_seed(run_seed, index)
    match = Match(game, spec.players, seed, dict(spec.options), spec.seats_of(index))
    first_movers = match.to_move()
    first = min(first_movers) if first_movers else 0
    entrants = spec.entrants_for(index, first)
    seats = [spec.seats[entrant] for entrant in entrants]
    match.seats = list(seats)
    agents = [make_agent(seat_spec, derive_seed(seed, "seat", seat)) for seat, seat_spec in enumerate(seats)]
    decisions = legal_total = 0
    solo = spec.players == 1
    leaders: list[int] = []
    rounds: list[list[float]] = []
    last_turn = game.turn(match.state)
    while not match.is_over:
        seat = match.next_mover()
        info = match.seat_info(seat)
        decisions += 1
        legal_total += len(info.legal_actions())
        match.act(seat, agents[seat].choose(info))
        turn = game.turn(match.state)
        if not solo and turn != last_turn:
            last_turn = turn
            if turn % spec.players == 0 and not match.is_over:
                round_scores = [float(s) for s in game.scores(match.state)]
                rounds.append(round_scores)
                leaders.append(_leader(round_scores))
    state = match.state
    scores = [float(s) for s in game.scores(state)]
    if not solo:
        leaders.append(_leader(scores))
    winners = sorted(game.winners(state))
    shares = [0.0] * spec.players
    for seat in winners:
        shares[seat] = 1.0 / len(winners)
    lead_changes = 0
    current = -1
    for leader in leaders:
        if leader >= 0 and leader != current:
            if current >= 0:
                lead_changes += 1
            current = leader
    if spec.records:
        match.save(Path(spec.records) / f"game-{index:06d}.json")
    row: dict[str, Any] = {
        "index": index,
        "seed": seed,
        "seats": seats,
        "first": first,
        "scores": scores,
        "winners": winners,
        "shares": shares,
        "turns": game.turn(state),
        "decisions": decisions,
        "branching": legal_total / decisions if decisions else 0.0,
        "lead_changes": lead_changes,
        "leader_half": leaders[(len(leaders) - 1) // 2] if leaders else -1,
        "rounds": rounds + [scores],
    }
    if spec.balanced:
        row.update(rotated=True, specs=list(spec.seats), entrants=entrants)
    for name, value in sorted(card_figures(game, match).items()):
        row[f"fig.{name}"] = float(value)
    hooks = package_of(game).stats
    if hooks.cards is not None:
        row["cards"] = {measure: {card: [float(v) for v in per_seat] for card, per_seat in counts.items()}
                        for measure, counts in hooks.cards(game, match).items()}
    if hooks.samples is not None:
        row["samples"] = {name: [float(v) for v in values] for name, values in hooks.samples(game, match).items()}
    return row


class GameFailed(TablepressError):
    """A game of a run that raised: names the game, its seed and the error, in one line."""


def play_chunk(spec: SimSpec, run_seed: int, indices: Sequence[int]) -> list[dict[str, Any]]:
    """Play several games of a run (one task for a worker) and return their rows in order.

    A game that raises becomes one GameFailed line naming its index, seed and variant, so a broken
    variant or engine is reported without a traceback from the worker.
    """
    rows = []
    with games_running():
        for index in indices:
            try:
                rows.append(play_one(spec, run_seed, index))
            except Exception as exc:  # noqa: BLE001 - reported as one line naming the game
                variant = " with the variant" if spec.variant is not None else ""
                detail = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
                raise GameFailed(
                    f"game {index} (seed {game_seed(run_seed, index)}){variant} failed: {type(exc).__name__}"
                    + (f": {detail}" if detail else "")
                ) from None
    return rows


def card_figures(game: Game, match: Match) -> dict[str, float]:
    """The game's card-level figures for one finished match: `figures(game, match)` of its stats hook.

    The hook gets the game (with its variant) and the finished `Match` (final `state`, every move in
    `moves` and `actions`, `seed`, `players`, `options`), and returns figures by name; replaying
    `match.actions` from `game.new(match.players, match.seed, match.options)` gives every intermediate state.
    """
    return dict(package_of(game).stats(game, match))



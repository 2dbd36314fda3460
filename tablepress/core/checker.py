"""The forward-model checker: properties every game must have, for every player count and option.

Each game's tests call `check_game` for every player count (and option set). It plays many random
games and asserts that

- random playouts terminate, and a seat asked to move always has a legal action;
- the same seed gives the same game, and replaying a record reproduces every state;
- a clone is equal to, and independent of, its original;
- cards are conserved: the multiset of all cards in all zones never changes;
- views leak nothing: `public` is the same for every seat and JSON-ready; a seat's view and legal
  actions are identical in every determinization for that seat; a determinization depends only on
  what the seat knows (determinizing a determinization with the same generator gives the same
  state); and determinizations really do resample hidden information.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .game import Game
from .match import Match


class CheckFailure(AssertionError):
    """A forward-model property that does not hold; the message says which, where and how to reproduce."""


@dataclass
class CheckReport:
    """What the checker ran: counts a test can assert on and a person can read."""

    game: str
    players: int
    options: dict[str, Any]
    playouts: int = 0
    actions: int = 0
    max_actions: int = 0
    leak_checks: int = 0
    resampled: int = 0


def check_game(
    game: Game,
    players: int,
    options: Mapping[str, Any] | None = None,
    *,
    playouts: int = 1000,
    deep_playouts: int = 12,
    seed: int = 0,
    max_actions: int = 20_000,
    leak_every: int = 3,
    determinizations: int = 3,
) -> CheckReport:
    """Run every check; raise CheckFailure at the first property that fails.

    `playouts` random games are played to the end with conservation checked at the end of each;
    the first `deep_playouts` of them are checked at every step (replay, clone, conservation) and
    every `leak_every` steps for leaks with `determinizations` samples per seat.
    """
    opts = game.normalise_options(options)
    report = CheckReport(game.name, players, opts)
    _check_same_seed_same_game(game, players, opts, seed)
    for index in range(playouts):
        game_seed = seed * 1_000_003 + index
        deep = index < deep_playouts
        _playout(game, players, opts, game_seed, deep, report, max_actions, leak_every, determinizations)
    if report.leak_checks and report.resampled == 0 and _declares_hidden(game):
        raise CheckFailure(
            f"{game.name} ({players}p): determinize never changed the hidden state in "
            f"{report.leak_checks} samples — it must resample what a seat cannot know"
        )
    return report


def _declares_hidden(game: Game) -> bool:
    return bool(getattr(game, "hidden_information", True))


def _check_same_seed_same_game(game: Game, players: int, opts: dict, seed: int) -> None:
    first, second = game.new(players, seed, opts), game.new(players, seed, opts)
    if first != second:
        raise CheckFailure(f"{game.name} ({players}p): two games from seed {seed} differ at setup")


def _playout(
    game: Game,
    players: int,
    opts: dict,
    game_seed: int,
    deep: bool,
    report: CheckReport,
    max_actions: int,
    leak_every: int,
    determinizations: int,
) -> None:
    where = f"{game.name} ({players}p, options {opts}, seed {game_seed})"
    rng = random.Random(game_seed)
    match = Match(game, players, game_seed, opts)
    cards = game.card_counts(match.state)
    history = [game.clone(match.state)] if deep else []
    steps = 0
    while not match.is_over:
        seats = match.to_move()
        if not seats:
            raise CheckFailure(f"{where}: the game is not over but no seat is to move (step {steps})")
        seat = rng.choice(seats)
        legal = game.legal_actions(match.state, seat)
        if not legal:
            raise CheckFailure(f"{where}: seat {seat} is to move but has no legal action (step {steps})")
        if len(set(legal)) != len(legal):
            raise CheckFailure(f"{where}: seat {seat}'s legal actions repeat an action (step {steps})")
        if deep and steps % leak_every == 0:
            _check_views(game, match.state, players, rng, determinizations, report, f"{where} step {steps}")
        action = rng.choice(legal)
        if deep:
            _check_clone(game, match.state, seat, action, f"{where} step {steps}")
        match.act(seat, action)
        steps += 1
        if deep:
            history.append(game.clone(match.state))
            if game.card_counts(match.state) != cards:
                raise CheckFailure(f"{where}: cards not conserved after {action!r} (step {steps})")
        if steps > max_actions:
            raise CheckFailure(f"{where}: no end after {max_actions} actions")
    if game.to_move(match.state):
        raise CheckFailure(f"{where}: the game is over but seats {game.to_move(match.state)} are to move")
    if game.card_counts(match.state) != cards:
        raise CheckFailure(f"{where}: cards not conserved by the end of the game")
    _check_result(game, match.state, players, where)
    report.playouts += 1
    report.actions += steps
    report.max_actions = max(report.max_actions, steps)
    if deep:
        _check_replay(game, match, history, where)


def _check_result(game: Game, state: Any, players: int, where: str) -> None:
    scores, winners, parts = game.scores(state), game.winners(state), game.breakdown(state)
    if len(scores) != players or len(parts) != players:
        raise CheckFailure(f"{where}: scores or breakdown do not have one entry per seat")
    if any(part.get("total") != score for part, score in zip(parts, scores)):
        raise CheckFailure(f"{where}: a breakdown's total differs from the score")
    if players > 1 and not winners:
        raise CheckFailure(f"{where}: a game of {players} ended without a winner")
    if any(scores[w] != max(scores) for w in winners):
        raise CheckFailure(f"{where}: a winner {winners} does not have the highest score {scores}")
    json.dumps(parts)


def _check_replay(game: Game, match: Match, history: list, where: str) -> None:
    record = json.loads(json.dumps(match.record()))
    for step, replayed in enumerate(Match.replay(record)):
        if replayed.state != history[step]:
            raise CheckFailure(f"{where}: replaying the record gives a different state at step {step}")


def _check_clone(game: Game, state: Any, seat: int, action: str, where: str) -> None:
    before = pickle.dumps(state)
    copy = game.clone(state)
    if copy != state:
        raise CheckFailure(f"{where}: a clone differs from its original")
    game.apply(copy, seat, action)
    if pickle.dumps(state) != before:
        raise CheckFailure(f"{where}: applying {action!r} to a clone changed the original")


def _check_views(
    game: Game, state: Any, players: int, rng: random.Random, samples: int, report: CheckReport, where: str
) -> None:
    public = game.view(state, None)["public"]
    json.dumps(public)
    if game.view(state, None).get("private"):
        raise CheckFailure(f"{where}: the spectator view has a private part")
    cards = game.card_counts(state)
    for seat in range(players):
        view = game.view(state, seat)
        json.dumps(view)
        if view["public"] != public:
            raise CheckFailure(f"{where}: seat {seat}'s public view differs from the spectator's")
        legal = game.legal_actions(state, seat)
        for _ in range(samples):
            det_seed = rng.getrandbits(32)
            det = game.determinize(state, seat, random.Random(det_seed))
            report.leak_checks += 1
            if det != state:
                report.resampled += 1
            if game.view(det, seat) != view:
                raise CheckFailure(
                    f"{where}: seat {seat}'s view differs in a determinization for that seat — the view "
                    f"shows something the seat cannot know, or determinize changed what it does know"
                )
            if game.legal_actions(det, seat) != legal:
                raise CheckFailure(f"{where}: seat {seat}'s legal actions differ in a determinization")
            if game.card_counts(det) != cards:
                raise CheckFailure(f"{where}: a determinization for seat {seat} does not conserve cards")
            again = game.determinize(det, seat, random.Random(det_seed))
            if again != game.determinize(state, seat, random.Random(det_seed)):
                raise CheckFailure(
                    f"{where}: determinize for seat {seat} depends on hidden information (the same "
                    f"generator gives different states from two states the seat cannot tell apart)"
                )

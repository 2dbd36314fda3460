"""The forward-model checker: properties every game must have, for every player count and option.

Each game's tests call `check_game` for every player count (and option set). It plays many random
games through `core.match.Match` and asserts that

- random playouts terminate, and a seat asked to move always has a legal action;
- the same seed gives the same game, and replaying a record reproduces every state;
- a clone is equal to its original and shares no list, dict, set or object with it: playing on the
  clone leaves the original as it was;
- cards are conserved: the multiset of all cards in all zones never changes;
- views leak nothing: `public` is the same for every seat and JSON-ready; a seat's view and legal
  actions are identical in every determinization for that seat; a determinization depends only on
  what the seat knows (determinizing a determinization with the same generator gives the same state);
- determinizations resample everything a seat cannot know: over the run, every other seat's private
  view and every zone of `hidden_zones` (that could differ) differs from the truth in some sample.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import pickle
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .game import Game
from .match import Match

#: Random actions played on a clone to show that it shares nothing with its original.
CLONE_ACTIONS = 3


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


@dataclass
class _Hidden:
    """What a run has seen of what seats cannot know: which of it could vary, and which did vary.

    Keys are (seat, other seat) for private views and (seat, zone name) for hidden zones.
    """

    private_seen: set[tuple[int, int]] = field(default_factory=set)
    private_varied: set[tuple[int, int]] = field(default_factory=set)
    zone_seen: set[tuple[int, str]] = field(default_factory=set)
    zone_varied: set[tuple[int, str]] = field(default_factory=set)

    def problems(self) -> list[str]:
        """What determinize never resampled, one phrase per seat or zone."""
        kept = [
            f"determinize keeps seat {other}'s real private cards (sampling for {seats}): search would see them"
            for other, seats in _by_second(self.private_seen - self.private_varied)
        ]
        kept += [
            f"determinize never changes the hidden zone {zone!r} (sampling for {seats}): search would know it"
            for zone, seats in _by_second(self.zone_seen - self.zone_varied)
        ]
        return kept


def _by_second(keys: set[tuple[int, Any]]) -> list[tuple[Any, str]]:
    """(seat, thing) pairs grouped by thing: [(thing, "seat 0" or "seats 0, 2")]."""
    groups: dict[Any, list[int]] = {}
    for seat, thing in sorted(keys):
        groups.setdefault(thing, []).append(seat)
    return [(thing, ("seat " if len(seats) == 1 else "seats ") + ", ".join(map(str, seats)))
            for thing, seats in groups.items()]


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
    every `leak_every` steps for leaks with `determinizations` samples per seat. Over those samples,
    every other seat's private view and every hidden zone that could vary must differ from the truth
    at least once (unless the game declares `hidden_information = False`).
    """
    opts = game.normalise_options(options)
    report = CheckReport(game.name, players, opts)
    hidden = _Hidden()
    _check_same_seed_same_game(game, players, opts, seed)
    for index in range(playouts):
        game_seed = seed * 1_000_003 + index
        deep = index < deep_playouts
        _playout(game, players, opts, game_seed, deep, report, hidden, max_actions, leak_every, determinizations)
    if report.leak_checks and game.hidden_information:
        _check_resampled(game, players, opts, seed, min(deep_playouts, playouts), report, hidden)
    return report


def _check_resampled(
    game: Game, players: int, opts: dict, seed: int, deep: int, report: CheckReport, hidden: _Hidden
) -> None:
    where = f"{game.name} ({players}p, options {opts})"
    run = f"{report.leak_checks} determinizations in {deep} playouts from seed {seed}"
    if not hidden.private_seen and not hidden.zone_seen:
        raise CheckFailure(
            f"{where} declares hidden information but nothing is ever hidden in {run}: no seat has a "
            f"private view and no hidden zone could vary — declare hidden_zones"
        )
    problems = hidden.problems()
    if problems:
        raise CheckFailure(f"{where}, over {run}: " + "; ".join(problems))


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
    hidden: _Hidden,
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
        legal = match.legal(seat)
        if not legal:
            raise CheckFailure(f"{where}: seat {seat} is to move but has no legal action (step {steps})")
        if len(set(legal)) != len(legal):
            raise CheckFailure(f"{where}: seat {seat}'s legal actions repeat an action (step {steps})")
        action = rng.choice(legal)
        if deep:
            _check_clone(game, match.state, seat, action, rng, f"{where} step {steps}")
            if steps % leak_every == 0:
                _check_views(game, match.state, players, rng, determinizations, report, hidden,
                             f"{where} step {steps}")
        match.act(seat, action)
        steps += 1
        if deep:
            history.append(game.clone(match.state))
            if game.card_counts(match.state) != cards:
                raise CheckFailure(f"{where}: cards not conserved after {action!r} (step {steps})")
        if steps > max_actions:
            raise CheckFailure(f"{where}: no end after {max_actions} actions")
    if match.to_move():
        raise CheckFailure(f"{where}: the game is over but seats {match.to_move()} are to move")
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
    for step, replayed in enumerate(Match.replay(record, game)):
        if replayed.state != history[step]:
            raise CheckFailure(f"{where}: replaying the record gives a different state at step {step}")


def _check_clone(game: Game, state: Any, seat: int, action: str, rng: random.Random, where: str) -> None:
    """The clone equals the original, shares nothing mutable with it, and playing on it leaves it alone."""
    before = pickle.dumps(state)
    copy = game.clone(state)
    if copy != state:
        raise CheckFailure(f"{where}: a clone differs from its original")
    originals = _mutables(state)
    shared = next((path for ident, path in _mutables(copy).items() if ident in originals), None)
    if shared is not None:
        raise CheckFailure(
            f"{where}: a clone shares state{shared} with its original: changing one changes the other"
        )
    game.apply_legal(copy, seat, action)
    for _ in range(CLONE_ACTIONS - 1):
        movers = game.to_move(copy)
        if not movers:
            break
        mover = rng.choice(movers)
        game.apply_legal(copy, mover, rng.choice(game.legal_actions(copy, mover)))
    if pickle.dumps(state) != before:
        raise CheckFailure(f"{where}: applying {action!r} and more to a clone changed the original")


_ATOMS = (str, bytes, int, float, complex, frozenset, type(None), enum.Enum, type)


def _mutables(value: Any, path: str = "", found: dict[int, str] | None = None) -> dict[int, str]:
    """Every mutable object reachable from `value` (lists, dicts, sets, objects), by id, with its path."""
    found = {} if found is None else found
    if isinstance(value, _ATOMS):
        return found
    frozen = isinstance(value, tuple) or _is_frozen_dataclass(value)
    if not frozen:
        if id(value) in found:
            return found
        found[id(value)] = path
    if isinstance(value, dict):
        for key, item in value.items():
            _mutables(item, f"{path}[{key!r}]", found)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _mutables(item, f"{path}[{index}]", found)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for part in dataclasses.fields(value):
            _mutables(getattr(value, part.name), f"{path}.{part.name}", found)
    elif hasattr(value, "__dict__"):
        for name, item in vars(value).items():
            _mutables(item, f"{path}.{name}", found)
    return found


def _is_frozen_dataclass(value: Any) -> bool:
    return dataclasses.is_dataclass(value) and value.__dataclass_params__.frozen  # type: ignore[union-attr]


def _check_views(
    game: Game, state: Any, players: int, rng: random.Random, samples: int, report: CheckReport,
    hidden: _Hidden, where: str,
) -> None:
    before = pickle.dumps(state)
    public = game.view(state, None)["public"]
    json.dumps(public)
    if game.view(state, None).get("private"):
        raise CheckFailure(f"{where}: the spectator view has a private part")
    views = [game.view(state, seat) for seat in range(players)]
    for seat, view in enumerate(views):
        json.dumps(view)
        if view["public"] != public:
            raise CheckFailure(f"{where}: seat {seat}'s public view differs from the spectator's")
    cards = game.card_counts(state)
    for seat in range(players):
        legal = game.legal_actions(state, seat)
        pairs = [(seat, other) for other in range(players) if other != seat and views[other]["private"]]
        zones = {name: zone for name, zone in game.hidden_zones(state, seat).items() if _could_vary(zone)}
        hidden.private_seen.update(pairs)
        hidden.zone_seen.update((seat, name) for name in zones)
        for _ in range(samples):
            det_seed = rng.getrandbits(32)
            det = game.determinize(state, seat, random.Random(det_seed))
            report.leak_checks += 1
            if det != state:
                report.resampled += 1
            if game.view(det, seat) != views[seat]:
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
            _note_varied(game, state, det, seat, pairs, views, zones, hidden)
    if pickle.dumps(state) != before:
        raise CheckFailure(f"{where}: determinize or view changed the true state")


def _note_varied(
    game: Game, state: Any, det: Any, seat: int, pairs: list[tuple[int, int]], views: list[dict],
    zones: dict[str, Any], hidden: _Hidden,
) -> None:
    """Record which other seats' private views and which hidden zones differ from the truth in `det`."""
    for pair in pairs:
        if pair not in hidden.private_varied and game.view(det, pair[1])["private"] != views[pair[1]]["private"]:
            hidden.private_varied.add(pair)
    pending = [name for name in zones if (seat, name) not in hidden.zone_varied]
    if pending:
        sampled = game.hidden_zones(det, seat)
        hidden.zone_varied.update((seat, name) for name in pending if sampled.get(name) != zones[name])


def _could_vary(zone: Any) -> bool:
    """Whether a hidden zone can differ between states a seat cannot tell apart: a chance integer always,
    a deck or pile once it holds two different cards."""
    if isinstance(zone, (list, tuple)):
        return len(set(map(repr, zone))) >= 2
    return zone is not None

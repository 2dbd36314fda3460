"""Checks that a simultaneous choice is simultaneous: no seat's decision and no outcome depends on the
order in which the seats choosing together are asked.

`check_asking_order` finds positions where several seats are to move (seeded random playouts) and, at
each, asks every seat with every agent spec twice — once before the others have chosen and once after
all of them have — demanding the same view, the same legal actions and the same decision; then it
applies one set of choices in seat order and in reverse and demands the same position once all have
chosen. The tests run it on every installed game and a game's own package can run it too.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.game import Game
from ..core.match import Match, SeatInfo
from ..core.rng import derive_seed
from .base import make_agent

#: The agents asked at every position: each must decide the same whichever order it is asked in.
DEFAULT_SPECS = ("random", "greedy", "ismcts:12")
#: Actions a playout may take before it counts as never ending.
STEP_CAP = 20_000

Prefix = list[tuple[int, str]]
InfoOf = Callable[[Match, int], SeatInfo]


@dataclass
class OrderReport:
    """What `check_asking_order` compared and every difference it found (one line each)."""

    positions: int = 0
    decisions: int = 0
    resolutions: int = 0
    differences: list[str] = field(default_factory=list)


def simultaneous_positions(game: Game, players: int, options: Mapping[str, Any] | None, count: int,
                           seed: int) -> list[tuple[int, Prefix]]:
    """Up to `count` positions where several seats are to choose and none has yet: (match seed, the
    actions leading there), found along seeded random playouts (a few from each playout)."""
    rng = random.Random(seed)
    found: list[tuple[int, Prefix]] = []
    for playout in range(4 * count + 4):
        if len(found) >= count:
            break
        match_seed = derive_seed(seed, "position", playout)
        match = Match(game, players, match_seed, options)
        starts: list[Prefix] = []
        for _ in range(STEP_CAP):
            if match.is_over:
                break
            movers = match.to_move()
            if len(movers) > 1 and match.simultaneous is None:
                starts.append(list(match.actions))
            seat = rng.choice(movers)
            match.act(seat, rng.choice(match.legal(seat)))
        for prefix in rng.sample(starts, min(len(starts), 3)):
            found.append((match_seed, prefix))
    return found[:count]


def _replayed(game: Game, players: int, options: Mapping[str, Any] | None, match_seed: int,
              prefix: Prefix) -> Match:
    match = Match(game, players, match_seed, options)
    for seat, action in prefix:
        match.act(seat, action)
    return match


def _others_choose(match: Match, seat: int, rng: random.Random) -> None:
    """Every other seat still to move in this simultaneous choice takes a random legal action."""
    for other in match.to_move():
        if other != seat and not match.is_over and other in match.to_move():
            match.act(other, rng.choice(match.legal(other)))


def check_asking_order(game: Game, players: int, options: Mapping[str, Any] | None = None, *,
                       positions: int = 6, specs: Sequence[str] = DEFAULT_SPECS, seed: int = 1,
                       seat_info: InfoOf = Match.seat_info) -> OrderReport:
    """Compare each seat's decision asked first and asked last at simultaneous positions of `game`, and
    the position after one set of choices made in two orders (see the module docstring).

    `seat_info(match, seat)` is how a seat's information is taken (`Match.seat_info`; a test passes a
    broken one to see the check fail). A game without simultaneous choices yields an empty report.
    """
    report = OrderReport()
    rng = random.Random(seed)
    for match_seed, prefix in simultaneous_positions(game, players, options, positions, seed):
        report.positions += 1
        start = _replayed(game, players, options, match_seed, prefix)
        movers = start.to_move()
        where = f"{game.name} {players}p seed {match_seed} after {len(prefix)} actions"
        for seat in movers:
            first = _replayed(game, players, options, match_seed, prefix)
            last = _replayed(game, players, options, match_seed, prefix)
            _others_choose(last, seat, random.Random(rng.getrandbits(32)))
            asked_first, asked_last = seat_info(first, seat), seat_info(last, seat)
            if asked_first.view() != asked_last.view():
                report.differences.append(f"{where}: seat {seat}'s view differs once the others have chosen")
            if asked_first.legal_actions() != asked_last.legal_actions():
                report.differences.append(f"{where}: seat {seat}'s legal actions differ once the others have chosen")
            for spec in specs:
                agent_seed = derive_seed(match_seed, spec, seat, len(prefix))
                early = make_agent(spec, agent_seed).choose(asked_first)
                late = make_agent(spec, agent_seed).choose(seat_info(last, seat))
                report.decisions += 1
                if early != late:
                    report.differences.append(
                        f"{where}: {spec} at seat {seat} chose {early!r} asked first, {late!r} asked last")
        report.resolutions += _compare_resolutions(game, players, options, match_seed, prefix, movers, rng,
                                                   where, report.differences)
    return report


def _compare_resolutions(game: Game, players: int, options: Mapping[str, Any] | None, match_seed: int,
                         prefix: Prefix, movers: tuple[int, ...], rng: random.Random, where: str,
                         differences: list[str]) -> int:
    """Make one random choice per mover in seat order and in reverse; a difference once all have chosen
    is recorded. Returns how many resolutions were compared (0 or 1)."""
    start = _replayed(game, players, options, match_seed, prefix)
    choices = {seat: rng.choice(start.legal(seat)) for seat in movers}
    ends = []
    for order in (sorted(movers), sorted(movers, reverse=True)):
        match = _replayed(game, players, options, match_seed, prefix)
        for seat in order:
            if seat not in match.to_move():
                return 0  # a choice that changed who else chooses: nothing simultaneous to compare
            match.act(seat, choices[seat])
        ends.append(match.state)
    if ends[0] != ends[1]:
        differences.append(f"{where}: the same choices give another position when made in reverse seat order")
    return 1

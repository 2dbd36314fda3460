#!/usr/bin/env python3
"""How much of a search's weakness is hidden information (a diagnostic, not an agent and not a test).

Plays one `ismcts` seat against `greedy` in every other seat, the searcher's seat rotating game by game, and
reports its win rate with a Wilson 95% interval. The searcher uses the search preset the game declares for its
number of players (its `heuristics.SEARCH`: a `TreeSearch` or a `RolloutImprovement`, agents/presets.py);
`--search` changes settings of that preset by name, as a JSON object (`{"rollout_depth": 0}`,
`{"rivals": "policy"}`, `{"candidates": 8, "halving": true}`), and a name no preset has or a value the preset
does not take is refused before anything is played (a change to a setting only the other algorithm has does
not apply).

With `--true-state` the searcher's determinizations are copies of the true state: it plays as if it saw every
hand, the deck's order and the shuffles to come. The gap between the two runs bounds what any handling of
hidden information could buy; guessing the other hands better buys less, since the deck's order is chance
nobody knows (Pressed and By This at 3 players: 55% and 59% here, 49% and 47% with only the hands shown).
No seat spec can reach this mode, because a bot that looks at hidden cards is a bug.

    .venv/bin/python scripts/search_ceiling.py pressed --players 3 --games 60 --true-state
    .venv/bin/python scripts/search_ceiling.py by-this --players 2 --games 60 --search '{"rollout_turns": 2}'
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from rich.progress import Progress

from tablepress.agents.base import SeatInfo, make_agent
from tablepress.agents.ismcts import IsmctsAgent
from tablepress.core.errors import TablepressError
from tablepress.core.match import Match
from tablepress.core.registry import get_game
from tablepress.sim.stats import wilson


class TrueStateInfo(SeatInfo):
    """A seat's information whose determinizations are copies of the true state (the diagnostic's cheat)."""

    __slots__ = ()

    def determinize(self, rng: random.Random) -> Any:
        """A copy of the true state: nothing hidden is resampled."""
        return self.game.clone(self._state)


def play(name: str, players: int, games: int, seed: int, search: dict[str, Any], true_state: bool) -> dict[str, Any]:
    """The searcher's wins (a shared victory counts 1/k), win rate and each game's share against greedy.

    The deals and seats follow from `seed` alone, so two settings run on one seed are compared game by game
    (`shares`, in order)."""
    game = get_game(name)
    rng = random.Random(seed)
    shares: list[float] = []
    with Progress(transient=True) as progress:
        task = progress.add_task("games", total=games)
        for index in range(games):
            shares.append(_one_game(game, players, index, rng, search, true_state))
            progress.update(task, advance=1, description=f"win rate {sum(shares) / (index + 1):.0%}")
    wins = sum(shares)
    low, high = wilson(wins, games)
    return {"game": name, "players": players, "games": games, "seed": seed, "search": search,
            "true_state": true_state, "wins": wins, "win_rate": wins / games, "ci95": [low, high], "shares": shares}


def _one_game(game: Any, players: int, index: int, rng: random.Random, search: dict[str, Any],
              true_state: bool) -> float:
    """The searcher's share of one game's victory (its seat rotates with `index`)."""
    match = Match(game, players, rng.getrandbits(32))
    searcher = index % players
    agents = [make_agent("greedy", rng.getrandbits(32)) for _ in range(players)]
    agents[searcher] = IsmctsAgent(seed=rng.getrandbits(32), **search)
    while not match.is_over:
        seat = match.next_mover()
        info = match.seat_info(seat)
        if seat == searcher and true_state:
            info = TrueStateInfo(game, match.state, seat)
        match.act(seat, agents[seat].choose(info))
    winners = game.winners(match.state)
    return 1 / len(winners) if searcher in winners else 0.0


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Parse the command line, play, print the result as JSON and return it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--budget", type=int, default=300, help="search iterations a decision")
    parser.add_argument("--search", default="{}",
                        help="settings of the game's search preset to change, as a JSON object (agents/presets.py)")
    parser.add_argument("--true-state", action="store_true", help="let the searcher see the true state")
    args = parser.parse_args(argv)
    try:
        extra = json.loads(args.search)
        if not isinstance(extra, dict):
            raise ValueError("--search takes a JSON object of search settings, such as {\"rollout_depth\": 0}")
        search = {"budget": args.budget, **extra}
        IsmctsAgent(**search)
        get_game(args.game).check_players(args.players)
        if args.games < 1:
            raise ValueError("--games must be 1 or more")
    except (TablepressError, ValueError, TypeError) as exc:
        parser.error(" ".join(str(exc).split()))
    result = play(args.game, args.players, args.games, args.seed, search, args.true_state)
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()

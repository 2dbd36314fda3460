"""Simultaneous choices are simultaneous: a seat decides on the same information whichever order the
seats choosing together are asked in, and their choices resolve the same in any order.

Every installed game is checked at every player count (`agents.simultaneous.check_asking_order`);
a plugin-style game with sealed bids shows the check on a game from outside tablepress, and broken
versions (a seat shown the live position, a resolution that rewards choosing first) show it fail.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from tablepress.agents.base import make_agent
from tablepress.agents.simultaneous import check_asking_order
from tablepress.core import plain, registry
from tablepress.core.game import Game
from tablepress.core.match import Match, SeatInfo
from tablepress.core.package import package
from tablepress.core.registry import game_names, get_game
from tablepress.core.rng import derive_seed

#: Games of tablepress's own whose rules have seats choose at the same time.
SIMULTANEOUS = {"planted", "pressed"}


def _counts(name: str) -> list[tuple[str, int]]:
    game = get_game(name)
    return [(name, players) for players in range(game.min_players, game.max_players + 1)]


@pytest.mark.parametrize(("name", "players"), [pair for name in game_names() for pair in _counts(name)],
                         ids=lambda value: str(value))
def test_every_seat_decides_the_same_asked_first_or_last(name: str, players: int) -> None:
    report = check_asking_order(get_game(name), players, positions=3, seed=players)
    assert not report.differences, report.differences[0]
    if name in SIMULTANEOUS:
        assert report.positions == 3 and report.decisions >= 3 * players and report.resolutions > 0


def _live(match: Match, seat: int) -> SeatInfo:
    """The broken way: a seat decides from the position as it is now, others' choices made."""
    return SeatInfo(match.game, match.state, seat, match.legal(seat), match)


@pytest.mark.parametrize("name", sorted(SIMULTANEOUS))
def test_the_check_fails_when_a_seat_sees_the_live_position(name: str) -> None:
    report = check_asking_order(get_game(name), 3, positions=3, specs=("greedy",), seed=3)
    broken = check_asking_order(get_game(name), 3, positions=3, specs=("greedy",), seed=3, seat_info=_live)
    assert not report.differences
    assert any("view differs" in line for line in broken.differences)
    assert any("greedy at seat" in line for line in broken.differences)


def _self_play(name: str, players: int, games: int, last_first: bool) -> list[list[int]]:
    """Final scores of seeded greedy self-play, asking the highest (or lowest) seat first in every step."""
    game = get_game(name)
    results = []
    for index in range(games):
        seed = derive_seed(11, index)
        match = Match(game, players, seed)
        agents = [make_agent("greedy", derive_seed(seed, "seat", seat)) for seat in range(players)]
        while not match.is_over:
            movers = match.to_move()
            seat = max(movers) if last_first else min(movers)
            match.act(seat, agents[seat].choose(match.seat_info(seat)))
        results.append(game.scores(match.state))
    return results


@pytest.mark.parametrize(("name", "players"), [("planted", 2), ("pressed", 3)])
def test_self_play_is_the_same_game_whichever_seat_is_asked_first(name: str, players: int) -> None:
    lowest_first = _self_play(name, players, 6, last_first=False)
    assert lowest_first == _self_play(name, players, 6, last_first=True)


def test_a_planted_seat_still_choosing_learns_nothing_of_a_choice_made() -> None:
    game = get_game("planted")
    match = Match(game, 3, 5)
    seen_before = match.seat_info(1).view()
    match.act(0, match.legal(0)[0])
    after = match.seat_info(1)
    assert after.view() == seen_before and after.history(10) == []
    live = game.view(match.state, 1)["public"]["boards"][0]
    assert live["chosen"] is True and live["hand"] == seen_before["public"]["boards"][0]["hand"]
    assert match.seat_info(0).view()["private"]["chosen"]["number"]  # the chooser sees its own card


def test_undo_finds_the_simultaneous_choice_again() -> None:
    game = get_game("planted")
    match = Match(game, 3, 5)
    match.act(0, match.legal(0)[0])
    point = match.undo_point()
    shown = match.seat_info(2).view()
    match.act(1, match.legal(1)[0])
    match.undo(point)
    assert match.simultaneous is not None and match.seat_info(2).view() == shown


# ----- a plugin-style game: sealed bids ------------------------------------------------------------
@dataclass
class Bids:
    """Each seat's hand (public: every card bid is shown), its hidden bid (0: none yet), scores, round."""

    hands: list[list[int]]
    bids: list[int]
    points: list[int]
    round: int = 0
    first: int = -1


class SealedBids(Game[Bids]):
    """Every round each seat bids a card at once; the one highest bid scores its value. Three rounds.

    `first_bonus` breaks it: the first seat to bid scores a point, so the order of asking matters."""

    name = "sealed-bids"
    title = "Sealed Bids"
    min_players, max_players = 2, 3
    public_actions = False

    def __init__(self, first_bonus: bool = False):
        self.first_bonus = first_bonus

    def new(self, players: int, seed: int, options: Any = None) -> Bids:
        """Every seat holds 1 to 5."""
        return Bids([list(range(1, 6)) for _ in range(players)], [0] * players, [0] * players)

    def to_move(self, state: Bids) -> tuple[int, ...]:
        """Every seat that has not bid this round."""
        if state.round >= 3:
            return ()
        return tuple(seat for seat, bid in enumerate(state.bids) if not bid)

    def legal_actions(self, state: Bids, seat: int) -> list[str]:
        """A bid of each card in hand."""
        return [f"bid {card}" for card in state.hands[seat]] if seat in self.to_move(state) else []

    def apply_legal(self, state: Bids, seat: int, action: str) -> None:
        """Set the bid aside; once all have bid, the one highest bid scores."""
        card = int(action.split()[1])
        state.hands[seat].remove(card)
        state.bids[seat] = card
        if state.first < 0:
            state.first = seat
        if all(state.bids):
            best = max(state.bids)
            if state.bids.count(best) == 1:
                state.points[state.bids.index(best)] += best
            if self.first_bonus:
                state.points[state.first] += 1
            state.bids = [0] * len(state.bids)
            state.first = -1
            state.round += 1

    def public_action(self, state: Bids, seat: int, action: str) -> str:
        """A bid is secret."""
        return "bid"

    def view(self, state: Bids, seat: int | None) -> dict[str, Any]:
        """Cards left and scores are public; a seat sees its own bid."""
        public = {"cards": [sorted(h + ([b] if b else [])) for h, b in zip(state.hands, state.bids)],
                  "scores": list(state.points), "round": state.round}
        private = {} if seat is None else {"bid": state.bids[seat]}
        return {"public": public, "private": private}

    def determinize(self, state: Bids, seat: int, rng: random.Random) -> Bids:
        """Which of its cards another seat has bid is drawn among them."""
        copy = plain.clone(state)
        for other, bid in enumerate(state.bids):
            if other != seat and bid:
                held = sorted(copy.hands[other] + [bid])
                copy.bids[other] = held.pop(rng.randrange(len(held)))
                copy.hands[other] = held
        return copy

    def is_over(self, state: Bids) -> bool:
        """After three rounds."""
        return state.round >= 3

    def scores(self, state: Bids) -> list[int]:
        """Points scored."""
        return list(state.points)

    def winners(self, state: Bids) -> list[int]:
        """Most points."""
        return [seat for seat, points in enumerate(state.points) if points == max(state.points)]

    def breakdown(self, state: Bids) -> list[dict[str, Any]]:
        """The total alone."""
        return [{"total": points} for points in state.points]

    def card_counts(self, state: Bids) -> Counter:
        """Cards in hand and bid."""
        return Counter(card for hand in state.hands for card in hand) + Counter(b for b in state.bids if b)

    def turn(self, state: Bids) -> int:
        """Rounds played."""
        return state.round


@pytest.fixture
def sealed_bids(monkeypatch):
    """Registers a SealedBids factory as the plugin `sealed-bids` (as an installed package would be)."""
    def install(game: SealedBids) -> SealedBids:
        monkeypatch.setitem(registry._loaded, game.name, package(game, __file__))
        monkeypatch.setattr(registry, "_entry_points", lambda: {game.name: None})
        return game
    return install


def test_a_plugin_game_with_sealed_bids_passes(sealed_bids) -> None:
    report = check_asking_order(sealed_bids(SealedBids()), 3, positions=3)
    assert report.positions == 3 and report.decisions == 27 and report.resolutions == 3
    assert not report.differences, report.differences[0]


def test_a_resolution_that_rewards_choosing_first_is_caught(sealed_bids) -> None:
    report = check_asking_order(sealed_bids(SealedBids(first_bonus=True)), 2, positions=3, specs=("random",))
    assert any("reverse seat order" in line for line in report.differences)

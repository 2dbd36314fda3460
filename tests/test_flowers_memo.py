"""The Flowers heuristic's memo belongs to its game: a variant made for one table or one run is freed with it."""

from __future__ import annotations

import gc

from tablepress.agents.base import make_agent
from tablepress.core.match import Match
from tablepress.core.registry import get_game
from tablepress.games.flowers import heuristics


def _play_a_little(game: object, seed: int) -> None:
    match = Match(game, 2, seed)
    agents = [make_agent("greedy", seed * 2 + seat) for seat in range(2)]
    for _ in range(6):
        seat = match.next_mover()
        match.act(seat, agents[seat].choose(match.seat_info(seat)))


def test_thirty_games_of_their_own_leave_no_memo_behind() -> None:
    """30 games, each on a variant game object of its own (as the web server and the simulator make them),
    leave no memo once their games are gone (the memo keyed by the game's id kept all 30)."""
    base = get_game("flowers")
    before = len(heuristics._memos)
    for seed in range(30):
        _play_a_little(base.with_variant({}), seed)
    gc.collect()
    assert len(heuristics._memos) == before


def test_a_live_game_keeps_its_memo_and_each_game_has_its_own() -> None:
    one, other = get_game("flowers").with_variant({}), get_game("flowers").with_variant({})
    memo = heuristics._memo_of(one)
    assert heuristics._memo_of(other) is not memo
    assert heuristics._memo_of(one) is memo and heuristics._memos[one] is memo

"""What a seat has seen happen: `SeatInfo.history`, the moves as that seat saw them with its own information
before each — in a simulation and in the server's AI workers alike."""

from __future__ import annotations

import random
from typing import Any

from tablepress.agents.base import make_agent
from tablepress.core.match import Match, SeatInfo
from tablepress.core.registry import get_game


def _greedy_match(players: int, seed: int, until: Any) -> Match:
    """A Pressed match played by greedy seats until `until(match)` holds."""
    match = Match(get_game("pressed"), players, seed)
    agents = [make_agent("greedy", seed + seat) for seat in range(players)]
    while not match.is_over and not until(match):
        seat = match.next_mover()
        match.act(seat, agents[seat].choose(match.seat_info(seat)))
    return match


def test_the_history_is_the_moves_as_the_seat_saw_them_with_its_information_then():
    # Until a rival has made a secret press choice (more than four cards picked), and one more move.
    match = _greedy_match(3, 4, lambda m: any(move.seat != 0 and move.action.startswith("press ")
                                              for move in m.moves[:-1]))
    game, seat = match.game, 0
    history = match.seat_info(seat).history(1000)
    assert [(past.seat, past.action) for past in history] == [(m.seat, m.seen_by(seat)) for m in match.moves]
    presses = [past.action for past in history if past.seat != seat and "press" in past.action]
    assert presses and all(action.startswith("pressed ") for action in presses)  # never the secret choice
    replay = Match(game, 3, 4)
    for past, move in zip(history, match.moves):
        assert past.before.seat == seat
        assert past.before.view() == replay.view(seat)
        replay.act(move.seat, move.action)
    assert [past.action for past in match.seat_info(seat).history(3)] == [p.action for p in history[-3:]]


def test_no_history_outside_a_match_or_when_its_moves_do_not_rebuild_its_state():
    match = _greedy_match(3, 4, lambda m: len(m.moves) >= 5)
    assert SeatInfo(match.game, match.state, 0).history(10) == []
    match.state = match.game.determinize(match.state, 0, random.Random(3))  # set some other way
    assert match.seat_info(0).history(10) == []


def test_a_web_decision_sees_the_moves_that_led_to_its_state(monkeypatch):
    """The server's AI workers rebuild the match from its moves, so an AI seat reads the same history in
    a browser game as in a simulation; moves that do not lead to the state give none."""
    from tablepress.web import thinking

    match = _greedy_match(3, 6, lambda m: len(m.moves) >= 7)
    seen: list[list[tuple[int, str]]] = []

    class Spy:
        def choose(self, info: SeatInfo) -> str:
            seen.append([(past.seat, past.action) for past in info.history(5)])
            return info.legal_actions()[0]

    monkeypatch.setattr(thinking, "make_agent", lambda spec, seed: Spy())
    seat = match.next_mover()
    thinking.decide("pressed", None, match.state, seat, "ismcts", 1, past=thinking.played(match))
    assert seen[-1] == [(m.seat, m.seen_by(seat)) for m in match.moves[-5:]]
    wrong = thinking.played(match)._replace(moves=match.actions[:-1])
    thinking.decide("pressed", None, match.state, seat, "ismcts", 1, past=wrong)
    thinking.decide("pressed", None, match.state, seat, "ismcts", 1)
    assert seen[-2:] == [[], []]

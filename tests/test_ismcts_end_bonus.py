"""The end bonus: a search backing up its own value weighs a won end of the game above a lost one."""

from __future__ import annotations

import pytest

from tablepress.agents import ismcts
from tablepress.agents.evaluation import final_margins, heuristic_for
from tablepress.agents.ismcts import IsmctsAgent
from tablepress.core.match import SeatInfo
from tablepress.core.registry import get_game
from tablepress.games.flowers.notation import parse_position
from tablepress.games.flowers.state import FlowersState

FLOWERS = get_game("flowers")


def _area(text: str) -> dict:
    return parse_position(text, FLOWERS.cards, "test")[0][1]


def _position(areas: list[str], last_card: str) -> FlowersState:
    """Seat 0 to draw in a game whose first face-up stack holds only `last_card`: drawing it ends the game."""
    parsed = [_area(text) for text in areas]
    used = {card for area in parsed for cell in area.values() for card in cell}

    def cards(codes: list[str]) -> list[int]:
        found = []
        for code in codes:
            card = next(card for card in FLOWERS.codes.ids_by_code[code] if card not in used)
            used.add(card)
            found.append(card)
        return found

    stacks = [cards([last_card]), cards(["Y2", "Y3", "Y4", "Y1", "B1"]), cards(["G1", "R1", "Y3", "B1", "Y2"])]
    box = sorted(card for card in range(len(FLOWERS.cards.codes)) if card not in used)
    return FlowersState(players=len(parsed), summer=False, areas=parsed, stacks=stacks, face_up=[True, True, False],
                        box=box, removed=[])


#: Seat 0 scores 5 now and 6 with the last card, a green 1, at the end of its row — but seat 1 holds a blue
#: region of 9, so drawing that card ends the game lost.
LOSING_END = ["G2 G2 G3 G3 G3 .", "B2 B2 B3 B3 B3 B4 B4\n.  .  .  .  .  B4 B4", "Y2 Y2", "R2 R2"]


def test_an_end_bonus_adds_the_share_of_the_victory_less_the_fair_share() -> None:
    """With `end_bonus` each seat's final own value gains the bonus times its share less 1/players; without
    it the winner gains half a point, as before."""
    state = _position(LOSING_END, "G1")
    state.over = True
    scores = FLOWERS.scores(state)
    assert FLOWERS.winners(state) == [1]
    assert final_margins(FLOWERS, state, "own", 4.0) == [s + 4.0 * ((seat == 1) - 0.25) for seat, s in enumerate(scores)]
    assert final_margins(FLOWERS, state, "own") == [s + 0.5 * (seat == 1) for seat, s in enumerate(scores)]


def test_an_end_without_a_winner_gets_no_bonus() -> None:
    """Solo Flowers has no winner: its end is worth the score alone, not the score less the bonus (which would
    make a solo search shy of ending its game)."""
    state = _position(LOSING_END[:1], "G1")
    state.over = True
    assert FLOWERS.winners(state) == []
    assert final_margins(FLOWERS, state, "own", 4.0) == [float(FLOWERS.scores(state)[0])]


def test_the_search_scores_a_finished_leaf_with_the_hinted_end_bonus(monkeypatch: pytest.MonkeyPatch) -> None:
    """A leaf where the game is over backs up each seat's own score with the end bonus Flowers hints (4 points
    at 4 players: the lost end a point below its score, the won end three above, the fair share a quarter)."""
    state = _position(LOSING_END, "G1")
    agent = IsmctsAgent(seed=1, budget=4)
    agent.choose(SeatInfo(FLOWERS, state, 0, FLOWERS.legal_actions(state, 0)))
    finished = FLOWERS.clone(state)
    finished.over = True
    scores = FLOWERS.scores(finished)
    rewards = agent._leaf(FLOWERS, finished, heuristic_for(FLOWERS), 4, 0, me=0)
    assert rewards == [scores[0] - 1.0, scores[1] + 3.0, scores[2] - 1.0, scores[3] - 1.0]
    hints = dict(ismcts.search_hints_for(FLOWERS))
    hints.pop("end_bonus")
    hints.pop("end_bonus_by_players")
    monkeypatch.setattr(ismcts, "search_hints_for", lambda game: hints)
    agent.choose(SeatInfo(FLOWERS, state, 0, FLOWERS.legal_actions(state, 0)))
    assert agent._leaf(FLOWERS, finished, heuristic_for(FLOWERS), 4, 0, me=0) == [
        scores[0], scores[1] + 0.5, scores[2], scores[3]]


@pytest.mark.parametrize(("hints", "players", "expected"), [
    ({"end_bonus": 4.0}, 2, 4.0), ({"end_bonus": 4.0}, 4, 4.0),
    ({"end_bonus_by_players": {4: 4.0}}, 3, None), ({"end_bonus_by_players": {4: 4.0}}, 4, 4.0),
    ({"end_bonus": 2.0, "end_bonus_by_players": {3: 5.0}}, 3, 5.0), ({}, 2, None)])
def test_the_end_bonus_is_hinted_for_every_count_or_by_the_number_of_players(
        monkeypatch: pytest.MonkeyPatch, hints: dict, players: int, expected: float | None) -> None:
    """`end_bonus` holds at every player count, `end_bonus_by_players` for the counts it names (and wins over
    `end_bonus` there); without either, a win adds the half point."""
    monkeypatch.setattr(ismcts, "search_hints_for", lambda game: hints)
    state = FLOWERS.new(players, 3)
    agent = IsmctsAgent(seed=1, budget=4)
    agent.choose(SeatInfo(FLOWERS, state, 0, FLOWERS.legal_actions(state, 0)))
    assert agent._end_bonus == expected


def test_flowers_asks_for_the_end_bonus_at_every_player_count() -> None:
    """Flowers' search weighs a won end 8 points above a lost one at 2 and 3 players and 4 at 4 (its own-value
    backup is blind to the rivals until the end)."""
    for players, bonus in ((2, 8.0), (3, 8.0), (4, 4.0)):
        state = FLOWERS.new(players, 3)
        agent = IsmctsAgent(seed=1, budget=4)
        agent.choose(SeatInfo(FLOWERS, state, 0, FLOWERS.legal_actions(state, 0)))
        assert agent._end_bonus == bonus


@pytest.mark.parametrize("bad", [{"end_bonus": "big"}, {"end_bonus_by_players": {4: float("inf")}},
                                 {"end_bonus_by_players": {"4": 4.0}}])
def test_a_bad_end_bonus_hint_is_refused(monkeypatch: pytest.MonkeyPatch, bad: dict) -> None:
    """A hint that is not a finite number of points, or keyed by anything but a whole number, is refused in one line."""
    monkeypatch.setattr(ismcts, "search_hints_for", lambda game: bad)
    state = FLOWERS.new(4, 3)
    with pytest.raises(ValueError, match="end_bonus"):
        IsmctsAgent(seed=1, budget=4).choose(SeatInfo(FLOWERS, state, 0, FLOWERS.legal_actions(state, 0)))

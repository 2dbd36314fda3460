"""The end bonus: a search backing up its own value weighs a won end of the game above a lost one."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tablepress.agents.decision import Decision
from tablepress.agents.ismcts import IsmctsAgent
from tablepress.agents.presets import RolloutImprovement, TreeSearch
from tablepress.agents.rewards import final_margins
from tablepress.agents.tree_search import TreeSearcher
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


def _leaf_rewards(state: FlowersState, preset: TreeSearch) -> list[float]:
    """What a tree search under `preset` backs up from `state`, a finished game, searching for seat 0."""
    decision = Decision.of(FLOWERS, 0, state.players, random.Random(1), preset.backup, preset.end_bonus)
    return TreeSearcher(preset, decision).leaf(state, 0)


def test_the_search_scores_a_finished_leaf_with_the_declared_end_bonus() -> None:
    """A leaf where the game is over backs up each seat's own score with the end bonus Flowers declares (4
    points at 4 players: the lost end a point below its score, the won end three above, the fair share a
    quarter); without an end bonus a win adds the half point."""
    finished = _position(LOSING_END, "G1")
    finished.over = True
    scores = FLOWERS.scores(finished)
    preset = IsmctsAgent().preset_for(FLOWERS, 4)
    assert isinstance(preset, TreeSearch)
    assert _leaf_rewards(finished, preset) == [scores[0] - 1.0, scores[1] + 3.0, scores[2] - 1.0, scores[3] - 1.0]
    assert _leaf_rewards(finished, replace(preset, end_bonus=None)) == [
        scores[0], scores[1] + 0.5, scores[2], scores[3]]


def test_flowers_asks_for_the_end_bonus_at_every_player_count() -> None:
    """Flowers' search weighs a won end 8 points above a lost one at 1-3 players and 4 at 4 (its own-value
    backup is blind to the rivals until the end)."""
    for players, bonus in ((1, 8.0), (2, 8.0), (3, 8.0), (4, 4.0)):
        assert IsmctsAgent().preset_for(FLOWERS, players).end_bonus == bonus


@pytest.mark.parametrize("bad", ["big", float("inf"), float("nan"), True])
def test_a_bad_end_bonus_is_refused_when_the_preset_is_made(bad: object) -> None:
    """An end bonus that is not a finite number of points is refused in one line naming it, for either algorithm."""
    with pytest.raises(ValueError, match="end_bonus"):
        TreeSearch(end_bonus=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="end_bonus"):
        RolloutImprovement(candidates=2, end_bonus=bad)  # type: ignore[arg-type]

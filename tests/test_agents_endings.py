"""Sure endings: the search takes a win the game's end makes certain and never walks into a certain loss."""

from __future__ import annotations

import random

from tablepress.agents.endings import endings_of, sure_endings
from tablepress.agents.ismcts import IsmctsAgent
from tablepress.core.match import SeatInfo
from tablepress.core.registry import get_game
from tablepress.games.flowers.notation import parse_position
from tablepress.games.flowers.state import FlowersState

FLOWERS = get_game("flowers")
CODES = FLOWERS.codes


def _area(text: str) -> dict:
    return parse_position(text, FLOWERS.cards, "test")[0][1]


def _cards(codes: list[str], used: set[int]) -> list[int]:
    """A card id for each code, none of them already `used` (which they join)."""
    found = []
    for code in codes:
        card = next(card for card in CODES.ids_by_code[code] if card not in used)
        used.add(card)
        found.append(card)
    return found


def _position(seat_area: str, rival_areas: list[str], last_card: str) -> FlowersState:
    """Seat 0 to draw in a 3-player game whose first face-up stack holds only `last_card`: drawing it ends the game."""
    areas = [_area(seat_area), *(_area(text) for text in rival_areas)]
    used = {card for area in areas for cell in area.values() for card in cell}
    stacks = [_cards([last_card], used), _cards(["Y2", "Y3", "Y4", "Y1", "B1"], used),
              _cards(["G1", "R1", "Y3", "B1", "Y2"], used)]
    box = sorted(card for card in range(len(FLOWERS.cards.codes)) if card not in used)
    return FlowersState(players=3, summer=False, areas=areas, stacks=stacks, face_up=[True, True, False],
                        box=box, removed=[])


#: Seat 0's 3s are a group of two (discarded at the end, −2); a third 3 makes them whole and the reds a region of 6.
SHORT_OF_ONE = "R3 R3 R2 R2 R1"
RIVALS = ["B2 B2", "G2 G2"]


def _worlds(state: FlowersState, seat: int = 0, count: int = 4) -> list[FlowersState]:
    rng = random.Random(3)
    return [FLOWERS.determinize(state, seat, rng) for _ in range(count)]


def test_a_last_face_up_card_that_wins_is_taken_and_placed_to_win() -> None:
    """The draw that ends the game with the seat alone on top is found, then the one placement that wins."""
    state = _position(SHORT_OF_ONE, RIVALS, "R3")
    assert sure_endings(FLOWERS, _worlds(state), 0, FLOWERS.legal_actions(state, 0)).winning == "draw 1"
    agent = IsmctsAgent(seed=1, budget=50)
    assert agent.choose(SeatInfo(FLOWERS, state, 0, FLOWERS.legal_actions(state, 0))) == "draw 1"
    assert agent.last_iterations == 0
    FLOWERS.apply_legal(state, 0, "draw 1")
    placement = agent.choose(SeatInfo(FLOWERS, state, 0, FLOWERS.legal_actions(state, 0)))
    FLOWERS.apply_legal(state, 0, placement)
    assert FLOWERS.is_over(state) and FLOWERS.winners(state) == [0] and FLOWERS.scores(state) == [6, 0, 0]


def test_an_ending_is_sure_only_when_every_world_shows_the_same_scores() -> None:
    """A win that rests on a guess (a world where a rival's area differs, as hidden cards would make it) is not
    sure, even where the seat would win there too; with the scores compared only by who wins, it would be."""
    state = _position(SHORT_OF_ONE, RIVALS, "R3")
    worlds = _worlds(state)
    worlds[2].areas[1] = _area("B3 B3 B3 B2 B2")  # 5 points there: still short of seat 0's 6
    assert sure_endings(FLOWERS, worlds, 0, FLOWERS.legal_actions(state, 0)).winning is None
    wins = [{line for line, (share, _) in endings_of(FLOWERS, world, 0, "draw 1")[0].items() if share == 1.0}
            for world in worlds]
    assert wins[0] and all(lines == wins[0] for lines in wins)


def test_a_last_card_that_cannot_win_is_called_losing_unless_everything_loses() -> None:
    """Every placement of the last face-up card leaves seat 0 behind: that draw loses for sure, the others go on."""
    state = _position(SHORT_OF_ONE, RIVALS, "G1")
    found = sure_endings(FLOWERS, _worlds(state), 0, FLOWERS.legal_actions(state, 0))
    assert found.winning is None and found.losing == {"draw 1"}
    FLOWERS.apply_legal(state, 0, "draw 1")
    placements = FLOWERS.legal_actions(state, 0)
    assert sure_endings(FLOWERS, _worlds(state), 0, placements).losing == frozenset()  # nothing avoids it


#: Seat 0 scores 5 now and 6 with a green 1 at the end of its row; seat 1 already holds a blue region of 9.
GREEN_FIVE = "G2 G2 G3 G3 G3 ."
BLUE_NINE = ["B2 B2 B3 B3 B3 B4 B4\n.  .  .  .  .  B4 B4", "Y2 Y2"]


def test_the_search_does_not_end_a_game_it_loses_for_points_it_likes() -> None:
    """Backing up its own value (Flowers from 3 players), the search alone takes the last card for the point it
    adds, though the game then ends lost; with the check it draws from another stack."""
    state = _position(GREEN_FIVE, BLUE_NINE, "G1")
    legal = FLOWERS.legal_actions(state, 0)
    assert sure_endings(FLOWERS, _worlds(state), 0, legal).losing == {"draw 1"}
    unchecked = [IsmctsAgent(seed=seed, budget=60, endings=False).choose(SeatInfo(FLOWERS, state, 0, legal))
                 for seed in range(4)]
    assert "draw 1" in unchecked
    checked = [IsmctsAgent(seed=seed, budget=60).choose(SeatInfo(FLOWERS, state, 0, legal)) for seed in range(4)]
    assert "draw 1" not in checked

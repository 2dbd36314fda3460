"""Properties of By This close scoring and the score-file parser (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tablepress.games.by_this import GAME
from tablepress.games.by_this.scoring import close_points, first_out_of_order, piles, score_close

numbers_lists = st.lists(st.integers(1, 10), max_size=20)


@given(numbers_lists)
def test_score_is_length_plus_extra_cards_in_piles(numbers: list[int]) -> None:
    extra = sum(length - 1 for _, length, _ in piles(numbers))
    assert close_points(numbers) == len(numbers) + extra
    assert score_close([str(i) for i in range(len(numbers))], numbers).total == close_points(numbers)
    if numbers:
        assert len(numbers) <= close_points(numbers) <= 2 * len(numbers) - 1


@given(numbers_lists)
def test_taking_an_end_card_never_adds_points(numbers: list[int]) -> None:
    if numbers:
        assert close_points(numbers[1:]) < close_points(numbers)
        assert close_points(numbers[:-1]) < close_points(numbers)


@given(numbers_lists, st.booleans())
def test_a_sorted_shelf_is_in_order(numbers: list[int], ascending: bool) -> None:
    ordered = sorted(numbers, reverse=not ascending)
    assert first_out_of_order(ordered, ascending) is None
    bad = first_out_of_order(numbers, ascending)
    if bad is not None:
        assert first_out_of_order(numbers[:bad], ascending) is None


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(range(8)), st.lists(st.sampled_from(range(40)), unique=True, min_size=1, max_size=12))
def test_file_score_matches_the_engine(key: int, things: list[int]) -> None:
    keycard = GAME.cards.keys[key]
    numbers = GAME.key_numbers[key]
    shelf = sorted(things, key=lambda c: numbers[c], reverse=not keycard.ascending)
    text = f"key: {keycard.name}\n" + ", ".join(GAME.names[c] for c in shelf) + "\n"
    [player] = GAME.score_position(text)["players"]
    state = GAME.new(2, 0)
    state.key, state.shelf = key, shelf
    assert player["total"] == GAME.close_score(state)
    assert [entry["thing"] for entry in player["shelf"]] == [GAME.names[c] for c in shelf]

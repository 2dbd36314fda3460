"""Flowers scoring: every worked example of tablepress/games/flowers/rules.md, and properties of scoring."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablepress.core.errors import PositionError
from tablepress.games.flowers import GAME, PACKAGE
from tablepress.games.flowers.notation import format_area, parse_position
from tablepress.games.flowers.scoring import score_area

CARDS = GAME.cards


def score(text: str) -> dict:
    """Score a one-player grid and return its breakdown."""
    return GAME.score_position(text)["players"][0]


def test_the_rules_file_scores_its_worked_examples_as_it_says():
    """Each grid in rules.md is followed by its total in bold; the engine must agree, and help stays the summary."""
    examples = re.findall(r"```\n([^`]*)```\n\*\*([−-]?\d+) points?\.\*\*", PACKAGE.rules())
    assert len(examples) == 4
    for grid, total in examples:
        assert score(grid)["total"] == int(total.replace("−", "-")), grid
    assert GAME.rules_text() == GAME.summary


def test_example_1_one_valid_group_of_each_value_and_a_red_region():
    result = score("B4 B4 R3 R3\nB4 B4 R3 R2\n.  R1 .  R2\n")
    assert result["total"] == 5
    assert result["discards"] == 0
    assert result["region_sizes"] == [{"colour": "Red", "cards": 5}]
    assert result["butterflies"] == 0


def test_example_2_five_touching_fours_are_one_invalid_group():
    result = score("G4 G4 Y3/G4 G4 G4\nY1 .  Y1    .  Y2\n")
    assert result["total"] == -7
    assert result["discards"] == 7
    assert sorted(result["discarded_cards"]) == sorted(["G4"] * 5 + ["Y3", "Y2"])


def test_example_3_butterfly_touching_its_colour():
    result = score("Y4b B1\nY4  Y4\nY4  .\n")
    assert result["total"] == 1
    assert result["butterflies"] == 1
    assert result["butterfly_cards"] == ["Y4b"]
    assert result["regions"] == 0


def test_example_4_touching_ones_and_a_lone_butterfly_four():
    result = score("R1 R1 G4r\n")
    assert result["total"] == -3
    assert result["discards"] == 3
    assert result["butterflies"] == 0


def test_covered_cards_under_a_kept_card_cost_nothing():
    assert score("R2/B2/G3/Y1\n")["total"] == 0


def test_violet_belongs_to_no_group_or_region():
    result = score("V R4 R4\n. R4 R4\n. R3 .\n")
    assert result["discards"] == 1  # the lone 3; the 4s are a valid group of four
    assert result["total"] == -1


def test_several_regions_of_one_colour_score_separately():
    grid = "R4 R4 R4 R4 Y1 B3 B3 B3\n" "R3 R3 R3 Y2 Y2 B4 B4 B4\n" ". . . . . . . B4\n"
    result = score(grid)
    assert {r["colour"]: r["cards"] for r in result["region_sizes"]} == {"Red": 7, "Blue": 7}


def test_named_players_in_file_order():
    result = GAME.score_position("# Ana\nR1\n\n# Bo\nB1 B1\n")
    assert [p["name"] for p in result["players"]] == ["Ana", "Bo"]
    assert [p["total"] for p in result["players"]] == [0, -2]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("R1 X9\n", "line 1: unknown card code 'X9'"),
        ("R1\nY3b\n", "line 2: 'Y3b': only a 4 can carry a butterfly"),
        ("Y4y\n", "a butterfly is never of its card's own colour"),
        ("R1 R1 R1 R1\n", "4 cards R1 but the game has only 3"),
        ("# Ana\n", "Ana has no cards"),
        ("\n\n", "no area found"),
    ],
)
def test_bad_position_files_name_the_problem(text, message):
    with pytest.raises(PositionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        GAME.score_position(text)


# ----- properties -------------------------------------------------------------------------------

coloured = [c for c in range(len(CARDS.codes)) if CARDS.colour[c] is not None]
cells = st.tuples(st.integers(0, 4), st.integers(0, 3))


@st.composite
def areas(draw):
    """Areas of distinct cards (as at a real table), stacks up to three high."""
    where = draw(st.lists(cells, min_size=1, max_size=20, unique=True))
    deck = draw(st.permutations(coloured))
    area, used = {}, 0
    for cell in where:
        height = draw(st.integers(1, 3))
        area[cell] = tuple(deck[used:used + height])
        used += height
    return area


@given(areas())
@settings(max_examples=300, deadline=None)
def test_total_is_the_sum_of_its_parts(area):
    result = score_area(area, CARDS)
    assert result.total == result.region_points + result.butterfly_points + result.discard_points
    assert result.discard_points == -len(result.discarded)
    assert result.region_points == sum(size for _, size in result.regions)
    assert all(size >= CARDS.region_min for _, size in result.regions)


@given(areas())
@settings(max_examples=300, deadline=None)
def test_text_notation_round_trips(area):
    name, parsed = parse_position("\n".join(format_area(area, CARDS)), CARDS)[0]
    assert score_area(parsed, CARDS).total == score_area(area, CARDS).total
    shift_x = min(x for x, _ in area)
    shift_y = min(y for _, y in area)
    expect = {(x - shift_x, y - shift_y): tuple(CARDS.codes[c] for c in s) for (x, y), s in area.items()}
    assert {cell: tuple(CARDS.codes[c] for c in s) for cell, s in parsed.items()} == expect


@given(areas(), st.data())
@settings(max_examples=300, deadline=None)
def test_removing_a_card_from_a_valid_group_never_adds_discards_elsewhere(area, data):
    """Removing a visible card from a valid group never raises the discard count of other groups."""
    result = score_area(area, CARDS)
    discarded_cells = {cell for cell, stack in area.items() if set(stack) & set(result.discarded)}
    valid_cells = sorted(cell for cell in area if cell not in discarded_cells)
    if not valid_cells:
        return
    cell = data.draw(st.sampled_from(valid_cells))
    smaller = {c: s for c, s in area.items() if c != cell}
    if not smaller:
        return
    group = _group_of(area, cell)
    after = score_area(smaller, CARDS)
    outside = lambda res, ar: sum(len(ar[c]) for c in ar if c not in group and set(ar[c]) & set(res.discarded))
    assert outside(after, smaller) <= outside(result, area)


def _group_of(area, start):
    top = {c: s[-1] for c, s in area.items()}
    value = CARDS.value[top[start]]
    group, frontier = {start}, [start]
    while frontier:
        x, y = frontier.pop()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in top and n not in group and CARDS.value[top[n]] == value:
                group.add(n)
                frontier.append(n)
    return group


@given(areas())
@settings(max_examples=200, deadline=None)
def test_covering_is_invisible_to_kept_cells(area):
    """Cards under a kept top card never change the total unless the cell is discarded."""
    result = score_area(area, CARDS)
    flattened = {cell: stack[-1:] for cell, stack in area.items()}
    flat = score_area(flattened, CARDS)
    assert flat.region_points == result.region_points
    assert flat.butterfly_points == result.butterfly_points
    assert len(flat.discarded) <= len(result.discarded)

"""Pressed rules (tablepress/games/pressed/rules.md): every worked example, each effect, the flow of a round, the solver."""

from __future__ import annotations

import random
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablepress.core.errors import DataError, IllegalAction, OptionError, PositionError
from tablepress.games.pressed import GAME, flow
from tablepress.games.pressed.cards import PressedCards, load_data
from tablepress.games.pressed.engine import EFFECT, OVER, PICK, PLANT, PRESS, PressedGame
from tablepress.games.pressed.scoring import best_final, final_score, plant_score

CARDS = GAME.cards
K = {code: kind for kind, code in enumerate(CARDS.codes)}


def bed(*rows: str) -> list[list[int]]:
    """A bed from grid rows of codes (`.` empty) into columns of flower indices."""
    grid = [row.split() for row in rows]
    columns: list[list[int]] = [[] for _ in grid[0]]
    for row in grid:
        for c, code in enumerate(row):
            if code != ".":
                columns[c].append(K[code])
    return columns


def counts(**flowers: int) -> list[int]:
    """A collection by code: counts(HY=2, BB=1)."""
    result = [0] * len(CARDS.names)
    for code, n in flowers.items():
        result[K[code]] = n
    return result


# ----- card data -----------------------------------------------------------------------------------
def test_card_data_matches_the_rules_table() -> None:
    assert CARDS.names == ("Zinnia", "Sunflower", "Hydrangea", "Peony", "Lily", "Daisy", "Anemone", "Aster",
                           "Baby's Breath", "Chrysanthemum", "Tulip")
    assert sum(CARDS.copies) == 90
    assert CARDS.tables[K["ZI"]] == (0, 0, 9, 14, 20, 26, 32, 32)
    assert CARDS.tables[K["HY"]] == (1, 4, 10, 15, 18, 20, 21, 21)
    assert CARDS.counts[K["LI"]] == K["DA"]
    assert CARDS.points(K["HY"], 0) == 0 and CARDS.points(K["HY"], 12) == 21
    assert CARDS.default_electives == ("Aster", "Chrysanthemum", "Tulip")


def test_decks_by_player_count() -> None:
    default = CARDS.default_electives
    two = CARDS.deck(2, default)
    assert len(two) == 40 + 18 and K["LI"] not in two and K["AS"] in two
    three = CARDS.deck(3, ("Anemone", "Baby's Breath", "Tulip"))
    assert len(three) == 60 + 18 and K["DA"] in three and K["AS"] not in three
    assert len(CARDS.deck(4, default)) == len(CARDS.deck(5, default)) == 90


def test_bed_shapes() -> None:
    for players, (columns, size) in {2: (3, 5), 3: (4, 7), 4: (5, 9), 5: (6, 10)}.items():
        state = GAME.new(players, 1)
        assert len(state.bed) == columns == players + 1
        assert sum(len(col) for col in state.bed) == size
        assert all(len(hand) == 4 for hand in state.hands)
    assert [len(c) for c in GAME.new(4, 1).bed] == [1, 2, 3, 2, 1]
    assert [len(c) for c in GAME.new(2, 1).bed] == [1, 3, 1]
    # 5 players use exactly the 90 cards.
    assert CARDS.cards_needed(5) == 90


def test_variant_changes_a_table_and_bad_data_names_the_field() -> None:
    game = GAME.with_variant({"flowers": {"Hydrangea": {"table": [2, 5, 11]}}})
    assert game.cards.points(K["HY"], 3) == 11 and game.cards.points(K["HY"], 7) == 11
    assert game.variant == {"flowers": {"Hydrangea": {"table": [2, 5, 11]}}}
    with pytest.raises(DataError, match="flowers.Hydrangea.table"):
        PressedCards.from_data(load_data({"flowers": {"Hydrangea": {"table": "many"}}}))
    with pytest.raises(DataError, match="flowers.Lily.counts"):
        PressedCards.from_data(load_data({"flowers": {"Lily": {"counts": "Rose"}}}))
    with pytest.raises(DataError, match="setup.nonsense"):
        load_data({"setup": {"nonsense": 1}})
    with pytest.raises(DataError, match="beds.2"):
        PressedCards.from_data(load_data({"beds": {"2": [[1, 3], [4, 5]]}}))
    with pytest.raises(DataError, match="need"):
        PressedGame(load_data({"flowers": {"Zinnia": {"copies": 1}, "Peony": {"copies": 1}}}))


# ----- planting: the worked examples ---------------------------------------------------------------
def test_worked_example_hydrangea_row_3_column_5() -> None:
    grid = bed("SU PE ZI DA HY",
               ".  HY SU PE HY",
               ".  .  HY .  .")
    result = plant_score(grid, 4, K["HY"], CARDS)
    assert (result.count, result.points) == (4, 15)


def test_worked_example_lily_counts_two_daisies() -> None:
    grid = bed("SU PE DA ZI",
               ".  HY SU PE",
               ".  DA HY .",
               ".  .  .  .")
    # Column 3 has 3 cards: the Lily goes to row 4 of column 3; a Daisy in row 1 of its column and
    # none in its row... add one to its row through column 2.
    grid[1].append(K["DA"])  # column 2, row 4
    result = plant_score(grid, 2, K["LI"], CARDS)
    assert (result.count, result.points) == (2, 10)


def test_planting_counts_row_and_column_once_including_itself() -> None:
    grid = bed("SU SU SU", ".  SU .")
    result = plant_score(grid, 1, K["SU"], CARDS)  # row 3 of column 2: column has SU, SU
    assert result.count == 3 and result.points == 6
    result = plant_score(grid, 0, K["SU"], CARDS)  # row 2 of column 1: SU above, SU in row 2
    assert result.count == 3


def test_aster_scores_only_in_a_shortest_column() -> None:
    grid = bed("ZI AS AS", ".  AS .")
    assert plant_score(grid, 0, K["AS"], CARDS).points == CARDS.points(K["AS"], 2)  # tie for shortest: AS in row 2
    assert plant_score(grid, 1, K["AS"], CARDS).points == 0
    assert plant_score(grid, 1, K["AS"], CARDS).note == "not a shortest column"


def test_chrysanthemum_counts_distinct_names_itself_included() -> None:
    grid = bed("ZI SU HY", "BB PE .")
    result = plant_score(grid, 0, K["CH"], CARDS)  # row 3 col 1: column ZI, BB; row 3 empty
    assert result.count == 3 and result.points == 3
    result = plant_score(grid, 2, K["CH"], CARDS)  # row 2 col 3: column HY; row BB, PE
    assert result.count == 4 and result.points == 5


def test_tulip_chooses_a_card_and_counts_itself_only_for_tulips() -> None:
    grid = bed("HY HY TU", ".  .  HY")
    assert plant_score(grid, 0, K["TU"], CARDS, choose=K["HY"]).count == 2  # row 2: HY above, HY in row 2
    result = plant_score(grid, 2, K["TU"], CARDS, choose=K["HY"])
    assert result.count == 1 and result.points == 2
    result = plant_score(grid, 2, K["TU"], CARDS, choose=K["TU"])
    assert result.count == 2 and result.points == 5


def test_babys_breath_copies_name_table_and_effect() -> None:
    grid = bed("HY HY ZI", ".  HY .")
    result = plant_score(grid, 1, K["BB"], CARDS, copy=K["HY"])  # row 3 col 2: HY, HY above
    assert (result.acts_as, result.count, result.points) == (K["HY"], 3, 10)
    grid = bed("BB ZI ZI")
    assert plant_score(grid, 0, K["BB"], CARDS, copy=K["BB"]).points == 0
    # As an Aster it needs a shortest column; column 2 is longer here.
    grid = bed("AS AS ZI", ".  AS .")
    assert plant_score(grid, 1, K["BB"], CARDS, copy=K["AS"]).points == 0
    assert plant_score(grid, 0, K["BB"], CARDS, copy=K["AS"]).count == 3
    # As a Tulip it makes the choice too, and counts itself when choosing Tulips.
    grid = bed("TU TU SU")
    result = plant_score(grid, 0, K["BB"], CARDS, copy=K["TU"], choose=K["TU"])
    assert (result.count, result.points) == (2, 5)


def _play(game: PressedGame, state, action: str) -> None:
    game.apply(state, game.to_move(state)[0], action)


def _set_round(state, beds: list[list[int]], hands: list[list[int]]) -> None:
    state.bed = beds
    state.hands = [sorted(h) for h in hands]


def test_anemone_swap_step_and_actions() -> None:
    game = GAME
    state = game.new(4, 3, {"first": 1})
    assert game.to_move(state) == (0,)
    _set_round(state, bed("ZI SU HY PE DA", ".  AN LI CH .", ".  .  TU .  ."),
               [[K["AN"]] * 4, [K["ZI"]] * 4, [K["ZI"]] * 4, [K["ZI"]] * 4])
    legal = game.legal_actions(state, 0)
    assert legal == [f"plant AN {c}" for c in range(1, 6)]
    _play(game, state, "plant AN 5")  # row 2 of column 5: row has AN LI CH AN
    assert state.phase == EFFECT and game.to_move(state) == (0,)
    swaps = game.legal_actions(state, 0)
    assert swaps[0] == "noswap" and "swap 2,2 2,5" not in swaps  # two Anemones: no change
    assert "swap 2,3 2,5" in swaps and len(swaps) == 1 + 5
    _play(game, state, "swap 2,3 2,5")
    assert state.bed[2][1] == K["AN"] and state.bed[4][1] == K["LI"]
    assert state.phase == PLANT and game.to_move(state) == (1,)
    with pytest.raises(IllegalAction, match="no Anemone in hand"):
        game.apply(state, 1, "plant AN 2")
    with pytest.raises(IllegalAction, match="no column 9"):
        game.apply(state, 1, "plant ZI 9")


def test_plant_actions_name_flowers_for_babys_breath_and_tulip() -> None:
    state = GAME.new(2, 5, {"electives": "baby's breath,tulip,aster", "first": 1})
    _set_round(state, bed("ZI TU SU", ".  HY .", ".  HY ."), [[K["BB"], K["TU"]], [K["ZI"], K["ZI"]]])
    legal = GAME.legal_actions(state, 0)
    assert "plant BB 2 copy HY" in legal and "plant BB 1 copy ZI" in legal
    assert "plant BB 2 copy TU choose HY" in legal and "plant BB 2 copy TU choose TU" in legal
    assert not any(a.startswith("plant BB 1 copy TU") for a in legal)  # no Tulip in row 2 or column 1
    assert "plant TU 2 choose HY" in legal and "plant TU 2 choose TU" in legal
    assert "plant TU 2" not in legal and len(legal) == len(set(legal))
    with pytest.raises(IllegalAction, match="copies a card"):
        GAME.apply(state, 0, "plant BB 2")
    with pytest.raises(IllegalAction, match="no Peony in row 4 or column 2"):
        GAME.apply(state, 0, "plant BB 2 copy PE")
    GAME.apply(state, 0, "plant TU 2 choose HY")  # row 4: HY HY in the column
    assert state.scores[0] == CARDS.points(K["TU"], 2)


def test_a_full_round_flow_score_stack_pick_order_and_press() -> None:
    game = GAME
    state = game.new(2, 11, {"first": 2})
    assert state.first == 1 and state.stack == [1, 0]  # first player at the bottom
    _set_round(state, bed("ZI SU HY", ".  PE .", ".  PE ."),
               [[K["PE"], K["PE"], K["ZI"], K["SU"]], [K["HY"], K["SU"], K["ZI"], K["ZI"]]])
    _play(game, state, "plant HY 3")  # seat 1: HY above → 2 → 4 points
    assert state.scores == [0, 4] and state.stack == [0, 1]
    _play(game, state, "plant PE 2")  # seat 0: PE PE above → 3 → 9
    _play(game, state, "plant ZI 1")  # seat 1: ZI above → 2 → 0: the marker does not move
    assert state.scores == [9, 4] and state.stack == [1, 0]
    for action in ("plant PE 2", "plant SU 1", "plant SU 1", "plant ZI 3", "plant ZI 3"):
        _play(game, state, action)
    assert state.phase == PICK and state.pick_order == [1, 0]  # lowest score picks first
    assert game.legal_actions(state, 1) == ["pick 1", "pick 2", "pick 3"]
    _play(game, state, "pick 2")
    assert game.to_move(state) == (0,)
    column1 = list(state.bed[0])
    _play(game, state, "pick 1")
    # The unpicked column 3 is discarded face up; column 2 has 5 cards so seat 1 presses, column 1 has 4.
    assert state.phase == PRESS and game.to_move(state) == (1,)
    assert state.pressed[0] == [tuple(sorted(column1))]
    choices = game.legal_actions(state, 1)
    assert all(len(c.split()) == 5 for c in choices) and len(choices) == len(set(choices))
    assert game.public_action(state, 1, choices[0]) == "pressed 4 cards"
    _play(game, state, choices[-1])
    assert state.round == 1 and state.phase == PLANT
    top = max(state.scores)
    assert state.first == state.scores.index(top)
    assert game.view(state, 0)["public"]["pressed_counts"] == [len(column1), 4]


def test_tie_for_first_player_goes_to_the_lowest_marker() -> None:
    state = GAME.new(3, 2, {"first": 1})
    state.scores = [10, 10, 4]
    state.stack = [2, 1, 0]  # seat 1 reached 10 before seat 0
    state.pressed = [[()], [()], [()]]
    state.to_press = [[], [], []]
    flow.end_round(GAME.cards, state)
    assert state.first == 1


# ----- final scoring ---------------------------------------------------------------------------------
EXAMPLE = counts(HY=2, BB=2, ZI=2, DA=2, LI=2, TU=1, CH=1)


def test_final_example_declared_scores_48() -> None:
    tucked = counts(HY=1, DA=1)
    result = final_score(EXAMPLE, CARDS, tucked, {K["TU"]: K["HY"]})
    points = {CARDS.codes[g.kind]: g.points for g in result.groups}
    assert points == {"HY": 10, "ZI": 0, "DA": 4, "LI": 15, "TU": 9, "CH": 10}
    assert result.total == 48


def test_solver_finds_a_strictly_better_placement_for_the_example() -> None:
    result = best_final(EXAMPLE, CARDS)
    assert result.total > 48
    assert result.total == 52  # both Baby's Breaths to the Zinnias, the Tulip chooses the Zinnias
    assert sum(g.tucked for g in result.groups) == 2


def test_babys_breath_alone_scores_nothing_and_tulip_needs_another_group() -> None:
    assert best_final(counts(BB=3), CARDS).total == 0
    assert best_final(counts(TU=2), CARDS).total == 0
    result = best_final(counts(TU=1, BB=2), CARDS)
    assert result.total == 0 and result.unplaced == 0  # tucked behind the Tulip itself: no other group
    assert best_final(counts(TU=1, SU=3), CARDS).total == 6 + 9


def test_chrysanthemum_counts_groups_after_babys_breath() -> None:
    assert best_final(counts(CH=1, BB=1, HY=1), CARDS).groups[-1].count == 2


def _all_declarations(collection: list[int]):
    """Every Baby's Breath placement and Tulip choice a player could declare."""
    groups = [k for k in CARDS.kinds if collection[k] and k != K["BB"]]
    bbs = collection[K["BB"]]
    placements = [()] if not groups else [p for p in product(groups, repeat=bbs)]
    tulips = [g for g in groups if g != K["TU"]] if collection[K["TU"]] else [None]
    for placement in placements:
        tucked = [0] * len(CARDS.names)
        for g in placement:
            tucked[g] += 1
        for choice in tulips or [None]:
            yield tucked, ({K["TU"]: choice} if choice is not None else {})


collections = st.lists(st.sampled_from(range(len(CARDS.names))), min_size=1, max_size=12).map(
    lambda cards: [cards.count(k) for k in range(len(CARDS.names))]
).filter(lambda c: c[K["BB"]] <= 4 and all(n <= CARDS.copies[k] for k, n in enumerate(c)))


@settings(max_examples=150, deadline=None)
@given(collections)
def test_solver_total_is_at_least_every_declared_placement(collection: list[int]) -> None:
    best = best_final(collection, CARDS).total
    declared = [final_score(collection, CARDS, tucked, chosen).total
                for tucked, chosen in _all_declarations(collection)]
    assert best >= max(declared, default=0)
    assert best == max(declared, default=0)  # and it is one of them


@settings(max_examples=60, deadline=None)
@given(collections, st.randoms(use_true_random=False))
def test_fixed_choices_are_kept_and_never_beat_the_free_best(collection: list[int], rng: random.Random) -> None:
    options = list(_all_declarations(collection))
    tucked, chosen = rng.choice(options)
    fixed = best_final(collection, CARDS, tucked, chosen)
    assert fixed.total == final_score(collection, CARDS, tucked, chosen).total
    assert fixed.total <= best_final(collection, CARDS).total


# ----- options and setup -----------------------------------------------------------------------------
def test_electives_option() -> None:
    opts = GAME.normalise_options({"electives": "tulip, Babys Breath,anemone"})
    assert opts["electives"] == ("Anemone", "Baby's Breath", "Tulip")
    with pytest.raises(OptionError, match="exactly 3"):
        GAME.normalise_options({"electives": "tulip,aster"})
    with pytest.raises(OptionError, match="first"):
        GAME.new(2, 1, {"first": 3})
    state = GAME.new(2, 1, {"electives": "anemone,baby's breath,tulip"})
    every = sorted(c for zone in (state.deck, *state.hands, *state.bed) for c in zone)
    assert every == CARDS.deck(2, ("Anemone", "Baby's Breath", "Tulip"))


def test_game_ends_after_three_rounds_with_final_scoring() -> None:
    rng = random.Random(3)
    state = GAME.new(3, 9)
    while not GAME.is_over(state):
        seat = GAME.to_move(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert state.phase == OVER and state.round == 3
    parts = GAME.breakdown(state)
    assert all(p["total"] == p["planting"] + p["pressed"] for p in parts)
    assert all(len(pressed) == 3 for pressed in state.pressed)
    view = GAME.view(state, None)["public"]
    assert view["final"] == parts and len(view["pressed"]) == 3


def test_views_hide_hands_and_pressed_cards() -> None:
    rng = random.Random(1)
    state = GAME.new(3, 4)
    while state.round == 0 or state.phase != PLANT:
        seat = GAME.to_move(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    mine = GAME.view(state, 0)
    assert "hand" not in mine["public"] and mine["private"]["hand"]
    assert len(mine["private"]["pressed"]) == mine["public"]["pressed_counts"][0]
    assert GAME.view(state, None)["private"] == {}
    other = GAME.view(state, 1)
    assert other["public"] == mine["public"]
    assert other["private"]["hand"] == [CARDS.codes[c] for c in state.hands[1]]
    assert mine["private"]["hand"] == [CARDS.codes[c] for c in state.hands[0]]


def test_position_errors_name_the_line() -> None:
    with pytest.raises(PositionError, match="line 2: unknown flower 'Rose'"):
        GAME.score_position("Ana: Tulip\nBo: 2 Rose\n", "f.txt")


@settings(max_examples=80, deadline=None)
@given(collections, st.sampled_from([None, "Ana", "Zoë Ng"]))
def test_collection_lines_round_trip_and_score_like_the_engine(collection: list[int], name: str | None) -> None:
    from tablepress.games.pressed.notation import format_collection, parse_collections

    line = format_collection(collection, CARDS, name)
    [parsed] = parse_collections(line, CARDS)
    assert parsed.counts == collection and parsed.name == name
    [player] = GAME.score_position(line)["players"]
    assert player["total"] == best_final(collection, CARDS).total


def test_engine_final_scores_agree_with_the_scoring_helper() -> None:
    from tablepress.games.pressed.notation import format_collection
    from tablepress.games.pressed.scoring import collection_counts

    rng = random.Random(8)
    state = GAME.new(4, 17)
    while not GAME.is_over(state):
        seat = rng.choice(GAME.to_move(state))
        GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    lines = []
    for seat in range(4):
        cards = [c for pressed in state.pressed[seat] for c in pressed]
        lines.append(format_collection(collection_counts(cards, CARDS), CARDS, f"P{seat + 1}"))
    helper = GAME.score_position("\n".join(lines))["players"]
    parts = GAME.breakdown(state)
    assert [p["total"] for p in helper] == [p["pressed"] for p in parts]
    assert [p["total"] - p["planting"] for p in parts] == [p["pressed"] for p in parts]


def _query(state, action: str) -> str:
    """A planting query file for a `plant ...` action in `state` (choices as positions)."""
    bed_ = state.bed
    depth = max(len(col) for col in bed_)
    rows = [" ".join(CARDS.codes[col[r]] if r < len(col) else "." for col in bed_) for r in range(depth)]
    words = action.split()
    col = int(words[2]) - 1
    row = len(bed_[col])
    lines = rows + [f"play {words[1]} {words[2]}"]
    cells = [(r, col) for r in range(len(bed_[col]))] + [(row, c) for c in range(len(bed_)) if c != col and len(bed_[c]) > row]
    for key, code in zip(words[3::2], words[4::2]):
        r, c = next(cell for cell in cells if bed_[cell[1]][cell[0]] == K[code])
        lines.append(f"choose {r + 1} {c + 1}")
    return "\n".join(lines) + "\n"


def test_planting_queries_agree_with_the_engine_on_random_positions() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        players, electives = rng.choice([2, 3, 4, 5]), rng.choice(["AN,BB,TU", "AS,CH,BB"])
        state = GAME.new(players, seed, {"electives": electives} if players <= 3 else {})  # 4-5: every flower
        while not GAME.is_over(state):
            seat = rng.choice(GAME.to_move(state))
            legal = GAME.legal_actions(state, seat)
            if state.phase == PLANT:
                for action in rng.sample(legal, min(4, len(legal))):
                    [player] = GAME.score_position(_query(state, action))["players"]
                    assert player["total"] == GAME.plant_result(state, action).points, action
                    checked += 1
            action = rng.choice(legal)
            expected = GAME.plant_result(state, action).points if state.phase == PLANT else 0
            before = state.scores[seat]
            GAME.apply(state, seat, action)
            assert state.scores[seat] - before == expected
    assert checked > 1000

"""Flowers rules in play: setup by player count, draw and place, the timer, the end, views, undo."""

from __future__ import annotations

import random

import pytest

from tablepress.core.errors import IllegalAction, OptionError
from tablepress.games.flowers import GAME


@pytest.mark.parametrize(("players", "sizes"), [(1, [40, 40]), (2, [26, 26, 26]), (3, [30, 30, 30]), (4, [35, 35, 34])])
def test_stack_sizes_by_player_count(players, sizes):
    state = GAME.new(players, seed=1)
    assert [len(s) for s in state.stacks] == sizes
    assert all(len(area) == 1 for area in state.areas)
    if players == 4:
        assert [c for c in state.box if c not in GAME.cards.violets] == []


def test_face_up_and_face_down_stacks():
    public = GAME.view(GAME.new(3, seed=2), 0)["public"]
    assert [s["face_up"] for s in public["stacks"]] == [True, True, False]
    assert public["stacks"][0]["top"] and public["stacks"][1]["top"]
    assert public["stacks"][2]["top"] is None
    solo = GAME.view(GAME.new(1, seed=2), 0)["public"]
    assert [s["face_up"] for s in solo["stacks"]] == [True, False]


def test_summer_starts_everyone_on_a_violet_card():
    state = GAME.new(4, seed=3, options={"summer": True})
    assert all(GAME.cards.codes[area[(0, 0)][0]] == "V" for area in state.areas)
    assert sum(len(s) for s in state.stacks) == 108


def test_same_seed_same_game_and_different_seed_different_game():
    assert GAME.new(2, 9) == GAME.new(2, 9)
    assert GAME.new(2, 9) != GAME.new(2, 10)


def test_a_turn_is_draw_then_place_adjacent_or_covering():
    state = GAME.new(2, seed=4)
    assert GAME.legal_actions(state, 0) == ["draw 1", "draw 2", "draw 3"]
    assert GAME.legal_actions(state, 1) == []
    top = GAME.cards.codes[state.stacks[0][-1]]
    GAME.apply(state, 0, "draw 1")
    assert GAME.legal_actions(state, 0) == [
        f"place {top} 0,-1", f"place {top} -1,0", f"place {top} 0,0", f"place {top} 1,0", f"place {top} 0,1",
    ]
    GAME.apply(state, 0, f"place {top} 0,0")
    assert len(state.areas[0][(0, 0)]) == 2  # covered the start card
    assert GAME.to_move(state) == (1,)


def test_illegal_moves_are_refused_with_a_reason_and_change_nothing():
    state = GAME.new(2, seed=5)
    before = GAME.clone(state)
    with pytest.raises(IllegalAction, match="draw a card first"):
        GAME.apply(state, 0, "place Y1 0,1")
    with pytest.raises(IllegalAction, match="not seat 1's turn"):
        GAME.apply(state, 1, "draw 1")
    with pytest.raises(IllegalAction, match="no stack '7'"):
        GAME.apply(state, 0, "draw 7")
    assert state == before
    GAME.apply(state, 0, "draw 2")
    code = GAME.cards.codes[state.drawn]
    with pytest.raises(IllegalAction, match="neither holds nor touches"):
        GAME.apply(state, 0, f"place {code} 5,5")
    with pytest.raises(IllegalAction, match="you drew"):
        GAME.apply(state, 0, "place Q9 0,1")


def test_face_up_draw_turns_up_the_next_card_at_the_end_of_the_turn():
    state = GAME.new(2, seed=6)
    under = GAME.cards.codes[state.stacks[0][-2]]
    GAME.apply(state, 0, "draw 1")
    public = GAME.view(state, 1)["public"]
    assert public["stacks"][0]["top"] is None  # not turned up before the turn ends
    GAME.apply(state, 0, GAME.legal_actions(state, 0)[0])
    assert GAME.view(state, 1)["public"]["stacks"][0]["top"] == under


def test_only_face_up_draws_can_be_taken_back():
    state = GAME.new(2, seed=6)
    assert GAME.undoable(state, 0, "draw 1")
    assert not GAME.undoable(state, 0, "draw 3")
    GAME.apply(state, 0, "draw 1")
    assert not GAME.undoable(state, 0, GAME.legal_actions(state, 0)[0])


def test_a_face_down_draw_is_seen_by_the_drawer_only():
    state = GAME.new(3, seed=7)
    GAME.apply(state, 0, "draw 3")
    code = GAME.cards.codes[state.drawn]
    assert GAME.view(state, 0)["private"] == {"drawn": code}
    assert GAME.view(state, 1)["private"] == {}
    assert GAME.view(state, 1)["public"]["drawn"] is None
    GAME.apply(state, 0, f"place {code} 1,0")
    assert GAME.view(state, 1)["public"]["areas"][0][-1]["cards"] == [code]


def test_game_ends_when_a_player_takes_the_last_card_of_a_stack():
    state = GAME.new(2, seed=8)
    state.stacks[1] = state.stacks[1][-1:]
    GAME.apply(state, 0, "draw 2")
    assert not GAME.is_over(state)  # the drawer still places the card
    GAME.apply(state, 0, GAME.legal_actions(state, 0)[0])
    assert GAME.is_over(state)
    assert GAME.to_move(state) == ()


def test_solo_timer_removes_the_face_up_top_after_each_placement():
    state = GAME.new(1, seed=9)
    timer_top = state.stacks[0][-1]
    GAME.apply(state, 0, "draw 2")
    GAME.apply(state, 0, GAME.legal_actions(state, 0)[0])
    assert state.removed == [timer_top]
    assert len(state.stacks[0]) == 39
    assert GAME.winners(state) == []


def test_solo_ends_when_the_timer_empties_a_stack():
    state = GAME.new(1, seed=9)
    state.stacks[0] = state.stacks[0][-1:]
    GAME.apply(state, 0, "draw 2")
    GAME.apply(state, 0, GAME.legal_actions(state, 0)[0])
    assert GAME.is_over(state)


def test_ties_go_to_fewer_discards_then_are_shared():
    state = GAME.new(3, seed=10)
    ids = {code: list(cards) for code, cards in GAME.codes.ids_by_code.items()}
    take = lambda code: ids[code].pop()  # noqa: E731
    two_discards = {(0, 0): (take("Y4b"),), (1, 0): (take("B1"),), (0, 1): (take("Y4"),), (1, 1): (take("Y4"),),
                    (0, 2): (take("Y4"),), (3, 0): (take("R2"),), (3, 2): (take("G2"),)}
    state.areas = [{(0, 0): (take("R2"),)}, {(0, 0): (take("B2"),)}, two_discards]
    assert GAME.scores(state) == [-1, -1, -1]
    assert GAME.winners(state) == [0, 1]


def test_options_are_checked():
    with pytest.raises(OptionError, match="no option 'winter'"):
        GAME.normalise_options({"winter": True})
    with pytest.raises(OptionError, match="true or false"):
        GAME.normalise_options({"summer": "perhaps"})
    with pytest.raises(OptionError, match="1–4 players"):
        GAME.check_players(5)


def test_determinize_keeps_what_the_seat_knows():
    state = GAME.new(2, seed=11)
    GAME.apply(state, 0, "draw 3")
    mine = GAME.determinize(state, 0, random.Random(1))
    theirs = GAME.determinize(state, 1, random.Random(1))
    assert mine.drawn == state.drawn
    assert GAME.view(theirs, 1) == GAME.view(state, 1)


@pytest.mark.parametrize("summer", [False, True])
def test_determinize_never_puts_a_violet_in_a_stack(summer: bool):
    """The violets are in the box for all to know: a determinization keeps them there (it once pooled them)."""
    violets = set(GAME.cards.violets)
    for seed in range(20):
        state = GAME.new(3, seed, {"summer": summer})
        GAME.apply(state, 0, f"draw {len(state.stacks)}")
        for seat in range(3):
            sample = GAME.determinize(state, seat, random.Random(seed))
            assert not violets & {card for stack in sample.stacks for card in stack}
            assert violets & set(state.box) == violets & set(sample.box)
            assert sorted(GAME.card_counts(sample).elements()) == sorted(GAME.card_counts(state).elements())


def _resample_slot_by_slot(state, seat: int, rng: random.Random) -> None:
    """The plain statement of a determinization: unseen stack slots in order, then the box's coloured
    cards, then another's blind draw, pooled sorted, shuffled once and dealt back in that order."""
    from tablepress.games.flowers.views import drawn_is_public, visible_top

    slots = [(stack, position) for index, stack in enumerate(state.stacks)
             for position in range(len(stack) - (visible_top(state, index) is not None))]
    violets = set(GAME.cards.violets)
    pool = [stack[position] for stack, position in slots] + [c for c in state.box if c not in violets]
    hidden_draw = state.drawn is not None and not drawn_is_public(state) and seat != state.current
    if hidden_draw:
        pool.append(state.drawn)
    pool.sort()
    rng.shuffle(pool)
    for (stack, position), card in zip(slots, pool):
        stack[position] = card
    rest = pool[len(slots):]
    if hidden_draw:
        state.drawn = rest.pop()
    state.box = sorted(rest + [c for c in state.box if c in violets])


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_determinize_is_the_slot_by_slot_shuffle(players: int):
    """In random games, before and after each draw, every seat's determinization is the plain slot-by-slot
    one with the same generator, and leaves the generator in the same place."""
    from tablepress.core.plain import clone

    rng = random.Random(players)
    state = GAME.new(players, seed=players, options={"summer": players == 3})
    while not GAME.is_over(state):
        for seat in range(players):
            used, generator = random.Random(seat), random.Random(seat)
            sample = GAME.determinize(state, seat, used)
            expected = clone(state)
            _resample_slot_by_slot(expected, seat, generator)
            assert sample == expected
            assert used.getstate() == generator.getstate()
        mover = GAME.to_move(state)[0]
        GAME.apply_legal(state, mover, rng.choice(GAME.legal_actions(state, mover)))


def test_placing_actions_of_one_area_for_every_card():
    """The remembered placing cells of an area serve every drawn card: each card's actions are those of a
    fresh listing, top row first, on any card or an empty cell beside one."""
    from tablepress.games.flowers.notation import format_cell
    from tablepress.games.flowers.scoring import neighbours

    rng = random.Random(2)
    state = GAME.new(2, seed=5)
    for _ in range(30):
        seat = GAME.to_move(state)[0]
        GAME.apply_legal(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    seat = GAME.to_move(state)[0]
    if state.drawn is None:
        GAME.apply_legal(state, seat, "draw 1")
    area = state.areas[seat]
    cells = set(area) | {beside for cell in area for beside in neighbours(cell)}
    ordered = sorted(cells, key=lambda cell: (cell[1], cell[0]))
    for card in range(len(GAME.cards.codes)):
        state.drawn = card
        code = GAME.cards.codes[card]
        assert GAME.legal_actions(state, seat) == [f"place {code} {format_cell(cell)}" for cell in ordered]


def test_every_card_is_seen_by_the_seat_or_in_a_hidden_zone():
    """Public cards, the seat's private card, another seat's blind draw and the hidden zones hold every card once."""
    for players, seed in ((1, 12), (2, 13), (3, 14), (4, 15)):
        rng = random.Random(seed)
        state = GAME.new(players, seed)
        while not GAME.is_over(state):
            for seat in range(players):
                public = GAME.view(state, seat)["public"]
                seen = [c for area in public["areas"] for cell in area for c in cell["cards"]] + public["removed"]
                seen += public["box_violets"]
                seen += [s["top"] for s in public["stacks"] if s["top"]]
                drawn = public["drawn"] or GAME.view(state, seat)["private"].get("drawn")
                if drawn is None and state.drawn is not None:
                    drawn = GAME.cards.codes[state.drawn]  # another seat's face-down draw: their private view
                zones = GAME.hidden_zones(state, seat)
                unseen = [GAME.cards.codes[c] for cards in zones.values() for c in cards]
                everything = [GAME.cards.codes[c] for c in GAME.card_counts(state).elements()]
                assert sorted(seen + unseen + ([drawn] if drawn else [])) == sorted(everything)
            seat = GAME.to_move(state)[0]
            GAME.apply_legal(state, seat, rng.choice(GAME.legal_actions(state, seat)))


def test_remembered_placing_actions_are_those_of_the_area_and_card_now():
    """Placing actions are remembered per area and drawn card (search asks for them again and again): in
    random games they always equal a fresh listing of the cells, and a caller changing the list it got
    changes nothing later."""
    from tablepress.games.flowers.flow import placements
    from tablepress.games.flowers.notation import format_cell

    rng = random.Random(6)
    for players in (1, 2, 4):
        state = GAME.new(players, seed=players)
        while not GAME.is_over(state):
            seat = GAME.to_move(state)[0]
            actions = GAME.legal_actions(state, seat)
            if state.drawn is not None:
                code = GAME.cards.codes[state.drawn]
                fresh = [f"place {code} {format_cell(cell)}" for cell in placements(state.areas[seat])]
                assert actions == fresh
                actions.append("place V 99,99")
                assert GAME.legal_actions(state, seat) == fresh
            GAME.apply_legal(state, seat, rng.choice(fresh if state.drawn is not None else actions))

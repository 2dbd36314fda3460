"""Zones (core/zones.py, core/zoned.py): what a declared layout gives a game — card counts, determinizations
that deal again exactly what a seat cannot know, the hidden zones, the views — and declarations refused."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest

from tablepress.core.errors import TablepressError
from tablepress.core.zoned import ZonedGame
from tablepress.core.zones import OWNER, UP, Cards, Layout, Seen, Zone

NAMES = tuple(f"C{n}" for n in range(12))
CARDS = Cards("card", NAMES, fields={"number": tuple(range(12))})
TOKENS = Cards("token", ("red", "blue", "green"), backs=("warm", "cold", "cold"), first=100)


@dataclass
class Table:
    """A toy state: a face-down deck, a hand per seat, face-up piles, a single face-down card, token bags."""

    players: int
    deck: list[int]
    hands: list[list[int]]
    rows: list[list[int]]
    drawn: int | None
    bags: list[list[int]] = field(default_factory=list)
    record: list[tuple[int, ...]] = field(default_factory=list)
    rng: int = 0


LAYOUT = Layout(
    (CARDS, TOKENS),
    (
        Zone("deck", "deck"),
        Zone("hand", "hands", OWNER, per_seat=True, ordered=False),
        Zone("row", "rows", UP, piles=True),
        Zone("drawn", "drawn", single=True),
        Zone("bag", "bags", OWNER, per_seat=True, cards="token"),
        Zone("record", "record", UP, nested=True),
    ),
    chance="rng",
)


def table() -> Table:
    return Table(players=3, deck=[0, 1, 2, 3], hands=[[4, 5], [6, 7], [8, 9]], rows=[[10], []], drawn=11,
                 bags=[[100], [101, 102], []])


def test_card_counts_count_every_zone_by_name_or_declared_key():
    state = table()
    state.record = [(10,)]  # a record of play repeats a card: it is counted where it is declared
    counts = LAYOUT.card_counts(state)
    assert counts == Counter({**{name: 1 for name in NAMES}, "C10": 2, "red": 1, "blue": 1, "green": 1})
    keyed = Layout(Cards("card", NAMES, keys=tuple(range(12))), (Zone("deck", "deck"),))
    assert keyed.card_counts(state) == Counter(state.deck)


def test_redeal_keeps_what_the_seat_knows_and_pools_the_rest_by_set_and_back():
    truth = table()
    for seed in range(40):
        sample = table()
        LAYOUT.redeal(sample, 0, random.Random(seed), LAYOUT.facts(truth, [Seen("deck", start=3)]))
        assert sample.hands[0] == [4, 5] and sample.rows == [[10], []] and sample.bags[0] == [100]
        assert sample.deck[3] == 3, "a slot the seat has seen stays"
        unseen = sample.deck[:3] + sample.hands[1] + sample.hands[2] + [sample.drawn]
        assert sorted(unseen) == [0, 1, 2, 6, 7, 8, 9, 11]
        assert all(hand == sorted(hand) for hand in sample.hands), "a sorted zone is sorted again"
        assert sorted(sample.bags[1]) == [101, 102], "tokens with another back are never exchanged"
        assert LAYOUT.card_counts(sample) == LAYOUT.card_counts(truth)


def test_redeal_deals_one_sorted_pool_in_declaration_order():
    """The pool is the unseen cards sorted, shuffled once with the game's generator and dealt back slot by
    slot: the deck, then the other hands seat by seat, then the single card."""
    from tablepress.core.rng import shuffle

    sample, used = table(), random.Random(5)
    LAYOUT.redeal(sample, 1, used, {})
    pool, generator = [0, 1, 2, 3, 4, 5, 8, 9, 11], random.Random(5)
    shuffle(generator, pool)
    assert sample.deck == pool[:4] and sample.hands[0] == sorted(pool[4:6])
    assert sample.hands[2] == sorted(pool[6:8]) and sample.drawn == pool[8]
    assert used.getstate() == generator.getstate(), "one token to deal draws nothing more"


def test_hidden_zones_are_the_cards_nobody_knows_then_the_chance():
    state = table()
    state.rng = 77
    nobody = LAYOUT.facts(state, [Seen("deck", start=-1)])
    assert LAYOUT.hidden_zones(state, nobody) == {"deck": [0, 1, 2], "drawn": [11], "chance": 77}
    known = LAYOUT.facts(state, [Seen("drawn")], nobody)
    assert LAYOUT.hidden_zones(state, known) == {"deck": [0, 1, 2], "chance": 77}


def test_facts_by_card_and_by_pile():
    state = table()
    known = LAYOUT.facts(state, [Seen("deck", cards=frozenset({1, 3})), Seen("hand", pile=2, stop=1)])
    assert {where: set(slots) for where, slots in known.items()} == {("deck", None): {1, 3}, ("hand", 2): {0}}
    assert LAYOUT.facts(state, [Seen("hand", pile=1)]) == {("hand", 1): True}
    with pytest.raises(TablepressError, match="zone 'nowhere'"):
        LAYOUT.facts(state, [Seen("nowhere")])


@pytest.mark.parametrize(("zones", "message"), [
    (lambda: (Zone("hand", "hands", OWNER),), "only a zone per seat has an owner"),
    (lambda: (Zone("deck", "deck"), Zone("deck", "hands")), "declared twice"),
    (lambda: (Zone("deck", "deck", cards="coins"),), "not declared"),
    (lambda: (Zone("record", "record", nested=True),), "nested"),
    (lambda: (Zone("rows", "rows", UP, per_seat=True, piles=True),), "per_seat already"),
])
def test_wrong_declarations_are_refused_in_one_line(zones, message):
    with pytest.raises(TablepressError, match=message):
        Layout(CARDS, zones())


def test_cards_refuse_fields_of_the_wrong_length():
    with pytest.raises(TablepressError, match="field 'rank' has 2 values for 12 cards"):
        Cards("card", NAMES, fields={"rank": (1, 2)})


class Peek(ZonedGame[Table]):
    """A minimal zoned game over `Table` (no moves): only what zones give is used."""

    name = "peek"
    layout = LAYOUT

    def seen(self, state, seat):
        """Everyone has seen the deck's bottom card; seat 0 has seen the drawn card."""
        return [Seen("deck", stop=1)] if seat is None else [Seen("drawn")] if seat == 0 else []

    def table(self, state):
        """Nothing but the players."""
        return {"players": state.players}

    # the rules are no part of these tests
    new = to_move = legal_actions = apply_legal = is_over = scores = winners = breakdown = turn = None  # type: ignore


def test_the_view_shows_each_zone_as_the_seat_may_see_it():
    game, state = Peek(), table()
    spectator = game.view(state, None)
    assert spectator["private"] == {}
    zones = {(z["zone"], z.get("seat"), z.get("pile")): z["cards"] for z in spectator["public"]["zones"]}
    assert spectator["public"]["players"] == 3
    assert zones[("deck", None, None)] == ["C0", None, None, None]
    assert zones[("hand", 1, None)] == [None, None] and zones[("row", None, 1)] == ["C10"]
    assert zones[("drawn", None, None)] == [None] and zones[("record", None, None)] == []
    mine = {(z["zone"], z.get("seat")): z["cards"] for z in game.view(state, 0)["private"]["zones"]}
    assert mine == {("hand", 0): ["C4", "C5"], ("drawn", None): ["C11"], ("bag", 0): ["red"]}
    assert game.view(state, 1)["public"] == spectator["public"]


def test_a_zoned_game_determinizes_hides_and_counts_from_its_layout():
    game, state, before = Peek(), table(), table()
    state.rng = before.rng = 5
    assert game.hidden_information and game.card_counts(state) == LAYOUT.card_counts(state)
    assert game.hidden_zones(state, 1) == {"deck": [1, 2, 3], "chance": 5}
    sample = game.determinize(state, 0, random.Random(3))
    assert sample.drawn == 11 and sample.deck[0] == 0 and sample.rng != 5
    assert game.view(sample, 0) == game.view(state, 0)
    assert state == before, "the true state is left as it was"

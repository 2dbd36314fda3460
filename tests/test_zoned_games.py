"""The games moved onto zones behave as their hand-written code did: each determinization from the zones is
the one the game wrote out before (kept here as the plain statement of it), with the generator left in the
same place, at every position of random games at every player count; the hidden zones and card counts too."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tablepress.core.plain import clone
from tablepress.core.registry import get_game
from tablepress.core.rng import shuffle

from golden import player_counts, random_positions

BY_THIS = get_game("by-this")
FLOWERS = get_game("flowers")
PRESSED = get_game("pressed")
PLANTED = get_game("planted")


def by_this_by_hand(state, seat: int, rng: random.Random):
    """By This's determinize as written before zones: the deck and the other hands pooled sorted, shuffled,
    dealt back deck first; then the unseen top of the Key deck shuffled on its own."""
    sample = clone(state)
    others = [p for p in range(state.players) if p != seat]
    pool = sorted(list(state.deck) + [card for other in others for card in state.hands[other]])
    shuffle(rng, pool)
    size = len(state.deck)
    sample.deck = pool[:size]
    for other in others:
        count = len(state.hands[other])
        sample.hands[other] = sorted(pool[size:size + count])
        size += count
    hidden = sorted(state.key_deck[: state.key_hidden])
    shuffle(rng, hidden)
    sample.key_deck = hidden + state.key_deck[state.key_hidden:]
    return sample


def by_this_counts(state) -> Counter:
    """By This's card counts as written before zones: every card by name, every Key as `Key NAME`."""
    names, keys = BY_THIS.names, BY_THIS.cards.keys
    counts = Counter(names[c] for zone in (state.deck, *state.hands, state.floor, state.shelf, state.closed,
                                           state.spent) for c in zone)
    counts.update(f"Key {keys[k].name}" for k in (state.key, *state.face_up, *state.key_deck))
    return counts


def _same(game, by_hand, players: int, deal: int, hidden=None, counts=None) -> int:
    compared = 0
    for state in random_positions(game, players, deal):
        for seat in range(players):
            used, generator = random.Random(deal * 10 + seat), random.Random(deal * 10 + seat)
            assert game.determinize(state, seat, used) == by_hand(state, seat, generator)
            assert used.getstate() == generator.getstate()
            if hidden is not None:
                assert game.hidden_zones(state, seat) == hidden(state)
            compared += 1
        if counts is not None:
            assert game.card_counts(state) == counts(state)
    return compared


@pytest.mark.parametrize("players", list(player_counts(BY_THIS)))
def test_by_this_determinizes_hides_and_counts_as_written_by_hand(players):
    hidden = lambda state: {"deck": state.deck, "key deck": state.key_deck[: state.key_hidden]}  # noqa: E731
    assert sum(_same(BY_THIS, by_this_by_hand, players, deal, hidden, by_this_counts) for deal in range(3)) > 100


def flowers_hidden(state) -> dict:
    """Flowers' hidden zones as written before zones: each stack below a visible top, the box's coloured cards."""
    from tablepress.games.flowers.views import visible_top

    zones = {f"stack {index + 1}": stack[:len(stack) - (visible_top(state, index) is not None)]
             for index, stack in enumerate(state.stacks)}
    zones["box"] = [card for card in state.box if card not in FLOWERS.cards.violets]
    return zones


def flowers_counts(state) -> Counter:
    """Flowers' card counts as written before zones: every card id, covered cards and the drawn card too."""
    counts = Counter(state.box + state.removed + [card for stack in state.stacks for card in stack])
    counts.update(card for area in state.areas for cell in area.values() for card in cell)
    if state.drawn is not None:
        counts[state.drawn] += 1
    return counts


@pytest.mark.parametrize("players", list(player_counts(FLOWERS)))
def test_flowers_hides_and_counts_as_written_by_hand(players):
    """(Its determinize is held to the slot-by-slot statement in test_flowers_engine.py.)"""
    for deal in range(3):
        for state in random_positions(FLOWERS, players, deal):
            assert FLOWERS.card_counts(state) == flowers_counts(state)
            for seat in range(players):
                assert FLOWERS.hidden_zones(state, seat) == flowers_hidden(state)


def pressed_by_hand(state, seat: int, rng: random.Random):
    """Pressed's determinize as written before zones: the other hands and the deck pooled sorted, shuffled and
    dealt back hands first; then which cards of each other seat's pick it pressed; then the chance to come."""
    sample = clone(state)
    others = [s for s in range(sample.players) if s != seat]
    pool = sorted(sample.deck + [card for s in others for card in sample.hands[s]])
    shuffle(rng, pool)
    for s in others:
        size = len(sample.hands[s])
        sample.hands[s] = sorted(pool[:size])
        del pool[:size]
    sample.deck = pool
    discard = Counter(sample.discard)
    for s in others:
        for rnd, pressed in enumerate(sample.pressed[s]):
            column = sorted(sample.picks[rnd][s][1])
            if len(column) <= len(pressed):
                continue
            shuffle(rng, column)
            chosen = tuple(sorted(column[:len(pressed)]))
            discard.update(pressed)
            discard.subtract(chosen)
            sample.pressed[s][rnd] = chosen
    sample.discard = sorted(discard.elements())
    sample.rng = rng.getrandbits(63)
    return sample


def pressed_counts(state) -> Counter:
    """Pressed's card counts as written before zones: deck, discard, hands, bed, picked and pressed cards."""
    counts = Counter(state.deck + state.discard)
    for group in (state.hands, state.bed, state.to_press):
        for cards in group:
            counts.update(cards)
    counts.update(card for pressed in state.pressed for cards in pressed for card in cards)
    return counts


@pytest.mark.parametrize("players", list(player_counts(PRESSED)))
def test_pressed_determinizes_hides_and_counts_as_written_by_hand(players):
    hidden = lambda state: {"deck": state.deck, "chance": state.rng}  # noqa: E731
    assert sum(_same(PRESSED, pressed_by_hand, players, deal, hidden, pressed_counts) for deal in range(2)) > 100


def planted_counts(state) -> Counter:
    """Planted's card counts as written before zones: resource and item cards by number, plants as 1000 + index."""
    counts = Counter(state.resource_deck + state.item_deck + state.resource_discard + state.item_discard)
    for group in (state.hands, state.tools, state.decorations):
        for cards in group:
            counts.update(cards)
    counts.update(card for card in state.chosen if card)
    counts.update(1000 + plant for plant in state.plant_deck + state.row + state.put_away)
    counts.update(1000 + plant for plants in state.plants for plant in plants)
    return counts


@pytest.mark.parametrize("players", list(player_counts(PLANTED)))
def test_planted_hides_and_counts_as_written_by_hand(players):
    """(Its determinize stays its own: a face-down choice hides even a card's back.)"""
    for deal in range(2):
        for state in random_positions(PLANTED, players, deal):
            assert PLANTED.card_counts(state) == planted_counts(state)
            for seat in range(players):
                assert PLANTED.hidden_zones(state, seat) == {
                    "resource deck": state.resource_deck, "item deck": state.item_deck,
                    "plant deck": state.plant_deck, "chance": state.rng}

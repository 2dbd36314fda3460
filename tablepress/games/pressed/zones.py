"""Where Pressed's cards lie and who sees them (rules.md), declared as zones, and what zones cannot say.

Each hand is its owner's and the deck is face down; the Flower Bed is seen by all. A picked column
awaiting the press is listed in its owner's view, and every seat saw it picked (the public picks), so
nobody deals it anew. Which cards of its public pick a seat pressed is its own, and the rest went to
the face-down discard with the unpicked columns (seen by all): a constraint between zones that zones cannot
say, so `resample_presses` deals it, after the hands and the deck and before the chance to come.
"""

from __future__ import annotations

import random
from collections import Counter

from ...core.rng import shuffle
from ...core.zones import OWNER, UP, Cards, Layout, Zone
from .cards import PressedCards
from .state import PressedState


def layout(cards: PressedCards) -> Layout:
    """The flowers (by name, counted by kind) and their zones, in the order a determinization deals them:
    the other hands seat by seat, then the deck; the presses and the discard are left to `resample_presses`."""
    return Layout(
        Cards("flower", cards.names, fields={"code": cards.codes}, keys=tuple(cards.kinds)),
        (
            Zone("hand", "hands", OWNER, per_seat=True, ordered=False),
            Zone("deck", "deck"),
            Zone("bed", "bed", UP, piles=True),
            Zone("picked", "to_press", OWNER, per_seat=True, ordered=False, redeal=False),
            Zone("pressed", "pressed", OWNER, per_seat=True, nested=True, redeal=False),
            Zone("discard", "discard", ordered=False, redeal=False),
        ),
        chance="rng",
    )


def resample_presses(sample: PressedState, seat: int, rng: random.Random) -> None:
    """Guess anew, in place, which cards of its public pick each other seat pressed in each round (the
    rest of the pick is in the discard)."""
    discard = Counter(sample.discard)
    for other in range(sample.players):
        if other == seat:
            continue
        for rnd, pressed in enumerate(sample.pressed[other]):
            pick = sample.picks[rnd][other]
            assert pick is not None
            column = sorted(pick[1])
            if len(column) <= len(pressed):
                continue
            shuffle(rng, column)
            chosen = tuple(sorted(column[:len(pressed)]))
            discard.update(pressed)
            discard.subtract(chosen)
            sample.pressed[other][rnd] = chosen
    sample.discard = sorted(discard.elements())

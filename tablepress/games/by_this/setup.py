"""Setting up a game of By This: shuffle the Keys and the cards, deal, turn up the Floor, pick who starts."""

from __future__ import annotations

from ...core.errors import OptionError
from ...core.rng import chance
from .cards import ByThisCards
from .state import PLAY, ByThisState


def deal(cards: ByThisCards, players: int, seed: int, young: bool, first: str) -> ByThisState:
    """A new game: hands dealt one card at a time round the table, then the Floor turned up.

    Specials turned up onto the Floor are set aside, then shuffled back into the deck. `first` is
    "random" or a seat number from 1.
    """
    rng = chance(seed)
    keys = list(range(len(cards.keys)))
    rng.shuffle(keys)
    deck = list(range(cards.card_count))
    rng.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(players)]
    for _ in range(cards.hand_size[players]):
        for hand in hands:
            hand.append(deck.pop())
    floor: list[int] = []
    aside: list[int] = []
    while len(floor) < cards.floor_size and deck:
        card = deck.pop()
        (floor if card < cards.thing_count else aside).append(card)
    if aside:
        deck += aside
        rng.shuffle(deck)
    if first == "random":
        seat = rng.randrange(players)
    else:
        seat = int(first) - 1
        if seat >= players:
            raise OptionError(f"option first: seat {seat + 1} does not exist with {players} players")
    return ByThisState(
        players=players,
        young=young,
        current=seat,
        phase=PLAY,
        deck=deck,
        hands=[sorted(hand) for hand in hands],
        floor=floor,
        shelf=[],
        key=keys[0],
        face_up=keys[1:3],
        key_deck=keys[3:],
        key_hidden=len(keys) - 3,
        locked=False,
        scores=[0] * players,
        closes=[0] * players,
        total_closes=0,
        forced_closes=0,
        closed=[],
        spent=[],
        idle=0,
        acted=False,
        turn=0,
        first=seat,
    )

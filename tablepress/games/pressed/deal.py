"""Setting up a game of Pressed and dealing each round: the deck, the first player, hands and the Flower Bed."""

from __future__ import annotations

from ...core.errors import OptionError
from ...core.rng import chance, next_rng
from .cards import PressedCards
from .state import PLANT, PressedState


def setup(cards: PressedCards, players: int, seed: int, electives: tuple[str, ...], first: int) -> PressedState:
    """Build the deck for the player count and electives, choose the first player (0: by chance), start round 1."""
    if not 0 <= first <= players:
        raise OptionError(f"option first takes a seat from 1 to {players}, or 0 for random; not {first}")
    deck = cards.deck(players, electives)
    need = cards.cards_needed(players)
    if len(deck) < need:
        raise OptionError(f"{players} players need {need} cards over the game; these electives give {len(deck)}")
    rng = chance(seed)
    first = first - 1 if first else rng.randrange(players)
    columns = cards.columns(players)
    state = PressedState(
        players=players,
        electives=electives,
        rng=rng.getrandbits(63),
        deck=deck,
        hands=[[] for _ in range(players)],
        bed=[[] for _ in range(columns)],
        scores=[0] * players,
        stack=[(first + i) % players for i in range(players)],
        first=first,
        round=0,
        phase=PLANT,
        planted=0,
        swap_row=-1,
        pick_order=[],
        taken=[-1] * columns,
        picks=[],
        to_press=[[] for _ in range(players)],
        pressed=[[] for _ in range(players)],
        discard=[],
        seen=[],
        turn=0,
        last=None,
    )
    start_round(cards, state)
    return state


def start_round(cards: PressedCards, state: PressedState) -> None:
    """Shuffle the remaining deck, deal the hands and lay out the Flower Bed."""
    rng, state.rng = next_rng(state.rng)
    rng.shuffle(state.deck)
    hand = cards.hand
    for step in range(state.players):
        seat = (state.first + step) % state.players
        state.hands[seat] = sorted(state.deck[-hand:])
        del state.deck[-hand:]
    columns = cards.columns(state.players)
    state.bed = [[] for _ in range(columns)]
    for _, col in cards.bed_cells(state.players):
        state.bed[col].append(state.deck.pop())
    state.taken = [-1] * columns
    state.picks.append([None] * state.players)
    state.phase = PLANT
    state.planted = 0
    state.pick_order = []

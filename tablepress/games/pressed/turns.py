"""Whether a Pressed seat is certainly done moving after an action, without applying it (for lookahead).

`turn_goes_on` is the package's `Heuristics.turn_goes_on`: False only when the seat is certainly not to
move after the action, True when it may be (then the agent applies the action and looks). A plant ends
the planter's turn unless the card acts as an Anemone (a swap may follow) or it was the round's last
plant (the picking order is by score: the planter may pick first); a swap or no-swap ends it unless the
round's planting is over; a pick unless every column chooser has picked (pressing is simultaneous); a
press unless it was the last (a new round may start with the presser).
"""

from __future__ import annotations

from .cards import COPY, SWAP
from .engine import PressedGame
from .state import PressedState


def turn_goes_on(game: PressedGame, state: PressedState, seat: int, action: str) -> bool:
    """Whether `seat` may still be to move after the legal `action` (False: certainly not)."""
    words = action.split()
    verb = words[0]
    if verb == "plant":
        cards = game.cards
        kind = cards.code_kind[words[1]]
        acts_as = cards.code_kind[words[4]] if cards.effects[kind] == COPY and len(words) > 4 and words[3] == "copy" else kind
        return cards.effects[acts_as] == SWAP or sum(map(len, state.hands)) <= 1
    if verb in ("swap", "noswap"):
        return not any(state.hands)
    if verb == "pick":
        return sum(1 for taken in state.taken if taken >= 0) + 1 >= state.players
    return sum(1 for cards in state.to_press if cards) <= 1

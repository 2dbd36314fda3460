"""Planted actions as people type them: the short forms an action's text may take, and one clear
sentence for each way an action can be wrong.
"""

from __future__ import annotations

from .cards import LETTERS
from .legal import Actions, to_move
from .state import BUY, CHOOSE, FEED, NURSERY, PLAY, PlantedState


def canonical(actions: Actions, state: PlantedState, seat: int, action: str) -> str:
    """The action a typed text means: `play 15` → `play 15 LL`; plant names in any case, accents optional,
    a feeding's plants in any order. Text that means nothing is returned unchanged (normalised spaces)."""
    text = " ".join(str(action).split())
    verb, _, rest = text.partition(" ")
    verb = verb.lower()
    cards = actions.cards
    if verb in (PLAY, NURSERY):
        number = rest.split(" ", 1)[0]
        if number.isdecimal() and int(number) in actions.play_text:
            return f"{verb} {int(number)} {cards.label(int(number))}"
    elif verb == "buy":
        typed, _, extra = rest.partition("+")
        name = actions.plant_names.get(typed)
        if name is not None:
            picks = "".join(sorted(extra.replace(" ", "").upper(), key=lambda ch: LETTERS.find(ch)))
            return f"buy {name}" + (f" +{picks}" if picks else "")
    elif verb == "feed":
        if rest.lower() in ("none", "nothing", ""):
            return "feed none"
        names = [actions.plant_names.get(part) for part in rest.split("+")]
        board = [cards.plants[p].name for p in state.plants[seat]]
        if all(name in board for name in names):
            return "feed " + "+".join(sorted(names, key=board.index))
    return text


def explain_illegal(actions: Actions, state: PlantedState, seat: int, action: str) -> str:
    """Say what is wrong with an action: wrong step, a card not in hand, the 6-plant limit, a bad feeding."""
    meant = canonical(actions, state, seat, action)
    if meant != " ".join(action.split()) and seat in to_move(state) and meant in actions.legal(state, seat):
        return f"write it as {meant!r}"
    verb, _, rest = meant.partition(" ")
    verb = verb.lower()
    if state.phase == CHOOSE:
        if verb not in (PLAY, NURSERY):
            return "choose a card: play N or nursery N (N is the card's number)"
        number = rest.split(" ", 1)[0]
        if not number.isdecimal() or int(number) not in state.hands[seat]:
            return f"card {number or '?'} is not in your hand (your cards: {', '.join(map(str, state.hands[seat]))})"
        if verb == NURSERY:
            return f"you have {len(state.plants[seat])} plants: at most {actions.cards.max_plants}, so no Nursery call"
        return f"write play {number} or nursery {number}"
    if state.phase == BUY:
        name = rest.partition(" +")[0]
        row = ", ".join(actions.cards.plants[p].name for p in state.row)
        if verb != "buy" or name not in actions.plant_index or actions.plant_index[name] not in state.row:
            return f"take a plant from the nursery row: buy NAME (row: {row})"
        return f"with your Trowels write the resources too, for example: {actions.legal(state, seat)[0]}"
    if state.phase == FEED:
        if verb != "feed":
            return "feed your plants: feed NAME+NAME, or feed none"
        return (f"{action!r} cannot be paid for, names a plant you do not have or a fully grown one, or feeds "
                f"one twice; the best feeding is {actions.legal(state, seat)[0]!r}")
    return "the game is over"

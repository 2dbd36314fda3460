"""Who sees what in Planted: each seat's view, what others see of an action, and determinization (a full
state that agrees with what one seat knows; the zones, in zones.py, give the hidden zones and card counts).

Boards, the nursery row, deck sizes, discards and revealed cards are public. Hands and hidden choices
(with their Nursery calls) are private, but the back of a card in hand shows whether it is a resource
or an item card, and a seat remembers the hands it held this round and passed on. Choices are made at
the same time: until the reveal, what others see of a seat that has chosen is only that it has (its
face-down card counts among the cards it holds), so a seat still choosing learns nothing from being
asked after another.
"""

from __future__ import annotations

import random
from typing import Any

from ...core import plain
from ...core.rng import shuffle
from .cards import LETTERS, PlantedCards
from .feeding import feeding_text
from .flow import pass_shift
from .legal import Actions, to_move
from .scoring import plant_points, scores, seat_score
from .state import BUY, CHOOSE, FEED, NURSERY, OVER, PLAY, PlantedState

#: Chance that a determinization guesses another seat's hidden choice was a Nursery call.
NURSERY_GUESS = 0.2


def known_seats(cards: PlantedCards, state: PlantedState, seat: int) -> list[int]:
    """The other seats whose hands `seat` knows: the hands it held this round and passed on."""
    if state.phase not in (CHOOSE, BUY) or not state.step:
        return []
    shift = pass_shift(cards, state.round)
    return [(seat + j * shift) % state.players for j in range(1, min(state.step, state.players - 1) + 1)]


def public_action(state: PlantedState, seat: int, action: str) -> str:
    """Other seats see that a card was chosen, never which card or whether it calls Nursery."""
    if action.split(" ", 1)[0] in (PLAY, NURSERY):
        return "chose a card"
    return action


def view(actions: Actions, state: PlantedState, seat: int | None) -> dict[str, Any]:
    """Boards, the nursery row, deck sizes, discards and revealed cards are public; hands and hidden choices private."""
    cards = actions.cards
    public = {
        "players": state.players,
        "phase": state.phase,
        "round": min(state.round + 1, cards.rounds),
        "rounds": cards.rounds,
        "step": state.step + 1,
        "turn": state.turn,
        "direction": "left" if cards.passes_left(min(state.round, cards.rounds - 1)) else "right",
        "to_move": list(to_move(state)),
        "row": [_plant(cards, p) for p in state.row],
        "plant_deck": len(state.plant_deck),
        "resource_deck": len(state.resource_deck),
        "item_deck": len(state.item_deck),
        "resource_discard": list(state.resource_discard),
        "item_discard": list(state.item_discard),
        "boards": [_board(actions, state, s) for s in range(state.players)],
        "revealed": [{"seat": s, **_card(cards, c), "nursery": n} for s, c, n in state.revealed],
        "bought": [{"seat": s, "plant": cards.plants[p].name} for s, p in state.bought],
        "calls": [{"seat": s, "card": c} for c, s in state.calls],
        "scores": scores(cards, state),
        "over": state.phase == OVER,
    }
    private: dict[str, Any] = {}
    if seat is not None:
        private["hand"] = [_card(cards, c) for c in state.hands[seat]]
        if state.chosen[seat]:
            private["chosen"] = {**_card(cards, state.chosen[seat]), "nursery": state.nursery[seat]}
        known = []
        for other in known_seats(cards, state, seat):
            held = sorted(state.hands[other] + ([state.chosen[other]] if state.chosen[other] else []))
            known.append({"seat": other, "cards": [_card(cards, c) for c in held],
                          "one_chosen": bool(state.chosen[other])})
        if known:
            private["known_hands"] = known
        if state.phase == FEED and not state.fed[seat]:
            private["feedings"] = [
                {"action": feeding_text(cards, state.plants[seat], f), "points": f.gain,
                 "covered": f.covered, "propagation": f.propagated, "green_thumbs": f.thumbs}
                for f in actions.feedings(state, seat)
            ]
    return {"public": public, "private": private}


def _card(cards: PlantedCards, card: int) -> dict[str, Any]:
    return {"number": card, "name": cards.label(card), "kind": cards.kind(card)}


def _plant(cards: PlantedCards, plant: int) -> dict[str, Any]:
    p = cards.plants[plant]
    return {"name": p.name, "type": p.type, "tier": p.tier, "cost": p.cost_text, "spaces": list(p.spaces)}


def _board(actions: Actions, state: PlantedState, seat: int) -> dict[str, Any]:
    cards = actions.cards
    chosen = state.chosen[seat]
    held = state.hands[seat] + ([chosen] if chosen else [])
    resources = sum(1 for c in held if c in cards.shows)
    score = seat_score(cards, state, seat)
    board: dict[str, Any] = {
        "plants": [{**_plant(cards, p), "tokens": t, "points": plant_points(cards.plants[p].spaces, t)}
                   for p, t in zip(state.plants[seat], state.growth[seat])],
        "resources": dict(zip(LETTERS, state.resources[seat])),
        "tools": [cards.label(c) for c in state.tools[seat]],
        "decorations": [cards.label(c) for c in state.decorations[seat]],
        "propagation": state.propagation[seat],
        "score": score.total,
        "points": {"plants": score.plants, "propagation": score.propagation, "decorations": score.decorations,
                   "each_decoration": [{"decoration": n, "points": p} for n, p in score.decoration_rows]},
        # the cards the seat holds by their backs, a card chosen face down among them
        "hand": {"resource": resources, "item": len(held) - resources},
        "chosen": bool(chosen),
        "fed": state.fed[seat] if state.phase == FEED else None,
        "feeding": state.feeds[seat] or None,
    }
    if state.phase == FEED and not state.fed[seat]:
        best = actions.feedings(state, seat)[0]
        board["best_feeding"] = {"action": feeding_text(cards, state.plants[seat], best), "points": best.gain,
                                 "propagation": best.propagated, "green_thumbs": best.thumbs}
    return board


def determinize(cards: PlantedCards, state: PlantedState, seat: int, rng: random.Random) -> PlantedState:
    """Resample what `seat` cannot know: deck orders, unknown hands and choices, other seats' Nursery calls, chance.

    Unknown cards stay of their kind (resource or item: the backs of cards in hand differ). A hand the
    seat held and passed on keeps its cards. Which of the cards another seat holds is its face-down
    choice is drawn among all of them, whatever their kind: the back of a chosen card is not seen.
    """
    copy = plain.clone(state)
    known = set(known_seats(cards, state, seat))
    held: dict[int, list[int]] = {}
    for other in range(state.players):
        if other != seat:
            held[other] = copy.hands[other] + ([copy.chosen[other]] if copy.chosen[other] else [])
    slots: dict[bool, list[tuple[list[int], int]]] = {False: [], True: []}
    for other, cards_held in held.items():
        if other not in known:
            for index, card in enumerate(cards_held):
                slots[card not in cards.shows].append((cards_held, index))
    for items, deck in ((False, copy.resource_deck), (True, copy.item_deck)):
        slots[items] += [(deck, index) for index in range(len(deck))]
    for items in (False, True):
        pool = sorted(holder[index] for holder, index in slots[items])
        shuffle(rng, pool)
        for (holder, index), card in zip(slots[items], pool):
            holder[index] = card
    for other, cards_held in held.items():
        cards_held.sort()
        if copy.chosen[other]:
            pick = cards_held.pop(rng.randrange(len(cards_held)))
            copy.chosen[other] = pick
            can_call = len(copy.plants[other]) < cards.max_plants
            copy.nursery[other] = can_call and rng.random() < NURSERY_GUESS
        copy.hands[other] = cards_held
    copy.plant_deck.sort()
    shuffle(rng, copy.plant_deck)
    copy.rng = rng.getrandbits(63)
    return copy

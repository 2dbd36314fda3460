"""Who sees what in Pressed: each seat's view and what others see of an action (the zones, in zones.py,
say the same of the cards; determinize, the hidden zones and the card counts come from them).

Public: the bed, every score and the stack order, the cards of each picked column, how many cards each
seat pressed, the unpicked columns (seen face up before they were discarded). Private to a seat: its
hand and which of its picked cards it pressed. Nobody sees the deck or the chance to come.
"""

from __future__ import annotations

from typing import Any

from .cards import PressedCards
from .flow import current, to_move
from .results import breakdown, winners
from .scoring import best_final, collection_counts
from .state import EFFECT, OVER, PICK, PLANT, PRESS, PressedState, collection


def card_info(cards: PressedCards) -> list[dict[str, Any]]:
    """Every flower's data (code, what it counts, table, copies, effect) as JSON-ready rows."""
    rows = []
    for kind in cards.kinds:
        what = cards.counts[kind]
        rows.append({
            "name": cards.names[kind],
            "code": cards.codes[kind],
            "counts": what if isinstance(what, str) else cards.names[what],
            "table": list(cards.tables[kind]),
            "copies": cards.copies[kind],
            "effect": cards.effects[kind],
        })
    return rows


def view(cards: PressedCards, state: PressedState, seat: int | None) -> dict[str, Any]:
    """Bed, scores, stack, picks and pressed counts are public; a hand and pressed cards are the owner's."""
    codes = cards.codes
    public: dict[str, Any] = {
        "players": state.players,
        "round": min(state.round + 1, cards.rounds),
        "rounds": cards.rounds,
        "phase": state.phase,
        "turn": state.turn,
        "to_move": list(to_move(state)),
        "first": state.first,
        "current": current(state) if state.phase in (PLANT, EFFECT) else None,
        "electives": list(state.electives),
        "deck_flowers": [cards.names[k] for k in cards.deck_flowers(state.players, state.electives)],
        "bed": [[codes[c] for c in col] for col in state.bed],
        "taken": [None if t < 0 else t for t in state.taken],
        "swap_row": state.swap_row + 1 if state.phase == EFFECT else None,
        "pick_order": list(state.pick_order) if state.phase in (PICK, PRESS) else [],
        "picks": [
            [None if p is None else {"column": p[0] + 1, "cards": [codes[c] for c in p[1]]} for p in rnd]
            for rnd in state.picks
        ],
        "scores": list(state.scores),
        "stack": list(state.stack),
        "hand_sizes": [len(h) for h in state.hands],
        "deck_size": len(state.deck),
        "discard_size": len(state.discard),
        "seen_discards": [codes[c] for c in state.seen],
        "pressed_counts": [sum(len(p) for p in pressed) for pressed in state.pressed],
        "pressing": [s for s in range(state.players) if state.to_press[s]] if state.phase == PRESS else [],
        "last": _last_view(cards, state),
        "cards": card_info(cards),
    }
    if state.phase == OVER:
        public["final"] = breakdown(cards, state)
        public["pressed"] = [[codes[c] for c in collection(state, s)] for s in range(state.players)]
        public["winners"] = winners(cards, state)
    private: dict[str, Any] = {}
    if seat is not None:
        private = {
            "hand": [codes[c] for c in state.hands[seat]],
            "pressed": [codes[c] for c in collection(state, seat)],
            "to_press": [codes[c] for c in state.to_press[seat]],
        }
        if state.pressed[seat]:
            private["pressed_value"] = best_final(collection_counts(collection(state, seat), cards), cards).total
    return {"public": public, "private": private}


def _last_view(cards: PressedCards, state: PressedState) -> dict[str, Any] | None:
    if state.last is None:
        return None
    seat, kind, row, col, points, copy, choose = state.last
    codes = cards.codes
    return {"seat": seat, "flower": codes[kind], "row": row + 1, "column": col + 1, "points": points,
            "copy": codes[copy] if copy >= 0 else None, "choose": codes[choose] if choose >= 0 else None}


def public_action(seat: int, action: str) -> str:
    """Plants, swaps and picks are public; a press shows only how many cards were pressed."""
    if action.startswith("press"):
        return f"pressed {len(action.split()) - 1} cards"
    return action

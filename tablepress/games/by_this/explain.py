"""Why an action is not legal in By This, in one line a player can act on."""

from __future__ import annotations

from .notation import BYTHIS, CLOSE, DUMP, FLOOR, KEEP, LOCK, PASS, PLACE, SAME, parse_action
from .rules import ByThisRules
from .state import CLOSE_STEP, PLACE_STEP, ByThisState


class ByThisExplain(ByThisRules):
    """Explanations of illegal actions: the form, the step, the card's number, the rule it breaks."""

    def explain_illegal(self, state: ByThisState, seat: int, action: str) -> str:
        """Say what is wrong with an action: its form, the step, the card's number, the rule it breaks."""
        if state.phase == CLOSE_STEP:
            return f"the turn ends with a choice: close (score {self.close_score(state)}) or keep"
        try:
            act = parse_action(action)
        except ValueError as exc:
            return str(exc)
        names = self.names
        if act.verb in (CLOSE, KEEP):
            return f"you may close only at the end of your turn with {self.close_min(state)}+ things on the shelf"
        if state.phase == PLACE_STEP and act.verb != PLACE:
            return "after your special, place a thing: " + ", ".join(self.placements(state, seat)[:4])
        if act.verb in (PLACE, SAME, FLOOR):
            card = self.by_name.get(act.thing or "")
            if card is None:
                return f"there is no thing called {act.thing!r}"
            zone = state.floor if act.from_floor else state.hands[seat]
            if card not in zone:
                return f"{names[card]} is not {'on the Floor' if act.from_floor else 'in your hand'}"
            key = self.cards.keys[state.key]
            numbers = self.key_numbers[state.key]
            number = f"{names[card]} is {key.word} {numbers[card]}"
            if act.verb == FLOOR:
                return "you may put a thing on the Floor only when you cannot place one"
            if act.verb == PLACE:
                ends = self.ends(state, card)
                if not state.shelf:
                    return f"the shelf is empty: write place {names[card]}"
                if not ends:
                    left, right = numbers[state.shelf[0]], numbers[state.shelf[-1]]
                    sign_l, sign_r = ("≤", "≥") if key.ascending else ("≥", "≤")
                    return (f"{number}; it fits neither end under {key.name} (left needs {sign_l} {left}, "
                            f"right needs {sign_r} {right})")
                return f"{number}; it may go on the {' or '.join(e for e in ends if e)} end"
            if self.special_in_hand(state, seat, SAME) is None:
                return "you hold no Same Number"
            return f"{number}; Same Number puts it only next to a card with the same number"
        if act.verb in (BYTHIS, DUMP, LOCK):
            if self.special_in_hand(state, seat, act.verb) is None:
                return f"you hold no {self._special_name(act.verb)}"
            if act.verb == BYTHIS:
                if state.locked:
                    return "the Key is locked until the next close: no By This"
                if state.young and state.total_closes == 0:
                    return "Young table: no By This until someone has closed once"
                offered = ", ".join(self.cards.keys[k].plain for k in state.face_up)
                return f"{act.key!r} is not a face-up Key (face up: {offered})"
        if act.verb == PASS:
            return "you may pass only when you hold no thing and cannot place"
        return f"{action!r} is not a legal action now"

    def _special_name(self, effect: str) -> str:
        for card, kind in enumerate(self.cards.effect):
            if kind == effect:
                return self.names[card]
        return effect

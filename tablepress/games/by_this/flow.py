"""The flow of a By This turn: who moves, the legal actions, and applying one (rules.md, A turn).

A turn: the player draws to a full hand (automatically, as the turn begins), then takes one main
action — `place`, `samenumber`, `bythis KEY`, `dump`, `lock`, `floor THING` or `pass` (see notation.py).
By This, Dump the Shelf and Lock the Key are followed by a `place` step when a placement is possible;
otherwise the turn goes straight on. By This is its own step because it turns up a new face-up Key
that the player sees before placing. At the end of the turn, if the shelf is long enough, the player
decides `close` or `keep`. Then the forced close (a whole round without a place or a special) and the
end of the game are checked, and the next player draws.

Choices where the rules file is silent (what a print-and-play table would do):
- Same Number places a thing from the hand or the Floor (it is "a way of placing"), into any gap next
  to a card with the thing's number — an end gap too. Gaps are named `after X` (or `before X` when the
  left neighbour differs), so each gap is one action.
- Dump the Shelf on an empty shelf and Lock the Key on a locked Key may be played: the special is spent
  and the turn counts as one with a special.
- An optional close also restarts the count toward a forced close (the shelf is new).
"""

from __future__ import annotations

from functools import lru_cache

from .notation import BYTHIS, CLOSE, DUMP, FLOOR, KEEP, LOCK, PASS, PLACE, SAME, format_same, parse_action
from .rules import ByThisRules
from .scoring import first_out_of_order
from .state import CLOSE_STEP, OVER, PLACE_STEP, PLAY, ByThisState

#: Legal actions are parsed again and again by search: parse each text once.
parse_legal = lru_cache(maxsize=100_000)(parse_action)


class ByThisFlow(ByThisRules):
    """Whose move it is, what they may do, and what doing it changes."""

    def to_move(self, state: ByThisState) -> tuple[int, ...]:
        """The current player, until the game ends."""
        return () if state.phase == OVER else (state.current,)

    def legal_actions(self, state: ByThisState, seat: int) -> list[str]:
        """Every legal action of `seat` now (see notation.py), in a stable order."""
        if state.phase == OVER or seat != state.current:
            return []
        if state.phase == CLOSE_STEP:
            return [CLOSE, KEEP]
        placements = self.placements(state, seat)
        if state.phase == PLACE_STEP:
            return placements
        actions = list(placements)
        hand = state.hands[seat]
        limit = self.thing_count
        effects = {self.cards.effect[card] for card in hand if card >= limit}
        if SAME in effects and state.shelf:
            names = self.names
            for card, from_floor in [(c, False) for c in hand if c < limit] + [(c, True) for c in state.floor]:
                actions += [format_same(names[card], side, names[other], from_floor)
                            for side, other in self.same_number_slots(state, card)]
        if BYTHIS in effects and self.bythis_allowed(state):
            actions += [f"{BYTHIS} {self.cards.keys[key].plain}" for key in state.face_up]
        if DUMP in effects:
            actions.append(DUMP)
        if LOCK in effects:
            actions.append(LOCK)
        if not placements:
            things = [card for card in hand if card < limit]
            actions += [f"{FLOOR} {self.names[card]}" for card in things]
            if not things:
                actions.append(PASS)
        return actions

    def apply_legal(self, state: ByThisState, seat: int, action: str) -> None:
        """Apply a legal action in place and move the turn on as far as it goes without a decision."""
        act = parse_legal(action)
        verb = act.verb
        if verb == PLACE:
            card = self._take(state, seat, act.thing, act.from_floor)
            if act.end == "left":
                state.shelf.insert(0, card)
            else:
                state.shelf.append(card)
            state.acted = True
            self._close_step(state)
        elif verb == SAME:
            self._spend(state, seat, SAME)
            card = self._take(state, seat, act.thing, act.from_floor)
            gap = state.shelf.index(self.by_name[act.other]) + (1 if act.end == "after" else 0)
            state.shelf.insert(gap, card)
            self._close_step(state)
        elif verb == FLOOR:
            card = self.by_name[act.thing]
            state.hands[seat].remove(card)
            state.floor.append(card)
            self._close_step(state)
        elif verb == PASS:
            self._close_step(state)
        elif verb == CLOSE:
            self._close(state, seat)
            self._end_turn(state, closed=True)
        elif verb == KEEP:
            self._end_turn(state, closed=False)
        else:
            self._spend(state, seat, verb)
            if verb == BYTHIS:
                self._by_this(state, self.key_by_plain[act.key])
            elif verb == DUMP:
                state.floor += state.shelf
                state.shelf = []
            else:
                state.locked = True
            if self.placements(state, seat):
                state.phase = PLACE_STEP
            else:
                self._close_step(state)

    def undoable(self, state: ByThisState, seat: int, action: str) -> bool:
        """A step that leaves the turn with the same player and turns up nothing unseen may be taken back."""
        if action.startswith(BYTHIS) and state.key_hidden:
            return False
        after = self.clone(state)
        self.apply_legal(after, seat, action)
        return after.turn == state.turn and after.phase != OVER

    def _take(self, state: ByThisState, seat: int, name: str | None, from_floor: bool) -> int:
        card = self.by_name[name]  # type: ignore[index]
        (state.floor if from_floor else state.hands[seat]).remove(card)
        return card

    def _spend(self, state: ByThisState, seat: int, effect: str) -> None:
        card = self.special_in_hand(state, seat, effect)
        state.hands[seat].remove(card)  # type: ignore[arg-type]
        state.spent.append(card)  # type: ignore[arg-type]
        state.acted = True

    def _by_this(self, state: ByThisState, new_key: int) -> None:
        """Take a face-up Key (the old one goes under the Key deck, its top refills the row), then slide."""
        slot = state.face_up.index(new_key)
        state.key_deck.append(state.key)
        state.face_up[slot] = state.key_deck.pop(0)
        if state.key_hidden:
            state.key_hidden -= 1
        state.key = new_key
        fall = first_out_of_order(self.shelf_numbers(state), self.key_ascending[new_key])
        if fall is not None:
            state.floor += state.shelf[fall:]
            del state.shelf[fall:]

    def _close_step(self, state: ByThisState) -> None:
        if len(state.shelf) >= self.close_min(state):
            state.phase = CLOSE_STEP
        else:
            self._end_turn(state, closed=False)

    def _close(self, state: ByThisState, seat: int | None) -> None:
        """Close the shelf: score it for `seat` (None: a forced close, for no one); the cards leave the game."""
        points = self.close_score(state) if seat is not None else 0
        state.shelves.append((-1 if seat is None else seat, points, tuple(state.shelf)))
        if seat is not None:
            state.scores[seat] += points
            state.closes[seat] += 1
        else:
            state.forced_closes += 1
        state.total_closes += 1
        state.closed += state.shelf
        state.shelf = []
        state.locked = False

    def _end_turn(self, state: ByThisState, closed: bool) -> None:
        if state.acted or closed:
            state.idle = 0
        else:
            state.idle += 1
            if state.idle >= state.players and state.shelf:
                self._close(state, None)
                state.idle = 0
        state.acted = False
        state.turn += 1
        if state.total_closes >= self.cards.closes_to_end[state.players] or not self._things_left(state):
            state.phase = OVER
            return
        state.current = (state.current + 1) % state.players
        state.phase = PLAY
        hand, deck = state.hands[state.current], state.deck
        need = self.cards.hand_size[state.players] - len(hand)
        if need > 0 and deck:
            for _ in range(min(need, len(deck))):
                hand.append(deck.pop())
            hand.sort()

    def _things_left(self, state: ByThisState) -> bool:
        if state.floor:
            return True
        limit = self.thing_count
        return any(card < limit for card in state.deck) or any(card < limit for hand in state.hands for card in hand)

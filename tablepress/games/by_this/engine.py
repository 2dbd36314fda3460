"""By This rules engine (rules/by-this.md): the Key, the shelf, the Floor, specials, closes, the end, views.

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
- Hands are dealt one card at a time round the table, then the Floor is turned up.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...core.errors import OptionError
from ...core.game import Game, Option
from ...core.rng import chance
from .cards import ByThisCards, load_data
from .notation import (BYTHIS, CLOSE, DUMP, FLOOR, KEEP, LOCK, PASS, PLACE, SAME, Action, format_place,
                       format_same, parse_action, parse_position)
from .scoring import close_points, piles, score_close

PLAY, PLACE_STEP, CLOSE_STEP, OVER = "play", "place", "close", "over"
FIRST_CHOICES = ("random", "1", "2", "3", "4")


@dataclass(slots=True)
class ByThisState:
    """Everything about one game of By This. Plain data: cheap to clone, picklable, comparable."""

    players: int
    young: bool
    current: int
    phase: str  # play, place (after a special), close (the close decision), over
    deck: list[int]  # things and specials; the top is the last
    hands: list[list[int]]  # each kept sorted
    floor: list[int]  # face up, in the order the things arrived
    shelf: list[int]  # left to right
    key: int  # the Key in play
    face_up: list[int]  # the two face-up Keys
    key_deck: list[int]  # the top is the first; old Keys go under (the end)
    key_hidden: int  # how many Keys at the top of the Key deck nobody has seen
    locked: bool
    scores: list[int]
    closes: list[int]  # closes made by each seat (forced closes count for no one)
    total_closes: int  # every close, forced ones included
    forced_closes: int
    closed: list[int]  # cards that left the game by closing
    spent: list[int]  # specials played (they leave the game)
    idle: int  # turns in a row with neither a place nor a special
    acted: bool  # the current turn has had a place or a special
    turn: int = 0
    first: int = 0


class ByThisGame(Game[ByThisState]):
    """By This for 2–4 players, with the Young table variant."""

    name = "by-this"
    title = "By This"
    min_players = 2
    max_players = 4
    default_players = 3
    options = (
        Option("young", "bool", False, "Young table: no By This until someone has closed once"),
        Option("first", "choice", "random", "who plays first: random, or a seat number from 1",
               choices=FIRST_CHOICES),
    )
    public_actions = True  # every card played is seen by all
    summary = (
        "By This — the same things live in many true orders. File things on a shared shelf in order under "
        "the Key in play (ABC, Size, Weight or Age, rising or falling), from your hand or the Floor. Close the "
        "shelf to score its length plus its piles of same numbers — or spend a rare key to file it a new way."
    )

    def __init__(self, data: Mapping[str, Any] | None = None):
        self.data = dict(data) if data is not None else load_data()
        self.cards = ByThisCards.from_data(self.data)
        cards = self.cards
        self.thing_count = cards.thing_count
        self.names = cards.names
        self.by_name = {name: card for card, name in enumerate(cards.names[: cards.thing_count])}
        self.key_by_plain = {key.plain: index for index, key in enumerate(cards.keys)}
        self.key_numbers = [cards.numbers[key.word_index] for key in cards.keys]
        self.key_ascending = [key.ascending for key in cards.keys]
        self._parsed: dict[str, Action] = {}
        #: per thing, (from hand, from the Floor) × (empty shelf, left, right): the `place` texts.
        self._place_texts = [
            tuple(tuple(format_place(name, end, from_floor) for end in (None, "left", "right"))
                  for from_floor in (False, True))
            for name in cards.names[: cards.thing_count]
        ]

    def load_data(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The card data (cards.toml) with a variant's `overrides` merged in."""
        return load_data(overrides)

    # ----- setup -------------------------------------------------------------------------------
    def new(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> ByThisState:
        """Shuffle the Keys and the cards, deal hands, turn up the Floor (specials set aside), pick the first player."""
        self.check_players(players)
        opts = self.normalise_options(options)
        rng = chance(seed)
        keys = list(range(len(self.cards.keys)))
        rng.shuffle(keys)
        deck = list(range(self.cards.card_count))
        rng.shuffle(deck)
        hand_size = self.cards.hand_size[players]
        hands: list[list[int]] = [[] for _ in range(players)]
        for _ in range(hand_size):
            for hand in hands:
                hand.append(deck.pop())
        floor: list[int] = []
        aside: list[int] = []
        while len(floor) < self.cards.floor_size and deck:
            card = deck.pop()
            (floor if card < self.thing_count else aside).append(card)
        if aside:
            deck += aside
            rng.shuffle(deck)
        if opts["first"] == "random":
            first = rng.randrange(players)
        else:
            first = int(opts["first"]) - 1
            if first >= players:
                raise OptionError(f"option first: seat {first + 1} does not exist with {players} players")
        return ByThisState(
            players=players,
            young=opts["young"],
            current=first,
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
            first=first,
        )

    # ----- rules helpers ---------------------------------------------------------------------
    def ends(self, state: ByThisState, card: int, key: int | None = None) -> list[str | None]:
        """The ends of the shelf where a thing may go under the Key: [None] on an empty shelf."""
        shelf = state.shelf
        if not shelf:
            return [None]
        key = state.key if key is None else key
        numbers = self.key_numbers[key]
        n, left, right = numbers[card], numbers[shelf[0]], numbers[shelf[-1]]
        if self.key_ascending[key]:
            return [end for end, ok in (("left", n <= left), ("right", n >= right)) if ok]
        return [end for end, ok in (("left", n >= left), ("right", n <= right)) if ok]

    def placements(self, state: ByThisState, seat: int) -> list[str]:
        """Every `place` action of `seat`: things from the hand first (in hand order), then from the Floor."""
        limit = self.thing_count
        hand = [card for card in state.hands[seat] if card < limit]
        shelf = state.shelf
        if not shelf:
            texts = self._place_texts
            return [texts[card][0][0] for card in hand] + [texts[card][1][0] for card in state.floor]
        numbers = self.key_numbers[state.key]
        left, right = numbers[shelf[0]], numbers[shelf[-1]]
        if not self.key_ascending[state.key]:  # mirror: a falling Key is a rising one on negated numbers
            left, right, sign = -left, -right, -1
        else:
            sign = 1
        actions = []
        for from_floor, cards in ((0, hand), (1, state.floor)):
            for card in cards:
                n = sign * numbers[card]
                if n <= left:
                    actions.append(self._place_texts[card][from_floor][1])
                if n >= right:
                    actions.append(self._place_texts[card][from_floor][2])
        return actions

    def same_number_slots(self, state: ByThisState, card: int) -> list[tuple[str, int]]:
        """Where Same Number may put a thing: (`after`/`before`, neighbour card), one entry per gap."""
        shelf = state.shelf
        numbers = self.key_numbers[state.key]
        n = numbers[card]
        slots = []
        for gap in range(len(shelf) + 1):
            if gap > 0 and numbers[shelf[gap - 1]] == n:
                slots.append(("after", shelf[gap - 1]))
            elif gap < len(shelf) and numbers[shelf[gap]] == n:
                slots.append(("before", shelf[gap]))
        return slots

    def special_in_hand(self, state: ByThisState, seat: int, effect: str) -> int | None:
        """The id of a special with that effect in the seat's hand, or None."""
        for card in state.hands[seat]:
            if self.cards.effect[card] == effect:
                return card
        return None

    def bythis_allowed(self, state: ByThisState) -> bool:
        """Whether the Key may change now: not locked, and at a Young table only after the first close."""
        return not state.locked and not (state.young and state.total_closes == 0)

    def close_min(self, state: ByThisState) -> int:
        """The fewest things on the shelf for a player to close."""
        return self.cards.close_min[state.players]

    def shelf_numbers(self, state: ByThisState, key: int | None = None) -> list[int]:
        """The shelf's numbers under the Key in play (or another Key)."""
        numbers = self.key_numbers[state.key if key is None else key]
        return [numbers[card] for card in state.shelf]

    def close_score(self, state: ByThisState) -> int:
        """What closing the shelf now would score."""
        return close_points(self.shelf_numbers(state))

    # ----- flow --------------------------------------------------------------------------------
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
        effects = {self.cards.effect[card] for card in hand if card >= self.thing_count}
        if SAME in effects and state.shelf:
            names = self.names
            for card, from_floor in [(c, False) for c in hand if c < self.thing_count] + [(c, True) for c in state.floor]:
                actions += [format_same(names[card], side, names[other], from_floor)
                            for side, other in self.same_number_slots(state, card)]
        if BYTHIS in effects and self.bythis_allowed(state):
            actions += [f"{BYTHIS} {self.cards.keys[key].plain}" for key in state.face_up]
        if DUMP in effects:
            actions.append(DUMP)
        if LOCK in effects:
            actions.append(LOCK)
        if not placements:
            things = [card for card in hand if card < self.thing_count]
            actions += [f"{FLOOR} {self.names[card]}" for card in things]
            if not things:
                actions.append(PASS)
        return actions

    def _parse(self, action: str) -> Action:
        parsed = self._parsed.get(action)
        if parsed is None:
            parsed = parse_action(action)
            if len(self._parsed) < 100_000:
                self._parsed[action] = parsed
        return parsed

    def apply_legal(self, state: ByThisState, seat: int, action: str) -> None:
        """Apply a legal action in place and move the turn on as far as it goes without a decision."""
        act = self._parse(action)
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
        numbers, ascending, shelf = self.key_numbers[new_key], self.key_ascending[new_key], state.shelf
        for index in range(1, len(shelf)):
            before, after = numbers[shelf[index - 1]], numbers[shelf[index]]
            if (after < before) if ascending else (after > before):
                state.floor += shelf[index:]
                del shelf[index:]
                break

    def _close_step(self, state: ByThisState) -> None:
        if len(state.shelf) >= self.close_min(state):
            state.phase = CLOSE_STEP
        else:
            self._end_turn(state, closed=False)

    def _close(self, state: ByThisState, seat: int | None) -> None:
        """Close the shelf: score it for `seat` (None: a forced close, for no one); the cards leave the game."""
        if seat is not None:
            state.scores[seat] += self.close_score(state)
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
            number = f"{names[card]} is {key.word} {self.key_numbers[state.key][card]}"
            if act.verb == FLOOR:
                return "you may put a thing on the Floor only when you cannot place one"
            if act.verb == PLACE:
                ends = self.ends(state, card)
                if not state.shelf:
                    return f"the shelf is empty: write place {names[card]}"
                if not ends:
                    left, right = self.key_numbers[state.key][state.shelf[0]], self.key_numbers[state.key][state.shelf[-1]]
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

    def undoable(self, state: ByThisState, seat: int, action: str) -> bool:
        """A step that leaves the turn with the same player and turns up nothing unseen may be taken back."""
        if action.startswith(BYTHIS) and state.key_hidden:
            return False
        after = self.clone(state)
        self.apply_legal(after, seat, action)
        return after.turn == state.turn and after.phase != OVER

    # ----- information -------------------------------------------------------------------------
    def key_view(self, key: int) -> dict[str, Any]:
        """A Key as JSON: name, word, direction and ends."""
        card = self.cards.keys[key]
        return {"name": card.name, "plain": card.plain, "word": card.word, "ascending": card.ascending,
                "from": card.left, "to": card.right}

    def card_view(self, state: ByThisState, card: int, ends: bool = True) -> dict[str, Any]:
        """A card as JSON: a thing with its number under the Key, all four numbers and (optionally) legal ends."""
        if card >= self.thing_count:
            name = self.names[card]
            return {"card": name, "special": True, "effect": self.cards.effect[card],
                    "text": self.cards.special_text[name]}
        view: dict[str, Any] = {"card": self.names[card], "special": False,
                                "number": self.key_numbers[state.key][card],
                                "numbers": self.cards.all_numbers(card)}
        if ends:
            view["ends"] = [end or "any" for end in self.ends(state, card)]
        return view

    def view(self, state: ByThisState, seat: int | None) -> dict[str, Any]:
        """Public: Keys, shelf, Floor, scores, closes, hand sizes, the lock, played cards. Private: the seat's hand."""
        names = self.names
        numbers = self.shelf_numbers(state)
        shelf = [self.card_view(state, card, ends=False) for card in state.shelf]
        pile_list = []
        for start, length, number in piles(numbers):
            if length > 1:
                for entry in shelf[start:start + length]:
                    entry["pile"] = len(pile_list)
                pile_list.append({"number": number, "cards": [names[c] for c in state.shelf[start:start + length]]})
        over = state.phase == OVER
        public = {
            "players": state.players,
            "young": state.young,
            "turn": state.turn,
            "first": state.first,
            "current": None if over else state.current,
            "phase": state.phase,
            "over": over,
            "key": self.key_view(state.key),
            "face_up_keys": [self.key_view(key) for key in state.face_up],
            "key_deck": len(state.key_deck),
            "key_deck_known_under": [self.cards.keys[k].name for k in state.key_deck[state.key_hidden:]],
            "locked": state.locked,
            "bythis_allowed": self.bythis_allowed(state),
            "deck": len(state.deck),
            "hand_sizes": [len(hand) for hand in state.hands],
            "shelf": shelf,
            "piles": pile_list,
            "close_score": close_points(numbers),
            "close_min": self.close_min(state),
            "can_close": len(state.shelf) >= self.close_min(state),
            "floor": [self.card_view(state, card) for card in state.floor],
            "scores": list(state.scores),
            "closes": list(state.closes),
            "total_closes": state.total_closes,
            "closes_to_end": self.cards.closes_to_end[state.players],
            "forced_closes": state.forced_closes,
            "idle_turns": state.idle,
            "spent": [names[c] for c in state.spent],
            "closed": len(state.closed),
            "closed_cards": [names[c] for c in state.closed],
        }
        private: dict[str, Any] = {}
        if seat is not None:
            private["hand"] = [self.card_view(state, card) for card in state.hands[seat]]
        return {"public": public, "private": private}

    def hidden_zones(self, state: ByThisState, seat: int) -> dict[str, Any]:
        """The deck in order and the Keys at the top of the Key deck that nobody has seen."""
        return {"deck": state.deck, "key deck": state.key_deck[: state.key_hidden]}

    def determinize(self, state: ByThisState, seat: int, rng: random.Random) -> ByThisState:
        """Reshuffle what `seat` has not seen: the deck with the other hands, and the unseen top of the Key deck."""
        clone = self.clone(state)
        others = [p for p in range(state.players) if p != seat]
        pool = list(state.deck)
        for other in others:
            pool += state.hands[other]
        pool.sort()
        rng.shuffle(pool)
        size = len(state.deck)
        clone.deck = pool[:size]
        for other in others:
            count = len(state.hands[other])
            clone.hands[other] = sorted(pool[size:size + count])
            size += count
        hidden = sorted(state.key_deck[: state.key_hidden])
        rng.shuffle(hidden)
        clone.key_deck = hidden + state.key_deck[state.key_hidden:]
        return clone

    def clone(self, state: ByThisState) -> ByThisState:
        """A copy sharing nothing mutable with the original."""
        return ByThisState(
            players=state.players,
            young=state.young,
            current=state.current,
            phase=state.phase,
            deck=list(state.deck),
            hands=[list(hand) for hand in state.hands],
            floor=list(state.floor),
            shelf=list(state.shelf),
            key=state.key,
            face_up=list(state.face_up),
            key_deck=list(state.key_deck),
            key_hidden=state.key_hidden,
            locked=state.locked,
            scores=list(state.scores),
            closes=list(state.closes),
            total_closes=state.total_closes,
            forced_closes=state.forced_closes,
            closed=list(state.closed),
            spent=list(state.spent),
            idle=state.idle,
            acted=state.acted,
            turn=state.turn,
            first=state.first,
        )

    # ----- results -----------------------------------------------------------------------------
    def turn(self, state: ByThisState) -> int:
        """Turns completed so far."""
        return state.turn

    def is_over(self, state: ByThisState) -> bool:
        """Whether the game has ended (enough closes, or no thing left)."""
        return state.phase == OVER

    def scores(self, state: ByThisState) -> list[int]:
        """Each player's points from closes."""
        return list(state.scores)

    def winners(self, state: ByThisState) -> list[int]:
        """Most points; ties go to more closes; still tied, shared."""
        best = max(zip(state.scores, state.closes))
        return [seat for seat in range(state.players) if (state.scores[seat], state.closes[seat]) == best]

    def breakdown(self, state: ByThisState) -> list[dict[str, Any]]:
        """Each seat's total and its number of closes (the tie-break)."""
        return [{"total": score, "closes": closes} for score, closes in zip(state.scores, state.closes)]

    def card_counts(self, state: ByThisState) -> Counter:
        """Every card and Key, wherever it is (hidden ones included)."""
        names = self.names
        counts = Counter(names[c] for c in state.deck)
        for zone in (*state.hands, state.floor, state.shelf, state.closed, state.spent):
            counts.update(names[c] for c in zone)
        keys = self.cards.keys
        counts.update(f"Key {keys[k].name}" for k in (state.key, *state.face_up, *state.key_deck))
        return counts

    # ----- people ------------------------------------------------------------------------------
    def score_position(self, text: str, source: str = "position") -> dict[str, Any]:
        """Score closing the shelf of a position file (contract.md): {"game", "players": [{"name", "total", ...}]}."""
        players = []
        for shelf in parse_position(text, self.cards, source):
            key = self.cards.keys[shelf.key]
            numbers = [self.key_numbers[shelf.key][c] for c in shelf.things]
            result = score_close([self.names[c] for c in shelf.things], numbers).as_dict()
            players.append({
                "name": shelf.name,
                **result,
                "key": key.name,
                "shelf": [{"thing": self.names[c], "number": n} for c, n in zip(shelf.things, numbers)],
            })
        return {"game": self.name, "players": players}

    def rules_text(self) -> str:
        """The rules summary for `help`."""
        return RULES_HELP


RULES_HELP = """\
[b]By This[/b] — 2–4 players. One shared shelf, read left to right under the [b]Key in play[/b]: only the Key's
word counts (ABC, Size, Weight or Age), and its direction says whether numbers rise or fall. Same numbers sit together.
[b]Your turn:[/b] you draw to a full hand (6 / 5 / 4 for 2 / 3 / 4 players). Then either
  • [b]place[/b] a thing from your hand or the Floor on a legal end (ascending Key: left if ≤ the leftmost
    number, right if ≥ the rightmost; mirrored when descending; any thing on an empty shelf), or
  • play a [b]special[/b] (it leaves the game), then place if you can:
    By This — take a face-up Key; the old one goes under the Key deck. Slide: from the left, the first card
      out of order with its left neighbour and everything right of it fall to the Floor. Not while locked.
    Dump the Shelf — the whole shelf to the Floor; the Key stays.   Lock the Key — no By This until the next close.
    Same Number — place a thing next to any card with the same number, not only at an end.
  If you cannot place, put a thing from your hand on the Floor (no thing in hand: play a special or pass).
[b]Close:[/b] at the end of your turn, with 4+ things on the shelf (3+ with 2 players) you may close: score its
length + 1 for every extra card in a pile of same numbers (three 1s = +2). A whole round with no place and no
special closes the shelf for no one. Young table: no By This before the first close.
[b]End:[/b] after 6 closes (8 with 4 players) or when no thing is left. Most points; ties: more closes; then shared.
[b]Commands:[/b] a move as listed (place Apple left, bythis A to Z, close ...), its number, numbers (all four numbers
of the shelf, Floor and hand), thing NAME, undo, help, log, quit.
"""

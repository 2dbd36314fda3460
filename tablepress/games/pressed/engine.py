"""Pressed rules engine (rules/pressed.md): deal, plant and score, effects, pick, press, three rounds.

Actions (stable text, in `legal_actions` order):

- `plant HY 3` — play a Hydrangea into column 3 (the space below its lowest card);
  `plant TU 3 choose SU` — a Tulip choosing Sunflower (a card in its row or column);
  `plant BB 3 copy HY` — a Baby's Breath copying a Hydrangea; `plant BB 3 copy TU choose SU`.
  Choices name flowers, not cards: two cards of one flower are the same choice.
- `swap 2,1 2,4` / `noswap` — after an Anemone (or a Baby's Breath copying one) scores: swap two
  cards of its row (row,column), or not. Swapping two cards of one flower is no change, so never listed.
- `pick 3` — take column 3 of the bed (in ascending order of score, ties lowest in the stack first).
- `press HY HY SU ZI` — the cards of your picked column you press (all seats choose at once; with 4
  cards or fewer picked every card is pressed without asking).

Choices this engine makes where rules/pressed.md leaves room:
- A Baby's Breath copying a Tulip may choose any card in its row or column except itself, the copied
  Tulip included (and then counts itself, as a Tulip).
- With no card in its row or column (never at a real table), a Baby's Breath or Tulip plants for 0.
- The Anemone's swap is its own step right after the plant; swapping two cards of the same flower is
  not offered (it changes nothing); with no two different flowers in the row the step is skipped.
- Pressing is simultaneous and secret; others see only how many cards were pressed.
- The game option `first` (1..players) fixes the first player of round 1; 0 draws it from the seed.
- Final scores always use the best Baby's Breath placement and Tulip choice (a player would).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ...core.errors import DataError, OptionError
from ...core.game import Game, Option
from ...core.rng import chance, next_rng
from .cards import CHOSEN, COPY, SWAP, PressedCards, load_data
from .notation import score_position
from .scoring import PlantScore, best_final, collection_counts, line_cards, plant_choices, plant_score

PLANT, EFFECT, PICK, PRESS, OVER = "plant", "swap", "pick", "press", "over"
NOSWAP = "noswap"


@dataclass(slots=True)
class PressedState:
    """Everything about one game of Pressed. Plain data: cheap to clone, picklable, comparable.

    Cards are flower indices. Columns of `bed` list cards from row 1 down. `stack` lists seats in the
    order their markers last moved (bottom first): among seats on one score, earlier is lower.
    """

    players: int
    electives: tuple[str, ...]
    rng: int
    deck: list[int]
    hands: list[list[int]]  # sorted
    bed: list[list[int]]
    scores: list[int]
    stack: list[int]
    first: int
    round: int
    phase: str
    planted: int  # plant turns completed this round
    swap_row: int  # the row of a pending Anemone swap, or -1
    pick_order: list[int]
    taken: list[int]  # per column: the seat that picked it, or -1
    picks: list[list[tuple[int, tuple[int, ...]] | None]]  # per round, per seat: (column, its cards)
    to_press: list[list[int]]  # per seat: picked cards awaiting the press choice (sorted)
    pressed: list[list[tuple[int, ...]]]  # per seat, per round: the cards pressed (sorted)
    discard: list[int]  # face down, sorted
    seen: list[int]  # unpicked columns discarded (seen face up by all), sorted
    turn: int
    last: tuple[int, int, int, int, int, int, int] | None  # seat, kind, row, column, points, copy, choose


class PressedGame(Game[PressedState]):
    """Pressed for 2–5 players: plant flowers for points, pick columns, press sets for final scoring."""

    name = "pressed"
    title = "Pressed"
    min_players = 2
    max_players = 5
    default_players = 3
    public_actions = False  # which cards a player presses is secret
    summary = (
        "Pressed — three rounds. Each round everyone gets 4 cards and a Flower Bed is laid out. Plant one "
        "card at a time below the lowest card of a column and score it at once on its table by counting "
        "its flower in its row and column. Then, lowest score first, each player picks a whole column and "
        "presses 4 of its cards. After three rounds each group of pressed flowers scores once more."
    )

    def __init__(self, data: Mapping[str, Any] | None = None):
        self.data = dict(data) if data is not None else load_data()
        self.cards = PressedCards.from_data(self.data)
        players = self.cards.players()
        self.min_players, self.max_players = min(players), max(players)
        self.default_players = min(max(self.default_players, self.min_players), self.max_players)
        self.code_kind = {code: kind for kind, code in enumerate(self.cards.codes)}
        self.options = (
            Option("electives", "set", self.cards.default_electives,
                   f"the {self.cards.elective_count} elective flowers (decks for "
                   f"{', '.join(str(p) for p in players if 'electives' in self.cards.decks[p])} players)",
                   choices=self.cards.electives, size=self.cards.elective_count),
            Option("first", "int", 0, "the seat (1, 2, ...) that plays first in round 1; 0 = at random"),
        )
        for count in players:
            need = self.cards.cards_needed(count)
            have = len(self.cards.deck(count, self.cards.default_electives))
            if have < need:
                raise DataError(f"pressed: {count} players need {need} cards over the game; the deck has {have}")

    def load_data(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The card data (cards.toml) with a variant's `overrides` merged in."""
        return load_data(overrides)

    def normalise_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """As the base, and electives may also be given by code or plural (`AN,BB,TU`, `Babys Breath`)."""
        given = dict(options or {})
        if "electives" in given:
            value = given["electives"]
            items = value if isinstance(value, (list, tuple)) else str(value).split(",")
            named = []
            for item in items:
                kind = self.cards.kind_of(str(item).strip()) if str(item).strip() else None
                named.append(self.cards.names[kind] if kind is not None else str(item))
            given["electives"] = named
        return super().normalise_options(given)

    # ----- setup -------------------------------------------------------------------------------
    def new(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> PressedState:
        """Build the deck for the player count and electives, choose the first player, start round 1."""
        self.check_players(players)
        opts = self.normalise_options(options)
        electives = tuple(opts["electives"])
        first = int(opts["first"])
        if not 0 <= first <= players:
            raise OptionError(f"option first takes a seat from 1 to {players}, or 0 for random; not {first}")
        deck = self.cards.deck(players, electives)
        need = self.cards.cards_needed(players)
        if len(deck) < need:
            raise OptionError(f"{players} players need {need} cards over the game; these electives give {len(deck)}")
        rng = chance(seed)
        first = first - 1 if first else rng.randrange(players)
        columns = self.cards.columns(players)
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
        self._start_round(state)
        return state

    def _start_round(self, state: PressedState) -> None:
        """Shuffle the remaining deck, deal the hands and lay out the Flower Bed."""
        rng, state.rng = next_rng(state.rng)
        rng.shuffle(state.deck)
        hand = self.cards.hand
        for step in range(state.players):
            seat = (state.first + step) % state.players
            state.hands[seat] = sorted(state.deck[-hand:])
            del state.deck[-hand:]
        columns = self.cards.columns(state.players)
        state.bed = [[] for _ in range(columns)]
        for _, col in self.cards.bed_cells(state.players):
            state.bed[col].append(state.deck.pop())
        state.taken = [-1] * columns
        state.picks.append([None] * state.players)
        state.phase = PLANT
        state.planted = 0
        state.pick_order = []

    # ----- flow --------------------------------------------------------------------------------
    def current(self, state: PressedState) -> int:
        """The seat planting now (meaningful in the plant and swap steps)."""
        return (state.first + state.planted) % state.players

    def to_move(self, state: PressedState) -> tuple[int, ...]:
        """The planter, the next picker, or every seat still to press."""
        if state.phase in (PLANT, EFFECT):
            return (self.current(state),)
        if state.phase == PICK:
            return (state.pick_order[sum(1 for t in state.taken if t >= 0)],)
        if state.phase == PRESS:
            return tuple(seat for seat in range(state.players) if state.to_press[seat])
        return ()

    def legal_actions(self, state: PressedState, seat: int) -> list[str]:
        """Every legal action of `seat` now, in a stable order (see the module docstring)."""
        if seat not in self.to_move(state):
            return []
        codes = self.cards.codes
        if state.phase == PLANT:
            return self._plant_actions(state.bed, sorted(set(state.hands[seat])))
        if state.phase == EFFECT:
            return [NOSWAP] + [f"swap {r + 1},{a + 1} {r + 1},{b + 1}" for r, a, b in self._swaps(state)]
        if state.phase == PICK:
            return [f"pick {col + 1}" for col, who in enumerate(state.taken) if who < 0]
        return [_press_text(codes, choice) for choice in self.press_choices(state.to_press[seat])]

    def _plant_actions(self, bed: list[list[int]], kinds: list[int]) -> list[str]:
        """`plant ...` for every flower in hand, column and distinct choice (fast path of plant_choices)."""
        codes, cards = self.cards.codes, self.cards
        simple = [cards.effects[k] != COPY and cards.counts[k] != CHOSEN for k in kinds]
        columns = range(len(bed))
        lines = None if all(simple) else [sorted(set(line_cards(bed, len(bed[c]), c))) for c in columns]
        actions = []
        for kind, plain in zip(kinds, simple):
            prefix = "plant " + codes[kind] + " "
            if plain:
                actions += [prefix + str(c + 1) for c in columns]
                continue
            assert lines is not None
            for c in columns:
                head = prefix + str(c + 1)
                targets = lines[c]
                if not targets:
                    actions.append(head)
                elif cards.effects[kind] == COPY:
                    for copy in targets:
                        if cards.counts[copy] == CHOSEN:
                            actions += [f"{head} copy {codes[copy]} choose {codes[t]}" for t in targets]
                        else:
                            actions.append(f"{head} copy {codes[copy]}")
                else:
                    actions += [f"{head} choose {codes[t]}" for t in targets]
        return actions

    def press_choices(self, picked: list[int]) -> list[tuple[int, ...]]:
        """Every distinct set of `press` cards from a sorted list of picked cards, in order."""
        return sorted(set(combinations(picked, self.cards.press)))

    @staticmethod
    def _swaps(state: PressedState) -> list[tuple[int, int, int]]:
        row = state.swap_row
        cols = [c for c, col in enumerate(state.bed) if len(col) > row]
        return [(row, a, b) for i, a in enumerate(cols) for b in cols[i + 1:] if state.bed[a][row] != state.bed[b][row]]

    def apply_legal(self, state: PressedState, seat: int, action: str) -> None:
        """Apply a legal action in place."""
        words = action.split()
        verb = words[0]
        if verb == "plant":
            kind = self.code_kind[words[1]]
            col = int(words[2]) - 1
            copy = choose = None
            for i in range(3, len(words), 2):
                if words[i] == "copy":
                    copy = self.code_kind[words[i + 1]]
                else:
                    choose = self.code_kind[words[i + 1]]
            self._plant(state, seat, kind, col, copy, choose)
        elif verb == NOSWAP:
            self._end_plant_turn(state)
        elif verb == "swap":
            (r, a), (_, b) = (tuple(int(x) - 1 for x in w.split(",")) for w in words[1:3])
            bed = state.bed
            bed[a][r], bed[b][r] = bed[b][r], bed[a][r]
            self._end_plant_turn(state)
        elif verb == "pick":
            self._pick(state, seat, int(words[1]) - 1)
        else:
            self._press(state, seat, [self.code_kind[code] for code in words[1:]])

    def _plant(self, state: PressedState, seat: int, kind: int, col: int, copy: int | None, choose: int | None) -> None:
        result = plant_score(state.bed, col, kind, self.cards, copy, choose)
        row = len(state.bed[col])
        state.hands[seat].remove(kind)
        state.bed[col].append(kind)
        if result.points:
            state.scores[seat] += result.points
            state.stack.remove(seat)
            state.stack.append(seat)
        state.last = (seat, kind, row, col, result.points,
                      -1 if copy is None else copy, -1 if choose is None else choose)
        if self.cards.effects[result.acts_as] == SWAP:
            state.swap_row = row
            if self._swaps(state):
                state.phase = EFFECT
                return
        self._end_plant_turn(state)

    def _end_plant_turn(self, state: PressedState) -> None:
        state.phase = PLANT
        state.swap_row = -1
        state.planted += 1
        state.turn += 1
        if any(state.hands):
            return
        state.phase = PICK
        state.pick_order = sorted(range(state.players), key=lambda s: (state.scores[s], state.stack.index(s)))

    def _pick(self, state: PressedState, seat: int, col: int) -> None:
        cards = tuple(state.bed[col])
        state.taken[col] = seat
        state.picks[state.round][seat] = (col, cards)
        state.to_press[seat] = sorted(cards)
        state.bed[col] = []
        state.turn += 1
        if sum(1 for t in state.taken if t >= 0) < state.players:
            return
        for c, who in enumerate(state.taken):
            if who < 0:
                state.seen += state.bed[c]
                state.discard += state.bed[c]
                state.bed[c] = []
        state.seen.sort()
        state.discard.sort()
        for s in range(state.players):
            if len(state.to_press[s]) <= self.cards.press:
                state.pressed[s].append(tuple(state.to_press[s]))
                state.to_press[s] = []
        state.phase = PRESS
        if not any(state.to_press):
            self._end_round(state)

    def _press(self, state: PressedState, seat: int, chosen: list[int]) -> None:
        rest = list(state.to_press[seat])
        for card in chosen:
            rest.remove(card)
        state.pressed[seat].append(tuple(sorted(chosen)))
        state.discard = sorted(state.discard + rest)
        state.to_press[seat] = []
        if not any(state.to_press):
            state.turn += 1
            self._end_round(state)

    def _end_round(self, state: PressedState) -> None:
        state.round += 1
        state.bed = [[] for _ in state.bed]
        if state.round >= self.cards.rounds:
            state.phase = OVER
            return
        top = max(state.scores)
        state.first = min((s for s in range(state.players) if state.scores[s] == top), key=state.stack.index)
        self._start_round(state)

    def explain_illegal(self, state: PressedState, seat: int, action: str) -> str:
        """Say what is wrong with an action in this step."""
        from .explain import explain

        return explain(self, state, seat, action)

    # ----- information -------------------------------------------------------------------------
    def card_info(self) -> list[dict[str, Any]]:
        """Every flower's data (code, what it counts, table, copies, effect) as JSON-ready rows."""
        cards = self.cards
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

    def view(self, state: PressedState, seat: int | None) -> dict[str, Any]:
        """Bed, scores, stack, picks and pressed counts are public; a hand and pressed cards are the owner's."""
        codes = self.cards.codes
        over = state.phase == OVER
        public: dict[str, Any] = {
            "players": state.players,
            "round": min(state.round + 1, self.cards.rounds),
            "rounds": self.cards.rounds,
            "phase": state.phase,
            "turn": state.turn,
            "to_move": list(self.to_move(state)),
            "first": state.first,
            "current": self.current(state) if state.phase in (PLANT, EFFECT) else None,
            "electives": list(state.electives),
            "deck_flowers": [self.cards.names[k] for k in self.cards.deck_flowers(state.players, state.electives)],
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
            "last": self._last_view(state),
            "cards": self.card_info(),
        }
        if over:
            public["final"] = self.breakdown(state)
            public["pressed"] = [[codes[c] for c in self._collection(state, s)] for s in range(state.players)]
            public["winners"] = self.winners(state)
        private: dict[str, Any] = {}
        if seat is not None:
            private = {
                "hand": [codes[c] for c in state.hands[seat]],
                "pressed": [codes[c] for c in self._collection(state, seat)],
                "to_press": [codes[c] for c in state.to_press[seat]],
            }
            if state.pressed[seat]:
                private["pressed_value"] = best_final(
                    collection_counts(self._collection(state, seat), self.cards), self.cards).total
        return {"public": public, "private": private}

    def _last_view(self, state: PressedState) -> dict[str, Any] | None:
        if state.last is None:
            return None
        seat, kind, row, col, points, copy, choose = state.last
        codes = self.cards.codes
        return {"seat": seat, "flower": codes[kind], "row": row + 1, "column": col + 1, "points": points,
                "copy": codes[copy] if copy >= 0 else None, "choose": codes[choose] if choose >= 0 else None}

    @staticmethod
    def _collection(state: PressedState, seat: int) -> list[int]:
        return sorted(card for pressed in state.pressed[seat] for card in pressed)

    def public_action(self, state: PressedState, seat: int, action: str) -> str:
        """Plants, swaps and picks are public; a press shows only how many cards were pressed."""
        if action.startswith("press"):
            return f"seat {seat} pressed {len(action.split()) - 1} cards"
        return action

    def hidden_zones(self, state: PressedState, seat: int) -> dict[str, Any]:
        """The deck in order, the face-down discards and the chance to come."""
        return {"deck": state.deck, "discard": state.discard, "chance": state.rng}

    def determinize(self, state: PressedState, seat: int, rng: random.Random) -> PressedState:
        """Redeal everything `seat` cannot know: the deck and other hands, other seats' pressed choices."""
        clone = self.clone(state)
        others = [s for s in range(clone.players) if s != seat]
        pool = sorted(clone.deck + [card for s in others for card in clone.hands[s]])
        rng.shuffle(pool)
        for s in others:
            size = len(clone.hands[s])
            clone.hands[s] = sorted(pool[:size])
            del pool[:size]
        clone.deck = pool
        discard = Counter(clone.discard)
        for s in others:
            for rnd, pressed in enumerate(clone.pressed[s]):
                pick = clone.picks[rnd][s]
                assert pick is not None
                column = sorted(pick[1])
                if len(column) <= len(pressed):
                    continue
                rng.shuffle(column)
                sample = tuple(sorted(column[:len(pressed)]))
                discard.update(pressed)
                discard.subtract(sample)
                clone.pressed[s][rnd] = sample
        clone.discard = sorted(discard.elements())
        clone.rng = rng.getrandbits(63)
        return clone

    def clone(self, state: PressedState) -> PressedState:
        """A copy sharing nothing mutable with the original."""
        return PressedState(
            players=state.players,
            electives=state.electives,
            rng=state.rng,
            deck=list(state.deck),
            hands=[list(h) for h in state.hands],
            bed=[list(c) for c in state.bed],
            scores=list(state.scores),
            stack=list(state.stack),
            first=state.first,
            round=state.round,
            phase=state.phase,
            planted=state.planted,
            swap_row=state.swap_row,
            pick_order=list(state.pick_order),
            taken=list(state.taken),
            picks=[list(r) for r in state.picks],
            to_press=[list(p) for p in state.to_press],
            pressed=[list(p) for p in state.pressed],
            discard=list(state.discard),
            seen=list(state.seen),
            turn=state.turn,
            last=state.last,
        )

    # ----- results -----------------------------------------------------------------------------
    def turn(self, state: PressedState) -> int:
        """Turns completed so far."""
        return state.turn

    def is_over(self, state: PressedState) -> bool:
        """Whether the third round has ended."""
        return state.phase == OVER

    def scores(self, state: PressedState) -> list[int]:
        """The score track during play; at the end, the track plus each pressed collection's best score."""
        if state.phase != OVER:
            return list(state.scores)
        return [part["total"] for part in self.breakdown(state)]

    def winners(self, state: PressedState) -> list[int]:
        """The highest totals (a tie is a shared victory); empty until the game is over."""
        if state.phase != OVER:
            return []
        scores = self.scores(state)
        return [s for s, v in enumerate(scores) if v == max(scores)]

    def breakdown(self, state: PressedState) -> list[dict[str, Any]]:
        """Per seat: total, planting points and (once over) the pressed collection's groups."""
        parts = []
        for seat in range(state.players):
            if state.phase != OVER:
                parts.append({"total": state.scores[seat], "planting": state.scores[seat], "pressed": 0})
                continue
            final = best_final(collection_counts(self._collection(state, seat), self.cards), self.cards)
            data = final.as_dict(self.cards)
            parts.append({
                "total": state.scores[seat] + final.total,
                "planting": state.scores[seat],
                "pressed": final.total,
                "cards": data["cards"],
                "choices": data["choices"],
                "groups": data["groups"],
            })
        return parts

    def card_counts(self, state: PressedState) -> Counter:
        """Every card, wherever it is (deck, hands, bed, picked, pressed, discards)."""
        counts = Counter(state.deck)
        counts.update(state.discard)
        for group in (state.hands, state.bed, state.to_press):
            for cards in group:
                counts.update(cards)
        for pressed in state.pressed:
            for cards in pressed:
                counts.update(cards)
        return counts

    # ----- people ------------------------------------------------------------------------------
    def score_position(self, text: str, source: str = "position") -> dict[str, Any]:
        """Score a position file (contract.md): final collections, or a planting query with a `play` line."""
        return score_position(text, self.cards, source)

    def rules_text(self) -> str:
        """The rules summary for `help`."""
        from .terminal import rules_help

        return rules_help(self.cards)

    # ----- helpers for agents and the terminal -------------------------------------------------
    def plant_result(self, state: PressedState, action: str) -> PlantScore:
        """What a `plant ...` action would score now (for previews and heuristics)."""
        words = action.split()
        kind, col = self.code_kind[words[1]], int(words[2]) - 1
        copy = choose = None
        for i in range(3, len(words), 2):
            if words[i] == "copy":
                copy = self.code_kind[words[i + 1]]
            else:
                choose = self.code_kind[words[i + 1]]
        return plant_score(state.bed, col, kind, self.cards, copy, choose)

    def line_flowers(self, state: PressedState, col: int) -> list[int]:
        """The flowers in the row and column of the next space of `col` (what a choice may name)."""
        return sorted(set(line_cards(state.bed, len(state.bed[col]), col)))


def _plant_text(codes: tuple[str, ...], kind: int, col: int, copy: int | None, choose: int | None) -> str:
    text = f"plant {codes[kind]} {col + 1}"
    if copy is not None:
        text += f" copy {codes[copy]}"
    if choose is not None:
        text += f" choose {codes[choose]}"
    return text


def _press_text(codes: tuple[str, ...], cards: tuple[int, ...]) -> str:
    return "press " + " ".join(codes[c] for c in cards)


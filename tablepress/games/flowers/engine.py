"""Flowers rules engine (rules/flowers.md): setup, draw-then-place turns, the solo timer, the end, views.

A turn is two actions: `draw N` (stack N, from 1) and `place CODE x,y`. When a face-up card is taken,
the next card of that stack is turned up at the end of the turn — "the next player turns over a new
card" in both sources — so a face-up draw reveals nothing and may be taken back before placing.
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
from .cards import FlowersCards, load_data
from .notation import CardCodes, format_cell, parse_cell, parse_position
from .scoring import Cell, neighbours, score_area

DRAW, PLACE = "draw", "place"


@dataclass(slots=True)
class FlowersState:
    """Everything about one game of Flowers. Plain data: cheap to clone, picklable, comparable."""

    players: int
    summer: bool
    areas: list[dict[Cell, tuple[int, ...]]]
    stacks: list[list[int]]  # the top card is the last
    face_up: list[bool]
    box: list[int]  # out of play, unseen by all (kept sorted)
    removed: list[int]  # removed by the solo timer, seen by all
    current: int = 0
    drawn: int | None = None
    drawn_from: int | None = None
    turn: int = 0
    over: bool = False


class FlowersGame(Game[FlowersState]):
    """Flowers for 1–4 players, with the Summer variant and the solo timer."""

    name = "flowers"
    title = "Flowers"
    min_players = 1
    max_players = 4
    options = (Option("summer", "bool", False, "Summer variant: every player starts with a violet card"),)
    public_actions = True  # a stack's number and a placed card are seen by all
    summary = (
        "Flowers — draw a card from one of three stacks (two face up, one face down) and place it next "
        "to or on top of a card in your area. When a stack runs out the game ends. Number groups must be "
        "exact: four 4s, three 3s, two 2s, lone 1s — other groups are discarded at −1 a card, covered "
        "cards included. Colour regions of 5+ cards score 1 a card; a butterfly touching its colour scores 1."
    )

    def __init__(self, data: Mapping[str, Any] | None = None):
        self.data = dict(data) if data is not None else load_data()
        self.cards = FlowersCards.from_data(self.data)
        self.codes = CardCodes(self.cards)

    def load_data(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The card data (cards.toml) with a variant's `overrides` merged in."""
        return load_data(overrides)

    # ----- setup -------------------------------------------------------------------------------
    def new(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> FlowersState:
        """Shuffle, give each player a start card (violet in Summer) and build the stacks."""
        self.check_players(players)
        opts = self.normalise_options(options)
        rng = chance(seed)
        deck = self.cards.coloured
        rng.shuffle(deck)
        violets = list(self.cards.violets)
        if opts["summer"]:
            if len(violets) < players:
                raise OptionError(f"the Summer variant needs {players} violet cards; the data has {len(violets)}")
            starts, violets = violets[:players], violets[players:]
        else:
            starts, deck = deck[:players], deck[players:]
        sizes = self.cards.deal_sizes(players, len(deck))
        stacks = []
        for size in sizes:
            stacks.append(deck[:size])
            deck = deck[size:]
        return FlowersState(
            players=players,
            summer=opts["summer"],
            areas=[{(0, 0): (card,)} for card in starts],
            stacks=stacks,
            face_up=[i < len(stacks) - 1 for i in range(len(stacks))],
            box=sorted(deck + violets),
            removed=[],
        )

    # ----- flow --------------------------------------------------------------------------------
    def to_move(self, state: FlowersState) -> tuple[int, ...]:
        """The current player, until the game ends."""
        return () if state.over else (state.current,)

    def legal_actions(self, state: FlowersState, seat: int) -> list[str]:
        """`draw N` for each stack, or `place CODE x,y` for each cell the drawn card may go."""
        if state.over or seat != state.current:
            return []
        if state.drawn is None:
            return [f"draw {i + 1}" for i, stack in enumerate(state.stacks) if stack]
        code = self.cards.codes[state.drawn]
        return [f"place {code} {format_cell(cell)}" for cell in self.placements(state.areas[seat])]

    @staticmethod
    def placements(area: Mapping[Cell, Any]) -> list[Cell]:
        """Every cell a card may go: on any card (covering it) or an empty cell next to one; top row first."""
        cells = set(area)
        for cell in area:
            cells.update(neighbours(cell))
        return sorted(cells, key=lambda c: (c[1], c[0]))

    def apply_legal(self, state: FlowersState, seat: int, action: str) -> None:
        """Draw or place; after placing, end the turn (solo timer, end of game, next player)."""
        verb, _, rest = action.partition(" ")
        if verb == DRAW:
            index = int(rest) - 1
            state.drawn = state.stacks[index].pop()
            state.drawn_from = index
            return
        cell = parse_cell(rest.rsplit(" ", 1)[1])
        area = state.areas[seat]
        area[cell] = area.get(cell, ()) + (state.drawn,)
        state.drawn = state.drawn_from = None
        self._end_turn(state)

    def _end_turn(self, state: FlowersState) -> None:
        state.turn += 1
        if any(not stack for stack in state.stacks):
            state.over = True
            return
        if state.players == 1:
            timer = state.stacks[0]
            state.removed.append(timer.pop())
            if not timer:
                state.over = True
                return
        state.current = (state.current + 1) % state.players

    def explain_illegal(self, state: FlowersState, seat: int, action: str) -> str:
        """Say what is wrong with an action: wrong step, empty stack, bad cell, not touching."""
        verb, _, rest = action.strip().partition(" ")
        if state.drawn is None:
            if verb != DRAW:
                return "draw a card first: draw 1, draw 2 or draw 3"
            return f"there is no stack {rest!r} to draw from (stacks: {', '.join(str(i + 1) for i, s in enumerate(state.stacks) if s)})"
        code = self.cards.codes[state.drawn]
        if verb != PLACE:
            return f"place the {code} you drew: place {code} x,y"
        parts = rest.split()
        if len(parts) != 2 or parts[0] != code:
            return f"write place {code} x,y (you drew {code})"
        try:
            cell = parse_cell(parts[1])
        except ValueError as exc:
            return str(exc)
        return f"cell {format_cell(cell)} neither holds nor touches one of your cards"

    def undoable(self, state: FlowersState, seat: int, action: str) -> bool:
        """A draw from a face-up stack reveals nothing (the next card turns up at the end of the turn)."""
        if not action.startswith(DRAW):
            return False
        return state.face_up[int(action.split()[1]) - 1]

    def action_bound(self, players: int, options: Mapping[str, Any] | None = None) -> int:
        """At most 3n + 2 placements for an area of n cards (n covers, ≤ 2n + 2 empty neighbours)."""
        opts = self.normalise_options(options)
        available = len(self.cards.coloured) - (0 if opts["summer"] else players)
        sizes = self.cards.deal_sizes(players, available)
        # Solo: the timer takes a card of the first stack every turn.
        most_cards = 1 + (sizes[0] if players == 1 else -(-sum(sizes) // players))
        return max(3 * most_cards + 2, 3)

    # ----- information -------------------------------------------------------------------------
    def _visible_top(self, state: FlowersState, index: int) -> int | None:
        stack = state.stacks[index]
        if not stack or not state.face_up[index] or state.drawn_from == index:
            return None
        return stack[-1]

    def _drawn_is_public(self, state: FlowersState) -> bool:
        return state.drawn is not None and state.face_up[state.drawn_from]

    def view(self, state: FlowersState, seat: int | None) -> dict[str, Any]:
        """Areas, stack sizes and face-up tops, a face-up draw and live scores are public; a face-down draw is the drawer's."""
        codes = self.cards.codes
        public = {
            "players": state.players,
            "summer": state.summer,
            "turn": state.turn,
            "current": None if state.over else state.current,
            "step": None if state.over else (DRAW if state.drawn is None else PLACE),
            "over": state.over,
            "stacks": [
                {
                    "stack": i + 1,
                    "cards": len(stack),
                    "face_up": state.face_up[i],
                    "top": None if (top := self._visible_top(state, i)) is None else codes[top],
                }
                for i, stack in enumerate(state.stacks)
            ],
            "drawn_from": None if state.drawn_from is None else state.drawn_from + 1,
            "drawn": codes[state.drawn] if self._drawn_is_public(state) else None,
            "areas": [
                [{"x": x, "y": y, "cards": [codes[c] for c in stack]} for (x, y), stack in sorted(area.items())]
                for area in state.areas
            ],
            "removed": [codes[c] for c in state.removed],
            "scores": self.scores(state),
        }
        private: dict[str, Any] = {}
        if seat is not None and seat == state.current and state.drawn is not None and not self._drawn_is_public(state):
            private["drawn"] = codes[state.drawn]
        return {"public": public, "private": private}

    def hidden_zones(self, state: FlowersState, seat: int) -> dict[str, Any]:
        """The face-down part of every stack (bottom first) and the box, which nobody sees."""
        zones: dict[str, Any] = {}
        for index, stack in enumerate(state.stacks):
            hidden = len(stack) - (1 if self._visible_top(state, index) is not None else 0)
            zones[f"stack {index + 1}"] = stack[:hidden]
        zones["box"] = state.box
        return zones

    def determinize(self, state: FlowersState, seat: int, rng: random.Random) -> FlowersState:
        """Reshuffle every card `seat` has not seen (stacks below visible tops, the box, another's blind draw)."""
        clone = self.clone(state)
        slots: list[tuple[list[int], int]] = []
        for index, stack in enumerate(clone.stacks):
            hidden = len(stack) - (1 if self._visible_top(state, index) is not None else 0)
            slots += [(stack, position) for position in range(hidden)]
        pool = [stack[position] for stack, position in slots] + clone.box
        hidden_draw = clone.drawn is not None and not self._drawn_is_public(clone) and seat != clone.current
        if hidden_draw:
            pool.append(clone.drawn)
        pool.sort()
        rng.shuffle(pool)
        for (stack, position), card in zip(slots, pool):
            stack[position] = card
        rest = pool[len(slots):]
        if hidden_draw:
            clone.drawn = rest.pop()
        clone.box = sorted(rest)
        return clone

    def clone(self, state: FlowersState) -> FlowersState:
        """A copy sharing nothing mutable with the original."""
        return FlowersState(
            players=state.players,
            summer=state.summer,
            areas=[dict(area) for area in state.areas],
            stacks=[list(stack) for stack in state.stacks],
            face_up=list(state.face_up),
            box=list(state.box),
            removed=list(state.removed),
            current=state.current,
            drawn=state.drawn,
            drawn_from=state.drawn_from,
            turn=state.turn,
            over=state.over,
        )

    # ----- results -----------------------------------------------------------------------------
    def turn(self, state: FlowersState) -> int:
        """Turns completed so far."""
        return state.turn

    def is_over(self, state: FlowersState) -> bool:
        """Whether a stack has run out."""
        return state.over

    def scores(self, state: FlowersState) -> list[int]:
        """Each player's area score now."""
        return [score_area(area, self.cards).total for area in state.areas]

    def winners(self, state: FlowersState) -> list[int]:
        """Highest total; ties go to fewer discarded cards; still tied, shared. Solo has no winner."""
        if state.players == 1:
            return []
        results = [score_area(area, self.cards) for area in state.areas]
        best = max((r.total, -len(r.discarded)) for r in results)
        return [seat for seat, r in enumerate(results) if (r.total, -len(r.discarded)) == best]

    def breakdown(self, state: FlowersState) -> list[dict[str, Any]]:
        """Each area's total with regions, butterflies and discards."""
        return [score_area(area, self.cards).as_dict(self.cards) for area in state.areas]

    def card_counts(self, state: FlowersState) -> Counter:
        """Every card, wherever it is."""
        counts = Counter(state.box)
        counts.update(state.removed)
        for stack in state.stacks:
            counts.update(stack)
        for area in state.areas:
            for cell in area.values():
                counts.update(cell)
        if state.drawn is not None:
            counts[state.drawn] += 1
        return counts

    # ----- people ------------------------------------------------------------------------------
    def score_position(self, text: str, source: str = "position") -> dict[str, Any]:
        """Score a position file (contract.md): {"game", "players": [{"name", "total", ...}]}."""
        players = parse_position(text, self.cards, source)
        return {
            "game": self.name,
            "players": [
                {"name": name, **score_area(area, self.cards).as_dict(self.cards)} for name, area in players
            ],
        }

    def rules_text(self) -> str:
        """The rules summary for `help`."""
        return RULES_HELP


RULES_HELP = """\
[b]Flowers[/b] — 1–4 players.
[b]Your turn:[/b] draw the top card of a stack — one of the face-up cards or the face-down stack (seen by you
only) — then place it in your area: on an empty cell next to one of your cards (not diagonally), or on
top of any of your cards, covering it. A taken face-up card is replaced by the next one at the end of the turn.
[b]End:[/b] when a player takes the last card of a stack, they place it and the game ends. Solo: after each
placement the top card of the face-up stack is removed (the timer); the game ends when a stack is empty.
[b]Scoring[/b] (only the top card of each cell counts):
  • Number groups — touching cards of the same value form one group: 4s in fours, 3s in threes, 2s in
    pairs, 1s alone. Every card of any other group is discarded with everything under it: −1 a card.
  • Colour regions — touching cards of one colour; a region of 5 or more scores 1 a card.
  • Butterflies — a butterfly card touching a card of the butterfly's colour scores 1.
  Ties: fewer discarded cards wins; still tied, shared.
[b]Commands:[/b] draw 1|2|3, place CODE x,y (or just x,y), a number from the list, undo, help, log, quit.
"""

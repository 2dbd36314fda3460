"""Planted rules engine (rules/planted.md): setup, simultaneous choose and reveal, Nursery calls,
passing, feeding and propagation, refresh, the end, views and determinization.

Steps (the state's `phase`):
- `choose` — every seat with cards chooses one at once: `play N LABEL` or `nursery N LABEL` (N is the
  card's number). Each choice is stored hidden; the last one reveals them all and resolves them.
- `buy` — the seats that called Nursery take a plant in the order of their cards' numbers, lowest
  first: `buy NAME` (with Trowels: `buy NAME +L`). Then hands pass; after the last card, feeding.
- `feed` — every seat feeds at once: `feed NAME+NAME` or `feed none`; the solver's best is listed
  first. Feeding is public and touches nobody else, so each is applied at once (with propagation and
  the return of leftovers). A seat that can feed nothing is fed automatically. Then refresh.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from ...core.errors import OptionError
from ...core.game import Game
from ...core.rng import chance, next_rng
from .cards import LETTERS, PlantedCards, load_data
from .feeding import Feeding, feeding_text, feedings, pay, propagation_tokens, seed_tray_bonus
from .notation import parse_position
from .scoring import BoardScore, score_board

CHOOSE, BUY, FEED, OVER = "choose", "buy", "feed", "over"
PLAY, NURSERY = "play", "nursery"
PLANT_KEY = 1000  # plants are counted as PLANT_KEY + index in card_counts
#: Chance that a determinization guesses another seat's hidden choice was a Nursery call.
NURSERY_GUESS = 0.2
#: Boards whose feedings are remembered (the solver is the engine's hot spot).
FEEDING_CACHE_SIZE = 20_000


@dataclass(slots=True)
class PlantedState:
    """Everything about one game of Planted. Plain data: cheap to clone, picklable, comparable.

    Hands are kept sorted (a hand's order tells nothing). Decks have their top card last.
    """

    players: int
    rng: int
    hands: list[list[int]]
    resource_deck: list[int]
    item_deck: list[int]
    plant_deck: list[int]
    row: list[int]
    put_away: list[int]
    plants: list[list[int]]
    growth: list[list[int]]
    resources: list[list[int]]
    tools: list[list[int]]
    decorations: list[list[int]]
    propagation: list[int]
    chosen: list[int]  # the hidden card of each seat (0: not chosen)
    nursery: list[bool]  # whether that hidden choice is a Nursery call
    fed: list[bool]
    feeds: list[str]  # each seat's feeding this round ("" until fed)
    resource_discard: list[int] = field(default_factory=list)
    item_discard: list[int] = field(default_factory=list)
    calls: list[tuple[int, int]] = field(default_factory=list)  # pending Nursery calls (card, seat)
    revealed: list[tuple[int, int, bool]] = field(default_factory=list)  # last reveal (seat, card, nursery)
    bought: list[tuple[int, int]] = field(default_factory=list)  # plants bought at the last reveal (seat, plant)
    phase: str = CHOOSE
    round: int = 0
    step: int = 0  # turns completed in this round
    turn: int = 0


class PlantedGame(Game[PlantedState]):
    """Planted for 2–5 players."""

    name = "planted"
    title = "Planted"
    min_players = 2
    max_players = 5
    default_players = 3
    public_actions = False
    summary = (
        "Planted — a pick-and-pass plant growing game. Each turn everyone chooses a card at once: take its "
        "resources, place a tool or decoration, or call Nursery to buy a plant instead. Pass your hand on; "
        "after 8 turns feed your plants (each at most once, 2 Green Thumbs for a missing resource) and turn "
        "every 2 leftovers into a propagation token. After 4 rounds, most points wins."
    )

    def __init__(self, data: Mapping[str, Any] | None = None):
        self.data = dict(data) if data is not None else load_data()
        self.cards = PlantedCards.from_data(self.data)
        self.plant_index = {plant.name: i for i, plant in enumerate(self.cards.plants)}
        self._picks: dict[tuple[int, ...], list[str]] = {}
        self.plant_names = self.cards.plant_names()
        self._feeding_cache: dict[tuple, list[Feeding]] = {}
        labels = {card: self.cards.label(card) for card in (*self.cards.resource_cards, *self.cards.item_cards)}
        self._play_text = {card: f"{PLAY} {card} {label}" for card, label in labels.items()}
        self._nursery_text = {card: f"{NURSERY} {card} {label}" for card, label in labels.items()}

    def load_data(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The card data (cards.toml) with a variant's `overrides` merged in."""
        return load_data(overrides)

    # ----- setup -------------------------------------------------------------------------------
    def new(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> PlantedState:
        """Deal beginner plants, shuffle the decks, turn up the nursery row and deal the first hands."""
        self.check_players(players)
        self.normalise_options(options)
        cards = self.cards
        beginners = list(cards.beginners)
        if len(beginners) < players:
            raise OptionError(f"planted needs {players} beginner plants; the data has {len(beginners)}")
        rng = chance(seed)
        rng.shuffle(beginners)
        plant_deck = list(cards.deck_plants)
        rng.shuffle(plant_deck)
        row = [plant_deck.pop() for _ in range(min(cards.row_size, len(plant_deck)))]
        resource_deck = list(cards.resource_cards)
        rng.shuffle(resource_deck)
        item_deck = list(cards.item_cards)
        rng.shuffle(item_deck)
        state = PlantedState(
            players=players,
            rng=rng.getrandbits(63),
            hands=[[] for _ in range(players)],
            resource_deck=resource_deck,
            item_deck=item_deck,
            plant_deck=plant_deck,
            row=row,
            put_away=sorted(beginners[players:]),
            plants=[[beginners[seat]] for seat in range(players)],
            growth=[[0] for _ in range(players)],
            resources=[[0, 0, 0, 0] for _ in range(players)],
            tools=[[] for _ in range(players)],
            decorations=[[] for _ in range(players)],
            propagation=[0] * players,
            chosen=[0] * players,
            nursery=[False] * players,
            fed=[False] * players,
            feeds=[""] * players,
        )
        self._deal(state)
        return state

    def _draw(self, state: PlantedState, items: bool) -> int | None:
        deck = state.item_deck if items else state.resource_deck
        if not deck:
            discard = state.item_discard if items else state.resource_discard
            if not discard:
                return None
            rng, state.rng = next_rng(state.rng)
            deck.extend(sorted(discard))
            rng.shuffle(deck)
            discard.clear()
        return deck.pop()

    def _deal(self, state: PlantedState) -> None:
        for seat in range(state.players):
            hand = state.hands[seat]
            for items, count in ((False, self.cards.hand_resources), (True, self.cards.hand_items)):
                for _ in range(count):
                    card = self._draw(state, items)
                    if card is not None:
                        hand.append(card)
            hand.sort()

    # ----- flow --------------------------------------------------------------------------------
    def to_move(self, state: PlantedState) -> tuple[int, ...]:
        """Choose: every seat with cards that has not chosen; buy: the next Nursery caller; feed: the unfed."""
        if state.phase == CHOOSE:
            return tuple(s for s in range(state.players) if not state.chosen[s] and state.hands[s])
        if state.phase == BUY:
            return (state.calls[0][1],)
        if state.phase == FEED:
            return tuple(s for s in range(state.players) if not state.fed[s])
        return ()

    def legal_actions(self, state: PlantedState, seat: int) -> list[str]:
        """Every legal action of `seat` now, in a stable order (for feeding: the solver's best first)."""
        if seat not in self.to_move(state):
            return []
        if state.phase == CHOOSE:
            hand = state.hands[seat]
            play, nursery = self._play_text, self._nursery_text
            actions = [play[card] for card in hand]
            if len(state.plants[seat]) < self.cards.max_plants:
                actions += [nursery[card] for card in hand]
            return actions
        if state.phase == BUY:
            extras = self._trowel_picks(tuple(state.tools[seat]))
            return [f"buy {self.cards.plants[p].name}{extra}" for p in state.row for extra in extras]
        return [feeding_text(self.cards, state.plants[seat], f) for f in self.feedings(state, seat)]

    def feedings(self, state: PlantedState, seat: int) -> list[Feeding]:
        """Every legal feeding of `seat` now (scored), the solver's best first. Cached by the board's contents."""
        cards = self.cards
        key = (tuple(state.plants[seat]), tuple(state.growth[seat]), tuple(state.resources[seat]),
               tuple(sorted(cards.tool_of[c] for c in state.tools[seat])),
               tuple(sorted(cards.decoration_of[c] for c in state.decorations[seat])), state.propagation[seat])
        found = self._feeding_cache.get(key)
        if found is None:
            if len(self._feeding_cache) >= FEEDING_CACHE_SIZE:
                self._feeding_cache.clear()
            found = self._feeding_cache[key] = feedings(cards, *key)
        return found

    def _trowel_picks(self, tools: tuple[int, ...]) -> list[str]:
        """The suffixes of a buy for these tools: [""] without Trowels, else ` +L`, ` +W`, ... (sorted multisets)."""
        kinds = tuple(sorted(self.cards.tool_of[c] for c in tools))
        picks = self._picks.get(kinds)
        if picks is None:
            picks = self._picks[kinds] = _picks(self.cards, kinds)
        return picks

    def apply_legal(self, state: PlantedState, seat: int, action: str) -> None:
        """Apply a legal action in place: a hidden choice, a purchase or a feeding."""
        verb, _, rest = action.partition(" ")
        if verb in (PLAY, NURSERY):
            card = int(rest.split(" ", 1)[0])
            state.hands[seat].remove(card)
            state.chosen[seat] = card
            state.nursery[seat] = verb == NURSERY
            if not self.to_move(state):
                self._reveal(state)
        elif verb == "buy":
            self._buy(state, seat, rest)
        else:
            self._feed(state, seat, rest)

    def canonical(self, state: PlantedState, seat: int, action: str) -> str:
        """The action a typed text means: `play 15` → `play 15 LL`; plant names in any case, accents optional,
        a feeding's plants in any order. Text that means nothing is returned unchanged (normalised spaces)."""
        text = " ".join(str(action).split())
        verb, _, rest = text.partition(" ")
        verb = verb.lower()
        cards = self.cards
        if verb in (PLAY, NURSERY):
            number = rest.split(" ", 1)[0]
            if number.isdigit() and int(number) in self._play_text:
                return f"{verb} {int(number)} {cards.label(int(number))}"
        elif verb == "buy":
            typed, _, extra = rest.partition("+")
            name = self.plant_names.get(typed)
            if name is not None:
                picks = "".join(sorted(extra.replace(" ", "").upper(), key=lambda ch: LETTERS.find(ch)))
                return f"buy {name}" + (f" +{picks}" if picks else "")
        elif verb == "feed":
            if rest.lower() in ("none", "nothing", ""):
                return "feed none"
            names = [self.plant_names.get(part) for part in rest.split("+")]
            board = [cards.plants[p].name for p in state.plants[seat]]
            if all(name in board for name in names):
                return "feed " + "+".join(sorted(names, key=board.index))
        return text

    def _reveal(self, state: PlantedState) -> None:
        cards = self.cards
        state.revealed = []
        state.bought = []
        for seat in range(state.players):
            card = state.chosen[seat]
            if not card:
                continue
            state.revealed.append((seat, card, state.nursery[seat]))
            state.chosen[seat] = 0
            resource = card in cards.shows
            if state.nursery[seat]:
                state.nursery[seat] = False
                (state.resource_discard if resource else state.item_discard).append(card)
                state.calls.append((card, seat))
            elif resource:
                self._gain(state, seat, card)
                state.resource_discard.append(card)
            elif card in cards.tool_of:
                state.tools[seat].append(card)
            else:
                state.decorations[seat].append(card)
        state.calls.sort()
        state.turn += 1
        self._next_call(state)

    def _gain(self, state: PlantedState, seat: int, card: int) -> None:
        shows = self.cards.shows[card]
        have = state.resources[seat]
        for r in range(4):
            have[r] += shows[r]
        for tool in state.tools[seat]:
            bonus = self.cards.tools[self.cards.tool_of[tool]].bonus(shows)
            for r in range(4):
                have[r] += bonus[r]

    def _next_call(self, state: PlantedState) -> None:
        while state.calls and not state.row:
            state.calls.pop(0)  # with the row empty a Nursery call only discards the card
        if state.calls:
            state.phase = BUY
        else:
            self._end_turn(state)

    def _buy(self, state: PlantedState, seat: int, rest: str) -> None:
        name, _, extra = rest.partition(" +")
        plant = self.plant_index[name]
        index = state.row.index(plant)
        if state.plant_deck:
            state.row[index] = state.plant_deck.pop()
        else:
            del state.row[index]
        state.plants[seat].append(plant)
        state.growth[seat].append(0)
        for letter in extra:
            state.resources[seat][LETTERS.index(letter)] += 1
        state.bought.append((seat, plant))
        state.calls.pop(0)
        state.turn += 1
        self._next_call(state)

    def _end_turn(self, state: PlantedState) -> None:
        players = state.players
        shift = 1 if self.cards.passes_left(state.round) else -1
        hands = state.hands
        state.hands = [hands[(seat - shift) % players] for seat in range(players)]
        state.step += 1
        state.phase = CHOOSE
        if not any(state.hands):
            self._start_feeding(state)

    def _start_feeding(self, state: PlantedState) -> None:
        state.phase = FEED
        state.fed = [False] * state.players
        state.feeds = [""] * state.players
        for seat in range(state.players):
            options = self.feedings(state, seat)
            if len(options) == 1:
                self._feed(state, seat, "none", count_turn=False)
        if all(state.fed):
            state.turn += 1
            self._end_round(state)

    def _feed(self, state: PlantedState, seat: int, rest: str, count_turn: bool = True) -> None:
        cards = self.cards
        positions = [] if rest == "none" else [state.plants[seat].index(self.plant_index[n]) for n in rest.split("+")]
        need = [0, 0, 0]
        for pos in positions:
            cost = cards.plants[state.plants[seat][pos]].cost
            for r in range(3):
                need[r] += cost[r]
            state.growth[seat][pos] += 1
        paid = pay(cards, state.resources[seat], need)
        assert paid is not None, "feeding applied without the resources to pay for it"
        left, _ = paid
        trays = seed_tray_bonus(cards, [cards.tool_of[c] for c in state.tools[seat]])
        state.propagation[seat] += propagation_tokens(cards, left, trays)
        state.resources[seat] = [0, 0, 0, 0]
        state.fed[seat] = True
        state.feeds[seat] = f"feed {rest}"
        if count_turn and all(state.fed):
            state.turn += 1
            self._end_round(state)

    def _end_round(self, state: PlantedState) -> None:
        state.round += 1
        state.step = 0
        state.revealed = []
        state.bought = []
        if state.round >= self.cards.rounds:
            state.phase = OVER
            return
        state.phase = CHOOSE
        self._deal(state)
        if not any(state.hands):
            self._start_feeding(state)

    def explain_illegal(self, state: PlantedState, seat: int, action: str) -> str:
        """Say what is wrong with an action: wrong step, a card not in hand, the 6-plant limit, a bad feeding."""
        meant = self.canonical(state, seat, action)
        if meant != " ".join(action.split()) and seat in self.to_move(state) and meant in self.legal_actions(state, seat):
            return f"write it as {meant!r}"
        verb, _, rest = meant.partition(" ")
        verb = verb.lower()
        if state.phase == CHOOSE:
            if verb not in (PLAY, NURSERY):
                return "choose a card: play N or nursery N (N is the card's number)"
            number = rest.split(" ", 1)[0]
            if not number.isdigit() or int(number) not in state.hands[seat]:
                return f"card {number or '?'} is not in your hand (your cards: {', '.join(map(str, state.hands[seat]))})"
            if verb == NURSERY:
                return f"you have {len(state.plants[seat])} plants: at most {self.cards.max_plants}, so no Nursery call"
            return f"write play {number} or nursery {number}"
        if state.phase == BUY:
            name = rest.partition(" +")[0]
            row = ", ".join(self.cards.plants[p].name for p in state.row)
            if verb != "buy" or name not in self.plant_index or self.plant_index[name] not in state.row:
                return f"take a plant from the nursery row: buy NAME (row: {row})"
            return f"with your Trowels write the resources too, for example: {self.legal_actions(state, seat)[0]}"
        if state.phase == FEED:
            if verb != "feed":
                return "feed your plants: feed NAME+NAME, or feed none"
            return (f"{action!r} cannot be paid for, names a plant you do not have or a fully grown one, or feeds "
                    f"one twice; the best feeding is {self.legal_actions(state, seat)[0]!r}")
        return "the game is over"

    def public_action(self, state: PlantedState, seat: int, action: str) -> str:
        """Other seats see that a card was chosen, never which card or whether it calls Nursery."""
        if action.split(" ", 1)[0] in (PLAY, NURSERY):
            return f"seat {seat} chose a card"
        return action

    # ----- information -------------------------------------------------------------------------
    def known_seats(self, state: PlantedState, seat: int) -> list[int]:
        """The other seats whose hands `seat` knows: the hands it held this round and passed on."""
        if state.phase not in (CHOOSE, BUY) or not state.step:
            return []
        shift = 1 if self.cards.passes_left(state.round) else -1
        seats = []
        for j in range(1, min(state.step, state.players - 1) + 1):
            seats.append((seat + j * shift) % state.players)
        return seats

    def _card(self, card: int) -> dict[str, Any]:
        return {"number": card, "name": self.cards.label(card), "kind": self.cards.kind(card)}

    def _plant(self, plant: int) -> dict[str, Any]:
        p = self.cards.plants[plant]
        return {"name": p.name, "type": p.type, "tier": p.tier, "cost": p.cost_text, "spaces": list(p.spaces)}

    def board_score(self, state: PlantedState, seat: int) -> BoardScore:
        """The score of one seat's board now, with its breakdown."""
        cards = self.cards
        return score_board(cards, state.plants[seat], state.growth[seat], state.propagation[seat],
                           [cards.tool_of[c] for c in state.tools[seat]],
                           [cards.decoration_of[c] for c in state.decorations[seat]])

    def _board(self, state: PlantedState, seat: int) -> dict[str, Any]:
        cards = self.cards
        hand = state.hands[seat]
        resources = sum(1 for c in hand if c in cards.shows)
        chosen = state.chosen[seat]
        score = self.board_score(state, seat)
        board: dict[str, Any] = {
            "plants": [{**self._plant(p), "tokens": t} for p, t in zip(state.plants[seat], state.growth[seat])],
            "resources": dict(zip(LETTERS, state.resources[seat])),
            "tools": [cards.label(c) for c in state.tools[seat]],
            "decorations": [cards.label(c) for c in state.decorations[seat]],
            "propagation": state.propagation[seat],
            "score": score.total,
            "points": {"plants": score.plants, "propagation": score.propagation, "decorations": score.decorations,
                       "each_decoration": [{"decoration": n, "points": p} for n, p in score.decoration_rows]},
            "hand": {"resource": resources, "item": len(hand) - resources},
            # the back of a face-down card shows whether it is a resource or an item card
            "chosen": None if not chosen else ("resource" if chosen in cards.shows else "item"),
            "fed": state.fed[seat] if state.phase == FEED else None,
            "feeding": state.feeds[seat] or None,
        }
        if state.phase == FEED and not state.fed[seat]:
            best = self.feedings(state, seat)[0]
            board["best_feeding"] = {"action": feeding_text(cards, state.plants[seat], best), "points": best.gain,
                                     "propagation": best.propagated, "green_thumbs": best.thumbs}
        return board

    def view(self, state: PlantedState, seat: int | None) -> dict[str, Any]:
        """Boards, the nursery row, deck sizes, discards and revealed cards are public; hands and hidden choices private."""
        cards = self.cards
        public = {
            "players": state.players,
            "phase": state.phase,
            "round": min(state.round + 1, cards.rounds),
            "rounds": cards.rounds,
            "step": state.step + 1,
            "turn": state.turn,
            "direction": "left" if cards.passes_left(min(state.round, cards.rounds - 1)) else "right",
            "to_move": list(self.to_move(state)),
            "row": [self._plant(p) for p in state.row],
            "plant_deck": len(state.plant_deck),
            "resource_deck": len(state.resource_deck),
            "item_deck": len(state.item_deck),
            "resource_discard": list(state.resource_discard),
            "item_discard": list(state.item_discard),
            "boards": [self._board(state, s) for s in range(state.players)],
            "revealed": [{"seat": s, **self._card(c), "nursery": n} for s, c, n in state.revealed],
            "bought": [{"seat": s, "plant": cards.plants[p].name} for s, p in state.bought],
            "calls": [{"seat": s, "card": c} for c, s in state.calls],
            "scores": self.scores(state),
            "over": state.phase == OVER,
        }
        private: dict[str, Any] = {}
        if seat is not None:
            private["hand"] = [self._card(c) for c in state.hands[seat]]
            if state.chosen[seat]:
                private["chosen"] = {**self._card(state.chosen[seat]), "nursery": state.nursery[seat]}
            known = []
            for other in self.known_seats(state, seat):
                held = sorted(state.hands[other] + ([state.chosen[other]] if state.chosen[other] else []))
                known.append({"seat": other, "cards": [self._card(c) for c in held],
                              "one_chosen": bool(state.chosen[other])})
            if known:
                private["known_hands"] = known
            if state.phase == FEED and not state.fed[seat]:
                private["feedings"] = [
                    {"action": feeding_text(cards, state.plants[seat], f), "points": f.gain,
                     "covered": f.covered, "propagation": f.propagated, "green_thumbs": f.thumbs}
                    for f in self.feedings(state, seat)
                ]
        return {"public": public, "private": private}

    def hidden_zones(self, state: PlantedState, seat: int) -> dict[str, Any]:
        """The three decks in order and the chance to come."""
        return {"resource deck": state.resource_deck, "item deck": state.item_deck,
                "plant deck": state.plant_deck, "chance": state.rng}

    def determinize(self, state: PlantedState, seat: int, rng: random.Random) -> PlantedState:
        """Resample what `seat` cannot know: deck orders, unknown hands and choices, other seats' Nursery calls, chance.

        Unknown cards stay of their kind (resource or item: the backs differ). A hand the seat held and
        passed on keeps its cards; only which of them its holder has chosen is resampled.
        """
        cards = self.cards
        clone = self.clone(state)
        known = set(self.known_seats(state, seat))
        slots: dict[bool, list[tuple[list[int], int]]] = {False: [], True: []}
        for other in range(state.players):
            if other == seat or other in known:
                continue
            hand = clone.hands[other]
            for index, card in enumerate(hand):
                slots[card not in cards.shows].append((hand, index))
            if clone.chosen[other]:
                slots[clone.chosen[other] not in cards.shows].append((clone.chosen, other))
        for items, deck in ((False, clone.resource_deck), (True, clone.item_deck)):
            slots[items] += [(deck, index) for index in range(len(deck))]
        for items in (False, True):
            pool = sorted(holder[index] for holder, index in slots[items])
            rng.shuffle(pool)
            for (holder, index), card in zip(slots[items], pool):
                holder[index] = card
        for other in range(state.players):
            if other == seat:
                continue
            if other in known and clone.chosen[other]:
                chosen_item = clone.chosen[other] not in cards.shows
                held = sorted(clone.hands[other] + [clone.chosen[other]])
                candidates = [c for c in held if (c not in cards.shows) == chosen_item]
                pick = candidates[rng.randrange(len(candidates))]
                held.remove(pick)
                clone.hands[other], clone.chosen[other] = held, pick
            else:
                clone.hands[other].sort()
            if clone.chosen[other]:
                can_call = len(clone.plants[other]) < cards.max_plants
                clone.nursery[other] = can_call and rng.random() < NURSERY_GUESS
        clone.plant_deck.sort()
        rng.shuffle(clone.plant_deck)
        clone.rng = rng.getrandbits(63)
        return clone

    def clone(self, state: PlantedState) -> PlantedState:
        """A copy sharing nothing mutable with the original."""
        return PlantedState(
            players=state.players,
            rng=state.rng,
            hands=[list(h) for h in state.hands],
            resource_deck=list(state.resource_deck),
            item_deck=list(state.item_deck),
            plant_deck=list(state.plant_deck),
            row=list(state.row),
            put_away=list(state.put_away),
            plants=[list(p) for p in state.plants],
            growth=[list(g) for g in state.growth],
            resources=[list(r) for r in state.resources],
            tools=[list(t) for t in state.tools],
            decorations=[list(d) for d in state.decorations],
            propagation=list(state.propagation),
            chosen=list(state.chosen),
            nursery=list(state.nursery),
            fed=list(state.fed),
            feeds=list(state.feeds),
            resource_discard=list(state.resource_discard),
            item_discard=list(state.item_discard),
            calls=list(state.calls),
            revealed=list(state.revealed),
            bought=list(state.bought),
            phase=state.phase,
            round=state.round,
            step=state.step,
            turn=state.turn,
        )

    # ----- results -----------------------------------------------------------------------------
    def turn(self, state: PlantedState) -> int:
        """Turns completed so far."""
        return state.turn

    def is_over(self, state: PlantedState) -> bool:
        """Whether the last round has been fed."""
        return state.phase == OVER

    def scores(self, state: PlantedState) -> list[int]:
        """Each seat's points now: plants, propagation and decorations."""
        return [self.board_score(state, seat).total for seat in range(state.players)]

    def winners(self, state: PlantedState) -> list[int]:
        """Most points; ties: most growth tokens on plants; still tied, shared."""
        keys = [(self.board_score(state, s).total, sum(state.growth[s])) for s in range(state.players)]
        best = max(keys)
        return [seat for seat, key in enumerate(keys) if key == best]

    def breakdown(self, state: PlantedState) -> list[dict[str, Any]]:
        """Each seat's total with plants, propagation, decorations and the detail of each."""
        return [self.board_score(state, seat).as_dict() for seat in range(state.players)]

    def card_counts(self, state: PlantedState) -> Counter:
        """Every resource, item and plant card, wherever it is (plants as PLANT_KEY + index)."""
        counts: Counter = Counter()
        for zone in (state.resource_deck, state.item_deck, state.resource_discard, state.item_discard,
                     *state.hands, *state.tools, *state.decorations):
            counts.update(zone)
        counts.update(c for c in state.chosen if c)
        for zone in (state.plant_deck, state.row, state.put_away, *state.plants):
            counts.update(PLANT_KEY + p for p in zone)
        return counts

    # ----- people ------------------------------------------------------------------------------
    def score_position(self, text: str, source: str = "position") -> dict[str, Any]:
        """Score end-of-game boards (contract.md): {"game", "players": [{"name", "total", ...}]}."""
        players = parse_position(text, self.cards, source)
        result = []
        for name, board in players:
            score = score_board(self.cards, board.plants, board.growth, board.propagation, board.tools,
                                board.decorations)
            result.append({"name": name, **score.as_dict()})
        return {"game": self.name, "players": result}

    def rules_text(self) -> str:
        """The rules summary for `help`."""
        return RULES_HELP


def _picks(cards: PlantedCards, kinds: tuple[int, ...]) -> list[str]:
    options = []
    for kind in kinds:
        tool = cards.tools[kind]
        if tool.effect == "buy":
            options += [tool.choices] * tool.amount
    if not options:
        return [""]
    combos = sorted({"".join(sorted(combo, key=LETTERS.index)) for combo in product(*options)},
                    key=lambda text: [LETTERS.index(ch) for ch in text])
    return [f" +{combo}" for combo in combos]


__all__ = ["PlantedGame", "PlantedState", "CHOOSE", "BUY", "FEED", "OVER"]

RULES_HELP = """\
[b]Planted[/b] — 2–5 players, 4 rounds of 8 turns.
[b]Choose:[/b] everyone picks one card from their hand at once, face down: [i]play N[/i] uses it, [i]nursery N[/i]
discards it to buy a plant instead (not with 6 plants). Then all are revealed:
  • resource card — take what it shows, plus tool bonuses; • tool / decoration — place it on your board;
  • Nursery — callers take a face-up plant in the order of their cards' numbers, lowest first
    ([i]buy NAME[/i]; with a Trowel also pick a resource: [i]buy NAME +W[/i]); the row refills at once.
Pass the rest of your hand: left (to the next seat) in rounds 1 and 3, right in rounds 2 and 4.
[b]Feed[/b] after 8 turns: grow each plant at most once (pay its cost; 2 Green Thumbs = 1 missing resource;
fully grown plants cannot grow): [i]feed NAME+NAME[/i] or [i]feed none[/i]. The best feeding is listed first.
[b]Propagate:[/b] every 2 leftovers (2 Green Thumbs count as 1) give a growth token (1 point); Seed Tray: +1
in a round you propagate. Leftovers go back. Everyone draws 6 resource and 2 item cards.
[b]Tools:[/b] Watering Can / Grow Lamp / Feed Scoop: +1 W / L / F on a card showing exactly WW / LL / FF;
Gardening Gloves: +1 G on a card with a G; Trowel: +1 L, W or F when you buy a plant; Seed Tray: see above.
[b]Decorations[/b] (each copy scores): Workbench 1 per tool; type planters 2 per plant of their type;
Bookshelf 2 per plant type; Macramé Hanger 3 per fully grown plant; Side Table 1 per 2 propagation tokens.
[b]End:[/b] plants' covered spaces + propagation + decorations. Ties: most growth tokens on plants, then shared.
[b]Commands:[/b] an action as listed or its number, [i]card NAME[/i] (a plant, tool or decoration), help, log, quit.
"""

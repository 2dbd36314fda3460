"""How a game of Planted moves on (rules.md): setup, the reveal of the hidden choices, Nursery
purchases, passing, feeding with propagation, refresh and the end.
"""

from __future__ import annotations

from ...core.errors import OptionError
from ...core.rng import chance, next_rng
from .cards import LETTERS, PlantedCards
from .feeding import pay, propagation_tokens, seed_tray_bonus
from .legal import Actions, to_move
from .state import BUY, CHOOSE, FEED, NURSERY, OVER, PLAY, PlantedState


def new_state(cards: PlantedCards, players: int, seed: int) -> PlantedState:
    """Deal beginner plants, shuffle the decks, turn up the nursery row and deal the first hands."""
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
    _deal(cards, state)
    return state


def pass_shift(cards: PlantedCards, round_index: int) -> int:
    """Where hands go in the round with this 0-based index: +1 to the next seat (left), -1 to the previous."""
    return 1 if cards.passes_left(round_index) else -1


def apply_legal(actions: Actions, state: PlantedState, seat: int, action: str) -> None:
    """Apply a legal action in place: a hidden choice, a purchase or a feeding."""
    verb, _, rest = action.partition(" ")
    if verb in (PLAY, NURSERY):
        card = int(rest.split(" ", 1)[0])
        state.hands[seat].remove(card)
        state.chosen[seat] = card
        state.nursery[seat] = verb == NURSERY
        if not to_move(state):
            _reveal(actions, state)
    elif verb == "buy":
        _buy(actions, state, seat, rest)
    else:
        _feed(actions, state, seat, rest)


def _draw(state: PlantedState, items: bool) -> int | None:
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


def _deal(cards: PlantedCards, state: PlantedState) -> None:
    for seat in range(state.players):
        hand = state.hands[seat]
        for items, count in ((False, cards.hand_resources), (True, cards.hand_items)):
            for _ in range(count):
                card = _draw(state, items)
                if card is not None:
                    hand.append(card)
        hand.sort()


def _reveal(actions: Actions, state: PlantedState) -> None:
    cards = actions.cards
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
            _gain(cards, state, seat, card)
            state.resource_discard.append(card)
        elif card in cards.tool_of:
            state.tools[seat].append(card)
        else:
            state.decorations[seat].append(card)
    state.calls.sort()
    state.turn += 1
    _next_call(actions, state)


def _gain(cards: PlantedCards, state: PlantedState, seat: int, card: int) -> None:
    shows = cards.shows[card]
    have = state.resources[seat]
    for r in range(4):
        have[r] += shows[r]
    for tool in state.tools[seat]:
        bonus = cards.tools[cards.tool_of[tool]].bonus(shows)
        for r in range(4):
            have[r] += bonus[r]


def _next_call(actions: Actions, state: PlantedState) -> None:
    while state.calls and not state.row:
        state.calls.pop(0)  # with the row empty a Nursery call only discards the card
    if state.calls:
        state.phase = BUY
    else:
        _end_turn(actions, state)


def _buy(actions: Actions, state: PlantedState, seat: int, rest: str) -> None:
    name, _, extra = rest.partition(" +")
    plant = actions.plant_index[name]
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
    _next_call(actions, state)


def _end_turn(actions: Actions, state: PlantedState) -> None:
    players = state.players
    shift = pass_shift(actions.cards, state.round)
    hands = state.hands
    state.hands = [hands[(seat - shift) % players] for seat in range(players)]
    state.step += 1
    state.phase = CHOOSE
    if not any(state.hands):
        _start_feeding(actions, state)


def _start_feeding(actions: Actions, state: PlantedState) -> None:
    state.phase = FEED
    state.fed = [False] * state.players
    state.feeds = [""] * state.players
    for seat in range(state.players):
        if len(actions.feedings(state, seat)) == 1:
            _feed(actions, state, seat, "none", count_turn=False)
    if all(state.fed):
        state.turn += 1
        _end_round(actions, state)


def _feed(actions: Actions, state: PlantedState, seat: int, rest: str, count_turn: bool = True) -> None:
    cards = actions.cards
    positions = [] if rest == "none" else [state.plants[seat].index(actions.plant_index[n]) for n in rest.split("+")]
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
        _end_round(actions, state)


def _end_round(actions: Actions, state: PlantedState) -> None:
    state.round += 1
    state.step = 0
    state.revealed = []
    state.bought = []
    if state.round >= actions.cards.rounds:
        state.phase = OVER
        return
    state.phase = CHOOSE
    _deal(actions.cards, state)
    if not any(state.hands):
        _start_feeding(actions, state)

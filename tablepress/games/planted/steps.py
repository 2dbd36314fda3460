"""Fast one-step values for Planted (`Heuristics.step_values`): the greedy evaluation after each of a
seat's actions, from the boards each action changes, without copying the state.

- A card chosen while another seat still has to choose is only set aside face down: no board changes.
- The last card chosen, before the last turn of a round, reveals every choice: each board changes by
  its own card (the others' the same whatever this seat picks); nobody's round or feeding changes.
- A purchase before the last turn of a round adds a plant (and any Trowel resources) to one board.
- A feeding changes the feeder's board alone; the last one of a round also moves every seat to the
  next round (or the end).

Every other board keeps its value, looked up by its contents. What is left (the last turn of a round,
when feeding starts and a seat with nothing to feed is fed at once; a round with no cards left to deal) is applied
to a copy and evaluated in full. A seat's own board is public, so it is the same in every determinization of
its information set: the values its board takes after a list of actions are remembered.

`turn_goes_on` (`Heuristics.turn_goes_on`) says whether the seat is still to move after an action (after a
reveal it may buy first, or choose again at once), so that greedy need not copy a child whose turn is over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...core.package import cloning_step_values
from .cards import LETTERS, PlantedCards
from .engine import PlantedGame, PlantedState
from .feeding import pay, propagation_tokens, seed_tray_bonus
from .flow import pass_shift
from .heuristics import OVER_STAGE, Board, board_of, board_value, evaluate, memory_of, remember, stage_of
from .legal import to_move
from .state import BUY, CHOOSE, FEED, NURSERY


def step_values(game: PlantedGame, state: PlantedState, seat: int, actions: Sequence[str]) -> list[float]:
    """`evaluate` for `seat` after each of its legal `actions` (see the module docstring); `state` is unchanged."""
    cards = game.cards
    players = state.players
    if state.phase == CHOOSE:
        if _others_choose(state, seat):
            return [evaluate(game, state, seat)] * len(actions)
        chosen, hands = state.chosen, state.hands
        if len(hands[seat]) > 1 or any(hands[other] for other in range(players) if other != seat):
            stage = 2 * state.round + 1
            memory = memory_of(game)
            best_rival = max(board_value(game, stage, _revealed(cards, board_of(state, other), chosen[other],
                                                                state.nursery[other])
                                         if chosen[other] else board_of(state, other), memory)
                             for other in range(players) if other != seat)
            return _own_margins(game, stage, board_of(state, seat), actions, best_rival, _chosen)
    elif state.phase == BUY and any(state.hands):
        return _own_margins(game, 2 * state.round + 1, board_of(state, seat), actions,
                            _best_rival(game, state, seat, None), _bought)
    elif state.phase == FEED:
        others_feed = any(other != seat and not fed for other, fed in enumerate(state.fed))
        if others_feed:
            return _own_margins(game, 2 * state.round, board_of(state, seat), actions,
                                _best_rival(game, state, seat, None), _fed)
        if _next_round_deals(cards, state):
            stage = OVER_STAGE if state.round + 1 >= cards.rounds else 2 * (state.round + 1) + 1
            return _own_margins(game, stage, board_of(state, seat), actions, _best_rival(game, state, seat, stage),
                                _fed)
    return _by_copying(game, state, seat, actions)


def _others_choose(state: PlantedState, seat: int) -> bool:
    """Whether a seat other than `seat` still has to choose a card this turn."""
    chosen, hands = state.chosen, state.hands
    for other in range(state.players):
        if not chosen[other] and hands[other] and other != seat:
            return True
    return False


def _next_round_deals(cards: PlantedCards, state: PlantedState) -> bool:
    """Whether the round after this feeding starts with cards to choose from (or the game ends), so that
    no seat feeds again before choosing."""
    if state.round + 1 >= cards.rounds:
        return True
    return bool(cards.hand_resources and (state.resource_deck or state.resource_discard)
                or cards.hand_items and (state.item_deck or state.item_discard))


def _best_rival(game: PlantedGame, state: PlantedState, seat: int, stage: int | None) -> float:
    """The best value of another seat's board as it is, at `stage` or else at its own stage."""
    memory = memory_of(game)
    return max(board_value(game, stage_of(state, other) if stage is None else stage, board_of(state, other), memory)
               for other in range(state.players) if other != seat)


def _own_margins(game: PlantedGame, stage: int, board: Board, actions: Sequence[str], best_rival: float,
                 change: Callable[[PlantedGame, Board, str], Board]) -> list[float]:
    """The value of `board` at `stage` after each of `actions` (`change` makes the board after one) minus
    `best_rival`. The values are remembered by stage, board and actions: a seat's own board is the same in
    every determinization of its information set."""
    memory = memory_of(game)
    key = (stage, board, tuple(actions))
    values = memory.steps.get(key)
    if values is None:
        values = remember(memory.steps, key,
                          [board_value(game, stage, change(game, board, action), memory) for action in actions])
    return [value - best_rival for value in values]


def _fed(game: PlantedGame, board: Board, action: str) -> Board:
    """A board after `feed NAME+NAME` (or `feed none`): the fed plants grow and pay their costs (Green Thumbs
    for what is missing), the leftovers become propagation tokens, no resources are kept."""
    cards = game.cards
    propagation, plants, growth, resources, tools, decorations = board
    names = action[len("feed "):]
    positions = [] if names == "none" else [plants.index(game.plant_index[name]) for name in names.split("+")]
    grown = list(growth)
    need = [0, 0, 0]
    for pos in positions:
        cost = cards.plants[plants[pos]].cost
        for r in range(3):
            need[r] += cost[r]
        grown[pos] += 1
    paid = pay(cards, resources, need)
    assert paid is not None, "a feeding valued without the resources to pay for it"
    trays = seed_tray_bonus(cards, [cards.tool_of[c] for c in tools])
    tokens = propagation_tokens(cards, paid[0], trays)
    return propagation + tokens, plants, tuple(grown), (0, 0, 0, 0), tools, decorations


def _bought(game: PlantedGame, board: Board, action: str) -> Board:
    """A board after `buy NAME` (or `buy NAME +LW`: resources from Trowels)."""
    propagation, plants, growth, resources, tools, decorations = board
    name, _, extra = action[len("buy "):].partition(" +")
    have = list(resources)
    for letter in extra:
        have[LETTERS.index(letter)] += 1
    return propagation, plants + (game.plant_index[name],), growth + (0,), tuple(have), tools, decorations


def _chosen(game: PlantedGame, board: Board, action: str) -> Board:
    """A board after the card of `play N LABEL` or `nursery N LABEL` is revealed (see `_revealed`)."""
    verb, _, rest = action.partition(" ")
    return _revealed(game.cards, board, int(rest.split(" ", 1)[0]), verb == NURSERY)


def _revealed(cards: PlantedCards, board: Board, card: int, nursery: bool) -> Board:
    """A board after its chosen `card` is revealed: resources (with its tools' bonuses), a tool or a
    decoration; a Nursery call changes no board (the plant is bought in a later step)."""
    if nursery:
        return board
    propagation, plants, growth, resources, tools, decorations = board
    if card in cards.shows:
        shows = cards.shows[card]
        have = [have + shown for have, shown in zip(resources, shows)]
        for tool in tools:
            bonus = cards.tools[cards.tool_of[tool]].bonus(shows)
            have = [have + extra for have, extra in zip(have, bonus)]
        return propagation, plants, growth, tuple(have), tools, decorations
    if card in cards.tool_of:
        return propagation, plants, growth, resources, tools + (card,), decorations
    return propagation, plants, growth, resources, tools, decorations + (card,)


def turn_goes_on(game: PlantedGame, state: PlantedState, seat: int, action: str) -> bool:
    """Whether `seat` is still to move after its legal `action` (`seat in to_move(child)`), found without
    applying it where the step is simple: a card chosen or a feeding made while others still have to, the
    purchase or the next choice after a reveal or a purchase. Where feeding starts or a new round is dealt,
    the action is applied to a copy."""
    goes_on: bool | None = None
    if state.phase == CHOOSE:
        if _others_choose(state, seat):
            return False
        chosen = state.chosen
        verb, _, rest = action.partition(" ")
        card = int(rest.split(" ", 1)[0])
        calls = list(state.calls) + [(chosen[other], other) for other in range(state.players)
                                     if other != seat and chosen[other] and state.nursery[other]]
        if verb == NURSERY:
            calls.append((card, seat))
        if calls and state.row:
            return min(calls)[1] == seat
        goes_on = _chooses_after_passing(game.cards, state, seat, card)
    elif state.phase == BUY:
        calls = state.calls[1:]
        if calls and (state.plant_deck or len(state.row) > 1):
            return calls[0][1] == seat
        goes_on = _chooses_after_passing(game.cards, state, seat, 0)
    elif state.phase == FEED:
        if any(other != seat and not fed for other, fed in enumerate(state.fed)):
            return False
        goes_on = _chooses_next_round(game.cards, state, seat)
    if goes_on is None:
        child = game.clone(state)
        game.apply_legal(child, seat, action)
        return seat in to_move(child)
    return goes_on


def _chooses_next_round(cards: PlantedCards, state: PlantedState, seat: int) -> bool | None:
    """Whether `seat` is to choose after the last feeding of the round: the game goes on and the deal gives
    it a card (seats draw in order, each deck's discards reshuffled once); None when nobody gets one."""
    if state.round + 1 >= cards.rounds:
        return False
    resources = len(state.resource_deck) + len(state.resource_discard)
    items = len(state.item_deck) + len(state.item_discard)
    if not (cards.hand_resources and resources or cards.hand_items and items):
        return None
    return bool(cards.hand_resources and resources > seat * cards.hand_resources
                or cards.hand_items and items > seat * cards.hand_items)


def _chooses_after_passing(cards: PlantedCards, state: PlantedState, seat: int, card: int) -> bool | None:
    """Whether `seat` is to choose after the turn ends and the hands pass (`card`, unless 0, leaves its
    hand first); None when no hand is left, so that feeding starts."""
    shift = pass_shift(cards, state.round)
    sizes = [len(hand) for hand in state.hands]
    if card:
        sizes[seat] -= 1
    if not any(sizes):
        return None
    return sizes[(seat - shift) % state.players] > 0


_by_copying = cloning_step_values(evaluate)

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
to a copy and evaluated in full.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core.package import cloning_step_values
from .cards import LETTERS, PlantedCards
from .engine import PlantedGame, PlantedState
from .feeding import pay, propagation_tokens, seed_tray_bonus
from .heuristics import OVER_STAGE, Board, board_of, board_value, evaluate, memory_of, stage_of
from .legal import to_move
from .state import BUY, CHOOSE, FEED, NURSERY


def step_values(game: PlantedGame, state: PlantedState, seat: int, actions: Sequence[str]) -> list[float]:
    """`evaluate` for `seat` after each of its legal `actions` (see the module docstring); `state` is unchanged."""
    cards = game.cards
    others_to_move = any(other != seat for other in to_move(state))
    if state.phase == CHOOSE:
        if others_to_move:
            return [evaluate(game, state, seat)] * len(actions)
        if len(state.hands[seat]) > 1 or any(state.hands[other] for other in range(state.players) if other != seat):
            rivals = {other: _revealed(cards, state, other, state.chosen[other], state.nursery[other])
                      for other in range(state.players) if other != seat and state.chosen[other]}
            boards = []
            for action in actions:
                verb, _, rest = action.partition(" ")
                boards.append(_revealed(cards, state, seat, int(rest.split(" ", 1)[0]), verb == NURSERY))
            return _margins(game, state, seat, boards, stage_of(state, seat), rivals)
    elif state.phase == BUY and any(state.hands):
        board = board_of(state, seat)
        return _margins(game, state, seat, [_bought(game, board, action) for action in actions],
                        stage_of(state, seat), {})
    elif state.phase == FEED and (others_to_move or _next_round_deals(cards, state)):
        board = board_of(state, seat)
        boards = [_fed(game, board, action) for action in actions]
        if others_to_move:
            return _margins(game, state, seat, boards, stage_of(state, seat) - 1, {})
        stage = OVER_STAGE if state.round + 1 >= cards.rounds else 2 * (state.round + 1) + 1
        return _margins(game, state, seat, boards, stage, {}, stage)
    return _by_copying(game, state, seat, actions)


def _next_round_deals(cards: PlantedCards, state: PlantedState) -> bool:
    """Whether the round after this feeding starts with cards to choose from (or the game ends), so that
    no seat feeds again before choosing."""
    if state.round + 1 >= cards.rounds:
        return True
    return bool(cards.hand_resources and (state.resource_deck or state.resource_discard)
                or cards.hand_items and (state.item_deck or state.item_discard))


def _margins(game: PlantedGame, state: PlantedState, seat: int, boards: list[Board], stage: int,
             rivals: dict[int, Board], rivals_stage: int | None = None) -> list[float]:
    """`seat`'s value with each of `boards` at `stage`, minus the best rival's (their boards as in `rivals`,
    else as they are, at `rivals_stage` or else their own unchanged stages)."""
    memory = memory_of(game)
    best_rival = max(board_value(game, stage_of(state, other) if rivals_stage is None else rivals_stage,
                                 rivals.get(other) or board_of(state, other), memory)
                     for other in range(state.players) if other != seat)
    return [board_value(game, stage, board, memory) - best_rival for board in boards]


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


def _revealed(cards: PlantedCards, state: PlantedState, seat: int, card: int, nursery: bool) -> Board:
    """`seat`'s board after its chosen `card` is revealed: resources (with its tools' bonuses), a tool or a
    decoration; a Nursery call changes no board (the plant is bought in a later step)."""
    board = board_of(state, seat)
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


_by_copying = cloning_step_values(evaluate)

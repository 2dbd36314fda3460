"""The flow of Pressed (rules.md): plant and score, the Anemone swap, pick, press, three rounds.

Actions (stable text, in `legal_actions` order):

- `plant HY 3` — play a Hydrangea into column 3 (the space below its lowest card);
  `plant TU 3 choose SU` — a Tulip choosing Sunflower (a card in its row or column);
  `plant BB 3 copy HY` — a Baby's Breath copying a Hydrangea; `plant BB 3 copy TU choose SU`.
  Choices name flowers, not cards: two cards of one flower are the same choice.
- `swap 2,1 2,4` / `noswap` — after an Anemone (or a Baby's Breath copying one) scores: swap two
  cards of its row (row,column), or not. Swapping two cards of one flower is no change, so never listed.
- `pick 3` — take column 3 of the bed (in ascending order of score, ties lowest in the stack first).
- `press ZI SU HY HY` — the cards of your picked column you press, in flower order (all seats choose
  at once; with 4 cards or fewer picked every card is pressed without asking).

Choices this engine makes where rules.md leaves room:
- A Baby's Breath copying a Tulip may choose any card in its row or column except itself, the copied
  Tulip included (and then counts itself, as a Tulip).
- With no card in its row or column (never at a real table), a Baby's Breath or Tulip plants for 0.
- The Anemone's swap is its own step right after the plant; swapping two cards of the same flower is
  not offered (it changes nothing); with no two different flowers in the row the step is skipped.
- Pressing is simultaneous and secret; others see only how many cards were pressed.
- The option `first` (1..players) fixes the first player of round 1; 0 draws it from the seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .cards import CHOSEN, COPY, SWAP, PressedCards
from .deal import start_round
from .scoring import PlantScore, line_cards, plant_score
from .state import EFFECT, NOSWAP, OVER, PICK, PLANT, PRESS, PressedState


# ----- who moves and what they may do --------------------------------------------------------------
def current(state: PressedState) -> int:
    """The seat planting now (meaningful in the plant and swap steps)."""
    return (state.first + state.planted) % state.players


def to_move(state: PressedState) -> tuple[int, ...]:
    """The planter, the next picker, or every seat still to press."""
    if state.phase in (PLANT, EFFECT):
        return (current(state),)
    if state.phase == PICK:
        return (state.pick_order[sum(1 for t in state.taken if t >= 0)],)
    if state.phase == PRESS:
        return tuple(seat for seat in range(state.players) if state.to_press[seat])
    return ()


def legal_actions(cards: PressedCards, state: PressedState, seat: int) -> list[str]:
    """Every legal action of `seat` now, in a stable order (see the module docstring)."""
    if seat not in to_move(state):
        return []
    codes = cards.codes
    if state.phase == PLANT:
        return _plant_actions(cards, state.bed, sorted(set(state.hands[seat])))
    if state.phase == EFFECT:
        return [NOSWAP] + [f"swap {r + 1},{a + 1} {r + 1},{b + 1}" for r, a, b in _swaps(state)]
    if state.phase == PICK:
        return [f"pick {col + 1}" for col, who in enumerate(state.taken) if who < 0]
    choices = press_choices(state.to_press[seat], cards.press)
    return ["press " + " ".join(codes[c] for c in choice) for choice in choices]


def _plant_actions(cards: PressedCards, bed: list[list[int]], kinds: list[int]) -> list[str]:
    """`plant ...` for every flower in hand, column and distinct choice of copy and chosen flower."""
    codes = cards.codes
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


def press_choices(picked: Sequence[int], size: int) -> list[tuple[int, ...]]:
    """Every distinct set of `size` cards from a sorted list of picked cards, in order."""
    return sorted(set(combinations(picked, size)))


def _swaps(state: PressedState) -> list[tuple[int, int, int]]:
    """(row, column, column) of every swap of two different flowers in the pending Anemone's row."""
    row = state.swap_row
    cols = [c for c, col in enumerate(state.bed) if len(col) > row]
    return [(row, a, b) for i, a in enumerate(cols) for b in cols[i + 1:] if state.bed[a][row] != state.bed[b][row]]


# ----- applying an action --------------------------------------------------------------------------
def plant_result(cards: PressedCards, state: PressedState, action: str) -> PlantScore:
    """What a `plant ...` action would score now."""
    col, kind, copy, choose = _plant_words(cards, action.split())
    return plant_score(state.bed, col, kind, cards, copy, choose)


def _plant_words(cards: PressedCards, words: list[str]) -> tuple[int, int, int | None, int | None]:
    """(column, flower, copy, choose) of the words of a `plant ...` action."""
    code_kind = cards.code_kind
    copy = choose = None
    for i in range(3, len(words), 2):
        if words[i] == "copy":
            copy = code_kind[words[i + 1]]
        else:
            choose = code_kind[words[i + 1]]
    return int(words[2]) - 1, code_kind[words[1]], copy, choose


def apply_legal(cards: PressedCards, state: PressedState, seat: int, action: str) -> None:
    """Apply a legal action in place."""
    words = action.split()
    verb = words[0]
    if verb == "plant":
        _plant(cards, state, seat, *_plant_words(cards, words))
    elif verb == NOSWAP:
        _end_plant_turn(state)
    elif verb == "swap":
        (r, a), (_, b) = (tuple(int(x) - 1 for x in w.split(",")) for w in words[1:3])
        bed = state.bed
        bed[a][r], bed[b][r] = bed[b][r], bed[a][r]
        _end_plant_turn(state)
    elif verb == "pick":
        _pick(cards, state, seat, int(words[1]) - 1)
    else:
        _press(cards, state, seat, [cards.code_kind[code] for code in words[1:]])


def _plant(cards: PressedCards, state: PressedState, seat: int, col: int, kind: int,
           copy: int | None, choose: int | None) -> None:
    result = plant_score(state.bed, col, kind, cards, copy, choose)
    row = len(state.bed[col])
    state.hands[seat].remove(kind)
    state.bed[col].append(kind)
    if result.points:
        state.scores[seat] += result.points
        state.stack.remove(seat)
        state.stack.append(seat)
    state.last = (seat, kind, row, col, result.points,
                  -1 if copy is None else copy, -1 if choose is None else choose)
    if cards.effects[result.acts_as] == SWAP:
        state.swap_row = row
        if _swaps(state):
            state.phase = EFFECT
            return
    _end_plant_turn(state)


def _end_plant_turn(state: PressedState) -> None:
    state.phase = PLANT
    state.swap_row = -1
    state.planted += 1
    state.turn += 1
    if any(state.hands):
        return
    state.phase = PICK
    state.pick_order = sorted(range(state.players), key=lambda s: (state.scores[s], state.stack.index(s)))


def _pick(cards: PressedCards, state: PressedState, seat: int, col: int) -> None:
    picked = tuple(state.bed[col])
    state.taken[col] = seat
    state.picks[state.round][seat] = (col, picked)
    state.to_press[seat] = sorted(picked)
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
        if len(state.to_press[s]) <= cards.press:
            state.pressed[s].append(tuple(state.to_press[s]))
            state.to_press[s] = []
    state.phase = PRESS
    if not any(state.to_press):
        end_round(cards, state)


def _press(cards: PressedCards, state: PressedState, seat: int, chosen: list[int]) -> None:
    rest = list(state.to_press[seat])
    for card in chosen:
        rest.remove(card)
    state.pressed[seat].append(tuple(sorted(chosen)))
    state.discard = sorted(state.discard + rest)
    state.to_press[seat] = []
    if not any(state.to_press):
        state.turn += 1
        end_round(cards, state)


def end_round(cards: PressedCards, state: PressedState) -> None:
    """End the round: after the last, the game; else the highest score (ties: lowest marker) deals the next."""
    state.round += 1
    state.bed = [[] for _ in state.bed]
    if state.round >= cards.rounds:
        state.phase = OVER
        return
    top = max(state.scores)
    state.first = min((s for s in range(state.players) if state.scores[s] == top), key=state.stack.index)
    start_round(cards, state)

"""Why an action is not legal in Pressed: one clear sentence for each way a move can be wrong."""

from __future__ import annotations

from .cards import CHOSEN, COPY, PressedCards
from .scoring import line_cards
from .state import EFFECT, PICK, PLANT, PressedState


def explain(cards: PressedCards, state: PressedState, seat: int, action: str) -> str:
    """The reason `action` is illegal for `seat` in `state` (the action is known to be illegal)."""
    words = action.split()
    if not words:
        return "type an action"
    if state.phase == PLANT:
        return _explain_plant(cards, state, seat, words)
    if state.phase == EFFECT:
        row = state.swap_row + 1
        if words[0] not in ("swap", "noswap"):
            return f"the Anemone may swap two cards in row {row}: swap {row},A {row},B — or noswap"
        return (f"swap two cards of different flowers in row {row}, written swap {row},A {row},B "
                f"(A and B columns with a card in row {row}); or noswap")
    if state.phase == PICK:
        open_cols = [str(c + 1) for c, who in enumerate(state.taken) if who < 0]
        if words[0] != "pick" or len(words) != 2 or not words[1].isdecimal():
            return f"pick a column: pick N (open columns: {', '.join(open_cols)})"
        col = int(words[1]) - 1
        if 0 <= col < len(state.taken) and state.taken[col] >= 0:
            return f"column {col + 1} was already picked by P{state.taken[col] + 1}"
        return f"there is no open column {words[1]} (open columns: {', '.join(open_cols)})"
    codes = cards.codes
    picked = " ".join(codes[c] for c in state.to_press[seat])
    size = cards.press
    if words[0] != "press":
        return f"press {size} of your picked cards: press CODE ... (picked: {picked})"
    if len(words) - 1 != size:
        return f"press exactly {size} cards, not {len(words) - 1} (picked: {picked})"
    return f"press only cards you picked, each at most as often as you picked it (picked: {picked})"


def _explain_plant(cards: PressedCards, state: PressedState, seat: int, words: list[str]) -> str:
    codes = cards.codes
    hand = " ".join(codes[c] for c in state.hands[seat])
    columns = len(state.bed)
    if words[0] != "plant" or len(words) < 3:
        return f"plant a card from your hand: plant CODE COLUMN (hand: {hand}; columns 1–{columns})"
    kind = cards.code_kind.get(words[1].upper())
    if kind is None:
        return f"unknown flower code {words[1]!r} (codes: {' '.join(codes)})"
    if kind not in state.hands[seat]:
        return f"you have no {cards.names[kind]} in hand (hand: {hand})"
    if not words[2].isdecimal() or not 1 <= int(words[2]) <= columns:
        return f"there is no column {words[2]} — a card goes below the lowest card of a column 1–{columns}"
    col = int(words[2]) - 1
    row = len(state.bed[col])
    line = sorted(set(line_cards(state.bed, row, col)))
    names = ", ".join(codes[k] for k in line) or "none"
    rest = words[3:]
    choices = dict(zip(rest[::2], rest[1::2]))
    if len(rest) % 2 or any(key not in ("copy", "choose") for key in choices):
        return "after the column only `copy CODE` (Baby's Breath) and `choose CODE` (Tulip) may follow"
    for key, code in choices.items():
        target = cards.code_kind.get(code.upper())
        if target is None:
            return f"unknown flower code {code!r} (codes: {' '.join(codes)})"
        if target not in line:
            return (f"{key} {code}: there is no {cards.names[target]} in row {row + 1} or column {col + 1} "
                    f"(flowers there: {names})")
    copy = cards.code_kind.get(choices["copy"].upper()) if "copy" in choices else None
    if cards.effects[kind] == COPY:
        if copy is None and line:
            return f"a {cards.names[kind]} copies a card in its row or column: plant {codes[kind]} {col + 1} copy CODE (flowers there: {names})"
    elif copy is not None:
        return f"a {cards.names[kind]} copies nothing; only a Baby's Breath takes copy"
    acts = copy if copy is not None else kind
    if cards.counts[acts] == CHOSEN and "choose" not in choices and line:
        return f"a {cards.names[acts]} chooses a card in its row or column: add choose CODE (flowers there: {names})"
    if cards.counts[acts] != CHOSEN and "choose" in choices:
        return f"a {cards.names[acts]} chooses nothing; leave out choose"
    return f"{' '.join(words)!r} is not a legal plant now"


def canonical(cards: PressedCards, action: str) -> str:
    """The action text a person means: verbs and flower codes in any case, pressed cards in any order
    (`press hy su hy pe` → `press SU HY HY PE`, `plant tu 3 choose su` → `plant TU 3 choose SU`)."""
    words = action.split()
    if not words:
        return ""
    verb, rest = words[0].lower(), words[1:]
    kinds = cards.code_kind
    if verb == "press":
        codes = [word.upper() for word in rest]
        if all(code in kinds for code in codes):
            rest = sorted(codes, key=kinds.__getitem__)
    elif verb == "plant":
        rest = [word.upper() if word.upper() in kinds else word.lower() for word in rest]
    return " ".join([verb, *rest])

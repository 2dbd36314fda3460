"""Pressed position files (docs/reference.md) for `tablepress score pressed`: final collections and planting queries.

Final scoring, one line a player (a `# Name` line may name the next one):

    Ana: 2 Hydrangea, 2 Baby's Breath, 2 Zinnia, Tulip | Baby's Breath=Hydrangea, Tulip=Hydrangea

A planting query: the bed as a grid of two-letter codes (`.` empty), then `play CODE COLUMN` and,
for a Baby's Breath or Tulip, `choose ROW COLUMN` (a second one for a Baby's Breath copying a Tulip).
Every error is a PositionError naming the file, the line and what is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...core.errors import PositionError
from ...core.names import fold
from .cards import CHOSEN, COPY, PressedCards
from .scoring import PlantScore, best_final, line_cards, plant_score

COUNT_RE = re.compile(r"^(?:(\d+)x?|x(\d+))$", re.IGNORECASE | re.ASCII)
#: Digits a count, row or column may have (no real table needs more than two).
MAX_DIGITS = 6
DECLARE_RE = re.compile(r"\s*(?:=|->|→|:)\s*")


@dataclass
class Collection:
    """One player's pressed collection from a position file, with any declared choices."""

    name: str | None
    counts: list[int]
    tucked: list[int] | None = None  # declared Baby's Breath placements (None: none declared)
    chosen: dict[int, int] = field(default_factory=dict)  # declared Tulip choices
    line: int = 0


def is_planting_query(text: str) -> bool:
    """Whether a position file is a planting query (it has a `play` line)."""
    return any(line.split()[:1] and fold(line.split()[0]) == "play" for line in text.splitlines())


def score_position(text: str, cards: PressedCards, source: str = "position") -> dict[str, Any]:
    """Score a position file: final collections or a planting query (the shape in docs/reference.md)."""
    if is_planting_query(text):
        name, result, row, column = parse_planting(text, cards, source)
        return {"game": "pressed", "players": [{"name": name, **result.as_dict(cards, row, column)}]}
    players = []
    for item in parse_collections(text, cards, source):
        if item.tucked is None and not item.chosen:
            result = best_final(item.counts, cards)
        else:
            result = best_final(item.counts, cards, item.tucked, item.chosen)
            copy_kind = cards.copy_kind
            all_bb = copy_kind is None or sum(item.tucked or ()) == item.counts[copy_kind]
            all_tulips = all(k in item.chosen for k in cards.kinds
                             if item.counts[k] and cards.counts[k] == CHOSEN)
            result.declared = all_bb and all_tulips
        data = result.as_dict(cards)
        if (item.tucked is not None or item.chosen) and not result.declared:
            data["chosen_by"] = "declared and best"
        players.append({"name": item.name, **data})
    return {"game": "pressed", "players": players}


# ----- final collections ---------------------------------------------------------------------------
def format_collection(counts: Sequence[int], cards: PressedCards, name: str | None = None) -> str:
    """A collection as a final-scoring line (`Ana: 2 Hydrangea, Tulip`); the inverse of parsing."""
    items = [(f"{n} " if n > 1 else "") + cards.names[k] for k, n in enumerate(counts) if n]
    return (f"{name}: " if name else "") + ", ".join(items)


def _flower_names(cards: PressedCards) -> str:
    return ", ".join(cards.names)


def _read_items(text: str, cards: PressedCards, where: str) -> list[tuple[int, int]]:
    """`2 Hydrangea, Baby's Breath 2 Zinnia` → [(count, kind), ...]."""
    items: list[tuple[int, int]] = []
    for chunk in text.split(","):
        words = chunk.split()
        i = 0
        while i < len(words):
            count = 1
            match = COUNT_RE.match(words[i])
            if match:
                count = _count(match, where)
                i += 1
                if i == len(words):
                    raise PositionError(f"{where}: the count {count} names no flower")
            kind, used = _longest_flower(words[i:], cards)
            if kind is None:
                raise PositionError(f"{where}: unknown flower {words[i]!r} (flowers: {_flower_names(cards)})")
            i += used
            if i < len(words):
                trailing = COUNT_RE.match(words[i])
                if trailing and not match and (i + 1 == len(words)):
                    count = _count(trailing, where)  # `Hydrangea 2` / `Hydrangea x2`
                    i += 1
            items.append((count, kind))
    return items


def _count(match: re.Match[str], where: str) -> int:
    digits = match.group(1) or match.group(2)
    if len(digits) > MAX_DIGITS:
        raise PositionError(f"{where}: the count {digits[:MAX_DIGITS]}… is far more than the game's cards")
    return int(digits)


def _longest_flower(words: Sequence[str], cards: PressedCards) -> tuple[int | None, int]:
    for length in range(min(len(words), 4), 0, -1):
        kind = cards.kind_of(" ".join(words[:length]))
        if kind is not None:
            return kind, length
    return None, 0


def parse_collections(text: str, cards: PressedCards, source: str = "position") -> list[Collection]:
    """Every player's collection from a final-scoring file; errors name the line."""
    players: list[Collection] = []
    pending_name: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        where = f"{source}: line {number}"
        if line.startswith("#"):
            pending_name = line.lstrip("#").strip() or None
            continue
        body, bar, declared = line.partition("|")
        name = pending_name
        pending_name = None
        if ":" in body:
            name_part, _, body = body.partition(":")
            name = name_part.strip() or name
        counts = [0] * len(cards.names)
        for count, kind in _read_items(body, cards, where):
            counts[kind] += count
        if not any(counts):
            raise PositionError(f"{where}: {name or 'the player'} has no pressed flowers")
        item = Collection(name, counts, line=number)
        _check_collection(item, cards, where)
        if bar:
            _read_declared(declared, item, cards, where)
        players.append(item)
    if not players:
        raise PositionError(
            f"{source}: no pressed collection found (write `Name: 2 Hydrangea, Tulip, ...`, "
            f"or a bed grid and a `play CODE COLUMN` line)"
        )
    return players


def _check_collection(item: Collection, cards: PressedCards, where: str) -> None:
    who = item.name or "the player"
    for kind, count in enumerate(item.counts):
        if count > cards.copies[kind]:
            raise PositionError(
                f"{where}: {who} has {count} {cards.plurals[kind]} but the game has only {cards.copies[kind]}"
            )
    most = cards.rounds * cards.press
    if sum(item.counts) > most:
        raise PositionError(f"{where}: {who} has {sum(item.counts)} pressed cards; a game presses at most {most}")


def _read_declared(text: str, item: Collection, cards: PressedCards, where: str) -> None:
    tucked = [0] * len(cards.names)
    any_tucked = False
    for chunk in text.split(","):
        chunk = chunk.strip()
        if not chunk:
            continue
        parts = DECLARE_RE.split(chunk, maxsplit=1)
        if len(parts) != 2 or not parts[1].strip():
            raise PositionError(f"{where}: write a declared choice as FLOWER=FLOWER (like Tulip=Hydrangea), not {chunk!r}")
        left, right = parts
        words = left.split()
        count = 1
        if words and COUNT_RE.match(words[0]):
            match = COUNT_RE.match(words[0])
            assert match
            count = _count(match, where)
            words = words[1:]
        chooser = cards.kind_of(" ".join(words))
        target = cards.kind_of(right.strip())
        if chooser is None:
            raise PositionError(f"{where}: unknown flower {' '.join(words)!r} in {chunk!r}")
        if target is None:
            raise PositionError(f"{where}: unknown flower {right.strip()!r} in {chunk!r}")
        if not item.counts[chooser]:
            raise PositionError(f"{where}: {chunk!r}: the player pressed no {cards.names[chooser]}")
        if not item.counts[target] or cards.effects[target] == COPY:
            raise PositionError(
                f"{where}: {chunk!r}: {cards.names[target]} is not a group of the player's "
                f"(a choice names another flower the player pressed)"
            )
        if cards.effects[chooser] == COPY:
            tucked[target] += count
            any_tucked = True
            if sum(tucked) > item.counts[chooser]:
                raise PositionError(
                    f"{where}: {sum(tucked)} {cards.plurals[chooser]} declared but only "
                    f"{item.counts[chooser]} pressed"
                )
        elif cards.counts[chooser] == CHOSEN:
            if target == chooser:
                raise PositionError(f"{where}: {chunk!r}: a {cards.names[chooser]} chooses another group, not its own")
            if chooser in item.chosen:
                raise PositionError(f"{where}: the {cards.names[chooser]} choice is declared twice")
            item.chosen[chooser] = target
        else:
            raise PositionError(f"{where}: {chunk!r}: a {cards.names[chooser]} makes no choice at final scoring")
    if any_tucked:
        item.tucked = tucked


# ----- planting queries ----------------------------------------------------------------------------
def parse_planting(text: str, cards: PressedCards, source: str = "position") -> tuple[str | None, PlantScore, int, int]:
    """Parse and score a planting query: (player name, score, row, column) with row/column 0-based."""
    name: str | None = None
    grid: list[tuple[int, list[int | None]]] = []
    play: tuple[int, int, int] | None = None  # line, kind, column
    chooses: list[tuple[int, int, int]] = []  # line, row, column
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        where = f"{source}: line {number}"
        if line.startswith("#"):
            name = line.lstrip("#").strip() or None
            continue
        words = line.replace(",", " ").split()
        if not words:
            raise PositionError(f"{where}: a line of only commas (write a bed row as codes, . for an empty space)")
        verb = fold(words[0])
        if verb == "play":
            if play is not None:
                raise PositionError(f"{where}: a planting query has one play line")
            if len(words) < 3:
                raise PositionError(f"{where}: write play CODE COLUMN (like play HY 3)")
            kind = _code(" ".join(words[1:-1]), cards, where)
            play = (number, kind, _number(words[-1], "column", where))
            continue
        if verb == "choose":
            if play is None:
                raise PositionError(f"{where}: choose comes after the play line")
            if len(words) != 3:
                raise PositionError(f"{where}: write choose ROW COLUMN (like choose 2 3)")
            chooses.append((number, _number(words[1], "row", where), _number(words[2], "column", where)))
            continue
        if play is not None:
            raise PositionError(f"{where}: only choose lines may follow the play line, not {line!r}")
        grid.append((number, [None if w == "." else _code(w, cards, where) for w in words]))
    assert play is not None
    bed = _bed_from_grid(grid, cards, source)
    play_line, kind, column = play
    where = f"{source}: line {play_line}"
    if not 1 <= column <= len(bed):
        raise PositionError(f"{where}: there is no column {column} (the bed has {len(bed)} columns)")
    col = column - 1
    row = len(bed[col])
    if row == 0:
        raise PositionError(
            f"{where}: column {column} has no cards; a card goes below the lowest card of a column, "
            f"never into a new column"
        )
    _check_copies(bed, kind, cards, source)
    if chooses and cards.effects[kind] != COPY and cards.counts[kind] != CHOSEN:
        raise PositionError(f"{source}: line {chooses[0][0]}: a {cards.names[kind]} makes no choice")
    targets: list[int] = []
    for choose_line, r, c in chooses:
        here = f"{source}: line {choose_line}"
        if (r - 1, c - 1) == (row, col):
            raise PositionError(f"{here}: row {r}, column {c} is the played card itself; choose another card")
        if r - 1 != row and c - 1 != col:
            raise PositionError(
                f"{here}: row {r}, column {c} is not in the played card's row {row + 1} or column {column}"
            )
        if not 1 <= c <= len(bed) or not 1 <= r <= len(bed[c - 1]):
            raise PositionError(f"{here}: there is no card at row {r}, column {c}")
        targets.append(bed[c - 1][r - 1])
    return name, _score_query(bed, col, row, kind, targets, cards, source, chooses), row, col


def _score_query(
    bed: list[list[int]], col: int, row: int, kind: int, targets: list[int], cards: PressedCards,
    source: str, chooses: list[tuple[int, int, int]],
) -> PlantScore:
    copy_kind = cards.copy_kind
    needs = 0
    if cards.effects[kind] == COPY:
        needs = 1 + (1 if targets and cards.counts[targets[0]] == CHOSEN else 0)
    elif cards.counts[kind] == CHOSEN:
        needs = 1
    if len(targets) > needs:
        extra_line = chooses[needs][0]
        if needs == 0:
            raise PositionError(f"{source}: line {extra_line}: a {cards.names[kind]} makes no choice")
        raise PositionError(f"{source}: line {extra_line}: one choose line too many for a {cards.names[kind]}")
    if len(targets) == needs:
        copy = targets[0] if cards.effects[kind] == COPY else None
        choose = targets[-1] if needs == 2 or (needs == 1 and copy is None) else None
        return plant_score(bed, col, kind, cards, copy, choose)
    # Choices left out: the best for the player.
    line = set(line_cards(bed, row, col))
    best: PlantScore | None = None
    for copy in sorted(line) if kind == copy_kind else [None]:
        if targets and copy is not None and copy != targets[0]:
            continue
        acts = copy if copy is not None else kind
        for choose in (sorted(line) if cards.counts[acts] == CHOSEN else [None]):
            result = plant_score(bed, col, kind, cards, copy, choose)
            if best is None or result.points > best.points:
                best = result
    assert best is not None
    if best.points == 0 and not line:
        return best
    return PlantScore(best.points, best.kind, best.acts_as, best.count, best.copied, best.chosen,
                      note="best choice (no choose line given)")


def _bed_from_grid(grid: list[tuple[int, list[int | None]]], cards: PressedCards, source: str) -> list[list[int]]:
    if not grid:
        raise PositionError(f"{source}: the planting query has no bed (rows of codes before the play line)")
    width = len(grid[0][1])
    bed: list[list[int]] = [[] for _ in range(width)]
    for index, (number, cells) in enumerate(grid):
        where = f"{source}: line {number}"
        if len(cells) != width:
            raise PositionError(f"{where}: row {index + 1} has {len(cells)} cells but row 1 has {width}")
        for c, card in enumerate(cells):
            if card is None:
                continue
            if len(bed[c]) != index:
                raise PositionError(f"{where}: column {c + 1} has a card below an empty space")
            bed[c].append(card)
    return bed


def _check_copies(bed: list[list[int]], kind: int, cards: PressedCards, source: str) -> None:
    used = [0] * len(cards.names)
    used[kind] += 1
    for column in bed:
        for card in column:
            used[card] += 1
    for k, count in enumerate(used):
        if count > cards.copies[k]:
            raise PositionError(
                f"{source}: {count} {cards.plurals[k]} in the bed and hand but the game has only {cards.copies[k]}"
            )


def _code(word: str, cards: PressedCards, where: str) -> int:
    kind = cards.kind_of(word)
    if kind is None:
        raise PositionError(f"{where}: unknown flower {word!r} (codes: {' '.join(cards.codes)})")
    return kind


def _number(word: str, what: str, where: str) -> int:
    if not (word.isascii() and word.isdigit()):
        raise PositionError(f"{where}: the {what} must be a number from 1, not {word[:20]!r}")
    if len(word) > MAX_DIGITS:
        raise PositionError(f"{where}: there is no {what} {word[:MAX_DIGITS]}… (the bed is far smaller)")
    return int(word)

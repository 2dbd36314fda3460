"""The state of one game of By This: plain data (cloned by `core.plain.clone`), and the phases of a turn."""

from __future__ import annotations

from dataclasses import dataclass, field

PLAY, PLACE_STEP, CLOSE_STEP, OVER = "play", "place", "close", "over"


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
    #: Every closed shelf, in order: (the seat that closed it, -1 if forced; its points; its cards left to right).
    #: Left out of repr: the record of play, not a rule (the rules fingerprint hashes repr).
    shelves: list[tuple[int, int, tuple[int, ...]]] = field(default_factory=list, repr=False)


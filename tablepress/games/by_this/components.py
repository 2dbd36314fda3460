"""By This' printed parts besides the cards: the score pad. Scores add up over many closes and closed
cards leave the game, so the table writes them down (rules.md, Close and End).
"""

from __future__ import annotations

from ...faces.model import Component
from ...faces.scoresheet import Row, score_sheet
from .engine import ByThisGame


def _player_counts(closes_to_end: dict[int, int]) -> str:
    """The closes that end a game by player count, e.g. "6 closes (2–3 players) or 8 (4 players)"."""
    by_closes: dict[int, list[int]] = {}
    for players, closes in sorted(closes_to_end.items()):
        by_closes.setdefault(closes, []).append(players)
    parts = []
    for closes, counts in sorted(by_closes.items()):
        who = str(counts[0]) if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
        parts.append(f"{closes} closes ({who} players)")
    return " or ".join(parts)


def score_pad(game: ByThisGame) -> Component:
    """The score pad page: a row per close (the closer writes the points), closes made, total."""
    cards = game.cards
    closes = max(cards.closes_to_end.values())
    rows = [Row(f"Close {number}", "closer only") for number in range(1, closes + 1)]
    rows += [Row("Closes made (ties: more wins)"), Row("Total", total=True)]
    notes = [
        "Write the points of a close in the column of the player who closed: the shelf's length, plus 1 for every "
        "extra card in a pile of same numbers side by side (three 1s = +2). A forced close scores for no one and "
        f"takes a row with no points. The game ends after {_player_counts(cards.closes_to_end)}, or when no thing "
        "is left; most points wins, ties go to more closes.",
    ]
    face = score_sheet(f"{game.title or 'By This'} — score pad", "write each player's name at the top of a column",
                       rows, game.max_players, notes)
    return Component("score-pad", "Score pad", 1, face, "scorebook")


def components(game: ByThisGame) -> list[Component]:
    """Every printed By This part besides the cards."""
    return [score_pad(game)]

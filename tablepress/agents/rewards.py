"""What a search backs up: each seat's reward from every seat's value, at a cut-off or at the end."""

from __future__ import annotations

from typing import Any

from ..core.game import Game
from ..core.package import Evaluate

#: How a search turns every seat's value into its reward (presets.Backup): its margin over the best other
#: seat ("best"), over the mean of the others ("mean"), or the value itself ("own", max^n on absolute values).
BACKUPS = ("best", "mean", "own")
#: What winning is worth on top of the score margin at the end of a game, in points (breaks ties).
WIN_BONUS = 0.5


def relative_values(values: list[float], backup: str = "best") -> list[float]:
    """Each seat's reward from every seat's value under `backup` (see BACKUPS; solo: the value itself)."""
    if len(values) == 1 or backup == "own":
        return list(values)
    if backup == "mean":
        total, others = sum(values), len(values) - 1
        return [value - (total - value) / others for value in values]
    result = []
    for seat, value in enumerate(values):
        best_other = max(v for i, v in enumerate(values) if i != seat)
        result.append(value - best_other)
    return result


def cutoff_margins(game: Game, state: Any, seat_value: Evaluate, players: int, backup: str = "best") -> list[float]:
    """Each seat's heuristic margin over the best other seat at a search cut-off (its value alone in solo;
    `backup` chooses another reward, see BACKUPS)."""
    return relative_values([seat_value(game, state, seat) for seat in range(players)], backup)


def final_margins(game: Game, state: Any, backup: str = "best", end_bonus: float | None = None) -> list[float]:
    """Each seat's final score margin over the best other seat (or another reward, see BACKUPS), plus its
    share of `WIN_BONUS`; with `end_bonus`, plus `end_bonus` times its share of the victory less its fair
    share (1 / players) instead, so that a search backing up its own value, blind to the rivals until the
    end, weighs a won end above a lost one by that many points. An end without a winner (solo) has no
    victory to weigh: its rewards are the margins alone."""
    scores = game.scores(state)
    margins = relative_values([float(s) for s in scores], backup)
    winners = game.winners(state)
    if end_bonus is not None:
        if winners:
            fair = 1.0 / len(margins)
            for seat in range(len(margins)):
                margins[seat] += end_bonus * ((1.0 / len(winners) if seat in winners else 0.0) - fair)
        return margins
    for seat in winners:
        margins[seat] += WIN_BONUS / len(winners)
    return margins

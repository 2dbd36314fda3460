"""Card-level figures of one finished game of By This, for `tablepress simulate`.

close_length: mean cards on a shelf when it closes; close_points: mean points a close scores (forced
closes score nobody); closes and forced_closes per game; specials per game: bythis, samenumber, dump and
lock played; floor: things put on the Floor; from_floor: things placed from the Floor; passes.
"""

from __future__ import annotations

import math
from typing import Any

from ...core.match import Match


def figures(game: Any, match: Match) -> dict[str, float]:
    """Replay the match and measure every close and the use of each special."""
    state = game.new(match.players, match.seed, match.options)
    lengths: list[int] = []
    points: list[int] = []
    counts = dict.fromkeys(("bythis", "samenumber", "dump", "lock", "floor", "pass"), 0)
    from_floor = 0
    for seat, action in match.actions:
        verb = action.split(" ", 1)[0]
        if verb in counts:
            counts[verb] += 1
        from_floor += action.endswith(" from floor")
        closes, closed, scores = state.total_closes, len(state.closed), sum(state.scores)
        forced = state.forced_closes
        game.apply_legal(state, seat, action)
        if state.total_closes > closes:
            lengths.append(len(state.closed) - closed)
            if state.forced_closes == forced:
                points.append(sum(state.scores) - scores)
    out = {
        "closes": float(state.total_closes),
        "forced_closes": float(state.forced_closes),
        "close_length": sum(lengths) / len(lengths) if lengths else math.nan,
        "longest_close": float(max(lengths, default=0)),
        "close_points": sum(points) / len(points) if points else math.nan,
        "from_floor": float(from_floor),
        "passes": float(counts.pop("pass")),
    }
    out.update({name: float(value) for name, value in counts.items()})
    return out

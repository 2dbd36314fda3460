"""Card-level figures of one finished game of By This, for `tablepress simulate`.

close_length: mean cards on a shelf when it closes; close_points: mean points a close scores (forced
closes score nobody); closes and forced_closes per game; same_closer: the share of chosen closes made by the
seat that made the chosen close just before (fair 1/players; with 4 players the closer places the next shelf's
fourth thing too, so the role stays until a seat cannot place or a special shortens the shelf); specials per
game: bythis, samenumber, dump and lock played; floor: things put on the Floor; from_floor: things placed from
the Floor; passes.
"""

from __future__ import annotations

import math
from typing import Any

from ...core.match import Match
from ...core.package import Stats


def _closes(game: Any, match: Match) -> list[tuple[int, bool, int]]:
    """Every close of the match, replayed once: (cards closed, whether forced, points scored).

    `figures` and `samples` both need it; the last match's answer is kept (keyed by everything that
    decides the game: seed, players, options and actions), so a game is replayed once.
    """
    key = (match.seed, match.players, repr(sorted(match.options.items())), tuple(match.actions))
    if _last_closes.get("key") != key:
        state = game.new(match.players, match.seed, match.options)
        closes: list[tuple[int, bool, int]] = []
        for seat, action in match.actions:
            total, closed, scores, forced = state.total_closes, len(state.closed), sum(state.scores), state.forced_closes
            game.apply_legal(state, seat, action)
            if state.total_closes > total:
                closes.append((len(state.closed) - closed, state.forced_closes > forced, sum(state.scores) - scores))
        _last_closes.update(key=key, closes=closes)
    return _last_closes["closes"]


_last_closes: dict[str, Any] = {}


def figures(game: Any, match: Match) -> dict[str, float]:
    """Replay the match and measure every close and the use of each special."""
    counts = dict.fromkeys(("bythis", "samenumber", "dump", "lock", "floor", "pass"), 0)
    from_floor = 0
    for _, action in match.actions:
        verb = action.split(" ", 1)[0]
        if verb in counts:
            counts[verb] += 1
        from_floor += action.endswith(" from floor")
    closes = _closes(game, match)
    lengths = [length for length, _, _ in closes]
    points = [scored for _, forced, scored in closes if not forced]
    state = match.state
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
    out["same_closer"] = same_closer([seat for seat, _, _ in state.shelves])
    return out


def same_closer(closers: list[int]) -> float:
    """The share of chosen closes (closer >= 0, -1 forced) made by the closer of the close just before, a
    chosen one too; nan with no such pair."""
    pairs = [(before, after) for before, after in zip(closers, closers[1:]) if before >= 0 and after >= 0]
    return sum(before == after for before, after in pairs) / len(pairs) if pairs else math.nan


#: How findings read a family of figures (none in By This: its figures are per game).
FAMILIES: dict[str, dict[str, str]] = {}

#: What the agents decide here and how strong they measured (docs/strength.md: the cells and their commands).
BOTS = {
    "decisions": "which thing to place (from hand or the Floor) or which special to play, and whether to "
                 "close the shelf or keep it open; greedy weighs closing now against keeping with a shelf race "
                 "(who can extend and close the shelf next, and who is placed to close the one after)",
    "not_decided": "the bots close at the minimum length: under these rules a kept shelf is closed by the next "
                   "player once it is extended, so closing at once is dominant (a greedy that always keeps won "
                   "0 of 200 games); the close-or-keep choice is degenerate — a design point, not a bot's limit",
    #: Measured, not computed: `tablepress ladder by-this --players N --rung R --seed S`, greedy/random/200 on seed
    #: 5; ismcts:300/greedy/100 on seeds 5-10 (2 players) and 5-14 (3 and 4), pooled (docs/strength.md,
    #: "Where the search stands"). Update with the docs when a cell is measured again.
    "ladder": [("greedy", "random", 2, 200, 0.998), ("greedy", "random", 4, 200, 0.833),
               ("ismcts:300", "greedy", 2, 600, 0.571), ("ismcts:300", "greedy", 3, 1000, 0.409),
               ("ismcts:300", "greedy", 4, 1000, 0.347)],
}

#: The specials by the verb that plays them, and the Floor, as the card table names them.
PLAYED = {"bythis": "By This", "samenumber": "Same Number", "dump": "Dump", "lock": "Lock", "floor": "the Floor"}


def cards(game: Any, match: Match) -> dict[str, dict[str, list[float]]]:
    """Per seat: each special played (and things put on the Floor), and shelves closed by choice."""
    played = {name: [0.0] * match.players for name in PLAYED.values()}
    closes = {"a shelf": [float(value) for value in match.state.closes]}
    for seat, action in match.actions:
        verb = action.split(" ", 1)[0]
        if verb in PLAYED:
            played[PLAYED[verb]][seat] += 1
    return {"play": played, "close": closes}


def samples(game: Any, match: Match) -> dict[str, list[float]]:
    """Every close's length (cards on the shelf when it closed): `close_length`, forced closes apart; and the
    points each chosen close scored, `close_points` (its length and its piles: how often piles decide)."""
    closes = _closes(game, match)
    return {"close_length": [float(length) for length, forced, _ in closes if not forced],
            "forced_close_length": [float(length) for length, forced, _ in closes if forced],
            "close_points": [float(points) for _, forced, points in closes if not forced]}


def game_findings(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """What only By This's own figures show: a close length the agents never leave, and who closes next."""
    return _one_close_length(summary) + _closing_role(summary)


def _one_close_length(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """What the agents never try: closes that (nearly) always happen at one length leave the close untested."""
    counts = summary.get("distributions", {}).get("close_length", {})
    total = sum(counts.values())
    if total < 20:
        return []
    length, most = max(counts.items(), key=lambda item: item[1])
    share = most / total
    if share < 0.8:
        return []
    return [{"kind": "bot blind spot", "subject": "close length", "effect": share,
             "text": f"{share * 100:.1f}% of chosen closes happen at exactly {length} cards: closing at the "
                     "minimum is dominant (a kept shelf is the next player's to extend and close), so the "
                     "close-or-keep choice is not a real decision under these rules"}]


def _closing_role(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """`same_closer` against 1/players (closers taking turns evenly), tested by a one-sample t-test over games."""
    from scipy import stats as sps

    figure, players = summary.get("figures", {}).get("same_closer"), summary.get("players")
    if not figure or not players or figure.get("n", 0) < 2 or math.isnan(figure["mean"]):
        return []
    mean, sd, n, fair = figure["mean"], figure["sd"], figure["n"], 1 / players
    if sd > 0:
        p = float(2 * sps.t.sf(abs(mean - fair) / (sd / math.sqrt(n)), n - 1))
    else:
        p = 0.0 if mean != fair else 1.0
    if mean > fair:
        why = ("the closing role stays with one seat until another cannot place or a special shortens the "
               "shelf, so the turn order more than play decides who scores")
    else:
        why = "the closing role moves on with the turn order, so the seats take the shelves in turn"
    low, high = figure["ci95"]
    return [{"kind": "turn rhythm", "subject": "same closer", "effect": mean - fair,
             "ci95": [low - fair, high - fair], "reference": fair, "scale": fair, "unit": "rate", "p_value": p,
             "text": f"The seat that closed a shelf closed the next one in {mean * 100:.1f}% of successive chosen "
                     f"closes ({low * 100:.1f}–{high * 100:.1f}%) against {fair * 100:.1f}% if every seat were "
                     f"as likely: {why}"}]


#: What `simulate` asks of the game (core/package.py).
STATS = Stats(figures=figures, cards=cards, samples=samples, game_findings=game_findings, families=FAMILIES, bots=BOTS)

"""Balance statistics from result rows: win rates with Wilson intervals per player (the N-th --seats spec,
wherever the rotation sat it), per agent and per turn position, first-player advantage, scores, margins,
game length, branching, drama (lead changes), decisiveness, each card-level figure, per-card figures
(`cardstats.py`), the ranked findings (`findings.py`) and the A/B comparison with corrected p-values.

Every number is computed from the rows in index order, so equal rows give equal numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import stats as sps

from ..core.package import Stats

from .cardstats import card_table, distributions, score_over_time
from .correction import CORRECTION, adjust
from .design import cycle
from .findings import findings
from .numbers import number, percent
from .pairs import card_pairs

Z95 = 1.959963984540054
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
FIG = "fig."


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for `successes` out of `n` (successes may be fractional: shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (min(lo, p), max(hi, p))


def mean_ci(values: Sequence[float] | np.ndarray, low: float | None = None) -> dict[str, float]:
    """Mean with a 95% t interval, standard deviation and count (NaNs ignored).

    `low` is the least value the figure can take (0 for counts): the interval never reaches below it.
    """
    data = np.asarray(values, dtype=float)
    data = data[~np.isnan(data)]
    n = int(data.size)
    if n == 0:
        return {"mean": math.nan, "ci95": [math.nan, math.nan], "sd": math.nan, "n": 0}
    mean = float(data.mean())
    sd = float(data.std(ddof=1)) if n > 1 else 0.0
    half = float(sps.t.ppf(0.975, n - 1) * sd / math.sqrt(n)) if n > 1 else 0.0
    lo = mean - half if low is None else max(low, mean - half)
    return {"mean": mean, "ci95": [lo, mean + half], "sd": sd, "n": n}


def describe(values: Sequence[float] | np.ndarray, low: float | None = None) -> dict[str, Any]:
    """Mean, 95% interval (never below `low`), spread (sd), min, max and quantiles (5, 25, 50, 75, 95%)."""
    data = np.asarray(values, dtype=float)
    out = mean_ci(data, low)
    data = data[~np.isnan(data)]
    if data.size:
        out["min"] = float(data.min())
        out["max"] = float(data.max())
        out["quantiles"] = {f"{int(q * 100)}": float(v) for q, v in zip(QUANTILES, np.quantile(data, QUANTILES))}
    return out


def count_text(value: float) -> str:
    """A count that may be fractional (shared victories count 1/k): 103, or 103.7 — never 103.666667."""
    return number(value)


def figure_label(key: str) -> str:
    """A difference's key as a person reads it: no `fig.` prefix, players counted from 1 (`win_rate.seat0` →
    `win rate, player 1`: the first --seats spec, wherever the rotation sat it)."""
    name = key.replace("fig.", "")
    head, dot, seat = name.rpartition(".seat")
    if dot and seat.isdecimal():
        name = f"{head}, player {int(seat) + 1}"
    return name.replace("_", " ")


def figure_names(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The card-level figure names present in the rows (without the `fig.` prefix), sorted."""
    names: set[str] = set()
    for row in rows:
        names.update(key[len(FIG):] for key in row if key.startswith(FIG))
    return sorted(names)


def column(rows: Sequence[dict[str, Any]], key: str) -> np.ndarray:
    """One per-game value as an array (NaN where a row lacks it)."""
    return np.array([float(row.get(key, math.nan)) for row in rows], dtype=float)


def margins(scores: np.ndarray) -> np.ndarray:
    """The margin of victory per game: best score minus the second best."""
    ordered = np.sort(scores, axis=1)
    return ordered[:, -1] - ordered[:, -2]


def summarise(rows: Sequence[dict[str, Any]], game: str, players: int, seed: int | None = None,
              label: str | None = None) -> dict[str, Any]:
    """The balance summary of a run (the `simulate --json` fields of docs/reference.md plus the designer's figures).

    Besides the per-seat and per-agent tables: `positions` (win rate per turn position, 1 = first to act),
    `rotation`, `warnings`, `cards` (per-card figures), `score_over_time`, `distributions`, `bots` (what
    the game's agents decide and their measured strength) and `findings` (ranked, corrected p-values).
    """
    n = len(rows)
    solo = players == 1
    seats_spec = entrant_specs(rows)
    scores = by_entrant(rows, "scores", players)
    shares = by_entrant(rows, "shares", players)
    seats = []
    for seat in range(players):
        entry: dict[str, Any] = {"seat": seat, "agent": seats_spec[seat] if seats_spec else None}
        if not solo:
            wins = float(shares[:, seat].sum())
            entry["wins"] = _num(wins)
            entry["win_rate"] = wins / n
            entry["ci95"] = list(wilson(wins, n))
        entry["mean_score"] = float(scores[:, seat].mean())
        entry["score"] = describe(scores[:, seat])
        seats.append(entry)
    summary: dict[str, Any] = {"game": game, "games": n, "players": players}
    if seed is not None:
        summary["seed"] = seed
    if label is not None:
        summary["variant"] = label
    summary["seats"] = seats
    turns = column(rows, "turns")
    summary["mean_turns"] = float(turns.mean())
    if not solo:
        summary["agents"] = _agents(seats_spec, shares, scores)
        first = np.array([row["shares"][row["first"]] for row in rows], dtype=float)
        rate = float(first.mean())
        summary["first_player_win_rate"] = rate
        summary["first_player"] = {
            "win_rate": rate,
            "ci95": list(wilson(float(first.sum()), n)),
            "fair": 1 / players,
            "advantage": rate - 1 / players,
            "p_value": _share_test(first, 1 / players),
        }
        summary["margin"] = describe(margins(scores), low=0.0)
        summary["shared_victories"] = float(np.mean([len(row["winners"]) > 1 for row in rows]))
        changes = column(rows, "lead_changes")
        summary["lead_changes"] = describe(changes, low=0.0)
        summary["games_with_lead_change"] = float(np.mean(changes > 0))
        decisive = [row["leader_half"] >= 0 and row["leader_half"] in row["winners"] for row in rows]
        summary["decisiveness"] = float(np.mean(decisive))
        held = int(sum(decisive))
        summary["decisiveness_detail"] = {"rate": summary["decisiveness"], "ci95": list(wilson(held, n)),
                                          "p_value": float(sps.binomtest(held, n, 1 / players).pvalue) if n else 1.0}
        summary["positions"] = positions(rows, players)
    summary["turns"] = describe(turns, low=0.0)
    decisions = column(rows, "decisions")
    summary["decisions"] = describe(decisions, low=0.0)
    branching = column(rows, "branching")
    summary["branching"] = float((branching * decisions).sum() / decisions.sum()) if decisions.sum() else 0.0
    summary["figures"] = {name: describe(column(rows, FIG + name)) for name in figure_names(rows)}
    summary["cards"] = card_table(rows, players)
    summary["score_over_time"] = score_over_time(rows, players)
    summary["distributions"] = distributions(rows)
    summary["rotation"] = rotation(rows, players)
    summary["warnings"] = warnings(summary, seats_spec)
    hooks = _hooks(game)
    summary["bots"] = dict(hooks.bots) if hooks is not None else {}
    summary["pairs"] = card_pairs(rows, players)
    summary["findings"] = findings(summary, rows, hooks)
    summary["correction"] = CORRECTION
    return summary


def _hooks(game: str) -> Stats | None:
    """The game's `stats` part (its optional families, bots, game_findings), or None for an unknown game."""
    from ..core.errors import TablepressError
    from ..core.registry import get_game, package_of

    try:
        return package_of(get_game(game)).stats
    except TablepressError:
        return None


def positions(rows: Sequence[dict[str, Any]], players: int) -> list[dict[str, Any]]:
    """Win rate per turn position (1 = the first to act) with its Wilson interval and a binomial p against 1/players."""
    out = []
    n = len(rows)
    for position in range(players):
        shares = np.array([row["shares"][(row["first"] + position) % players] for row in rows], dtype=float)
        wins = float(shares.sum())
        out.append({"position": position + 1, "wins": _num(wins), "win_rate": wins / n if n else math.nan,
                    "ci95": list(wilson(wins, n)), "fair": 1 / players, "p_value": _share_test(shares, 1 / players)})
    return out


def rotation(rows: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """How the seats were assigned: a balanced rotation (its cycle, and whether the run is whole cycles) or fixed."""
    if not rows or not all(row.get("rotated") for row in rows):
        return {"design": "fixed seats", "balanced": players == 1 or len(set(rows[0]["seats"])) == 1 if rows else True}
    length = cycle(players)
    return {"design": "balanced Latin square (Williams) over turn positions", "cycle": length,
            "balanced": len(rows) % length == 0}


def warnings(summary: dict[str, Any], seats_spec: Sequence[str]) -> list[str]:
    """What a designer must know before trusting the numbers: random seats, an unfinished rotation."""
    out = []
    specs = list(dict.fromkeys(seats_spec))
    if any(spec.split(":")[0] == "random" for spec in specs):
        out.append("random seats play for balance: random players make different choices than people, so card "
                   "and turn-position figures describe random play (use --seats greedy or ismcts)")
    rot = summary.get("rotation", {})
    if rot.get("cycle") and not rot.get("balanced"):
        out.append(f"-n {summary['games']} is not a multiple of the rotation's {rot['cycle']} games: the seats' "
                   f"agents are balanced over turn positions only up to the last {summary['games'] % rot['cycle']} games")
    if rot.get("design") == "fixed seats" and not rot.get("balanced"):
        out.append("the seats do not rotate: each agent keeps its seat, so per-seat figures mix turn order and strength")
    return out


def entrant_specs(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The run's seat specs in --seats order: a rotated run's `specs`, else the first game's seats."""
    if not rows:
        return []
    return list(rows[0].get("specs") or rows[0]["seats"])


def by_entrant(rows: Sequence[dict[str, Any]], key: str, players: int) -> np.ndarray:
    """A per-seat value (`scores`, `shares`) as games × entrants: column k follows the k-th --seats spec
    wherever the rotation sat it (a row's `entrants` gives each seat's entrant; without it, seat = entrant)."""
    out = np.zeros((len(rows), players), dtype=float)
    for i, row in enumerate(rows):
        entrants = row.get("entrants") or range(players)
        for seat, entrant in enumerate(entrants):
            out[i, entrant] = row[key][seat]
    return out


def _agents(seats_spec: Sequence[str], shares: np.ndarray, scores: np.ndarray) -> list[dict[str, Any]]:
    """Win rate per agent spec over all the seats it held (n = games × its seats)."""
    out = []
    for agent in dict.fromkeys(seats_spec):
        cols = [i for i, spec in enumerate(seats_spec) if spec == agent]
        wins = float(shares[:, cols].sum())
        n = shares.shape[0] * len(cols)
        out.append({"agent": agent, "seats": cols, "wins": _num(wins), "n": n, "win_rate": wins / n,
                    "ci95": list(wilson(wins, n)), "mean_score": float(scores[:, cols].mean())})
    return out


def _share_test(first: np.ndarray, fair: float) -> float:
    """Two-sided p-value that the first player's win share differs from a fair 1/players."""
    wins = int(round(float(first.sum())))
    return float(sps.binomtest(wins, first.size, fair).pvalue) if first.size else 1.0


def _num(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(float(value), 6)


# ----- A/B comparison ----------------------------------------------------------------------------
def paired(a: np.ndarray, b: np.ndarray) -> dict[str, Any]:
    """B − A over games played on the same seeds: mean difference, 95% t interval, p-value, significance."""
    mask = ~(np.isnan(a) | np.isnan(b))
    diff = b[mask] - a[mask]
    n = int(diff.size)
    out: dict[str, Any] = {"a": float(a[mask].mean()) if n else math.nan,
                           "b": float(b[mask].mean()) if n else math.nan}
    if n == 0:
        return {**out, "diff": math.nan, "ci95": [math.nan, math.nan], "p_value": math.nan, "significant": False,
                "effect_size": math.nan}
    mean = float(diff.mean())
    sd = float(diff.std(ddof=1)) if n > 1 else 0.0
    if sd == 0.0:
        p = 1.0 if mean == 0.0 else 0.0
        half = 0.0
    else:
        half = float(sps.t.ppf(0.975, n - 1) * sd / math.sqrt(n))
        p = float(sps.ttest_rel(b[mask], a[mask]).pvalue)
    effect = mean / sd if sd else (0.0 if mean == 0 else math.copysign(math.inf, mean))
    return {**out, "diff": mean, "ci95": [mean - half, mean + half], "p_value": p, "significant": bool(p < 0.05),
            "effect_size": effect}


def compare(rows_a: Sequence[dict[str, Any]], rows_b: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """Each figure's difference between two runs on the same seeds (rows paired by index)."""
    if [r["seed"] for r in rows_a] != [r["seed"] for r in rows_b]:
        raise ValueError("a comparison needs both runs on the same seeds")
    out: dict[str, Any] = {}
    sa, sb = by_entrant(rows_a, "scores", players), by_entrant(rows_b, "scores", players)
    if players > 1:
        wa, wb = by_entrant(rows_a, "shares", players), by_entrant(rows_b, "shares", players)
        for seat in range(players):
            out[f"win_rate.seat{seat}"] = paired(wa[:, seat], wb[:, seat])
        fa = np.array([r["shares"][r["first"]] for r in rows_a], dtype=float)
        fb = np.array([r["shares"][r["first"]] for r in rows_b], dtype=float)
        out["first_player_win_rate"] = paired(fa, fb)
        out["margin"] = paired(margins(sa), margins(sb))
        out["lead_changes"] = paired(column(rows_a, "lead_changes"), column(rows_b, "lead_changes"))
    for seat in range(players):
        out[f"score.seat{seat}"] = paired(sa[:, seat], sb[:, seat])
    out["mean_score"] = paired(sa.mean(axis=1), sb.mean(axis=1))
    for key in ("turns", "decisions", "branching"):
        out[key] = paired(column(rows_a, key), column(rows_b, key))
    for name in sorted(set(figure_names(rows_a)) | set(figure_names(rows_b))):
        out[f"{FIG}{name}"] = paired(column(rows_a, FIG + name), column(rows_b, FIG + name))
    return corrected(out)


def corrected(differences: dict[str, Any]) -> dict[str, Any]:
    """Differences with Benjamini–Hochberg corrected p (`p_adjusted`; `significant` below 0.05), sorted by
    effect size (|B − A| over the spread of the paired differences), largest first."""
    keys = list(differences)
    adjusted = adjust([differences[key]["p_value"] for key in keys])
    for key, p in zip(keys, adjusted):
        d = differences[key]
        d["p_adjusted"] = p
        d["significant"] = bool(p < 0.05) if not math.isnan(p) else False
        d["correction"] = CORRECTION

    def size(key: str) -> float:
        effect = differences[key].get("effect_size", math.nan)
        return -abs(effect) if not math.isnan(effect) else math.inf

    return {key: differences[key] for key in sorted(keys, key=size)}


def verdict(differences: dict[str, Any], label_b: str = "B", label_a: str = "A") -> str:
    """One line: how many figures the change moves beyond chance, and the biggest of them."""
    moved = [key for key, d in differences.items() if d["significant"]]
    if not moved:
        return (f"No figure differs beyond chance ({CORRECTION}-corrected p ≥ 0.05 for all {len(differences)}): "
                f"{label_b} plays like {label_a} at this number of games")
    top = differences[moved[0]]
    relative = f" ({'+' if top['diff'] > 0 else '−'}{number(abs(top['diff'] / top['a']) * 100)}%)" if top["a"] else ""
    sign = "+" if top["diff"] > 0 else "−"
    return (f"{label_b} moves {len(moved)} of {len(differences)} figures beyond chance ({CORRECTION}-corrected "
            f"p < 0.05); the largest: {figure_label(moved[0])} {number(top['a'])} → {number(top['b'])} "
            f"({sign}{number(abs(top['diff']))}{relative})")


# ----- what a run leaves out ---------------------------------------------------------------------
def left_out(game: Any, players: int, options: Any) -> list[str]:
    """What the game leaves out of play at this player count and these options (its `stats` part's optional
    `left_out(game, players, options) -> list[str]`, e.g. Pressed's flowers not in the deck); [] without one."""
    from ..core.errors import TablepressError
    from ..core.registry import package_of

    hooks = package_of(game).stats
    if hooks.left_out is None:
        return []
    try:
        return [str(item) for item in hooks.left_out(game, players, options)]
    except TablepressError:
        return []


def sweep_rows(summaries: Sequence[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """The rows of a sweep's comparison: (figure, one text per player count)."""
    def first(s: dict[str, Any]) -> str:
        pos = s.get("positions") or []
        return f"{percent(pos[0]['win_rate'])} (fair {percent(pos[0]['fair'])})" if pos else "—"

    out = [("first player wins", [first(s) for s in summaries]),
           ("turns", [number(s["turns"]["mean"]) for s in summaries]),
           ("margin of victory", [number(s.get("margin", {}).get("mean")) for s in summaries]),
           ("halfway leader wins", [percent(s.get("decisiveness")) for s in summaries]),
           ("mean score", [number(sum(x["mean_score"] for x in s["seats"]) / len(s["seats"])) for s in summaries])]
    names = list(dict.fromkeys(name for s in summaries for name in s["figures"]))
    for name in names:
        out.append((name.replace("_", " "), [number(s["figures"].get(name, {}).get("mean")) for s in summaries]))
    return out

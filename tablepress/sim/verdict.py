"""The verdict on the game: which variant plays better on each declared quality measure (`quality.py`).

Every variant after the first is compared with the first on the same seeds, measure by measure
(`quality.paired_comparison`); the p-values of all those comparisons are corrected together by
Benjamini–Hochberg. On each measure with a better direction the verdict names the better variant (with
three or more, the best: the one significantly better than the first by the most, else the first when
every significant difference is for the worse) or says "no clear difference"; a measure without a better
direction (game length) only says which way it moved. A headline sums it up before any other number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .correction import ALPHA, CORRECTION, adjust
from .numbers import number, percent
from .quality import EXTRA_MEASURES, MEASURES, RESAMPLES, SKILL_SEATS, Measure, paired_comparison

Row = Mapping[str, Any]
NO_CLEAR = "no clear difference"
METHOD = (f"paired t test of the per-game differences on common seeds; a paired bootstrap ({RESAMPLES} "
          "resamples) for the distance to a goal and the seat spread")
__all__ = ["NO_CLEAR", "SKILL_SEATS", "quality_verdict", "measure_names"]


def measure_names(players: int, skill: bool) -> list[str]:
    """The quality measures compared at this player count: the declared ones that apply, then the seat
    spread and (with skill-gap rows) the skill gap."""
    names = [name for name, spec in MEASURES.items() if spec.applies(players)]
    if players > 1:
        names.append("seat_spread")
        if skill:
            names.append("skill_gap")
    return names


def _spec(name: str) -> Measure:
    return MEASURES.get(name) or EXTRA_MEASURES[name]


def better_text(spec: Measure, players: int) -> str:
    """Which direction is better, as a person reads it."""
    if spec.better == "closer":
        goal = spec.goal(players) if spec.goal else math.nan
        return f"closer to {percent(goal) if spec.share else number(goal)}"
    return {"higher": "higher", "lower": "lower"}.get(spec.better, "— (either way)")


def quality_verdict(arms: Sequence[tuple[str, Sequence[Row]]],
                    skill: Sequence[Sequence[Row]] | None = None) -> dict[str, Any]:
    """Judge two or more (label, rows) arms played on the same seeds; `skill` gives each arm's skill-gap rows
    (greedy against random, same seeds), if measured.

    Returns {labels, headline, measures: [{name, label, better, better_text, unit, values, pairs, best, text}],
    tests, correction, method, skill_seats}.
    """
    labels = [label for label, _ in arms]
    first = arms[0][1]
    players = len(first[0]["scores"]) if first else 2
    names = measure_names(players, skill is not None)
    comparisons = {name: [paired_comparison(first, rows, name, skill[0] if skill else None,
                                            skill[i] if skill else None)
                          for i, (_, rows) in enumerate(arms) if i > 0]
                   for name in names}
    flat = [c for name in names for c in comparisons[name]]
    for comparison, p in zip(flat, adjust([c["p_value"] for c in flat])):
        comparison["p_adjusted"] = p
        comparison["significant"] = bool(p < ALPHA) if not math.isnan(p) else False
    measures = [_judge(_spec(name), comparisons[name], labels, players) for name in names]
    return {"labels": labels, "headline": headline(measures, labels), "measures": measures, "tests": len(flat),
            "correction": CORRECTION, "method": METHOD, "skill_seats": SKILL_SEATS if skill else None}


def _judge(spec: Measure, comparisons: Sequence[dict[str, Any]], labels: Sequence[str], players: int) -> dict[str, Any]:
    """One measure's row of the verdict: each arm's value, each comparison with the first, the better arm."""
    values = [comparisons[0]["a"]] + [c["b"] for c in comparisons]
    pairs = []
    for label, c in zip(labels[1:], comparisons):
        direction = None if spec.better == "none" or not c["significant"] else c["score"] > 0
        pairs.append({"label": label, "diff": c["diff"], "ci95": c["ci95"], "p_value": c["p_value"],
                      "p_adjusted": c["p_adjusted"], "significant": c["significant"], "better": direction})
    best, text = _best(spec, pairs, comparisons, labels)
    return {"name": spec.name, "label": spec.label, "better": spec.better, "better_text": better_text(spec, players),
            "unit": "rate" if spec.share else spec.unit, "compared": "distance to the goal" if spec.better == "closer"
            else "value", "values": [{"label": label, "value": v.value, "ci95": list(v.ci95), "games": v.games}
                                     for label, v in zip(labels, values)],
            "pairs": pairs, "best": best, "text": text}


def _best(spec: Measure, pairs: Sequence[dict[str, Any]], comparisons: Sequence[dict[str, Any]],
          labels: Sequence[str]) -> tuple[str | None, str]:
    """(the better or best arm or None, the verdict's words) for one measure."""
    moved = [(pair, c) for pair, c in zip(pairs, comparisons) if pair["significant"]]
    if not moved:
        return None, NO_CLEAR
    if spec.better == "none":
        words = [f"{pair['label']} {'higher' if c['diff'] > 0 else 'lower'}" for pair, c in moved]
        return None, f"{', '.join(words)} than {labels[0]} (neither is better by declaration)"
    gains = [(c["score"], pair["label"]) for pair, c in moved if pair["better"]]
    losers = [pair["label"] for pair, _ in moved if not pair["better"]]
    if gains:
        best = max(gains)[1]
        if len(labels) == 2:
            return best, f"{best} better"
        return best, f"best: {best} (better than {labels[0]})"
    if len(labels) == 2:
        return labels[0], f"{labels[0]} better"
    return labels[0], f"best: {labels[0]} ({', '.join(losers)} worse)"


def headline(measures: Sequence[dict[str, Any]], labels: Sequence[str]) -> str:
    """One line before any other number: where the variants differ on the game's quality, and how."""
    judged = [m for m in measures if m["better"] != "none"]
    if len(labels) == 2:
        a, b = labels
        better = [m["label"].split(" (")[0] for m in judged if m["best"] == b]
        worse = [m["label"].split(" (")[0] for m in judged if m["best"] == a]
        same = len(judged) - len(better) - len(worse)
        if not better and not worse:
            return (f"{NO_CLEAR} between {b} and {a} on any of the {len(judged)} quality measures "
                    f"({CORRECTION}-corrected p ≥ {ALPHA})")
        parts = []
        if better:
            parts.append(f"better on {len(better)} ({', '.join(better)})")
        if worse:
            parts.append(f"worse on {len(worse)} ({', '.join(worse)})")
        if same:
            parts.append(f"{NO_CLEAR} on {same}")
        return f"{b} against {a}: " + "; ".join(parts)
    named = [f"{m['label'].split(' (')[0]} → {m['best']}" for m in judged if m["best"]]
    if not named:
        return f"{NO_CLEAR} among the {len(labels)} variants on any of the {len(judged)} quality measures"
    return f"best per quality measure: {'; '.join(named)}; {NO_CLEAR} on {len(judged) - len(named)}"

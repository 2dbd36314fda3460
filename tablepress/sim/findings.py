"""The headline findings of a run, most important first: turn-position advantage, dominant agents, the
strongest and weakest cards, cards whose holders win more or less, card pairs that win together
(`pairs.py`), decisiveness, and what only the game's own
figures show (its stats module's `game_findings`).

Each finding has an effect size (`effect`, in the unit of its `subject`), a 95% interval, a p-value and
that p-value corrected for the whole list by Benjamini–Hochberg (false discovery rate, `CORRECTION`),
and one plain-English line. A finding is `significant` when its corrected p is below 0.05. The list is
ranked significant first, by kind (`PRIORITY`), then by the size of the effect relative to its scale (the
fair share, the family median...).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from scipy import stats as sps

from ..core.package import Stats
from .correction import ALPHA, CORRECTION, adjust
from .numbers import interval, number, percent
from .pairs import pair_text

#: The order of kinds among significant findings: causal, design-level problems before associations
#: (a card's lift mixes in who drew it) and facts about the seats.
PRIORITY = {kind: rank for rank, kind in enumerate(
    ("turn position", "turn rhythm", "bot blind spot", "card strength", "card lift", "card pair",
     "dominant strategy", "decisiveness"))}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def ordinal(position: int) -> str:
    """`first`, `second`... for a turn position counted from 1."""
    return ORDINALS[position - 1] if 1 <= position <= len(ORDINALS) else f"{position}th"


def _finding(kind: str, subject: str, effect: float, ci: Sequence[float], reference: float, p: float,
             text: str, unit: str = "rate", scale: float | None = None) -> dict[str, Any]:
    """One finding; `scale` (default: the reference) is what its effect is measured against for ranking."""
    return {"kind": kind, "subject": subject, "effect": effect, "ci95": list(ci), "reference": reference,
            "scale": reference if scale is None else scale, "unit": unit, "p_value": p, "text": text}


def effect_text(finding: Mapping[str, Any]) -> tuple[str, str]:
    """(effect, interval) as text: a rate's in percentage points (`+13.9 pts`), anything else as a number."""
    effect, ci = finding.get("effect"), finding.get("ci95")
    if finding.get("unit") == "rate" and effect is not None and ci:
        return (f"{'+' if effect > 0 else ''}{number(effect * 100)} pts",
                f"[{number(ci[0] * 100)}, {number(ci[1] * 100)}] pts")
    if finding.get("unit") == "share" and effect is not None:
        return percent(effect), "—"
    return (number(effect) if effect is not None else "—", interval(ci) if ci else "—")


def position_findings(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each turn position's win rate against the fair 1/players (at 2 players the first only: the second mirrors it)."""
    out = []
    entries = summary.get("positions", [])
    for entry in entries[:1] if len(entries) == 2 else entries:
        rate, fair, position = entry["win_rate"], entry["fair"], entry["position"]
        word = "advantage" if rate > fair else "disadvantage"
        text = (f"The {ordinal(position)} player wins {percent(rate)} ({interval(entry['ci95'], True)}) "
                f"against a fair {percent(fair)}: a turn-position {word} of {number(abs(rate - fair) * 100)} "
                "percentage points")
        out.append(_finding("turn position", f"position {position}", rate - fair,
                            [entry["ci95"][0] - fair, entry["ci95"][1] - fair], fair, entry["p_value"], text))
    return out


def agent_findings(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """With several agents, each one's win rate against the fair share: which strategy dominates."""
    agents = summary.get("agents", [])
    if len(agents) < 2:
        return []
    fair = 1 / summary["players"]
    out = []
    for agent in agents:
        n = agent["n"]
        rate = agent["win_rate"]
        p = float(sps.binomtest(int(round(rate * n)), n, fair).pvalue) if n else math.nan
        role = "the stronger player" if rate > fair else "the weaker player"
        text = (f"{agent['agent']} wins {percent(rate)} ({interval(agent['ci95'], True)}) of its seats against a "
                f"fair {percent(fair)}: {role}, so per-seat figures mix its strength in")
        out.append(_finding("dominant strategy", f"agent {agent['agent']}", rate - fair,
                            [agent["ci95"][0] - fair, agent["ci95"][1] - fair], fair, p, text))
    return out


def family_findings(summary: Mapping[str, Any], rows: Sequence[Mapping[str, Any]],
                    families: Mapping[str, Mapping[str, str]]) -> list[dict[str, Any]]:
    """For each declared figure family (`planted.FLOWER`...), every member against the family's median.

    The p-value is a one-sample t-test of the member's per-game values against the median of the members'
    means (taken as fixed).
    """
    out = []
    figures = summary.get("figures", {})
    for family, reading in families.items():
        members = {name.partition(".")[2]: figures[name] for name in figures
                   if name.startswith(family + ".") and not math.isnan(figures[name]["mean"])}
        if len(members) < 3:
            continue
        median = float(np.median([d["mean"] for d in members.values()]))
        ranked = sorted(members, key=lambda m: members[m]["mean"])
        for member, d in members.items():
            values = np.array([float(row.get(f"fig.{family}.{member}", math.nan)) for row in rows])
            values = values[~np.isnan(values)]
            if values.size < 2 or values.std() == 0:
                p = 1.0 if d["mean"] == median else 0.0
            else:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    p = float(sps.ttest_1samp(values, median).pvalue)
            effect = d["mean"] - median
            far = abs(effect) > 0.25 * abs(median) if median else effect != 0
            side = ("far " if far else "") + ("below" if effect < 0 else "above")
            reads = reading["reads"].format(name=member, value=number(d["mean"]))
            text = f"{reads[0].upper()}{reads[1:]}, {side} the median {number(median)}"
            if member == ranked[0]:
                text += f": the weakest {reading['noun']}"
            elif member == ranked[-1]:
                text += f": the strongest {reading['noun']}"
            out.append(_finding("card strength", f"{family}.{member}", effect,
                                [d["ci95"][0] - median, d["ci95"][1] - median], median, p, text, unit="figure"))
    return out


def lift_findings(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """For the game's first card measure (taken, played...): cards whose holders win more or less often."""
    cards = summary.get("cards", {})
    if not cards or summary["players"] < 2:
        return []
    measure, entries = next(iter(cards.items()))
    fair = 1 / summary["players"]
    out = []
    for entry in entries:
        if math.isnan(entry.get("lift", math.nan)):
            continue
        effect = entry["lift"]
        word = "more" if effect > 0 else "less"
        text = (f"Players who {measure} {entry['card']} win {number(abs(effect) * 100)} percentage points {word} often "
                f"than those who do not (95% interval {number(entry['ci95'][0] * 100)} to "
                f"{number(entry['ci95'][1] * 100)}; {percent(entry['share'])} of players do)")
        out.append(_finding("card lift", f"{measure} {entry['card']}", effect, entry["ci95"], fair,
                            entry["p_value"], text))
    return out


def pair_findings(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The strongest card pairs (`pairs.py`): seats holding both win more or less than each card alone
    predicts. Their p is already corrected for every pair tested; the ranking corrects it again with the rest."""
    found = summary.get("pairs") or {}
    fair = 1 / summary["players"] if summary.get("players") else 0.0
    return [_finding("card pair", f"{pair['measure']} {pair['cards'][0]} + {pair['cards'][1]}", pair["lift"],
                     pair["ci95"], fair, pair["p_adjusted"], pair_text(pair, found.get("tested", 0)))
            for pair in found.get("pairs", [])]


def decisiveness_findings(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """How often the leader at halfway wins, against the fair share a lead that meant nothing would give."""
    if summary["players"] < 2 or "decisiveness" not in summary:
        return []
    d = summary["decisiveness_detail"]
    rate, fair = d["rate"], 1 / summary["players"]
    if rate >= 0.85:
        reading = "the second half rarely changes the result (a runaway leader)"
    elif rate >= 0.7:
        reading = "an early lead usually holds"
    elif rate <= fair + 0.1:
        reading = "an early lead means little: the end decides"
    else:
        reading = "an early lead helps, and the second half still matters"
    text = f"The leader at halfway wins {percent(rate)} ({interval(d['ci95'], True)}) of games: {reading}"
    # Ranked against the whole range of a rate: a halfway leader usually winning is common in good games.
    return [_finding("decisiveness", "halfway leader", rate - fair, [d["ci95"][0] - fair, d["ci95"][1] - fair],
                     fair, d["p_value"], text, scale=1.0)]


def rank(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Correct every p-value (Benjamini–Hochberg) and order the list: significant findings and untested flags
    (a bot's blind spot: `significant` None) first, by kind (`PRIORITY`), then larger effects relative to
    their scale; then the rest by effect."""
    adjusted = adjust([f["p_value"] if f.get("p_value") is not None else math.nan for f in findings])
    for finding, p in zip(findings, adjusted):
        finding["p_adjusted"] = p if not math.isnan(p) else None
        finding["significant"] = None if finding["p_adjusted"] is None else finding["p_adjusted"] < ALPHA
        finding["correction"] = CORRECTION

    def importance(finding: dict[str, Any]) -> float:
        reference = abs(finding.get("scale") or finding.get("reference") or 0.0)
        effect = abs(finding.get("effect") or 0.0)
        return effect / reference if reference else effect

    return sorted(findings, key=lambda f: (f["significant"] is False,
                                           PRIORITY.get(f["kind"], len(PRIORITY)) if f["significant"] is not False else 0,
                                           -importance(f)))


def findings(summary: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], hooks: Stats | None = None) -> list[dict[str, Any]]:
    """Every finding of a run, ranked (see the module's docstring). `hooks`: the game's `stats` part (core/package.py `Stats`), if any."""
    families = hooks.families if hooks is not None else {}
    found = (position_findings(summary) + agent_findings(summary) + family_findings(summary, rows, families)
             + lift_findings(summary) + pair_findings(summary) + decisiveness_findings(summary))
    if hooks is not None and hooks.game_findings is not None:
        for spot in hooks.game_findings(summary):
            found.append({"ci95": None, "reference": None, "unit": "share", "p_value": None, **spot})
    return rank(found)

"""The HTML balance report: one self-contained page (no external files) with tables and matplotlib plots
embedded as PNG. Top to bottom: warnings, the ranked findings, what the bots can do; for a comparison the
variant's changes, a verdict and the differences (largest first, corrected p); for a sweep the player
counts side by side; then per run the players and turn positions, score over time, per-card figures,
samples (e.g. close lengths), the summary tables and the plots. Numbers follow `numbers.py` throughout.
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ..core.errors import TablepressError  # noqa: E402
from .correction import CORRECTION  # noqa: E402
from .findings import effect_text  # noqa: E402
from .numbers import interval, number, p_text, percent  # noqa: E402
from .stats import (FIG, by_entrant, column, count_text, figure_label, figure_names, sweep_rows, verdict,  # noqa: E402
                    wilson)

Run = tuple[str, dict[str, Any], Sequence[dict[str, Any]]]  # label, summary, rows
COLOURS = ("#3b6ea5", "#d1793b", "#4c9a5a", "#9a4c8f", "#8c7a3b")

CSS = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
h1{margin-bottom:.2em} h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
table{border-collapse:collapse;margin:.6em 0;display:block;max-width:100%;overflow-x:auto} td,th{border:1px solid #ddd;padding:.25em .6em;text-align:right}
th{background:#f4f4f4} td:first-child,th:first-child{text-align:left}
table.findings td:nth-child(2),table.findings th:nth-child(2){text-align:left}
.sig{font-weight:bold;color:#a33} .meta{color:#666} figure{margin:1em 0} img{max-width:100%}
.warn{background:#fff4d6;border-left:4px solid #d9a400;padding:.4em .8em;margin:.4em 0}
.verdict{font-size:1.1em;font-weight:bold} td.text{text-align:left;max-width:40em}
pre{white-space:pre-wrap;overflow-wrap:anywhere}
summary{min-height:44px;box-sizing:border-box;padding:.65em 0;cursor:pointer}
"""


def _png(fig: Any, tight: bool = True) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight" if tight else None)
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode()


def _figure(fig: Any, title: str, tight: bool = True) -> str:
    return (f'<figure><img alt="{html.escape(title)}" title="{html.escape(title)}" '
            f'src="data:image/png;base64,{_png(fig, tight)}"><figcaption>{html.escape(title)}</figcaption></figure>')


def _fmt(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number(value)
    return html.escape(str(value))


def _ci(pair: Sequence[float]) -> str:
    return interval(pair)


def integer_bins(values: np.ndarray) -> Any:
    """Histogram bins one wide centred on the integers when every value is whole (and the range is short),
    else 20 equal bins."""
    values = values[np.isfinite(values)]
    if values.size and np.all(values == np.round(values)) and np.ptp(values) <= 60:
        return np.arange(values.min(), values.max() + 2) - 0.5
    return min(20, max(1, len(np.unique(values)))) if values.size else 10


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table tabindex=0><tr>{head}</tr>{body}</table>"  # it scrolls sideways on a phone: keyboard-reachable


# ----- plots ------------------------------------------------------------------------------------
def _legend(ax: Any, runs: Sequence[Run], handles: Sequence[Any] | None = None) -> None:
    """A legend naming the runs, outside the plot area on the right so it covers no data; none for one run."""
    if len(runs) < 2:
        return
    labels = [run[0] for run in runs]
    kwargs = {"fontsize": 8, "loc": "upper left", "bbox_to_anchor": (1.01, 1.0), "borderaxespad": 0}
    if handles is not None:
        ax.legend(handles, labels, **kwargs)
    else:
        ax.legend(**kwargs)


def _integer_ticks(ax: Any, values: np.ndarray) -> None:
    """Ticks on whole numbers only, for whole-number data."""
    from matplotlib.ticker import MaxNLocator

    values = values[np.isfinite(values)]
    if values.size and np.all(values == np.round(values)):
        ax.xaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))


def plot_win_rates(runs: Sequence[Run]) -> str:
    """Win rate per player (the N-th --seats spec) with Wilson 95% error bars (one bar per run), against the fair share."""
    players = runs[0][1]["players"]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    width = 0.8 / len(runs)
    for i, (label, summary, _) in enumerate(runs):
        rates = np.array([s["win_rate"] for s in summary["seats"]])
        lo = rates - np.array([s["ci95"][0] for s in summary["seats"]])
        hi = np.array([s["ci95"][1] for s in summary["seats"]]) - rates
        x = np.arange(players) + (i - (len(runs) - 1) / 2) * width
        ax.bar(x, rates, width, yerr=[lo, hi], capsize=4, label=label, color=COLOURS[i % len(COLOURS)])
    ax.axhline(1 / players, color="#555", ls="--", lw=1, label="fair share")
    ax.set_xticks(range(players), [f"player {s['seat'] + 1}\n{s['agent']}" for s in runs[0][1]["seats"]])
    ax.set_ylabel("win rate")
    _legend(ax, runs)
    return _figure(fig, "Win rate per player (Wilson 95% intervals; dashed: fair share)")


def plot_scores(runs: Sequence[Run]) -> str:
    """Score distribution per player (the N-th --seats spec), box plots side by side for each run."""
    players = runs[0][1]["players"]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    width = 0.8 / len(runs)
    for i, (label, _, rows) in enumerate(runs):
        by_player = by_entrant(rows, "scores", players)
        data = [by_player[:, player] for player in range(players)]
        pos = np.arange(players) + (i - (len(runs) - 1) / 2) * width
        parts = ax.boxplot(data, positions=pos, widths=width * 0.9, patch_artist=True, showfliers=False)
        for box in parts["boxes"]:
            box.set_facecolor(COLOURS[i % len(COLOURS)])
            box.set_label(label)
    ax.set_xticks(range(players), [f"player {seat + 1}" for seat in range(players)])
    ax.set_ylabel("final score")
    handles = [plt.Rectangle((0, 0), 1, 1, color=COLOURS[i % len(COLOURS)]) for i in range(len(runs))]
    _legend(ax, runs, handles)
    return _figure(fig, "Score distribution per player")


def plot_lengths(runs: Sequence[Run]) -> str:
    """Histogram of game length in turns (overlaid for a comparison)."""
    fig, ax = plt.subplots(figsize=(7, 3))
    allturns = np.concatenate([column(rows, "turns") for _, _, rows in runs])
    bins = integer_bins(allturns)
    for i, (label, _, rows) in enumerate(runs):
        ax.hist(column(rows, "turns"), bins=bins, alpha=0.6, label=label, color=COLOURS[i % len(COLOURS)])
    _integer_ticks(ax, allturns)
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    _legend(ax, runs)
    return _figure(fig, "Game length (turns)")


def plot_figures(runs: Sequence[Run]) -> str:
    """One small histogram per card-level figure outside a family (families have their own chart), overlaid
    for a comparison; whole-number figures are binned on the integers."""
    every = sorted(set().union(*(figure_names(rows) for _, _, rows in runs)))
    grouped = {member for members in figure_families(every).values() for member in members}
    names = [name for name in every if name not in grouped
             and any(np.isfinite(column(rows, FIG + name)).any() for _, _, rows in runs)]
    cols = 3
    lines = max(1, math.ceil(len(names) / cols))
    fig, axes = plt.subplots(lines, cols, figsize=(9, 2.3 * lines), squeeze=False)
    for ax, name in zip(axes.flat, names):
        values = [column(rows, FIG + name) for _, _, rows in runs]
        joined = np.concatenate(values)
        joined = joined[~np.isnan(joined)]
        bins = integer_bins(joined)
        if not isinstance(bins, np.ndarray):
            bins = np.histogram_bin_edges(joined, bins=bins) if joined.size else 10
        for i, data in enumerate(values):
            ax.hist(data[~np.isnan(data)], bins=bins, alpha=0.6, color=COLOURS[i % len(COLOURS)], label=runs[i][0])
        ax.set_title(name.replace("_", " "), fontsize=9)
        ax.tick_params(labelsize=7)
        ax.locator_params(axis="y", nbins=4)
        _integer_ticks(ax, joined)
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    fig.subplots_adjust(hspace=0.6, wspace=0.3, left=0.06, right=0.98, top=1 - 0.4 / lines, bottom=0.3 / lines)
    return _figure(fig, "Card-level figures (per game; whole-number figures binned on the integers)", tight=False)


def figure_families(names: Sequence[str]) -> dict[str, list[str]]:
    """Figures named FAMILY.MEMBER grouped by family (`planted.Hydrangea`, `planted.Lily`...), 2+ members."""
    families: dict[str, list[str]] = {}
    for name in names:
        family, dot, _ = name.partition(".")
        if dot:
            families.setdefault(family, []).append(name)
    return {family: members for family, members in families.items() if len(members) >= 2}


def plot_families(runs: Sequence[Run]) -> str:
    """One bar chart per figure family: each member's mean with its 95% interval, runs side by side."""
    names = sorted(set().union(*(figure_names(rows) for _, _, rows in runs)))
    families = figure_families(names)
    fig, axes = plt.subplots(len(families), 1, figsize=(8, sum(0.9 + 0.28 * len(m) for m in families.values())),
                             squeeze=False)
    height = 0.8 / len(runs)
    for ax, (family, members) in zip(axes.flat, families.items()):
        for i, (label, summary, _) in enumerate(runs):
            stats = [summary["figures"].get(member) for member in members]
            means = np.array([s["mean"] if s else np.nan for s in stats])
            lo = np.array([s["mean"] - s["ci95"][0] if s else 0 for s in stats])
            hi = np.array([s["ci95"][1] - s["mean"] if s else 0 for s in stats])
            y = np.arange(len(members)) + (i - (len(runs) - 1) / 2) * height
            ax.barh(y, np.nan_to_num(means), height, xerr=[np.nan_to_num(lo), np.nan_to_num(hi)], capsize=2,
                    color=COLOURS[i % len(COLOURS)], label=label)
        ax.set_yticks(range(len(members)), [m.partition(".")[2] for m in members], fontsize=8)
        ax.invert_yaxis()
        ax.set_title(family, fontsize=9)
        ax.tick_params(axis="x", labelsize=7)
    _legend(axes.flat[0], runs)
    fig.tight_layout()
    return _figure(fig, "Card-level figures by family (mean per game, 95% intervals)")


def plot_differences(differences: dict[str, Any]) -> str:
    """Each figure's B − A difference as a % of A's mean, with its 95% interval; significant ones marked."""
    keys = [k for k, d in differences.items() if d["a"] and not math.isnan(d["a"]) and not math.isnan(d["diff"])]
    fig, ax = plt.subplots(figsize=(7.5, 0.32 * len(keys) + 1))
    for y, key in enumerate(keys):
        d = differences[key]
        scale = 100 / abs(d["a"])
        colour = "#a33" if d["significant"] else "#555"
        ax.errorbar(d["diff"] * scale, y, xerr=[[(d["diff"] - d["ci95"][0]) * scale], [(d["ci95"][1] - d["diff"]) * scale]],
                    fmt="o", color=colour, capsize=3)
    ax.axvline(0, color="#999", lw=1)
    ax.set_yticks(range(len(keys)), [figure_label(k) for k in keys], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("B − A, % of A (95% interval; red: significant)")
    return _figure(fig, "Differences B − A (figures whose A mean is 0 are in the table only)")


def plot_positions(runs: Sequence[Run]) -> str:
    """Win rate per turn position with Wilson 95% error bars against the fair share (runs side by side)."""
    fig, ax = plt.subplots(figsize=(7, 3.2))
    width = 0.8 / len(runs)
    players = max(len(summary.get("positions", [])) for _, summary, _ in runs)
    for i, (label, summary, _) in enumerate(runs):
        pos = summary.get("positions", [])
        rates = np.array([p["win_rate"] for p in pos])
        errors = [rates - np.array([p["ci95"][0] for p in pos]), np.array([p["ci95"][1] for p in pos]) - rates]
        x = np.arange(len(pos)) + (i - (len(runs) - 1) / 2) * width
        ax.bar(x, rates, width, yerr=errors, capsize=4, label=label, color=COLOURS[i % len(COLOURS)])
        if pos:
            ax.hlines(pos[0]["fair"], x.min() - width / 2, x.max() + width / 2, colors="#555", linestyles="--", lw=1)
    ax.set_xticks(range(players), [f"{p + 1}" for p in range(players)])
    ax.set_xlabel("turn position (1 = first to act)")
    ax.set_ylabel("win rate")
    _legend(ax, runs)
    return _figure(fig, "Win rate per turn position (Wilson 95% intervals; dashed: fair share)")


def plot_score_over_time(label: str, summary: dict[str, Any]) -> str:
    """Mean score after each round of turns, one line per turn position, and the final mean."""
    over = summary.get("score_over_time") or {}
    fig, ax = plt.subplots(figsize=(7, 3.2))
    rounds = over.get("rounds", [])
    for i, entry in enumerate(over.get("positions", [])):
        xs = list(rounds) + [len(rounds) + 1]
        ax.plot(xs, list(entry["mean"]) + [entry["end"]], marker="o", ms=3, label=f"position {entry['position']}")
    ax.set_xticks(list(rounds) + [len(rounds) + 1], [str(r) for r in rounds] + ["end"], fontsize=7)
    ax.locator_params(axis="x", nbins=12)
    ax.set_xlabel("round of turns")
    ax.set_ylabel("mean score")
    ax.legend(fontsize=8)
    return _figure(fig, f"Score over time by turn position — {label} (rounds while at least half the games last)")


def plot_lifts(label: str, summary: dict[str, Any]) -> str:
    """Win-rate lift of each card of the first measure with its 95% interval, largest on top."""
    measure, entries = next(iter(summary["cards"].items()))
    shown = sorted((e for e in entries if math.isfinite(e.get("lift", math.nan))), key=lambda e: e["lift"])
    fig, ax = plt.subplots(figsize=(7.5, 0.26 * len(shown) + 1.2))
    for y, entry in enumerate(shown):
        lo, hi = entry["ci95"]
        ax.errorbar(entry["lift"] * 100, y, xerr=[[(entry["lift"] - lo) * 100], [(hi - entry["lift"]) * 100]],
                    fmt="o", color=COLOURS[0], capsize=2)
    ax.axvline(0, color="#999", lw=1)
    ax.set_yticks(range(len(shown)), [e["card"] for e in shown], fontsize=7)
    ax.set_xlabel("win rate with − without, percentage points (95% interval)")
    fig.tight_layout()
    return _figure(fig, f"Win-rate lift of players who {measure} each card — {label}")


def plot_distributions(label: str, summary: dict[str, Any]) -> str:
    """Each sample's distribution (e.g. close lengths) as bars on its whole values."""
    dists = {name: counts for name, counts in (summary.get("distributions") or {}).items() if counts}
    fig, axes = plt.subplots(1, len(dists), figsize=(4 * len(dists), 2.8), squeeze=False)
    for ax, (name, counts) in zip(axes.flat, dists.items()):
        values = [float(v) for v in counts]
        ax.bar(values, list(counts.values()), width=0.8, color=COLOURS[0])
        ax.set_xticks(values, list(counts), fontsize=7)
        ax.set_title(name.replace("_", " "), fontsize=9)
        ax.set_ylabel("count", fontsize=8)
    fig.tight_layout()
    return _figure(fig, f"Distributions — {label}")


def plot_sweep(runs: Sequence[Run]) -> str:
    """A sweep: first-player win rate against its fair share, and mean turns, per player count."""
    counts = [summary["players"] for _, summary, _ in runs]
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3))
    rates = [summary["positions"][0]["win_rate"] if summary.get("positions") else math.nan for _, summary, _ in runs]
    lows = [summary["positions"][0]["ci95"][0] if summary.get("positions") else math.nan for _, summary, _ in runs]
    highs = [summary["positions"][0]["ci95"][1] if summary.get("positions") else math.nan for _, summary, _ in runs]
    left.errorbar(counts, rates, yerr=[np.subtract(rates, lows), np.subtract(highs, rates)], fmt="o-", capsize=3,
                  label="first player")
    left.plot(counts, [1 / c for c in counts], "k--", lw=1, label="fair share")
    left.set_xticks(counts)
    left.set_xlabel("players")
    left.set_ylabel("win rate")
    left.legend(fontsize=8)
    right.plot(counts, [summary["turns"]["mean"] for _, summary, _ in runs], "o-")
    right.set_xticks(counts)
    right.set_xlabel("players")
    right.set_ylabel("mean turns")
    fig.tight_layout()
    return _figure(fig, "Player counts compared: first-player win rate (95% intervals) and game length")


# ----- page -------------------------------------------------------------------------------------
def _warnings_html(summary: dict[str, Any]) -> str:
    return "".join(f'<p class=warn><b>Warning:</b> {html.escape(w)}</p>' for w in summary.get("warnings", []))


def _findings_html(summary: dict[str, Any]) -> str:
    found = summary.get("findings", [])
    if not found:
        return "<p>No findings: too few games or players to test anything.</p>"
    rows = []
    for rank, finding in enumerate(found, start=1):
        effect, ci = effect_text(finding)
        p = finding.get("p_adjusted")
        text = html.escape(finding["text"])
        rows.append([rank, f'<span class="{"sig" if finding.get("significant") else ""}">{text}</span>',
                     html.escape(finding["kind"]), effect, ci, "flag (not a test)" if p is None else p_text(p)])
    table = _table(["#", "finding", "kind", "effect", "95% interval", "p (corrected)"], rows).replace(
        "<table tabindex=0>", "<table tabindex=0 class=findings>", 1)
    return (table
            + f"<p class=meta>p-values corrected for all {len(found)} findings by "
              f"{html.escape(summary.get('correction', CORRECTION))} (false discovery rate); bold red: corrected "
              "p &lt; 0.05. Card lifts are associations: strong players also collect good cards.</p>")


def _bots_html(summary: dict[str, Any]) -> str:
    bots = summary.get("bots") or {}
    if not bots:
        return "<p>This game declares nothing about its agents: read the numbers as its bots' play.</p>"
    rows = [[html.escape(c), html.escape(o), players, games, percent(rate), interval(wilson(rate * games, games), True),
             percent(1 / players)]
            for c, o, players, games, rate in bots.get("ladder", [])]
    return (f"<p><b>What they decide:</b> {html.escape(bots['decisions'])}.</p>"
            f"<p><b>What they do not test:</b> {html.escape(bots['not_decided'])}.</p>"
            + (_table(["challenger", "opponent", "players", "games", "challenger wins", "95% interval", "fair share"],
                      rows)
               + "<p class=meta>Measured strength: `tablepress ladder`, the challenger in one seat (rotating) and the "
                 "opponent in every other; a shared victory counts 1/k; Wilson intervals. The runs behind each figure, "
                 "with their seeds: docs/strength.md.</p>"
               if rows else ""))


def _players_html(summary: dict[str, Any]) -> str:
    solo = summary["players"] == 1
    seat_rows = []
    for s in summary["seats"]:
        q = s["score"].get("quantiles", {})
        win = [] if solo else [count_text(s["wins"]), percent(s["win_rate"]), interval(s["ci95"], True)]
        seat_rows.append([s["seat"] + 1, html.escape(str(s["agent"])), *win, _fmt(s["mean_score"]),
                          _fmt(s["score"]["sd"]), _fmt(q.get("5", math.nan)), _fmt(q.get("50", math.nan)),
                          _fmt(q.get("95", math.nan))])
    win_heads = [] if solo else ["wins", "win rate", "95% interval"]
    rotated = summary.get("rotation", {}).get("cycle")
    note = (f"<p class=meta>Player N is the N-th --seats spec; the seats rotate by a "
            f"{html.escape(summary['rotation']['design'])} of {rotated} games.</p>") if rotated else ""
    out = note + _table(["player", "agent", *win_heads, "mean score", "sd", "5%", "median", "95%"], seat_rows)
    if not solo and summary.get("positions"):
        out += _table(["turn position", "wins", "win rate", "95% interval", "fair", "p"],
                      [[p["position"], count_text(p["wins"]), percent(p["win_rate"]), interval(p["ci95"], True),
                        percent(p["fair"]), p_text(p["p_value"])] for p in summary["positions"]])
    if not solo and len(summary.get("agents", [])) > 1:
        out += _table(["agent", "seats held", "win rate", "95% interval", "mean score"],
                      [[html.escape(a["agent"]), a["n"], percent(a["win_rate"]), interval(a["ci95"], True),
                        _fmt(a["mean_score"])] for a in summary["agents"]])
    return out


def _cards_html(summary: dict[str, Any]) -> str:
    parts = []
    for measure, entries in summary.get("cards", {}).items():
        ordered = sorted(entries, key=lambda e: -e["lift"] if math.isfinite(e.get("lift", math.nan)) else math.inf)
        rows = [[html.escape(e["card"]), _fmt(e["mean"]), percent(e["share"]),
                 "—" if not math.isfinite(e.get("lift", math.nan)) else f"{number(e['lift'] * 100)} pts",
                 interval([v * 100 for v in e.get("ci95", [math.nan, math.nan])]), p_text(e.get("p_value"))]
                for e in ordered]
        parts.append(f"<h4>Players who {html.escape(measure)} each card</h4>"
                     + _table(["card", "per player per game", "players with it", "win-rate lift", "95% interval (pts)",
                               "p"], rows))
    return "\n".join(parts)


def _shape_html(summary: dict[str, Any]) -> str:
    solo = summary["players"] == 1
    game_rows = [["turns", _fmt(summary["turns"]["mean"]), _ci(summary["turns"]["ci95"])],
                 ["decisions", _fmt(summary["decisions"]["mean"]), _ci(summary["decisions"]["ci95"])],
                 ["legal actions per decision", _fmt(summary["branching"]), ""]]
    if not solo:
        game_rows += [["margin of victory", _fmt(summary["margin"]["mean"]), _ci(summary["margin"]["ci95"])],
                      ["lead changes", _fmt(summary["lead_changes"]["mean"]), _ci(summary["lead_changes"]["ci95"])],
                      ["halfway leader wins (decisiveness)", percent(summary["decisiveness"]), ""],
                      ["shared victories", percent(summary["shared_victories"]), ""]]
    parts = [_table(["figure", "mean", "95% interval"], game_rows)]
    fig_rows = [[html.escape(name), _fmt(d["mean"]), _ci(d["ci95"]), _fmt(d["sd"])]
                for name, d in summary["figures"].items()]
    if fig_rows:
        parts.append(_table(["card-level figure (mean per game)", "mean", "95% interval", "sd"], fig_rows))
    return "\n".join(parts)


def _run_html(label: str, summary: dict[str, Any]) -> str:
    """One run's sections below the headline: players and positions, score over time, cards, samples, shape."""
    parts = [f"<h3>{html.escape(label)}</h3>", _players_html(summary)]
    if summary.get("score_over_time", {}).get("rounds"):
        parts.append(plot_score_over_time(label, summary))
    if summary.get("cards"):
        parts.append("<h4>Cards</h4>")
        if summary["players"] > 1 and any(math.isfinite(e.get("lift", math.nan))
                                          for e in next(iter(summary["cards"].values()))):
            parts.append(plot_lifts(label, summary))
        parts.append(_cards_html(summary))
        parts.append(_pairs_html(summary))
    if any(summary.get("distributions", {}).values()):
        parts.append(plot_distributions(label, summary))
    parts.append("<h4>Summary</h4>" + _shape_html(summary))
    return "\n".join(parts)


def _changes_html(changes: Sequence[dict[str, Any]]) -> str:
    def value(v: Any) -> str:
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return "—" if v is None else _fmt(v)

    def text(change: dict[str, Any]) -> str:
        return change.get("text") or f"{change['field']}: {value(change['old'])} → {value(change['new'])}"

    return _table(["change", "field"], [[html.escape(text(c)), html.escape(c["field"])] for c in changes])


def _differences_html(differences: dict[str, Any], labels: tuple[str, str]) -> str:
    rows = []
    for key, d in differences.items():
        mark = '<span class="sig">yes</span>' if d["significant"] else "no"
        rows.append([html.escape(figure_label(key)), _fmt(d["a"]), _fmt(d["b"]), _fmt(d["diff"]),
                     _ci(d["ci95"]), p_text(d.get("p_adjusted", d["p_value"])), mark])
    return (_table(["figure", f"A: {labels[0]}", f"B: {labels[1]}", "B − A", "95% interval", "p (corrected)",
                    "significant"], rows)
            + f"<p class=meta>Largest effect (|B − A| over the spread of the paired differences) first; p corrected "
              f"for all {len(differences)} figures by {CORRECTION}.</p>")


def _sweep_html(runs: Sequence[Run]) -> str:
    rows = [[html.escape(name), *[html.escape(c) for c in cells]] for name, cells in sweep_rows([s for _, s, _ in runs])]
    return plot_sweep(runs) + _table(["figure", *[label for label, _, _ in runs]], rows)


def _quality_html(quality: dict[str, Any]) -> str:
    """The verdict on the game: the headline, then each quality measure's values, differences and verdict."""
    labels = quality["labels"]
    heads = ["measure", "better", *labels]
    for label in labels[1:]:
        heads += [f"{label} − {labels[0]}" if len(labels) > 2 else "B − A", "95% interval", "p (corrected)"]
    heads.append("verdict")
    rows = []
    for m in quality["measures"]:
        rate = m.get("unit") == "rate"
        cells = [f"{percent(v['value']) if rate else _fmt(v['value'])}<br><span class=meta>"
                 f"{interval(v['ci95'], rate)}</span>" for v in m["values"]]
        for pair in m["pairs"]:
            scale = 100 if rate else 1
            cells += [f"{_fmt(pair['diff'] * scale)}{' pts' if rate else ''}",
                      interval([v * scale for v in pair["ci95"]]), p_text(pair["p_adjusted"])]
        verdict_cell = f'<span class="sig">{html.escape(m["text"])}</span>' if m.get("best") else html.escape(m["text"])
        rows.append([html.escape(m["label"]), html.escape(m["better_text"]), *cells, verdict_cell])
    skill = quality.get("skill_seats")
    note = (f"<p class=meta>Each variant against {html.escape(labels[0])} on the same seeds; "
            f"{html.escape(quality['method'])}; p corrected for all {quality['tests']} comparisons by "
            f"{html.escape(quality['correction'])}. A first-player gap is compared by its distance to the fair "
            "share."
            + (f" The skill gap played extra games: {html.escape(skill)} rotated over the seats, on the run's seeds, "
               "for each variant." if skill else "") + "</p>")
    return (f"<p class=verdict>Verdict on the game: {html.escape(quality['headline'])}</p>"
            + _table(heads, rows).replace("<table tabindex=0>", "<table tabindex=0 class=quality>", 1) + note)


def _provenance_html(provenance: dict[str, Any] | None) -> str:
    """Where the numbers come from, as the report's small print under the title."""
    from .provenance import provenance_lines

    if not provenance:
        return ""
    lines = "".join(f"<li>{html.escape(line)}</li>" for line in provenance_lines(provenance))
    seeds = provenance.get("game_seeds") or {}
    listed = ", ".join(str(seed) for seed in seeds.get("seeds", [])[:50])
    more = "" if len(seeds.get("seeds", [])) <= 50 else " … (all in --json)"
    return (f"<details class=meta><summary>Provenance: tablepress {html.escape(str(provenance.get('tablepress')))}, "
            f"{provenance.get('seconds')} s on {html.escape(str((provenance.get('machine') or {}).get('cores')))} cores"
            f"</summary><ul>{lines}<li>game seeds: {listed}{more}</li></ul></details>")


def _left_out_html(summary: dict[str, Any]) -> str:
    if not summary.get("left_out"):
        return ""
    return (f"<p class=warn><b>Not in play at {summary['players']} players:</b> "
            f"{html.escape(', '.join(summary['left_out']))}</p>")


def _pairs_html(summary: dict[str, Any]) -> str:
    """The strongest card pairs: seats with both win more or less than each card alone predicts."""
    found = summary.get("pairs") or {}
    if not found.get("tested"):
        return ""
    rows = [[html.escape(f"{p['measure']} {p['cards'][0]} + {p['cards'][1]}"), p["support"], percent(p["win_both"]),
             percent(p["expected"]), f"{_fmt(p['lift'] * 100)} pts",
             interval([v * 100 for v in p["ci95"]]), p_text(p["p_adjusted"])] for p in found.get("pairs", [])]
    note = (f"<p class=meta>{found['tested']} pairs with at least {found['min_support']} players in each group "
            f"(both, either alone, neither) tested; p corrected for all of them by {html.escape(found['correction'])}; "
            "expected = win share with the first alone + with the second alone − with neither.</p>")
    if not rows:
        return "<h4>Card pairs</h4><p>No pair of cards wins together beyond chance.</p>" + note
    return ("<h4>Card pairs that win together (strongest first)</h4>"
            + _table(["pair", "players with both", "win share with both", "expected from each alone", "lift",
                      "95% interval (pts)", "p (corrected)"], rows) + note)


def write_report(path: str | Path, runs: Sequence[Run], differences: dict[str, Any] | None = None,
                 provenance: dict[str, Any] | None = None, quality: dict[str, Any] | None = None,
                 extra_html: str = "") -> None:
    """Write the report page for one run, two or more runs and their differences, or a sweep over player counts
    (`extra_html`: a section placed after the verdict, such as a sensitivity plot)."""
    page = report_html(runs, differences, provenance, quality, extra_html)
    try:
        Path(path).write_text(page, encoding="utf-8")
    except OSError as exc:
        raise TablepressError(f"{path}: cannot write the report ({exc.strerror})") from None


def report_html(runs: Sequence[Run], differences: dict[str, Any] | None = None,
                provenance: dict[str, Any] | None = None, quality: dict[str, Any] | None = None,
                extra_html: str = "") -> str:
    """The report page (one self-contained HTML document, plots inline) for one run, two or more runs and their
    differences, or runs at several player counts (a sweep); the verdict on the game's quality measures
    (`quality`) comes before any other number, the provenance under the title."""
    first = runs[0][1]
    sweep = len({summary["players"] for _, summary, _ in runs}) > 1
    players = ", ".join(str(summary["players"]) for _, summary, _ in runs) if sweep else str(first["players"])
    title = f"{first['game']} — {first['games']} games, {players} players"
    if len(runs) == 1 and first.get("variant"):
        title += f", variant {first['variant']}"
    specs = ", ".join(str(s["agent"]) for s in first["seats"])
    body = [f"<h1>Balance report: {html.escape(title)}</h1>",
            f"<p class=meta>seed {first.get('seed')}; seats {html.escape(specs)}"
            + ("; the runs share their seeds (common random numbers)" if len(runs) > 1 else "") + "</p>",
            _provenance_html(provenance)]
    if quality is not None:
        body += ["<h2>Verdict on the game</h2>", _quality_html(quality)]
    body.append(extra_html)
    for label, summary, _ in runs[: 1 if not sweep else len(runs)]:
        body.append(_warnings_html(summary) + _left_out_html(summary))
    if differences is not None:
        changes = runs[-1][1].get("changes") or []
        last = runs[-1][0]
        body += [f"<p class=verdict>{html.escape(verdict(differences, last, runs[0][0]))}</p>",
                 f"<h2>What {'the variant changes' if len(runs) == 2 else html.escape(last) + ' changes'}</h2>",
                 _changes_html(changes) if changes else "<p>B plays the published cards.</p>",
                 "<h2>Differences, largest first</h2>", plot_differences(differences),
                 _differences_html(differences, (runs[0][0], last))]
    if sweep:
        body += ["<h2>Player counts compared</h2>", _sweep_html(runs)]
    for label, summary, _ in runs:
        heading = "Findings, most important first" + (f" — {label}" if len(runs) > 1 else "")
        body += [f"<h2>{html.escape(heading)}</h2>", _findings_html(summary)]
    body += ["<h2>How far to trust the bots</h2>", _bots_html(first)]
    body.append("<h2>Details</h2>")
    body += [_run_html(label, summary) for label, summary, _ in runs]
    body.append("<h2>Plots</h2>")
    if first["players"] > 1 and not sweep:
        body += [plot_win_rates(runs), plot_positions(runs)]
    if not sweep:
        body.append(plot_scores(runs))
    body.append(plot_lengths(runs))
    names = sorted(set().union(*(figure_names(rows) for _, _, rows in runs)))
    families = figure_families(names)
    if families:
        body.append(plot_families(runs))
    if set(names) - {member for members in families.values() for member in members}:
        body.append(plot_figures(runs))
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8><meta name=viewport content='width=device-width, initial-scale=1'><title>{html.escape(title)}</title>"
            f"<style>{CSS}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")

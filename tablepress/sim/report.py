"""The HTML balance report: one self-contained page (no external files) with tables and matplotlib plots
embedded as PNG — win rates with error bars, score distributions, game length, card-level figures and,
for a comparison, side-by-side runs and each figure's difference with its interval.
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
from .stats import FIG, column, count_text, figure_label, figure_names  # noqa: E402

Run = tuple[str, dict[str, Any], Sequence[dict[str, Any]]]  # label, summary, rows
COLOURS = ("#3b6ea5", "#d1793b")

CSS = """
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
h1{margin-bottom:.2em} h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
table{border-collapse:collapse;margin:.6em 0} td,th{border:1px solid #ddd;padding:.25em .6em;text-align:right}
th{background:#f4f4f4} td:first-child,th:first-child{text-align:left}
.sig{font-weight:bold;color:#a33} .meta{color:#666} figure{margin:1em 0} img{max-width:100%}
"""


def _png(fig: Any, tight: bool = True) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight" if tight else None)
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode()


def _figure(fig: Any, title: str, tight: bool = True) -> str:
    return (f'<figure><img alt="{html.escape(title)}" title="{html.escape(title)}" '
            f'src="data:image/png;base64,{_png(fig, tight)}"><figcaption>{html.escape(title)}</figcaption></figure>')


def _fmt(value: Any, digits: int = 3) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "—"
        return f"{value:.{digits}g}" if abs(value) < 1000 else f"{value:,.0f}"
    return html.escape(str(value))


def _ci(pair: Sequence[float]) -> str:
    return f"[{_fmt(pair[0])}, {_fmt(pair[1])}]"


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


# ----- plots ------------------------------------------------------------------------------------
def plot_win_rates(runs: Sequence[Run]) -> str:
    """Win rate per seat with Wilson 95% error bars (one bar per run), against the fair share."""
    players = runs[0][1]["players"]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    width = 0.8 / len(runs)
    for i, (label, summary, _) in enumerate(runs):
        rates = np.array([s["win_rate"] for s in summary["seats"]])
        lo = rates - np.array([s["ci95"][0] for s in summary["seats"]])
        hi = np.array([s["ci95"][1] for s in summary["seats"]]) - rates
        x = np.arange(players) + (i - (len(runs) - 1) / 2) * width
        ax.bar(x, rates, width, yerr=[lo, hi], capsize=4, label=label, color=COLOURS[i % 2])
    ax.axhline(1 / players, color="#555", ls="--", lw=1, label="fair share")
    ax.set_xticks(range(players), [f"seat {s['seat'] + 1}\n{s['agent']}" for s in runs[0][1]["seats"]])
    ax.set_ylabel("win rate")
    ax.legend(fontsize=8)
    return _figure(fig, "Win rate per seat (Wilson 95% intervals)")


def plot_scores(runs: Sequence[Run]) -> str:
    """Score distribution per seat, box plots side by side for each run."""
    players = runs[0][1]["players"]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    width = 0.8 / len(runs)
    for i, (label, _, rows) in enumerate(runs):
        data = [[row["scores"][seat] for row in rows] for seat in range(players)]
        pos = np.arange(players) + (i - (len(runs) - 1) / 2) * width
        parts = ax.boxplot(data, positions=pos, widths=width * 0.9, patch_artist=True, showfliers=False)
        for box in parts["boxes"]:
            box.set_facecolor(COLOURS[i % 2])
            box.set_label(label)
    ax.set_xticks(range(players), [f"seat {seat + 1}" for seat in range(players)])
    ax.set_ylabel("final score")
    handles = [plt.Rectangle((0, 0), 1, 1, color=COLOURS[i % 2]) for i in range(len(runs))]
    ax.legend(handles, [run[0] for run in runs], fontsize=8)
    return _figure(fig, "Score distribution per seat")


def plot_lengths(runs: Sequence[Run]) -> str:
    """Histogram of game length in turns (overlaid for a comparison)."""
    fig, ax = plt.subplots(figsize=(7, 3))
    allturns = np.concatenate([column(rows, "turns") for _, _, rows in runs])
    bins = np.arange(allturns.min(), allturns.max() + 2) - 0.5 if np.ptp(allturns) < 60 else 30
    for i, (label, _, rows) in enumerate(runs):
        ax.hist(column(rows, "turns"), bins=bins, alpha=0.6, label=label, color=COLOURS[i % 2])
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    ax.legend(fontsize=8)
    return _figure(fig, "Game length (turns)")


def plot_figures(runs: Sequence[Run]) -> str:
    """One small histogram per card-level figure (overlaid for a comparison)."""
    names = [name for name in sorted(set().union(*(figure_names(rows) for _, _, rows in runs)))
             if any(np.isfinite(column(rows, FIG + name)).any() for _, _, rows in runs)]
    cols = 3
    lines = math.ceil(len(names) / cols)
    fig, axes = plt.subplots(lines, cols, figsize=(9, 2.3 * lines), squeeze=False)
    for ax, name in zip(axes.flat, names):
        values = [column(rows, FIG + name) for _, _, rows in runs]
        joined = np.concatenate(values)
        joined = joined[~np.isnan(joined)]
        bins = np.histogram_bin_edges(joined, bins=min(20, max(1, len(np.unique(joined))))) if joined.size else 10
        for i, data in enumerate(values):
            ax.hist(data[~np.isnan(data)], bins=bins, alpha=0.6, color=COLOURS[i % 2], label=runs[i][0])
        ax.set_title(name.replace("_", " "), fontsize=9)
        ax.tick_params(labelsize=7)
        ax.locator_params(nbins=4)
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    fig.subplots_adjust(hspace=0.55, wspace=0.25, left=0.05, right=0.98, top=1 - 0.35 / lines, bottom=0.25 / lines)
    return _figure(fig, "Card-level figures (per game)", tight=False)


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
                    color=COLOURS[i % 2], label=label)
        ax.set_yticks(range(len(members)), [m.partition(".")[2] for m in members], fontsize=8)
        ax.invert_yaxis()
        ax.set_title(family, fontsize=9)
        ax.tick_params(axis="x", labelsize=7)
    axes.flat[0].legend(fontsize=7)
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


# ----- page -------------------------------------------------------------------------------------
def _summary_html(label: str, summary: dict[str, Any]) -> str:
    solo = summary["players"] == 1
    parts = [f"<h3>{html.escape(label)}</h3>"]
    seat_rows = []
    for s in summary["seats"]:
        q = s["score"].get("quantiles", {})
        win = [] if solo else [count_text(s["wins"]), _fmt(s["win_rate"]), _ci(s["ci95"])]
        seat_rows.append([s["seat"] + 1, html.escape(str(s["agent"])), *win, _fmt(s["mean_score"]),
                          _fmt(s["score"]["sd"]), _fmt(q.get("5", math.nan)), _fmt(q.get("50", math.nan)),
                          _fmt(q.get("95", math.nan))])
    win_heads = [] if solo else ["wins", "win rate", "95% interval"]
    parts.append(_table(["seat", "agent", *win_heads, "mean score", "sd", "5%", "median", "95%"], seat_rows))
    game_rows = [["turns", _fmt(summary["turns"]["mean"]), _ci(summary["turns"]["ci95"])],
                 ["decisions", _fmt(summary["decisions"]["mean"]), _ci(summary["decisions"]["ci95"])],
                 ["legal actions per decision", _fmt(summary["branching"]), ""]]
    if not solo:
        fp = summary["first_player"]
        game_rows += [["first player win rate", _fmt(fp["win_rate"]), _ci(fp["ci95"])],
                      ["first player advantage (p)", _fmt(fp["advantage"]), f"p = {_fmt(fp['p_value'])}"],
                      ["margin of victory", _fmt(summary["margin"]["mean"]), _ci(summary["margin"]["ci95"])],
                      ["lead changes", _fmt(summary["lead_changes"]["mean"]), _ci(summary["lead_changes"]["ci95"])],
                      ["halfway leader wins (decisiveness)", _fmt(summary["decisiveness"]), ""],
                      ["shared victories", _fmt(summary["shared_victories"]), ""]]
    parts.append(_table(["figure", "mean", "95% interval"], game_rows))
    fig_rows = [[html.escape(name), _fmt(d["mean"]), _ci(d["ci95"]), _fmt(d["sd"])]
                for name, d in summary["figures"].items()]
    if fig_rows:
        parts.append(_table(["card-level figure (mean per game)", "mean", "95% interval", "sd"], fig_rows))
    return "\n".join(parts)


def _differences_html(differences: dict[str, Any], labels: tuple[str, str]) -> str:
    rows = []
    for key, d in differences.items():
        mark = '<span class="sig">yes</span>' if d["significant"] else "no"
        rows.append([html.escape(figure_label(key)), _fmt(d["a"]), _fmt(d["b"]), _fmt(d["diff"]),
                     _ci(d["ci95"]), _fmt(d["p_value"]), mark])
    return _table(["figure", f"A: {labels[0]}", f"B: {labels[1]}", "B − A", "95% interval", "p", "significant"], rows)


def write_report(path: str | Path, runs: Sequence[Run], differences: dict[str, Any] | None = None) -> None:
    """Write the report page for one run, or two runs and their differences."""
    page = report_html(runs, differences)
    try:
        Path(path).write_text(page, encoding="utf-8")
    except OSError as exc:
        raise TablepressError(f"{path}: cannot write the report ({exc.strerror})") from None


def report_html(runs: Sequence[Run], differences: dict[str, Any] | None = None) -> str:
    """The report page (one self-contained HTML document, plots inline) for one run, or two and their differences."""
    first = runs[0][1]
    title = f"{first['game']} — {first['games']} games, {first['players']} players"
    if len(runs) == 1 and first.get("variant"):
        title += f", variant {first['variant']}"
    body = [f"<h1>Balance report: {html.escape(title)}</h1>",
            f"<p class=meta>seed {first.get('seed')}; seats {html.escape(', '.join(str(s['agent']) for s in first['seats']))}"
            + ("; the two runs share their seeds (common random numbers)" if differences else "") + "</p>"]
    if differences is not None:
        body += ["<h2>Differences</h2>", plot_differences(differences),
                 _differences_html(differences, (runs[0][0], runs[1][0]))]
    body.append("<h2>Summary</h2>")
    body += [_summary_html(label, summary) for label, summary, _ in runs]
    body.append("<h2>Plots</h2>")
    if first["players"] > 1:
        body.append(plot_win_rates(runs))
    body += [plot_scores(runs), plot_lengths(runs)]
    names = sorted(set().union(*(figure_names(rows) for _, _, rows in runs)))
    if figure_families(names):
        body.append(plot_families(runs))
    if names:
        body.append(plot_figures(runs))
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{html.escape(title)}</title>"
            f"<style>{CSS}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")

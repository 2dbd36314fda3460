"""The one number format of simulate's output: terminal tables, the HTML report and `--json` alike.

A whole number prints whole (`103`); anything else keeps three significant digits (`5.83`, `0.472`,
`6.03e-7`), but never more than one decimal from 100 up (`103.7`, `1234.5`). `--json` rounds by the same
rule to `JSON_DIGITS` significant digits (`103.6667`, never `103.66666666666667`), enough that wins still
add up to the games played and a win rate still equals wins / games to a millionth.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any


#: Significant digits people read (terminal, report), and that --json keeps.
TEXT_DIGITS = 3
JSON_DIGITS = 7


def rounded(value: float, digits: int = TEXT_DIGITS) -> float | int:
    """A number rounded by the one rule to `digits` significant digits (a float stays a float); NaN and
    infinities are kept."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    if isinstance(value, int):
        return value
    if not math.isfinite(value):
        return value
    if value.is_integer():
        return value
    if abs(value) >= 100 and digits == TEXT_DIGITS:
        return round(value, 1)
    return float(f"{value:.{digits}g}")


def number(value: Any) -> str:
    """A number as text by the one rule; `—` for a missing one (None, NaN)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if isinstance(value, float) and math.isinf(value):
        return "∞" if value > 0 else "−∞"
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return str(value)
    shown = rounded(value)
    if abs(shown) < 1e-9:
        return "0"
    if float(shown).is_integer() and abs(shown) < 1e15:
        shown = int(shown)
        return f"{shown:,}" if abs(shown) >= 10_000 else str(shown)
    if abs(shown) >= 100:
        return f"{shown:,.1f}" if abs(shown) >= 10_000 else f"{shown:.1f}"
    text = f"{shown:.3g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return f"{mantissa}e{int(exponent)}"
    return text


def percent(value: Any) -> str:
    """A rate as a percentage with one decimal (`47.2%`); `—` for a missing one."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{value * 100:.1f}%"


def interval(pair: Sequence[float] | None, as_percent: bool = False) -> str:
    """A 95% interval as `[lo, hi]`, or `41.6–52.9%` for rates."""
    if not pair:
        return "—"
    if as_percent:
        return f"{pair[0] * 100:.1f}–{pair[1] * 100:.1f}%"
    return f"[{number(pair[0])}, {number(pair[1])}]"


def p_text(p: Any) -> str:
    """A p-value: `p < 0.001` for tiny ones, else by the one rule."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "—"
    return "p < 0.001" if p < 0.001 else f"p = {number(p)}"


def rounded_tree(value: Any) -> Any:
    """JSON-ready: every float rounded by the one rule to JSON_DIGITS, NaN and infinities null, tuples lists."""
    if isinstance(value, float):
        return rounded(value, JSON_DIGITS) if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {k: rounded_tree(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [rounded_tree(v) for v in value]
    return value

"""Many tests at once: the false discovery rate correction (Benjamini–Hochberg) every list of p-values in a run
goes through — findings, card pairs, figure differences, quality verdicts — and the level it is read at."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy import stats as sps

CORRECTION = "Benjamini–Hochberg"
#: A corrected p below this is significant.
ALPHA = 0.05


def adjust(p_values: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (scipy's `false_discovery_control`); NaN stays NaN."""
    values = np.asarray(p_values, dtype=float)
    out = np.full(values.shape, math.nan)
    known = ~np.isnan(values)
    if known.any():
        out[known] = sps.false_discovery_control(np.clip(values[known], 0.0, 1.0), method="bh")
    return [float(v) for v in out]

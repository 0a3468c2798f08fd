"""Arena statistics: bootstrap over deal pairs, Wilson intervals, a sequential test (SPRT) and
percentiles. Pure functions of the outcomes; resampling uses its own seeded generator."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def bootstrap_ci(values: Sequence[float], seed: int | str = 0, rounds: int = 2000, level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean. ``values`` are per deal pair, so the two halves of
    a duplicate pair (which share their cards) are resampled together."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    rng = random.Random(f"bootstrap:{seed}")
    means = []
    for _ in range(rounds):
        means.append(sum(values[rng.randrange(n)] for _ in range(n)) / n)
    means.sort()
    lo = means[int((1 - level) / 2 * rounds)]
    hi = means[min(rounds - 1, int((1 + level) / 2 * rounds))]
    return (lo, hi)


def wilson_ci(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (whole matches are independent trials)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(xs: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0…100)."""
    if not xs:
        return 0.0
    s = sorted(xs)
    k = max(0, min(len(s) - 1, math.ceil(q / 100 * len(s)) - 1))
    return s[k]


@dataclass(frozen=True)
class SprtResult:
    llr: float
    lower: float
    upper: float
    decision: str  # "H1" (A is better by at least the margin), "H0" (no better), "continue"


def sprt(pair_scores: Sequence[float], p0: float = 0.5, p1: float = 0.55, alpha: float = 0.05,
         beta: float = 0.05) -> SprtResult:
    """Generalised SPRT on the per-pair score (A's deal-win share of the pair: 0, ½ or 1), with the
    normal approximation used by engine-testing frameworks: LLR = n·(p1−p0)·(2x̄−p0−p1) / (2σ²)."""
    if not 0 < alpha < 1 or not 0 < beta < 1 or not p0 < p1:
        raise ValueError("sprt needs 0 < alpha, beta < 1 and p0 < p1")
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    n = len(pair_scores)
    if n < 2:
        return SprtResult(0.0, lower, upper, "continue")
    m = mean(pair_scores)
    var = sum((x - m) ** 2 for x in pair_scores) / (n - 1)
    var = max(var, 1e-6)
    llr = n * (p1 - p0) * (2 * m - p0 - p1) / (2 * var)
    decision = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
    return SprtResult(llr, lower, upper, decision)


__all__ = ["SprtResult", "bootstrap_ci", "mean", "percentile", "sprt", "wilson_ci"]

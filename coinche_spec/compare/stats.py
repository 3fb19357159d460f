"""95 % intervals: Wilson's for a rate, the normal approximation for a mean.

Wilson's interval keeps inside [0, 1] and stays honest for rates near 0 or 1
(sweeps, coinches), where the textbook p ± 1.96·√(p(1-p)/n) does not. A mean
over thousands of independent deals (or matches) is close to normal by the
central limit theorem, so mean ± 1.96·s/√n is used; the largest swing is a
maximum and has no interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    value: float | None
    low: float | None
    high: float | None
    n: int
    method: str                    # "wilson", "normal" or "none"

    def to_json(self) -> dict:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n, "interval": self.method}


def rate(hits: int, n: int) -> Estimate:
    """A proportion with its Wilson score interval."""
    if n == 0:
        return Estimate(None, None, None, 0, "wilson")
    p = hits / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n, "wilson")


def mean(values) -> Estimate:
    """A mean with its normal-approximation interval (sample standard deviation).

    Whole numbers (scores, swings, match lengths) are summed exactly, so the figure does not
    depend on the order of the values or on who adds them up (Python or numpy, ``mean_of``)."""
    values = list(values)
    if all(type(v) is int for v in values):
        return mean_of(len(values), sum(values), sum(v * v for v in values))
    n = len(values)
    if n == 0:
        return Estimate(None, None, None, 0, "normal")
    m = sum(values) / n
    if n == 1:
        return Estimate(m, None, None, 1, "normal")
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return Estimate(m, m - half, m + half, n, "normal")


def mean_of(n: int, total: int, squares: int) -> Estimate:
    """``mean`` of n whole numbers given their sum and the sum of their squares (exact until the
    last division: s^2 = (n * squares - total^2) / (n (n - 1)))."""
    if n == 0:
        return Estimate(None, None, None, 0, "normal")
    m = total / n
    if n == 1:
        return Estimate(m, None, None, 1, "normal")
    var = (n * squares - total * total) / (n * (n - 1))
    half = Z95 * math.sqrt(var / n)
    return Estimate(m, m - half, m + half, n, "normal")


def largest(values) -> Estimate:
    values = list(values)
    return Estimate(max(values) if values else None, None, None, len(values), "none")

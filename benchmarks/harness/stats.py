"""Percentiles, the two ways the benchmarks have always taken them (kept apart so that a
figure compares with the runs before it)."""

from __future__ import annotations

from collections.abc import Iterable


def percentile(values: Iterable[float], fraction: float) -> float:
    """The value at rank ``round(fraction * (n - 1))`` of the sorted values: the first at
    0, the last at 1 (latency and speech figures); 0 for none."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]


def share_percentile(values: Iterable[float], share: float) -> float:
    """The value with ``int(share * n)`` values below it (the page and hall figures);
    NaN for none."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

"""`guandan bench review`: how accurate each bot tier is by the review's measure, and how fast a review is.

Seeded one-deal matches are played by a rotation of tiers over the seats (deal ``k`` gives seat ``s``
the tier ``tiers[(k + s) % len(tiers)]``), every seat of every deal is reviewed, and each tier's
accuracy (the mean over its seat-deals of the seat's accuracy in that deal) is printed with a
bootstrap 95% confidence interval over those seat-deals, with the review's seconds per decision.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..agents import make_agent
from ..agents.runner import run_match
from ..core.match import MatchConfig, new_match
from ..core.record import to_dict
from ..core.rules import preset
from .engine import Settings
from .report import review_record
from .verdict import LABELS, accuracy

DEFAULT_TIERS = ("random", "heuristic", "search:max_worlds=64")


def bootstrap_ci(values: Sequence[float], seed: int = 0, resamples: int = 2000,
                 level: float = 0.95) -> tuple[float, float]:
    """A percentile bootstrap interval for the mean of ``values``."""
    if not values:
        return (float("nan"), float("nan"))
    rng = random.Random(seed)
    n = len(values)
    means = sorted(statistics.fmean(rng.choices(values, k=n)) for _ in range(resamples))
    lo = means[int((1 - level) / 2 * resamples)]
    hi = means[min(resamples - 1, int((1 + level) / 2 * resamples))]
    return lo, hi


def play_deal(tiers: Sequence[str], k: int, seed: int, preset_name: str = "competition") -> tuple[dict[str, Any], list[str]]:
    """The record of bench deal ``k`` and the tier of each seat."""
    seats = [tiers[(k + s) % len(tiers)] for s in range(4)]
    rules = preset(preset_name)
    m = new_match(rules, f"bench-review:{seed}:{k}", MatchConfig(max_deals=1))
    agents = [make_agent(t, f"{seed}:{k}:{s}") for s, t in enumerate(seats)]
    run_match(m, agents)
    return to_dict(m, seats), seats


def review_figures(deals: int = 100, tiers: Sequence[str] = DEFAULT_TIERS, budget: float = 0.25, seed: int = 1,
                   jobs: int = 1, preset_name: str = "competition",
                   progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    settings = Settings(budget=budget, seed=seed)
    per_tier: dict[str, list[float]] = {t: [] for t in tiers}
    labels: dict[str, dict[str, int]] = {t: {lab.value: 0 for lab in LABELS} for t in tiers}
    losses: dict[str, list[float]] = {t: [] for t in tiers}
    decisions = 0
    review_s = 0.0
    play_s = 0.0
    for k in range(deals):
        t0 = time.perf_counter()
        data, seats = play_deal(tiers, k, seed, preset_name)
        t1 = time.perf_counter()
        review = review_record(data, range(4), None, settings, jobs)
        review_s += time.perf_counter() - t1
        play_s += t1 - t0
        for s in review.seats:
            tier = seats[s.seat]
            acc = accuracy([d.loss for d in s.decisions])
            if acc is not None:
                per_tier[tier].append(acc)
            for d in s.decisions:
                labels[tier][d.label.value] += 1
                losses[tier].append(d.loss)
            decisions += len(s.decisions)
        if progress:
            progress(k + 1, deals)
    out: dict[str, Any] = {"deals": deals, "tiers": list(tiers), "budget": budget, "worlds": settings.worlds,
                           "seed": seed, "jobs": jobs, "preset": preset_name}
    for t in tiers:
        vals = per_tier[t]
        lo, hi = bootstrap_ci(vals, seed)
        out[t] = {"accuracy": statistics.fmean(vals) if vals else None, "ci95": [lo, hi], "seat_deals": len(vals),
                  "mean_loss": statistics.fmean(losses[t]) if losses[t] else None, "labels": labels[t]}
    out["decisions"] = decisions
    out["review_seconds"] = review_s
    out["seconds_per_decision"] = review_s / decisions if decisions else None
    out["play_seconds"] = play_s
    return out


__all__ = ["DEFAULT_TIERS", "bootstrap_ci", "play_deal", "review_figures"]

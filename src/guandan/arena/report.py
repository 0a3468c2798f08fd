"""Summaries of arena runs: the numbers the README reports, as a dict and as a table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cliutil import cell
from .runner import MatchResult, PairResult
from .stats import bootstrap_ci, mean, percentile, sprt, wilson_ci


def summarize_pairs(pairs: Sequence[PairResult], seed: int | str = 0) -> dict[str, Any]:
    scores = [p.a_score for p in pairs]
    points = [p.a_points for p in pairs]
    doubles = [sum(h.double for h in p.halves) / len(p.halves) for p in pairs]
    a_times = [t for p in pairs for t in p.a_times]
    b_times = [t for p in pairs for t in p.b_times]
    deals = sum(len(p.halves) for p in pairs)
    lo, hi = bootstrap_ci(scores, seed)
    plo, phi = bootstrap_ci(points, f"{seed}:points")
    return {
        "deal_pairs": len(pairs),
        "deals": deals,
        "a_deal_win_rate": mean(scores),
        "a_deal_win_ci95": [lo, hi],
        "a_points_per_deal": mean(points),
        "a_points_ci95": [plo, phi],
        "a_double_win_rate": mean(doubles),
        "illegal_actions": sum(p.illegal_a + p.illegal_b for p in pairs),
        "illegal_a": sum(p.illegal_a for p in pairs),
        "illegal_b": sum(p.illegal_b for p in pairs),
        "a_decision_ms_p50": 1000 * percentile(a_times, 50),
        "a_decision_ms_p95": 1000 * percentile(a_times, 95),
        "a_decision_ms_mean": 1000 * mean(a_times),  # what a deal costs: settled choices stop early
        "b_decision_ms_p50": 1000 * percentile(b_times, 50),
        "b_decision_ms_p95": 1000 * percentile(b_times, 95),
        "b_decision_ms_mean": 1000 * mean(b_times),
        "cpu_seconds_per_deal": sum(p.cpu_seconds for p in pairs) / deals if deals else 0.0,
        **_bot_failures(pairs),
    }


def _bot_failures(results: Sequence[PairResult] | Sequence[MatchResult]) -> dict[str, Any]:
    """External (2020-protocol) bots' crashes, timeouts, invalid replies and fallbacks, per side."""
    out: dict[str, Any] = {}
    for side in ("a", "b"):
        total: dict[str, int] = {}
        for r in results:
            for k, v in getattr(r, f"bot_failures_{side}").items():
                total[k] = total.get(k, 0) + v
        if total:
            out[f"{side}_bot_failures"] = total
    return out


def summarize_sprt(pairs: Sequence[PairResult], p0: float, p1: float, alpha: float, beta: float,
                   seed: int | str = 0) -> dict[str, Any]:
    out = summarize_pairs(pairs, seed)
    r = sprt([p.a_score for p in pairs], p0, p1, alpha, beta)
    out.update({"sprt_llr": r.llr, "sprt_bounds": [r.lower, r.upper], "sprt_decision": r.decision,
                "sprt_p0": p0, "sprt_p1": p1})
    return out


def compare_pairs(first: dict[int, PairResult], second: dict[int, PairResult], seed: int | str = 0) -> dict[str, Any]:
    """Two agents measured on the same deal pairs against the same opponent, deal pair by deal pair:
    each rate over the pairs both runs hold, and the paired difference (first − second) with a
    bootstrap interval over those pairs, far narrower than the two runs' own intervals side by side
    since each deal's luck cancels out."""
    common = sorted(set(first) & set(second))
    a = [first[i] for i in common]
    b = [second[i] for i in common]
    win_diff = [x.a_score - y.a_score for x, y in zip(a, b, strict=True)]
    point_diff = [x.a_points - y.a_points for x, y in zip(a, b, strict=True)]
    return {
        "common_pairs": len(common),
        "first_only_pairs": len(set(first) - set(second)),
        "second_only_pairs": len(set(second) - set(first)),
        "first_deal_win_rate": mean([p.a_score for p in a]),
        "second_deal_win_rate": mean([p.a_score for p in b]),
        "deal_win_diff": mean(win_diff),
        "deal_win_diff_ci95": list(bootstrap_ci(win_diff, f"{seed}:diff")),
        "first_points_per_deal": mean([p.a_points for p in a]),
        "second_points_per_deal": mean([p.a_points for p in b]),
        "points_diff": mean(point_diff),
        "points_diff_ci95": list(bootstrap_ci(point_diff, f"{seed}:points-diff")),
        "pairs_differing": sum(1 for d in win_diff if d != 0),
    }


def summarize_matches(results: Sequence[MatchResult]) -> dict[str, Any]:
    done = [r for r in results if r.a_won is not None]
    wins = sum(1 for r in done if r.a_won)
    lo, hi = wilson_ci(wins, len(done))
    a_times = [t for r in results for t in r.a_times]
    deals = sum(r.deals for r in results)
    return {
        "matches": len(results),
        "finished": len(done),
        "a_match_win_rate": wins / len(done) if done else 0.0,
        "a_match_win_ci95": [lo, hi],
        "deals_per_match": deals / len(results) if results else 0.0,
        "illegal_actions": sum(r.illegal_a + r.illegal_b for r in results),
        "a_decision_ms_p50": 1000 * percentile(a_times, 50),
        "a_decision_ms_p95": 1000 * percentile(a_times, 95),
        "a_decision_ms_mean": 1000 * mean(a_times),
        "cpu_seconds_per_deal": sum(r.cpu_seconds for r in results) / deals if deals else 0.0,
        **_bot_failures(results),
    }


def table(summary: dict[str, Any], title: str) -> str:
    """A plain two-column table (fits a terminal and a README code block)."""
    lines = [title, "-" * len(title)]
    for k, v in summary.items():
        lines.append(f"{k:<24} {cell(v)}")
    return "\n".join(lines)


__all__ = ["compare_pairs", "summarize_matches", "summarize_pairs", "summarize_sprt", "table"]

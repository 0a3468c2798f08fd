"""Summaries of arena runs: the numbers the README reports, as a dict and as a table."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..agents.fallback import said_problem
from ..cliutil import figure_table
from ..core.errors import GuandanError
from ..i18n import N_
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
        **_first_illegal(pairs, "pair"),
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


def _first_illegal(results: Sequence[PairResult] | Sequence[MatchResult], where: str) -> dict[str, Any]:
    """Each side's first illegal answer over ``results`` (in their order), where it gave one: the deal pair
    (``where``: or match) and the answer as results files keep it (``{"pair": 3, "seat": 2, "phase": "play",
    "problem": "nothing", "answer": null}``)."""
    out: dict[str, Any] = {}
    for side in ("a", "b"):
        first = next((e for r in results if (e := getattr(r, f"first_illegal_{side}")) is not None), None)
        if first is not None:
            out[f"{side}_first_illegal"] = {where: first.index, **first.to_json()}
    return out


_FIRST_ILLEGAL_IN = {"pair": N_("deal pair {index}, seat {seat}: {answer}"),
                     "match": N_("match {index}, seat {seat}: {answer}")}
FIRST_ILLEGAL_KEYS = ("a_first_illegal", "b_first_illegal")


def first_illegal_words(summary: dict[str, Any], say: Callable[[BaseException], str]) -> dict[str, Any]:
    """``summary`` with each side's first illegal answer in words (``deal pair 3, seat 2: answered nothing``),
    each said by ``say`` (in the reader's language), for the table a person reads."""
    out = dict(summary)
    for k in FIRST_ILLEGAL_KEYS:
        first = out.get(k)
        if isinstance(first, dict):
            where = "pair" if "pair" in first else "match"
            out[k] = say(GuandanError.said(_FIRST_ILLEGAL_IN[where], index=first[where], seat=first["seat"] + 1,
                                           answer=said_problem(first["problem"], first["answer"], first["phase"])))
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
        **_first_illegal(results, "match"),
    }


#: What each figure of a summary is called in the table a person reads (``--json`` keeps the keys).
LABELS: dict[str, str] = {
    "a": N_("agent A"), "b": N_("agent B"), "preset": N_("rules"), "seed": N_("seed"), "mode": N_("mode"),
    "budget_a": N_("A's seconds per decision"), "budget_b": N_("B's seconds per decision"),
    "move_mode": N_("legal moves offered"), "a_options": N_("A's options"), "b_options": N_("B's options"),
    "deal_pairs": N_("deal pairs"), "deals": N_("deals"),
    "a_deal_win_rate": N_("A's deal-win rate"), "a_deal_win_ci95": N_("A's deal-win rate, 95% interval"),
    "a_points_per_deal": N_("A's level points per deal"), "a_points_ci95": N_("A's level points, 95% interval"),
    "a_double_win_rate": N_("A's double-win rate"),
    "illegal_actions": N_("illegal actions"), "illegal_a": N_("illegal actions by A"),
    "illegal_b": N_("illegal actions by B"),
    "a_decision_ms_p50": N_("A's decision, median ms"), "a_decision_ms_p95": N_("A's decision, 95th percentile ms"),
    "a_decision_ms_mean": N_("A's decision, mean ms"),
    "b_decision_ms_p50": N_("B's decision, median ms"), "b_decision_ms_p95": N_("B's decision, 95th percentile ms"),
    "b_decision_ms_mean": N_("B's decision, mean ms"),
    "a_bot_failures": N_("A's bot failures"), "b_bot_failures": N_("B's bot failures"),
    "a_first_illegal": N_("A's first illegal action"), "b_first_illegal": N_("B's first illegal action"),
    "cpu_seconds_per_deal": N_("CPU seconds per deal"), "wall_seconds": N_("wall-clock seconds"),
    "first_pair": N_("first deal pair"), "last_pair": N_("last deal pair"),
    "missing_pairs": N_("deal pairs missing in between"), "resumed_pairs": N_("deal pairs resumed from the file"),
    "matches": N_("matches"), "finished": N_("matches finished"), "a_match_win_rate": N_("A's match-win rate"),
    "a_match_win_ci95": N_("A's match-win rate, 95% interval"), "deals_per_match": N_("deals per match"),
    "sprt_llr": N_("SPRT log-likelihood ratio"), "sprt_bounds": N_("SPRT bounds"),
    "sprt_decision": N_("SPRT decision"), "sprt_p0": N_("SPRT deal-win rate under H0"),
    "sprt_p1": N_("SPRT deal-win rate under H1"),
    "ray": N_("Ray cluster"), "ray_workers": N_("Ray worker processes"),
    "ray_play_seconds": N_("seconds of play on the cluster"),
    "ray_pairs_per_second": N_("deal pairs per second on the cluster"),
    "first": N_("the first run's A"), "second": N_("the second run's A"),
    "first_budget": N_("the first run's seconds per decision"),
    "second_budget": N_("the second run's seconds per decision"),
    "common_pairs": N_("deal pairs in both runs"), "first_only_pairs": N_("deal pairs in the first run only"),
    "second_only_pairs": N_("deal pairs in the second run only"),
    "first_deal_win_rate": N_("the first run's deal-win rate"),
    "second_deal_win_rate": N_("the second run's deal-win rate"),
    "deal_win_diff": N_("deal-win rate, first − second"),
    "deal_win_diff_ci95": N_("deal-win rate, first − second, 95% interval"),
    "first_points_per_deal": N_("the first run's level points per deal"),
    "second_points_per_deal": N_("the second run's level points per deal"),
    "points_diff": N_("level points per deal, first − second"),
    "points_diff_ci95": N_("level points per deal, first − second, 95% interval"),
    "pairs_differing": N_("deal pairs where A's deal wins differ"),
}


def table(summary: dict[str, Any], title: str, gettext: Callable[[str], str] = str) -> str:
    """A summary as the table a person reads: each figure under its name in the language of ``gettext``."""
    return figure_table(summary, {k: gettext(v) for k, v in LABELS.items()}, gettext, title)


__all__ = ["FIRST_ILLEGAL_KEYS", "LABELS", "compare_pairs", "first_illegal_words",
           "summarize_matches", "summarize_pairs", "summarize_sprt", "table"]

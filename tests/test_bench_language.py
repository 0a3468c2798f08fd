"""Every benchmark's printed report speaks the reader's language: figures under names from the catalogue,
never a JSON key, a Python truth value or a list's repr; ``--json`` keeps the keys."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from guandan import bench
from guandan.cli import _mount, app
from guandan.i18n import translator
from guandan.native import MANIFEST, NO_MANIFEST, NOT_BUILT, PARTIAL, PURE_ENV, PURE_REQUESTED, STALE
from guandan.server.bench import format_report, format_soak
from guandan.server.bench_page import format_page_report
from guandan.server.bench_site import format_site_report
from guandan.server.ratings_bench import KINDS, format_accounts_report, format_bot_ratings

_mount()
runner = CliRunner()
KEY = re.compile(r"^[a-z0-9]+_[a-z0-9_]+ ", re.M)  # a figure printed under its JSON key
# English words that may stay in a Chinese report: names of tiers, presets, programs, units and wire codes
KEPT = {"competition", "huopin", "heuristic", "greedy", "random", "search", "chromium", "sqlite", "Python", "JSON",
        "GET", "api", "API", "meta", "CPU", "jsonl", "busy", "rate_limited", "MiB", "canonical", "complete", "desk", "compiled",
        PURE_ENV}


def english_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[A-Za-z_]{3,}", text) if w not in KEPT}


@pytest.mark.parametrize("args", [
    ["bench", "movegen", "--hands", "10"],
    ["bench", "deals", "--deals", "2"],
    ["bench", "search", "--positions", "1", "--worlds", "3", "--budget", "0.02"],
    ["bench", "playouts", "--deals", "2", "--break-any", "2"],
    ["bench", "env", "--steps", "30", "--features"],
    ["bench", "compiled", "--hands", "10", "--deals", "1", "--positions", "1", "--worlds", "2", "--rounds", "1"],
])
def test_the_engine_benchmarks_name_their_figures_in_chinese(args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "zh")
    out = runner.invoke(app, args)
    if args[1] == "compiled" and out.exit_code == 1:
        pytest.skip("this process runs uncompiled: nothing to compare")
    assert out.exit_code == 0, out.output
    assert not KEY.search(out.output) and "规则" in out.output and "种子" in out.output, out.output
    assert not re.search(r"\b(true|false|yes|no|True|False)\s*$", out.output, re.M), out.output
    assert english_words(out.output) == set(), out.output
    keyed = json.loads(runner.invoke(app, [*args, "--json"]).output)
    assert "seed" in keyed and isinstance(keyed["compiled"], bool)


@pytest.mark.parametrize("code", [PURE_REQUESTED, NOT_BUILT, PARTIAL, NO_MANIFEST, STALE])
def test_why_a_run_is_uncompiled_is_said_in_the_readers_language(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    modules = ("guandan.core.moves", "guandan.agents.search") if code in (PARTIAL, STALE) else ()
    monkeypatch.setattr(bench, "why", lambda: (code, modules))
    monkeypatch.setattr(bench, "compiled", lambda: False)
    monkeypatch.setenv("LANGUAGE", "zh")
    words = bench.build_words()
    assert words.startswith("纯 Python"), words
    assert all(m in words for m in modules), words
    for m in modules:
        words = words.replace(m, "")
    assert english_words(words.replace(PURE_ENV, "").replace(MANIFEST, "")) == set(), words
    monkeypatch.setenv("LANGUAGE", "en")
    assert bench.reason_words() and not re.search(r"[\u4e00-\u9fff]", bench.reason_words())


def test_compiled_names_each_figure_three_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    out = runner.invoke(app, ["bench", "compiled", "--hands", "10", "--deals", "1", "--positions", "1", "--worlds", "2",
                              "--rounds", "1"])
    if out.exit_code == 1:
        pytest.skip("this process runs uncompiled: nothing to compare")
    for name in ("sampled worlds per CPU second (compiled)", "sampled worlds per CPU second (pure Python)",
                 "sampled worlds per CPU second: times faster compiled", "following: mean µs (compiled)"):
        assert name in out.output, out.output


def test_the_search_profile_and_the_review_and_desk_benchmarks_speak_chinese(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "zh")
    profile = runner.invoke(app, ["bench", "search", "--positions", "1", "--worlds", "2", "--profile", "3"])
    assert profile.exit_code == 0 and "个决策 × 2个牌局" in profile.output and "按模块：" in profile.output, profile.output
    review = runner.invoke(app, ["bench", "review", "--deals", "1", "--budget", "0.02", "--tiers", "heuristic"])
    assert review.exit_code == 0, review.output
    assert "准确度" in review.output and "好 " in review.output and "复盘手数" in review.output, review.output
    assert "accuracy" not in review.output and "good=" not in review.output
    desk = runner.invoke(app, ["tournament", "bench", "--teams", "8", "--rounds", "2"])
    assert desk.exit_code == 0, desk.output
    assert desk.output.startswith("轮次  队数") and "编排一轮，最慢" in desk.output and "达到" in desk.output
    assert english_words(desk.output) == set(), desk.output
    refused = runner.invoke(app, ["tournament", "bench", "--teams", "8", "--rounds", "9"])
    assert refused.exit_code == 2 and "8支队伍时 --rounds 须为 1…2，而不是 9" in refused.output


def _reports() -> dict[str, tuple[object, dict[str, object]]]:
    """Each server benchmark's formatter with figures of the shape its run produces."""
    timed = {"tables": 2, "think_ms": 20, "seconds": 3.0, "actions": 80, "actions_per_s": 26.7, "p50_ms": 2.1,
             "p99_ms": 4.2, "errors": 0, "first_errors": []}
    abuse = {**timed, "abuse": {"sockets": 12, "preset": "huopin", "plays": 84060, "sent": {"hint": 30, "readings": 20},
                                "answered": {"hint": 1, "readings": 4}, "refused": {"busy": 5, "rate_limited": 40},
                                "refused_total": 45, "errors": 0, "first_errors": [], "meta_p50_ms": 2.7,
                                "meta_max_ms": 3.9}}
    soak = {**timed, "matches_over": 3, "rss_warm_mib": 150.0, "warmup_s": 1.0, "rss_end_mib": 151.0,
            "rss_growth_pct": 0.7, "rss_max_mib": 152.0, "rss_all_warm_mib": 190.0, "rss_all_end_mib": 191.0,
            "rss_all_growth_pct": 0.5}
    site = {"tables": 8, "think_ms": 20, "runs": [
        {"workers": 1, "actions_per_s": 300.0, "p50_ms": 3.0, "p99_ms": 9.0, "errors": 0, "lost_actions": 0,
         "tables_per_worker": [8]},
        {"workers": 2, "actions_per_s": 560.0, "ratio_to_fewest": 1.87, "p50_ms": 3.1, "p99_ms": 9.5, "errors": 0,
         "lost_actions": 0, "tables_per_worker": [4, 4]},
        {"workers": 2, "actions_per_s": 500.0, "p50_ms": 3.1, "p99_ms": 9.5, "errors": 2, "lost_actions": 0,
         "tables_per_worker": [4, 4], "failover": {"killed_at_s": 2.0, "clients_resumed": 16, "outage_max_s": 1.2,
                                                    "outage_median_s": 0.8}}]}
    page = {"usable_ms_median": 250.0, "usable_ms_max": 260.0, "tap_ms_median": 13.0, "tap_ms_max": 15.0,
            "weight_kb": {"table.html": 165.4, "index.html": 50.4}, "limit_kb": 600, "received_kb_median": 186.7,
            "runs": 3, "tap_after_update_ms_median": 17.5}
    accounts = {"database": "sqlite", "accounts": 12, "matches": 40, "history_rows": 123, "fill_seconds": 0.1,
                "requests_per_kind": 3, **{k: {"p50_ms": 1.9, "p99_ms": 2.0, "max_ms": 2.1} for k in KINDS}}
    ratings = {"deal_win_rates": {"greedy vs random": 0.975, "heuristic vs greedy": 0.9865, "search vs heuristic": None},
               "sources": {"greedy vs random": {"played_here": True, "deal_pairs": 20, "seed": 1},
                           "heuristic vs greedy": {"file": "heuristic-vs-greedy.jsonl.gz", "deal_pairs": 1000}},
               "mu": {"random": 12.71, "greedy": 18.48, "heuristic": 25.0, "search": 25.77}, "problem": None,
               "published_rates": {"search vs heuristic": 0.6035},
               "published_mu": {"random": 13.18, "greedy": 18.48, "heuristic": 25.0, "search": 25.77}}
    no_ratings = {**ratings, "deal_win_rates": {**ratings["deal_win_rates"], "greedy vs random": 1.0}, "mu": None}
    return {"server": (format_report, abuse), "soak": (format_soak, soak), "site": (format_site_report, site),
            "page": (format_page_report, page), "accounts": (format_accounts_report, accounts),
            "ratings": (format_bot_ratings, ratings), "no ratings": (format_bot_ratings, no_ratings)}


@pytest.mark.parametrize("name", sorted(_reports()))
def test_the_server_benchmarks_speak_chinese(name: str) -> None:
    fmt, figures = _reports()[name]
    english = fmt(figures)  # type: ignore[operator]
    chinese = fmt(figures, translator("cli", "zh").gettext)  # type: ignore[operator]
    assert english != chinese
    assert english_words(chinese) == set(), chinese
    assert "[" not in chinese.replace("[4, 4]", "") and "None" not in chinese and "[4, 4]" not in chinese, chinese
    assert len(english.splitlines()) == len(chinese.splitlines())



def test_the_bot_ratings_count_one_deal_pair_as_one() -> None:
    ratings = _reports()["ratings"][1]
    assert isinstance(ratings, dict)
    one = {**ratings, "sources": {"greedy vs random": {"played_here": True, "deal_pairs": 1, "seed": 1},
                                  "heuristic vs greedy": {"file": "h.jsonl.gz", "deal_pairs": 1}}}
    english = format_bot_ratings(one)
    assert "played here: 1 deal pair, seed 1" in english and "h.jsonl.gz: 1 deal pair" in english
    assert "1 deal pairs" not in english
    assert "played here: 20 deal pairs, seed 1" in format_bot_ratings(ratings)
    chinese = format_bot_ratings(one, translator("cli", "zh").gettext)
    assert "本次对打：1组复式牌，种子 1" in chinese and "h.jsonl.gz：1组复式牌" in chinese

def test_bench_search_times_the_search_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--agent`` picks the search's options for the timed decisions; anything but the search tier, or a
    bad option, is refused by name before any work."""
    monkeypatch.setenv("LANGUAGE", "en")
    args = ["bench", "search", "--positions", "2", "--worlds", "2", "--budget", "0.05", "--json"]
    raced = json.loads(runner.invoke(app, [*args, "--agent", "search:prune=on"]).output)
    assert raced["agent"] == "search:prune=on" and raced["positions"] == 2
    assert 0 <= raced["budget_decisions"] <= 2
    assert ("worlds_per_budget_decision_mean" in raced) == (raced["budget_decisions"] > 0)
    for bad, words in (("heuristic", "--agent must be the search tier"), ("search:prune=maybe", "prune")):
        out = runner.invoke(app, [*args, "--agent", bad])
        assert out.exit_code == 2 and words in out.output, out.output


def test_the_site_report_counts_workers_without_a_plural_to_guess() -> None:
    """"1 worker(s)" nowhere: each run and the failover drill name a site by its worker count."""
    one = {"workers": 1, "actions_per_s": 300.0, "p50_ms": 3.0, "p99_ms": 9.0, "errors": 1, "lost_actions": 0,
           "tables_per_worker": [8]}
    report = {"tables": 8, "think_ms": 20, "runs": [
        one, {**one, "workers": 2, "ratio_to_fewest": 1.87, "tables_per_worker": [4, 4]},
        {**one, "failover": {"killed_at_s": 2.0, "clients_resumed": 1, "outage_max_s": 1.2, "outage_median_s": 0.8}}]}
    lines = format_site_report(report).splitlines()
    assert lines[1] == ("  1-worker site: 300.0 actions/s (×1.00), p50 3.0 ms, p99 9.0 ms; errors: 1, actions lost: 0; "
                        "tables per worker: 8")
    assert lines[2].startswith("  2-worker site: 300.0 actions/s (×1.87)")
    assert lines[3] == ("  failover drill, 1-worker site, the busiest worker killed at 2.0 s: longest without service "
                        "1.2 s (median 0.8 s); clients resumed: 1, actions lost: 0, error frames: 1")
    chinese = format_site_report(report, translator("cli", "zh").gettext).splitlines()
    assert chinese[1].startswith("  1个工作进程的站点：每秒300.0个动作") and "错误1个" in chinese[1]
    assert chinese[3].startswith("  故障转移演练，1个工作进程的站点，第2.0秒终止最忙的工作进程")

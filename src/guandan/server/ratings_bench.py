"""`guandan bench accounts`: the leaderboard and the player's page over many accounts and rated matches, and
`guandan bench bot-ratings`: the derivation of the bots' fixed ratings.

``bench accounts`` fills a database (a temporary SQLite file, or ``--db URL``: an empty PostgreSQL database
is migrated first) with N accounts and M rated matches — seeded: one to four accounts per match, the other
seats bots, a preset drawn with the weights of a busy server, one to twelve deals, each rated through
:func:`guandan.db.ratings.record_in` exactly as the server rates a finished room — then times requests to
the real web app in-process (``create_app`` on that database, Starlette's TestClient): the leaderboard's
JSON and page (first page and a deeper one) and a random account's JSON and page. p50 and p99 per kind, in
milliseconds, after a warm-up.

``bench bot-ratings`` prints the deal-win rates of neighbouring tiers (from the arena's results files when
given, and a fresh greedy-against-random run) and the fixed mus they give (guandan.ratings.bot_mus).
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from ..core.rules import PRESET_NAMES
from ..db import make_engine, make_session_factory, upgrade_to_head
from ..db import ratings as rt
from ..db.accounts import User
from ..db.web import WebReplay
from ..ratings import ARENA_DEAL_WIN_RATES, TIER_ORDER, bot_mus

PRESET_WEIGHTS = {"competition": 6, "huaian-traditional": 2, "huaian-2009": 1, "huopin": 1}
TIERS = ("random", "greedy", "heuristic", "search")
KINDS = ("leaderboard_api", "leaderboard_page", "leaderboard_deep_page", "player_api", "player_page")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def fill(session: Session, accounts: int, matches: int, seed: int, commit_every: int = 500,
         progress: Callable[[int], None] | None = None) -> dict[str, int]:
    """N accounts (``benchNNNN``) and M seeded rated matches, each rated as the server rates one."""
    rng = random.Random(f"bench-accounts:{seed}")
    start = datetime(2026, 1, 1, tzinfo=UTC)
    session.execute(insert(User), [
        {"username": f"bench{i:04d}", "username_key": f"bench{i:04d}", "display_name": f"Bench {i}",
         "password_hash": "!bench: no login", "created_at": start} for i in range(accounts)])
    session.commit()
    ids = [u.id for u in session.query(User.id).filter(User.username_key.like("bench%")).order_by(User.id)]
    presets = [p for p in PRESET_NAMES if p in PRESET_WEIGHTS]
    weights = [PRESET_WEIGHTS[p] for p in presets]
    history = 0
    for k in range(matches):
        humans = rng.choice((1, 2, 2, 3, 4, 4, 4))
        seats = rng.sample(range(4), humans)
        players = rng.sample(ids, humans)
        users: list[int | None] = [None] * 4
        bots: list[str | None] = [rng.choice(TIERS) for _ in range(4)]
        for seat, user in zip(seats, players, strict=True):
            users[seat], bots[seat] = user, None
        deals = tuple(rng.randrange(2) for _ in range(rng.randint(1, 12)))
        won0 = sum(1 for d in deals if d == 0)
        winner = 0 if won0 * 2 > len(deals) else 1 if won0 * 2 < len(deals) else None
        replay_id = f"bench{k:010d}"
        session.execute(insert(WebReplay), [{"id": replay_id, "room_code": None, "record": "{}", "imported": False,
                                             "public": k % 3 == 0, "created_at": start}])
        result = rt.MatchResult(preset=rng.choices(presets, weights)[0], users=(users[0], users[1], users[2], users[3]),
                                bots=(bots[0], bots[1], bots[2], bots[3]), deal_winners=deals, winner=winner,
                                replay_id=replay_id, finished_at=start + timedelta(minutes=7 * k))
        rt.record_in(session, result)
        history += humans
        if (k + 1) % commit_every == 0:
            session.commit()
            if progress is not None:
                progress(k + 1)
    session.commit()
    return {"accounts": accounts, "matches": matches, "history_rows": history}


def run_accounts_bench(db_url: str | None = None, accounts: int = 1000, matches: int = 10_000, requests: int = 300,
                       seed: int = 1, progress: Callable[[str], None] | None = None, fill_db: bool = True
                       ) -> dict[str, Any]:
    """Fill the database (unless ``fill_db`` is off: a database an earlier run filled with the same sizes), then
    time each kind of request ``requests`` times (after 20 warm-up requests)."""
    from fastapi.testclient import TestClient  # here: the app and its test client load only for the bench

    from .app import create_app
    from .table import Settings

    say = progress or (lambda _line: None)
    with tempfile.TemporaryDirectory(prefix="guandan-bench-accounts-") as tmp:
        url = db_url or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        engine = make_engine(url)
        upgrade_to_head(engine)
        sessions = make_session_factory(engine)
        t0 = time.perf_counter()
        if fill_db:
            with sessions() as s:
                filled = fill(s, accounts, matches, seed, progress=lambda n: say(f"{n} rated matches stored"))
        else:
            with sessions() as s:
                count = s.query(rt.RatingHistory).count()
            filled = {"accounts": accounts, "matches": matches, "history_rows": count}
        fill_s = time.perf_counter() - t0
        engine.dispose()
        app = create_app(url, Settings(workers=0))
        rng = random.Random(f"bench-accounts-requests:{seed}")
        names = [f"bench{i:04d}" for i in range(accounts)]
        deep = max(1, accounts // 2 // 50)
        paths: dict[str, Callable[[], str]] = {
            "leaderboard_api": lambda: f"/api/leaderboard?preset={rng.choice(list(PRESET_WEIGHTS))}",
            "leaderboard_page": lambda: f"/leaderboard?preset={rng.choice(list(PRESET_WEIGHTS))}&lang=zh",
            "leaderboard_deep_page": lambda: f"/leaderboard?preset=competition&page={deep}",
            "player_api": lambda: f"/api/users/{rng.choice(names)}",
            "player_page": lambda: f"/u/{rng.choice(names)}",
        }
        timings: dict[str, list[float]] = {k: [] for k in KINDS}
        with TestClient(app) as client:
            for kind in KINDS:
                for _ in range(20):
                    assert client.get(paths[kind]()).status_code == 200
            for _ in range(requests):
                for kind in KINDS:
                    path = paths[kind]()
                    t = time.perf_counter()
                    r = client.get(path)
                    timings[kind].append((time.perf_counter() - t) * 1000)
                    if r.status_code != 200:
                        raise RuntimeError(f"{path} answered {r.status_code}: {r.text[:200]}")
        out: dict[str, Any] = {"database": engine.dialect.name, **filled, "requests_per_kind": requests, "seed": seed,
                               "fill_seconds": round(fill_s, 1)}
        for kind, ms in timings.items():
            out[kind] = {"p50_ms": round(statistics.median(ms), 2), "p99_ms": round(_percentile(ms, 0.99), 2),
                         "max_ms": round(max(ms), 2)}
        return out


def format_accounts_report(r: dict[str, Any]) -> str:
    lines = [f"{r['database']}: {r['accounts']} accounts, {r['matches']} rated matches "
             f"({r['history_rows']} rating-history rows, stored in {r['fill_seconds']} s); "
             f"{r['requests_per_kind']} requests per kind"]
    for kind in KINDS:
        k = r[kind]
        lines.append(f"  {kind:<22} p50 {k['p50_ms']:7.2f} ms   p99 {k['p99_ms']:7.2f} ms   max {k['max_ms']:7.2f} ms")
    return "\n".join(lines)


# --- the bots' fixed ratings ----------------------------------------------------------------------------
def run_bot_ratings(arena_files: list[Path], pairs: int = 1000, seed: int = 1, jobs: int = 1) -> dict[str, Any]:
    """The deal-win rates of neighbouring tiers — from ``arena_files`` (results files of `guandan arena
    --results`, e.g. docs/arena/*.jsonl.gz) for the pairings they hold, and greedy against random played
    here over ``pairs`` duplicate deal pairs — and the tiers' fixed mus they give."""
    from ..arena.results import read_results
    from ..arena.runner import Setup, play_pairs
    from ..arena.stats import mean

    rates: dict[tuple[str, str], float] = {}
    sources: dict[str, str] = {}
    for path in arena_files:
        setup, results = read_results([path])
        if setup is None or setup.get("preset") != "competition" or setup.get("budget_a") not in (None, 1.0):
            continue  # the rooms' search bots think 1 s (the default); the ratings are the competition preset's
        key = (str(setup["a"]), str(setup["b"]))
        rates[key] = mean([p.a_score for p in results.values()])
        sources[f"{key[0]} vs {key[1]}"] = f"{path.name}: {len(results)} deal pairs"
    played = play_pairs(Setup(a="greedy", b="random", preset="competition", seed=seed), range(pairs), jobs)
    rates[("greedy", "random")] = mean([p.a_score for p in played])
    sources["greedy vs random"] = f"played here: {pairs} deal pairs, seed {seed}"
    chain = {f"{TIER_ORDER[i + 1]} vs {TIER_ORDER[i]}": rates.get((TIER_ORDER[i + 1], TIER_ORDER[i]))
             for i in range(len(TIER_ORDER) - 1)}
    full = {k: v for k, v in ARENA_DEAL_WIN_RATES.items()}
    full.update({k: v for k, v in rates.items() if k in full})
    try:
        mus: dict[str, float] | None = bot_mus(full)
        problem = None
    except ValueError as e:  # a pairing won every deal (a short run): no finite gap
        mus, problem = None, f"{e}: play more pairs"
    return {"deal_win_rates": chain, "sources": sources, "mu": mus, "problem": problem,
            "published_rates": {f"{a} vs {b}": v for (a, b), v in ARENA_DEAL_WIN_RATES.items()},
            "published_mu": bot_mus()}


def format_bot_ratings(r: dict[str, Any]) -> str:
    lines = ["deal-win rates of neighbouring tiers (competition, duplicate deal pairs):"]
    for k, v in r["deal_win_rates"].items():
        lines.append(f"  {k:<22} {v:.4f}   ({r['sources'].get(k, 'not measured: the published figure is used')})"
                     if v is not None else f"  {k:<22} –        (the published {r['published_rates'].get(k)})")
    if r["mu"] is None:
        lines.append(f"no ratings: {r['problem']}")
        return "\n".join(lines)
    lines.append("fixed mu per tier (heuristic anchored at 25; gap = β·Φ⁻¹(p)/√2, β = 25/6):")
    for tier, mu in r["mu"].items():
        lines.append(f"  {tier:<10} {mu:6.2f}   (published {r['published_mu'][tier]:.2f}, "
                     f"shown as {round(1000 + 40 * r['published_mu'][tier])})")
    return "\n".join(lines)

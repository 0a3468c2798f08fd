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
import warnings
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, func, insert, inspect, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from ..cliutil import pad, width
from ..core.errors import GuandanError
from ..core.rules import PRESET_NAMES
from ..db import make_engine, make_session_factory, upgrade_to_head
from ..db import ratings as rt
from ..db.accounts import User
from ..db.web import WebReplay
from ..i18n import N_
from ..ratings import ARENA_DEAL_WIN_RATES, TIER_ORDER, bot_mus

PRESET_WEIGHTS = {"competition": 6, "huaian-traditional": 2, "huaian-2009": 1, "huopin": 1}
TIERS = ("random", "greedy", "heuristic", "search")
KINDS = ("leaderboard_api", "leaderboard_page", "leaderboard_deep_page", "player_api", "player_page")


class BenchRefused(GuandanError):
    """A database the accounts bench cannot use as asked; the message names the problem and the way out."""


def _check_held(engine: Engine, url: str, accounts: int, fill_db: bool) -> None:
    """Refuse, before anything is written (the schema included), to fill a database that holds bench accounts
    already (their names would clash), or to time one (``fill_db`` off) that holds another number of them
    than ``accounts``."""
    held = 0
    if User.__tablename__ in inspect(engine).get_table_names():
        with engine.connect() as conn:
            held = conn.execute(select(func.count()).select_from(User).where(
                User.username_key.like("bench%"))).scalar_one()
    where = make_url(url).render_as_string(hide_password=True)
    if fill_db and held:
        raise BenchRefused.said(N_("{url} holds {n} bench accounts already: time them as they are with --no-fill "
                                   "--accounts {n}, or give an empty database"), url=where, n=held)
    if not fill_db and held == 0:
        raise BenchRefused.said(N_("--no-fill: {url} holds no bench accounts: fill it first (without --no-fill)"),
                                url=where)
    if not fill_db and held != accounts:
        raise BenchRefused.said(N_("--no-fill: {url} holds {n} bench accounts, not {accounts}: give --accounts {n}"),
                                url=where, n=held, accounts=accounts)


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
                       seed: int = 1, progress: Callable[[int], None] | None = None, fill_db: bool = True
                       ) -> dict[str, Any]:
    """Fill the database (unless ``fill_db`` is off: a database an earlier run filled with the same sizes), then
    time each kind of request ``requests`` times (after 20 warm-up requests)."""
    with warnings.catch_warnings():  # Starlette's notice to its own users, not to the bench's reader
        warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
        from fastapi.testclient import TestClient  # here: the app and its test client load only for the bench

    from .app import create_app
    from .table import Settings

    with tempfile.TemporaryDirectory(prefix="guandan-bench-accounts-") as tmp:
        url = db_url or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        engine = make_engine(url)
        _check_held(engine, url, accounts, fill_db)
        upgrade_to_head(engine)
        sessions = make_session_factory(engine)
        t0 = time.perf_counter()
        with sessions() as s:
            if fill_db:
                filled = fill(s, accounts, matches, seed, progress=progress)
            else:
                filled = {"accounts": accounts, "matches": s.query(rt.RatedMatch).count(),
                          "history_rows": s.query(rt.RatingHistory).count()}
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


#: What each kind of timed request is called in the report a person reads.
KIND_WORDS: dict[str, str] = {
    "leaderboard_api": N_("leaderboard, JSON"), "leaderboard_page": N_("leaderboard page"),
    "leaderboard_deep_page": N_("leaderboard, a deep page"), "player_api": N_("player, JSON"),
    "player_page": N_("player page"),
}


def format_accounts_report(r: dict[str, Any], gettext: Callable[[str], str] = str) -> str:
    """The accounts bench's figures as a person reads them, in the language of ``gettext`` (a catalogue's)."""
    _ = gettext
    lines = [_(N_("{database}: {accounts} accounts, {matches} rated matches ({rows} rating-history rows, stored in "
                  "{seconds} s); {requests} requests per kind")).format(
        database=r["database"], accounts=r["accounts"], matches=r["matches"], rows=r["history_rows"],
        seconds=r["fill_seconds"], requests=r["requests_per_kind"])]
    cols = max(width(_(KIND_WORDS[kind])) for kind in KINDS) + 2
    for kind in KINDS:
        k = r[kind]
        lines.append("  " + pad(_(KIND_WORDS[kind]), cols) + _(N_("p50 {p50} ms   p99 {p99} ms   max {max} ms")).format(
            p50=f"{k['p50_ms']:7.2f}", p99=f"{k['p99_ms']:7.2f}", max=f"{k['max_ms']:7.2f}"))
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
    sources: dict[str, dict[str, Any]] = {}
    for path in arena_files:
        setup, results = read_results([path])
        if setup is None or setup.get("preset") != "competition" or setup.get("budget_a") not in (None, 1.0):
            continue  # the rooms' search bots think 1 s (the default); the ratings are the competition preset's
        key = (str(setup["a"]), str(setup["b"]))
        rates[key] = mean([p.a_score for p in results.values()])
        sources[f"{key[0]} vs {key[1]}"] = {"file": path.name, "deal_pairs": len(results)}
    played = play_pairs(Setup(a="greedy", b="random", preset="competition", seed=seed), range(pairs), jobs)
    rates[("greedy", "random")] = mean([p.a_score for p in played])
    sources["greedy vs random"] = {"played_here": True, "deal_pairs": pairs, "seed": seed}
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


def format_bot_ratings(r: dict[str, Any], gettext: Callable[[str], str] = str) -> str:
    """The bots' ratings as a person reads them, in the language of ``gettext`` (a catalogue's)."""
    _ = gettext

    def source(pairing: str) -> str:
        where = r["sources"].get(pairing)
        if where is None:
            return _(N_("not measured: the published figure is used"))
        one = where["deal_pairs"] == 1  # the catalogue's own words for one pair: gettext has no plural forms
        if where.get("played_here"):
            said = N_("played here: 1 deal pair, seed {seed}") if one else N_("played here: {pairs} deal pairs, seed {seed}")
            return _(said).format(pairs=where["deal_pairs"], seed=where["seed"])
        return _(N_("{file}: 1 deal pair") if one else N_("{file}: {pairs} deal pairs")).format(
            file=where["file"], pairs=where["deal_pairs"])

    def pairing(key: str) -> str:
        stronger, weaker = key.split(" vs ")
        return _(N_("{stronger} vs {weaker}")).format(stronger=stronger, weaker=weaker)

    lines = [_(N_("deal-win rates of neighbouring tiers (competition, duplicate deal pairs):"))]
    cols = max(width(pairing(k)) for k in r["deal_win_rates"]) + 2
    for k, v in r["deal_win_rates"].items():
        said = (f"{v:.4f}   " + _(N_("({source})")).format(source=source(k)) if v is not None else
                "–        " + _(N_("(the published {rate})")).format(rate=r["published_rates"].get(k)))
        lines.append("  " + pad(pairing(k), cols) + said)
    if r["mu"] is None:
        extreme = [pairing(k) for k, v in r["deal_win_rates"].items() if v is not None and not 0.0 < v < 1.0]
        lines.append(_(N_("no ratings: {pairings} won every deal or none; play more pairs")).format(
            pairings=_(", ").join(extreme) or "—"))
        return "\n".join(lines)
    lines.append(_(N_("fixed mu per tier (heuristic anchored at 25; gap = β·Φ⁻¹(p)/√2, β = 25/6):")))
    for tier, mu in r["mu"].items():
        lines.append("  " + f"{tier:<10} {mu:6.2f}   " + _(N_("(published {mu}, shown as {shown})")).format(
            mu=f"{r['published_mu'][tier]:.2f}", shown=round(1000 + 40 * r["published_mu"][tier])))
    return "\n".join(lines)

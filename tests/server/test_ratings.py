"""Ratings in the web app: rated rooms (accounts only, the preset's own rules, a secret seed), the result of a
finished rated match rated and stored, the leaderboards and the player's page with their JSON, on SQLite
and PostgreSQL; unrated matches change nothing; a deleted account leaves the boards; the bench at a tiny size."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from argon2 import profiles
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from guandan.db import make_engine, make_session_factory, upgrade_to_head
from guandan.db import ratings as rt
from guandan.db.accounts import User, UserReplay
from guandan.ratings import ARENA_DEAL_WIN_RATES, BOT_MU, MU, Rating, rate_match
from guandan.server.accounts_service import AccountSettings
from guandan.server.app import create_app
from guandan.server.players import avatar_svg, rating_chart
from guandan.server.ratings_bench import format_accounts_report, format_bot_ratings, run_accounts_bench, run_bot_ratings
from guandan.server.table import Settings

from .conftest import counting_seeds
from .test_ws import recv_until

pytestmark = pytest.mark.timeout(180)
PASSWORD = "correct horse battery"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ratings.sqlite3'}"
        return
    base: str = request.getfixturevalue("postgres_url")
    name = f"ratings_{abs(hash(request.node.nodeid)) % 10**9}"
    admin = make_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {name}")
        conn.exec_driver_sql(f"CREATE DATABASE {name}")
    admin.dispose()
    yield base.rsplit("/", 1)[0] + f"/{name}"


def _site(db_url: str) -> TestClient:
    settings = Settings(bot_delay_ms=0, next_deal_s=0, seed_source=counting_seeds(), workers=0)
    app = create_app(db_url, settings, accounts=AccountSettings(password_parameters=profiles.CHEAPEST))
    return TestClient(app)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[TestClient]:
    with _site(f"sqlite:///{tmp_path / 'web.sqlite3'}") as c:
        yield c


def signup(c: TestClient, username: str, display_name: str = "") -> str:
    """Sign ``c`` up (its cookie jar holds the session); the session's CSRF token."""
    r = c.post("/api/auth/signup", json={"username": username, "password": PASSWORD, "display_name": display_name})
    assert r.status_code == 201, r.text
    return str(r.json()["csrf"])


def rated_room(c: TestClient, bots: list[str | None], **config: Any) -> str:
    r = c.post("/api/rooms", json={"bots": bots, "max_deals": 1, "timer": 0, "rated": True, **config})
    assert r.status_code == 201, r.text
    assert r.json()["room"]["rated"] is True
    return str(r.json()["code"])


def sit(c: TestClient, code: str, seat: int, csrf: str) -> str:
    r = c.post(f"/api/rooms/{code}/join", json={"seat": seat, "name": "ignored"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    assert r.json()["room"]["seats"][seat]["account"] is True
    return str(r.json()["token"])


def play_to_the_end(c: TestClient, code: str, tokens: list[str]) -> dict[str, Any]:
    """Every human seat ready and on 托管; the bots play the match out. The final room."""
    with c.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws:
        for tok in tokens:
            assert c.post(f"/api/rooms/{code}/ready", json={"token": tok}).status_code == 200
        ws.send_json({"type": "auto", "on": True})
        final = recv_until(ws, lambda f: f["type"] == "room" and f["room"]["status"] == "over", limit=20_000)
    room: dict[str, Any] = final["room"]
    return room


def flush(c: TestClient) -> None:
    c.app.state.service.store.writer.flush()  # type: ignore[attr-defined]


# --- storage -----------------------------------------------------------------------------------------
def _users(sessions: Any, n: int) -> list[int]:
    with sessions.begin() as s:
        rows = [User(username=f"p{i}", username_key=f"p{i}", display_name=f"P {i}", password_hash="x") for i in range(n)]
        s.add_all(rows)
        s.flush()
        return [r.id for r in rows]


def test_rated_matches_are_stored_rated_and_read_back(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        upgrade_to_head(engine)
        sessions = make_session_factory(engine)
        a, b, c, d, e = _users(sessions, 5)
        t0 = datetime(2026, 3, 1, tzinfo=UTC)
        # two humans against two humans, team 0 (a and c) wins both deals
        m1 = rt.record_rated_match(sessions, rt.MatchResult("competition", (a, b, c, d), (None,) * 4, (0, 0), 0,
                                                            finished_at=t0))
        # a alone with a heuristic partner against two greedy bots, in another preset: loses
        rt.record_rated_match(sessions, rt.MatchResult("huopin", (a, None, None, None),
                                                       (None, "greedy", "heuristic", "greedy"), (1,), 1,
                                                       finished_at=t0 + timedelta(hours=1)))
        with sessions() as s:
            total, board = rt.leaderboard(s, "competition")
            assert total == 4 and [r["username"] for r in board[:2]] == ["p0", "p2"]  # the winners first
            assert board[0]["rating"] > board[-1]["rating"] and board[0]["matches"] == 1 and board[0]["wins"] == 1
            expected = rate_match([Rating()] * 4, [0, 0])[0]
            assert expected is not None and board[0]["mu"] == pytest.approx(expected.mu, abs=1e-4)
            assert rt.leaderboard(s, "huopin")[0] == 1 and rt.leaderboard(s, "huaian-2009") == (0, [])
            ratings = {r["preset"]: r for r in rt.user_ratings(s, a)}
            assert set(ratings) == {"competition", "huopin"}  # one rating per preset
            assert ratings["competition"]["mu"] > MU > ratings["huopin"]["mu"]
            assert rt.user_ratings(s, e) == [] and rt.user_matches(s, e) == []  # played nothing
            matches = rt.user_matches(s, a)
            assert [m["preset"] for m in matches] == ["huopin", "competition"]  # newest first
            assert matches[0]["result"] == "loss" and matches[1]["result"] == "win"
            assert matches[0]["seats"][1] == {"kind": "bot", "tier": "greedy", "rating": round(1000 + 40 * BOT_MU["greedy"])}
            assert matches[1]["seats"][1]["username"] == "p1" and matches[1]["deals_won"] == 2
            history = rt.user_history(s, a, "competition")
            assert len(history) == 1 and history[0]["result"] == "win"
            assert s.scalar(select(func.count()).select_from(rt.RatedMatch)) == 2
            assert s.get(rt.RatedMatch, m1) is not None
        # a deleted account leaves the boards; its games stay, anonymous
        with sessions.begin() as s:
            row = s.get(User, b)
            assert row is not None
            row.username = row.username_key = row.display_name = None
            row.deleted_at = t0
        with sessions() as s:
            total, board = rt.leaderboard(s, "competition")
            assert total == 3 and "p1" not in [r["username"] for r in board]
            assert rt.user_matches(s, a)[1]["seats"][1] == {"kind": "deleted"}
            assert rt.user_by_name(s, "P0") is not None and rt.user_by_name(s, "p1") is None
    finally:
        engine.dispose()


def test_a_match_result_is_checked() -> None:
    with pytest.raises(ValueError, match="either an account or a bot tier"):
        rt.MatchResult("competition", (1, None, None, None), (None, None, "greedy", "greedy"), (0,), 0)
    with pytest.raises(ValueError, match="at least one account"):
        rt.MatchResult("competition", (None,) * 4, ("greedy",) * 4, (0,), 0)
    with pytest.raises(ValueError, match="two seats"):
        rt.MatchResult("competition", (1, 1, None, None), (None, None, "greedy", "greedy"), (0,), 0)
    with pytest.raises(ValueError, match="oracle"):
        rt.MatchResult("competition", (1, None, None, None), (None, "oracle", "greedy", "greedy"), (0,), 0)
    assert rt.match_winner(None, (5, 3)) == 0 and rt.match_winner(None, (3, 3), [4, 1, 0, 9]) == 1
    assert rt.match_winner(None, (3, 3)) is None and rt.match_winner(1, (9, 3)) == 1


# --- rated rooms through the app -----------------------------------------------------------------------
def test_a_rated_room_refuses_what_cannot_be_rated(site: TestClient) -> None:
    for extra, why in (({"seed": 5}, "seed"), ({"rules": {"airplane": True}}, "rule overrides"),
                       ({"bots": ["greedy"] * 4}, "every seat here is a bot")):
        r = site.post("/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "rated": True, **extra})
        assert r.status_code == 400 and r.json()["error"] == "not_ratable" and why in r.json()["detail"]
        assert "积分" in r.json()["text"]["zh"]


def test_a_rated_room_keeps_a_seat_for_a_player(site: TestClient) -> None:
    r = site.post("/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "rated": True})
    code, host = r.json()["code"], r.json()["host_token"]
    refused = site.post(f"/api/rooms/{code}/bots", json={"token": host, "seat": 0, "tier": "greedy"})
    assert refused.status_code == 409 and refused.json()["error"] == "not_ratable"
    assert site.get(f"/api/rooms/{code}").json()["seats"][0]["kind"] == "empty"


def test_a_rated_seat_needs_a_logged_in_account_and_its_csrf_token(site: TestClient) -> None:
    code = rated_room(site, [None, "greedy", "greedy", "greedy"])
    guest = site.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "guest"})
    assert guest.status_code == 401 and guest.json()["error"] == "not_logged_in"
    csrf = signup(site, "Alice", "爱丽丝")
    forged = site.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "x"})
    assert forged.status_code == 403 and forged.json()["error"] == "csrf"
    assert site.get(f"/api/rooms/{code}").json()["seats"][0]["kind"] == "empty"  # nothing changed
    sit(site, code, 0, csrf)
    seat = site.get(f"/api/rooms/{code}").json()["seats"][0]
    assert seat["name"] == "爱丽丝" and seat["account"] is True  # the account's name, not the one typed
    again = site.post(f"/api/rooms/{code}/join", json={"seat": 2, "name": ""}, headers={"X-CSRF-Token": csrf})
    assert again.status_code == 409 and again.json()["error"] in ("seat_taken", "already_seated")


def test_a_rated_match_against_bots_moves_only_the_human(site: TestClient) -> None:
    csrf = signup(site, "Alice")
    code = rated_room(site, [None, "greedy", "heuristic", "greedy"], max_deals=2)
    tok = sit(site, code, 0, csrf)
    room = play_to_the_end(site, code, [tok])
    flush(site)
    me = site.get("/api/users/alice").json()
    assert me["you"] is True and [r["preset"] for r in me["ratings"]] == ["competition"]
    (rating,) = me["ratings"]
    assert rating["matches"] == 1 and rating["deals"] == 2 and rating["mu"] != MU
    (match,) = me["matches"]
    assert room["replay_id"] is not None and match["replay_id"] == room["replay_id"]
    assert match["seats"][2] == {"kind": "bot", "tier": "heuristic", "rating": 2000}
    assert len(me["history"]["competition"]) == 1
    board = site.get("/api/leaderboard?preset=competition").json()
    assert [p["username"] for p in board["players"]] == ["Alice"] and board["total"] == 1
    assert {b["tier"]: b["mu"] for b in board["bots"]} == BOT_MU  # the bots stay where they were
    assert all(b["fixed"] and b["plus_minus"] == 0 for b in board["bots"])
    # the account played that replay: it is among its games
    with make_session_factory(site.app.state.service.store.engine)() as s:  # type: ignore[attr-defined]
        assert s.scalar(select(func.count()).select_from(UserReplay)) == 1
    # the pages say the same, in both languages
    page = site.get("/u/Alice?lang=zh")
    assert page.status_code == 200 and "等级分走势" in page.text and f"/replay/{match['replay_id']}" in page.text
    assert "<svg" in page.text and 'class="chart"' in page.text and "None" not in page.text
    assert "启发式" in page.text  # the heuristic partner, named in Chinese
    # the match's deals as a score after a colon, which reads right for one deal as for many
    won, lost = match["deals_won"], match["deals_lost"]
    assert f"· {won}–{lost}副 ·" in page.text
    assert f"· deals: {won}–{lost} ·" in site.get("/u/Alice?lang=en").text
    lb = site.get("/leaderboard?preset=competition&lang=en")
    assert lb.status_code == 200 and "Bots (fixed ratings)" in lb.text and "/u/Alice" in lb.text and ">2000<" in lb.text


def test_an_unrated_match_changes_no_rating(site: TestClient) -> None:
    signup(site, "Bob")
    r = site.post("/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "max_deals": 1, "timer": 0})
    code = r.json()["code"]
    tok = site.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "Bob"}).json()["token"]
    room = play_to_the_end(site, code, [tok])
    assert room["status"] == "over" and room["rated"] is False
    flush(site)
    assert site.get("/api/users/bob").json()["ratings"] == []
    assert site.get("/api/leaderboard").json()["players"] == []


def test_two_accounts_a_private_replay_and_a_deleted_account(site: TestClient) -> None:
    alice_csrf = signup(site, "Alice")
    bob = TestClient(site.app)
    bob_csrf = signup(bob, "Bob")
    code = rated_room(site, [None, "random", None, "random"])
    tokens = [sit(site, code, 0, alice_csrf), sit(bob, code, 2, bob_csrf)]
    play_to_the_end(site, code, tokens)
    flush(site)
    alice = site.get("/api/users/Alice").json()
    assert alice["matches"][0]["seats"][2]["username"] == "Bob"
    assert alice["matches"][0]["replay_id"] is not None  # her own page: her replay's link
    seen_by_bob = bob.get("/api/users/Alice").json()
    assert seen_by_bob["you"] is False and seen_by_bob["matches"][0]["replay_id"] is None  # private: not his to share
    anonymous = TestClient(site.app).get("/api/users/Alice").json()
    assert anonymous["matches"][0]["replay_id"] is None
    # partners both moved alike
    ra, rb = alice["ratings"][0], bob.get("/api/users/Bob").json()["ratings"][0]
    assert ra["mu"] == pytest.approx(rb["mu"]) and ra["matches"] == rb["matches"] == 1
    # Bob deletes his account: his page and his place on the board go, Alice's match names nobody
    r = bob.request("DELETE", "/api/me", json={"password": PASSWORD}, headers={"X-CSRF-Token": bob_csrf})
    assert r.status_code == 200, r.text
    gone = site.get("/api/users/Bob")
    assert gone.status_code == 404 and gone.json()["error"] == "no_player" and "Bob" in gone.json()["text"]["zh"]
    assert site.get("/u/Bob").status_code == 404
    assert [p["username"] for p in site.get("/api/leaderboard").json()["players"]] == ["Alice"]
    assert site.get("/api/users/Alice").json()["matches"][0]["seats"][2] == {"kind": "deleted"}
    assert "已注销的账号" in site.get("/u/Alice?lang=zh").text
    with make_session_factory(site.app.state.service.store.engine)() as s:  # type: ignore[attr-defined]
        bob_id = s.scalar(select(rt.RatedMatch.seat2_user))
        assert bob_id is not None  # the match keeps the anonymous id in its seat…
        assert s.scalar(select(func.count()).select_from(rt.PlayerRating).where(rt.PlayerRating.user_id == bob_id)) == 0
        assert s.scalar(select(func.count()).select_from(rt.RatingHistory)
                        .where(rt.RatingHistory.user_id == bob_id)) == 0  # …and his ratings are gone
        assert s.scalar(select(func.count()).select_from(rt.RatingHistory)) == 1  # Alice's stays


def test_a_player_with_no_matches_and_bad_requests(site: TestClient) -> None:
    signup(site, "Carol", "卡萝")
    me = site.get("/api/users/carol").json()
    assert me["ratings"] == [] and me["matches"] == [] and me["history"] == {} and me["favourite_presets"] == []
    page = site.get("/u/Carol", headers={"Accept-Language": "zh-CN"})
    assert page.status_code == 200 and "还没有积分赛" in page.text and "卡萝" in page.text
    assert "No rated matches yet" in site.get("/u/Carol?lang=en").text
    avatar = site.get("/u/carol/avatar.svg")
    assert avatar.status_code == 200 and avatar.headers["content-type"].startswith("image/svg+xml")
    missing = site.get("/api/users/nobody")
    assert missing.status_code == 404 and missing.json()["error"] == "no_player"
    assert site.get("/u/nobody?lang=zh").status_code == 404 and "没有名为 nobody 的玩家" in site.get("/u/nobody?lang=zh").text
    bad = site.get("/api/leaderboard?preset=bridge")
    assert bad.status_code == 404 and bad.json()["error"] == "no_preset"
    assert site.get("/leaderboard?preset=bridge").status_code == 404
    assert site.get("/api/leaderboard?page=0").status_code == 422
    empty = site.get("/leaderboard?lang=zh")
    assert empty.status_code == 200 and "还没有积分赛" in empty.text and "机器人（固定等级分）" in empty.text
    # the header's link to the page itself is marked as the current page's
    assert 'href="/leaderboard?lang=zh" data-nav="leaderboard" aria-current="page">排行榜</a>' in empty.text
    own = site.get("/u/carol?lang=zh").text  # the account's own page is the account's: its name marked
    assert 'href="/leaderboard?lang=zh" data-nav="leaderboard">排行榜</a>' in own
    assert 'data-nav="account" class="logged-in" aria-current="page">卡萝</a>' in own


def test_the_avatar_and_the_chart_are_drawn_here() -> None:
    assert avatar_svg(7) == avatar_svg(7) != avatar_svg(8)  # deterministic, one per account
    assert avatar_svg(7).startswith("<svg") and "rect" in avatar_svg(7)
    points = [{"rating": 1000 + 50 * i, "estimate": 2000, "plus_minus": 600 - 50 * i, "at": f"2026-03-0{i + 1}T00:00",
               "result": "win" if i % 2 else "loss"} for i in range(5)]
    chart = rating_chart(points, lambda m: m)
    assert chart.count("<circle") == 5 and "<polyline" in chart and 'data-points="5"' in chart
    assert rating_chart([], lambda m: m) == ""
    assert rating_chart(points[:1], lambda m: m).count("<circle") == 1


def test_the_accounts_bench_runs_at_a_tiny_size(tmp_path: Path) -> None:
    report = run_accounts_bench(f"sqlite:///{tmp_path / 'bench.sqlite3'}", accounts=12, matches=40, requests=3, seed=2)
    assert report["accounts"] == 12 and report["matches"] == 40 and report["database"] == "sqlite"
    for kind in ("leaderboard_api", "leaderboard_page", "leaderboard_deep_page", "player_api", "player_page"):
        assert report[kind]["p50_ms"] > 0 and report[kind]["p99_ms"] >= report[kind]["p50_ms"]
    assert "player page" in format_accounts_report(report) and "player_page" not in format_accounts_report(report)


def test_the_bot_ratings_come_from_the_arena_files_and_a_fresh_run() -> None:
    arena = Path(__file__).resolve().parents[2] / "docs" / "arena"
    files = [arena / "heuristic-vs-greedy.jsonl.gz", arena / "search-1s-vs-heuristic.jsonl.gz",
             arena / "search-0.1s-vs-heuristic.jsonl.gz"]  # the last: another budget than the rooms' bots, left out
    report = run_bot_ratings(files, pairs=20, seed=1)
    rates = report["deal_win_rates"]
    assert rates["heuristic vs greedy"] == pytest.approx(ARENA_DEAL_WIN_RATES[("heuristic", "greedy")])
    assert rates["search vs heuristic"] == pytest.approx(ARENA_DEAL_WIN_RATES[("search", "heuristic")])
    assert rates["greedy vs random"] == 0.975  # 20 seeded pairs (the published figure is of 1,000: 0.964)
    assert report["sources"]["search vs heuristic"] == {"file": "search-1s-vs-heuristic.jsonl.gz", "deal_pairs": 1000}
    assert report["sources"]["greedy vs random"] == {"played_here": True, "deal_pairs": 20, "seed": 1}
    assert report["mu"] == {**BOT_MU, "random": 12.71}  # only the freshly played gap differs
    text = format_bot_ratings(report)
    assert "greedy vs random" in text and "published 25.00" in text
    few = run_bot_ratings([], pairs=3, seed=1)  # three pairs all go to greedy: no finite gap, and it says so
    assert few["mu"] is None and "play more pairs" in format_bot_ratings(few)

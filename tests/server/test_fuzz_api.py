"""Fuzzing the REST API from its OpenAPI schema (schemathesis, in-process over ASGI: no network).

Every operation of the app's schema (the lobby, replays, translations and the tournament desk) gets
generated calls, valid ones (positive) and invalid ones (negative). Three times in four each field is
aimed at something that exists — a real room code, seat token or host token, a stored replay, a paired
tournament table with its PIN or the arbiter's key — so the fuzz reaches past "404 no such room".
Every answer must be below 500, and every 4xx must say what is wrong: on ``/api/`` a JSON object with
an ``error`` or ``detail`` naming the problem; on the desk's HTML pages a page with a message.

Deterministic (hypothesis derandomized, no example database) and bounded: each generation mode makes
a fixed number of calls per operation (a few seconds on the 2-core machine).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import Case, GenerationMode
from schemathesis.python import asgi

from guandan.agents import make_agent
from guandan.agents.runner import run_match
from guandan.core import record
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import preset
from guandan.server.app import create_app
from guandan.server.table import Settings
from guandan.tournament.desk import Desk
from guandan.tournament.model import EventConfig

pytestmark = pytest.mark.timeout(180)

PER_OPERATION = {GenerationMode.POSITIVE: 30, GenerationMode.NEGATIVE: 20}  # examples asked per operation
MIN_CALLS = {GenerationMode.POSITIVE: 600, GenerationMode.NEGATIVE: 400}  # together: well over 1,000
SECRET = "fuzz-arbiter-key"


@dataclass
class Targets:
    """Things that exist, for the fuzz to aim at."""

    codes: list[str] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)  # seat tokens and host tokens
    replays: list[str] = field(default_factory=list)
    tid: int = 0
    pins: list[str] = field(default_factory=list)


def _finished_record() -> str:
    match = new_match(preset("competition"), 5, MatchConfig(max_deals=1))
    run_match(match, [make_agent("greedy", seed=s) for s in range(4)])
    return record.dumps(match, players=["a", "b", "c", "d"])


def _targets(app: FastAPI, db_url: str) -> Targets:
    t = Targets()
    with asgi.get_client(app) as c:  # the app's lifespan starts here and lasts through the fuzz
        for bots, start in (([None, "greedy", "greedy", "greedy"], False), ([None, None, "greedy", None], False),
                            ([None, "greedy", "greedy", "greedy"], True)):
            r = c.post("/api/rooms", json={"bots": bots, "timer": 0, "max_deals": 2})
            assert r.status_code == 201, r.text
            code = r.json()["code"]
            t.codes.append(code)
            t.tokens.append(r.json()["host_token"])
            tok = c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "fuzz"}).json()["token"]
            t.tokens.append(tok)
            if start:  # a match in progress, waiting on the absent seat 0 (its grace is an hour)
                assert c.post(f"/api/rooms/{code}/ready", json={"token": tok}).status_code == 200
        r = c.post("/api/replays", data=_finished_record().encode(), headers={"Content-Type": "application/json"})
        assert r.status_code == 201, r.text
        t.replays.append(r.json()["id"])
    desk = Desk.open(db_url)
    t.tid = desk.create(EventConfig(name="Fuzz Cup", rounds=2), secret=SECRET)
    for i in range(1, 6):
        desk.register(t.tid, f"T{i}", [f"P{i}a", f"P{i}b"], rating=float(100 - i))
    desk.pair_next(t.tid)
    st_ = desk.state(t.tid)
    t.pins = [st_.team_code(1, n, side) for n in (1, 2) for side in (0, 1)]
    desk.engine.dispose()
    return t


def _settings() -> Settings:
    """No rate limit on creates and joins (the fuzz is one address), heavy work on one thread, and tables
    that wait an hour for an absent player, so no match plays itself out in the background while the
    fuzz runs (each only where this server has the setting)."""
    wanted: dict[str, Any] = {"bot_delay_ms": 0, "join_rate_per_min": 1e9, "join_burst": 1e9,
                              "disconnect_grace_s": 3600.0, "workers": 0}
    names = {f.name for f in dataclasses.fields(Settings)}
    return Settings(**{k: v for k, v in wanted.items() if k in names})


@pytest.fixture
def fuzz_app(tmp_path: Path) -> Iterator[tuple[FastAPI, Targets]]:
    db_url = f"sqlite:///{tmp_path / 'fuzz.sqlite3'}"
    app = create_app(db_url, _settings())
    targets = _targets(app, db_url)
    try:
        yield app, targets
    finally:
        asgi.shutdown_lifespans()  # the app's lifespan, started by schemathesis's ASGI client


AIM = st.sampled_from([True, True, True, False])  # each field: aimed three times in four, else as generated


def _aim(case: Case, t: Targets, pick: st.DataObject) -> None:
    """Point the fields of a generated call at things that exist, each on its own draw (a real room with a
    forged token, a real tournament with a table number that is not), keeping the rest as generated."""
    path = case.path_parameters or {}
    query = case.query if isinstance(case.query, dict) else {}
    body = case.body if isinstance(case.body, dict) else {}
    targets: list[tuple[dict[str, Any], str, st.SearchStrategy[Any]]] = [
        (path, "code", st.sampled_from(t.codes)), (path, "replay_id", st.sampled_from(t.replays)),
        (path, "tid", st.just(t.tid)), (path, "round_no", st.just(1)), (path, "table_no", st.sampled_from([1, 2])),
        (query, "key", st.just(SECRET)), (query, "token", st.sampled_from(t.tokens)),
        (body, "token", st.sampled_from(t.tokens)), (body, "tokens", st.lists(st.sampled_from(t.tokens), max_size=3)),
        (body, "key", st.just(SECRET)), (body, "code", st.sampled_from(t.pins))]
    for where, name, value in targets:
        if name in where and pick.draw(AIM):
            where[name] = pick.draw(value)


def _says_why(status: int, content_type: str, text: str, api: bool) -> str | None:
    """None when a 4xx answer names its problem, else what is wrong with it."""
    if content_type.startswith("application/json"):
        try:
            body = json.loads(text)
        except ValueError:
            return "a JSON content type with a body that is not JSON"
        if not isinstance(body, dict):
            return "an error that is not a JSON object"
        why = body.get("error") or body.get("detail")
        if isinstance(why, list):  # FastAPI's validation errors: each names its location and problem
            if not why or not all(isinstance(e, dict) and e.get("msg") and "loc" in e for e in why):
                return "a validation error without its location and message"
            return None
        if not isinstance(why, str) or not why.strip():
            return "a JSON error without an error or detail text"
        return None
    if api:
        return f"a {status} from the JSON API that is not JSON ({content_type or 'no content type'})"
    if content_type.startswith("text/html") and text.strip():
        return None
    return f"a {status} page with no message ({content_type or 'no content type'})"


def _fuzz(op: Any, mode: GenerationMode, targets: Targets, calls: dict[str, int], statuses: dict[int, int],
          problems: list[str]) -> None:
    """Up to ``PER_OPERATION[mode]`` generated calls of one operation, each checked as it answers."""
    calls.setdefault(op.label, 0)

    @settings(max_examples=PER_OPERATION[mode], derandomize=True, database=None, deadline=None,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    @given(case=op.as_strategy(generation_mode=mode), pick=st.data())
    def call(case: Case, pick: st.DataObject) -> None:
        _aim(case, targets, pick)
        response = case.call()
        calls[op.label] += 1
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
        where = f"{case.method} {case.formatted_path} -> {response.status_code}"
        if response.status_code >= 500:
            problems.append(f"{where}: a server error: {response.text[:300]}")
        elif response.status_code >= 400:
            content_type = next(iter(response.headers.get("content-type", [])), "")
            why = _says_why(response.status_code, content_type, response.text, case.path.startswith("/api/"))
            if why is not None:
                problems.append(f"{where}: {why}: {response.text[:300]}")

    try:
        call()
    except Unsatisfiable:  # nothing to make invalid (GET /api/meta takes nothing, any text is a room code)
        assert mode == GenerationMode.NEGATIVE, op.label


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=lambda m: m.value)
def test_generated_calls_get_no_server_error_and_every_refusal_says_why(
        fuzz_app: tuple[FastAPI, Targets], mode: GenerationMode) -> None:
    app, targets = fuzz_app
    schema = schemathesis.openapi.from_dict(app.openapi())  # works whether or not /openapi.json is served
    schema.app = app  # calls go to the app in-process, as schemathesis.openapi.from_asgi sets it up
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 20
    calls: dict[str, int] = {}
    statuses: dict[int, int] = {}
    problems: list[str] = []
    for op in operations:
        _fuzz(op, mode, targets, calls, statuses, problems)
    total = sum(calls.values())
    print(f"\n{mode.value}: {total} calls over {len(operations)} operations; statuses {dict(sorted(statuses.items()))}")
    assert not problems, "\n".join(problems[:20])
    assert total >= MIN_CALLS[mode], calls
    if mode == GenerationMode.POSITIVE:
        assert all(n > 0 for n in calls.values()), calls
    assert any(200 <= s < 300 for s in statuses), statuses  # the fuzz reached past the refusals


def test_what_the_fuzz_found_stays_fixed(fuzz_app: tuple[FastAPI, Targets]) -> None:
    """The fuzz's finds, pinned: each of these was a 500."""
    app, t = fuzz_app
    with asgi.get_client(app) as c:
        # a tournament number past SQL's INTEGER could not even be bound (OverflowError)
        assert c.get(f"/t/{2**70}/standings").status_code == 404
        r = c.get(f"/api/t/{2**70}/status")
        assert r.status_code == 404 and "no tournament" in r.json()["error"]
        # a key or PIN with non-ASCII characters: hmac.compare_digest refuses such str (TypeError)
        assert c.get(f"/t/{t.tid}/arbiter", params={"key": "密钥"}).status_code == 403
        r = c.get(f"/api/t/{t.tid}/log", params={"key": "clé"})
        assert r.status_code == 403 and "key" in r.json()["error"]
        r = c.post(f"/api/t/{t.tid}/table/1/2/result", json={"code": "１２３４５６", "levels": ["A", "6"]})
        assert r.status_code == 400 and "6 digits (0–9)" in r.json()["error"]  # full-width digits are no code
        page = c.post(f"/t/{t.tid}/table/1/2/code", data={"code": "é"})
        assert page.status_code == 400 and "队伍代码是6位数字" in page.text

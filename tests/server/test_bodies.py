"""Request bodies: too large ones and JSON with half a surrogate pair are refused before any route."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from guandan.server.bodies import BODY_LIMIT, lone_surrogate
from guandan.server.replays import MAX_RECORD_BYTES

from .conftest import new_room


def test_a_lone_surrogate_escape_is_found_and_a_pair_or_an_escaped_backslash_is_not() -> None:
    for text in (r'"\ud800"', r'"\udc00"', r'"a\ud83db"', r'"\ud83d\ud83d"', r'"\ude00\ud83d"', r'"\\\ud800"',
                 r'"\uD800"', r'"\ud83d" "\ude00"'):
        assert lone_surrogate(text.encode()), text
    for text in (r'"\ud83d\ude00"', r'"\uD83D\uDE00"', r'"\\ud800"', r'"\\\\ud800"', r'"\u00e9 \u4e2d"', '"中文"',
                 r'"\\\ud83d\ude00"', ""):
        assert not lone_surrogate(text.encode()), text


def refused(r: object, status: int, code: str) -> dict[str, str]:
    from httpx2 import Response
    assert isinstance(r, Response)
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"] == code and body["text"]["zh"] and body["text"]["en"]
    assert r.headers["x-content-type-options"] == "nosniff"  # the app's headers on the guard's answers too
    text: dict[str, str] = body["text"]
    return text


def test_half_a_surrogate_pair_is_refused_wherever_it_is_sent(client: TestClient) -> None:
    code = new_room(client)
    bodies = [("/api/rooms", r'{"bots": [null, "\ud800", null, null]}', "“bots”"),
              ("/api/rooms", r'{"rules": {"\ud800": 1}}', "“rules”"),
              (f"/api/rooms/{code}/join", r'{"seat": 0, "name": "a\udc00"}', "“name”"),
              ("/api/replays", r'{"version": 1, "players": ["\ud800"]}', "“players”")]
    for path, body, field in bodies:
        text = refused(client.post(path, content=body, headers={"content-type": "application/json"}), 422,
                       "bad_request")
        assert text["en"].startswith(f"The field {field}") and "half of a surrogate pair" in text["en"], text
        assert "代理对" in text["zh"]
    assert client.get(f"/api/rooms/{code}").json()["seats"][0]["kind"] == "empty"  # nothing changed
    ok = client.post(f"/api/rooms/{code}/join", content=r'{"seat": 0, "name": "\ud83d\ude00"}',
                     headers={"content-type": "application/json"})
    assert ok.status_code == 200 and client.get(f"/api/rooms/{code}").json()["seats"][0]["name"] == "\U0001f600"


def test_a_body_past_its_routes_limit_is_refused_before_it_is_read(client: TestClient) -> None:
    name = "x" * (BODY_LIMIT + 1)
    text = refused(client.post("/api/rooms", json={"name": name}), 413, "too_large")
    assert f"{BODY_LIMIT:,}" in text["en"] and f"{BODY_LIMIT:,}" in text["zh"]
    # a record may be as large as MAX_RECORD_BYTES: past it, refused by size, not as a broken record
    big = json.dumps({"version": 1, "padding": "x" * MAX_RECORD_BYTES})
    text = refused(client.post("/api/replays", content=big, headers={"content-type": "application/json"}), 413,
                   "too_large")
    assert f"{MAX_RECORD_BYTES:,}" in text["en"]
    # streamed without a declared length: counted as it comes
    def chunks() -> object:
        for _ in range(BODY_LIMIT // 1024 + 2):
            yield b"x" * 1024
    refused(client.post("/api/rooms", content=chunks(), headers={"content-type": "application/json"}), 413,
            "too_large")
    small = client.post("/api/replays", json={"not": "a record"})  # under the limit: the route answers
    assert small.status_code == 422 and small.json()["error"] == "bad_record"


def test_a_record_within_the_body_limit_that_is_kept_longer_is_refused_in_the_readers_words(client: TestClient) -> None:
    # sent without spaces the body is within MAX_RECORD_BYTES; written out as the server keeps it (a space after each
    # comma) it is half as long again: refused by size in both languages, no English sentence inside the Chinese
    ones = ",".join("1" * (MAX_RECORD_BYTES // 3))
    body = f'{{"version":1,"padding":[{ones}]}}'
    assert len(body) < MAX_RECORD_BYTES
    text = refused(client.post("/api/replays", content=body, headers={"content-type": "application/json"}), 413,
                   "too_large")
    limit = f"{MAX_RECORD_BYTES:,}"
    assert text["en"] == f"This record is too large: the server keeps records of at most {limit} bytes."
    assert text["zh"] == f"这份牌谱太大：服务器只保存不超过{limit}字节的牌谱。"


def test_a_refusal_quotes_a_long_wrong_input_cut_short(client: TestClient) -> None:
    r = client.post("/api/rooms", json={"name": "x" * 100_000})
    assert r.status_code == 422 and len(r.content) < 2000
    assert r.json()["detail"][0]["input"] == "x" * 200 + "…"

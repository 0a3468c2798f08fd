"""Headers and surface: every answer carries a Content-Security-Policy with no inline script (and no page
has any), refuses framing, sends no referrer and no sniffing; the API's schema and its pages exist only
with --dev (create_app(dev=True))."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from guandan.server.app import STATIC, create_app
from guandan.server.rules_page import page
from guandan.server.table import Settings

from .conftest import new_room

PAGES = ["/", "/r/ABCDEF", "/replay/some-id", "/rules", "/rules?lang=zh"]
OTHER = ["/api/meta", "/static/table.js", "/static/style.css", "/api/rooms/NOPE", "/api/i18n/zh"]


@pytest.fixture
def dev_client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'dev.sqlite3'}", Settings(bot_delay_ms=0, next_deal_s=0), dev=True)) as c:
        yield c


def directives(csp: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in csp.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


@pytest.mark.parametrize("path", PAGES + OTHER)
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code < 500
    csp = directives(r.headers["content-security-policy"])
    assert csp["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval', no other origin
    assert csp["style-src"] == ["'self'"]
    assert csp["default-src"] == ["'self'"] and csp["object-src"] == ["'none'"] and csp["base-uri"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"] and csp["connect-src"] == ["'self'"]
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"


def test_the_tournament_desk_may_use_its_inline_style_but_no_inline_script(client: TestClient) -> None:
    r = client.get("/t/1/standings")
    csp = directives(r.headers["content-security-policy"])
    assert csp["style-src"] == ["'self'", "'unsafe-inline'"] and csp["script-src"] == ["'self'"]


INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"<style\b", re.I), "an inline <style>"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an inline event handler"),
    (re.compile(r"\sstyle\s*=", re.I), "a style attribute"),
    (re.compile(r"javascript:", re.I), "a javascript: URL"),
]


@pytest.mark.parametrize("name", [*sorted(p.name for p in STATIC.glob("*.html")), "rules:zh", "rules:en"])
def test_no_page_has_inline_script_or_style(name: str) -> None:
    text = page(name.split(":")[1]) if name.startswith("rules:") else (STATIC / name).read_text(encoding="utf-8")
    for pattern, what in INLINE:
        assert not pattern.search(text), f"{name} has {what}: {pattern.search(text)}"
    assert re.search(r"<script[^>]*\bsrc=", text), f"{name} loads no script file"


def test_the_api_schema_and_its_pages_only_with_dev(client: TestClient, dev_client: TestClient) -> None:
    for path in ("/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"):
        assert client.get(path).status_code == 404, path
    schema = dev_client.get("/openapi.json")
    assert schema.status_code == 200 and "/api/rooms" in schema.json()["paths"]
    docs = dev_client.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()
    assert "content-security-policy" not in docs.headers  # Swagger UI bootstraps with an inline script
    assert dev_client.get("/redoc").status_code == 200
    assert "content-security-policy" in dev_client.get("/").headers  # every other page keeps its policy
    # the schema is there for tools (the fuzz test) in either mode
    assert "/api/replays/mine" in client.app.openapi()["paths"]  # type: ignore[attr-defined]


def test_a_room_page_and_its_api_answers_keep_the_headers(client: TestClient) -> None:
    code = new_room(client)
    for r in (client.get(f"/r/{code}"), client.get(f"/api/rooms/{code}"), client.post("/api/rooms", json={"timer": 0})):
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
        assert r.headers["referrer-policy"] == "no-referrer"

"""The 规则 / Rules page: both languages, the language choice, escaped raw HTML, the lobby's link."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from guandan.server.rules_page import HEADINGS, choose_lang, page, render_markdown, split_halves

STATIC = Path(__file__).resolve().parents[2] / "src" / "guandan" / "server" / "static"


def _headings(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<h[12][^>]*>(.*?)</h[12]>", html)]


def test_the_page_is_served_in_chinese_and_in_english(client: TestClient) -> None:
    zh = client.get("/rules?lang=zh")
    en = client.get("/rules?lang=en")
    assert zh.status_code == en.status_code == 200
    assert zh.headers["content-type"].startswith("text/html")
    zh_heads, en_heads = _headings(zh.text), _headings(en.text)
    assert "掼蛋规则（中文）" in zh_heads and "Rules of Guandan (English)" not in zh_heads
    assert "Rules of Guandan (English)" in en_heads and "掼蛋规则（中文）" not in en_heads
    assert "5. 牌型与比较（competition、huaian-traditional、huaian-2009）" in zh_heads
    assert "5. Hand types and comparison (competition, huaian-traditional, huaian-2009)" in en_heads
    # the chrome comes from the "web" catalogue, and the switch links to the other language
    assert "<title>规则 · 掼蛋 Guandan</title>" in zh.text and 'aria-current="page">规则</a>' in zh.text
    assert "<title>Rules · 掼蛋 Guandan</title>" in en.text and 'aria-current="page">Rules</a>' in en.text
    assert 'href="/rules?lang=en"' in zh.text and 'href="/rules?lang=zh"' in en.text
    assert '<html lang="zh-CN"' in zh.text and '<html lang="en"' in en.text
    assert 'href="/static/style.css"' in zh.text
    # tables scroll in their own box, and headings get the anchors GitHub gives them
    assert '<div class="table-wrap">\n<table>' in en.text
    assert 'id="rules-of-guandan-english"' in en.text and 'id="掼蛋规则中文"' in zh.text


def test_without_lang_the_browser_language_decides(client: TestClient) -> None:
    r = client.get("/rules", headers={"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"})
    assert r.status_code == 200 and '<html lang="zh-CN"' in r.text
    assert r.headers["content-language"] == "zh" and "Accept-Language" in r.headers["vary"]
    r = client.get("/rules", headers={"Accept-Language": "fr-FR, en;q=0.5, zh;q=0.4"})
    assert '<html lang="en"' in r.text
    assert '<html lang="en"' in client.get("/rules?lang=fr", headers={"Accept-Language": "de"}).text


def test_choose_lang() -> None:
    assert choose_lang("zh", "en") == "zh"
    assert choose_lang("en-GB", "zh") == "en"
    assert choose_lang(None, "en;q=0.3, zh-TW;q=0.9") == "zh"
    assert choose_lang(None, "zh;q=0, en") == "en"
    assert choose_lang("xx", "garbage;q=abc") == "en"
    assert choose_lang(None, None) == "en"


def test_raw_html_in_the_markdown_is_escaped() -> None:
    text = f"{HEADINGS['zh']}\n\n<script>alert(1)</script>\n\n<b onclick=x>bold</b> [x](javascript:alert(1))\n\n" \
           f"{HEADINGS['en']}\n\n<img src=x onerror=alert(2)>\n"
    zh, en = page("zh", text), page("en", text)
    assert "<script>alert" not in zh and "&lt;script&gt;alert(1)&lt;/script&gt;" in zh
    assert "<b onclick" not in zh and 'href="javascript:' not in zh
    assert "<img" not in en and "&lt;img src=x onerror=alert(2)&gt;" in en
    assert "alert(1)" not in en  # each page shows its own half only
    assert "&lt;" in render_markdown("a <i>b</i>") and "<i>" not in render_markdown("a <i>b</i>")


def test_split_halves_needs_both_headings_once() -> None:
    halves = split_halves(f"intro\n{HEADINGS['zh']}\nzh text\n{HEADINGS['en']}\nen text\n")
    assert halves == {"zh": f"{HEADINGS['zh']}\nzh text\n", "en": f"{HEADINGS['en']}\nen text\n"}
    for bad in (f"{HEADINGS['zh']}\n", f"{HEADINGS['zh']}\n{HEADINGS['en']}\n{HEADINGS['en']}\n"):
        try:
            split_halves(bad)
        except ValueError:
            continue
        raise AssertionError(f"accepted {bad!r}")


def test_the_lobby_links_to_the_rules() -> None:
    index = (STATIC / "index.html").read_text(encoding="utf-8")
    header = (STATIC / "site_header.js").read_text(encoding="utf-8")
    assert '<header class="site-header" data-here="home"></header>' in index and "/static/site_header.js" in index
    assert re.search(r'\{ here: "rules", href: "/rules", msgid: "Rules" \}', header)

"""The pages show a refusal in their own language: the lobby's join-by-code, Play now and import, the replay
page's link to no replay, and common.js frameErrorText (which the table calls for WebSocket error frames)
— all from the server's ``text``, never its English detail; a player who joined without a name is listed
as 玩家N."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page

from .conftest import LiveServer

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def zh_page(browser: Browser) -> Iterator[Page]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = ctx.new_page()
    page.add_init_script("localStorage.setItem('guandan:lang', 'zh')")
    yield page
    ctx.close()


def test_lobby_refusals_are_shown_in_chinese(zh_page: Page, live_server: LiveServer) -> None:
    page = zh_page
    page.goto(f"{live_server.url}/")
    page.locator("#join button[type=submit]").click()
    page.wait_for_function("document.getElementById('join-error').textContent !== ''")
    assert page.locator("#join-error").inner_text() == "请先输入房间号。"
    page.fill("#code", "zzzzzz")
    page.locator("#join button[type=submit]").click()
    page.wait_for_function("document.getElementById('join-error').textContent.includes('ZZZZZZ')")
    assert page.locator("#join-error").inner_text() == "没有房间号为ZZZZZZ的房间。"
    # Play now reads the create form's timer: a number the server refuses is told by its field, in Chinese
    page.fill("#timer", "900")
    page.locator("#quick-play").click()
    page.wait_for_function("document.getElementById('quick-error').textContent !== ''")
    assert page.locator("#quick-error").inner_text() == "“出牌限时”一项无效：不能大于600。"
    # the import is a button in the page's language; the browser's own file button ("Choose File") is not drawn
    assert page.locator("[data-testid=import-button]").inner_text() == "导入牌谱…"
    native = page.locator("#import").bounding_box()
    assert native is not None and native["width"] <= 1 and native["height"] <= 1, native
    page.set_input_files("#import", files=[{"name": "x.json", "mimeType": "application/json", "buffer": b"{nope"}])
    page.wait_for_function("document.getElementById('import-error').textContent !== ''")
    assert page.locator("#import-error").inner_text() == "这个文件不是本服务器能重放的牌谱。"
    # JSON that is no record: the server's refusal (bad_record), the same words and what is wrong
    page.evaluate("document.getElementById('import-error').textContent = ''")
    page.set_input_files("#import", files=[{"name": "y.json", "mimeType": "application/json", "buffer": b'{"a": 1}'}])
    page.wait_for_function("document.getElementById('import-error').textContent !== ''")
    assert page.locator("#import-error").inner_text() == (
        "这个文件不是本服务器能重放的牌谱：不是掼蛋记录：'format' 字段须为 \"guandan-record\"")  # and why


def test_frame_error_text_picks_the_pages_language(zh_page: Page, live_server: LiveServer) -> None:
    page = zh_page
    page.goto(f"{live_server.url}/")
    got = page.evaluate("""async () => {
      const m = await import('/static/common.js');
      return [m.frameErrorText({ type: 'error', code: 'stale', message: 'the table is at 3', text: { zh: '甲', en: 'A' } }),
              m.frameErrorText({ type: 'error', code: 'stale', message: 'the table is at 3' })];
    }""")
    assert got == ["甲", "the table is at 3"]  # the English message only from a frame without a text


def test_a_link_to_no_replay_says_so(zh_page: Page, live_server: LiveServer) -> None:
    page = zh_page
    page.goto(f"{live_server.url}/replay/nope")
    page.wait_for_function("document.getElementById('match-summary').textContent !== ''")
    assert page.locator("#match-summary").inner_text() == "没有回放nope。"


def test_an_unnamed_player_is_listed_as_player_n(zh_page: Page, live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=30) as c:
        r = c.post("/api/rooms", json={"bots": [None, "greedy", None, None], "name": "无名局", "timer": 0})
        code = str(r.json()["code"])
        assert c.post(f"/api/rooms/{code}/join", json={"seat": 2}).status_code == 200
    page = zh_page
    page.goto(f"{live_server.url}/")
    entry = page.locator(f"[data-testid=open-room][data-code='{code}']")
    entry.wait_for()
    assert "玩家3" in entry.inner_text()

"""A move the engine refuses, as the player reads it on a phone held sideways: the engine's reason in the page's
language, read whole without a tap, in the table's message line or, where that line cuts it, above the hand. The page
offers only legal plays: the refused one is sent through the page's own socket, as a hand-made frame is."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from .conftest import LiveServer, resize
from .test_browser_crowded_table import shoot
from .test_browser_table import seat_me

pytestmark = pytest.mark.timeout(300)

# the page's socket, kept where a test can send on it (table.js is a module: its own send() is out of reach), and
# the last frame of the table it brought
KEEP_SOCKET = """
window.WebSocket = class extends WebSocket {
  constructor(...args) {
    super(...args);
    window.tableSocket = this;
    this.addEventListener('message', (e) => { const f = JSON.parse(e.data); if (f.view) window.lastFrame = f; });
  }
};
"""
SEND = "(frame) => window.tableSocket.send(JSON.stringify(frame))"
# the words of the message beside the buttons as the player reads them without a tap: the line itself where it is not
# cut, else the box above the hand, if shown whole inside the window ("" where neither is)
READ_WHOLE = """() => {
  const msg = document.getElementById('msg'), full = document.getElementById('msg-full');
  if (msg.scrollHeight <= msg.clientHeight + 1 && msg.scrollWidth <= msg.clientWidth + 1) return msg.textContent;
  if (!full.getClientRects().length) return '';
  const b = full.getBoundingClientRect();
  const inside = b.left >= 0 && b.top >= 0 && b.right <= innerWidth && b.bottom <= innerHeight;
  return inside && full.scrollHeight <= full.clientHeight + 1 ? full.textContent : '';
}"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with tempfile.TemporaryDirectory(prefix="guandan-refusal-") as d, LiveServer(f"sqlite:///{d}/web.sqlite3") as srv:
        yield srv


def _refused_on_show(page: Page) -> str:
    """Play on by the hint until the table's top is a single another seat played, then send a single of the hand
    that does not beat it; returns the message line once it says why."""
    page.add_init_script(KEEP_SOCKET)
    page.reload()
    page.wait_for_function("document.body.dataset.status === 'playing' && window.tableSocket")
    for _ in range(60):
        page.wait_for_function("window.lastFrame && window.lastFrame.view.to_move === 0 && "
                               "window.lastFrame.view.legal.length > 0", timeout=30000)
        frame = page.evaluate("window.lastFrame")
        view = frame["view"]
        top = view["top"]
        if top is not None and top["combo"]["type"] == "single":
            legal = {tuple(a["cards"]) for a in view["legal"] if a["kind"] == "play"}
            card = next((c for c in view["hand"] if (c,) not in legal), None)
            if card is not None:
                page.evaluate(SEND, {"type": "act", "kind": "play", "cards": [card], "combo": None, "seq": frame["seq"]})
                page.wait_for_function("document.getElementById('msg').classList.contains('notice')")
                return str(page.locator("#msg").inner_text())
        first = view["legal"][0]
        page.evaluate(SEND, {"type": "act", "kind": first["kind"], "cards": first["cards"], "combo": first.get("combo"),
                             "seq": frame["seq"]})
        page.wait_for_function(f"window.lastFrame.seq > {frame['seq']}")
    raise AssertionError("no turn over a single came")


@pytest.mark.parametrize("size", [(844, 390), (667, 375)], ids=["844x390", "667x375"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_refused_move_says_why_in_the_pages_language(browser: Browser, server: LiveServer, lang: str,
                                                        size: tuple[int, int]) -> None:
    page = seat_me(browser, server, lang)
    try:
        resize(page, *size)
        text = _refused_on_show(page)
        if lang == "zh":
            # the play beaten is named against 管不上 (管不上单张 大王), a name in Chinese taking no space beside Chinese
            assert re.fullmatch(r"这步不能走：单张 .+ 管不上单张 .+。", text), text
        else:
            assert re.fullmatch(r"This move is not allowed: single .+ does not beat single .+\.", text), text
        # the refusal stays a few seconds, read whole without a tap: beside the buttons, or above the hand where the
        # row there cuts it (held sideways at 667 px, English's "… does not beat single 9" was cut to its start)
        assert page.evaluate(READ_WHOLE) == text, size
        shoot(page, f"refusal-{lang}-{size[0]}x{size[1]}")
    finally:
        page.context.close()

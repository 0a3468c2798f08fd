"""`guandan bench page`: how heavy the table page is and how soon it answers, in chromium on loopback.

* **Page weight**: every file a page loads, found from the page itself (:func:`page_weight`): its
  scripts and style sheets, the ES modules they import (followed recursively), what the style sheets
  import or reference (fonts, images), and the sounds the table preloads.
* **Usable**: a practice room already started, seat 0 waiting for its turn; a fresh browser context per
  run (nothing cached) opens the room's page. The time is the page's own ``performance.now()`` (from the
  start of the navigation) at the first frame in which the hand's 27 cards are in the page and the play
  button is shown. One load before the runs is not counted (chromium's first renderer starts slower).
* **Tap → selected**: a second room whose seat 0 is on 托管, so that the bots play on and frames keep
  arriving. Just after another seat's play arrives (the page re-rendering the table for it), a real tap
  (Playwright's touchscreen, a trusted event through chromium's input pipeline) lands on a card of the
  hand; the page records the pointerdown's ``timeStamp`` and, from a MutationObserver, the
  ``performance.now()`` at which that card carries the ``selected`` class.

The server runs in this process (a thread; the measurements are taken in the page, so Playwright's own
waiting does not enter them).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ..cliutil import pad, width
from ..i18n import N_
from .live import LiveServer, chromium, practice_room, storage_script
from .table import Settings

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

STATIC = Path(__file__).parent / "static"
URL_PREFIX = "/static/"
LIMIT_BYTES = 600 * 1024
# what a page loads that no file names statically: table.js preloads every sound (sound.js `preload`)
PRELOADED = {"table.html": ("sounds/*.wav",)}
SOUND_MODULE = "sound.js"


# --- page weight -------------------------------------------------------------------------------------
@dataclass
class Weight:
    page: str
    files: dict[str, int] = field(default_factory=dict)  # path under the static folder -> bytes

    @property
    def total(self) -> int:
        return sum(self.files.values())

    def largest(self, n: int = 5) -> list[tuple[str, int]]:
        return sorted(self.files.items(), key=lambda kv: (-kv[1], kv[0]))[:n]

    def describe(self, n: int = 5) -> str:
        big = ", ".join(f"{p} {b / 1024:.1f} KB" for p, b in self.largest(n))
        return f"{self.page}: {self.total:,} bytes ({self.total / 1024:.1f} KB) in {len(self.files)} files; largest: {big}"


class _HtmlRefs(HTMLParser):
    """The URLs a page's markup loads: scripts, style sheets, icons, preloads, images, media."""

    LINK_RELS: ClassVar[frozenset[str]] = frozenset(
        {"stylesheet", "icon", "preload", "modulepreload", "apple-touch-icon", "manifest"})

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.inline_scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "script":
            if a.get("src"):
                self.urls.append(a["src"])
            else:
                self._in_script = True
        elif tag == "link" and self.LINK_RELS & set(a.get("rel", "").lower().split()) and a.get("href"):
            self.urls.append(a["href"])
        elif tag in ("img", "audio", "video", "source", "input") and a.get("src"):
            self.urls.append(a["src"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline_scripts.append(data)


_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_LINE_COMMENT = re.compile(r"^\s*//.*$", re.M)  # whole-line comments only: "//" inside a string is not one
# import x from "./a.js"; import { a,\n b } from "./a.js"; import * as n from "./a.js"; import "./a.js";
# export { a } from "./a.js"; export * from "./a.js"; export * as n from "./a.js"
_STATIC_IMPORT = re.compile(r"""(?:^|[;}\n])\s*(?:import|export)\s*(?:[^'"`;()]*?\bfrom\s*)?(["'])([^"'\n]+)\1""")
_DYNAMIC_IMPORT = re.compile(r"""\bimport\s*\(\s*(["'])([^"'\n]+)\1\s*\)""")
_STATIC_URL_IN_JS = re.compile(r"""(["'`])(/static/[^"'`$\n]+)\1""")  # a whole literal URL, no template part
_CSS_IMPORT = re.compile(r"""@import\s+(?:url\(\s*)?(["']?)([^"')\s;]+)\1""")
_CSS_URL = re.compile(r"""url\(\s*(["']?)([^"')]+)\1\s*\)""")


def js_imports(source: str) -> list[str]:
    """The module specifiers a script imports or re-exports, statically or by ``import()`` of a literal."""
    text = _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub("", source))
    found = [m.group(2) for m in _STATIC_IMPORT.finditer(text)] + [m.group(2) for m in _DYNAMIC_IMPORT.finditer(text)]
    return list(dict.fromkeys(found))


def js_static_urls(source: str) -> list[str]:
    """Literal ``/static/…`` URLs in a script (an image or sound it loads by name)."""
    return list(dict.fromkeys(m.group(2) for m in _STATIC_URL_IN_JS.finditer(_BLOCK_COMMENT.sub("", source))))


def css_refs(source: str) -> list[str]:
    text = _BLOCK_COMMENT.sub("", source)
    found = [m.group(2) for m in _CSS_IMPORT.finditer(text)] + [m.group(2) for m in _CSS_URL.finditer(text)]
    return [u for u in dict.fromkeys(found) if not u.startswith(("data:", "#"))]


def _resolve(url: str, base: str, root: Path, *, module: bool) -> str:
    """``url`` as seen from the file ``base`` (a path under ``root``), as a path under ``root``. Only the
    app's own static files count: anything else is an error (the pages load nothing from elsewhere). A
    ``module`` specifier is relative only with ./ or ../ (a bare name is a package the browser cannot
    find); a style sheet's or the markup's URL is relative unless it says otherwise."""
    url = url.split("#", 1)[0].split("?", 1)[0]
    if url.startswith(URL_PREFIX):
        rel = url[len(URL_PREFIX):]
    elif url.startswith(("./", "../")) or not (module or url.startswith("/") or ":" in url):
        rel = str(Path(base).parent / url)
    else:
        raise ValueError(f"{base}: {url!r} is not a /static/ or relative URL (a bare module name or another site)")
    resolved = (root / rel).resolve()
    if not resolved.is_relative_to(root.resolve()):
        raise ValueError(f"{base}: {url!r} leaves the static folder")
    if not resolved.is_file():
        raise ValueError(f"{base}: {url!r} names no file ({resolved})")
    return resolved.relative_to(root.resolve()).as_posix()


def page_weight(page: str, root: Path = STATIC, preloaded: Iterable[str] | None = None) -> Weight:
    """Every file ``page`` (an HTML file under ``root``) loads, with its size: a breadth-first walk from the
    markup through module imports and style-sheet references. ``preloaded``: glob patterns under ``root``
    the page loads without naming them (default :data:`PRELOADED`); the sounds are added too wherever
    sound.js is imported."""
    weight = Weight(page)
    todo = [page]
    while todo:
        rel = todo.pop(0)
        if rel in weight.files:
            continue
        path = root / rel
        weight.files[rel] = path.stat().st_size
        urls: list[str] = []  # markup and style-sheet URLs
        modules: list[str] = []  # module specifiers
        if rel.endswith(".html"):
            parser = _HtmlRefs()
            parser.feed(path.read_text(encoding="utf-8"))
            urls, modules = parser.urls, [u for s in parser.inline_scripts for u in js_imports(s)]
        elif rel.endswith((".js", ".mjs")):
            source = path.read_text(encoding="utf-8")
            urls, modules = js_static_urls(source), js_imports(source)
        elif rel.endswith(".css"):
            urls = css_refs(path.read_text(encoding="utf-8"))
        todo += [_resolve(u, rel, root, module=False) for u in urls]
        todo += [_resolve(u, rel, root, module=True) for u in modules]
    patterns = list(PRELOADED.get(page, ()) if preloaded is None else preloaded)
    if SOUND_MODULE in weight.files:
        patterns.append("sounds/*.wav")
    for pattern in dict.fromkeys(patterns):
        for extra in sorted(root.glob(pattern)):
            weight.files.setdefault(extra.relative_to(root).as_posix(), extra.stat().st_size)
    return weight


# --- in the browser ----------------------------------------------------------------------------------
# Before the page's own scripts: the first frame in which the hand and the play button are there.
USABLE_PROBE = """(() => {
  let seen = false;
  const ready = () => document.querySelectorAll('[data-testid=hand] [data-testid=card]').length === 27 &&
    [...document.querySelectorAll('[data-testid=play]')].some((b) => b.getClientRects().length > 0);
  const watch = new MutationObserver(() => {
    if (seen || !ready()) return;
    seen = true; watch.disconnect();
    requestAnimationFrame(() => { window.__usable = performance.now(); });  // the frame that draws it
  });
  watch.observe(document, { childList: true, subtree: true, attributes: true });
})();"""

# Before the page's own scripts: when each update arrives and who acted (the socket's listener added in
# its constructor runs before the page's onmessage), and each tap's pointerdown → selected.
TAP_PROBE = """(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (ev) => {
        const f = JSON.parse(ev.data);
        if (f.type !== 'update') return;
        window.__update = { seq: f.seq, seat: f.action.seat, kind: f.action.kind, at: performance.now() };
      });
    }
  };
  window.__taps = [];
  window.addEventListener('pointerdown', (ev) => {
    const card = ev.target.closest && ev.target.closest('[data-testid=hand] [data-testid=card]');
    if (!card) return;
    const index = card.dataset.index, down = ev.timeStamp;
    const arrived = window.__update ? window.__update.at : null;
    const hand = card.closest('[data-testid=hand]');
    const done = () => {
      const now = hand.querySelector(`[data-testid=card][data-index="${index}"]`);
      return now && now.classList.contains('selected');
    };
    const record = () => {
      window.__taps.push({ ms: performance.now() - down, since_update: arrived === null ? null : down - arrived });
    };
    const watch = new MutationObserver(() => { if (done()) { watch.disconnect(); record(); } });
    watch.observe(hand, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
  }, { capture: true });
})();"""

# The centre of the rightmost card not selected (the only one shown whole in the fan), and that it is the
# card under that point.
TAP_TARGET = """() => {
  const cards = [...document.querySelectorAll('[data-testid=hand] [data-testid=card]')]
    .filter((c) => !c.classList.contains('selected'));
  for (const c of cards.reverse()) {
    const r = c.getBoundingClientRect();
    const x = r.left + Math.min(r.width / 2, 10), y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (hit && hit.closest('[data-testid=card]') === c) return [x, y];
  }
  return null;
}"""

PHONE: ViewportSize = {"width": 844, "height": 390}
STEP_MS = 60_000


def _context_page(browser: Browser, storage: dict[str, str], probe: str) -> Page:
    ctx = browser.new_context(viewport=PHONE, has_touch=True, device_scale_factor=1, bypass_csp=True)
    ctx.add_init_script(storage_script(storage))
    ctx.add_init_script(probe)
    page = ctx.new_page()
    page.set_default_timeout(STEP_MS)
    return page


def measure_usable(browser: Browser, url: str, code: str, token: str, runs: int) -> tuple[list[float], list[int]]:
    """Milliseconds to usable per run, and the bytes the browser received for each (every response body).
    One more load comes first and is not counted: chromium's first renderer of a session starts slower,
    which is the browser's start and not the page's."""
    times, received = [], []
    for run in range(runs + 1):
        page = _context_page(browser, {"guandan:lang": "zh", f"guandan:token:{code}": token}, USABLE_PROBE)
        try:
            page.goto(f"{url}/r/{code}")
            page.wait_for_function("window.__usable !== undefined")
            if run == 0:
                continue
            times.append(float(page.evaluate("window.__usable")))
            received.append(int(page.evaluate(
                "performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
                ".reduce((n, e) => n + (e.encodedBodySize || 0), 0)")))
        finally:
            page.context.close()
    return times, received


def measure_taps(browser: Browser, url: str, code: str, token: str, runs: int) -> list[dict[str, float]]:
    """``runs`` taps, each just after another seat's play arrives, seat 0 on 托管 so that play goes on."""
    page = _context_page(browser, {"guandan:lang": "zh", f"guandan:token:{code}": token}, TAP_PROBE)
    try:
        page.goto(f"{url}/r/{code}")
        page.wait_for_function("document.body.dataset.status === 'playing' && "
                               "document.querySelectorAll('[data-testid=hand] [data-testid=card]').length > 0")
        page.locator("#auto").tap()  # 托管 through the page's own button
        last = 0
        while len(taps := page.evaluate("window.__taps")) < runs:
            # polled every frame: the tap follows the play's arrival by about one frame
            page.wait_for_function(f"window.__update && window.__update.seq > {last} && window.__update.seat !== 0 && "
                                   "window.__update.kind === 'play'", polling="raf")
            last = int(page.evaluate("window.__update.seq"))
            target = page.evaluate(TAP_TARGET)
            if target is None:
                continue  # seat 0 is out of cards: the next deal will deal it more
            page.touchscreen.tap(float(target[0]), float(target[1]))
            page.wait_for_function(f"window.__taps.length > {len(taps)}")
        return [{"ms": float(t["ms"]), "since_update": float(t["since_update"] or 0.0)} for t in taps[:runs]]
    finally:
        page.context.close()


def run_page_bench(runs: int = 10, seed: int = 1) -> dict[str, Any]:
    weights = {name: page_weight(name) for name in ("table.html", "index.html")}
    settings = Settings(join_rate_per_min=1e6, join_burst=1e6,
                        # seat 0 closes and reopens its page between runs: 托管 must not take its turn meanwhile
                        disconnect_grace_s=3600.0, unattended_pause_s=3600.0)
    with LiveServer(settings).running() as live, chromium() as browser:
        with live.client() as http:
            # A: the bots play at once up to seat 0's turn, and then wait for it (no timer, no 托管): its hand
            # keeps 27 cards through every run
            code_a, token_a = practice_room(http, seed=seed, name="bench", ready=True, bot_delay_ms=0, first_timer=0)
            # B: seat 0 goes on 托管 from the page, and a play arrives every quarter of a second
            code_b, token_b = practice_room(http, seed=seed + 1, name="bench", ready=True, bot_delay_ms=250,
                                            first_timer=0, next_deal_s=0)
        usable, received = measure_usable(browser, live.url, code_a, token_a, runs)
        taps = measure_taps(browser, live.url, code_b, token_b, runs)
    tap_ms = [t["ms"] for t in taps]
    return {
        "runs": runs,
        "usable_ms_median": round(statistics.median(usable), 1), "usable_ms_max": round(max(usable), 1),
        "tap_ms_median": round(statistics.median(tap_ms), 2), "tap_ms_max": round(max(tap_ms), 2),
        "tap_after_update_ms_median": round(statistics.median(t["since_update"] for t in taps), 1),
        "received_kb_median": round(statistics.median(received) / 1024, 1),
        "weight_kb": {name: round(w.total / 1024, 1) for name, w in weights.items()},
        "limit_kb": LIMIT_BYTES // 1024,
        "usable_ms": [round(x, 1) for x in usable], "tap_ms": [round(x, 2) for x in tap_ms],
    }


def format_page_report(r: dict[str, Any], gettext: Callable[[str], str] = str) -> str:
    """The page bench's figures as a person reads them, in the language of ``gettext`` (a catalogue's)."""
    _ = gettext
    w = r["weight_kb"]
    timed = [
        ("", _(N_("median")), _(N_("max"))),
        (_(N_("usable (ms)")), f"{r['usable_ms_median']:.1f}", f"{r['usable_ms_max']:.1f}"),
        (_(N_("tap → selected (ms)")), f"{r['tap_ms_median']:.2f}", f"{r['tap_ms_max']:.2f}"),
    ]
    described = [
        (_(N_("page weight")), _(N_("table {table} KB, start page {start} KB (limit {limit} KB each)")).format(
            table=f"{w['table.html']:.1f}", start=f"{w['index.html']:.1f}", limit=r["limit_kb"])),
        (_(N_("received on load")), _(N_("{kb} KB (median; the table page with its API answers)")).format(
            kb=f"{r['received_kb_median']:.1f}")),
        (_(N_("runs")), _(N_("{runs} (chromium on loopback, 844×390 touch, a fresh context per load; taps {after} ms "
                             "after another seat's play arrived, median)")).format(
            runs=r["runs"], after=f"{r['tap_after_update_ms_median']:.1f}")),
    ]
    cols = max(width(row[0]) for row in [*timed, *described]) + 2

    def right(text: str) -> str:
        return " " * max(1, 10 - width(text)) + text

    lines = [pad(a, cols) + right(b) + right(c) for a, b, c in timed]
    lines += [pad(label, cols) + value for label, value in described]
    return "\n".join(lines)

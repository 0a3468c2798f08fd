"""`guandan screenshots`: the README's pictures of the web app, made again by one command. It starts the
server in this process on a free port (SQLite in a temporary directory, deterministic seeds) and drives
Debian's chromium through the pages as a player would, then writes PNGs:

* ``lobby``: the start page, with a few open rooms listed;
* ``table``: a deal in progress, the player's turn, the hint's cards selected;
* ``deal-end``: the pause after a deal, every hand turned up, the result;
* ``tribute``: the next deal's tribute, the player to pay or return a card.

Each at phone landscape (844×390, touch), phone portrait (390×844, touch) and desktop (1280×800), in
Chinese; the table and the deal end also in English at 844×390. Files are named
``{part}-{lang}-{width}x{height}.png``; pixels are CSS pixels (device scale 1), which keeps the folder
small and the text readable.

The table is reached deterministically: a practice room (a chosen seed, three heuristic bots), seat 0
sat through the API and made ready by the page's own button, every turn of seat 0 played from the page
by its hint (提示) and play or pass buttons. The seed is the first from ``--seed`` for which the engine,
playing the deal the same way, puts seat 0 in the second deal's tribute (paying or returning), so that
the table waits for the player there. 托管 is never used: the server does not pause after a deal for a
seat on 托管.

Every open page is a socket of seat 0's token (one per size and language): each shows the same table,
and the one at 844×390 in Chinese plays.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..agents import make_agent
from ..core.match import MatchConfig, new_match
from ..core.rules import preset
from ..core.vocab import ActionKind, Phase
from . import workers
from .live import LiveServer, chromium, practice_room, storage_script
from .table import Settings

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PARTS = ("lobby", "table", "deal-end", "tribute")
PLAYER = "小明"
BOT_TIER = "heuristic"
MAX_DEALS = 2  # the second deal is there for its tribute
TABLE_TURN = 3  # the table is shown at seat 0's third turn or later: plays on the table by then
STEP_MS = 90_000  # one step of the game (a turn, a deal's bots), generously: a slow machine is not a failure
HOOK_MS = 20_000  # how long the table page has to show an element it is expected to have
DEAL_END = "document.querySelector('[data-testid=deal-end]')"  # the deal-end panel (a hook of table.js)


@dataclass(frozen=True)
class Size:
    width: int
    height: int
    touch: bool

    @property
    def label(self) -> str:
        return f"{self.width}x{self.height}"


SIZES = (Size(844, 390, True), Size(390, 844, True), Size(1280, 800, False))
PHONE = SIZES[0]


def file_name(part: str, lang: str, size: Size) -> str:
    return f"{part}-{lang}-{size.label}.png"


def expected_files(parts: Sequence[str] = PARTS) -> list[tuple[str, int, int]]:
    """Every file the command writes for ``parts``: (name, width, height) in pixels."""
    out = []
    for part in parts:
        for lang, size in views_for(part):
            out.append((file_name(part, lang, size), size.width, size.height))
    return out


def views_for(part: str) -> list[tuple[str, Size]]:
    zh = [("zh", s) for s in SIZES]
    return [*zh, ("en", PHONE)] if part in ("table", "deal-end") else zh


class HookMissing(RuntimeError):
    """The table page lacks an element the command waits for (a hook of the page's own tests)."""


# --- the seed ------------------------------------------------------------------------------------
def seat0_in_second_tribute(seed: int) -> bool:
    """Whether seat 0 has to pay or return tribute in the second deal of a practice room with ``seed``,
    when seat 0 plays the first deal as the command does: the hint's first action; a play of the hinted
    cards under their first reading in the legal list (the page's first reading button), a pass when the
    hint is one. The bots are the server's: each tier seeded ``{seed}:{seat}``."""
    rules = preset("competition")
    match = new_match(rules, seed, MatchConfig(max_deals=MAX_DEALS))
    bots = {}
    for s in (1, 2, 3):
        bots[s] = make_agent(BOT_TIER, seed=f"{seed}:{s}")
        bots[s].reset(s, rules)
    while match.deal_index <= 1 and match.to_move is not None and not match.ended:
        seat = match.to_move
        deal = match.deal
        assert deal is not None
        if match.deal_index == 1:
            if deal.phase == Phase.PLAY:
                return False
            if seat == 0:
                return True
        legal = match.legal_actions()
        if seat == 0:
            hinted = workers.hint_job(workers.position(match, 0), 3)[0].action
            same = [a for a in legal if a.kind == ActionKind.PLAY and sorted(a.cards) == sorted(hinted.cards)]
            action = same[0] if hinted.kind == ActionKind.PLAY and same else hinted
        else:
            action = bots[seat].choose(match.observation(seat), legal)
        match.apply(action)
    return False


def tribute_seed(start: int, tries: int = 500) -> int:
    for seed in range(start, start + tries):
        if seat0_in_second_tribute(seed):
            return seed
    raise RuntimeError(f"no seed from {start} to {start + tries - 1} puts seat 0 in the second deal's tribute")


# --- pages ---------------------------------------------------------------------------------------
@dataclass
class View:
    page: Page
    lang: str
    size: Size

    def press(self, selector: str) -> None:
        """Tap on a touch screen, click otherwise: as the player would."""
        target = self.page.locator(selector).first
        if self.size.touch:
            target.tap()
        else:
            target.click()

    def shoot(self, out: Path, part: str) -> Path:
        path = out / file_name(part, self.lang, self.size)
        self.page.evaluate("document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => "
                           "requestAnimationFrame(r))))")
        # animations finished at once, so that a transition caught half-way is never what is kept
        self.page.screenshot(path=str(path), animations="disabled", caret="hide")
        return path

    def hint(self) -> int:
        """Press 提示 and wait for its cards to be selected: the number selected (0 for a pass)."""
        shown = self.page.evaluate("Number(document.body.dataset.hints || 0)")
        self.press("[data-testid=hint]")
        self.page.wait_for_function(f"Number(document.body.dataset.hints || 0) > {shown}", timeout=STEP_MS)
        return int(self.page.locator("[data-testid=hand] .card.selected").count())


def _new_view(browser: Browser, base: str, lang: str, size: Size, storage: dict[str, str]) -> View:
    ctx = browser.new_context(viewport={"width": size.width, "height": size.height}, has_touch=size.touch,
                              device_scale_factor=1, bypass_csp=True, locale="zh-CN" if lang == "zh" else "en-US")
    ctx.add_init_script(storage_script({"guandan:lang": lang, **storage}))
    page = ctx.new_page()
    page.set_default_timeout(STEP_MS)
    return View(page, lang, size)


def _wait_hook(page: Page, expression: str, hook: str, what: str) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(expression, timeout=HOOK_MS)
    except PlaywrightTimeout:
        raise HookMissing(f"the table page shows no {hook} ({what}) within {HOOK_MS // 1000} s: the table "
                          f"page must have this hook for the command to go on") from None


# --- the parts -----------------------------------------------------------------------------------
def shoot_lobby(browser: Browser, live: LiveServer, out: Path, files: list[Path]) -> None:
    """The start page with three open rooms in its list (each a lobby with an open seat)."""
    with live.client() as http:
        for name, host, bots in (("周末掼蛋", "老王", [None, "heuristic", None, "greedy"]),
                                 ("新手练习 · 慢慢打", "阿杰", [None, None, "greedy", None]),
                                 ("Friday night", "Sam", [None, None, None, None])):
            r = http.post("/api/rooms", json={"name": name, "bots": bots})
            r.raise_for_status()
            code = r.json()["code"]
            http.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": host}).raise_for_status()
    for lang, size in views_for("lobby"):
        view = _new_view(browser, live.url, lang, size, {})
        try:
            view.page.goto(f"{live.url}/")
            view.page.wait_for_function("document.querySelectorAll('[data-testid=open-room]').length >= 3 && "
                                        "document.getElementById('quick-tier').options.length > 0")
            files.append(view.shoot(out, "lobby"))
        finally:
            view.page.context.close()


def _views(browser: Browser, live: LiveServer, code: str, token: str, parts: Sequence[str]) -> Iterator[View]:
    """One page per size and language any part needs; the Chinese phone in landscape first (it plays)."""
    wanted: list[tuple[str, Size]] = []
    for part in parts:
        for key in views_for(part):
            if key not in wanted:
                wanted.append(key)
    wanted.sort(key=lambda k: (k != ("zh", PHONE)))
    for lang, size in wanted:
        yield _new_view(browser, live.url, lang, size, {f"guandan:token:{code}": token, "guandan:name": PLAYER})


def shoot_game(browser: Browser, live: LiveServer, out: Path, parts: Sequence[str], seed: int, files: list[Path]) -> None:
    with live.client() as http:
        code, token = practice_room(http, seed=seed, name=PLAYER, ready=False, max_deals=MAX_DEALS, first_timer=0,
                                    next_deal_s=120)
    views = list(_views(browser, live, code, token, parts))
    driver = views[0]
    try:
        for v in views:
            v.page.goto(f"{live.url}/r/{code}")
            v.page.wait_for_function("document.body.dataset.status === 'lobby' && "
                                     "!document.getElementById('ready').classList.contains('hidden')")
        driver.press("#ready")  # the page's own Ready button: every seat is then filled and ready
        for v in views:
            v.page.wait_for_function("document.body.dataset.status === 'playing' && "
                                     "document.querySelectorAll('[data-testid=hand] [data-testid=card]').length === 27")
        _play_first_deal(driver, views, out, "table" in parts, files)
        if "deal-end" not in parts and "tribute" not in parts:
            return
        for v in views:
            _wait_hook(v.page, DEAL_END + " && " + DEAL_END + ".getClientRects().length > 0",
                       "[data-testid=deal-end]", "the panel of the pause after a deal, with every hand turned up")
        if "deal-end" in parts:
            files += [v.shoot(out, "deal-end") for v in views if (v.lang, v.size) in views_for("deal-end")]
        if "tribute" in parts:
            _wait_hook(driver.page, "document.querySelector('[data-testid=continue]')", "[data-testid=continue]",
                       "the 继续 button of the deal-end panel")
            driver.press("[data-testid=continue]")
            for v in views:
                if v.lang != "zh":
                    continue
                v.page.wait_for_function(
                    "(() => { const p = " + DEAL_END + "; return (!p || p.getClientRects().length === 0) && "
                    "document.body.dataset.deal === '1' && ['tribute', 'return', 'choose'].includes("
                    "document.body.dataset.phase) && document.body.dataset.toMove === '0' && "
                    "!document.getElementById('hint').disabled; })()")
                v.hint()  # the card to pay or return, selected
                files.append(v.shoot(out, "tribute"))
    finally:
        for v in views:
            v.page.context.close()


def _play_first_deal(driver: View, views: Sequence[View], out: Path, table: bool, files: list[Path]) -> None:
    """Play seat 0's turns of the first deal from the driver page until the deal ends; with ``table``, shoot
    every page at the first turn from TABLE_TURN on where the hint selects cards and plays lie on the table."""
    page = driver.page
    shot = False
    turn = 0
    while True:
        page.wait_for_function(
            "document.body.dataset.deal !== '0' || (document.body.dataset.phase === 'play' && "
            "document.body.dataset.toMove === '0' && !document.getElementById('hint').disabled)")
        if page.evaluate("document.body.dataset.deal") != "0":
            break  # the deal is over: the view is the next deal's, in the pause after this one
        turn += 1
        seq = int(page.evaluate("Number(document.body.dataset.seq)"))
        selected = driver.hint()
        on_table = page.locator("[data-testid=center] .card").count() > 0
        if table and not shot and turn >= TABLE_TURN and selected and on_table:
            for v in views:
                if v is not driver:
                    v.page.wait_for_function(f"Number(document.body.dataset.seq) === {seq} && "
                                             "!document.getElementById('hint').disabled")
                    v.hint()
            files += [v.shoot(out, "table") for v in views]
            shot = True
        if selected == 0:
            driver.press("[data-testid=pass]")
        elif page.locator("[data-testid=play]").is_enabled():
            driver.press("[data-testid=play]")
        else:  # the cards have several readings: the first, as tribute_seed's engine play does
            driver.press("button.reading")
        page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}")
    if table and not shot:
        raise RuntimeError("seat 0 had no turn to show the table at (a hint selecting cards, plays on the table)")


def run(out: Path, parts: Sequence[str] = PARTS, seed: int = 1, files: list[Path] | None = None) -> list[Path]:
    """Write the screenshots of ``parts`` into ``out`` and return their paths; ``seed``: where the search for
    the room's seed begins. ``files`` (returned) has each path added as soon as it is written, so that a
    caller still knows what was written when a later part fails."""
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        raise ValueError(f"unknown part(s) {', '.join(unknown)}; known: {', '.join(PARTS)}")
    out.mkdir(parents=True, exist_ok=True)
    game = [p for p in PARTS if p in parts and p != "lobby"]
    room_seed = tribute_seed(seed) if "tribute" in game else seed
    settings = Settings(
        bot_delay_ms=30,  # bots answer at once, but each play is still its own frame
        seed_source=lambda: "screenshots",  # the lobby's rooms (no chosen seed): the same every run
        join_rate_per_min=1e6, join_burst=1e6,
        disconnect_grace_s=3600.0, unattended_pause_s=3600.0,  # nothing moves for seat 0 while a page reloads
        workers=0,  # hints and bots in one thread: no worker processes to start for a few dozen turns
    )
    files = [] if files is None else files
    with LiveServer(settings).running() as live, chromium() as browser:
        if "lobby" in parts:
            shoot_lobby(browser, live, out, files)
        if game:
            shoot_game(browser, live, out, game, room_seed, files)
    return files

"""The engine's review (复盘) of the last finished deal, offered by `guandan play`.

The human seat's decisions of that deal are reviewed from the match's own record
(:mod:`guandan.review`), each from what the human could know at that moment, and told in the game's
words seen from the human seat (你/下家/对家/上家). Plain mode prints the lines; the full-screen
client shows them in :class:`ReviewScreen`, computed in a worker thread so that the screen stays
responsive.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from ..core.errors import GuandanError
from ..core.record import loads
from ..i18n import N_, Translator
from ..present import said
from ..review.engine import DEFAULT_BUDGET, Settings
from ..review.report import review_record
from ..review.words import review_lines
from .handview import translate_bindings
from .nobreak import Hanging
from .session import HUMAN, Session
from .text import presenter

REVIEW_BUDGET = DEFAULT_BUDGET  # the review's default effort: about a minute for a deal on one core


def last_deal(session: Session) -> int | None:
    """The index of the last finished deal, None before the first one ends."""
    return session.match.deals[-1].index if session.match.deals else None


def review_last_deal(session: Session, lang: str, budget: float = REVIEW_BUDGET,
                     progress: Callable[[int, int], None] | None = None) -> list[str]:
    """The review of the human seat's decisions in the last finished deal, as lines in ``lang``."""
    deal = last_deal(session)
    if deal is None:
        raise GuandanError.said(N_("no deal has finished yet"))
    review = review_record(loads(session.record()), [HUMAN], [deal], Settings(budget=budget), 1, progress)
    return review_lines(presenter(lang), review)  # each decision is told with its deal's level (review.words)


def progress_line(tr: Translator, done: int, total: int) -> str:
    """How far the review has got: ``done`` of the ``total`` decisions to review (in words for one and for many)."""
    return tr.ngettext("Reviewing the deal… {done} of {total} decision", "Reviewing the deal… {done} of {total} decisions",
                       total).format(done=done, total=total)


class ReviewText(VerticalScroll):
    """The review's scrolling box: a deal's review is longer than the screen, so the key bar names the arrows that
    scroll it (PgUp, PgDn, Home and End scroll it too)."""

    BINDINGS = [Binding("down", "scroll_down", N_("scroll"), key_display="↑/↓")]  # noqa: RUF012


class ReviewScreen(ModalScreen[None]):
    """The review of the last deal; computed in a thread, then shown, a wrapped line's later rows indented under
    its text (:class:`~guandan.tui.nobreak.Hanging`). Enter or Esc closes it."""

    DEFAULT_CSS = """
    ReviewScreen { align: center middle; }
    ReviewScreen > ReviewText { width: 96%; height: 90%; border: double $accent; padding: 0 1;
                                    background: $panel; }
    """
    BINDINGS = [Binding("enter", "close", N_("continue")), Binding("escape", "close", show=False)]  # noqa: RUF012

    def __init__(self, session: Session, lang: str, tr: Translator, budget: float = REVIEW_BUDGET) -> None:
        super().__init__()
        self.session = session
        self.lang = lang
        self.tr = tr
        self.budget = budget
        self.lines: list[str] = []  # the review once computed (for tests and screen readers)
        self.names = presenter(lang).whole_names()  # Big Joker, Previous opponent: never parted
        self.done = False
        translate_bindings(self, tr)

    def compose(self) -> ComposeResult:
        with ReviewText() as box:
            translate_bindings(box, self.tr)
            box.border_title = self.tr.gettext("Engine review (复盘) of the last deal")
            yield Static(self._text([self.tr.gettext("Reviewing the deal… (about a minute)")]), id="review-text")
        yield Footer()  # its own keys: the summary's bar beneath offered r and q, which wait while this is open

    def on_mount(self) -> None:
        self.run_worker(self._work, thread=True, exclusive=True)

    def _work(self) -> None:
        def step(done: int, total: int) -> None:
            self.app.call_from_thread(self._progress, done, total)

        try:
            lines = review_last_deal(self.session, self.lang, self.budget, step)
        except GuandanError as e:
            lines = [said(e, self.lang, "tui")]
        self.app.call_from_thread(self._show, lines)

    def _progress(self, done: int, total: int) -> None:
        if not self.done:
            self.query_one("#review-text", Static).update(self._text([progress_line(self.tr, done, total)]))

    def _show(self, lines: list[str]) -> None:
        self.lines, self.done = lines, True
        self.query_one("#review-text", Static).update(self._text([*lines, "", self.tr.gettext("Press Enter to continue")]))

    def _text(self, lines: list[str]) -> Hanging:
        """``lines`` broken to the box's width with hanging indents, so that a wrapped decision reads as one."""
        return Hanging(lines, self.names)

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["REVIEW_BUDGET", "ReviewScreen", "ReviewText", "last_deal", "progress_line", "review_last_deal"]

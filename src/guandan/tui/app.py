"""The Textual table for `guandan play`.

Keys: ←/→ move, space select, Enter play the selection, p pass, h hint (提示, press again for the
next one), t type cards (e.g. ``H3 H3 S10``, Enter plays), 1–9 choose a reading, Esc clear,
g group the hand (理牌), c card counter (记牌器) on/off, r the engine's review (复盘) of the last
finished deal (offered in the end-of-deal box, and kept on r until the next one), q save and quit. The key
bar lists the keys that do something at that moment: Enter is "give" in a tribute (进贡), "give back" in a
return (还贡), "take" in the choice of a tribute card, p is not listed there nor on a lead; while the other seats
move it lists g, q and ? (q and ? once the player's hand is played out), and the final table r, q and ?.

The screen, top to bottom: the table (partner at the top, the opponents left and right, you at the
bottom, each with its last play this round), the log beside the card counter, the status line, the
"selected: …" line, the hand, the keys. It needs 80×24; a smaller window is told how big it must be.

Everything drawn comes from the human seat's observation and the public events, in the words of
:class:`guandan.present.Presenter`; bots move one at a time after ``bot_delay`` seconds so that each
play can be seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Footer, Input, RichLog, Static

from ..agents.hints import Hint, hints
from ..core.deal import Action
from ..core.errors import GuandanError
from ..core.events import DealOver, DealSettled, Event, MatchOver
from ..core.vocab import ActionKind, Phase
from ..i18n import N_, Translator, translator
from ..present import Presenter, fill, said
from .hand import counter_rows
from .handview import HandView, translate_bindings
from .nobreak import Hanging, keep_no_break_spaces
from .review import REVIEW_BUDGET, ReviewScreen, last_deal
from .selection import GIVE_KINDS, InputProblem, candidates, describe_selection, parse_tokens, pass_action
from .session import SaveError, Session, display_path
from .text import HUMAN, SeatInfo, bot_failure_lines, counter_lines, last_plays, level_line, presenter, seat_infos

MIN_WIDTH, MIN_HEIGHT = 80, 24
LOG_LINES = 1000  # the log keeps the latest lines of the match
SUMMARY_EVENTS = (DealOver, DealSettled, MatchOver)


class BoxScreen(ModalScreen[None]):
    """A framed box of text over the table (the summary, the help), closed by its own keys."""

    DEFAULT_CSS = """
    BoxScreen { align: center middle; }
    BoxScreen > Static { width: 90%; max-width: 76; height: auto; max-height: 20; border: double $accent;
                         padding: 1 2; background: $panel; }
    """

    def action_close(self) -> None:
        self.dismiss(None)


#: The end-of-deal box's rows of text at 80×24 (its height less its border and padding, the key bar below it) and
#: their width: the box repeats the deal's last plays where these leave room.
SUMMARY_ROWS, SUMMARY_WIDTH = 22 - 4, 66


class SummaryScreen(BoxScreen):
    """The end-of-deal (or end-of-match) summary, a wrapped line's later rows indented under its text; Enter or
    Esc continues. It may take the screen's height but for the key bar, to show how the deal ended above the
    result."""

    DEFAULT_CSS = """
    SummaryScreen > Static { max-height: 22; }
    """

    BINDINGS = [Binding("enter", "close", N_("continue")), Binding("escape", "close", show=False),  # noqa: RUF012
                Binding("r", "review", N_("review")), Binding("q", "quit_game", N_("quit"))]

    def __init__(self, title: str, lines: list[str], app: GuandanApp) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.tr = app.tr
        self.game = app
        translate_bindings(self, app.tr)

    def compose(self) -> ComposeResult:
        offer = self.tr.gettext("r: the engine's review of this deal (复盘)")
        lines = [*self.lines, "", offer, self.tr.gettext("Press Enter to continue")]
        box = Static(Hanging(lines, self.game.names), id="summary")
        box.border_title = self.title_text
        yield box
        yield Footer()  # over the table's own, whose keys wait while this box is open

    def action_review(self) -> None:
        self.app.push_screen(ReviewScreen(self.game.session, self.game.lang, self.tr, self.game.review_budget))

    def action_quit_game(self) -> None:  # a modal screen keeps the table's keys from it: q is its own here too
        self.game.action_quit_game()


#: The help screen's rows: the keys, as the keyboard writes them, and what they do. The keys named by a word are
#: translated, in the words of the key bar and the prompts (空格, ⏎ 回车): a key is called the same everywhere.
HELP_KEYS: tuple[tuple[str, str], ...] = (
    ("←/→  Home/End", N_("move along the hand (first card, last card)")),
    (N_("space"), N_("select or unselect the card")),
    (N_("⏎ Enter"), N_("play the selected cards (or give the selected card)")),
    ("p", N_("pass")),
    ("h", N_("hint (提示); press again for the next one")),
    ("t", N_("type cards (H3 S10): Enter plays, Esc goes back")),
    ("1–9", N_("choose a reading when several are listed")),
    ("Esc", N_("clear the selection")),
    ("g", N_("group the hand (理牌) or sort it again")),
    ("c", N_("show or hide the card counter (记牌器)")),
    ("r", N_("the engine's review (复盘) of the last deal")),
    ("q  Ctrl+C", N_("save and quit")),
    ("?  F1", N_("this help")),
)


def help_keys(keys: str, tr: Translator) -> str:
    """A help row's keys as the player reads them: the words translated (space → 空格), key caps as they are."""
    return tr.gettext(keys) if keys in HELP_KEY_WORDS else keys


HELP_KEY_WORDS = frozenset({"space", "⏎ Enter"})


class HelpScreen(BoxScreen):
    """Every key of the table and what it does; any of Esc, Enter, ? and F1 closes it."""

    BINDINGS = [Binding("escape", "close", N_("close"), key_display=N_("Esc")),  # noqa: RUF012
                Binding("enter", "close", show=False),
                Binding("question_mark", "close", show=False), Binding("f1", "close", show=False)]

    def __init__(self, app: GuandanApp) -> None:
        super().__init__()
        self.tr = app.tr
        translate_bindings(self, app.tr)

    def compose(self) -> ComposeResult:
        keys = [help_keys(k, self.tr) for k, _ in HELP_KEYS]
        width = max(cell_len(k) for k in keys) + 2
        rows = [k + " " * (width - cell_len(k)) + self.tr.gettext(what) for k, (_, what) in zip(keys, HELP_KEYS, strict=True)]
        box = Static(Text("\n".join(rows)), id="help")
        box.border_title = self.tr.gettext("Keys")
        yield box
        yield Footer()


class CardInput(Input):
    """The line where cards are typed, with its own keys in the key bar (the table's wait meanwhile)."""

    BINDINGS = [Binding("enter", "submit", N_("play")),  # noqa: RUF012
                Binding("escape", "app.cancel", N_("back"), key_display=N_("Esc"))]


class TooSmallScreen(ModalScreen[None]):
    """Shown instead of the table while the window is smaller than 80×24."""

    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; background: $background; }
    TooSmallScreen > Static { width: 100%; height: auto; padding: 0 1; text-align: center; }
    """
    BINDINGS = [Binding("q", "quit_game", N_("quit"))]  # noqa: RUF012

    def __init__(self, app: GuandanApp) -> None:
        super().__init__()
        self.tr = app.tr
        translate_bindings(self, app.tr)

    def compose(self) -> ComposeResult:
        yield Static(id="too-small", markup=False)

    def show_size(self, width: int, height: int) -> None:
        self.query_one("#too-small", Static).update(Text(self.tr.gettext(
            "This window is {width}×{height}; the table needs at least {min_width}×{min_height}. "
            "Make the window bigger (or play in line mode: guandan play --plain). q saves and quits.").format(
            width=width, height=height, min_width=MIN_WIDTH, min_height=MIN_HEIGHT)))

    def action_quit_game(self) -> None:
        app = self.app
        assert isinstance(app, GuandanApp)
        app.action_quit_game()


class GameLog(RichLog):
    """The log. Each entry is broken as the plain mode breaks it (:class:`.nobreak.Hanging`: never inside
    ``keep``'s names, a card or a count), its later rows indented under its text, so that an entry of two rows
    does not read as two entries. After a resize it shows its latest lines: a log made taller and then shorter
    again kept its scroll offset, and with it older lines than the ones just played. A new width wraps every
    line again: RichLog keeps each line as wrapped when written, so lines written in a wide window were cut
    once it was made narrower (the saved file's path among them), and a wider one kept the old breaks."""

    def __init__(self, keep: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.keep = list(keep)
        self.texts: list[str] = []  # every line as written, to be wrapped again at a new width
        self.width_laid_out: int | None = None

    def add(self, line: str) -> None:
        self.texts.append(line)
        del self.texts[:-LOG_LINES]
        self.write(Hanging([line], self.keep))

    def on_resize(self, event: events.Resize) -> None:
        laid_out, self.width_laid_out = self.width_laid_out, event.size.width
        if laid_out is not None and laid_out != event.size.width:
            self.clear()
            for line in self.texts:
                self.write(Hanging([line], self.keep), scroll_end=False)
        self.call_after_refresh(self.scroll_end, animate=False)


class TableView(Widget):
    """The four seats around the table: partner at the top, 上家 left, 下家 right, you at the bottom."""

    DEFAULT_CSS = """
    TableView { height: 8; border: round $primary; padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.seats: list[SeatInfo] = []
        self.sep = " · "

    def show(self, seats: list[SeatInfo], sep: str) -> None:
        self.seats, self.sep = seats, sep
        self.refresh()

    def _head(self, s: SeatInfo) -> Text:
        text = Text(s.name, style="bold")
        style = "bold yellow" if s.to_move else ("green" if s.winning else "")
        if s.count:
            text.append(self.sep)
            text.append(s.count, style="bold red" if s.reported else style)  # 报牌 stands out: few cards left
        for part in s.marks:
            text.append(self.sep)
            text.append(part, style=style)
        if s.to_move:
            text.stylize("reverse", 0, len(s.name))
        return text

    def _last(self, s: SeatInfo, width: int) -> Text:
        last = s.last if cell_len(s.last) <= width else s.last_cards  # the cards alone when the reading does not fit
        text = Text(last, style="bold green" if s.winning else "dim")
        text.truncate(width, overflow="ellipsis")
        return text

    def render(self) -> Text:
        if not self.seats:
            return Text()
        width = self.content_size.width or MIN_WIDTH - 4
        you, right, partner, left = (self.seats[(HUMAN + i) % 4] for i in range(4))
        half = (width - 2) // 2

        def centred(t: Text) -> Text:
            t.truncate(width, overflow="ellipsis")
            pad = max(0, (width - t.cell_len) // 2)
            return Text(" " * pad) + t

        def sides(a: Text, b: Text) -> Text:
            # each side may take what the other leaves, so that a long one is cut only when both cannot fit
            room = width - 1
            if a.cell_len + b.cell_len > room:
                if a.cell_len <= half:
                    b.truncate(room - a.cell_len, overflow="ellipsis")
                elif b.cell_len <= half:
                    a.truncate(room - b.cell_len, overflow="ellipsis")
                else:
                    a.truncate(half, overflow="ellipsis")
                    b.truncate(half, overflow="ellipsis")
            gap = max(1, width - a.cell_len - b.cell_len)
            return a + Text(" " * gap) + b

        lines = [
            centred(self._head(partner)), centred(self._last(partner, width)),
            sides(self._head(left), self._head(right)), sides(self._last(left, half), self._last(right, half)),
            centred(self._head(you)), centred(self._last(you, width)),
        ]
        return Text("\n").join(lines)


class GuandanApp(App[None]):
    ENABLE_COMMAND_PALETTE = False  # its footer entry would push the game's keys off an 80-column line
    CSS = """
    #middle { height: 1fr; min-height: 4; }
    #log { width: 1fr; border: round $primary; padding: 0 1; scrollbar-size-vertical: 1; }
    #counter { width: 30; border: round $primary; padding: 0 1; }
    #message { height: auto; max-height: 2; padding: 0 1; color: $warning; }
    #selected { height: auto; min-height: 1; max-height: 2; padding: 0 1; }
    #typed { display: none; height: 1; border: none; padding: 0 1; }
    #typed:focus { border: none; }
    #typed.shown { display: block; }
    #selected.hidden { display: none; }
    HandView { max-height: 8; }
    """
    # The key bar lists the keys that fit what the table is doing (check_action, after the hand's own Enter):
    # no pass on a lead, during a tribute, a return or the choice of a tribute card, only g, q and ? while another
    # seat is to move (the player's keys would do nothing then; q and ? once the player has gone out), and on the
    # final table only r, q and ?.
    BINDINGS = [  # noqa: RUF012
        Binding("p", "pass_turn", N_("pass")),
        Binding("p", "refuse_pass", show=False),  # p when there is no pass: not listed, but says why nothing happens
        Binding("h", "hint", N_("hint")),
        Binding("t", "type_cards", N_("type")),
        Binding("g", "group", N_("group")),
        Binding("c", "counter", N_("counter"), show=False),  # the panel names itself; the bar keeps room for ?
        Binding("r", "review", N_("review"), show=False),  # offered by the end-of-deal box and the help
        Binding("r", "final_review", N_("review")),  # on the final table, listed: what is left to do there
        Binding("escape", "cancel", show=False),
        Binding("q", "quit_game", N_("quit")),
        Binding("question_mark", "help", N_("help"), key_display="?"),
        Binding("f1", "help", show=False),
        # Textual's own Ctrl+C only tells, in English, to press Ctrl+Q, and its Ctrl+Q quits without saving
        Binding("ctrl+c", "quit_game", show=False, priority=True),
        Binding("ctrl+q", "quit_game", show=False, priority=True),
        *[Binding(str(n), f"choose({n})", show=False) for n in range(1, 10)],
    ]

    def __init__(self, session: Session, lang: str = "en", bot_delay: float = 0.6) -> None:
        super().__init__()
        self.session = session
        self.lang = lang
        self.tr = translator("tui", lang)
        self.present: Presenter = presenter(lang)
        # the log, the status lines and the boxes break as --plain does (Hanging); what Rich and Textual still wrap
        # (the help, the too-small notice) parts neither a level pair ("3 : 2") nor a name such as Previous opponent
        self.names = self.present.whole_names()
        keep_no_break_spaces(self.names)
        translate_bindings(self, self.tr)
        self.bot_delay = bot_delay
        self.review_budget = REVIEW_BUDGET  # effort of the 复盘 offered at the end of a deal
        self.hints: list[Hint] = []
        self.hint_index = -1
        self.hinted: Action | None = None
        self.choices: list[Action] = []  # readings waiting for a number
        self.paused = False  # a summary is open: bots wait
        self.stage = "play"  # what the table asks of the player, for the key bar (stage_now)
        self.too_small: TooSmallScreen | None = None  # the window is below 80×24: bots wait
        self.bot_pending = False  # a bot move is scheduled
        self.log_lines: list[str] = []  # what the log shows, kept for tests and screen readers
        self.message = ""
        self.complaint = False  # the message line says what was wrong with the last key, not what to do
        self.selected_text = ""
        self.saved: tuple[Path | None, SaveError | None] | None = None  # set by q: where the match went
        self.quit_unsaved = False  # q found nowhere to save: the next q quits anyway

    # --- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield TableView(id="table")
        with Horizontal(id="middle"):
            yield GameLog(self.names, id="log", wrap=True, min_width=20, max_lines=LOG_LINES)
            yield Static(id="counter", markup=False)
        yield Static(id="message", markup=False)
        yield Static(id="selected", markup=False)
        typed = CardInput(placeholder=self.tr.gettext("type cards, e.g. H3 H3 S10, then Enter (Esc: back)"), id="typed")
        translate_bindings(typed, self.tr)
        yield typed
        yield HandView(self.tr, self.present, id="hand")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "掼蛋 Guandan"
        self.query_one("#log", RichLog).border_title = self.tr.gettext("Log")
        self.query_one("#counter", Static).border_title = self.tr.gettext("Card counter")
        path = self.session.save_path
        if path is not None:
            self.write_log([self.tr.gettext("This match is saved to {path}").format(path=display_path(path))])
        self.write_log(bot_failure_lines(self.session, self.lang))  # a bot that could not be started: said first
        self.show_events(self.session.opening)
        self.query_one(HandView).focus()
        self.redraw()
        self.check_size(self.size.width, self.size.height)
        self.advance()

    def on_resize(self, event: events.Resize) -> None:
        self.check_size(event.size.width, event.size.height)

    def check_size(self, width: int, height: int) -> None:
        """Below 80×24 the table would be cut: say how big the window must be instead."""
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        if small:
            if self.too_small is None:
                self.too_small = TooSmallScreen(self)
                self.push_screen(self.too_small)
                self.call_after_refresh(self.too_small.show_size, width, height)
            else:
                self.too_small.show_size(width, height)
        elif self.too_small is not None:
            screen, self.too_small = self.too_small, None
            screen.dismiss(None)
            self.advance()

    # --- drawing ----------------------------------------------------------------------------
    def say(self, message: str) -> None:
        self.message = message
        self.complaint = False
        self.query_one("#message", Static).update(Hanging([message], self.names))

    def write_log(self, lines: list[str]) -> None:
        log = self.query_one(GameLog)
        for line in lines:
            self.log_lines.append(line)
            log.add(line)

    def show_events(self, events: list[Event]) -> None:
        self.write_log([line for e in events for line in self.present.event(e)])

    def stage_now(self) -> str:
        """What the table asks of the player, for the key bar: play (a play or a pass), lead (a play), tribute,
        return or choose on their turn; wait while another seat is to move (whatever the phase: a bot's tribute
        asks nothing of them), out when the player has gone out and the others play the deal on, or over."""
        if self.session.ended:
            return "over"
        d = self.session.observation().deal
        if not self.session.human_to_move:
            return "wait" if d.hand else "out"
        if d.phase is Phase.PLAY and not any(a.kind is ActionKind.PASS for a in d.legal):
            return "lead"  # p only says that a lead cannot pass
        return {Phase.TRIBUTE: "tribute", Phase.RETURN: "return", Phase.CHOOSE: "choose"}.get(d.phase, "play")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which of the table's keys are listed and work now (False: neither)."""
        stage = self.stage
        if action == "pass_turn":
            return stage == "play"
        if action == "refuse_pass":
            return stage in ("lead", "tribute", "return", "choose")
        if action in ("hint", "type_cards", "choose"):
            return stage not in ("wait", "out", "over")
        if action == "group":  # an empty hand has nothing to group
            return stage not in ("out", "over")
        if action == "review":
            return stage != "over"
        if action == "final_review":
            return stage == "over"
        return True

    def redraw(self) -> None:
        obs = self.session.observation()
        d = obs.deal
        if self.stage != (stage := self.stage_now()):
            self.stage = stage
            self.query_one(HandView).set_stage(stage)
            self.refresh_bindings()
        _ = self.tr.gettext
        table = self.query_one(TableView)
        table.show(seat_infos(obs, self.present, self.tr), _(" · "))
        parts = level_line(obs, self.present, self.tr)
        table.border_title = parts[0]
        table.border_subtitle = _(" · ").join(parts[1:])
        rows = counter_rows(d.hand, d.events, d.level, d.seat)
        self.query_one("#counter", Static).update(Text("\n".join(counter_lines(rows, self.present))))
        eligible = {a.cards[0] for a in d.legal if a.kind in GIVE_KINDS} or None
        self.query_one(HandView).set_hand(d.hand, d.level, eligible)
        self.update_selected()

    def update_selected(self) -> None:
        d = self.session.observation().deal
        selected = self.query_one(HandView).selection()
        legal = d.legal if self.ready() else ()
        text = describe_selection(selected, d.hand, legal, d.level, self.session.rules, self.tr, self.present)
        if not selected and self.hinted is not None and not self.hinted.cards and self.ready():
            text = self.tr.gettext("No cards selected: Enter passes, as hinted")
        self.selected_text = text
        self.query_one("#selected", Static).update(Hanging([text], self.names))

    def on_hand_view_changed(self, _message: HandView.Changed) -> None:
        self.update_selected()
        if self.complaint and self.ready():  # a new selection: the complaint about the last one no longer holds
            self.prompt()

    def on_hand_view_refused(self, message: HandView.Refused) -> None:
        """Space on a dimmed card: say why nothing was selected (a bell alone left the player guessing)."""
        if self.ready():
            card = self.present.card(message.card, self.session.observation().deal.level)
            self.say(fill(self.tr.gettext("{card} cannot be given now: pick one of the cards not dimmed"), card=card))
            self.complaint = True

    # --- the turn loop ----------------------------------------------------------------------
    def advance(self) -> None:
        """Continue: a bot's move after the delay, or prepare the human's decision."""
        if self.paused or self.too_small is not None:
            return
        s = self.session
        _ = self.tr.gettext
        if s.ended:
            self.say(_("The match is over: r for the engine's review of the last deal, q to quit."))
            return
        if s.human_to_move:
            self.start_decision()
            return
        to_move = s.match.to_move
        # during a tribute, a return or the choice of a tribute card nobody plays yet: say what is awaited
        waiting = {Phase.TRIBUTE: _("Waiting for {who} to pay tribute…"),
                   Phase.RETURN: _("Waiting for {who} to return a card…"),
                   Phase.CHOOSE: _("Waiting for {who} to take a tribute card…")}.get(
            s.observation().deal.phase, _("Waiting for {who}…"))
        self.say(waiting.format(who=self.present.seat(to_move)) if to_move is not None else "")
        if self.bot_pending:
            return
        self.bot_pending = True
        if self.bot_delay > 0:
            self.set_timer(self.bot_delay, self.bot_move)
        else:  # Textual timers cannot have a zero interval
            self.call_later(self.bot_move)

    def bot_move(self) -> None:
        self.bot_pending = False
        if self.paused or self.too_small is not None or self.session.ended or self.session.human_to_move:
            return
        events = self.session.bot_step()
        self.write_log(bot_failure_lines(self.session, self.lang))
        self.after(events)

    def after(self, events: list[Event]) -> None:
        self.show_events(events)
        self.redraw()
        summary = [line for e in events if isinstance(e, SUMMARY_EVENTS) for line in self.present.event(e)]
        if summary:
            _ = self.tr.gettext
            self.paused = True
            over = any(isinstance(e, MatchOver) for e in events)
            n = len(self.session.match.deals)  # the settled deal is the last one recorded
            title = _("The match is over") if over else _("Deal {n} is over").format(n=n)
            if any(isinstance(e, DealOver) for e in events):  # the box covers the log: how the deal ended, first
                deal = self.session.match.deals[-1]
                plays = last_plays(deal.state.events, presenter(self.lang, deal.level))
                room = SUMMARY_ROWS - 3 - sum(-(-cell_len(line) // SUMMARY_WIDTH) for line in summary) - 2
                if room > 0:  # a long summary (a save problem too) keeps its own lines whole, and the latest plays
                    summary = [_("The deal's last plays:"), *plays[-room:], "", *summary]
            self.say(_("The match is over: press Enter to see the final table") if over else _(
                "Deal {n} is over: press Enter for the next deal").format(n=n))
            if self.session.save_problem is not None:
                summary.append(said(self.session.save_problem, self.lang, "tui"))
                summary.append(_("The match goes on; q saves it to the data folder if this file still cannot be written."))
            elif self.session.save_path is not None:
                summary.append(_("Saved to {path}").format(path=display_path(self.session.save_path)))
            self.update_selected()
            self.push_screen(SummaryScreen(title, summary, self), self.summary_closed)
            return
        self.advance()

    def summary_closed(self, _result: None = None) -> None:
        self.paused = False
        self.update_selected()
        self.advance()

    def start_decision(self) -> None:
        self.hints, self.hint_index, self.hinted, self.choices = [], -1, None, []
        self.prompt()

    def prompt(self) -> None:
        """The status line for the human's decision: what to do, and with which keys."""
        _ = self.tr.gettext
        d = self.session.observation().deal
        given = sorted({a.cards[0] for a in d.legal if a.kind in GIVE_KINDS})
        if d.phase in (Phase.TRIBUTE, Phase.RETURN, Phase.CHOOSE):
            if len(given) == 1:  # two copies of one card are one choice: "one of ♥A" would puzzle
                cards = self.present.cards(given, d.level)
                text = {Phase.TRIBUTE: _("Tribute: your card is {cards}; select it (←/→, space) and press Enter"),
                        Phase.RETURN: _("Return a card: only {cards} can go back; select it (←/→, space), then Enter"),
                        Phase.CHOOSE: _("Take a tribute card: {cards}; select it and press Enter")}[d.phase]
            elif len(given) <= 4:
                cards = self.present.cards(given, d.level)
                text = {Phase.TRIBUTE: _("Tribute: pick one of {cards} (←/→, space) and press Enter"),
                        Phase.RETURN: _("Return a card: pick one of {cards} (←/→, space) and press Enter"),
                        Phase.CHOOSE: _("Take a tribute card: pick one of {cards} and press Enter")}[d.phase]
            else:  # many: the hand shows them bright, the others dimmed
                cards = ""
                text = {Phase.TRIBUTE: _("Tribute: pick one of the {n} cards not dimmed (←/→, space), then Enter"),
                        Phase.RETURN: _("Return a card: pick one of the {n} cards not dimmed (←/→, space), then Enter"),
                        Phase.CHOOSE: _("Take a tribute card: pick one of the {n} cards not dimmed, then Enter")}[d.phase]
            self.say(text.format(cards=cards, n=len(given)))
        elif d.top is None:
            self.say(_("Your lead: select cards (←/→, space) and press Enter; h for a hint"))
        else:
            seat, _cards, combo = d.top
            self.say(_("Your turn: beat {who}'s {combo}, or pass (p); h for a hint").format(
                who=self.present.seat(seat), combo=self.present.combo(combo)))
        self.update_selected()

    def perform(self, action: Action) -> None:
        try:
            events = self.session.act(action)
        except GuandanError as e:  # the engine refused: nothing changed
            self.say(said(e, self.lang, "tui"))
            return
        self.choices, self.hinted = [], None
        self.after(events)

    def problem(self, p: InputProblem) -> None:
        self.bell()
        self.say(p.text(self.tr, self.present, self.session.observation().deal.level))
        self.complaint = True  # until the selection changes: then the turn's prompt comes back

    def ready(self) -> bool:
        return (not self.paused and self.too_small is None and not self.session.ended
                and self.session.human_to_move)

    # --- input --------------------------------------------------------------------------------
    def on_hand_view_submitted(self, _message: HandView.Submitted) -> None:
        if not self.ready():
            return
        hand = self.query_one(HandView)
        selected = hand.selection()
        if self.hinted is not None and sorted(selected) == sorted(self.hinted.cards):
            self.perform(self.hinted)  # the hint's own reading, wildcards included
            return
        self.play_cards(selected)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        if not self.ready():
            return
        d = self.session.observation().deal
        try:
            cards = parse_tokens(message.value)
            found = candidates(cards, d.hand, d.legal, d.level, self.session.rules)
        except InputProblem as p:  # the line stays, with what was typed, to be corrected: letters typed
            self.problem(p)        # next would otherwise reach the table's keys (p passes)
            return
        message.input.value = ""
        self.close_input()
        self.query_one(HandView).select_cards(cards)
        self.take(found)

    def play_cards(self, cards: list[int]) -> None:
        d = self.session.observation().deal
        try:
            found = candidates(cards, d.hand, d.legal, d.level, self.session.rules)
        except InputProblem as p:
            self.problem(p)
            return
        self.take(found)

    def take(self, found: list[Action]) -> None:
        """Play the one legal reading, or list several for a number key."""
        if len(found) == 1:
            self.perform(found[0])
            return
        self.choices = found
        listing = "  ".join(f"{i}: {self.present.combo(a.combo)}" for i, a in enumerate(found, 1) if a.combo)
        self.say(self.tr.gettext("Several readings; press its number: {list}").format(list=listing))

    def action_choose(self, n: int) -> None:
        if not self.ready():
            return
        if not 1 <= n <= len(self.choices):
            self.problem(InputProblem(N_("Nothing to choose from: select cards with several readings first"))
                         if not self.choices else InputProblem(N_("Choose a number from 1 to {n}"), n=len(self.choices)))
            return
        self.perform(self.choices[n - 1])

    def action_refuse_pass(self) -> None:
        self.action_pass_turn()  # during a tribute or a return: "You cannot pass now: give a card"

    def action_pass_turn(self) -> None:
        if not self.ready():
            return
        try:
            action = pass_action(self.session.observation().deal.legal)
        except InputProblem as p:
            self.problem(p)
            return
        self.perform(action)

    def action_hint(self) -> None:
        if not self.ready():
            return
        obs = self.session.observation()
        if not self.hints:
            self.hints = hints(obs, 3, self.session.rules)
        if not self.hints:
            return
        self.hint_index = (self.hint_index + 1) % len(self.hints)
        hint = self.hints[self.hint_index]
        self.hinted = hint.action
        self.say(self.tr.gettext("Hint {i}/{n}: {action} — {reason}").format(
            i=self.hint_index + 1, n=len(self.hints), action=self.present.action(hint.action, obs.deal.level),
            reason=self.present.hint_reason(hint.reason)))
        self.query_one(HandView).select_cards(hint.action.cards)

    def action_type_cards(self) -> None:
        typed = self.query_one("#typed", Input)
        typed.add_class("shown")  # in the place of the "selected: …" line, so nothing else moves
        self.query_one("#selected").add_class("hidden")
        typed.focus()

    def close_input(self) -> None:
        self.query_one("#typed", Input).remove_class("shown")
        self.query_one("#selected").remove_class("hidden")
        self.query_one(HandView).focus()

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self))

    def action_final_review(self) -> None:
        self.action_review()

    def action_review(self) -> None:
        """The review of the last finished deal, as the end-of-deal box offers it, once that box is closed
        too (plain mode offers it at every turn after the first deal, and once more when the match is over)."""
        if self.paused or self.too_small is not None:  # a box is open: it has its own keys
            return
        if last_deal(self.session) is None:
            self.problem(InputProblem(N_("No deal has finished yet: the review comes after the first deal")))
            return
        self.paused = True  # the review reads the match's record: the bots wait until it is closed
        self.push_screen(ReviewScreen(self.session, self.lang, self.tr, self.review_budget), self.summary_closed)

    def action_group(self) -> None:
        self.query_one(HandView).toggle_grouping()

    def action_counter(self) -> None:
        counter = self.query_one("#counter", Static)
        counter.display = not counter.display

    def action_cancel(self) -> None:
        self.choices, self.hinted = [], None
        self.query_one("#typed", Input).value = ""
        self.close_input()
        self.query_one(HandView).clear()
        if self.ready():
            self.prompt()

    def action_quit_game(self) -> None:
        """Save and leave. A file that cannot be written sends the match to the data folder instead;
        when nothing at all can be written, the match stays on the screen and a second q leaves anyway."""
        saved = self.session.save_somewhere()
        path, problem = saved
        if path is None and problem is not None and not self.quit_unsaved:
            self.quit_unsaved = True
            text = said(problem, self.lang, "tui") + " " + self.tr.gettext(
                "Nothing could be saved: press q again to quit without saving.")
            self.say(text)
            self.notify(text, severity="error", timeout=30)  # seen above a summary box too
            return
        self.saved = saved
        self.exit()


__all__ = ["HELP_KEYS", "HELP_KEY_WORDS", "MIN_HEIGHT", "MIN_WIDTH", "CardInput", "GuandanApp", "HelpScreen",
           "SummaryScreen", "TooSmallScreen", "help_keys"]

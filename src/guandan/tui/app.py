"""The Textual table for `guandan play`.

Keys: ←/→ move, space select, Enter play the selection, p pass, h hint (提示, press again for the
next one), t type cards (e.g. ``H3 H3 S3``, Enter plays), 1–9 choose a reading, Esc clear,
g group the hand (理牌), c card counter (记牌器) on/off, q save and quit.

Everything drawn comes from the human seat's observation and the public events; bots move one at a
time after ``bot_delay`` seconds so that each play can be seen.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, RichLog, Static

from ..agents.hints import Hint, best_actions
from ..core.deal import Action, Event
from ..core.errors import GuandanError
from ..i18n import N_, Translator
from .hand import counter_rows
from .handview import HandView, translate_bindings
from .selection import InputProblem, candidates, parse_tokens, pass_action
from .session import Session
from .text import action_text, combo_text, describe, hint_reason, level_panel, table_lines


class SummaryScreen(ModalScreen[None]):
    """The end-of-deal (or end-of-match) summary; Enter or Esc continues."""

    DEFAULT_CSS = """
    SummaryScreen { align: center middle; }
    SummaryScreen > Static { width: 80%; height: auto; border: double $accent; padding: 1 2; background: $panel; }
    """
    BINDINGS = [Binding("enter", "close", N_("continue")), Binding("escape", "close", show=False)]  # noqa: RUF012

    def __init__(self, lines: list[str], tr: Translator) -> None:
        super().__init__()
        self.lines = lines
        self.tr = tr
        translate_bindings(self, tr)

    def compose(self) -> ComposeResult:
        yield Static(Text("\n".join([*self.lines, "", self.tr.gettext("Press Enter to continue")])), id="summary")

    def action_close(self) -> None:
        self.dismiss(None)


class GuandanApp(App[None]):
    CSS = """
    #top { height: 1fr; }
    #side { width: 34; }
    #levels, #counter { border: round $primary; padding: 0 1; height: auto; }
    #table { border: round $primary; padding: 0 1; height: auto; }
    #log { height: 1fr; border: round $primary; }
    #message { height: auto; min-height: 1; padding: 0 1; color: $warning; }
    #typed { height: 3; }
    """
    BINDINGS = [  # noqa: RUF012
        Binding("p", "pass_turn", N_("pass")),
        Binding("h", "hint", N_("hint")),
        Binding("t", "type_cards", N_("type cards")),
        Binding("g", "group", N_("group (理牌)")),
        Binding("c", "counter", N_("card counter")),
        Binding("escape", "cancel", show=False),
        Binding("q", "quit_game", N_("save and quit")),
        *[Binding(str(n), f"choose({n})", show=False) for n in range(1, 10)],
    ]

    def __init__(self, session: Session, tr: Translator, bot_delay: float = 0.6) -> None:
        super().__init__()
        self.session = session
        self.tr = tr
        translate_bindings(self, tr)
        self.bot_delay = bot_delay
        self.hints: list[Hint] = []
        self.hint_index = -1
        self.hinted: Action | None = None
        self.choices: list[Action] = []  # readings waiting for a number
        self.paused = False  # a summary is open: bots wait
        self.log_lines: list[str] = []  # what the log shows, kept for tests and screen readers
        self.message = ""

    # --- layout -----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            with Vertical():
                yield Static(id="table", markup=False)
                yield RichLog(id="log", wrap=True)
            with Vertical(id="side"):
                yield Static(id="levels", markup=False)
                yield Static(id="counter", markup=False)
        yield Static(id="message", markup=False)
        yield HandView(self.tr, id="hand")
        yield Input(placeholder=self.tr.gettext("type cards, e.g. H3 H3 S3, then Enter"), id="typed")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "掼蛋 Guandan"
        self.show_events(self.session.opening)
        self.query_one(HandView).focus()
        self.redraw()
        self.advance()

    # --- drawing ----------------------------------------------------------------------------
    def say(self, message: str) -> None:
        self.message = message
        self.query_one("#message", Static).update(Text(message))

    def show_events(self, events: list[Event]) -> None:
        log = self.query_one("#log", RichLog)
        for e in events:
            for line in describe(e, self.tr):
                self.log_lines.append(line)
                log.write(Text(line))

    def redraw(self) -> None:
        obs = self.session.observation()
        d = obs.deal
        self.query_one("#table", Static).update(Text("\n".join(table_lines(obs, self.tr))))
        self.query_one("#levels", Static).update(Text("\n".join(level_panel(obs, self.tr))))
        rows = counter_rows(d.hand, d.events, d.level)
        counter = [self.tr.gettext("Card counter (记牌器)")] + [
            "  ".join(f"{r:>2}:{n}" for r, n in rows[i:i + 3]) for i in range(0, len(rows), 3)]
        self.query_one("#counter", Static).update(Text("\n".join(counter)))
        eligible = {a.cards[0] for a in d.legal if a.kind in ("tribute", "return", "choose")} or None
        self.query_one(HandView).set_hand(d.hand, d.level, eligible)

    # --- the turn loop ----------------------------------------------------------------------
    def advance(self) -> None:
        """Continue: a bot's move after the delay, or prepare the human's decision."""
        if self.paused:
            return
        s = self.session
        if s.ended:
            self.say(self.tr.gettext("The match is over. Press q to quit."))
            return
        if s.human_to_move:
            self.start_decision()
            return
        self.say(self.tr.gettext("Waiting for the bots…"))
        if self.bot_delay > 0:
            self.set_timer(self.bot_delay, self.bot_move)
        else:  # Textual timers cannot have a zero interval
            self.call_later(self.bot_move)

    def bot_move(self) -> None:
        if self.paused or self.session.ended or self.session.human_to_move:
            return
        self.after(self.session.bot_step())

    def after(self, events: list[Event]) -> None:
        self.show_events(events)
        self.redraw()
        summary = [line for e in events if e.type in ("deal_settled", "match_over") for line in describe(e, self.tr)]
        if summary:
            self.paused = True
            self.push_screen(SummaryScreen(summary, self.tr), self.summary_closed)
            return
        self.advance()

    def summary_closed(self, _result: None = None) -> None:
        self.paused = False
        self.advance()

    def start_decision(self) -> None:
        _ = self.tr.gettext
        obs = self.session.observation()
        d = obs.deal
        self.hints, self.hint_index, self.hinted, self.choices = [], -1, None, []
        options = " ".join(action_text(a, self.tr) for a in d.legal if a.kind in ("tribute", "return", "choose"))
        if d.phase == "tribute":
            self.say(_("Tribute (进贡): select one of {cards} and press Enter").format(cards=options))
        elif d.phase == "return":
            self.say(_("Return (还贡): select one of {cards} and press Enter").format(cards=options))
        elif d.phase == "choose":
            self.say(_("Choose a tribute card: select one of {cards} and press Enter").format(cards=options))
        elif d.top is None:
            self.say(_("Your lead: select cards and press Enter (h for a hint)"))
        else:
            self.say(_("Your turn: play or pass (p); h for a hint"))

    def perform(self, action: Action) -> None:
        try:
            events = self.session.act(action)
        except GuandanError as e:  # the engine refused: nothing changed
            self.say(str(e))
            return
        self.choices = []
        self.after(events)

    def problem(self, p: InputProblem) -> None:
        self.bell()
        self.say(p.text(self.tr))

    def ready(self) -> bool:
        return not self.paused and not self.session.ended and self.session.human_to_move

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
        try:
            cards = parse_tokens(message.value)
        except InputProblem as p:
            self.problem(p)
            return
        message.input.value = ""
        self.query_one(HandView).focus()
        self.query_one(HandView).select_cards(cards)
        self.play_cards(cards)

    def play_cards(self, cards: list[int]) -> None:
        d = self.session.observation().deal
        try:
            found = candidates(cards, d.hand, d.legal, d.level, self.session.rules)
        except InputProblem as p:
            self.problem(p)
            return
        if len(found) == 1:
            self.perform(found[0])
            return
        self.choices = found
        listing = "  ".join(f"{i}: {combo_text(a.combo, self.tr)}" for i, a in enumerate(found, 1) if a.combo)
        self.say(self.tr.gettext("Several readings; press its number: {list}").format(list=listing))

    def action_choose(self, n: int) -> None:
        if not self.ready():
            return
        if not 1 <= n <= len(self.choices):
            self.problem(InputProblem(N_("Nothing to choose from: ask for a hint first")) if not self.choices
                         else InputProblem(N_("Choose a number from 1 to {n}"), n=len(self.choices)))
            return
        self.perform(self.choices[n - 1])

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
            self.hints = best_actions(obs, 3, self.session.match.rules)
        if not self.hints:
            return
        self.hint_index = (self.hint_index + 1) % len(self.hints)
        hint = self.hints[self.hint_index]
        self.hinted = hint.action
        self.query_one(HandView).select_cards(hint.action.cards)
        self.say(self.tr.gettext("Hint {i}/{n}: {action} — {reason}").format(
            i=self.hint_index + 1, n=len(self.hints), action=action_text(hint.action, self.tr),
            reason=hint_reason(hint.action, obs, self.tr)))

    def action_type_cards(self) -> None:
        self.query_one("#typed", Input).focus()

    def action_group(self) -> None:
        self.query_one(HandView).toggle_grouping()

    def action_counter(self) -> None:
        counter = self.query_one("#counter", Static)
        counter.display = not counter.display

    def action_cancel(self) -> None:
        self.choices, self.hinted = [], None
        self.query_one(HandView).clear()
        self.query_one(HandView).focus()

    def action_quit_game(self) -> None:
        self.session.save()
        self.exit()

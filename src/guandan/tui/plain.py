"""Plain line mode (``guandan play --plain``): for scripts and screen readers.

Protocol (every line from the ``tui`` catalogue, so wording follows ``--lang``; the markers do not):

* events are printed as they happen, one per line;
* the first line names the file the match is saved to;
* events are told by the game's presenter (``game`` catalogue), seats seen from you (你/下家/对家/上家);
* when the human (seat 0) must act, a status block is printed (``hand:`` in the notation you type,
  ``S10`` for ♠10, ``*`` marking wildcards; the play to beat) and then exactly one prompt line starting
  with ``> ``, naming the commands that work there (during tribute and return: the cards to give, then the rest);
* one command per input line:
    - cards, e.g. ``H3 H3 S10`` (``♥3``, ``ST`` and ``小王`` forms work too) — play them, or give that card
      during tribute (进贡), return (还贡) or the tribute choice;
    - ``pass`` (or ``p``);
    - ``hint`` (``h``) — numbered suggestions with reasons; ``1``, ``2``… then takes one;
    - after a selection with several readings (wildcards), the readings are numbered: ``1``, ``2``…;
    - ``groups`` (``g``) — the hand grouped (理牌); ``counter`` (``c``) — the card counter (记牌器);
      ``table`` (``t``) — levels, declarer, each seat's public count and last play, who leads;
    - ``review`` (``r``) — the engine's review (复盘) of your decisions in the last finished deal; it is
      offered when a deal ends, named in the prompt from then on, and offered once more when the match is over;
    - ``quit`` (``q``) — save and stop; end of input does the same;
    - each command also by the Chinese word the Chinese prompt pairs with it: 不要, 提示, 理牌, 牌桌, 记牌器,
      复盘, 退出.
* a bad command prints a line starting with ``! `` and changes nothing; the prompt is repeated;
* on a terminal, a line wider than the window is broken into rows between cards and words (never inside a
  card, nor at a space that joins one thing: ``quit 退出``, ``0.12 ± 0.07``, ``level 10``, ``full house``), the
  rows after the first indented, East Asian ambiguous symbols (♠ · ×) counted one column, or two with
  ``GUANDAN_AMBIGUOUS_WIDE=1`` (:mod:`guandan.linebreak`); written to a pipe or a file, every line stays whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TextIO

from ..agents.hints import hints
from ..core.deal import Action
from ..core.errors import GuandanError
from ..core.events import DealSettled, Event
from ..core.vocab import Phase
from ..i18n import N_, translator
from ..linebreak import wrap
from ..present import said
from .hand import GROUP_NAMES, counter_rows, group_hand, level_sorted
from .review import REVIEW_BUDGET, last_deal, review_last_deal
from .selection import GIVE_KINDS, InputProblem, candidates, parse_tokens, pass_action
from .session import Session, display_path
from .text import bot_failure_lines, counter_entries, level_line, presenter, saved_lines, table_lines, typed_tokens

#: The commands as the Chinese prompt names them beside their English words ("pass 不要、hint 提示…").
CHINESE_COMMANDS = {"不要": "pass", "提示": "hint", "理牌": "groups", "牌桌": "table", "记牌器": "counter",
                    "复盘": "review", "退出": "quit"}


def command_word(line: str) -> str:
    """The line as a command word: lower case, a Chinese command word read as its English one."""
    low = line.strip().lower()
    return CHINESE_COMMANDS.get(low, low)


def no_columns() -> int | None:
    return None


class PlainGame:
    def __init__(self, session: Session, lang: str, out: TextIO, review_budget: float = REVIEW_BUDGET,
                 columns: Callable[[], int | None] = no_columns) -> None:
        self.s = session
        self.lang = lang
        self.review_budget = review_budget
        self.tr = translator("tui", lang)
        self.present = presenter(lang)
        self.out = out
        self.columns = columns  # the terminal's width now (it may be resized), None where lines stay whole
        self.whole_names = self.present.whole_names()  # Big Joker, full house, Previous opponent: never parted
        self.choices: list[Action] = []  # the last numbered list (hints or readings)

    def say(self, line: str) -> None:
        for row in wrap(line, self.columns(), self.whole_names):
            self.out.write(row + "\n")

    def show(self, events: Sequence[Event]) -> None:
        for e in events:
            for line in self.present.event(e):
                self.say(line)
            if isinstance(e, DealSettled) and self.s.save_problem is not None:
                self.say("! " + said(self.s.save_problem, self.lang, "tui"))
            if isinstance(e, DealSettled) and not self.s.ended:
                self.say(self.tr.gettext("Type review (r) at your next turn for the engine's review of this deal (复盘)"))
        self.out.flush()

    def review(self) -> None:
        """Print the engine's review of the human's decisions in the last finished deal."""
        deal = last_deal(self.s)
        if deal is None:
            raise InputProblem(N_("No deal has finished yet: the review comes after the first deal"))
        self.say(self.tr.gettext("Reviewing deal {n}… (about a minute)").format(n=deal + 1))
        self.out.flush()
        for line in review_last_deal(self.s, self.lang, self.review_budget):
            self.say(line)
        self.out.flush()

    def status(self) -> None:
        _ = self.tr.gettext
        d = self.s.observation().deal
        self.say(_("hand ({n}): {cards}").format(n=len(d.hand), cards=typed_tokens(level_sorted(d.hand, d.level), d.level)))
        if d.phase == Phase.PLAY and d.top is not None:
            seat, cards, combo = d.top
            play = self.present.play(cards, combo, d.level)
            self.say(_("to beat: {who}: {play}").format(who=self.present.seat(seat), play=play))

    def prompt(self) -> None:
        _ = self.tr.gettext
        d = self.s.observation().deal
        given = sorted({a.cards[0] for a in d.legal if a.kind in GIVE_KINDS})
        options = typed_tokens(given, d.level)
        if d.phase in (Phase.TRIBUTE, Phase.RETURN, Phase.CHOOSE):
            if len(given) == 1:  # one card: no "one of"
                task = {Phase.TRIBUTE: _("Tribute: give {cards}"), Phase.RETURN: _("Return a card: give {cards}"),
                        Phase.CHOOSE: _("Take a tribute card: {cards}")}[d.phase]
            else:
                task = {Phase.TRIBUTE: _("Tribute: give one of {cards}"),
                        Phase.RETURN: _("Return a card: give one of {cards}"),
                        Phase.CHOOSE: _("Take a tribute card: one of {cards}")}[d.phase]
            # the other commands work here too: the review (复盘) offered as the last deal ended is asked for
            # "at your next turn", which is this one whenever the deal opens with a tribute
            others = _("hint, groups, table, counter, review, quit") if last_deal(self.s) is not None else _(
                "hint, groups, table, counter, quit")
            line = _("{task} (or {commands})").format(task=task.format(cards=options), commands=others)
        elif last_deal(self.s) is not None:  # a deal has finished: its review (复盘) is on offer, as in the full client
            line = _("Your lead: cards, hint, groups, table, counter, review, quit") if d.top is None else _(
                "Your turn: cards, pass, hint, groups, table, counter, review, quit")
        elif d.top is None:
            line = _("Your lead: cards, hint, groups, table, counter, quit")
        else:
            line = _("Your turn: cards, pass, hint, groups, table, counter, quit")
        self.say("> " + line)
        self.out.flush()

    def numbered(self, actions: list[Action], labels: list[str]) -> None:
        """Each label on a line of its own after its number, begun as a sentence as the web writes a hint."""
        self.choices = actions
        for i, label in enumerate(labels, 1):
            self.say(f"  {i}. {self.present.sentence(label)}")

    def command(self, line: str) -> bool:
        """Handle one input line; True when the human acted (a new decision point follows)."""
        _ = self.tr.gettext
        p = self.present
        text = line.strip()
        low = command_word(text)
        obs = self.s.observation()
        d = obs.deal
        legal = list(d.legal)
        if not text:
            return False
        if low in ("hint", "h"):
            found = hints(obs, 3, self.s.rules)
            self.numbered([h.action for h in found],
                          [f"{p.action(h.action, d.level)} — {p.hint_reason(h.reason)}" for h in found])
            return False
        if low in ("groups", "g"):
            for group, cards in group_hand(d.hand, d.level):
                self.say(f"  {_(GROUP_NAMES[group])}{_(': ')}{typed_tokens(cards, d.level)}")
            return False
        if low in ("table", "t"):
            for row in [_(" · ").join(level_line(obs, p, self.tr)), *table_lines(obs, p, self.tr)]:
                self.say("  " + row)
            return False
        if low in ("review", "r"):
            self.review()
            return False
        if low in ("counter", "c"):
            entries = counter_entries(counter_rows(d.hand, d.events, d.level, d.seat), p)
            self.say(_("unseen cards: {rows}").format(rows="  ".join(entries)))
            return False
        if low.isdigit():
            n = int(low)
            if not self.choices:
                raise InputProblem(N_("Nothing to choose from: ask for a hint first (cards are typed with their suit: H3, S10)"))
            if not 1 <= n <= len(self.choices):
                raise InputProblem(N_("Choose a number from 1 to {n}"), n=len(self.choices))
            return self.perform(self.choices[n - 1])
        if low in ("pass", "p"):
            return self.perform(pass_action(legal))
        found_actions = candidates(parse_tokens(text), d.hand, legal, d.level, self.s.rules)
        if len(found_actions) == 1:
            return self.perform(found_actions[0])
        self.say(_("These cards can be read several ways; choose one:"))
        self.numbered(found_actions, [p.combo(a.combo) for a in found_actions if a.combo is not None])
        return False

    def perform(self, action: Action) -> bool:
        events = self.s.act(action)  # IllegalActionError reaches the loop: nothing changed
        self.choices = []
        self.show(events)
        return True


def run_plain(session: Session, lang: str, inp: TextIO, out: TextIO, review_budget: float = REVIEW_BUDGET,
              columns: Callable[[], int | None] = no_columns) -> int:
    """Play until the match ends or input stops; saves on every exit. Returns the exit code. ``columns``: the
    width to break lines at, asked before each line (None: they stay whole)."""
    game = PlainGame(session, lang, out, review_budget, columns)
    _ = game.tr.gettext
    if session.save_path is not None:
        game.say(_("This match is saved to {path}").format(path=display_path(session.save_path)))
    for text in bot_failure_lines(session, lang):  # a bot that could not be started: said before anything is played
        game.say("! " + text)
    game.show(session.opening)
    fresh = True
    while not session.ended:
        if not session.human_to_move:
            events = session.bot_step()
            for text in bot_failure_lines(session, lang):
                game.say("! " + text)
            game.show(events)
            fresh = True
            continue
        if fresh:
            game.status()
            fresh = False
        game.prompt()
        try:
            line = inp.readline()
        except KeyboardInterrupt:  # Ctrl+C at the prompt: stop like quit, keeping the match
            line = ""
        if not line or command_word(line) in ("quit", "q"):
            saved = session.save_somewhere()
            for text in (saved_lines(saved, lang, unfinished=True) if session.save_path is not None
                         else [_("Stopped (not saved)")]):
                game.say(text)
            out.flush()
            return 1 if saved[0] is None and saved[1] is not None else 0
        try:
            fresh = game.command(line)
        except InputProblem as e:
            game.say("! " + e.text(game.tr, game.present, session.observation().deal.level))
        except GuandanError as e:  # an engine refusal: in the catalogue's words where it has them
            game.say("! " + said(e, game.lang, "tui"))
    saved = session.save_somewhere()
    if last_deal(session) is not None:  # one last offer: the review of the match's last deal
        game.say("> " + _("The match is over: review (r) for the engine's review of the last deal, or quit"))
        out.flush()
        line = inp.readline()
        if command_word(line) in ("review", "r"):
            game.review()
    for text in saved_lines(saved, lang):
        game.say(text)
    out.flush()
    return 1 if saved[0] is None and saved[1] is not None else 0

"""The hand widget: cards in level order (or grouped, 理牌), a cursor, a multi-card selection.

Wildcards (逢人配) are drawn in magenta with a ``*``; during tribute and return only the eligible
cards can be selected (the others are dimmed). Selection is by position, so the two copies of a
card are separate entries.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from rich.text import Text
from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget

from ..core.cards import SMALL_JOKER, Card, suit_of, wild_code
from ..i18n import N_, Translator
from ..present import Presenter
from .hand import GROUP_NAMES, Group, group_hand, level_sorted

RED_SUITS = frozenset({"H", "D"})
FALLBACK_WIDTH = 80 - 4  # the hand's width in an 80-column screen, before the widget knows its own
#: Enter's action in each stage of the table (:attr:`HandView.stage`); on the final table (``over``) it has none.
ENTER_ACTIONS = {"play": "submit", "lead": "submit", "tribute": "give", "return": "give_back", "choose": "take"}


def _row_width(row: list[Text]) -> int:
    return sum(unit.cell_len for unit in row) + max(0, len(row) - 1)


def _pack(rows: list[list[Text]], units: list[tuple[Text, Text]], width: int, breaks: set[int]) -> list[int]:
    """Append ``units`` to ``rows`` (changed in place), a new row where the next does not fit or its index is in
    ``breaks``; the row of each unit."""
    where = []
    for i, (after, first) in enumerate(units):
        if rows[-1] and (i in breaks or _row_width(rows[-1]) + 1 + after.cell_len > width):
            rows.append([])
        rows[-1].append(after if rows[-1] else first)
        where.append(len(rows) - 1)
    return where


def _place(rows: list[list[Text]], units: list[tuple[Text, Text]], width: int, whole: bool) -> list[list[Text]]:
    """``rows`` with one group's ``units`` laid out after them: the group on a new row when it does not fit on the
    last one but fits a row of its own (``whole``), and where it must be parted, two cards of it at least on each
    row, as far as the width allows."""
    shared = bool(rows[-1])  # the group starts after other groups on that row
    fits_alone = whole and _row_width([first for _after, first in units]) <= width
    breaks: set[int] = set()
    for _ in range(len(units) + 1):  # each round adds a break; they run out
        trial = [list(row) for row in rows]
        where = _pack(trial, units, width, breaks)
        pieces = [where.count(r) for r in sorted(set(where))]
        if len(pieces) > 1 and shared and 0 not in breaks and (fits_alone or pieces[0] < 2):
            breaks.add(0)  # the whole group, or more of it, on a row of its own
            continue
        if len(pieces) > 1 and pieces[-1] < 2 and pieces[-2] > 2:
            breaks.add(where.index(where[-1]) - 1)  # a card of the row before keeps the last one company
            continue
        return trial
    return trial


def translate_bindings(node: DOMNode, tr: Translator) -> None:
    """Footer labels from the catalogue. Textual reads descriptions from class-level BINDINGS, so the
    instance's merged map is rebuilt with translated copies."""
    node._bindings = BindingsMap(
        [replace(b, description=tr.gettext(b.description),
                 key_display=tr.gettext(b.key_display) if b.key_display else None) if b.description else b
         for _, b in node._bindings])


class HandView(Widget, can_focus=True):
    DEFAULT_CSS = """
    HandView { height: auto; min-height: 3; padding: 0 1; border: round $accent; }
    HandView:focus { border: round $success; }
    """
    BINDINGS = [  # noqa: RUF012 - Textual's declared class attribute
        Binding("left", "move(-1)", "←", show=False),
        Binding("right", "move(1)", "→", show=False),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(-1)", show=False),
        Binding("space", "pick", N_("select"), key_display=N_("space")),
        # Enter says what it does in each phase (only the one that fits is shown, and only it runs): check_action
        Binding("enter", "submit", N_("play")),
        Binding("enter", "give", N_("give")),  # a tribute (进贡)
        Binding("enter", "give_back", N_("give back")),  # a return (还贡)
        Binding("enter", "take", N_("take")),  # the choice of a tribute card (选贡)
    ]

    class Submitted(Message):
        """Enter was pressed on the hand."""

    class Changed(Message):
        """The selection changed."""

    class Refused(Message):
        """Space on a dimmed card, which cannot be given now (tribute, return)."""

        def __init__(self, card: Card) -> None:
            super().__init__()
            self.card = card

    def __init__(self, tr: Translator, present: Presenter, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tr = tr
        self.present = present
        translate_bindings(self, tr)
        self.level = 0
        self.cards: list[Card] = []  # display order
        self.groups: list[tuple[Group, int, int]] = []  # (group, start, end) when grouped
        self.grouped = False
        self.cursor = 0
        self.selected: set[int] = set()
        self.eligible: set[Card] | None = None  # tribute/return: only these may be chosen
        # what Enter and space do: play (or lead), tribute, return, choose; nothing while another seat is to move
        # (wait), once the player has gone out (out) and once the match is over (over)
        self.stage = "play"

    def set_stage(self, stage: str) -> None:
        """Tell the hand what the table asks of the player, so that the key bar names what Enter does (or, while
        another seat is to move and once the match is over, lists neither Enter nor space, which then do nothing)."""
        if stage != self.stage:
            self.stage = stage
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ENTER_ACTIONS.values():
            return ENTER_ACTIONS.get(self.stage) == action
        if action == "pick":
            return self.stage not in ("wait", "out", "over")
        return True

    # --- state ------------------------------------------------------------------------------
    def set_hand(self, hand: Iterable[Card], level: int, eligible: set[Card] | None = None) -> None:
        self.level = level
        self.eligible = eligible
        hand = list(hand)
        if self.grouped:
            self.cards, self.groups = [], []
            for key, cards in group_hand(hand, level):
                self.groups.append((key, len(self.cards), len(self.cards) + len(cards)))
                self.cards.extend(cards)
        else:
            self.cards, self.groups = level_sorted(hand, level), []
        self.selected.clear()
        self.cursor = min(self.cursor, max(0, len(self.cards) - 1))
        self.refresh(layout=True)
        self.post_message(self.Changed())

    def toggle_grouping(self) -> None:
        self.grouped = not self.grouped
        selected = self.selection()
        self.set_hand(list(self.cards), self.level, self.eligible)
        self.select_cards(selected)  # the same cards stay selected in the new order

    def selection(self) -> list[Card]:
        return [self.cards[i] for i in sorted(self.selected)]

    def select_cards(self, cards: Iterable[Card]) -> None:
        """Select these cards (copies counted), replacing the selection."""
        self.selected.clear()
        for c in cards:
            i = next((i for i, x in enumerate(self.cards) if x == c and i not in self.selected), None)
            if i is not None:
                self.selected.add(i)
        self.refresh()
        self.post_message(self.Changed())

    def clear(self) -> None:
        self.selected.clear()
        self.refresh()
        self.post_message(self.Changed())

    # --- actions ------------------------------------------------------------------------------
    def action_move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)
            self.refresh()

    def action_jump(self, where: int) -> None:
        if self.cards:
            self.cursor = where % len(self.cards)
            self.refresh()

    def action_pick(self) -> None:
        if not self.cards:
            return
        if self.eligible is not None and self.cards[self.cursor] not in self.eligible:
            self.app.bell()
            self.post_message(self.Refused(self.cards[self.cursor]))
            return
        if self.eligible is not None:  # one card only during tribute and return
            self.selected = set() if self.cursor in self.selected else {self.cursor}
        else:
            self.selected ^= {self.cursor}
        self.refresh()
        self.post_message(self.Changed())

    def action_submit(self) -> None:
        self.post_message(self.Submitted())

    action_give = action_give_back = action_take = action_submit

    # --- drawing ------------------------------------------------------------------------------
    def _card(self, i: int) -> Text:
        c = self.cards[i]
        wild = c == wild_code(self.level)
        label = self.present.card(c, self.level)  # ♠10, 小王 / Small Joker; the wildcard starred
        red = c > SMALL_JOKER or suit_of(c) in RED_SUITS  # the big joker and ♥ ♦ are red
        style = "bold magenta" if wild else ("red" if red else "")
        if self.eligible is not None and c not in self.eligible:
            style = "dim"
        if i in self.selected:
            style += " reverse"
        if i == self.cursor and self.has_focus:
            style += " underline"
        # the label and a no-break space carry the style, so a selected card reads as one block
        return Text(label + "\u00a0", style=style.strip())

    def _units(self) -> list[list[tuple[Text, Text]]]:
        """What may not be parted across lines: each card, and a group's name with its first card; by group (the
        whole hand one group when it is not grouped). Each as (its text after others on a line, its text starting
        a line: without the bar between groups)."""
        if not self.groups:
            return [[(card, card) for card in (self._card(i) for i in range(len(self.cards)))]]
        groups = []
        for n, (group, a, b) in enumerate(self.groups):  # grouped: the groups run on, each named
            head = Text(self.tr.gettext(GROUP_NAMES[group]) + self.tr.gettext(": "), style="italic") + self._card(a)
            units = [(Text("│ ", style="dim") + head if n else head, head)]
            units += [(card, card) for card in (self._card(i) for i in range(a + 1, b))]
            groups.append(units)
        return groups

    def _lines(self, width: int) -> list[Text]:
        """The hand laid out in lines of ``width`` cells. Laid out here, not by Rich: Rich breaks a line at
        any space ("Big Joker") and, with Chinese wrapping on (guandan.clihelp.wrap_cjk), between any
        two ideographs, which parted 大王 and a group's name (对 / 子：). A group that does not fit after the
        others starts a line of its own; one longer than a line is parted so that no line holds a single card of
        it (a lone ♦J under the other triples read as a group of its own)."""
        rows: list[list[Text]] = [[]]
        for units in self._units():
            rows = _place(rows, units, width, whole=bool(self.groups))
        lines = [Text(" ").join(row) for row in rows]
        return lines or [Text()]
    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._lines(width)) if self.cards else 1

    def render(self) -> Text:
        if not self.cards:
            return Text(self.tr.gettext("(no cards)"))
        text = Text("\n").join(self._lines(self.content_size.width or FALLBACK_WIDTH))
        text.no_wrap = True  # already laid out in lines that fit
        return text

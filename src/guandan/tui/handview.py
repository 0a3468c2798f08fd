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
from textual.message import Message
from textual.widget import Widget

from ..core.cards import Card, card_display, wild_code
from ..i18n import N_, Translator
from .hand import GROUP_NAMES, group_hand, level_sorted


def translate_bindings(node: DOMNode, tr: Translator) -> None:
    """Footer labels from the catalogue. Textual reads descriptions from class-level BINDINGS, so the
    instance's merged map is rebuilt with translated copies."""
    node._bindings = BindingsMap(
        [replace(b, description=tr.gettext(b.description)) if b.description else b for _, b in node._bindings])


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
        Binding("space", "pick", N_("select")),
        Binding("enter", "submit", N_("play")),
    ]

    class Submitted(Message):
        """Enter was pressed on the hand."""

    def __init__(self, tr: Translator, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tr = tr
        translate_bindings(self, tr)
        self.level = 0
        self.cards: list[Card] = []  # display order
        self.groups: list[tuple[str, int, int]] = []  # (group key, start, end) when grouped
        self.grouped = False
        self.cursor = 0
        self.selected: set[int] = set()
        self.eligible: set[Card] | None = None  # tribute/return: only these may be chosen

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

    def toggle_grouping(self) -> None:
        self.grouped = not self.grouped
        self.set_hand(list(self.cards), self.level, self.eligible)

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

    def clear(self) -> None:
        self.selected.clear()
        self.refresh()

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
            return
        if self.eligible is not None:  # one card only during tribute and return
            self.selected = set() if self.cursor in self.selected else {self.cursor}
        else:
            self.selected ^= {self.cursor}
        self.refresh()

    def action_submit(self) -> None:
        self.post_message(self.Submitted())

    # --- drawing ------------------------------------------------------------------------------
    def _card(self, i: int) -> Text:
        c = self.cards[i]
        wild = c == wild_code(self.level)
        label = card_display(c) + ("*" if wild else "")
        style = "bold magenta" if wild else ("red" if c >= 52 or (c & 3) in (1, 3) else "")
        if self.eligible is not None and c not in self.eligible:
            style = "dim"
        if i in self.selected:
            style += " reverse"
        if i == self.cursor and self.has_focus:
            style += " underline"
        return Text(f" {label} ", style=style.strip())

    def render(self) -> Text:
        if not self.cards:
            return Text(self.tr.gettext("(no cards)"))
        out = Text()
        spans = self.groups or [("", 0, len(self.cards))]
        for n, (key, a, b) in enumerate(spans):
            if n:
                out.append("\n")
            if key:
                out.append(f"{self.tr.gettext(GROUP_NAMES[key])}: ", style="italic")
            for i in range(a, b):
                out.append_text(self._card(i))
        return out

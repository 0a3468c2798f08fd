"""Cards, ranks, levels and the three notations (RULES.md §1–§2).

Hot paths use plain ``int`` card codes: ``code = rank_index * 4 + suit_index`` for the 52 suited
cards (rank_index 0 = "2" … 12 = "A"; suits S, H, C, D), 52 for the small joker and 53 for the big
joker. A code names a (suit, rank); the two physical copies of the deck share it, and the game never
distinguishes them. :class:`PhysicalCard` adds the copy for the 108-card deck.

Notations:

* RULES.md (``S3 HT LJ BJ``) — the default everywhere;
* the 2020 competition protocol (``SB`` small joker, ``HR`` big joker; ``SJ`` is the jack of spades);
* display (``♠3 ♥10 小王 大王``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from .errors import N_, InvalidHandError, LevelError, NotationError, shown

# re-exported: rank_index order (natural value = rank_index + 2) and suit index order
from .vocab import RANKS as RANKS
from .vocab import SUITS as SUITS

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
SMALL_JOKER: Final = 52  # 小王
BIG_JOKER: Final = 53  # 大王
N_CODES: Final = 54
HEARTS: Final = 1  # suit index of ♥ — the wildcards (逢人配) are the hearts of the level rank

Card = int
"""A card code 0…53 (see the module docstring)."""


def code_of(suit: str, rank: str) -> Card:
    return RANKS.index(rank) * 4 + SUITS.index(suit)


def rank_index(code: Card) -> int:
    """0…12 for 2…A; 13 for the small joker, 14 for the big joker."""
    return code >> 2 if code < 52 else code - 39


def suit_of(code: Card) -> str | None:
    return SUITS[code & 3] if code < 52 else None


def is_joker(code: Card) -> bool:
    return code >= 52


class PhysicalCard(NamedTuple):
    """One of the 108 physical cards: (suit, rank, copy). Jokers have suit ``None``."""

    suit: str | None
    rank: str  # "2".."A", or "LJ"/"BJ" for jokers
    copy: int  # 0 or 1

    @property
    def code(self) -> Card:
        if self.suit is None:
            return SMALL_JOKER if self.rank == "LJ" else BIG_JOKER
        return code_of(self.suit, self.rank)

    def __str__(self) -> str:
        return card_str(self.code)


def physical_deck() -> list[PhysicalCard]:
    """The 108 cards of two decks, in a fixed order (shuffle with a seeded RNG)."""
    deck: list[PhysicalCard] = []
    for copy in (0, 1):
        for rank in RANKS:
            for suit in SUITS:
                deck.append(PhysicalCard(suit, rank, copy))
        deck.append(PhysicalCard(None, "LJ", copy))
        deck.append(PhysicalCard(None, "BJ", copy))
    return deck


# ---------------------------------------------------------------------------------------------
# Levels (级) and the single-card order lv (§2.2)


def parse_level(level: object) -> int:
    """A level as rank_index 0…12. Accepts "2".."9", "T"/"10", "J", "Q", "K", "A" (or ints 2…14);
    anything else (of any type: it often comes from outside) raises :class:`LevelError`."""
    if isinstance(level, int) and not isinstance(level, bool):
        if 2 <= level <= 14:
            return level - 2
        raise LevelError.said(N_("level {level} is outside 2…A (2…14)"), level=level)
    if isinstance(level, str):
        text = level.strip().upper()
        if text == "10":
            text = "T"
        if len(text) == 1 and text in RANKS:
            return RANKS.index(text)
    raise LevelError.said(N_("level {level} is not one of 2 3 4 5 6 7 8 9 10 J Q K A"), level=shown(level))


def level_str(level_index: int) -> str:
    return RANKS[level_index]


def wild_code(level_index: int) -> Card:
    """The wildcard (逢人配): the heart card of the current level."""
    return level_index * 4 + HEARTS


def lv(code: Card, level_index: int) -> int:
    """Single-card value (§2.2): 2…14 natural, 15 for level cards, 16 small joker, 17 big joker."""
    if code >= 52:
        return 16 if code == SMALL_JOKER else 17
    r = code >> 2
    return 15 if r == level_index else r + 2


def level_order(level_index: int) -> list[str]:
    """Rank symbols from high to low in single-card order at this level (MSC-005/006)."""
    ranks = [r for r in RANKS if RANKS.index(r) != level_index]
    return ["BJ", "LJ", RANKS[level_index], *reversed(ranks)]


# ---------------------------------------------------------------------------------------------
# Notation

_DISPLAY_RANK = {"T": "10"}
_PROTOCOL_JOKERS = {SMALL_JOKER: "SB", BIG_JOKER: "HR"}


def card_str(code: Card) -> str:
    """RULES.md notation: ``S3``, ``HT``, ``LJ``, ``BJ``."""
    if code == SMALL_JOKER:
        return "LJ"
    if code == BIG_JOKER:
        return "BJ"
    return SUITS[code & 3] + RANKS[code >> 2]


def card_protocol(code: Card) -> str:
    """2020 protocol notation: ``S3``, ``HT``, ``SB`` (small joker), ``HR`` (big joker)."""
    return _PROTOCOL_JOKERS.get(code) or card_str(code)


def card_display(code: Card) -> str:
    """Display form: ``♠3``, ``♥10``, ``小王``, ``大王``."""
    if code == SMALL_JOKER:
        return "小王"
    if code == BIG_JOKER:
        return "大王"
    r = RANKS[code >> 2]
    return SUIT_SYMBOLS[SUITS[code & 3]] + _DISPLAY_RANK.get(r, r)


def _token_map(notation: str) -> dict[str, Card]:
    table: dict[str, Card] = {}
    for code in range(52):
        table[card_str(code)] = code
        if notation == "display":
            table[card_display(code)] = code
    if notation == "protocol":
        table["SB"], table["HR"] = SMALL_JOKER, BIG_JOKER
    else:
        table["LJ"], table["BJ"] = SMALL_JOKER, BIG_JOKER
    if notation == "display":
        table["小王"], table["大王"] = SMALL_JOKER, BIG_JOKER
        for code in range(52):  # "♥T" and "H10" are accepted too
            r = RANKS[code >> 2]
            if r == "T":
                table[SUIT_SYMBOLS[SUITS[code & 3]] + "T"] = code
                table[SUITS[code & 3] + "10"] = code
    return table


_TOKENS = {n: _token_map(n) for n in ("rules", "protocol", "display")}


def parse_card(token: str, notation: str = "rules", position: int | None = None) -> Card:
    """One card token. ``notation`` is "rules" (default), "protocol" or "display"."""
    try:
        table = _TOKENS[notation]
    except KeyError:
        raise NotationError.said(N_("unknown card notation {notation} (rules, protocol, display)"),
                                 notation=shown(notation)) from None
    code = table.get(token) if isinstance(token, str) else None
    if code is None and isinstance(token, str):
        code = table.get(token.strip().upper()) if notation != "display" else table.get(token.strip())
    if code is None:
        if position is None:
            raise NotationError.said(N_("bad card token {token} ({notation} notation)"),
                                     token=shown(token), notation=notation)
        raise NotationError.said(N_("bad card token {token} at position {position} ({notation} notation)"),
                                 token=shown(token), position=position, notation=notation)
    return code


def parse_cards(text: str | Iterable[str], notation: str = "rules") -> list[Card]:
    """Cards written space-separated (or as a list of tokens), any order.

    Raises :class:`NotationError` naming the bad token and its 1-based position, and
    :class:`InvalidHandError` if a (suit, rank) appears more than twice.
    """
    tokens = text.split() if isinstance(text, str) else list(text)
    codes = [parse_card(t, notation, i + 1) for i, t in enumerate(tokens)]
    check_physical(codes)
    return codes


def check_physical(codes: Sequence[Card]) -> None:
    """Reject card lists that hold a physical card more than twice (two decks)."""
    for code, n in Counter(codes).items():
        if not isinstance(code, int) or not 0 <= code < N_CODES:
            raise InvalidHandError.said(N_("{code} is not a card code"), code=shown(code))
        if n > 2:
            raise InvalidHandError.said(N_("{card} appears {n} times; two decks hold only 2"), card=card_str(code), n=n)


def format_cards(codes: Iterable[Card], notation: str = "rules") -> str:
    fmt = {"rules": card_str, "protocol": card_protocol, "display": card_display}.get(notation)
    if fmt is None:
        raise NotationError.said(N_("unknown card notation {notation} (rules, protocol, display)"), notation=shown(notation))
    return " ".join(fmt(c) for c in codes)


def sort_cards(codes: Iterable[Card], level_index: int | None = None) -> list[Card]:
    """Sorted by single-card order at the level (low to high), then suit; by code without a level."""
    if level_index is None:
        return sorted(codes)
    return sorted(codes, key=lambda c: (lv(c, level_index), c))


def counts_of(codes: Iterable[Card]) -> list[int]:
    """A 54-long count vector."""
    cnt = [0] * N_CODES
    for c in codes:
        cnt[c] += 1
    return cnt

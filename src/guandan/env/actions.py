"""The fixed action space of the research environments: one index per kind of decision.

Index layout (``ACTION_SIZE`` in all, the same for every preset so that one network serves them all):

* ``0`` — pass (不要);
* ``1 + c`` for card kind ``c`` (0…53) — a tribute, 头游's choice or a return of that card (the phase
  says which);
* ``CARD_ACTIONS_END + 9 * slot + 3 * w + j`` — a play: ``slot`` is the combo's pattern (type, size,
  key, suit of a straight flush, x×y of a chain bomb; see :data:`PATTERNS`), ``w`` the ♥ level cards
  (逢人配) it uses and ``j`` the big jokers it holds, each 0…2.

That key is exactly the one canonical move generation (``MoveMode.CANONICAL``) keeps one play for,
so a canonical position's plays land on distinct indices except in the few families where the
generator keeps more than one set per key; there the first legal play in the engine's order owns the
index and the rest are dropped (:func:`index_actions` counts them). Everything here is computed from
a seat's own observation: its legal actions and the deal's level.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..core.cards import BIG_JOKER, N_CODES, card_str, wild_code
from ..core.combos import Combo
from ..core.deal import Action
from ..core.errors import shown
from ..core.vocab import RANKS, SUITS, ActionKind, ComboType
from ..i18n import N_, default_lang
from .errors import env_error

Pattern = tuple[ComboType, int, str, str | None, int | None, int | None]
"""A combo's identity without its level-dependent strength: (type, size, key, suit, x, y)."""

COMBO_TYPES: tuple[ComboType, ...] = tuple(ComboType)
COMBO_TYPE_INDEX = {t: i for i, t in enumerate(COMBO_TYPES)}
PASS_INDEX = 0
CARD_ACTIONS_END = 1 + N_CODES  # 55: indices 1…54 are the single-card decisions
WILD_VARIANTS = 9  # (♥ level cards used 0…2) × (big jokers held 0…2)


def _seq_key(top: int) -> str:
    """A sequence's key: its top card, position 2…14 (5 for A-2-3-4-5)."""
    return RANKS[top - 2]


def _patterns() -> tuple[Pattern, ...]:
    """Every combo pattern any preset can produce, over the widest ranges the rules allow
    (rules.py's validation bounds: straights 5–13, pair runs 3–13, triple runs 2–9, bombs up to 12)."""
    out: list[Pattern] = []
    rank_keys = [*RANKS, "LJ", "BJ"]
    T = ComboType
    out += [(T.SINGLE, 1, k, None, None, None) for k in rank_keys]
    out += [(T.PAIR, 2, k, None, None, None) for k in rank_keys]
    out += [(T.TRIPLE, 3, k, None, None, None) for k in RANKS]
    out += [(T.FULL_HOUSE, 5, k, None, None, None) for k in RANKS]
    out += [(T.STRAIGHT, n, _seq_key(top), None, None, None) for n in range(5, 14) for top in range(n, 15)]
    out += [(T.TUBE, 6, _seq_key(top), None, None, None) for top in range(3, 15)]
    out += [(T.PAIR_RUN, 2 * k, _seq_key(top), None, None, None) for k in range(3, 14) for top in range(k, 15)]
    out += [(T.PLATE, 6, _seq_key(top), None, None, None) for top in range(2, 15)]
    out += [(T.TRIPLE_RUN, 3 * k, _seq_key(top), None, None, None) for k in range(2, 10) for top in range(k, 15)]
    out += [(T.AIRPLANE, 5 * k, _seq_key(top), None, None, None) for k in range(2, 6) for top in range(k, 15)]
    out += [(T.BOMB, n, k, None, None, None) for n in range(4, 13) for k in RANKS]
    out += [(T.STRAIGHT_FLUSH, 5, _seq_key(top), s, None, None) for s in SUITS for top in range(5, 15)]
    # 火拼's X相Y连环: Y (3…6) consecutive ranks of X ≥ 4 cards each, at most a hand (27 cards)
    out += [(T.CHAIN_BOMB, x * y, _seq_key(top), None, x, y)
            for y in range(3, 7) for x in range(4, 27 // y + 1) for top in range(y, 15)]
    out += [(T.THREE_JOKERS, 3, "JOKERS", None, None, None), (T.JOKER_BOMB, 4, "JOKERS", None, None, None)]
    return tuple(out)


PATTERNS: tuple[Pattern, ...] = _patterns()
PATTERN_INDEX: dict[Pattern, int] = {p: i for i, p in enumerate(PATTERNS)}
ACTION_SIZE = CARD_ACTIONS_END + WILD_VARIANTS * len(PATTERNS)
_PLAY_BASE: dict[Pattern, int] = {p: CARD_ACTIONS_END + WILD_VARIANTS * i for i, p in enumerate(PATTERNS)}
_PASS, _PLAY = ActionKind.PASS, ActionKind.PLAY
_INT8 = np.dtype(np.int8)  # passed positionally: frombuffer's keyword parsing costs more than the call
FEATURE_SIZE = N_CODES + len(COMBO_TYPES) + 2  # cards, combo type, pass flag, single-card-decision flag


def pattern_of(combo: Combo) -> Pattern:
    """The pattern of a declared combo (its strength fields left out: they depend on the level)."""
    return (combo.type, combo.size, combo.key, combo.suit, combo.x, combo.y)


def action_index(action: Action, level: int) -> int:
    """The fixed index of one legal action at a deal of ``level`` (a rank index)."""
    return _index(action, wild_code(level))


def _index(action: Action, wc: int) -> int:
    """:func:`action_index` with the level's ♥ level card ``wc`` already known."""
    kind = action.kind
    if kind == _PASS:
        return PASS_INDEX
    cards = action.cards
    if kind != _PLAY:
        return 1 + cards[0]
    combo = action.combo
    assert combo is not None
    return (_PLAY_BASE[(combo.type, combo.size, combo.key, combo.suit, combo.x, combo.y)]
            + 3 * cards.count(wc) + cards.count(BIG_JOKER))


def as_index(value: object) -> int | None:
    """``value`` as an action index, or None where it is no integer: an ``int``, a NumPy integer (what a
    policy's ``argmax`` gives) or a 0-d integer array are, a bool (``True`` is not index 1), a float or a
    string are not."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]  # its TypeError is the answer for the rest
    except TypeError:
        return None


def shown_action(value: object) -> str:
    """A value given as an action, quoted as an error quotes any value (:func:`~guandan.core.errors.shown`), a NumPy
    scalar as the number or truth value it holds (``false``, ``2.5``), never its Python name."""
    return shown(value.item() if isinstance(value, np.generic) else value)


def describe_index(index: int) -> str:
    """A readable name of an index (for logs and the docs), independent of any position."""
    if not 0 <= index < ACTION_SIZE:
        raise env_error(ValueError, default_lang(), N_("action index must be 0…{last}, not {index}"),
                        last=ACTION_SIZE - 1, index=index)
    if index == PASS_INDEX:
        return "pass"
    if index < CARD_ACTIONS_END:
        return f"card {index - 1} ({card_str(index - 1)})"
    slot, variant = divmod(index - CARD_ACTIONS_END, WILD_VARIANTS)
    t, size, key, suit, x, y = PATTERNS[slot]
    extra = f" {suit}" if suit else f" {x}x{y}" if x else ""
    return f"{t}({key}{extra}, {size}) wild={variant // 3} big_jokers={variant % 3}"


def index_actions(legal: Sequence[Action], level: int) -> tuple[dict[int, Action], int]:
    """Each legal action's index → the action (the first in the engine's order when two share one),
    and how many legal actions were dropped by such a collision."""
    out: dict[int, Action] = {}
    wc = wild_code(level)
    for a in legal:
        out.setdefault(_index(a, wc), a)
    return out, len(legal) - len(out)


def action_mask(indices: dict[int, Action]) -> npt.NDArray[np.int8]:
    """The legal-action mask: 1 at every index of ``indices``."""
    # set byte by byte and viewed as int8 once: numpy's fancy indexing costs more than the few
    # dozen writes of a position's legal set
    mask = bytearray(ACTION_SIZE)
    for i in indices:
        mask[i] = 1
    return np.frombuffer(mask, _INT8)


def action_features(action: Action) -> npt.NDArray[np.int8]:
    """One action's feature vector (DouZero-style agents score these): the card counts it plays or
    gives (54), its combo type one-hot (``len(COMBO_TYPES)``), a pass flag and a single-card-decision flag."""
    f = bytearray(FEATURE_SIZE)
    _write_features(f, 0, action)
    return np.frombuffer(f, _INT8)


def _write_features(buf: bytearray, at: int, action: Action) -> None:
    """Write :func:`action_features` of ``action`` into the zeroed ``buf[at:at + FEATURE_SIZE]``."""
    for c in action.cards:
        buf[at + c] += 1
    kind = action.kind
    if kind == _PASS:
        buf[at + FEATURE_SIZE - 2] = 1
    elif kind != _PLAY:
        buf[at + FEATURE_SIZE - 1] = 1
    elif action.combo is not None:
        buf[at + N_CODES + COMBO_TYPE_INDEX[action.combo.type]] = 1


def features_of(indices: dict[int, Action]) -> tuple[list[int], npt.NDArray[np.int8]]:
    """The legal indices in ascending order and their feature vectors, one row each."""
    order = sorted(indices)
    # every row written into one buffer and viewed as a matrix once: a numpy array per row and its
    # copy into the matrix cost a sixth of a step
    buf = bytearray(len(order) * FEATURE_SIZE)
    for row, i in enumerate(order):
        _write_features(buf, row * FEATURE_SIZE, indices[i])
    return order, np.frombuffer(buf, _INT8).reshape(len(order), FEATURE_SIZE)


def padded_features_of(indices: dict[int, Action], rows: int
                       ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """:func:`features_of` in arrays of a fixed shape, which a Gymnasium vector stacks: ``rows`` legal indices
    (ascending, then -1), their feature rows (then zeros) and a mask with 1 at each legal row. ``indices`` must
    hold at most ``rows`` actions."""
    order = sorted(indices)
    buf = bytearray(rows * FEATURE_SIZE)
    for row, i in enumerate(order):
        _write_features(buf, row * FEATURE_SIZE, indices[i])
    legal = np.full(rows, -1, dtype=np.int64)
    legal[: len(order)] = order
    mask = np.zeros(rows, dtype=np.int8)
    mask[: len(order)] = 1
    return legal, np.frombuffer(buf, _INT8).reshape(rows, FEATURE_SIZE), mask


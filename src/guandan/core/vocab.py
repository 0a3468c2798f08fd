"""The game's vocabulary as types: phases, action kinds, event types, hand types and rule choices.

Every name is a :class:`enum.StrEnum`, so a member *is* its wire string (``ComboType.PAIR == "pair"``,
``json.dumps`` writes ``"pair"``): records and frames keep the spelling they always had, and code
compares members, never string literals. ``guandan schema`` exports these sets for the browser.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

from .errors import N_, GuandanError, shown

RANKS = "23456789TJQKA"  # rank_index order; a level is one of these characters on the wire
SUITS = "SHCD"  # suit index order: ♠ ♥ ♣ ♦


class Phase(StrEnum):
    """The phase of a deal (一副牌)."""

    TRIBUTE = "tribute"  # 进贡: the payers choose their tribute cards
    CHOOSE = "choose"  # 头游 picks one of two equal tribute cards (winners_choose)
    RETURN = "return"  # 还贡: the receivers give a card back
    PLAY = "play"  # 出牌
    OVER = "over"  # the deal has ended


class ActionKind(StrEnum):
    """What a seat can do."""

    TRIBUTE = "tribute"  # 进贡
    CHOOSE = "choose"  # 选贡: 头游 takes one of two equal tribute cards
    RETURN = "return"  # 还贡
    PLAY = "play"  # 出牌
    PASS = "pass"  # 不要 / 过


class EventType(StrEnum):
    """A public fact of a deal or match, in the order it happened (see :mod:`guandan.core.events`)."""

    DEAL_START = "deal_start"  # 开局: a new deal is dealt
    FIRST_LEAD = "first_lead"  # 首出: the first deal's flipped card picks the leader
    ANTI_TRIBUTE = "anti_tribute"  # 抗贡: the payers hold both big jokers
    TRIBUTE_PAID = "tribute_paid"  # the tribute cards are down, 头游 chooses
    TRIBUTE = "tribute"  # 进贡: the tribute cards change hands
    RETURN = "return"  # 还贡: the return cards change hands
    LEAD = "lead"  # 先出: play starts with this seat
    PLAY = "play"  # 出牌
    PASS = "pass"  # 不要
    REPORT = "report"  # 报牌: a seat's card count becomes public
    OUT = "out"  # a seat has played its last card (头游, 二游, …)
    ROUND_WON = "round_won"  # a round (一轮) ended; possibly 接风
    DEAL_OVER = "deal_over"  # the finishing order is known
    DEAL_SETTLED = "deal_settled"  # levels, declarer and points after the deal
    MATCH_OVER = "match_over"  # the match has ended


class ComboType(StrEnum):
    """Hand types (牌型), RULES.md §3.1 and §8.4."""

    SINGLE = "single"  # 单张
    PAIR = "pair"  # 对子
    TRIPLE = "triple"  # 三张
    FULL_HOUSE = "full_house"  # 三带二
    STRAIGHT = "straight"  # 顺子
    TUBE = "tube"  # 木板 / 三连对
    PLATE = "plate"  # 钢板
    PAIR_RUN = "pair_run"  # 连对 (火拼)
    TRIPLE_RUN = "triple_run"  # 连三张 (火拼)
    AIRPLANE = "airplane"  # 飞机带翅膀 (火拼)
    BOMB = "bomb"  # 炸弹
    STRAIGHT_FLUSH = "straight_flush"  # 同花顺
    CHAIN_BOMB = "chain_bomb"  # 连环炸弹 (火拼)
    THREE_JOKERS = "three_jokers"  # 三王炸弹 (火拼)
    JOKER_BOMB = "joker_bomb"  # 天王炸 / 四大天王


class ComboKey(StrEnum):
    """The keys of joker plays; other combos are keyed by a rank character."""

    SMALL_JOKER = "LJ"  # 小王
    BIG_JOKER = "BJ"  # 大王
    JOKERS = "JOKERS"  # a joker bomb


class MoveMode(StrEnum):
    """How many plays move generation lists."""

    COMPLETE = "complete"  # every distinct play (which suits, which cards stay in hand)
    CANONICAL = "canonical"  # one per (combo, ♥ level cards used, big jokers used), for search


class SettlementNote(StrEnum):
    """Why a deal's settlement differs from the plain upgrade table (§5.3, §8.2)."""

    PASSED_A = "passed_a"  # 过A: the match is won
    OVERSHOOT = "overshoot"  # the upgrade went past A and wins (overshoot_wins)
    A_FAILED = "a_failed"  # an A attempt failed
    A_RESET = "a_reset"  # too many A failures: back to a_fail_reset_to
    STREAK_BONUS = "streak_bonus"  # 连续头游 bonus
    STREAK_PENALTY = "streak_penalty"  # 连续末游 penalty


# --- rule choices (RuleSet keys with a fixed set of values, RULES.md §7) ---------------------------


class WildResolution(StrEnum):
    """How a play with wildcards is read."""

    DECLARE = "declare"  # the player declares one reading
    STRONGEST = "strongest"  # 火拼: the strongest reading, automatically


class BombOrder(StrEnum):
    SIZE_LADDER = "size_ladder"  # more cards beat fewer; straight flush between 5 and 6 cards
    STARS = "stars"  # 火拼: by stars (星级)


class Jiefeng(StrEnum):
    """Who leads after a seat goes out on a play nobody beats (接风)."""

    PARTNER = "partner"
    NEXT_PLAYER = "next_player"


class ReturnRule(StrEnum):
    """Which cards a tribute receiver may give back (还贡)."""

    LE10 = "le10"  # a card of 10 or lower
    ANY = "any"
    LE10_IF_PARTNER = "le10_if_partner"  # 10 or lower only when returning to a partner


class EqualTributeAssignment(StrEnum):
    """Who receives which of two equal tribute cards (双下)."""

    LEFT = "left"
    RANDOM = "random"
    WINNERS_CHOOSE = "winners_choose"


class DoubleTributeLeader(StrEnum):
    """Who leads after a double tribute."""

    PAYER_TO_FIRST = "payer_to_first"  # the payer of the bigger card (given to 头游)
    LAST_PLACE = "last_place"  # 末游


class DoubleDownOrder(StrEnum):
    TURN_ORDER = "turn_order"


class Scoring(StrEnum):
    LEVELS = "levels"  # 升级
    HUOPIN_POINTS = "huopin_points"  # 火拼 points


class HuopinCombine(StrEnum):
    """How several bomb multipliers of one deal combine (火拼)."""

    MAX = "max"
    PRODUCT = "product"


class StreakMode(StrEnum):
    ESCALATING = "escalating"
    FLAT = "flat"


class StreakScope(StrEnum):
    PLAYER = "player"
    TEAM = "team"


E = TypeVar("E", bound=StrEnum)


def parse_choice(enum: type[E], value: object, what: str, error: type[GuandanError] = GuandanError) -> E:
    """``value`` as a member of ``enum``; an ``error`` naming ``what`` and the choices otherwise."""
    if isinstance(value, enum):
        return value
    if isinstance(value, str):
        try:
            return enum(value)
        except ValueError:
            pass
    choices = ", ".join(m.value for m in enum)
    raise error.said(N_("{option} must be one of {choices}, not {value}"), option=what, choices=choices, value=shown(value))


VOCABULARY: dict[str, type[StrEnum]] = {
    "Phase": Phase,
    "ActionKind": ActionKind,
    "EventType": EventType,
    "ComboType": ComboType,
    "ComboKey": ComboKey,
    "MoveMode": MoveMode,
    "SettlementNote": SettlementNote,
    "WildResolution": WildResolution,
    "BombOrder": BombOrder,
    "Jiefeng": Jiefeng,
    "ReturnRule": ReturnRule,
    "EqualTributeAssignment": EqualTributeAssignment,
    "DoubleTributeLeader": DoubleTributeLeader,
    "DoubleDownOrder": DoubleDownOrder,
    "Scoring": Scoring,
    "HuopinCombine": HuopinCombine,
    "StreakMode": StreakMode,
    "StreakScope": StreakScope,
}
"""Every enumerated vocabulary, by name (what ``guandan schema`` exports)."""

BOMB_TYPES = frozenset({ComboType.BOMB, ComboType.STRAIGHT_FLUSH, ComboType.CHAIN_BOMB, ComboType.THREE_JOKERS,
                        ComboType.JOKER_BOMB})

"""Tribute (进贡), anti-tribute (抗贡), return (还贡) and the leader after them (RULES.md §4.2).

Pure functions of the previous finishing order and the newly dealt hands; the deal state machine
(:mod:`guandan.core.deal`) asks the seats for their choices.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import BIG_JOKER, Card, lv, wild_code
from .errors import N_, GuandanError
from .reduce import by_init
from .rules import RuleSet
from .vocab import DoubleTributeLeader, EqualTributeAssignment, ReturnRule


def partner(seat: int) -> int:
    return (seat + 2) % 4


def team_of(seat: int) -> int:
    return seat % 2


@dataclass(frozen=True)
class Payment:
    """One tribute: ``payer`` gives a card of value ``value`` (lv) to ``receiver``."""

    payer: int
    receiver: int
    value: int  # lv of the forced rank
    eligible: tuple[Card, ...]  # the payer's cards of that value (he chooses which copy/suit)

    def __reduce__(self) -> tuple[Any, ...]:
        return by_init(self)  # compiled, the default pickling cannot rebuild it


@dataclass(frozen=True)
class TributePlan:
    """What §4.2 decides before anyone chooses a card."""

    anti_tribute: bool
    anti_seats: tuple[int, ...]  # seats holding the big jokers that resisted (revealed)
    payments: tuple[Payment, ...]  # to 头游 first
    leader: int | None  # None: decided after the tribute cards are seen (equal-card cases resolve here)
    payers: tuple[int, ...]

    def __reduce__(self) -> tuple[Any, ...]:
        return by_init(self)  # compiled, the default pickling cannot rebuild it


def payers_of(prev_finish: Sequence[int]) -> list[int]:
    """双下 → both losers pay; 1-3 / 1-4 → 末游 pays (§4.2.1)."""
    f1 = prev_finish[0]
    if prev_finish[1] == partner(f1):
        return [s for s in range(4) if team_of(s) != team_of(f1)]
    return [prev_finish[3]]


def tribute_value(hand: Sequence[Card], level: int) -> int:
    """The forced rank: the highest lv excluding the wildcards (§4.2.2)."""
    wc = wild_code(level)
    values = [lv(c, level) for c in hand if c != wc]
    if not values:
        raise GuandanError.said(N_("a payer holding only wildcards cannot pay a tribute"))
    return max(values)


def plan_tribute(
    prev_finish: Sequence[int],
    hands: Mapping[int, Sequence[Card]],
    level: int,
    rules: RuleSet,
    rng: random.Random | None = None,
) -> TributePlan:
    """§4.2 / §6 ``tribute_phase``. ``rng`` is used only by ``equal_tribute_assignment = "random"``."""
    f1 = prev_finish[0]
    payers = payers_of(prev_finish)
    holders = [s for s in payers for c in hands[s] if c == BIG_JOKER]
    if len(holders) >= 2:
        return TributePlan(True, tuple(holders), (), f1, tuple(payers))
    wc = wild_code(level)
    values = {s: tribute_value(hands[s], level) for s in payers}

    def eligible(s: int) -> tuple[Card, ...]:
        return tuple(sorted({c for c in hands[s] if c != wc and lv(c, level) == values[s]}))

    if len(payers) == 1:
        (p,) = payers
        leader = leader_after_tribute(p, prev_finish, False, rules)
        return TributePlan(False, (), (Payment(p, f1, values[p], eligible(p)),), leader, (p,))
    a, b = payers
    if values[a] != values[b]:
        hi, lo = (a, b) if values[a] > values[b] else (b, a)
    elif rules.equal_tribute_assignment == EqualTributeAssignment.LEFT:
        hi, lo = (f1 + 1) % 4, (f1 + 3) % 4  # 贡左还右: 头游's 下家 pays 头游
    elif rules.equal_tribute_assignment == EqualTributeAssignment.RANDOM:
        if rng is None:
            raise GuandanError("equal_tribute_assignment = random needs the deal's RNG")
        hi = rng.choice(sorted(payers))
        lo = b if hi == a else a
    else:  # winners_choose: the deal asks 头游; until then the order is provisional
        hi, lo = (f1 + 1) % 4, (f1 + 3) % 4
    leader = leader_after_tribute(hi, prev_finish, True, rules)
    payments = (Payment(hi, f1, values[hi], eligible(hi)), Payment(lo, partner(f1), values[lo], eligible(lo)))
    return TributePlan(False, (), payments, leader, (hi, lo))


def leader_after_tribute(payer_to_first: int, prev_finish: Sequence[int], double: bool, rules: RuleSet) -> int:
    """Who leads the play after a tribute (§4.2): the payer, or with two payers the one who paid
    头游 — 末游 instead under ``double_tribute_leader = last_place``."""
    if double and rules.double_tribute_leader != DoubleTributeLeader.PAYER_TO_FIRST:
        return prev_finish[3]
    return payer_to_first


def return_eligible(
    hand_after_receiving: Sequence[Card],
    received: Card | None,
    level: int,
    rules: RuleSet,
    to_partner: bool,
) -> list[Card]:
    """The cards a receiver may give back (§4.2.6), as distinct codes, sorted by lv."""
    hand = list(hand_after_receiving)
    if received is not None:
        hand.remove(received)  # the card just received is not handed straight back [ASSUMPTION]
    distinct = sorted(set(hand), key=lambda c: (lv(c, level), c))
    if rules.return_rule == ReturnRule.ANY or (rules.return_rule == ReturnRule.LE10_IF_PARTNER and not to_partner):
        return distinct
    ok = [c for c in distinct if c < 52 and (c >> 2) != level and (c >> 2) + 2 <= 10]
    if ok:
        return ok
    lowest = min(lv(c, level) for c in distinct)
    return [c for c in distinct if lv(c, level) == lowest]

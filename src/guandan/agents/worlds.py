"""Determinization (确定化) for search: hidden hands consistent with everything public, and a
fast unit-level playout of the rest of the deal.

A sampled world gives each other seat exactly its known card count, puts the cards known to be in a
hand (tribute and return cards not played since, big jokers revealed by 抗贡) there, and deals the
other unseen cards at random — except that a tribute payer gets none above its tribute, the
highest card it held (wildcards apart). Playouts then run the decomposition policy of
:mod:`guandan.agents.policy` for all four seats on whole units — no move generation, so thousands
fit in a second — on a copy of the real :class:`~guandan.core.turns.TurnTracker`, which keeps the
turn order, 接风 and the end of the deal exactly as the engine does.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Final

from ..core.cards import Card, lv, rank_index, wild_code
from ..core.combos import BOMB, JOKER_BOMB, PAIR, SINGLE, Combo, beats, interned_combo
from ..core.deal import Observation
from ..core.events import Lead, Passed, Played, RoundWon, WentOut
from ..core.rules import RuleSet
from ..core.scoring import partner_place
from ..core.tribute import team_of
from ..core.turns import TurnTracker
from .counting import NO_CEILING, Knowledge
from .decompose import Decomposer, Unit
from .inference import PlayEvidence
from .policy import DANGER, Table, follow, follow_full, follow_unit, lead_unit


def sample_hands(know: Knowledge, hand: Sequence[Card], rng: random.Random) -> list[list[Card]]:
    """One world: the four hands now (``hand`` for the observing seat)."""
    me = know.seat
    hands: list[list[Card]] = [[] for _ in range(4)]
    hands[me] = list(hand)
    pool = know.unseen.copy()
    for s in range(4):
        if s == me:
            continue
        for card, n in know.known[s].items():
            take = min(n, pool[card], know.counts[s] - len(hands[s]))
            hands[s].extend([card] * take)
            pool[card] -= take
    rest = list(pool.elements())
    rng.shuffle(rest)
    if any(know.ceiling[s] < NO_CEILING for s in range(4) if s != me):
        rest = _deal_above_ceilings(know, hands, rest, rng)
    for s in range(4):
        if s == me:
            continue
        need = max(0, know.counts[s] - len(hands[s]))
        hands[s].extend(rest[:need])
        del rest[:need]
    return hands


def _deal_above_ceilings(know: Knowledge, hands: list[list[Card]], rest: list[Card],
                         rng: random.Random) -> list[Card]:
    """Deal the cards of ``rest`` that some tribute payer cannot hold, each to a seat that can,
    and hand back the others. Highest first, since the higher a card the fewer hands may hold it;
    each goes to a free place drawn uniformly among the hands allowed it, which for such nested
    sets of hands makes the world uniform among those consistent with the ceilings."""
    level = know.level
    wild = wild_code(level)
    seats = [s for s in range(4) if s != know.seat]
    free = [max(0, know.counts[s] - len(hands[s])) if s != know.seat else 0 for s in range(4)]
    low_ceiling = min(know.ceiling[s] for s in seats)
    high = [c for c in rest if c != wild and lv(c, level) > low_ceiling]
    high.sort(key=lambda c: -lv(c, level))  # stable: the shuffle still orders cards of one value
    for c in high:
        value = lv(c, level)
        allowed = [s for s in seats if free[s] and know.ceiling[s] >= value]
        # an impossible world (a wrong ceiling) still gets its counts right, just not its ceilings
        allowed = allowed or [s for s in seats if free[s]]
        pick = rng.randrange(sum(free[s] for s in allowed))
        for s in allowed:
            pick -= free[s]
            if pick < 0:
                hands[s].append(c)
                free[s] -= 1
                break
    return [c for c in rest if c == wild or lv(c, level) <= low_ceiling]


HAND_CARDS: Final = 27  # every hand's size at the deal's start (§4.1)
CHEAP: Final = 3  # a beat at most this many values above the top is one the policy would have played


def pass_evidence(obs: Observation) -> list[tuple[int, Combo]]:
    """Soft evidence from passes (不要): (seat, top) for each time ``seat`` passed on an opponent's
    single or pair. The unit policy would have beaten it with a cheap natural single/pair, so worlds
    where that seat holds one now (it held it then too: hands only shrink in play) are less likely."""
    out: list[tuple[int, Combo]] = []
    top: Combo | None = None
    owner: int | None = None
    for e in obs.events:
        if isinstance(e, Played):
            top, owner = e.combo, e.player
        elif isinstance(e, (RoundWon, Lead)):
            top, owner = None, None
        elif (isinstance(e, Passed) and e.player != obs.seat and top is not None
              and owner is not None and owner % 2 != e.player % 2 and top.type in (SINGLE, PAIR)):
            out.append((e.player, top))
    return out


def bomb_pass_evidence(obs: Observation, danger: Sequence[int]) -> list[tuple[int, Combo]]:
    """Evidence from passes (不要) that bombs were not held: (seat, top) for each time ``seat`` passed on
    an opponent's play while that opponent held ``danger[seat]`` cards or fewer, or an opponent of the
    seat half that or fewer. Then the policy bombs with any bomb that beats the play
    (:func:`policy.bomb_choice`), so a seat that passed held none (and holds none now)."""
    out: list[tuple[int, Combo]] = []
    counts = [HAND_CARDS] * 4
    top: Combo | None = None
    owner: int | None = None
    for e in obs.events:
        if isinstance(e, Played):
            top, owner = e.combo, e.player
            counts[e.player] -= len(e.cards)
        elif isinstance(e, (RoundWon, Lead)):
            top, owner = None, None
        elif (isinstance(e, Passed) and e.player != obs.seat and top is not None and owner is not None
              and owner % 2 != e.player % 2):
            rivals = [counts[s] for s in ((e.player + 1) % 4, (e.player + 3) % 4) if counts[s] > 0]
            if counts[owner] <= danger[e.player] or (rivals and min(rivals) <= danger[e.player] // 2):
                out.append((e.player, top))
    return out


def bomb_violations(hands: Sequence[Sequence[Card]], evidence: Sequence[tuple[int, Combo]], level: int) -> int:
    """How many passes in ``evidence`` this world contradicts: the seat holds four or more cards of a
    rank (a wildcard counting as its own rank, as the policy's decomposition keeps it) or all four
    jokers, a bomb that beats the play under the size ladder (§3.2)."""
    n = 0
    for seat, top in evidence:
        by_rank = Counter(rank_index(c) for c in hands[seat])
        jokers = by_rank[13] + by_rank[14] == 4 and top.type != JOKER_BOMB
        if jokers or any(k >= 4 and r < 13 and beats(interned_combo(BOMB, k, r, level, False), top)
                         for r, k in by_rank.items()):
            n += 1
    return n


def violations(hands: Sequence[Sequence[Card]], evidence: Sequence[tuple[int, Combo]], level: int) -> int:
    """How many passes in ``evidence`` this world contradicts (a cheap non-bomb beat was held)."""
    n = 0
    for seat, top in evidence:
        need = 1 if top.type == SINGLE else 2
        by_value = Counter(lv(c, level) for c in hands[seat] if c < 52)
        # 4+ of a rank is a bomb the policy keeps whole; level cards (15) are control cards
        if any(need <= k < 4 and top.value < v <= min(top.value + CHEAP, 14) for v, k in by_value.items()):
            n += 1
    return n


def sample_weighted(know: Knowledge, hand: Sequence[Card], rng: random.Random,
                    evidence: Sequence[tuple[int, Combo]], level: int, tries: int = 4,
                    play: PlayEvidence | None = None,
                    bombs: Sequence[tuple[int, Combo]] = ()) -> list[list[Card]]:
    """A world as :func:`sample_hands`, redrawn up to ``tries`` times while it contradicts the pass
    evidence (and, with ``play``, the other seats' earlier decisions as the unit policy would have
    made them: :mod:`guandan.agents.inference`; with ``bombs``, the passes that rule out a bomb:
    :func:`bomb_pass_evidence`); the least contradicting draw is kept (rejection
    with a cap, so a wrong reading of a play can only make a world less likely, never impossible)."""
    best: list[list[Card]] | None = None
    best_n = 1 << 30
    for _ in range(max(1, tries)):
        hands = sample_hands(know, hand, rng)
        n = violations(hands, evidence, level) if evidence else 0
        if bombs:
            n += bomb_violations(hands, bombs, level)
        if play is not None and n < best_n:
            n += play.misses(hands, best_n - n)
        if n < best_n:
            best, best_n = hands, n
        if n == 0:
            break
    assert best is not None
    return best


def tracker_from(obs: Observation, rules: RuleSet) -> TurnTracker:
    """Rebuild the engine's turn tracker by replaying the public plays and passes of this deal."""
    assert obs.first_leader is not None, "only during play"
    t = TurnTracker(obs.first_leader, rules)
    events = obs.events
    for i, e in enumerate(events):
        if isinstance(e, Played):
            goes_out = False
            for f in events[i + 1 : i + 4]:
                if isinstance(f, WentOut) and f.player == e.player:
                    goes_out = True
                elif isinstance(f, (Played, Passed)):
                    break
            t.play(e.player, goes_out)
        elif isinstance(e, Passed):
            t.pass_(e.player)
    return t


def playout(units: list[list[Unit]], tracker: TurnTracker, top: Combo | None, owner: int | None,
            max_steps: int = 600, dec: Decomposer | None = None, full: int = 0, danger: int = DANGER,
            rivals: int = -1, side: int = 0) -> list[int]:
    """Play the deal to its end with the unit policy; returns the finishing order. Mutates its inputs.
    With ``dec`` a follow may break a pair, triple or full house (:func:`policy.follow`) as the
    heuristic agent does, and the first ``full`` follows any unit, weighed by a fresh decomposition
    (:func:`policy.follow_full`: closer to the heuristic, and several times the cost of a follow);
    without ``dec`` only whole units are played. ``danger`` is the style (:class:`policy.Table`: an opponent
    with that many cards or fewer is close to going out) of the seats of team ``side`` (seats 0 and 2 for
    0), and of the other team's too unless ``rivals`` ≥ 0 gives theirs."""
    counts = [sum(len(u.cards) for u in us) for us in units]
    style = [danger if s % 2 == side or rivals < 0 else rivals for s in range(4)]
    follows = 0
    for _ in range(max_steps):
        if tracker.over:
            return tracker.finish
        s = tracker.turn
        mine = units[s]
        if not mine:  # inconsistent world (should not happen): end the seat to keep going
            return tracker.finish + [x for x in range(4) if x not in tracker.finish]
        table = Table(s, counts, top if not tracker.leading else None, owner, style[s])
        rest: tuple[Unit, ...] = ()
        src: Unit | None
        if tracker.leading:
            u: Unit | None = lead_unit(mine, table)
            src = u
        elif dec is None:
            u = src = follow_unit(mine, table)
        else:
            move = follow_full(mine, table, dec) if follows < full else follow(mine, table, dec)
            follows += 1
            u, src, rest = move or (None, None, ())
        if u is None:
            if tracker.pass_(s) is not None:
                top, owner = None, None
            continue
        if src is None:  # a play weighed on the whole hand: ``rest`` is the new plan of what is left
            units[s] = mine = list(rest)
        else:
            for i in range(len(mine)):  # by identity: the policy hands back one of these very units
                if mine[i] is src:
                    del mine[i]
                    break
            else:
                mine.remove(src)
            mine.extend(rest)
        counts[s] -= len(u.cards)
        _place, leader = tracker.play(s, goes_out=not mine)
        top, owner = u.combo, s
        if leader is not None:
            top, owner = None, None
    return tracker.finish + [x for x in range(4) if x not in tracker.finish]


def level_points(finish: Sequence[int], seat: int, rules: RuleSet, win_bonus: float = 0.0) -> float:
    """Signed levels for ``seat``'s team: + the upgrade when it won the deal, − when it lost (§5.2);
    ``win_bonus`` is added to a win and taken from a loss, weighing the deal's winner above its margin."""
    up = rules.upgrade(partner_place(finish)) + win_bonus
    return float(up if team_of(finish[0]) == team_of(seat) else -up)


__all__ = ["level_points", "pass_evidence", "playout", "sample_hands", "sample_weighted", "tracker_from", "violations"]

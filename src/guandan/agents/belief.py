"""A belief over whole hands (读牌), learned from play: which sampled worlds look like the real ones.

The search's sampler deals the hidden cards uniformly (bar the passes' evidence), so its worlds give the
other seats hands shaped like fresh deals: many loose singles, low cards, few bombs. Real hands late in a
deal are what a player kept — it led its low singles and pairs first and holds on to bombs and control
cards. A hand's score here is the bilinear form ``psi(seat) · W · phi(hand)``: ``phi`` counts what the
hand holds of the cards that decide a deal (bombs, jokers, wildcards, rank groups, low cards), ``psi``
what the seat has shown in public (its relation to the observer, its card count, what it has played and
passed on). ``W`` (:mod:`.belief_weights`) was fitted by ``scripts/belief_worlds.py`` to tell the true
hands from the sampler's worlds in heuristic deals, so ``exp`` of a world's summed score estimates how
much likelier the true hands are to look like it than the sampler makes them. The search uses it by
importance resampling (:func:`resample`): of K worlds drawn as before it keeps one with chance
proportional to that.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

from ..core.cards import Card, lv, wild_code
from ..core.combos import PAIR, SINGLE, Combo
from ..core.deal import Observation
from ..core.events import Lead, Passed, Played, RoundWon
from .belief_weights import WEIGHTS
from .counting import Knowledge
from .inference import PlayEvidence
from .policy import DANGER
from .worlds import bomb_pass_evidence, pass_evidence, sample_weighted

HAND_FEATURES: Final = 14  # phi's length
SEAT_FEATURES: Final = 15  # psi's length


def hand_features(hand: Sequence[Card], level: int) -> list[float]:
    """``phi``: bombs (4+, 5+ of a rank, the four jokers), big and small jokers, wildcards, natural level
    cards, aces, the largest rank group, triples, pairs and singles, ranks a wildcard would make a bomb,
    and cards of value 7 or less (wildcards count apart from their rank, as the decomposition keeps them)."""
    wild = wild_code(level)
    counts = [0] * 13
    wilds = small = big = aces = low = 0
    for c in hand:
        if c == wild:
            wilds += 1
        elif c >= 52:
            if c == 52:
                small += 1
            else:
                big += 1
        else:
            counts[c >> 2] += 1
            v = lv(c, level)
            if v == 14:
                aces += 1
            elif v <= 7:
                low += 1
    fours = fives = threes = twos = ones = near = 0
    top = 0
    for k in counts:
        if k >= 4:
            fours += 1
            if k >= 5:
                fives += 1
        elif k == 3:
            threes += 1
        elif k == 2:
            twos += 1
        elif k == 1:
            ones += 1
        if k < 4 and wilds and k + wilds >= 4:
            near += 1
        top = max(top, k)
    return [float(fours), float(fives), 1.0 if small + big == 4 else 0.0, float(big), float(small), float(wilds),
            float(counts[level]), float(aces), top / 4, float(threes), twos / 2, ones / 3, float(near), low / 4]


def seat_features(obs: Observation, know: Knowledge) -> list[list[float]]:
    """``psi`` of every seat (all zeros for the observer's own): its relation to the observer, its card
    count, its passes on singles and pairs, its passes that rule out a bomb, its other passes on
    opponents and on the partner, the bombs it played, its leads and follows, the deal's progress, its
    high cards played, and its singles and pairs played."""
    x = [[0.0] * SEAT_FEATURES for _ in range(4)]
    for s in range(4):
        if s == obs.seat:
            continue
        rel = (s - obs.seat) % 4
        x[s][0] = 1.0
        x[s][1] = know.counts[s] / 27
        x[s][2] = 1.0 if rel == 2 else 0.0
        x[s][3] = 1.0 if rel == 1 else 0.0
    for s, _top in pass_evidence(obs):
        x[s][4] += 0.2
    for s, _top in bomb_pass_evidence(obs, [DANGER] * 4):
        x[s][5] += 1 / 3
    owner = -1
    played = 0
    for e in obs.events:
        if isinstance(e, Played):
            played += len(e.cards)
            p = e.player
            if p != obs.seat:
                if e.combo.power > 0:
                    x[p][8] += 1.0
                x[p][9 if owner < 0 else 10] += 0.2
                if e.combo.type == SINGLE:
                    x[p][13] += 0.2
                elif e.combo.type == PAIR:
                    x[p][14] += 0.2
                x[p][12] += sum(1 for c in e.cards if lv(c, obs.level) >= 14) / 4
            owner = p
        elif isinstance(e, (RoundWon, Lead)):
            owner = -1
        elif isinstance(e, Passed) and e.player != obs.seat and owner >= 0:
            x[e.player][7 if owner % 2 == e.player % 2 else 6] += 0.2
    for s in range(4):
        if s != obs.seat:
            x[s][11] = played / 108
    return x


def seat_weights(obs: Observation, know: Knowledge) -> list[list[float]]:
    """``psi(seat) · W`` for every seat: the weights a hand's ``phi`` is scored by, read once a decision."""
    out: list[list[float]] = []
    for row in seat_features(obs, know):
        out.append([sum(row[i] * WEIGHTS[i][j] for i in range(SEAT_FEATURES)) for j in range(HAND_FEATURES)])
    return out


def world_score(a: Sequence[Sequence[float]], hands: Sequence[Sequence[Card]], seat: int, level: int) -> float:
    """The summed score of the other seats' hands in a world."""
    z = 0.0
    for s in range(4):
        if s != seat:
            phi = hand_features(hands[s], level)
            w = a[s]
            for j in range(HAND_FEATURES):
                z += w[j] * phi[j]
    return z


def resample(a: Sequence[Sequence[float]], k: int, know: Knowledge, hand: Sequence[Card], rng: random.Random,
             evidence: Sequence[tuple[int, Combo]], level: int, tries: int, play: PlayEvidence | None,
             bombs: Sequence[tuple[int, Combo]]) -> list[list[Card]]:
    """One world: ``k`` drawn as :func:`worlds.sample_weighted` draws them, one kept with chance
    proportional to ``exp`` of its score under the seat weights ``a``."""
    drawn = [sample_weighted(know, hand, rng, evidence, level, tries, play, bombs) for _ in range(max(1, k))]
    if len(drawn) == 1:
        return drawn[0]
    z = [world_score(a, h, know.seat, level) for h in drawn]
    top = max(z)
    q = [math.exp(v - top) for v in z]
    pick = rng.random() * sum(q)
    for h, v in zip(drawn, q, strict=True):
        if pick < v:
            return h
        pick -= v
    return drawn[-1]  # rounding left ``pick`` past the end


def _score(w: Sequence[float], hand: Sequence[Card], level: int) -> float:
    phi = hand_features(hand, level)
    return sum(w[j] * phi[j] for j in range(HAND_FEATURES))


def chain(a: Sequence[Sequence[float]], steps: int, hands: list[list[Card]], know: Knowledge,
          rng: random.Random) -> list[list[Card]]:
    """``hands`` (a world, changed in place and returned) after ``steps`` Metropolis swaps of two hidden
    cards between two other hands, each kept with chance ``min(1, exp(score change))``: a chain whose
    worlds tend to the sampler's reweighted by the belief (cards known to lie in a hand stay, and a
    tribute payer is given nothing above its ceiling)."""
    level = know.level
    wild = wild_code(level)
    seats = [s for s in range(4) if s != know.seat]
    movable: list[list[int]] = [[] for _ in range(4)]  # per seat, the places of its cards not known to be there
    for s in seats:
        pinned = know.known[s].copy()
        for i, c in enumerate(hands[s]):
            if pinned[c] > 0:
                pinned[c] -= 1
            else:
                movable[s].append(i)
    pairs = [(s, t) for s in seats for t in seats if s < t and movable[s] and movable[t]]
    if not pairs:
        return hands
    score = [_score(a[s], hands[s], level) if s != know.seat else 0.0 for s in range(4)]
    for _ in range(steps):
        s, t = pairs[rng.randrange(len(pairs))]
        i = movable[s][rng.randrange(len(movable[s]))]
        j = movable[t][rng.randrange(len(movable[t]))]
        ci, cj = hands[s][i], hands[t][j]
        if ci == cj:
            continue
        if ((ci != wild and lv(ci, level) > know.ceiling[t]) or (cj != wild and lv(cj, level) > know.ceiling[s])):
            continue
        hands[s][i], hands[t][j] = cj, ci
        new_s = _score(a[s], hands[s], level)
        new_t = _score(a[t], hands[t], level)
        change = new_s + new_t - score[s] - score[t]
        if change >= 0 or rng.random() < math.exp(change):
            score[s], score[t] = new_s, new_t
        else:
            hands[s][i], hands[t][j] = ci, cj
    return hands


__all__ = ["HAND_FEATURES", "SEAT_FEATURES", "chain", "hand_features", "resample", "seat_features", "seat_weights",
           "world_score"]

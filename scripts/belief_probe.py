"""How much reading the other seats' play (读牌) tells the search about their hidden hands.

The other seats are modelled as playing the unit policy (:mod:`guandan.agents.inference`): a world that
leaves fewer of their latest decisions unexplained is a likelier world. This probe takes the positions of
heuristic deals where seat 1 is to play (every third of its decisions, before the exact endgame) and
compares three ways of drawing worlds: the search's own sampler (uniform among the worlds consistent with
the cards counted and the tribute, redrawn a few times on contradicted passes), rejection on the play
evidence (``tries`` draws, the least contradicting kept: the tier's ``infer`` option), and a Markov chain
that swaps hidden cards between two other hands while that does not leave more decisions unexplained.

    python scripts/belief_probe.py worlds --first 1000 --deals 10
    GUANDAN_PURE_PYTHON=1 python scripts/belief_probe.py choices --first 3000 --deals 120 --jobs 2

``worlds`` prints, per sampler, the decisions a world leaves unexplained and the share of the other hands'
hidden cards it places right by rank (the true hands leave some unexplained too: the model is not the
heuristic). ``choices`` runs the search at 64 worlds from the plain sampler (twice, two seeds) and from the
chain, and the search with every hand known, and counts how often each choice is the known-hands one.
It replaces the search module's sampler, so it needs the interpreted modules (``GUANDAN_PURE_PYTHON=1``).
A research probe: nothing here is part of a tier.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor

from guandan.agents.base import Agent, make_agent
from guandan.agents.counting import Knowledge, read
from guandan.agents.heuristic import HeuristicAgent
from guandan.agents.inference import PlayEvidence, policy_agrees
from guandan.agents.worlds import pass_evidence, sample_hands, sample_weighted
from guandan.core.cards import Card
from guandan.core.combos import Combo
from guandan.core.match import MatchConfig, MatchObservation, MatchState, new_match
from guandan.core.rules import preset
from guandan.core.vocab import Phase

SEAT = 0  # the seat whose decisions are probed (seat 1 in the rules' numbering)
PER_SEAT = 4  # each other seat's latest decisions a world is checked against
SAMPLES = 8  # worlds drawn per position and sampler in ``worlds``
CHOICE_WORLDS = 64
ENDGAME = 14  # from this many cards left the search solves worlds exactly: not a sampling question

Hands = list[list[Card]]


def _seat_misses(ev: PlayEvidence, hands: Sequence[Sequence[Card]], seat: int) -> int:
    return sum(1 for d in ev.found if d.seat == seat and not policy_agrees(d, hands[seat], ev.dec))


def chain_world(know: Knowledge, hand: Sequence[Card], rng: random.Random, ev: PlayEvidence, steps: int) -> Hands:
    """A world from ``steps`` swaps of two hidden cards between two other hands, each kept unless it leaves
    more of the decisions in ``ev`` unexplained, starting from the plain sampler's world."""
    hands = sample_hands(know, hand, rng)
    others = [s for s in range(4) if s != know.seat and hands[s]]
    movable: dict[int, list[int]] = {}
    for s in others:
        fixed = Counter(know.known[s])
        movable[s] = []
        for i, c in enumerate(hands[s]):
            if fixed[c] > 0:
                fixed[c] -= 1  # a card known to be there (a tribute) stays
            else:
                movable[s].append(i)
    misses = {s: _seat_misses(ev, hands, s) for s in others}
    pairs = [(a, b) for a in others for b in others if a < b and movable[a] and movable[b]]
    for _ in range(steps):
        live = [p for p in pairs if misses[p[0]] or misses[p[1]]]
        if not live:
            break
        a, b = rng.choice(live)
        i, j = rng.choice(movable[a]), rng.choice(movable[b])
        ca, cb = hands[a][i], hands[b][j]
        if ca == cb:
            continue
        hands[a][i], hands[b][j] = cb, ca
        na, nb = _seat_misses(ev, hands, a), _seat_misses(ev, hands, b)
        if na + nb <= misses[a] + misses[b]:
            misses[a], misses[b] = na, nb
        else:
            hands[a][i], hands[b][j] = ca, cb
    return hands


def _by_rank(cards: Sequence[Card]) -> Counter[int]:
    return Counter(c // 4 if c < 52 else c for c in cards)  # suited codes are rank * 4 + suit; jokers as they are


def decisions(first: int, deals: int) -> Iterator[tuple[int, int, MatchState, MatchObservation, Agent]]:
    """(deal seed, how many play decisions of ``SEAT`` came before in its deal, the match, its observation and its
    agent) at each play decision of ``SEAT`` in heuristic first deals, before the exact endgame."""
    for seed in range(first, first + deals):
        match = new_match(preset("competition"), seed, MatchConfig(max_deals=1))
        agents = [make_agent("heuristic", seed=seed * 10 + s) for s in range(4)]
        for s, agent in enumerate(agents):
            agent.reset(s, match.rules)
        mine = 0
        while not match.ended:
            seat = match.to_move
            assert seat is not None and match.deal is not None
            obs = match.observation(seat)
            if seat == SEAT and obs.deal.phase == Phase.PLAY:
                if sum(len(h) for h in match.deal.hands) > ENDGAME:
                    yield seed, mine, match, obs, agents[SEAT]
                mine += 1
            match.apply(agents[seat].choose(obs, match.legal_actions()))


def positions(first: int, deals: int) -> Iterator[tuple[MatchState, MatchObservation, HeuristicAgent]]:
    """Every third play decision of ``SEAT`` in heuristic deals, before the exact endgame."""
    for _seed, mine, match, obs, bot in decisions(first, deals):
        if mine % 3 == 0:
            assert isinstance(bot, HeuristicAgent)
            yield match, obs, bot


SAMPLERS = ("plain", "infer, 4 draws", "infer, 16 draws", "chain, 20 swaps", "chain, 80 swaps")


def _draw(name: str, know: Knowledge, hand: Sequence[Card], rng: random.Random,
          passes: Sequence[tuple[int, Combo]], ev: PlayEvidence) -> Hands:
    if name.startswith("chain"):
        return chain_world(know, hand, rng, ev, int(name.split()[1]))
    if name.startswith("infer"):
        return sample_weighted(know, hand, rng, passes, know.level, int(name.split()[1]), ev)
    return sample_weighted(know, hand, rng, passes, know.level)


def worlds_report(first: int, deals: int) -> None:
    rng = random.Random(first)
    n = 0
    truth_misses = 0
    tally: dict[str, list[float]] = {}
    for match, obs, bot in positions(first, deals):
        assert match.deal is not None
        know = read(obs)
        hand = list(obs.deal.hand)
        truth = [list(h) for h in match.deal.hands]
        ev = PlayEvidence(obs.deal, bot.decomposer(obs.deal.level), PER_SEAT)
        others = [s for s in range(4) if s != SEAT]
        hidden = sum(know.counts[s] - sum(know.known[s].values()) for s in others)
        if not len(ev) or not hidden:
            continue
        n += 1
        truth_misses += ev.misses(truth, 1 << 30)
        passes = pass_evidence(obs.deal)
        for name in SAMPLERS:
            t = tally.setdefault(name, [0.0, 0.0, 0.0, 0.0])
            start = time.perf_counter()
            for _ in range(SAMPLES):
                w = _draw(name, know, hand, rng, passes, ev)
                right = sum(sum((_by_rank(w[s]) & _by_rank(truth[s])).values()) for s in others)
                t[0] += ev.misses(w, 1 << 30)
                t[1] += right - sum(sum(know.known[s].values()) for s in others)
                t[2] += hidden
            t[3] += time.perf_counter() - start
    print(f"positions: {n} (deals {first}–{first + deals - 1}); the true hands leave "
          f"{truth_misses / max(1, n):.2f} of each position's checked decisions unexplained")
    for name, (unexplained, placed, total, secs) in tally.items():
        print(f"{name:16} unexplained {unexplained / (n * SAMPLES):.2f}   hidden cards right by rank "
              f"{placed / total:.3f}   {1000 * secs / (n * SAMPLES):.2f} ms a world")


def _known(truth: Hands, *_args: object, **_kw: object) -> Hands:
    return [list(h) for h in truth]


def _chained(ev: PlayEvidence, steps: int, know: Knowledge, hand: Sequence[Card], rng: random.Random,
             *_args: object, **_kw: object) -> Hands:
    return chain_world(know, hand, rng, ev, steps)


def _choices(first: int, deals: int, steps: int) -> None:
    """One process's share of ``choices``: a JSON line per position on stdout."""
    from guandan.agents import search

    if search.__file__ is None or not search.__file__.endswith(".py"):
        raise SystemExit("choices replaces the search's sampler: run it with GUANDAN_PURE_PYTHON=1")
    plain = getattr(search, "sample_weighted")  # noqa: B009
    for match, obs, _bot in positions(first, deals):
        assert match.deal is not None
        truth = [list(h) for h in match.deal.hands]
        legal = match.legal_actions()
        picks = {}
        for arm in ("known", "plain", "plain, other seed", "chain"):
            worlds = 4 if arm == "known" else CHOICE_WORLDS
            agent = make_agent(f"search:max_worlds={worlds}", seed=len(obs.deal.events) * 7 + (arm == "plain, other seed"))
            agent.reset(SEAT, match.rules)
            assert isinstance(agent, search.SearchAgent)
            if arm == "known":
                sampler: Callable[..., Hands] = functools.partial(_known, truth)
            elif arm == "chain":
                ev = PlayEvidence(obs.deal, agent.heuristic.decomposer(obs.deal.level), PER_SEAT)
                sampler = functools.partial(_chained, ev, steps)
            else:
                sampler = plain
            setattr(search, "sample_weighted", sampler)  # noqa: B010
            picks[arm] = agent.choose(obs, legal)
            if agent.last_candidates <= 1:
                break  # no choice to make
        if len(picks) == 4:
            print(json.dumps({arm: picks[arm] == picks["known"] for arm in picks if arm != "known"}), flush=True)


def choices_report(first: int, deals: int, jobs: int, steps: int) -> None:
    size = math.ceil(deals / jobs)
    parts = [(s, min(size, first + deals - s)) for s in range(first, first + deals, size)]

    def run(part: tuple[int, int]) -> list[dict[str, bool]]:
        cmd = [sys.executable, __file__, "choices-part", "--first", str(part[0]), "--deals", str(part[1]),
               "--steps", str(steps)]
        out = subprocess.run(cmd, env=dict(os.environ), check=True, capture_output=True, text=True).stdout
        return [json.loads(line) for line in out.splitlines()]

    with ThreadPoolExecutor(len(parts)) as pool:
        rows = [r for rs in pool.map(run, parts) for r in rs]
    n = len(rows)
    print(f"positions with a choice: {n} (deals {first}–{first + deals - 1}), {CHOICE_WORLDS} worlds a search")
    for arm in ("plain", "plain, other seed", "chain"):
        print(f"{arm:18} chooses as the known-hands search in {sum(r[arm] for r in rows)} ({sum(r[arm] for r in rows) / n:.1%})")
    diffs = [r["chain"] - (r["plain"] + r["plain, other seed"]) / 2 for r in rows]
    mean = sum(diffs) / n
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, n - 1) / n)
    print(f"chain − plain: {mean * 100:+.1f} points [{(mean - 1.96 * se) * 100:+.1f}, {(mean + 1.96 * se) * 100:+.1f}]")


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=["worlds", "choices", "choices-part"])
    p.add_argument("--first", type=int, default=1000, help="the first deal's seed")
    p.add_argument("--deals", type=int, default=10, help="heuristic deals whose positions are probed")
    p.add_argument("--jobs", type=int, default=2, help="processes (choices)")
    p.add_argument("--steps", type=int, default=40, help="the chain's swaps per world (choices)")
    a = p.parse_args(argv)
    if a.deals < 1 or a.jobs < 1 or a.steps < 0:
        p.error("--deals and --jobs must be at least 1, --steps at least 0")
    if a.what == "worlds":
        worlds_report(a.first, a.deals)
    elif a.what == "choices":
        choices_report(a.first, a.deals, a.jobs, a.steps)
    else:
        _choices(a.first, a.deals, a.steps)


if __name__ == "__main__":
    main()

"""How much the search loses to hidden cards: the search tier with every hand known (its world sampler
replaced by the true hands) and the plain search at a fixed number of sampled worlds, each against the
heuristic on the same first deals, duplicate (each deal played with the search at seats 1 and 3, then at
2 and 4). A research probe, not a tier: an agent that sees other hands has no place in the product.

    python scripts/oracle_probe.py --first 1000 --pairs 600 --worlds 64 --jobs 2
    python scripts/oracle_probe.py --probe power --first 1000 --pairs 400 --worlds 64 --jobs 2

With ``--probe power`` the probe's search knows only where the other hands' power cards lie (jokers,
wildcards, every rank a hand holds four or more of), with ``--probe bombs`` only where their bombs lie
(four or more of a rank, all four jokers); the rest of the hidden cards are dealt uniformly in each of its
worlds. The probe's arm runs uncompiled (GUANDAN_PURE_PYTHON=1), because only the interpreted
module's sampler can be replaced; with every hand known it is fast all the same, since its worlds are all
the same world. Prints each arm's deal-win rate and their paired difference with a 95% interval.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

PATCHED = ("known", "power", "bombs")  # arms whose world sampler is replaced
KNOWN_WORLDS = 4  # identical worlds: more add nothing, and one would leave no spread for the margin


def _power_cards(hand: Sequence[int], level: int, tops: bool = True) -> list[int]:
    """A hand's jokers and its wildcards (♥ of the level) when ``tops``, and every card of a rank it holds
    four or more of (all four jokers too: a bomb)."""
    from collections import Counter

    from guandan.core.cards import HEARTS, is_joker, rank_index

    ranks = Counter(rank_index(c) for c in hand if not is_joker(c))
    joker_bomb = sum(1 for c in hand if is_joker(c)) == 4
    return [c for c in hand if (is_joker(c) and (tops or joker_bomb)) or (tops and c == level * 4 + HEARTS)
            or (not is_joker(c) and ranks[rank_index(c)] >= 4)]


def _play_arm(arm: str, first: int, count: int, worlds: int) -> None:
    """One arm's games, a JSON line per deal pair on stdout (run in a process of its own)."""
    from guandan.agents import search
    from guandan.agents.base import make_agent
    from guandan.core.match import MatchConfig, new_match
    from guandan.core.rules import preset

    truth: list[list[int]] = []
    if arm in PATCHED and (search.__file__ is None or not search.__file__.endswith(".py")):
        raise SystemExit("the known-hands arms need the interpreted search module (GUANDAN_PURE_PYTHON=1)")
    if arm == "known":
        setattr(search, "sample_weighted", lambda *_args, **_kw: [list(h) for h in truth])  # noqa: B010
    elif arm in ("power", "bombs"):
        def power_world(_know: object, hand: Sequence[int], rng: random.Random, _evidence: object, level: int,
                        *_args: object, **_kw: object) -> list[list[int]]:
            # every other hand keeps its true power cards; the rest of the hidden cards are dealt uniformly
            me = next(s for s in range(4) if sorted(truth[s]) == sorted(hand))
            hands = [list(h) if s == me else _power_cards(h, level, arm == "power") for s, h in enumerate(truth)]
            rest: list[int] = []
            for s in range(4):
                if s != me:
                    pool = list(truth[s])
                    for c in hands[s]:
                        pool.remove(c)
                    rest += pool
            rng.shuffle(rest)
            for s in range(4):
                if s != me:
                    need = len(truth[s]) - len(hands[s])
                    hands[s] += rest[:need]
                    rest = rest[need:]
            return hands

        setattr(search, "sample_weighted", power_world)  # noqa: B010

    def play(seed: int, seats: tuple[int, int]) -> int:
        match = new_match(preset("competition"), seed, MatchConfig(max_deals=1))
        spec = f"search:max_worlds={KNOWN_WORLDS if arm == 'known' else worlds}"
        agents = [make_agent(spec if s in seats else "heuristic", seed=seed * 10 + s) for s in range(4)]
        for s, agent in enumerate(agents):
            agent.reset(s, match.rules)
        while not match.ended:
            seat = match.to_move
            assert seat is not None and match.deal is not None
            truth[:] = [list(h) for h in match.deal.hands]
            legal = match.legal_actions()
            action = agents[seat].choose(match.observation(seat), legal)
            match.apply(action if action in legal else legal[0])
        return int(match.deals[-1].finish[0] in seats)

    for seed in range(first, first + count):
        print(json.dumps({"seed": seed, "wins": play(seed, (0, 2)) + play(seed, (1, 3))}), flush=True)


def _run(arm: str, first: int, count: int, worlds: int) -> dict[int, int]:
    env = dict(os.environ)
    if arm in PATCHED:
        env["GUANDAN_PURE_PYTHON"] = "1"
    out = subprocess.run([sys.executable, __file__, "--arm", arm, "--first", str(first), "--pairs", str(count),
                          "--worlds", str(worlds)], env=env, check=True, capture_output=True, text=True).stdout
    return {row["seed"]: row["wins"] for row in map(json.loads, out.splitlines())}


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--first", type=int, default=1000, help="the first deal's seed")
    p.add_argument("--pairs", type=int, default=600, help="deal pairs (each deal played both ways)")
    p.add_argument("--worlds", type=int, default=64, help="sampled worlds per decision of the plain search")
    p.add_argument("--jobs", type=int, default=2, help="processes")
    p.add_argument("--probe", choices=PATCHED, default="known",
                   help="what the probe's search knows: every hand; every hand's power cards (jokers, wildcards, "
                        "every rank held four or more times); or its bombs alone (four or more of a rank, four "
                        "jokers) — the rest of the hidden cards dealt uniformly")
    p.add_argument("--arm", choices=[*PATCHED, "sampled"], help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.pairs < 1 or a.worlds < 1 or a.jobs < 1:
        p.error("--pairs, --worlds and --jobs must be at least 1")
    if a.arm:
        _play_arm(a.arm, a.first, a.pairs, a.worlds)
        return
    # a few chunks per process, so that the arms' different costs even out over the pool
    size = math.ceil(a.pairs / (2 * a.jobs))
    chunks = [(s, min(size, a.first + a.pairs - s)) for s in range(a.first, a.first + a.pairs, size)]
    with ThreadPoolExecutor(a.jobs) as pool:
        probe_parts = [pool.submit(_run, a.probe, s, n, a.worlds) for s, n in chunks]
        sampled_parts = [pool.submit(_run, "sampled", s, n, a.worlds) for s, n in chunks]
        k = {seed: w for f in probe_parts for seed, w in f.result().items()}
        s_wins = {seed: w for f in sampled_parts for seed, w in f.result().items()}
    seeds = sorted(k)
    diffs = [(k[x] - s_wins[x]) / 2 for x in seeds]
    mean = sum(diffs) / len(diffs)
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1) / len(diffs))
    print(f"deal pairs: {len(seeds)} (first deals, seeds {a.first}–{a.first + a.pairs - 1})")
    what = {"known": "every hand known:     ", "power": "power cards known:    ", "bombs": "bombs known:          "}[a.probe]
    print(f"search, {what}{sum(k.values()) / (2 * len(seeds)):.1%} of deals won")
    print(f"search, {a.worlds} sampled worlds: {sum(s_wins.values()) / (2 * len(seeds)):.1%} of deals won")
    print(f"{a.probe} − sampled: {mean * 100:+.1f} points [{(mean - 1.96 * se) * 100:+.1f}, {(mean + 1.96 * se) * 100:+.1f}]")


if __name__ == "__main__":
    main()

"""Can a belief learned from play place the other seats' hidden cards better than the uniform sampler?

The search's sampler deals the unseen cards uniformly among the free places of the other hands. This
probe learns, from heuristic deals, for each card value ``r`` the chance that a hidden card of that value
lies with each of the three other seats, given public facts about each seat (its relation to seat 1, its
card count, what it has played by value and combo type, what it passed on and at what top, what it led),
and measures whether worlds dealt with those chances are closer to the truth.

    python scripts/belief_learn.py data --first 1000 --deals 4000 --out /tmp/belief.npz
    python scripts/belief_learn.py train --data /tmp/belief.npz --holdout 600 --model /tmp/belief_model.npz
    python scripts/belief_learn.py eval --data /tmp/belief.npz --holdout 600 --model /tmp/belief_model.npz
    GUANDAN_PURE_PYTHON=1 python scripts/belief_learn.py choices --data /tmp/belief.npz \\
        --model /tmp/belief_model.npz --first 1000 --deals 120

``data`` records every play decision of seat 1 in heuristic first deals before the exact endgame (as
:mod:`belief_probe` does) with, per other seat, its features and how many of the hidden cards (unseen
and not known to be in a hand) of each value it holds. ``train`` fits a multinomial model over the three
seats whose log-odds are the log of each seat's free places (the uniform sampler's own prior) plus a
learned term per value: a linear one (multinomial logistic regression) or a one-hidden-layer network,
L2-regularised, by full-batch Adam; the first ``--holdout`` deals are held out. ``eval`` deals hidden
cards one at a time in a random order, each to a seat drawn in proportion to its learned weight for the
card's value times the seat's free places left, and prints the share of hidden cards placed right by rank
on the held-out deals' probe positions (every third decision, as :mod:`belief_probe` takes them), against
the uniform deal, and what a world of cards costs. ``choices`` asks the question of the search's choices on
held-out deals, as :mod:`belief_probe` does: 64 worlds from the plain sampler (two seeds) and from the
learned deal (which reads the passes through its features, not by redrawing), and every hand known.
First deals pay no tribute, so no ceilings arise in the data. A research probe: nothing here is part of
a tier.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from guandan.agents.base import make_agent
from guandan.agents.counting import Knowledge, read
from guandan.agents.worlds import pass_evidence, sample_weighted
from guandan.core.cards import Card, lv
from guandan.core.combos import FULL_HOUSE, PAIR, SINGLE, TRIPLE, Combo
from guandan.core.deal import Observation
from guandan.core.events import Lead, Passed, Played, RoundWon
from guandan.core.match import MatchState

sys.path.insert(0, str(Path(__file__).resolve().parent))
import belief_probe  # a sibling script: its positions' constants and its search-choice set-up

SEAT = belief_probe.SEAT
OTHERS = (1, 2, 3)  # the other seats, in the order of every per-seat axis
V = 16  # card values lv 2…17, index lv − 2 (one of 2…14 is empty: the level rank counts as 15)
GROUPS = 5  # played cards by combo: single, pair, triple or full house, other non-bomb, bomb
LEADS = 6  # leads by combo: single, pair, triple, full house, other non-bomb, bomb
D = 3 + 2 + GROUPS * V + 2 * V + 2 + LEADS + V + 1
Array = npt.NDArray[Any]


def _group(c: Combo) -> int:
    if c.type == SINGLE:
        return 0
    if c.type == PAIR:
        return 1
    if c.type in (TRIPLE, FULL_HOUSE):
        return 2
    return 4 if c.power > 0 else 3


def _lead_kind(c: Combo) -> int:
    if c.power > 0:
        return 5
    return {SINGLE: 0, PAIR: 1, TRIPLE: 2, FULL_HOUSE: 3}.get(c.type, 4)


def features(obs: Observation, know: Knowledge) -> Array:
    """Each other seat's public facts, as seen by ``obs.seat``: shape (3, D)."""
    x = np.zeros((4, D), np.float32)
    level = obs.level
    for s in OTHERS:
        rel = (s - obs.seat) % 4  # 1: plays after me, 2: partner, 3: plays before me
        x[s, rel - 1] = 1.0
        x[s, 3] = know.counts[s] / 27
        x[s, 4] = (know.counts[s] - sum(know.known[s].values())) / 27
    played = 5
    passed = played + GROUPS * V
    other_pass = passed + 2 * V
    leads = other_pass + 2
    lead_single = leads + LEADS
    tribute = lead_single + V
    top: Combo | None = None
    owner: int | None = None
    for e in obs.events:
        if isinstance(e, Played):
            if e.player != obs.seat:
                g = _group(e.combo)
                for c in e.cards:
                    x[e.player, played + g * V + lv(c, level) - 2] += 1
                if top is None:
                    x[e.player, leads + _lead_kind(e.combo)] += 1
                    if e.combo.type == SINGLE:
                        x[e.player, lead_single + lv(e.cards[0], level) - 2] += 1
            top, owner = e.combo, e.player
        elif isinstance(e, (RoundWon, Lead)):
            top, owner = None, None
        elif isinstance(e, Passed) and e.player != obs.seat and top is not None and owner is not None:
            if owner % 2 == e.player % 2:
                x[e.player, other_pass + 1] += 1  # on the partner's play: says little
            elif top.type in (SINGLE, PAIR):
                x[e.player, passed + (0 if top.type == SINGLE else V) + min(top.value, 17) - 2] += 1
            else:
                x[e.player, other_pass] += 1
    for s in OTHERS:
        x[s, tribute] = 1.0 if know.ceiling[s] < 17 else 0.0
    return x[list(OTHERS)]


def hidden_by_value(know: Knowledge, hands: Sequence[Sequence[Card]]) -> Array:
    """How many of each seat's cards are hidden (not known to be there), by value: shape (3, V)."""
    y = np.zeros((3, V), np.int16)
    for j, s in enumerate(OTHERS):
        left = Counter(hands[s]) - know.known[s]
        for c, n in left.items():
            y[j, lv(c, know.level) - 2] += n
    return y


def positions(first: int, deals: int) -> Iterator[tuple[int, bool, MatchState]]:
    """(deal seed, whether ``belief_probe`` probes it, the match) at each play decision of seat 1 in
    heuristic first deals, before the exact endgame."""
    for seed, mine, match, _obs, _bot in belief_probe.decisions(first, deals):
        yield seed, mine % 3 == 0, match


def make_data(first: int, deals: int, out: str) -> None:
    xs, ys, frees, seeds, probes = [], [], [], [], []
    start = time.perf_counter()
    for seed, probe, match in positions(first, deals):
        assert match.deal is not None
        obs = match.observation(SEAT)
        know = read(obs)
        xs.append(features(obs.deal, know))
        ys.append(hidden_by_value(know, match.deal.hands))
        frees.append([know.counts[s] - sum(know.known[s].values()) for s in OTHERS])
        seeds.append(seed)
        probes.append(probe)
    np.savez_compressed(out, x=np.stack(xs), y=np.stack(ys), free=np.array(frees, np.int16),
                        deal=np.array(seeds, np.int32), probe=np.array(probes, bool))
    print(f"{len(xs)} positions from deals {first}–{first + deals - 1} ({sum(probes)} probe positions), "
          f"{D} features a seat, {time.perf_counter() - start:.0f} s → {out}")


# ---- the model: log-odds of seat j for value r = log free_j + f(x_j)[r] ----


def _logits(params: dict[str, Array], x: Array) -> tuple[Array, Array | None]:
    if "w1" in params:
        h = np.maximum(0.0, x @ params["w1"] + params["b1"])
        return h @ params["w2"] + params["b2"], h
    return x @ params["w"] + params["b"], None


def _log_probs(params: dict[str, Array], x: Array, free: Array) -> tuple[Array, Array | None]:
    """log P(seat | value): shape (P, 3, V)."""
    f, h = _logits(params, x)
    with np.errstate(divide="ignore"):
        z = f + np.log(free.astype(np.float64))[:, :, None]
    z = z - z.max(axis=1, keepdims=True)
    lp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return lp, h


def loss(params: dict[str, Array], x: Array, y: Array, free: Array) -> float:
    """Held-out style loss: nats per hidden card."""
    lp, _ = _log_probs(params, x, free)
    return float(-(np.where(y > 0, lp, 0.0) * y).sum() / y.sum())


def uniform_loss(y: Array, free: Array) -> float:
    share = free / free.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore"):
        lp = np.log(share)[:, :, None]
    return float(-(np.where(y > 0, lp, 0.0) * y).sum() / y.sum())


def fit(x: Array, y: Array, free: Array, hidden: int, l2: float, steps: int, lr: float, seed: int) -> dict[str, Array]:
    rng = np.random.default_rng(seed)
    d = x.shape[2]
    params: dict[str, Array]
    if hidden:
        params = {"w1": rng.normal(0, 1 / math.sqrt(d), (d, hidden)), "b1": np.zeros(hidden),
                  "w2": rng.normal(0, 0.01, (hidden, V)), "b2": np.zeros(V)}
    else:
        params = {"w": np.zeros((d, V)), "b": np.zeros(V)}
    m = {k: np.zeros_like(v) for k, v in params.items()}
    s2 = {k: np.zeros_like(v) for k, v in params.items()}
    total = y.sum()
    n_r = y.sum(axis=1, keepdims=True)  # hidden cards of each value per position
    flat = x.reshape(-1, d)
    for t in range(1, steps + 1):
        lp, h = _log_probs(params, x, free)
        # d(−Σ y log p)/dz = p·n_r − y, per position and value (z: the log-odds over the three seats)
        gz = (np.exp(lp) * n_r - y) / total
        gz = np.where(free[:, :, None] > 0, gz, 0.0).reshape(-1, V)
        grads: dict[str, Array] = {}
        if h is None:
            grads["w"] = flat.T @ gz + l2 * params["w"]
            grads["b"] = gz.sum(axis=0)
        else:
            hf = h.reshape(-1, h.shape[-1])
            grads["w2"] = hf.T @ gz + l2 * params["w2"]
            grads["b2"] = gz.sum(axis=0)
            gh = (gz @ params["w2"].T) * (hf > 0)
            grads["w1"] = flat.T @ gh + l2 * params["w1"]
            grads["b1"] = gh.sum(axis=0)
        for k, g in grads.items():
            m[k] = 0.9 * m[k] + 0.1 * g
            s2[k] = 0.999 * s2[k] + 0.001 * g * g
            params[k] -= lr * (m[k] / (1 - 0.9**t)) / (np.sqrt(s2[k] / (1 - 0.999**t)) + 1e-8)
    return params


def _load(path: str, holdout: int) -> tuple[dict[str, Array], Array]:
    z = np.load(path)
    data = {k: z[k] for k in z.files}
    test = data["deal"] < data["deal"].min() + holdout
    return data, test


def _standardise(x: Array, mean: Array, std: Array) -> Array:
    return ((x - mean) / std).astype(np.float64)


def train(path: str, holdout: int, out: str, hidden: int, l2: float, steps: int, lr: float) -> None:
    data, test = _load(path, holdout)
    x, y, free = data["x"], data["y"].astype(np.float64), data["free"]
    mean = x[~test].reshape(-1, D).mean(axis=0)
    std = x[~test].reshape(-1, D).std(axis=0) + 1e-3
    xs = _standardise(x, mean, std)
    tr, te = ~test, test
    start = time.perf_counter()
    params = fit(xs[tr], y[tr], free[tr], hidden, l2, steps, lr, seed=1)
    secs = time.perf_counter() - start
    kind = f"one hidden layer of {hidden}" if hidden else "linear"
    print(f"train {tr.sum()} positions ({len(np.unique(data['deal'][tr]))} deals), held out {te.sum()} "
          f"({len(np.unique(data['deal'][te]))} deals); {kind}, L2 {l2}, {steps} steps, {secs:.0f} s")
    print(f"nats per hidden card: uniform {uniform_loss(y[tr], free[tr]):.4f} train / "
          f"{uniform_loss(y[te], free[te]):.4f} held out; learned {loss(params, xs[tr], y[tr], free[tr]):.4f} "
          f"train / {loss(params, xs[te], y[te], free[te]):.4f} held out")
    np.savez(out, **{"mean": mean, "std": std, **params})


def load_model(path: str) -> tuple[dict[str, Array], Array, Array]:
    z = np.load(path)
    params = {k: z[k] for k in z.files if k not in ("mean", "std")}
    return params, z["mean"], z["std"]


def weights(model: tuple[dict[str, Array], Array, Array], x: Array) -> list[list[float]]:
    """exp f(x_j)[r] for the three seats: the learned factor on a seat's free places, per value."""
    params, mean, std = model
    f, _ = _logits(params, _standardise(x, mean, std))
    f = f - f.max(axis=0, keepdims=True)
    return [list(map(float, row)) for row in np.exp(f)]


def _draw(q: Sequence[float], rng: random.Random) -> int:
    """An index drawn in proportion to the non-negative ``q`` (not all zero)."""
    pick = rng.random() * sum(q)
    last = 0
    for j, v in enumerate(q):
        if v > 0:
            last = j
            if pick < v:
                return j
            pick -= v
    return last  # rounding left ``pick`` past the end


def deal_values(pool: Sequence[int], free: Sequence[int], w: Sequence[Sequence[float]] | None,
                rng: random.Random) -> list[Counter[int]]:
    """Deal the hidden cards (``pool``: their value indices) one at a time in a random order, each to a
    seat drawn in proportion to its free places left (times ``w[seat][value]`` when given)."""
    cards = list(pool)
    rng.shuffle(cards)
    left = list(free)
    got: list[Counter[int]] = [Counter(), Counter(), Counter()]
    for r in cards:
        if w is None:
            q = [float(n) for n in left]
        else:
            q = [left[j] * w[j][r] for j in range(3)]
        j = _draw(q, rng)
        got[j][r] += 1
        left[j] -= 1
    return got


def evaluate(path: str, holdout: int, model_path: str, samples: int) -> None:
    data, test = _load(path, holdout)
    model = load_model(model_path)
    rows = np.flatnonzero(test & data["probe"])
    rng = random.Random(holdout)
    right = {"uniform": 0, "learned": 0}
    secs = {"uniform": 0.0, "learned": 0.0}
    total = 0
    weigh = 0.0
    for i in rows:
        y = data["y"][i]
        free = [int(n) for n in data["free"][i]]
        pool = [r for r in range(V) for _ in range(int(y[:, r].sum()))]
        if not pool:
            continue
        truth = [Counter({r: int(y[j, r]) for r in range(V) if y[j, r]}) for j in range(3)]
        start = time.perf_counter()
        w = weights(model, data["x"][i])
        weigh += time.perf_counter() - start
        for arm, ww in (("uniform", None), ("learned", w)):
            start = time.perf_counter()
            for _ in range(samples):
                got = deal_values(pool, free, ww, rng)
                right[arm] += sum(sum((got[j] & truth[j]).values()) for j in range(3))
            secs[arm] += time.perf_counter() - start
        total += samples * len(pool)
    n = len(rows)
    print(f"probe positions: {n} (held-out deals {data['deal'][rows].min()}–{data['deal'][rows].max()}), "
          f"{samples} worlds each; the model's weights {1000 * weigh / n:.2f} ms a position")
    for arm in right:
        print(f"{arm:8} hidden cards right by rank {right[arm] / total:.3f}   "
              f"{1000 * secs[arm] / (n * samples):.3f} ms a world (values only)")
    timing(model, int(data["deal"].min()), 20, samples)


def timing(model: tuple[dict[str, Array], Array, Array], first: int, deals: int, samples: int) -> None:
    """The cost of a world of cards: the search's plain sampler against the learned one (whose
    features and weights are read once a position)."""
    rng = random.Random(first)
    n = 0
    secs = {"plain": 0.0, "learned": 0.0, "weights": 0.0}
    for _seed, probe, match in positions(first, deals):
        if not probe:
            continue
        obs = match.observation(SEAT)
        know = read(obs)
        hand = list(obs.deal.hand)
        passes = pass_evidence(obs.deal)
        start = time.perf_counter()
        for _ in range(samples):
            sample_weighted(know, hand, rng, passes, know.level)
        secs["plain"] += time.perf_counter() - start
        start = time.perf_counter()
        w = weights(model, features(obs.deal, know))
        secs["weights"] += time.perf_counter() - start
        start = time.perf_counter()
        for _ in range(samples):
            learned_world(w, know, hand, rng)
        secs["learned"] += time.perf_counter() - start
        n += 1
    print(f"worlds of cards ({n} probe positions of deals {first}–{first + deals - 1}): the search's sampler "
          f"{1000 * secs['plain'] / (n * samples):.2f} ms a world, the learned {1000 * secs['learned'] / (n * samples):.2f} "
          f"ms a world after {1000 * secs['weights'] / n:.2f} ms a position for the features and weights")


# ---- the search's choices, as belief_probe asks them ----


def learned_world(w: Sequence[Sequence[float]], know: Knowledge, hand: Sequence[Card], rng: random.Random,
                  *_args: object, **_kw: object) -> list[list[Card]]:
    """A world with the known cards in place and the hidden ones dealt by :func:`deal_values`'s rule."""
    hands: list[list[Card]] = [[] for _ in range(4)]
    hands[know.seat] = list(hand)
    pool = know.unseen.copy()
    for s in OTHERS:
        for card, n in know.known[s].items():
            take = min(n, pool[card], know.counts[s] - len(hands[s]))
            hands[s].extend([card] * take)
            pool[card] -= take
    cards = list(pool.elements())
    rng.shuffle(cards)
    left = [max(0, know.counts[s] - len(hands[s])) for s in OTHERS]
    for c in cards:
        r = lv(c, know.level) - 2
        j = _draw([left[k] * w[k][r] for k in range(3)], rng)
        hands[OTHERS[j]].append(c)
        left[j] -= 1
    return hands


def _known(truth: list[list[Card]], *_args: object, **_kw: object) -> list[list[Card]]:
    return [list(h) for h in truth]


def choices(model_path: str, first: int, deals: int) -> None:
    from guandan.agents import search

    if search.__file__ is None or not search.__file__.endswith(".py"):
        raise SystemExit("choices replaces the search's sampler: run it with GUANDAN_PURE_PYTHON=1")
    model = load_model(model_path)
    plain = getattr(search, "sample_weighted")  # noqa: B009
    rows: list[dict[str, bool]] = []
    start = time.perf_counter()
    for _seed, probe, match in positions(first, deals):
        if not probe:
            continue
        assert match.deal is not None
        obs = match.observation(SEAT)
        truth = [list(h) for h in match.deal.hands]
        w = weights(model, features(obs.deal, read(obs)))
        legal = match.legal_actions()
        picks = {}
        for arm in ("known", "plain", "plain, other seed", "learned"):
            worlds = 4 if arm == "known" else belief_probe.CHOICE_WORLDS
            agent = make_agent(f"search:max_worlds={worlds}", seed=len(obs.deal.events) * 7 + (arm == "plain, other seed"))
            agent.reset(SEAT, match.rules)
            assert isinstance(agent, search.SearchAgent)
            sampler: Callable[..., list[list[Card]]]
            if arm == "known":
                sampler = functools.partial(_known, truth)
            elif arm == "learned":
                sampler = functools.partial(learned_world, w)
            else:
                sampler = plain
            setattr(search, "sample_weighted", sampler)  # noqa: B010
            picks[arm] = agent.choose(obs, legal)
            if agent.last_candidates <= 1:
                break  # no choice to make
        if len(picks) == 4:
            rows.append({arm: picks[arm] == picks["known"] for arm in picks if arm != "known"})
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    n = len(rows)
    print(f"positions with a choice: {n} (deals {first}–{first + deals - 1}), {belief_probe.CHOICE_WORLDS} "
          f"worlds a search, {time.perf_counter() - start:.0f} s")
    for arm in ("plain", "plain, other seed", "learned"):
        k = sum(r[arm] for r in rows)
        print(f"{arm:18} chooses as the known-hands search in {k} ({k / max(1, n):.1%})")
    diffs = [r["learned"] - (r["plain"] + r["plain, other seed"]) / 2 for r in rows]
    mean = sum(diffs) / max(1, n)
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, n - 1) / max(1, n))
    print(f"learned − plain: {mean * 100:+.1f} points [{(mean - 1.96 * se) * 100:+.1f}, {(mean + 1.96 * se) * 100:+.1f}]")


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("what", choices=["data", "train", "eval", "choices"])
    p.add_argument("--first", type=int, default=1000, help="the first deal's seed (data, choices)")
    p.add_argument("--deals", type=int, default=4000, help="heuristic deals played (data, choices)")
    p.add_argument("--data", "--out", dest="data", default="/tmp/belief.npz", help="the positions' file")
    p.add_argument("--model", default="/tmp/belief_model.npz", help="the fitted model's file")
    p.add_argument("--holdout", type=int, default=600, help="the first deals of the data held out")
    p.add_argument("--hidden", type=int, default=0, help="hidden units (0: multinomial logistic regression)")
    p.add_argument("--l2", type=float, default=1e-4, help="L2 weight on the weights")
    p.add_argument("--steps", type=int, default=300, help="full-batch Adam steps")
    p.add_argument("--lr", type=float, default=0.05, help="Adam's step size")
    p.add_argument("--samples", type=int, default=8, help="worlds per probe position and sampler (eval)")
    a = p.parse_args(argv)
    if a.what == "data":
        make_data(a.first, a.deals, a.data)
    elif a.what == "train":
        train(a.data, a.holdout, a.model, a.hidden, a.l2, a.steps, a.lr)
    elif a.what == "eval":
        evaluate(a.data, a.holdout, a.model, a.samples)
    else:
        choices(a.model, a.first, a.deals)


if __name__ == "__main__":
    main()

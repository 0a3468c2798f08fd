"""Can a belief over whole hands, learned from play, pick better worlds than the search's sampler?

The per-value belief of :mod:`belief_learn` places each hidden card independently, so it cannot say
"this seat holds a bomb": four cards of a rank together are a fact about a whole hand. This probe learns
a score of a whole hand in its seat's public context — a bilinear form ``psi(seat's play) · W ·
phi(hand)``, where ``phi`` counts the hand's bombs, jokers, wildcards and rank groups and ``psi`` counts
what the seat has played and passed on — trained to tell the true hands from worlds of the search's own
sampler (pass evidence, 4 draws) in heuristic first deals: a softmax over one true world and ``--worlds``
sampled ones at each position (so the score estimates the log of the true hands' density over the
sampler's, up to a constant per position). The search would use it by importance resampling: draw K
worlds from its sampler and keep one with chance proportional to ``exp(score)``.

    python scripts/belief_worlds.py data --first 1000 --deals 2000 --worlds 12 --jobs 2 --out /tmp/bw.npz
    python scripts/belief_worlds.py train --data /tmp/bw.npz --holdout 400 --model /tmp/bw_model.npz
    python scripts/belief_worlds.py eval --data /tmp/bw.npz --holdout 400 --model /tmp/bw_model.npz --k 8
    python scripts/belief_worlds.py export --model /tmp/bw_model.npz --note "..."

``eval`` reports, on held-out deals, the true world's mean log-likelihood gain over the sampler and, when
one world is kept out of K of the data's sampled worlds by the score, how often every other seat's count
of bombs is the true one, against a world kept at random. ``export`` writes the weights as the module
:mod:`guandan.agents.belief_weights`, which ``search:belief=K`` reads (the features are
:mod:`guandan.agents.belief`'s, so the probe and the tier score a hand alike).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import textwrap
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from guandan.agents.belief import HAND_FEATURES, SEAT_FEATURES, hand_features, seat_features
from guandan.agents.counting import read
from guandan.agents.worlds import pass_evidence, sample_weighted

sys.path.insert(0, str(Path(__file__).resolve().parent))
import belief_probe  # a sibling script: its positions

SEAT = belief_probe.SEAT
OTHERS = (1, 2, 3)
Array = npt.NDArray[Any]
F = HAND_FEATURES
P = SEAT_FEATURES


def _chunk(args: tuple[int, int, int, int]) -> dict[str, Array]:
    first, deals, worlds, seed = args
    rng = random.Random(seed)
    psi, phi, deal = [], [], []
    for s, _mine, match, obs, _bot in belief_probe.decisions(first, deals):
        assert match.deal is not None
        know = read(obs)
        hand = list(obs.deal.hand)
        passes = pass_evidence(obs.deal)
        ws = [list(match.deal.hands)] + [sample_weighted(know, hand, rng, passes, know.level)
                                         for _ in range(worlds)]
        psi.append([seat_features(obs.deal, know)[t] for t in OTHERS])
        phi.append([[hand_features(w[t], know.level) for t in OTHERS] for w in ws])
        deal.append(s)
    return {"psi": np.array(psi, np.float32), "phi": np.array(phi, np.float32), "deal": np.array(deal, np.int32)}


def make_data(first: int, deals: int, worlds: int, jobs: int, out: str) -> None:
    start = time.perf_counter()
    step = math.ceil(deals / (4 * jobs))
    parts = [(f, min(step, first + deals - f), worlds, f) for f in range(first, first + deals, step)]
    with ProcessPoolExecutor(jobs) as pool:
        got = list(pool.map(_chunk, parts))
    data = {k: np.concatenate([g[k] for g in got]) for k in got[0]}
    np.savez_compressed(out, **data)
    print(f"{len(data['deal'])} positions from deals {first}–{first + deals - 1}, 1 true + {worlds} sampled "
          f"worlds each, {time.perf_counter() - start:.0f} s → {out}")


# ---- the score: sum over the three seats of psi_s · W · phi_s ----


def scores(w: Array, psi: Array, phi: Array) -> Array:
    """Shape (N, worlds): psi (N, 3, P), phi (N, worlds, 3, F)."""
    return np.einsum("nsp,pf,nksf->nk", psi, w, phi, optimize=True)


def _softmax(z: Array) -> Array:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def fit(psi: Array, phi: Array, l2: float, steps: int, lr: float) -> Array:
    w = np.zeros((P, F))
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    n = len(psi)
    for t in range(1, steps + 1):
        p = _softmax(scores(w, psi, phi))
        p[:, 0] -= 1.0  # d(−log p_true)/d score
        g = np.einsum("nk,nsp,nksf->pf", p, psi, phi, optimize=True) / n + l2 * w
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= lr * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w


def nll(w: Array, psi: Array, phi: Array) -> float:
    z = scores(w, psi, phi)
    z = z - z.max(axis=1, keepdims=True)
    return float(-(z[:, 0] - np.log(np.exp(z).sum(axis=1))).mean())


def _load(path: str, holdout: int) -> tuple[dict[str, Array], Array]:
    z = np.load(path)
    data = {k: z[k].astype(np.float64) if k != "deal" else z[k] for k in z.files}
    return data, data["deal"] < data["deal"].min() + holdout


def train(path: str, holdout: int, out: str, l2: float, steps: int, lr: float) -> None:
    data, test = _load(path, holdout)
    psi, phi = data["psi"], data["phi"]
    start = time.perf_counter()
    w = fit(psi[~test], phi[~test], l2, steps, lr)
    k = phi.shape[1]
    print(f"train {int((~test).sum())} positions, held out {int(test.sum())}; {steps} steps, L2 {l2}, "
          f"{time.perf_counter() - start:.0f} s")
    print(f"nats, true among {k} worlds: uniform {math.log(k):.4f}; learned {nll(w, psi[~test], phi[~test]):.4f} "
          f"train / {nll(w, psi[test], phi[test]):.4f} held out")
    np.save(out, w)


def _bombs(phi: Array) -> Array:
    return phi[..., 0] + phi[..., 1] + phi[..., 2]


def evaluate(path: str, holdout: int, model: str, k: int) -> None:
    data, test = _load(path, holdout)
    w = np.load(model)
    psi, phi = data["psi"][test], data["phi"][test]
    z = scores(w, psi, phi)
    truth = _bombs(phi[:, 0])  # (N, 3)
    sampled = _bombs(phi[:, 1:])  # (N, M, 3)
    right = (sampled == truth[:, None, :]).all(axis=2)  # (N, M)
    seat_right = (sampled == truth[:, None, :]).mean(axis=2)
    zs = z[:, 1:]
    rng = np.random.default_rng(holdout)
    picks_u, picks_l, seat_u, seat_l = [], [], [], []
    m = zs.shape[1]
    for _ in range(50):  # many K-subsets of each position's sampled worlds
        sub = np.stack([rng.choice(m, k, replace=False) for _ in range(len(zs))])
        pz = np.take_along_axis(zs, sub, axis=1)
        p = _softmax(pz)
        r = np.take_along_axis(right, sub, axis=1)
        sr = np.take_along_axis(seat_right, sub, axis=1)
        picks_u.append(r.mean())
        picks_l.append((p * r).sum(axis=1).mean())
        seat_u.append(sr.mean())
        seat_l.append((p * sr).sum(axis=1).mean())
        ess = 1 / (p * p).sum(axis=1)
    print(f"held-out positions {len(psi)}; the true world's log-likelihood gain over the sampler "
          f"{float(z[:, 0].mean() - np.log(np.exp(zs).mean(axis=1)).mean()):+.4f} nats")
    print(f"keep 1 of {k}: every seat's bomb count right {np.mean(picks_u):.3f} at random, "
          f"{np.mean(picks_l):.3f} by the score; per seat {np.mean(seat_u):.3f} / {np.mean(seat_l):.3f}; "
          f"effective worlds {float(ess.mean()):.2f} of {k}")
    print("W (rows: psi, columns: phi):")
    np.set_printoptions(precision=2, suppress=True, linewidth=200)
    print(w)


# ---- the weights, as the search tier reads them ----


def export(model: str, out: str, note: str) -> None:
    w = np.load(model)
    rows = ",\n".join("    (" + ", ".join(f"{round(float(v), 4) + 0.0:.4f}" for v in row) + ")" for row in w)
    doc = textwrap.fill(f"The weights ``W`` of :mod:`guandan.agents.belief` (rows: the seat features, columns: the "
                        f"hand features), written by ``scripts/belief_worlds.py export``: {note}.", 110)
    Path(out).write_text(
        f'"""{doc}"""\n\n'
        "from typing import Final\n\n"
        f"WEIGHTS: Final[tuple[tuple[float, ...], ...]] = (\n{rows},\n)\n")
    print(f"{w.shape[0]}×{w.shape[1]} weights → {out}")


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("what", choices=["data", "train", "eval", "export"])
    p.add_argument("--first", type=int, default=1000)
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--worlds", type=int, default=12, help="sampled worlds per position (data)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--data", "--out", dest="data", default="/tmp/bw.npz")
    p.add_argument("--model", default="/tmp/bw_model.npy")
    p.add_argument("--holdout", type=int, default=400)
    p.add_argument("--l2", type=float, default=1e-3)
    p.add_argument("--steps", type=int, default=400)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--k", type=int, default=8, help="worlds drawn to keep one (eval)")
    p.add_argument("--weights", default="src/guandan/agents/belief_weights.py", help="the module written (export)")
    p.add_argument("--note", default="", help="how the weights were fitted, for the module's docstring (export)")
    a = p.parse_args(argv)
    if a.what == "data":
        make_data(a.first, a.deals, a.worlds, a.jobs, a.data)
    elif a.what == "train":
        train(a.data, a.holdout, a.model, a.l2, a.steps, a.lr)
    elif a.what == "eval":
        evaluate(a.data, a.holdout, a.model, a.k)
    else:
        export(a.model, a.weights, a.note)


if __name__ == "__main__":
    main()

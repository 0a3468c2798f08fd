"""A tiny policy trained on self-play data on the CPU, and evaluated by playing (docs/research.md).

Behaviour cloning with a bilinear scorer: an action index ``a`` gets features ``phi(a)`` computed
from the index alone (pass, which card for a tribute/return, combo type, key rank, size, ♥ level
cards, big jokers), the observation ``o`` is the env's 510-value vector, and the score is
``phi(a) · (W o + b)``; a softmax over the decision's legal indices is fitted to the action the data's
agent took (conditional logit, plain SGD in NumPy). :class:`LinearAgent` plays the argmax.

    python -m guandan.research.linear_example --data runs/sp --epochs 3 --eval-deals 50

It is an example of reading the data and closing the loop, not a strong player.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..agents import Agent, make_agent
from ..agents.runner import run_match
from ..arena.specs import draw_spec
from ..core.deal import Action
from ..core.match import MatchObservation, new_match
from ..core.rules import RuleSet, preset
from ..core.vocab import RANKS, MoveMode
from ..env.actions import ACTION_SIZE, CARD_ACTIONS_END, COMBO_TYPE_INDEX, COMBO_TYPES, PATTERNS, WILD_VARIANTS, index_actions
from ..env.encoding import OBS_SIZE, Encoder

KEYS = [*RANKS, "LJ", "BJ", "JOKERS"]
N_FEATURES = 1 + 54 + len(COMBO_TYPES) + len(KEYS) + 3
Floats = npt.NDArray[np.float32]


def _index_features() -> Floats:
    """``phi`` for every index of the action space, one row each (position-independent)."""
    f = np.zeros((ACTION_SIZE, N_FEATURES), dtype=np.float32)
    f[0, 0] = 1.0  # pass
    for i in range(1, CARD_ACTIONS_END):
        f[i, i] = 1.0  # the card kind given in a tribute, choice or return
    base = 1 + 54
    for i in range(CARD_ACTIONS_END, ACTION_SIZE):
        slot, variant = divmod(i - CARD_ACTIONS_END, WILD_VARIANTS)
        t, size, key, _, _, _ = PATTERNS[slot]
        f[i, base + COMBO_TYPE_INDEX[t]] = 1.0
        f[i, base + len(COMBO_TYPES) + KEYS.index(key)] = 1.0
        f[i, -3:] = (size / 10.0, variant // 3, variant % 3)
    return f


FEATURES = _index_features()


def _scale(obs: npt.NDArray[np.int8]) -> Floats:
    return np.asarray(obs, dtype=np.float32) / 2.0


class LinearPolicy:
    def __init__(self, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.w = (rng.standard_normal((N_FEATURES, OBS_SIZE)) * 0.01).astype(np.float32)
        self.b = np.zeros(N_FEATURES, dtype=np.float32)

    def scores(self, obs: npt.NDArray[np.int8], legal: Sequence[int]) -> Floats:
        state = self.w @ _scale(obs) + self.b
        out: Floats = FEATURES[np.asarray(legal)] @ state
        return out

    def fit(self, obs: Sequence[npt.NDArray[np.int8]], legal: Sequence[Sequence[int]], taken: Sequence[int],
            epochs: int = 3, lr: float = 0.05, seed: int = 0) -> list[float]:
        """SGD on the softmax cross-entropy over each decision's legal indices; mean loss per epoch."""
        rng = np.random.default_rng(seed)
        losses = []
        for _ in range(epochs):
            total = 0.0
            for k in rng.permutation(len(taken)):
                phi = FEATURES[np.asarray(legal[k])]
                o = _scale(obs[k])
                s = phi @ (self.w @ o + self.b)
                p = np.exp(s - s.max())
                p /= p.sum()
                target = list(legal[k]).index(taken[k])
                total -= float(np.log(p[target] + 1e-12))
                p[target] -= 1.0
                g = phi.T @ p  # d loss / d (W o + b)
                self.w -= lr * np.outer(g, o)
                self.b -= lr * g
            losses.append(total / max(1, len(taken)))
        return losses

    def accuracy(self, obs: Sequence[npt.NDArray[np.int8]], legal: Sequence[Sequence[int]], taken: Sequence[int]) -> float:
        hits = [legal[k][int(np.argmax(self.scores(obs[k], legal[k])))] == taken[k] for k in range(len(taken))]
        return float(np.mean(hits)) if hits else 0.0


class LinearAgent(Agent):
    """Plays the policy's highest-scoring legal index (the first legal action of that index)."""

    name = "linear"

    def __init__(self, policy: LinearPolicy, seed: int | str = 0) -> None:
        super().__init__(seed)
        self.policy, self.encoder = policy, Encoder()

    def reset(self, seat: int, rules: RuleSet) -> None:
        super().reset(seat, rules)
        self.encoder.reset()

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        indices, _ = index_actions(legal, obs.deal.level)
        order = sorted(indices)
        best = order[int(np.argmax(self.policy.scores(self.encoder.encode(obs), order)))]
        return indices[best]


def load(data: Path) -> tuple[list[npt.NDArray[np.int8]], list[list[int]], list[int], list[int]]:
    """Observations, legal indices, actions taken and match ids of every decision with a choice."""
    import pyarrow.parquet as pq

    t = pq.read_table(data, columns=["match", "observation", "legal", "action"])
    obs_flat = t.column("observation").combine_chunks().flatten().to_numpy().astype(np.int8)
    all_obs = obs_flat.reshape(-1, OBS_SIZE)
    legal = t.column("legal").to_pylist()
    taken = t.column("action").to_pylist()
    matches = t.column("match").to_pylist()
    keep = [k for k in range(t.num_rows) if len(legal[k]) > 1]  # forced moves teach nothing
    return [all_obs[k] for k in keep], [legal[k] for k in keep], [taken[k] for k in keep], [matches[k] for k in keep]


def evaluate(policy: LinearPolicy, opponent: str, deals: int, preset_name: str = "competition",
             seed: int = 1000) -> float:
    """The policy's deal-win rate against ``opponent`` over duplicate deals: each deal spec played
    twice, the policy at seats {0, 2} then {1, 3} (canonical moves, as in the data)."""
    rules = preset(preset_name)
    won = 0
    for i in range(deals):
        spec = draw_spec(seed, i)
        for side in (0, 1):
            match = new_match(rules, f"linear-eval:{seed}:{i}", spec.config(MoveMode.CANONICAL))
            agents: list[Agent] = [LinearAgent(policy, s) if s % 2 == side else make_agent(opponent, f"eval:{i}:{s}")
                                   for s in range(4)]
            run_match(match, agents)
            won += match.deals[0].finish[0] % 2 == side
    return won / (2 * deals)


def main(argv: Sequence[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--data", type=Path, required=True, help="a guandan selfplay --out folder")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--eval-deals", type=int, default=50, help="duplicate deal pairs against --opponent")
    ap.add_argument("--opponent", default="random")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    obs, legal, taken, matches = load(args.data)
    if not taken:
        ap.error(f"{args.data} holds no decision with a choice")
    cut = sorted(set(matches))[int(len(set(matches)) * 0.8)] if len(set(matches)) > 1 else max(matches) + 1
    train = [k for k, m in enumerate(matches) if m < cut]  # held out by deal, not by row: rows of a deal are alike
    test = [k for k, m in enumerate(matches) if m >= cut] or train
    policy = LinearPolicy(args.seed)
    losses = policy.fit([obs[k] for k in train], [legal[k] for k in train], [taken[k] for k in train],
                        args.epochs, args.lr, args.seed)
    acc = policy.accuracy([obs[k] for k in test], [legal[k] for k in test], [taken[k] for k in test])
    win = evaluate(policy, args.opponent, args.eval_deals)
    out = {"train_decisions": float(len(train)), "test_decisions": float(len(test)), "final_loss": losses[-1],
           "test_accuracy": acc, "deal_win_rate_vs_opponent": win}
    for k, v in out.items():
        print(f"{k:28} {v:.4g}")
    return out


if __name__ == "__main__":
    main(sys.argv[1:])

"""Standard reinforcement-learning environments for 掼蛋 (docs/research.md).

* :func:`env` / :func:`raw_env` — a PettingZoo AEC environment, the four seats as agents;
* ``gymnasium.make("guandan/Guandan-v0", preset=…, opponents=[…], seat=0)`` — a single-agent
  Gymnasium environment against three agents (registered when this package loads);
* :class:`PolicyAgent` — a policy over these observations and action indices as an
  :class:`~guandan.agents.base.Agent`, for the Gymnasium env's opponents, ``run_match`` and the arena.

Observations are :mod:`guandan.env.encoding`'s vectors of one seat's view; actions are
:mod:`guandan.env.actions`' fixed indices with a legal-action mask.
"""

from __future__ import annotations

from typing import cast

import gymnasium
import numpy as np
import numpy.typing as npt

from ..core.errors import IllegalActionError
from .actions import ACTION_SIZE, FEATURE_SIZE, PATTERNS, action_index, describe_index, index_actions
from .aec import GuandanAEC, env, raw_env
from .encoding import LAYOUT, OBS_SIZE, Encoder, encode
from .gym_env import GuandanGymEnv
from .policy_agent import Policy, PolicyAgent
from .table import deal_rewards

ENV_ID = "guandan/Guandan-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point="guandan.env.gym_env:GuandanGymEnv")


def legal_action_features(info: dict[str, object]) -> npt.NDArray[np.int8]:
    """The per-legal-action feature vectors an environment put in ``info`` (rows in ``legal_indices`` order),
    without the padding rows of ``action_features="padded"`` (one environment's info, not a vector's)."""
    feats = cast("npt.NDArray[np.int8]", info["legal_action_features"])
    mask = info.get("legal_features_mask")
    return feats[np.asarray(mask, dtype=bool)] if mask is not None else feats


__all__ = [
    "ACTION_SIZE",
    "ENV_ID",
    "FEATURE_SIZE",
    "LAYOUT",
    "OBS_SIZE",
    "PATTERNS",
    "Encoder",
    "GuandanAEC",
    "GuandanGymEnv",
    "IllegalActionError",
    "Policy",
    "PolicyAgent",
    "action_index",
    "deal_rewards",
    "describe_index",
    "encode",
    "env",
    "index_actions",
    "legal_action_features",
    "raw_env",
]

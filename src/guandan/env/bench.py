"""The figures of `guandan bench env` (guandan.bench): environment steps per second with random legal actions, on one core.

One step is one :meth:`GuandanAEC.step` of the seat to move plus the ``observe`` of the next one
(its encoded view and mask), as a training loop pays; ``--features`` adds the per-action feature
list. CPU time of this process (``time.process_time``), a fixed seed.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from .aec import raw_env


def env_figures(preset_name: str = "competition", steps: int = 5000, seed: int = 1,
                features: bool = False) -> dict[str, Any]:
    """Play ``steps`` random legal steps in the AEC environment (new matches as episodes end)."""
    e = raw_env(preset_name, action_features=features)
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    episodes, legal_total, legal_max = 0, 0, 0
    t0 = time.process_time()
    obs = e.observe(e.agent_selection)
    for _ in range(steps):
        if all(e.terminations.values()):
            episodes += 1
            e.reset(seed=int(rng.integers(2**31)))
            obs = e.observe(e.agent_selection)
        # the mask is 0/1 int8: scanned as booleans it is several times faster (what a training loop does)
        legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
        legal_total += len(legal)
        legal_max = max(legal_max, len(legal))
        e.step(int(legal[rng.integers(len(legal))]))
        obs = e.observe(e.agent_selection)
    dt = time.process_time() - t0
    return {"preset": preset_name, "steps": steps, "seed": seed, "features": features,
            "steps_per_s": steps / dt, "us_per_step": dt / steps * 1e6,
            "episodes_finished": episodes, "legal_mean": legal_total / steps, "legal_max": legal_max}


__all__ = ["env_figures"]

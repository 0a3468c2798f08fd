"""`random`: a uniform choice among the legal actions (the baseline of every benchmark)."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.deal import Action
from ..core.match import MatchObservation
from .base import Agent, register


class RandomAgent(Agent):
    name = "random"

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        return self.rng.choice(list(legal))


register("random")(lambda seed, budget: RandomAgent(seed, budget))

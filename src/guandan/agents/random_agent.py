"""`random`: a uniform choice among the legal actions (the baseline of every benchmark)."""

from __future__ import annotations

from collections.abc import Sequence

from mypy_extensions import mypyc_attr

from ..core.deal import Action
from ..core.match import MatchObservation
from .base import Agent, register


@mypyc_attr(allow_interpreted_subclasses=True)  # an agent is an extension point: tests and plugins subclass it
class RandomAgent(Agent):
    name = "random"

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        return self.rng.choice(list(legal))


register("random")(lambda seed, budget: RandomAgent(seed, budget))

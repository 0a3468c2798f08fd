"""One interface for every seat kind: bots, the arena, servers and protocol adapters.

An agent receives its seat's :class:`MatchObservation` (the only view of hidden information) and
the legal actions, and returns one of them — for play, tribute and return alike. Agents are
deterministic for a given seed; ``time_budget`` (seconds per decision) bounds the thinking ones.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

from ..core.deal import Action
from ..core.errors import GuandanError
from ..core.match import MatchObservation
from ..core.rules import RuleSet


class Agent(ABC):
    """Base class of all players. Subclasses implement :meth:`choose`."""

    name = "agent"

    def __init__(self, seed: int | str = 0, time_budget: float | None = None) -> None:
        self.seed = seed
        self.time_budget = time_budget
        self.rng = random.Random(f"{self.name}:{seed}")
        self.seat = -1
        self.rules: RuleSet | None = None

    def reset(self, seat: int, rules: RuleSet) -> None:
        """Called before a match (or a single deal) with the agent's seat and the rules."""
        self.seat = seat
        self.rules = rules
        self.rng = random.Random(f"{self.name}:{self.seed}:{seat}")

    @abstractmethod
    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        """Return one of ``legal``."""

    def close(self) -> None:  # noqa: B027 - optional hook, not abstract
        """Release resources (external processes); a no-op for in-process bots."""


AgentFactory = Callable[[int | str, float | None], Agent]
_REGISTRY: dict[str, AgentFactory] = {}


def register(name: str) -> Callable[[AgentFactory], AgentFactory]:
    def deco(factory: AgentFactory) -> AgentFactory:
        _REGISTRY[name] = factory
        return factory

    return deco


def agent_names() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def make_agent(spec: str, seed: int | str = 0, time_budget: float | None = None) -> Agent:
    """An agent by tier name (``random``, ``greedy``, …) or ``external:module:Class``."""
    _load_builtin()
    if spec.startswith("external:"):
        factory = _REGISTRY.get("external")
        if factory is None:
            raise GuandanError("external agents need the protocol adapter (guandan.protocol)")
        agent = factory(seed, time_budget)
        agent.configure(spec)  # type: ignore[attr-defined]
        return agent
    factory = _REGISTRY.get(spec)
    if factory is None:
        raise GuandanError(f"unknown agent {spec!r}; known: {', '.join(sorted(_REGISTRY))}, external:module:Class")
    return factory(seed, time_budget)


def _load_builtin() -> None:
    import importlib

    for module in ("random_agent", "greedy", "heuristic", "search"):
        try:
            importlib.import_module(f"guandan.agents.{module}")
        except ModuleNotFoundError as e:
            if e.name != f"guandan.agents.{module}":
                raise
    try:
        importlib.import_module("guandan.protocol.adapter")
    except ModuleNotFoundError as e:
        if e.name not in ("guandan.protocol", "guandan.protocol.adapter"):
            raise

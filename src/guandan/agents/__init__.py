"""AI players behind one interface (:class:`guandan.agents.base.Agent`), selectable by name."""

from .base import Agent, agent_names, make_agent, register

__all__ = ["Agent", "agent_names", "make_agent", "register"]

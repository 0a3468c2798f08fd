"""Drive a match (or a single deal) with four agents. Used by `guandan simulate`, the arena and tests."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..core.deal import Action
from ..core.errors import GuandanError
from ..core.events import DealOver, Event
from ..core.match import MatchObservation, MatchState
from .base import Agent, Shown


@dataclass
class RunStats:
    decisions: list[float] = field(default_factory=list)  # seconds per decision, every seat
    per_seat: list[list[float]] = field(default_factory=lambda: [[], [], [], []])
    illegal: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    cpu_seconds: float = 0.0


def run_match(
    match: MatchState,
    agents: Sequence[Agent],
    on_events: Callable[[Action, list[Event]], None] | None = None,
    stats: RunStats | None = None,
    max_actions: int = 200_000,
    on_illegal: Callable[[int, object, MatchObservation, Sequence[Action]], None] | None = None,
) -> MatchState:
    """Play until the match ends. An agent that returns an illegal action is counted and replaced
    by the first legal action, so one bad bot never stalls a run.

    Agents that override :meth:`Agent.on_events` (protocol adapters, which must forward every public
    event to the bot they wrap, including the end of a deal after their own last turn) are called
    after every action with that action's events and their own observation — never ``match``.
    ``on_events(action, events)`` is the host's own callback (it may see everything). ``on_illegal(seat,
    answer, obs, legal)`` hears each illegal answer (None included) before it is replaced, with what the
    seat was shown, so that a host can say what the agent answered."""
    if len(agents) != 4:
        raise GuandanError("a match needs four agents")
    for seat, agent in enumerate(agents):
        agent.reset(seat, match.rules)
    stats = stats or RunStats()
    listeners = [(seat, agent) for seat, agent in enumerate(agents) if _listens(agent)]
    cpu0 = time.process_time()
    for _ in range(max_actions):
        if match.ended:
            break
        mover = match.to_move
        assert mover is not None
        seat = mover
        legal = match.legal_actions()
        obs = match.observation(seat)
        t0 = time.perf_counter()
        action = agents[seat].choose(obs, legal)
        dt = time.perf_counter() - t0
        stats.decisions.append(dt)
        stats.per_seat[seat].append(dt)
        if action not in legal:
            stats.illegal[seat] += 1
            if on_illegal is not None:
                on_illegal(seat, action, obs, legal)
            action = legal[0]
        events = match.apply(action)
        if listeners:
            shown = _shown(match) if any(isinstance(e, DealOver) for e in events) else ()
            for s, listener in listeners:
                listener.on_events(events, match.observation(s), shown)
        if on_events is not None:
            on_events(action, events)
    else:
        raise GuandanError(f"the match did not end within {max_actions} actions")
    stats.cpu_seconds += time.process_time() - cpu0
    return match


def _listens(agent: Agent) -> bool:
    """Whether ``agent`` overrides the (no-op) event hook: only those get observations built for them."""
    return getattr(type(agent), "on_events", Agent.on_events) is not Agent.on_events


def _shown(match: MatchState) -> Shown:
    """The cards each seat held when the deal that just ended ended: public from then on (restCards)."""
    # PUBLIC AT THIS POINT: read from the finished deal only, right after it ended
    return tuple(tuple(sorted(h)) for h in match.deals[-1].state.hands)

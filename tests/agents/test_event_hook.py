"""The agent event hook hands an agent its own observation and the public events, never the match."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

from guandan.agents.base import Agent, Shown
from guandan.agents.greedy import GreedyAgent
from guandan.agents.runner import run_match
from guandan.core.deal import Action, DealState, Observation
from guandan.core.events import DealOver, Event
from guandan.core.match import DealSummary, MatchConfig, MatchObservation, MatchState, MatchView, new_match
from guandan.core.rules import preset


def _reachable(obj: object, depth: int = 0) -> Iterator[object]:
    """Every object reachable from ``obj`` through dataclass fields and containers."""
    yield obj
    if depth > 6:
        return
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from _reachable(getattr(obj, f.name), depth + 1)
    elif isinstance(obj, (tuple, list, set, frozenset)):
        for x in obj:
            yield from _reachable(x, depth + 1)
    elif isinstance(obj, dict):
        for x in obj.values():
            yield from _reachable(x, depth + 1)


class Recorder(GreedyAgent):
    """A greedy player that checks everything its hook is handed against the real match."""

    def __init__(self, seed: int, match: MatchState) -> None:
        super().__init__(seed)
        self.match = match
        self.calls = 0
        self.deal_ends = 0

    def on_events(self, events: Sequence[Event], obs: MatchObservation, shown: Shown = ()) -> None:
        self.calls += 1
        assert type(obs) is MatchView and type(obs.deal) is Observation  # an observation, not a state
        assert obs.deal.seat == self.seat
        assert self.match.deal is not None
        assert obs.deal.hand == tuple(sorted(self.match.deal.hands[self.seat]))  # its own hand …
        assert obs == self.match.observation(self.seat)  # … and exactly its own view
        for x in _reachable(obs):  # nothing in it leads to any seat's hidden cards
            assert not isinstance(x, (MatchState, DealState, DealSummary)), type(x)
        assert all(isinstance(e, Event) for e in events)
        if any(isinstance(e, DealOver) for e in events):
            # the cards left at a deal's end are shown to everyone (restCards), and only then
            self.deal_ends += 1
            last = self.match.deals[-1]
            assert shown == tuple(tuple(sorted(h)) for h in last.state.hands)
            assert shown[last.finish[0]] == () and any(shown)  # 头游 has none left, someone has some
        else:
            assert shown == ()


def test_the_event_hook_gets_only_the_agents_own_observation() -> None:
    rules = preset("competition")
    match = new_match(rules, "hook", MatchConfig(max_deals=3))
    agents = [Recorder(s, match) for s in range(4)]
    batches: list[list[Event]] = []

    def host(action: Action, events: list[Event]) -> None:  # the host's own callback sees everything
        batches.append(events)

    run_match(match, agents, on_events=host)
    for a in agents:
        assert a.calls == len(batches) > 100  # after every action …
        assert a.deal_ends == len(match.deals) == 3  # … the end of every deal included


def test_agents_without_a_hook_are_not_called() -> None:
    calls: list[int] = []

    class Quiet(GreedyAgent):
        pass

    class Loud(GreedyAgent):
        def on_events(self, events: Sequence[Event], obs: MatchObservation, shown: Shown = ()) -> None:
            calls.append(self.seat)

    assert Quiet.on_events is Agent.on_events
    match = new_match(preset("competition"), "quiet", MatchConfig(max_deals=1))
    run_match(match, [Quiet(0), Loud(1), Quiet(2), Quiet(3)])  # no observation is built for the quiet ones
    assert match.ended and calls and set(calls) == {1}

"""Our protocol client with a faulty agent (a plugin tier): a raise of any kind, or an answer that is not one
of the offered actions, is said as the agent's fault and answered with index 0; it was "a field holds a value
of the wrong type or shape", as if the server's message were at fault, and a RuntimeError ended the client."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from guandan.agents.base import Agent
from guandan.core.deal import Action
from guandan.core.match import MatchObservation
from guandan.core.rules import preset
from guandan.core.vocab import Phase
from guandan.protocol.client import ClientReport, play
from guandan.protocol.server import ProtocolServer

from .helpers import with_server


class _Faulty(Agent):
    """Leads nothing (None) on its first lead, raises on its second, and plays the first legal action otherwise."""

    name = "faulty"

    def __init__(self) -> None:
        super().__init__()
        self.leads = 0

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        if obs.deal.phase == Phase.PLAY and obs.deal.top is None:
            self.leads += 1
            if self.leads == 1:
                return None  # type: ignore[return-value]
            if self.leads == 2:
                raise RuntimeError("my bug")
        return legal[0]


class _First(Agent):
    name = "first"

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        return legal[0]


def test_a_faulty_agents_answers_are_said_as_its_own_and_the_game_goes_on() -> None:
    async def body(url: str, server: ProtocolServer) -> list[ClientReport]:
        agents: list[Agent] = [_Faulty(), _First(), _First(), _First()]
        tasks = []
        for a in agents:
            tasks.append(asyncio.create_task(play(f"{url}/game/x", a, preset("competition"))))
            await asyncio.sleep(0.05)  # seats follow connection order
        return list(await asyncio.gather(*tasks))

    reports = asyncio.run(with_server(body))
    faulty = reports[0]
    assert faulty.result is not None  # the game went on to its end
    assert faulty.errors[:2] == ["our agent answered nothing, which is not one of the offered actions; answered 0",
                                 "our agent raised RuntimeError: my bug; answered 0"]
    assert faulty.fallbacks == 2
    assert not any("wrong type or shape" in e for e in faulty.errors)

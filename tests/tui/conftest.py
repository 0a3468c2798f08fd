from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from textual.pilot import Pilot

from guandan.agents import Agent
from guandan.agents.heuristic import HeuristicAgent
from guandan.core.cards import Card, physical_deck
from guandan.core.match import MatchConfig
from guandan.core.rules import preset
from guandan.i18n import Translator, translator
from guandan.present import Presenter
from guandan.tui.app import GuandanApp
from guandan.tui.review import ReviewScreen, last_deal
from guandan.tui.session import Session
from guandan.tui.text import presenter


@pytest.fixture
def en() -> Translator:
    return translator("tui", "en")


@pytest.fixture
def pen() -> Presenter:
    """The game's words in English, seen from the human seat."""
    return presenter("en")


@pytest.fixture(autouse=True)
def _data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Matches saved by default go to a temporary data dir, never the user's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


def hands_with(seat0: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    """Four 27-card hands: seat 0 holds ``seat0`` plus filler, the rest of the deck goes round."""
    deck = sorted(pc.code for pc in physical_deck())
    for c in seat0:
        deck.remove(c)
    # filler of other ranks (K down), no jokers and no wildcard, so seat0 decides what the hand can do
    ranks = {c >> 2 for c in seat0}
    filler = sorted((c for c in deck if c < 52 and c >> 2 not in ranks and c != 1), key=lambda c: -c)[: 27 - len(seat0)]
    for c in filler:
        deck.remove(c)
    first = list(seat0) + filler
    rest = deck
    return (tuple(first), tuple(rest[0:27]), tuple(rest[27:54]), tuple(rest[54:81]))


def session_with_hand(seat0: Sequence[Card], *, tiers: str = "greedy", max_deals: int | None = 1) -> Session:
    config = MatchConfig(max_deals=max_deals, first_hands=hands_with(seat0), first_leader=0)
    return Session.new(preset("competition"), 7, tiers, tiers, config)


def finish_first_deal(s: Session, me: Agent | None = None) -> None:
    """Play the human seat with the heuristic (or ``me``) until the first deal is over."""
    me = me or HeuristicAgent(0)
    me.reset(0, s.rules)
    while last_deal(s) is None:
        if s.human_to_move:
            s.act(me.choose(s.observation(), s.legal()))
        else:
            s.bot_step()


async def finished_review(app: GuandanApp, pilot: Pilot[Any]) -> ReviewScreen:
    """The review screen ``app`` has opened, once it has gone through every decision (20 seconds at the most)."""
    for _ in range(400):
        await pilot.pause(0.05)
        if isinstance(app.screen, ReviewScreen) and app.screen.done:
            break
    screen = app.screen
    assert isinstance(screen, ReviewScreen) and screen.done
    return screen

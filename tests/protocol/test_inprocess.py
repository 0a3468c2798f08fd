"""Whole games in one process: the table driving four conformance bots, the ``external:`` adapter
inside ``run_match`` (inline and in child processes), failing bots, and the client-side tracker
checked against the engine's own observations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from guandan.agents.base import make_agent
from guandan.agents.runner import run_match
from guandan.core.errors import GuandanError
from guandan.core.events import Passed, Played, RoundWon, WentOut
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import preset
from guandan.core.vocab import MoveMode
from guandan.protocol.adapter import ExternalAgent, add_bot_path, parse_spec
from guandan.protocol.errors import ProtocolError
from guandan.protocol.messages import encode
from guandan.protocol.table import ProtocolTable
from guandan.protocol.tracker import ProtocolTracker

from .conformance_bot import CanonicalConformanceBot, ConformanceBot, Huaian2009ConformanceBot
from .helpers import SHORT

HERE = str(Path(__file__).parent)
_PLAY_EVENTS = (Played, Passed, WentOut, RoundWon)  # the events the tracker rebuilds from play notifies
add_bot_path(HERE)


def drive(table: ProtocolTable, bots: list[Any]) -> list[list[dict[str, Any]]]:
    """Play the table to the end; returns every message each seat got."""
    got: list[list[dict[str, Any]]] = [[], [], [], []]

    def deliver(out: list[tuple[int, dict[str, Any]]]) -> None:
        for seat, msg in out:
            got[seat].append(msg)
            bots[seat].received_message(encode(msg))

    deliver(table.start())
    while not table.over:
        seat, msg = table.act()
        got[seat].append(msg)
        index = bots[seat].received_message(encode(msg))
        deliver(table.answer(seat, index))
    return got


def test_whole_game_in_process_complete_moves() -> None:
    table = ProtocolTable(preset("competition"), games=1, seed=1)
    bots = [ConformanceBot(s) for s in range(4)]
    got = drive(table, bots)
    match = table.finished[0]
    assert match.ended and match.winner is not None and match.levels[match.winner] == 12
    notifies = [[m for m in seat if m["type"] == "notify"] for seat in got]
    # every seat gets the same notifies in the same order, beginning (its own hand) aside
    strip = [[m for m in seat if m["stage"] != "beginning"] for seat in notifies]
    assert strip[0] == strip[1] == strip[2] == strip[3]
    assert sum(1 for m in notifies[0] if m["stage"] == "beginning") == len(match.deals)
    assert notifies[0][-1]["stage"] == "gameResult" and notifies[0][-2]["stage"] == "gameOver"
    assert sum(b.acts for b in bots) == sum(len(d.state.actions) for d in match.deals)


def test_two_games_canonical_moves_and_tallies() -> None:
    config = MatchConfig(start_levels=(12, 12), start_declarer=0, move_mode=MoveMode.CANONICAL)
    class Bot(CanonicalConformanceBot):
        pass
    table = ProtocolTable(preset("competition"), games=2, seed=2, config=config)
    got = drive(table, [Bot(s) for s in range(4)])
    over = [m for m in got[0] if m["stage"] == "gameOver"]
    assert [(m["curTimes"], m["settingTimes"]) for m in over] == [(1, 2), (2, 2)]
    result = got[0][-1]
    wins = [m.winner for m in table.finished]
    assert result["victoryNum"] == [wins.count(s % 2) for s in range(4)] and result["draws"] == [wins.count(None)] * 4


def test_huaian_2009_preset() -> None:
    table = ProtocolTable(preset("huaian-2009"), games=1, seed=3, config=SHORT)
    drive(table, [Huaian2009ConformanceBot(s) for s in range(4)])
    assert table.over


def test_table_refuses_wrong_seat_and_bad_index_without_change() -> None:
    table = ProtocolTable(preset("competition"), games=1, seed=4, config=SHORT)
    table.start()
    seat, msg = table.act()
    before = table.match.deal.clone().hands if table.match and table.match.deal else None
    with pytest.raises(ProtocolError, match="turn"):
        table.answer((seat + 1) % 4, 0)
    for bad in (-1, msg["indexRange"] + 1, "0", True, 1.0):
        with pytest.raises(ProtocolError):
            table.answer(seat, bad)
    assert table.act() == (seat, msg)
    assert table.match is not None and table.match.deal is not None and table.match.deal.hands == before


def test_tracker_rebuilds_the_engine_observation() -> None:
    table = ProtocolTable(preset("competition"), games=1, seed=5, config=SHORT)
    trackers = [ProtocolTracker(preset("competition")) for _ in range(4)]
    checked = 0

    def deliver(out: list[tuple[int, dict[str, Any]]]) -> None:
        for seat, msg in out:
            trackers[seat].on_message(json.loads(encode(msg)))

    deliver(table.start())
    while not table.over:
        seat, msg = table.act()
        assert table.match is not None
        truth = table.match.observation(seat).deal
        obs, legal, indexes = trackers[seat].decision_inputs(json.loads(encode(msg)))
        mine = obs.deal
        assert (mine.seat, mine.phase, mine.level, mine.hand) == (truth.seat, truth.phase, truth.level, truth.hand)
        assert mine.played_counts == truth.played_counts and mine.finish == truth.finish
        assert mine.top == truth.top and mine.prev_finish == truth.prev_finish
        assert set(legal) == set(truth.legal) and len(legal) == len(truth.legal) and indexes == list(range(len(legal)))
        assert [e for e in mine.events if isinstance(e, _PLAY_EVENTS)] == \
            [e for e in truth.events if isinstance(e, _PLAY_EVENTS)]
        checked += 1
        deliver(table.answer(seat, len(legal) - 1))
    assert checked > 50


def test_adapter_game_with_event_hook() -> None:
    """run_match calls the adapter's on_events hook after every action: the bot sees every deal end."""
    agents = [make_agent("external:conformance_bot:ConformanceBot", seed=s) for s in range(4)]
    match = new_match(preset("competition"), 6, SHORT)
    run_match(match, agents)
    for a in agents:
        assert isinstance(a, ExternalAgent)
        assert a.stats() == {"crashes": 0, "timeouts": 0, "invalid": 0, "fallbacks": 0}, a.failures
        bot = a._bot.bot  # type: ignore[union-attr]
        assert bot.stages["notify:beginning"] == len(match.deals) == bot.stages["notify:episodeOver"]
        assert bot.stages["notify:gameOver"] == 1
        a.close()
    assert match.ended and match.winner is not None


def test_adapter_without_hook_still_conforms() -> None:
    """A host that never calls on_events (only choose) still gets conforming messages."""
    agents = [make_agent("external:conformance_bot:ConformanceBot", seed=s) for s in range(4)]
    match = new_match(preset("competition"), 8, SHORT)
    for seat, a in enumerate(agents):
        a.reset(seat, match.rules)
    while not match.ended:
        seat = match.to_move
        assert seat is not None
        legal = match.legal_actions()
        match.apply(agents[seat].choose(match.observation(seat), legal))
    for a in agents:
        assert isinstance(a, ExternalAgent) and a.stats()["crashes"] == 0, a.failures  # type: ignore[attr-defined]
        a.close()


def test_adapter_in_processes_counts_crash_timeout_and_bad_index() -> None:
    specs = ["external:conformance_bot:CrashingBot:process", "external:conformance_bot:SleepyBot:process:timeout=1",
             "external:conformance_bot:BadIndexBot:process", "external:conformance_bot:ConformanceBot:process"]
    agents = [make_agent(s, seed=i) for i, s in enumerate(specs)]
    match = new_match(preset("competition"), 9, SHORT)
    try:
        run_match(match, agents)
    finally:
        for a in agents:
            a.close()
    crash, sleepy, bad, good = agents
    assert match.ended
    assert crash.crashes >= 1 and crash.timeouts == 0 and crash.fallbacks >= 1  # type: ignore[attr-defined]
    assert sleepy.timeouts >= 1 and sleepy.crashes == 0  # type: ignore[attr-defined]
    assert bad.invalid >= 1 and bad.crashes == 0, bad.failures  # type: ignore[attr-defined]
    assert good.stats() == {"crashes": 0, "timeouts": 0, "invalid": 0, "fallbacks": 0}  # type: ignore[attr-defined]
    assert "deliberate crash" in crash.failures[0]  # type: ignore[attr-defined]


def test_adapter_errors_are_clear() -> None:
    with pytest.raises(GuandanError, match="MODULE:CLASS"):
        parse_spec("external:onlymodule")
    with pytest.raises(GuandanError, match="unknown option"):
        parse_spec("external:m:C:fast")
    with pytest.raises(GuandanError, match="positive"):
        parse_spec("external:m:C:timeout=-3")
    agent = make_agent("external:no_such_module_xyz:Bot")
    with pytest.raises(ProtocolError, match="standard hand types"):
        agent.reset(0, preset("huopin"))
    agent.reset(0, preset("competition"))
    match = new_match(preset("competition"), 1)
    seat = match.to_move
    assert seat is not None
    agent.reset(seat, preset("competition"))
    legal = match.legal_actions()
    assert agent.choose(match.observation(seat), legal) == legal[0]  # cannot load: counted, falls back
    assert agent.crashes == 1 and "no_such_module_xyz" in agent.failures[0]  # type: ignore[attr-defined]


@pytest.mark.parametrize("where", ["", ":process"])
def test_a_numpy_integer_answer_is_an_index_and_a_float_or_bool_is_not(where: str) -> None:
    specs = [f"external:conformance_bot:NumpyIndexBot{where}", "external:conformance_bot:ConformanceBot",
             f"external:conformance_bot:FloatIndexBot{where}", "external:conformance_bot:ConformanceBot"]
    agents = [make_agent(s, seed=i) for i, s in enumerate(specs)]
    match = new_match(preset("competition"), 3, SHORT)
    try:
        run_match(match, agents)
    finally:
        for a in agents:
            a.close()
    numpy_bot, _, float_bot, _ = agents
    assert numpy_bot.stats() == {"crashes": 0, "timeouts": 0, "invalid": 0, "fallbacks": 0}, \
        numpy_bot.failures  # type: ignore[attr-defined]
    assert float_bot.invalid >= 1 and float_bot.invalid == float_bot.fallbacks  # type: ignore[attr-defined]


@pytest.mark.parametrize("where", ["", ":process"])
def test_a_wrong_answer_is_quoted_as_the_bot_sent_it(where: str) -> None:
    specs = [f"external:conformance_bot:WrongAnswersBot{where}", "external:conformance_bot:ConformanceBot",
             "external:conformance_bot:ConformanceBot", "external:conformance_bot:ConformanceBot"]
    agents = [make_agent(s, seed=i) for i, s in enumerate(specs)]
    match = new_match(preset("competition"), 5, SHORT)
    try:
        run_match(match, agents)
    finally:
        for a in agents:
            a.close()
    bot = agents[0]
    assert bot.stats() == {"crashes": 0, "timeouts": 0, "invalid": 8, "fallbacks": 8}, \
        bot.failures  # type: ignore[attr-defined]
    sent = [line.split(": answered ", 1)[1].split(" to an act", 1)[0] for line in bot.failures]  # type: ignore[attr-defined]
    assert sent == ["2.0", '"5"', "true", "null", "1.5", "false", '"' + "x" * 58 + "…", "a Move object"]

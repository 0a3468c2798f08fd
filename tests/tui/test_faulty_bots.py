"""A bot tier that raises, or answers None or an illegal action, neither crashes `guandan play` (full-screen or
--plain) nor loses the game: the web app's fallback rule plays its move, the player is told once a seat, in
the catalogue's words, and the match is saved and resumes as usual. So too for a tier whose constructor or
``reset`` raises: the fallback plays that seat from the start, and the player is told so as the match starts.
The faulty tiers are registered for the test only (the registry is restored afterwards, as in tests/test_plugins.py)."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path

import pytest

import async_support
from guandan.agents import base
from guandan.agents.fallback import fallback_action
from guandan.core.deal import Action
from guandan.core.match import MatchConfig, MatchObservation
from guandan.core.rules import RuleSet, preset
from guandan.core.vocab import ActionKind
from guandan.tui.app import GuandanApp
from guandan.tui.plain import run_plain
from guandan.tui.session import BotFailure, Session

EN = "(bot, tier {tier}) failed; its move was played by the fallback (the first legal move)"
ZH = "（机器人，级别 {tier}）出错了，这一步由后备规则代打（第一个合法的出法）"


class Raiser(base.Agent):
    name = "raiser"

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        raise ValueError("my bug")


class Cheater(base.Agent):
    """Answers an action of another seat: never legal."""
    name = "cheater"

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        return Action(ActionKind.PASS, (obs.deal.seat + 1) % 4)


class Silent(base.Agent):
    name = "silent"

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        return None  # type: ignore[return-value]  # the bug under test


class Unbuildable(base.Agent):
    name = "unbuildable"

    def __init__(self, seed: int | str = 0, time_budget: float | None = None) -> None:
        raise RuntimeError("my constructor bug")

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        raise AssertionError("never made")


class Unresettable(base.Agent):
    name = "unresettable"

    def reset(self, seat: int, rules: RuleSet) -> None:
        raise KeyError("my reset bug")

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        raise AssertionError("a bot whose reset failed is not asked to play")


@pytest.fixture(autouse=True)
def _faulty_tiers(monkeypatch: pytest.MonkeyPatch) -> None:
    base.agent_names()  # the built-in tiers load first, so the registry is complete
    for cls in (Raiser, Cheater, Silent, Unbuildable, Unresettable):
        monkeypatch.setitem(base._REGISTRY, cls.name, lambda seed, budget, cls=cls: cls(seed, budget))


def _human(s: Session) -> None:
    s.act(s.legal()[0])


@pytest.mark.parametrize("tier", ["raiser", "cheater", "silent"])
def test_the_fallback_plays_the_faulty_bots_moves_and_the_player_is_told_once_a_seat(tier: str, tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    s = Session.new(preset("competition"), 3, "greedy", tier, MatchConfig(max_deals=1), save_path=save)
    told: list[BotFailure] = []
    fallback_moves = 0
    while not s.ended:
        if s.human_to_move:
            _human(s)
            continue
        seat = s.match.to_move
        expected = fallback_action(s.match, seat) if seat in (1, 3) else None
        s.bot_step()
        if expected is not None:
            deal = s.match.deals[-1].state if s.ended else s.match.deal
            assert deal is not None and deal.actions[-1] == expected
            fallback_moves += 1
        told += s.take_bot_failures()
    assert sorted(told) == [(1, tier, "move"), (3, tier, "move")]  # once each, however many moves failed
    assert fallback_moves > 10
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert saved["result"]["ended"] and saved["meta"]["tiers"] == ["human", tier, "greedy", tier]


def test_a_match_with_a_raising_bot_saves_and_resumes_the_same(tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    s = Session.new(preset("competition"), 4, "greedy", "raiser", save_path=save)
    for _ in range(30):
        _human(s) if s.human_to_move else s.bot_step()
    s.save()
    again = Session.resume(save)
    assert again.match.to_move == s.match.to_move and again.match.deal is not None and s.match.deal is not None
    assert again.match.deal.actions == s.match.deal.actions
    for _ in range(30):  # both go on the same, the fallback's moves included
        for x in (s, again):
            _human(x) if x.human_to_move else x.bot_step()
    assert again.match.deal.actions == s.match.deal.actions


@pytest.mark.parametrize(("tier", "lang"), [("raiser", "en"), ("cheater", "en"), ("raiser", "zh"), ("silent", "zh")])
def test_plain_mode_plays_on_and_says_so_once_a_seat(tier: str, lang: str, tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    s = Session.new(preset("competition"), 3, "greedy", tier, MatchConfig(max_deals=1), save_path=save)
    out = io.StringIO()
    assert run_plain(s, lang, io.StringIO("hint\n1\n" * 3000), out) == 0
    lines = out.getvalue().splitlines()
    assert s.ended
    words = (EN if lang == "en" else ZH).format(tier=tier)
    said = [line for line in lines if words in line]
    if lang == "en":
        assert sorted(said) == sorted(f"! {who} {words}, as it will be whenever it fails again"
                                      for who in ("Next opponent", "Previous opponent"))
    else:
        assert sorted(said) == sorted(f"! {who}{words}，之后再出错也这样处理" for who in ("下家", "上家"))
    assert not [line for line in lines if "Traceback" in line or "my bug" in line or "Error" in line]
    assert json.loads(save.read_text(encoding="utf-8"))["result"]["ended"]


async def _play_until_told(s: Session, app: GuandanApp, words: str) -> list[str]:
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(400):
            if sum(words in line for line in app.log_lines) >= 2:
                break
            if s.human_to_move:
                await pilot.press("h", "enter")
            await pilot.pause()
        await pilot.pause()
        assert app.is_running  # the bot's exception did not end the app
        return list(app.log_lines)


@pytest.mark.parametrize("tier", ["raiser", "cheater"])
def test_the_full_screen_client_plays_on_and_logs_it_once_a_seat(tier: str, tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    s = Session.new(preset("competition"), 3, "greedy", tier, save_path=save)
    words = EN.format(tier=tier)
    log = async_support.run(_play_until_told(s, GuandanApp(s, "en", bot_delay=0), words))
    said = [line for line in log if words in line]
    assert sorted(said) == sorted(f"{who} {words}, as it will be whenever it fails again"
                                  for who in ("Next opponent", "Previous opponent"))
    assert not [line for line in log if "Traceback" in line or "my bug" in line]
    s.save()
    assert Session.resume(save).match.deal is not None


STARTED = {
    ("unbuildable", "en"): "(bot, tier unbuildable) could not be started: creating it failed; the fallback (the first "
                           "legal move) plays its moves for the whole match",
    ("unresettable", "en"): "(bot, tier unresettable) could not be started: getting it ready for the match (reset) "
                            "failed; the fallback (the first legal move) plays its moves for the whole match",
    ("unbuildable", "zh"): "（机器人，级别 unbuildable）没能启动：创建它时出错了；整场比赛它的每一步都由后备规则代打"
                           "（第一个合法的出法）",
    ("unresettable", "zh"): "（机器人，级别 unresettable）没能启动：为本场比赛做准备（reset）时出错了；整场比赛它的每一步都由"
                            "后备规则代打（第一个合法的出法）",
}


@pytest.mark.parametrize(("tier", "stage"), [("unbuildable", "create"), ("unresettable", "reset")])
def test_a_bot_that_cannot_be_started_is_played_by_the_fallback_from_the_start(tier: str, stage: str,
                                                                               tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    s = Session.new(preset("competition"), 3, tier, "greedy", MatchConfig(max_deals=1), save_path=save)
    assert s.take_bot_failures() == [(2, tier, stage)]  # the partner's seat, told before any move
    partner_moves = 0
    while not s.ended:
        if s.human_to_move:
            _human(s)
            continue
        seat = s.match.to_move
        expected = fallback_action(s.match, seat) if seat == 2 else None
        s.bot_step()
        if expected is not None:
            deal = s.match.deals[-1].state if s.ended else s.match.deal
            assert deal is not None and deal.actions[-1] == expected
            partner_moves += 1
        assert s.take_bot_failures() == []  # told once, not again at its first move
    assert partner_moves > 5


@pytest.mark.parametrize(("tier", "stage"), [("unbuildable", "create"), ("unresettable", "reset")])
def test_a_saved_match_with_a_bot_that_cannot_be_started_resumes_the_same(tier: str, stage: str, tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    s = Session.new(preset("competition"), 4, "greedy", tier, save_path=save)
    for _ in range(20):
        _human(s) if s.human_to_move else s.bot_step()
    s.save()
    again = Session.resume(save)
    assert again.take_bot_failures() == [(1, tier, stage), (3, tier, stage)]
    assert again.match.deal is not None and s.match.deal is not None
    for _ in range(30):  # both go on the same: the fallback plays the seats in each
        for x in (s, again):
            _human(x) if x.human_to_move else x.bot_step()
    assert again.match.deal.actions == s.match.deal.actions


@pytest.mark.parametrize(("tier", "lang"), [("unbuildable", "en"), ("unresettable", "zh")])
def test_plain_mode_says_as_it_starts_which_bot_could_not_be_started(tier: str, lang: str, tmp_path: Path) -> None:
    s = Session.new(preset("competition"), 3, "greedy", tier, MatchConfig(max_deals=1), save_path=tmp_path / "m.json")
    out = io.StringIO()
    assert run_plain(s, lang, io.StringIO("hint\n1\n" * 3000), out) == 0
    lines = out.getvalue().splitlines()
    words = STARTED[tier, lang]
    who = ("Next opponent", "Previous opponent") if lang == "en" else ("下家", "上家")
    # after the line naming the save file, before the deal's first line
    assert sorted(lines[1:3]) == sorted(f"! {w}{' ' if lang == 'en' else ''}{words}" for w in who)
    assert sum(words in line for line in lines) == 2
    assert not [line for line in lines if "Traceback" in line or "bug" in line or "Error" in line]
    assert s.ended


async def _first_lines(app: GuandanApp) -> list[str]:
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.is_running
        return list(app.log_lines)


def test_the_full_screen_client_logs_a_bot_that_could_not_be_started(tmp_path: Path) -> None:
    s = Session.new(preset("competition"), 3, "unresettable", "greedy", save_path=tmp_path / "m.json")
    log = async_support.run(_first_lines(GuandanApp(s, "zh", bot_delay=3600)))
    assert log[1] == "对家" + STARTED["unresettable", "zh"]
    assert not [line for line in log if "bug" in line]

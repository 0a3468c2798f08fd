"""Textual's headless pilot plays a whole deal through key presses: the tribute step (only eligible
cards selectable), selection with arrows and space, typed cards, pass, hint cycling, the summary."""

from __future__ import annotations

from pathlib import Path

import async_support
from guandan.core.cards import card_str
from guandan.core.match import MatchConfig
from guandan.core.rules import preset
from guandan.i18n import Translator
from guandan.tui.app import GuandanApp, SummaryScreen
from guandan.tui.hand import level_sorted
from guandan.tui.handview import HandView
from guandan.tui.session import Session


def human_actions(s: Session) -> int:
    deal = s.match.deals[-1].state if s.ended else s.match.deal
    assert deal is not None
    return sum(a.seat == 0 for a in deal.actions)


async def play_deal(s: Session, app: GuandanApp) -> dict[str, int]:
    seen = {"pass": 0, "typed": 0, "hint": 0, "cycled": 0, "summary": 0}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        hand = app.query_one(HandView)
        d = s.observation().deal
        assert d.phase == "tribute" and d.to_move == 0
        assert app.message.startswith("Tribute (进贡): select one of ")
        eligible = {a.cards[0] for a in d.legal}
        assert hand.eligible == eligible
        # the lowest card cannot be paid: space selects nothing, Enter explains, nothing changes
        assert hand.cards[0] not in eligible
        await pilot.press("space", "enter")
        assert hand.selection() == [] and app.message == "Select some cards first"
        assert s.observation().deal.phase == "tribute"
        await pilot.press(*["right"] * next(i for i, c in enumerate(hand.cards) if c in eligible), "space", "enter")
        assert s.match.deal is not None and s.match.deal.actions[0].kind == "tribute"
        assert any(line.startswith("Tribute (进贡): You → Next opponent: ") for line in app.log_lines)

        for _ in range(2000):
            if isinstance(app.screen, SummaryScreen):
                assert any(line.startswith("--- Deal over: ") for line in app.screen.lines)
                seen["summary"] += 1
                await pilot.press("enter")
                await pilot.pause()
                continue
            if s.ended:
                break
            if not s.human_to_move:
                await pilot.pause()
                continue
            d = s.observation().deal
            before = human_actions(s)
            if any(a.kind == "pass" for a in d.legal) and not seen["pass"]:
                await pilot.press("p")
                seen["pass"] += 1
                assert human_actions(s) == before + 1 and s.match.deal is not None
                assert [a for a in s.match.deal.actions if a.seat == 0][-1].kind == "pass"
                continue
            if d.phase == "play" and d.top is None and not seen["typed"]:
                low = card_str(level_sorted(d.hand, d.level)[0]).lower()
                await pilot.press("t", *low, "enter")  # "h", "s", digits… go to the input, not to the bindings
                seen["typed"] += 1
                assert human_actions(s) == before + 1
                continue
            await pilot.press("h")
            assert app.message.startswith("Hint 1/"), app.message
            seen["hint"] += 1
            if len(app.hints) > 1:
                await pilot.press("h")
                assert app.message.startswith("Hint 2/") and app.hinted == app.hints[1].action
                assert sorted(hand.selection()) == sorted(app.hints[1].action.cards)
                seen["cycled"] += 1
            await pilot.press("enter")
            assert human_actions(s) == before + 1
        assert s.ended
    return seen


def test_the_pilot_plays_a_whole_deal_with_tribute(tmp_path: Path, en: Translator) -> None:
    save = tmp_path / "m.json"
    s = Session.new(preset("competition"), 5, "greedy", "greedy",
                    MatchConfig(max_deals=1, start_prev_finish=(1, 2, 3, 0)), save_path=save)
    app = GuandanApp(s, en, bot_delay=0)
    seen = async_support.run(play_deal(s, app))
    assert seen["pass"] == 1 and seen["typed"] == 1 and seen["hint"] >= 3 and seen["cycled"] >= 1
    assert seen["summary"] == 1
    assert save.is_file()  # saved after the deal
    assert any(line.startswith("Winners: ") for line in app.log_lines)


async def bad_keys(s: Session, app: GuandanApp) -> tuple[str, str, str]:
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        before = s.record()
        await pilot.press("t", *"x9", "enter")
        unknown = app.message
        await pilot.press("escape", "p")
        cannot_pass = app.message
        await pilot.press("5")
        no_choice = app.message
        assert s.record() == before
        await pilot.press("g")
        assert app.query_one(HandView).groups
        await pilot.press("c")
        assert not app.query_one("#counter").display
        await pilot.press("q")
    return unknown, cannot_pass, no_choice


def test_bad_keys_show_a_message_and_change_nothing(tmp_path: Path, en: Translator) -> None:
    from .conftest import hands_with

    config = MatchConfig(max_deals=1, first_hands=hands_with([0, 4, 8]), first_leader=0)
    s = Session.new(preset("competition"), 5, "greedy", "greedy", config, save_path=tmp_path / "q.json")
    messages = async_support.run(bad_keys(s, GuandanApp(s, en, bot_delay=0)))
    assert messages == ("Unknown card “x9” (write cards like H3 S10 LJ BJ)", "You lead: you cannot pass",
                        "Nothing to choose from: ask for a hint first")
    assert (tmp_path / "q.json").is_file()  # q saves

"""Textual's headless pilot plays a whole deal at 80×24 through key presses: the tribute step (only
eligible cards selectable), selection with arrows and space (the "selected: …" line follows), typed
cards, pass, hint cycling with true reasons, the end-of-deal box (with the status line saying so).
Every region sits inside the screen; below 80×24 the app says how big the window must be."""

from __future__ import annotations

import re
from pathlib import Path

from textual.geometry import Region
from textual.widget import Widget

import async_support
from guandan.core.match import MatchConfig
from guandan.core.rules import preset
from guandan.core.vocab import ActionKind, Phase
from guandan.tui.app import GameLog, GuandanApp, SummaryScreen, TableView, TooSmallScreen
from guandan.tui.hand import level_sorted
from guandan.tui.handview import HandView
from guandan.tui.session import Session
from guandan.tui.text import typed_token

from .conftest import hands_with

SIZE = (80, 24)
LEAKS = re.compile(r"None|True|False|\[\d|\{|\}|\bT\b|\bLJ\b|\bBJ\b|jkr|_")
REGIONS = ("#table", "#log", "#counter", "#message", "#selected", "#hand", "Footer")


def human_actions(s: Session) -> int:
    deal = s.match.deals[-1].state if s.ended else s.match.deal
    assert deal is not None
    return sum(a.seat == 0 for a in deal.actions)


def check_layout(app: GuandanApp) -> None:
    """Table, log, counter, status, selection, hand and keys: all on screen, none over another, and the
    hand's cards and the table's six lines not cut."""
    screen = Region(0, 0, *SIZE)
    placed: list[tuple[str, Region]] = []
    for selector in REGIONS:
        widget: Widget = app.query_one(selector)
        region = widget.region
        assert region.area > 0, f"{selector} is not shown"
        assert screen.contains_region(region), f"{selector} at {region} is outside the {SIZE} screen"
        for other, r in placed:
            assert not region.overlaps(r), f"{selector} {region} overlaps {other} {r}"
        placed.append((selector, region))
    hand = app.query_one(HandView)
    inner = hand.content_region
    assert hand.get_content_height(inner.size, app.size, inner.width) <= inner.height, "the hand is cut"
    table = app.query_one(TableView)
    assert table.content_region.height == 6
    assert app.query_one("#log").region.height >= 5


async def play_deal(s: Session, app: GuandanApp) -> dict[str, int]:
    seen = {"pass": 0, "typed": 0, "hint": 0, "cycled": 0, "summary": 0, "selected": 0}
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        check_layout(app)
        assert not isinstance(app.screen, TooSmallScreen)
        assert app.log_lines[0].startswith("This match is saved to ")
        hand = app.query_one(HandView)
        d = s.observation().deal
        assert d.phase == Phase.TRIBUTE and d.to_move == 0
        assert app.message.startswith("Tribute: pick one of ")
        eligible = {a.cards[0] for a in d.legal}
        assert hand.eligible == eligible
        # the lowest card cannot be paid: space selects nothing, Enter explains, nothing changes
        assert hand.cards[0] not in eligible
        await pilot.press("space", "enter")
        assert hand.selection() == [] and app.message == "Select some cards first"
        assert app.selected_text == "No cards selected: ←/→ to move, space to select"
        assert s.observation().deal.phase == Phase.TRIBUTE
        await pilot.press(*["right"] * next(i for i, c in enumerate(hand.cards) if c in eligible), "space")
        assert app.selected_text.endswith("— Enter gives it")
        await pilot.press("enter")
        assert s.match.deal is not None and s.match.deal.actions[0].kind == ActionKind.TRIBUTE
        assert any(line.startswith("Tribute: You → Next opponent: ") for line in app.log_lines)

        shown: list[str] = []
        for _ in range(2000):
            shown += [app.message, app.selected_text]
            if isinstance(app.screen, SummaryScreen):
                assert any(line.startswith("Finishing order: ") for line in app.screen.lines)
                assert any(line.startswith("Result 1-") for line in app.screen.lines)
                assert app.message in ("Deal 1 is over: press Enter for the next deal",
                                       "The match is over: press Enter to see the final table")
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
            if d.phase == Phase.PLAY and not seen["selected"]:
                # select the lowest card by hand: the selection line reads it as a single (or says why not)
                await pilot.press("escape", "home", "space")
                low = hand.selection()
                assert len(low) == 1 and app.selected_text.startswith(f"Selected: {app.present.card(low[0], d.level)} — ")
                await pilot.press("escape")
                assert app.selected_text == "No cards selected: ←/→ to move, space to select"
                seen["selected"] += 1
            if any(a.kind == ActionKind.PASS for a in d.legal) and not seen["pass"]:
                await pilot.press("p")
                seen["pass"] += 1
                assert human_actions(s) == before + 1 and s.match.deal is not None
                assert [a for a in s.match.deal.actions if a.seat == 0][-1].kind == ActionKind.PASS
                continue
            if d.phase == Phase.PLAY and d.top is None and not seen["typed"]:
                token = typed_token(level_sorted(d.hand, d.level)[0]).lower()
                await pilot.press("t", *token, "enter")  # "h", "s", digits… go to the input, not to the bindings
                seen["typed"] += 1
                assert human_actions(s) == before + 1
                continue
            await pilot.press("h")
            assert app.message.startswith("Hint 1/"), app.message
            hint = app.hints[0]
            assert app.message.endswith(" — " + app.present.hint_reason(hint.reason))
            if hint.action.cards:
                assert "— plays as " in app.selected_text or "— Enter gives it" in app.selected_text
            seen["hint"] += 1
            if len(app.hints) > 1:
                await pilot.press("h")
                assert app.message.startswith("Hint 2/") and app.hinted == app.hints[1].action
                assert sorted(hand.selection()) == sorted(app.hints[1].action.cards)
                seen["cycled"] += 1
            await pilot.press("enter")
            assert human_actions(s) == before + 1
        assert s.ended
        check_layout(app)
        told = [line for line in [*shown, *app.log_lines] if "saved to" not in line.lower()]  # those name a file
        assert not [line for line in told if LEAKS.search(line)]
    return seen


def test_the_pilot_plays_a_whole_deal_with_tribute_at_80x24(tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    s = Session.new(preset("competition"), 5, "greedy", "greedy",
                    MatchConfig(max_deals=1, start_prev_finish=(1, 2, 3, 0)), save_path=save)
    app = GuandanApp(s, "en", bot_delay=0)
    seen = async_support.run(play_deal(s, app))
    assert seen["pass"] == 1 and seen["typed"] == 1 and seen["hint"] >= 3 and seen["cycled"] >= 1
    assert seen["summary"] == 1 and seen["selected"] == 1
    assert save.is_file()  # saved after the deal
    assert any(line.startswith("Result 1-") for line in app.log_lines)


async def bad_keys(s: Session, app: GuandanApp) -> tuple[str, str, str]:
    async with app.run_test(size=SIZE) as pilot:
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
        check_layout(app)  # the grouped hand fits too
        await pilot.press("c")
        assert not app.query_one("#counter").display
        await pilot.press("q")
    return unknown, cannot_pass, no_choice


def test_bad_keys_show_a_message_and_change_nothing(tmp_path: Path) -> None:
    config = MatchConfig(max_deals=1, first_hands=hands_with([0, 4, 8]), first_leader=0)
    s = Session.new(preset("competition"), 5, "greedy", "greedy", config, save_path=tmp_path / "q.json")
    messages = async_support.run(bad_keys(s, GuandanApp(s, "en", bot_delay=0)))
    assert messages == ("Unknown card “x9” (write cards like H3 S10 LJ BJ)", "You lead: you cannot pass",
                        "Nothing to choose from: select cards with several readings first")
    assert (tmp_path / "q.json").is_file()  # q saves


async def too_small(s: Session, app: GuandanApp) -> list[str]:
    seen = []
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        seen.append(str(app.screen.query_one("#too-small").render()))
        before = s.record()
        await pilot.press("p", "h", "enter")  # the game's keys wait for a big enough window
        assert s.record() == before and not app.hints
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert not isinstance(app.screen, TooSmallScreen)
        check_layout(app)
        await pilot.press("h")
        assert app.hints  # the game goes on
        await pilot.resize_terminal(79, 24)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        seen.append(str(app.screen.query_one("#too-small").render()))
    return seen


def test_a_small_window_is_told_how_big_it_must_be(tmp_path: Path) -> None:
    config = MatchConfig(max_deals=1, first_hands=hands_with([0, 4, 8]), first_leader=0)
    s = Session.new(preset("competition"), 5, "greedy", "greedy", config, save_path=tmp_path / "s.json")
    texts = async_support.run(too_small(s, GuandanApp(s, "en", bot_delay=0)))
    assert texts[0].startswith("This window is 70×20; the table needs at least 80×24.")
    assert texts[1].startswith("This window is 79×24;")
    s2 = Session.new(preset("competition"), 5, "greedy", "greedy", config, save_path=tmp_path / "z.json")
    zh = async_support.run(too_small(s2, GuandanApp(s2, "zh", bot_delay=0)))
    assert zh[0].startswith("窗口只有 70×20，牌桌至少需要 80×24。")


async def chinese_table(s: Session, app: GuandanApp) -> str:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        check_layout(app)
        table = app.query_one(TableView)
        return str(table.render()) + "\n" + (table.border_title or "") + "\n" + (table.border_subtitle or "")


def test_the_table_seats_partner_top_opponents_left_and_right_you_bottom(tmp_path: Path) -> None:
    config = MatchConfig(max_deals=1, first_hands=hands_with([0, 4, 8]), first_leader=0)
    s = Session.new(preset("competition"), 5, "greedy", "greedy", config, save_path=tmp_path / "t.json")
    lines = async_support.run(chinese_table(s, GuandanApp(s, "zh", bot_delay=0))).splitlines()
    assert lines[0].strip() == "对家"
    assert lines[2].split()[0] == "上家" and lines[2].split()[-1] == "下家"  # 上家 on your left, 下家 on your right
    assert lines[4].strip().startswith("你 · 27张 · 该出牌")
    assert lines[6] == "第1副 · 打2" and lines[7] == "我方 2 : 对方 2 · 暂无庄家"


async def log_after_narrowing(app: GuandanApp) -> tuple[str, int, int]:
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        check_layout(app)
        log = app.query_one(GameLog)
        text = "".join(strip.text.strip() for strip in log.lines)  # a wrapped entry's later rows are indented
        return text, log.virtual_size.width, log.scrollable_content_region.width


def test_the_log_is_wrapped_again_when_the_window_narrows(tmp_path: Path) -> None:
    """Lines written in a 120-column window are not cut when it is made 80 columns wide mid-deal (the saved
    file's name was cut to ".../gua", the first deal's line to "… · dec", behind a sideways scroll bar)."""
    save = tmp_path / "a-folder-with-a-long-name-to-fill-the-line" / "match.json"
    save.parent.mkdir()
    config = MatchConfig(max_deals=1, first_hands=hands_with([0, 4, 8]), first_leader=0)
    s = Session.new(preset("competition"), 5, "greedy", "greedy", config, save_path=save)
    app = GuandanApp(s, "en", bot_delay=0)
    text, wide, room = async_support.run(log_after_narrowing(app))
    assert wide <= room  # nothing to scroll sideways to
    assert str(save) in text and text.count("declarer yet") == 1  # the deal line to its end ("… · no declarer yet")


async def _end_of_deal_box(s: Session, app: GuandanApp) -> tuple[list[str], Region]:
    from textual.geometry import Region as Area

    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(3000):
            if isinstance(app.screen, SummaryScreen):
                await pilot.pause()
                box = app.screen.query_one("#summary")
                rows = [strip.text.strip("║ ") for strip in box.render_lines(Area(0, 0, *box.outer_size))]
                return rows, box.region
            if s.human_to_move:
                await pilot.press("h", "enter")
            else:
                await pilot.pause()
    raise AssertionError("the deal did not end")


def test_the_end_of_deal_box_repeats_how_the_deal_ended() -> None:
    """The box covers the log, and the next deal is on the table behind it: the deal's last plays are in the box,
    above the result, and its last line (Enter continues) is not cut."""
    from guandan.core.events import Played, WentOut
    from guandan.tui.text import presenter

    for lang, head, last in (("en", "The deal's last plays:", "Press Enter to continue"),
                             ("zh", "这一副的最后几手：", "按回车继续")):
        s = Session.new(preset("competition"), 5, "greedy", "greedy", MatchConfig(max_deals=2))
        app = GuandanApp(s, lang, bot_delay=0)
        rows, region = async_support.run(_end_of_deal_box(s, app))
        deal = s.match.deals[0]
        p = presenter(lang, deal.level)
        final = [line for e in deal.state.events if isinstance(e, Played | WentOut) for line in p.event(e)][-1]
        text = [row for row in rows if row.strip("═╔╗╚╝ ")]
        assert head in text and final in text, rows
        assert text.index(head) < text.index(final) < next(i for i, row in enumerate(text) if row.startswith(
            ("Finishing order", "出完顺序")))
        assert text[-1] == last, rows
        assert region.y >= 0 and region.bottom <= SIZE[1] - 1  # above the key bar

"""The keys are found and said: ? and F1 open a help screen listing every key in the player's language;
the key bar shows the keys of what is on the screen (the summary box's, the typing line's); Ctrl+C and q
save and quit, as Textual's own Ctrl+C (an English notice) and Ctrl+Q (no save) did not."""

from __future__ import annotations

from pathlib import Path

from rich.cells import cell_len
from textual.widgets import Input

import async_support
from guandan.core.match import MatchConfig
from guandan.core.rules import preset
from guandan.i18n import translator
from guandan.tui.app import HELP_KEYS, GuandanApp, HelpScreen, SummaryScreen
from guandan.tui.session import Session
from guandan.tui.text import typed_token

from .conftest import hands_with

SIZE = (80, 24)


def _session(path: Path) -> Session:
    return Session.new(preset("competition"), 3, "greedy", "greedy", MatchConfig(max_deals=1), save_path=path)


def _bar(game: GuandanApp) -> list[str]:
    """What the key bar lists: each shown key's description."""
    return [b.binding.description for b in game.screen.active_bindings.values() if b.binding.show]


async def _help(game: GuandanApp) -> tuple[list[str], int]:
    async with game.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "help" in _bar(game) or "帮助" in _bar(game)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(game.screen, HelpScreen)
        text = str(game.screen.query_one("#help").render())
        width = game.screen.query_one("#help").content_region.width
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(game.screen, HelpScreen)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(game.screen, HelpScreen)
        await pilot.press("f1")
        await pilot.pause()
        assert not isinstance(game.screen, HelpScreen)
    return text.splitlines(), width


def test_question_mark_and_f1_show_every_key(tmp_path: Path) -> None:
    for lang in ("en", "zh"):
        tr = translator("tui", lang)
        rows, width = async_support.run(_help(GuandanApp(_session(tmp_path / f"{lang}.json"), lang, bot_delay=0)))
        assert len(rows) == len(HELP_KEYS)
        assert all(cell_len(row) <= width for row in rows), "a row of the help wraps at 80×24"
        for (keys, what), row in zip(HELP_KEYS, rows, strict=True):
            assert row.startswith(keys) and row.rstrip().endswith(tr.gettext(what)), row
        if lang == "zh":
            assert any(row.endswith("保存并退出") for row in rows)


async def _bars(game: GuandanApp) -> dict[str, list[str]]:
    bars = {}
    async with game.run_test(size=SIZE) as pilot:
        await pilot.pause()
        bars["table"] = _bar(game)
        await pilot.press("t")
        await pilot.pause()
        bars["typing"] = _bar(game)
        await pilot.press("escape")
        await pilot.pause()
        game.paused = True
        game.push_screen(SummaryScreen("Deal 1 is over", ["Finishing order: …"], game))
        await pilot.pause()
        bars["summary"] = _bar(game)
    return bars


def test_the_key_bar_lists_the_keys_of_what_is_shown(tmp_path: Path) -> None:
    bars = async_support.run(_bars(GuandanApp(_session(tmp_path / "k.json"), "en", bot_delay=0)))
    assert bars["table"] == ["select", "play", "pass", "hint", "type", "group", "quit", "help"]
    assert bars["typing"] == ["play", "back"]  # was empty: the letters go to the typed line
    assert bars["summary"] == ["continue", "review", "quit"]  # not the table's pass and hint, which wait


async def _quit_with(game: GuandanApp, *keys: str) -> bool:
    async with game.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()
        return game.is_running


def test_ctrl_c_and_ctrl_q_save_and_quit(tmp_path: Path) -> None:
    for key in ("ctrl+c", "ctrl+q"):
        path = tmp_path / f"{key}.json"
        game = GuandanApp(_session(path), "zh", bot_delay=0)
        assert not async_support.run(_quit_with(game, key))
        assert game.saved == (path, None) and path.is_file()


def test_q_quits_from_the_summary_box(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    game = GuandanApp(_session(path), "en", bot_delay=0)

    async def quit_from_summary() -> bool:
        async with game.run_test(size=SIZE) as pilot:
            await pilot.pause()
            game.paused = True
            game.push_screen(SummaryScreen("Deal 1 is over", [], game))
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()
            return game.is_running

    assert not async_support.run(quit_from_summary())
    assert game.saved == (path, None) and path.is_file()


async def _typed_refusal(game: GuandanApp, token: str) -> tuple[str, str, bool, bool]:
    async with game.run_test(size=SIZE) as pilot:
        await pilot.pause()
        before = game.session.record()
        await pilot.press("t", *token.lower(), "enter")
        await pilot.pause()
        typed = game.query_one("#typed", Input)
        message, kept = game.message, typed.value
        # a player who goes on typing to correct it types into the line: p is a letter there, not a pass
        await pilot.press("p")
        await pilot.pause()
        open_ = typed.has_class("shown") and typed.has_focus and typed.value == kept + "p"
        unchanged = game.session.record() == before
        await pilot.press("escape")
        return message, kept, open_, unchanged and not typed.has_class("shown")


def test_typed_cards_that_are_refused_stay_on_the_typing_line(tmp_path: Path) -> None:
    config = MatchConfig(max_deals=1, first_hands=hands_with([0, 4, 8]), first_leader=0)
    s = Session.new(preset("competition"), 5, "greedy", "greedy", config, save_path=tmp_path / "r.json")
    absent = next(c for c in range(52) if c not in s.observation().deal.hand)
    token = typed_token(absent)
    message, kept, open_, unchanged = async_support.run(_typed_refusal(GuandanApp(s, "en", bot_delay=0), token))
    assert message.startswith("Not in your hand: ")
    assert kept == token.lower() and open_ and unchanged  # it closed, and the next p passed the turn

"""The keys are found and said: ? and F1 open a help screen listing every key in the player's language;
the key bar shows the keys of what is on the screen (the summary box's, the typing line's); Ctrl+C and q
save and quit, as Textual's own Ctrl+C (an English notice) and Ctrl+Q (no save) did not."""

from __future__ import annotations

from pathlib import Path

from rich.cells import cell_len
from textual.widgets import Input

import async_support
from guandan.agents import make_agent
from guandan.core.match import MatchConfig
from guandan.core.rules import preset
from guandan.core.vocab import Phase
from guandan.i18n import translator
from guandan.tui.app import HELP_KEYS, GuandanApp, HelpScreen, SummaryScreen, help_keys
from guandan.tui.handview import HandView
from guandan.tui.review import ReviewScreen
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
            assert row.startswith(help_keys(keys, tr)) and row.rstrip().endswith(tr.gettext(what)), row
        if lang == "zh":
            assert any(row.endswith("保存并退出") for row in rows)
            # a key is called what the key bar and the prompts call it: 空格, not "space"; ⏎ 回车, not "Enter"
            assert rows[1].startswith("空格 ") and rows[2].startswith("⏎ 回车 ")
            assert not [row for row in rows if "space" in row or "Enter" in row]
        else:
            assert rows[1].startswith("space ") and rows[2].startswith("⏎ Enter ")


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


PLAY_BAR = ["select", "play", "pass", "hint", "type", "group", "quit", "help"]
LEAD_BAR = ["select", "play", "hint", "type", "group", "quit", "help"]


def _staged(path: Path, prev_finish: tuple[int, int, int, int]) -> Session:
    """Deal 1 opens as if a deal had ended in ``prev_finish``: the human pays tribute (last) or returns a card
    (first, with the partner third)."""
    return Session.new(preset("competition"), 5, "greedy", "greedy",
                       MatchConfig(max_deals=1, start_prev_finish=prev_finish), save_path=path)


async def _giving(game: GuandanApp) -> dict[str, object]:
    seen: dict[str, object] = {}
    async with game.run_test(size=SIZE) as pilot:
        await pilot.pause()
        seen["bar"], seen["phase"] = _bar(game), game.session.observation().deal.phase
        before = game.session.record()
        await pilot.press("p")  # not listed, and says why nothing happens
        seen["p"], seen["unchanged"] = game.message, game.session.record() == before
        hand = game.query_one(HandView)
        assert hand.eligible
        await pilot.press("home", *["right"] * next(i for i, c in enumerate(hand.cards) if c in hand.eligible),
                          "space", "enter")  # Enter, listed as "give", gives the card
        for _ in range(200):
            await pilot.pause()
            # the bots play until it is the player's turn: the play's keys are listed from then on
            if game.session.observation().deal.phase == Phase.PLAY and game.session.human_to_move:
                break
        seen["given"] = game.session.record() != before
        seen["after"] = _bar(game)  # the play's keys are back once the cards have changed hands
        if game.session.human_to_move:
            led = game.session.record()
            await pilot.press("p")  # on a lead: not listed either, and says why nothing happens
            seen["p on lead"], seen["lead unchanged"] = game.message, game.session.record() == led
    return seen


def test_the_key_bar_names_the_keys_of_a_tribute_and_a_return(tmp_path: Path) -> None:
    """During a tribute (进贡) or a return (还贡) the bar said "⏎ play" and "p pass", and p answered that there is no
    pass: Enter is named for what it does there, and p is not listed (it still says why nothing happens)."""
    tribute = async_support.run(_giving(GuandanApp(_staged(tmp_path / "t.json", (1, 2, 3, 0)), "en", bot_delay=0)))
    assert tribute["phase"] == Phase.TRIBUTE
    assert tribute["bar"] == ["select", "give", "hint", "type", "group", "quit", "help"]
    assert tribute["p"] == "You cannot pass now: give a card" and tribute["unchanged"]
    # the player who paid tribute leads: a lead has no pass, so p is not listed (it was, and only said so)
    assert tribute["given"] and tribute["after"] == LEAD_BAR
    assert tribute["p on lead"] == "You lead: you cannot pass" and tribute["lead unchanged"]
    back = async_support.run(_giving(GuandanApp(_staged(tmp_path / "r.json", (0, 1, 2, 3)), "en", bot_delay=0)))
    assert back["phase"] == Phase.RETURN
    assert back["bar"] == ["select", "give back", "hint", "type", "group", "quit", "help"]
    assert back["given"] and back["after"] == PLAY_BAR
    zh = async_support.run(_giving(GuandanApp(_staged(tmp_path / "z.json", (1, 2, 3, 0)), "zh", bot_delay=0)))
    assert zh["bar"] == ["选牌", "进贡", "提示", "输入牌", "理牌", "退出", "帮助"]
    assert zh["p"] == translator("tui", "zh").gettext("You cannot pass now: give a card")


async def _final_table(game: GuandanApp) -> tuple[list[str], bool]:
    async with game.run_test(size=SIZE) as pilot:
        await pilot.pause()
        bar = _bar(game)
        before = game.session.record()
        hand = game.query_one(HandView)
        await pilot.press("space", "enter", "p", "h", "g", "t")  # none of these does anything here any more
        await pilot.pause()
        idle = (game.session.record() == before and not hand.selection() and not hand.grouped and not game.hints
                and not game.query_one("#typed", Input).has_class("shown"))
        game.review_budget = 0.02
        await pilot.press("r")  # listed, and opens the last deal's review
        for _ in range(400):
            await pilot.pause(0.05)
            if isinstance(game.screen, ReviewScreen) and game.screen.done:
                break
        assert isinstance(game.screen, ReviewScreen) and game.screen.done
        return bar, idle


def test_the_final_table_lists_only_the_keys_that_still_do_something(tmp_path: Path) -> None:
    s = Session.new(preset("competition"), 1, "greedy", "greedy", MatchConfig(max_deals=1), save_path=tmp_path / "f.json")
    me = make_agent("greedy", "human")
    me.reset(0, s.rules)
    while not s.ended:
        s.act(me.choose(s.observation(), s.legal())) if s.human_to_move else s.bot_step()
    assert s.observation().deal.hand  # cards left in the hand: space and Enter would have had something to act on
    bar, idle = async_support.run(_final_table(GuandanApp(s, "en", bot_delay=0)))
    assert bar == ["review", "quit", "help"] and idle  # was select, play, pass, hint, type, group, quit, help
    zh, _ = async_support.run(_final_table(GuandanApp(s, "zh", bot_delay=0)))
    assert zh == ["复盘", "退出", "帮助"]


WAIT_BAR = ["group", "quit", "help"]


async def _waiting(game: GuandanApp) -> dict[str, object]:
    """The bots wait for the test (a long bot_delay): it moves them one at a time with bot_move."""
    seen: dict[str, object] = {}
    async with game.run_test(size=SIZE) as pilot:
        await pilot.pause()
        seen["bar"], seen["message"] = _bar(game), game.message
        before = game.session.record()
        hand = game.query_one(HandView)
        await pilot.press("space", "enter", "p", "h", "t")  # none of these does anything while a bot is to move
        await pilot.pause()
        seen["idle"] = (game.session.record() == before and not hand.selection() and not game.hints
                        and not game.query_one("#typed", Input).has_class("shown") and game.message == seen["message"])
        await pilot.press("g")  # listed: the hand is grouped while the player waits
        await pilot.pause()
        seen["grouped"] = hand.grouped
        game.bot_move()  # the bot pays its tribute: the player's return is asked for
        await pilot.pause()
        seen["phase"], seen["turn"] = game.session.observation().deal.phase, _bar(game)
        await pilot.press("home", *["right"] * next(i for i, c in enumerate(hand.cards) if c in (hand.eligible or ())),
                          "space", "enter")  # the card goes back: a bot leads
        await pilot.pause()
        seen["after"] = _bar(game) if not game.session.human_to_move else None
    return seen


def test_the_key_bar_lists_only_the_keys_that_work_while_another_seat_is_to_move(tmp_path: Path) -> None:
    """The bar followed the phase alone: while a bot paid tribute to the player it listed select, give, hint and
    type, none of which does anything until the player's own turn."""
    game = GuandanApp(_staged(tmp_path / "w.json", (0, 1, 2, 3)), "en", bot_delay=600)
    assert game.session.observation().deal.phase == Phase.TRIBUTE and not game.session.human_to_move
    seen = async_support.run(_waiting(game))
    assert seen["bar"] == WAIT_BAR and seen["message"] == "Waiting for Previous opponent to pay tribute…"
    assert seen["idle"] and seen["grouped"]
    assert seen["phase"] == Phase.RETURN
    assert seen["turn"] == ["select", "give back", "hint", "type", "group", "quit", "help"]
    assert seen["after"] == WAIT_BAR
    zh = async_support.run(_waiting(GuandanApp(_staged(tmp_path / "z.json", (0, 1, 2, 3)), "zh", bot_delay=600)))
    assert zh["bar"] == ["理牌", "退出", "帮助"] and zh["after"] == ["理牌", "退出", "帮助"]
    assert zh["turn"] == ["选牌", "还贡", "提示", "输入牌", "理牌", "退出", "帮助"]


async def _gone_out(game: GuandanApp) -> tuple[list[str], bool]:
    async with game.run_test(size=SIZE) as pilot:
        await pilot.pause()
        bar = _bar(game)
        hand = game.query_one(HandView)
        await pilot.press("g", "space", "h")  # nothing in the hand to group, select or hint at
        await pilot.pause()
        return bar, not hand.grouped and not game.hints


def test_the_key_bar_lists_only_quit_and_help_once_the_players_hand_is_played_out(tmp_path: Path) -> None:
    """The player has gone out and the bots play the deal on: the bar listed g (group), which had no card to group."""
    s = Session.new(preset("competition"), 3, "greedy", "greedy", MatchConfig(max_deals=1), save_path=tmp_path / "o.json")
    me = make_agent("greedy", "human")
    me.reset(0, s.rules)
    while s.observation().deal.hand:
        s.act(me.choose(s.observation(), s.legal())) if s.human_to_move else s.bot_step()
    assert not s.ended and not s.human_to_move  # the others play on
    bar, idle = async_support.run(_gone_out(GuandanApp(s, "en", bot_delay=600)))
    assert bar == ["quit", "help"] and idle
    zh, _ = async_support.run(_gone_out(GuandanApp(s, "zh", bot_delay=600)))
    assert zh == ["退出", "帮助"]

"""What the client asks and answers: a tribute of two copies of one card names that card (not "one of ♥A");
a record that cannot be resumed is named with its file."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

from typer.testing import CliRunner

import async_support
from guandan.cli import _mount, app
from guandan.core.match import MatchConfig
from guandan.core.rules import preset
from guandan.tui.app import GuandanApp
from guandan.tui.plain import run_plain
from guandan.tui.session import Session

from .conftest import hands_with

_mount()
ACE = 48  # two copies of this ace are the highest cards of a hand that pays tribute


def _tribute_session(path: Path | None = None) -> Session:
    config = MatchConfig(max_deals=1, start_prev_finish=(1, 2, 3, 0), first_hands=hands_with([ACE, ACE]))
    return Session.new(preset("competition"), 5, "greedy", "greedy", config, save_path=path)


def test_one_tribute_card_is_named_alone() -> None:
    s = _tribute_session()
    given = {a.cards[0] for a in s.legal()}
    assert given == {ACE}  # both copies are the same choice
    game = GuandanApp(s, "en", bot_delay=0)

    async def prompt() -> str:
        async with game.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return game.message

    name = game.present.card(ACE)
    assert async_support.run(prompt()) == f"Tribute: your card is {name}; select it (←/→, space) and press Enter"
    out = StringIO()
    run_plain(_tribute_session(), "zh", StringIO("quit\n"), out)
    # the other commands are named too; the review is not among them, as no deal has finished yet
    lines = out.getvalue().splitlines()
    assert "> 进贡：给出 SA（或输入 hint 提示、groups 理牌、table 牌桌、counter 记牌器、quit 退出）" in lines


def test_a_broken_record_is_named_with_its_file_on_resume(tmp_path: Path) -> None:
    broken = tmp_path / "cut.json"
    broken.write_text('{"format": "guandan-record", "version": 2, "rules": {', encoding="utf-8")
    result = CliRunner().invoke(app, ["play", "--plain", "--lang", "en", "--resume", str(broken)])
    assert result.exit_code == 2
    assert f"{broken}: the record is not valid JSON (line 1" in result.output
    nulled = tmp_path / "null.json"
    nulled.write_text('{"format": "guandan-record", "version": 2, "rules": {}, "seed": 1, "config": null, "deals": []}',
                      encoding="utf-8")
    result = CliRunner().invoke(app, ["play", "--plain", "--lang", "zh", "--resume", str(nulled)])
    assert result.exit_code == 2 and f"{nulled}：'config' 须为 JSON 对象，而不是 null" in result.output


def test_the_selected_line_keeps_its_instruction_when_readings_are_listed() -> None:
    from guandan.core.cards import parse_cards
    from guandan.tui.handview import HandView

    from .conftest import session_with_hand

    # 444 55 or 555 44 with the wildcard: the line is longer than the 80-column screen
    cards = parse_cards("C4 D4 S5 S5 H2")
    s = session_with_hand(cards)
    game = GuandanApp(s, "en", bot_delay=0)

    async def select() -> tuple[str, int, int]:
        async with game.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            game.query_one(HandView).select_cards(cards)
            await pilot.pause()
            box = game.query_one("#selected")
            needed = box.get_content_height(box.content_region.size, game.size, box.content_region.width)
            return game.selected_text, needed, box.content_region.height

    text, needed, shown = async_support.run(select())
    assert "several readings (Enter, then pick a number): " in text and len(text) > 78
    assert needed <= shown  # nothing of it is cut


def test_the_log_shows_its_latest_lines_after_a_resize(tmp_path: Path) -> None:
    from textual.widgets import RichLog

    game = GuandanApp(_tribute_session(tmp_path / "r.json"), "en", bot_delay=0)

    async def resize() -> tuple[float, float]:
        async with game.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            game.write_log([f"line {i}" for i in range(60)])
            await pilot.pause()
            for size in ((100, 30), (80, 24)):
                await pilot.resize_terminal(*size)
                await pilot.pause()
            await pilot.pause()
            log = game.query_one("#log", RichLog)
            return log.scroll_y, log.max_scroll_y

    offset, end = async_support.run(resize())
    assert end > 0 and offset == end


def test_the_hand_never_parts_a_card_or_a_group_name_across_lines() -> None:
    from rich.cells import cell_len

    from guandan.core.cards import BIG_JOKER, SMALL_JOKER, parse_cards
    from guandan.i18n import translator
    from guandan.tui.hand import GROUP_NAMES
    from guandan.tui.handview import HandView
    from guandan.tui.text import presenter

    hand = [*parse_cards("S3 S3 C3 C3 H6 C6 S9 C9 ST HT CT HQ HJ H7 SA SA HA DA"), BIG_JOKER, SMALL_JOKER]
    for lang in ("en", "zh"):
        tr, p = translator("tui", lang), presenter(lang)
        view = HandView(tr, p)
        view.grouped = True
        view.set_hand(hand, 0)
        names = [tr.gettext(GROUP_NAMES[g]) + tr.gettext(": ") for g, _a, _b in view.groups]
        for width in range(24, 80):  # a unit is at most "jokers: Small Joker" wide
            lines = [line.plain for line in view._lines(width)]
            assert all(cell_len(line) <= width for line in lines), (width, lines)
            joined = "\n".join(lines)
            for name in set(names):  # a group's name stays whole, with its first card after it
                assert joined.count(name) == names.count(name), (width, lines)
                assert not re.search(re.escape(name) + r"\s", joined), (width, lines)
            for joker in (p.card(BIG_JOKER), p.card(SMALL_JOKER)):
                assert joker in joined, (width, lines)


def test_a_grouped_hand_parts_no_group_with_a_lone_card() -> None:
    """A group that does not fit after the others starts a line of its own, and one longer than a line is parted
    with two cards at least on each line: a lone ♦J under the other triples read as a group of its own."""
    import random

    from guandan.core.cards import parse_cards, physical_deck
    from guandan.i18n import translator
    from guandan.tui.hand import GROUP_NAMES
    from guandan.tui.handview import HandView
    from guandan.tui.text import presenter

    card = re.compile(r"[♠♥♣♦]\w+|Small Joker|Big Joker|小王|大王")
    deck = [pc.code for pc in physical_deck()]
    rng = random.Random(3)
    hands = [parse_cards("S3 S4 H4 S6 C6 C6 D6 S7 C7 S8 S9 H9 CT HJ DJ DJ SK SK CK HA HA CA DA S2 H2 H2 D2")]
    hands += [rng.sample(deck, 27) for _ in range(60)]
    for lang in ("en", "zh"):
        tr, p = translator("tui", lang), presenter(lang)
        names = tuple(tr.gettext(name) + tr.gettext(": ") for name in GROUP_NAMES.values())
        view = HandView(tr, p)
        view.grouped = True
        for hand in hands:
            view.set_hand(hand, 0)
            for width in (76, 60, 44):
                lines = [line.plain for line in view._lines(width)]
                pieces: list[list[int]] = []  # per group, its cards on each line it is on
                for line in lines:
                    for segment in line.split("│"):
                        if segment.strip().startswith(names):
                            pieces.append([])
                        pieces[-1].append(len(card.findall(segment)))
                parted = [counts for counts in pieces if len(counts) > 1]
                assert all(min(counts) >= 2 for counts in parted), (lang, width, lines)
                if width == 76:
                    assert len(lines) <= 6, lines  # the hand's box holds six
        view.set_hand(hands[0], 0)
        assert [len(card.findall(line.plain)) for line in view._lines(76)] == [8, 14, 5]


def test_space_on_a_dimmed_card_says_why_nothing_was_selected() -> None:
    """During tribute only the eligible cards can be picked; space on another one rang the bell and said
    nothing, so the player could not tell a refusal from a missed key."""
    from guandan.tui.handview import HandView

    answers = {}
    for lang in ("en", "zh"):
        game = GuandanApp(_tribute_session(), lang, bot_delay=0)

        async def pick(game: GuandanApp = game) -> tuple[str, str, list[int]]:
            async with game.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                hand = game.query_one(HandView)
                assert hand.eligible is not None and hand.cards[0] not in hand.eligible
                await pilot.press("home", "space")
                await pilot.pause()
                return game.message, game.present.card(hand.cards[0], hand.level), hand.selection()

        answers[lang] = async_support.run(pick())
    message, card, selected = answers["en"]
    assert message == f"{card} cannot be given now: pick one of the cards not dimmed" and selected == []
    message, card, selected = answers["zh"]
    assert message == f"{card} 现在不能给出：请选一张亮着的牌" and selected == []


def test_a_card_named_in_chinese_takes_no_space_before_the_words_after_it() -> None:
    """"大王 现在不能给出" set a space between two Chinese words; a card written in symbols keeps it (♠3 现在不能给出)."""
    from guandan.core.cards import BIG_JOKER, SMALL_JOKER
    from guandan.tui.handview import HandView

    config = MatchConfig(max_deals=1, start_prev_finish=(1, 2, 3, 0), first_hands=hands_with([BIG_JOKER, SMALL_JOKER]))
    game = GuandanApp(Session.new(preset("competition"), 5, "greedy", "greedy", config), "zh", bot_delay=0)

    async def pick() -> tuple[str, str]:
        async with game.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            hand = game.query_one(HandView)
            assert hand.eligible == {BIG_JOKER} and hand.cards[-2] == SMALL_JOKER
            await pilot.press("end", "left", "space")  # the small joker: the big one is the tribute
            await pilot.pause()
            joker = game.message
            await pilot.press("home", "space")
            await pilot.pause()
            return joker, game.message

    joker, low = async_support.run(pick())
    assert joker == "小王现在不能给出：请选一张亮着的牌"
    assert re.fullmatch(r"[♠♥♣♦]\w+ 现在不能给出：请选一张亮着的牌", low), low


def test_a_complaint_gives_way_to_the_prompt_once_the_selection_changes() -> None:
    """Enter with nothing selected says to select; once a card is selected that no longer holds, and the
    message line said "Select some cards first" above "Selected: ♠A — Enter gives it"."""
    from guandan.tui.handview import HandView

    game = GuandanApp(_tribute_session(), "en", bot_delay=0)

    async def select_after_enter() -> tuple[str, str, str]:
        async with game.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            prompt = game.message
            await pilot.press("enter")
            complaint = game.message
            await pilot.press("end", "space")  # the ace, the card to pay
            await pilot.pause()
            assert game.query_one(HandView).selection() == [ACE]
            return prompt, complaint, game.message

    prompt, complaint, after = async_support.run(select_after_enter())
    assert complaint == "Select some cards first"
    assert after == prompt and prompt.startswith("Tribute: your card is ")


def test_the_chinese_turn_prompt_does_not_run_beat_into_the_seat_name() -> None:
    """"管上{who}的" read "管上上家的对子 4" (and "管上下家的…" as if 上下家): the seat now comes first."""
    s = Session.new(preset("competition"), 1, "greedy", "greedy", MatchConfig(max_deals=1))
    s.run_bots()
    d = s.observation().deal
    assert d.top is not None and d.top[0] == 3  # 上家's play is to beat
    game = GuandanApp(s, "zh", bot_delay=0)

    async def prompt() -> str:
        async with game.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return game.message

    combo = game.present.combo(d.top[2])
    assert async_support.run(prompt()) == f"轮到你：上家出了{combo}，管上或不要（p）；h 提示"

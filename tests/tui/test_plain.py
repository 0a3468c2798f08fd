"""Plain line mode, driven by scripted stdin: a whole match, bad input, readings, save and resume."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from guandan.agents.hints import hints
from guandan.core.cards import parse_cards
from guandan.core.events import DealStart
from guandan.core.match import MatchConfig
from guandan.core.rules import preset
from guandan.tui.plain import run_plain
from guandan.tui.session import Session
from guandan.tui.text import presenter, typed_token

from .conftest import session_with_hand

HINT_AND_TAKE = "hint\n1\n"
LEAKS = re.compile(r"None|True|False|\[\d|\{|\}|\bT\b|jkr|_")


def play(session: Session, script: str, lang: str = "en") -> list[str]:
    out = io.StringIO()
    assert run_plain(session, lang, io.StringIO(script), out) == 0
    return out.getvalue().splitlines()


def test_a_whole_match_from_scripted_stdin(tmp_path: Path) -> None:
    save = tmp_path / "match.json"
    s = Session.new(preset("competition"), 3, "greedy", "greedy", save_path=save)
    lines = play(s, HINT_AND_TAKE * 3000)
    assert s.ended and s.match.winner in (0, 1)
    assert lines[0] == f"This match is saved to {save}"
    assert lines[1].startswith("Deal 1 · playing level 2 · Your team 2 : Opponents 2 · no declarer yet")
    assert any(line.startswith("Match over after ") for line in lines)
    assert sum(line.startswith("Finishing order: ") for line in lines) == len(s.match.deals) > 1
    assert sum(line.startswith("Result 1-") for line in lines) == len(s.match.deals)
    assert not any(line.startswith("! ") for line in lines)
    hints = [line for line in lines if line.startswith("  1. ")]
    assert hints and all(" — " in line for line in hints)
    told = [line for line in lines if not line.startswith(("This match", "Saved to"))]  # these name a file
    assert not [line for line in told if LEAKS.search(line)]
    prompts = [line for line in lines if line.startswith("> ")]
    assert len(prompts) > 50
    # every human decision was taken through the protocol: seat 0's actions = prompts answered
    human_actions = sum(1 for d in s.match.deals for a in d.state.actions if a.seat == 0)
    assert human_actions > 20
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert saved["result"]["ended"] and saved["result"]["winner"] == s.match.winner
    assert lines[-1] == f"Saved to {save}"


def test_chinese_text_comes_from_the_catalogues() -> None:
    s = Session.new(preset("competition"), 3, "greedy", "greedy", MatchConfig(max_deals=1))
    lines = play(s, "hint\nquit\n", "zh")
    assert lines[0] == "第1副 · 打2 · 我方 2 : 对方 2 · 暂无庄家"  # the presenter's words (game)
    assert any(line.startswith("> 轮到你") or line.startswith("> 你先出") for line in lines)  # the client's (tui)
    assert any(line.startswith("上家") or line.startswith("下家") or line.startswith("对家") for line in lines)
    assert any(line.startswith("  1. ") and " — " in line for line in lines)  # a hint with its reason
    assert lines[-1] == "已停止（未保存）"


def test_bad_input_shows_a_message_and_changes_nothing(pen: object) -> None:
    s = session_with_hand(parse_cards("S3 H3 S4 S5 S6 S7 H2"))
    before = s.record()
    hand = s.observation().deal.hand
    absent = next(c for c in range(52) if c not in hand)
    script = "\n".join(["X9", typed_token(absent), "S3 S5", "pass", "7", "S3 S3", "H2 S3 S5", "", "quit"]) + "\n"
    lines = play(s, script)
    errors = [line for line in lines if line.startswith("! ")]
    from guandan.tui.text import presenter

    assert errors == [
        "! Unknown card “X9” (write cards like H3 S10 LJ BJ)",
        f"! Not in your hand: {presenter('en').card(absent)}",
        "! ♠3 ♠5 is not a hand type",
        "! You lead: you cannot pass",
        "! Nothing to choose from: ask for a hint first (cards are typed with their suit: H3, S10)",  # 7 is no card
        "! You hold only 1 ♠3",  # one ♠3 is held: "not in your hand" would be untrue
        "! ♠3 ♠5 ♥2* is not a hand type",  # as the hand writes them: level order, the wildcard starred
    ]
    assert s.record() == before
    assert sum(line.startswith("> ") for line in lines) == 9  # the prompt again after each line


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_numbered_hints_begin_as_the_webs_do(lang: str) -> None:
    """The hints' list begins each line as the web's hint line begins (Pair 9: …, Pass — …), the rest of the
    presenter's words kept as they are; Chinese, which has no capitals, reads exactly the presenter's words."""
    s = Session.new(preset("competition"), 3, "greedy", "greedy", MatchConfig(max_deals=1))
    lines = play(s, "hint\nquit\n", lang)
    obs = s.observation()  # the decision the hints were asked at: quitting took no action
    p = presenter(lang)
    found = hints(obs, 3, s.rules)
    listed = [line for line in lines if re.match(r"  \d\. ", line)]
    words = [f"{p.action(h.action, obs.deal.level)} — {p.hint_reason(h.reason)}" for h in found]
    assert listed == [f"  {i}. {w[:1].upper() + w[1:] if lang == 'en' else w}" for i, w in enumerate(words, 1)]
    assert all(line[5].isupper() for line in listed) if lang == "en" else listed[0][5] == words[0][0]


def test_several_readings_are_numbered_and_chosen() -> None:
    s = session_with_hand(parse_cards("H2 S4 H5 S6 S7"))
    lines = play(s, "H2 S4 H5 S6 S7\n9\n2\nquit\n")
    i = lines.index("These cards can be read several ways; choose one:")
    readings = [line for line in lines[i + 1:i + 4] if line.startswith("  ")]
    assert readings == ["  1. Straight 4–8", "  2. Straight 3–7"]  # each begun as a sentence, as the web's
    assert "! Choose a number from 1 to 2" in lines
    first = s.match.deal.actions[0] if s.match.deal else None
    assert first is not None and first.seat == 0 and first.combo is not None and first.combo.key == "7"
    assert "You: straight 3–7: ♥2* ♠4 ♥5 ♠6 ♠7" in lines  # the wildcard, starred, stands for the 3


def test_groups_and_counter_commands() -> None:
    s = session_with_hand(parse_cards("S3 H3 C3 D3 S4 H4 C4 H2 LJ BJ S9 ST"))
    lines = play(s, "groups\ncounter\ntable\nquit\n")
    assert "  Deal 1 · playing level 2 · Your team 2 : Opponents 2 · no declarer yet" in lines
    assert "  You · 27 cards · to play · leads" in lines
    assert "  jokers: LJ BJ" in lines
    assert "  bombs: S3 H3 C3 D3" in lines
    assert "  triples: S4 H4 C4" in lines
    assert "  wildcards: H2*" in lines
    hand = next(line for line in lines if line.startswith("hand (27): "))
    assert " S10 " in hand and " ST " not in hand
    counter = next(line for line in lines if line.startswith("unseen cards: "))
    # filler gave seat 0 all eight As and seven Ks; one LJ, one BJ, the wild H2 and four 3s… are its own
    assert counter.startswith("unseen cards: Big Joker×1  Small Joker×1  2×7  A×0  K×1  Q×8")
    assert counter.endswith("  4×5  3×4")


def test_resume_continues_exactly(tmp_path: Path) -> None:
    """Quit mid-match, resume from the file, finish: the same match as playing straight through —
    even with a random bot, whose draws must not depend on the interruption."""
    script = HINT_AND_TAKE * 3000
    config = MatchConfig(max_deals=3)
    straight = Session.new(preset("competition"), 11, "greedy", "random", config, save_path=tmp_path / "a.json")
    play(straight, script)
    assert straight.ended

    save = tmp_path / "b.json"
    first = Session.new(preset("competition"), 11, "greedy", "random", config, save_path=save)
    play(first, HINT_AND_TAKE * 40 + "quit\n")  # forty human decisions, then quit mid-deal
    assert not first.ended and len(first.match.deals) >= 1
    resumed = Session.resume(save)
    assert resumed.observation() == first.observation()
    lines = play(resumed, script)
    assert resumed.ended
    assert lines[0] == f"This match is saved to {save}"  # saving goes on into the same file
    assert lines[1].startswith("Deal ")  # the table is redrawn from the current deal's start
    a = json.loads(straight.record())
    b = json.loads(resumed.record())
    assert a["deals"] == b["deals"] and a["result"] == b["result"]


def test_resume_from_the_save_made_between_deals(tmp_path: Path) -> None:
    from guandan.agents.hints import best_actions

    save = tmp_path / "between.json"
    s = Session.new(preset("competition"), 21, "greedy", "greedy", MatchConfig(max_deals=2), save_path=save)
    while not s.match.deals:  # one action at a time, so that nothing happens after the deal is settled
        if s.human_to_move:
            s.act(best_actions(s.observation(), 1, legal=s.legal())[0].action)
        else:
            s.bot_step()
    text = save.read_text(encoding="utf-8")  # written by the session when the deal was settled
    resumed = Session.resume(save)
    assert resumed.observation() == s.observation()
    assert resumed.opening[0] == DealStart(1, s.match.level, s.match.declarer, s.match.levels)
    assert json.loads(text)["deals"][0]["finish"] == s.match.deals[0].finish


def test_the_chinese_command_words_of_the_prompt_are_commands() -> None:
    """The Chinese prompt pairs each command with its Chinese word (pass 不要、hint 提示…): a player who types
    the Chinese word is understood, where it was refused as an unknown card (“! 无法识别的牌“提示””)."""
    from guandan.i18n import translator

    s = session_with_hand(parse_cards("S3 H3 C3 D3 S4 H4 C4 H2 LJ BJ S9 ST"))
    before = s.record()
    lines = play(s, "提示\n理牌\n牌桌\n记牌器\n复盘\n不要\n退出\n", "zh")
    zh = translator("tui", "zh").gettext
    assert [line for line in lines if line.startswith("! ")] == [
        "! " + zh("No deal has finished yet: the review comes after the first deal"),
        "! " + zh("You lead: you cannot pass"),  # 不要 is a pass, refused only because you lead
    ]
    assert any(line.startswith("  1. ") for line in lines)  # 提示
    assert "  炸弹：S3 H3 C3 D3" in lines  # 理牌
    assert "  你 · 27张 · 该出牌 · 先出" in lines  # 牌桌
    assert any(line.startswith("未出现的牌：") for line in lines)  # 记牌器
    assert lines[-1] == "已停止（未保存）"  # 退出
    assert s.record() == before


def test_the_prompt_names_the_review_once_a_deal_has_finished() -> None:
    for lang, offer, word in (("en", "Type review (r) at your next turn", "review"),
                              ("zh", "轮到你时输入 review（r）", "review 复盘")):
        s = Session.new(preset("competition"), 11, "greedy", "greedy", MatchConfig(max_deals=2))
        lines = play(s, HINT_AND_TAKE * 3000, lang)
        first_end = next(i for i, line in enumerate(lines) if line.startswith(offer))
        prompts = [(i, line) for i, line in enumerate(lines)
                   if line.startswith(("> Your lead", "> Your turn", "> 你先出", "> 轮到你"))]
        before = [line for i, line in prompts if i < first_end]
        after = [line for i, line in prompts if i > first_end]
        assert before and after
        assert not any(word in line for line in before)  # nothing to review yet
        assert all(word in line for line in after), lang

"""What the environments' render() shows a person: a seat's view in words from the game catalogue, in Chinese and
English (the env's ``lang``), never a Python value, never another seat's cards, in lines of 80 columns."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest

import guandan.env as genv
from guandan.cliutil import width
from guandan.core.cards import Card
from guandan.core.errors import GuandanError
from guandan.core.events import CardsReturned, FirstLead, Played, TributeGiven
from guandan.core.match import MatchState
from guandan.present import Presenter

EN_SEED_1 = """\
Deal 1 · playing level 2 · Your team 2 : Opponents 2
Partner: full house 8: ♣8 ♣8 ♦8 ♣3 ♦3
Previous opponent: pass
Your hand, 27 cards: ♥5 ♣6 ♥7 ♣7 ♦7 ♥8 ♥9 ♣9 ♥10 ♥10 ♣10 ♠J ♦J ♦J ♠Q ♣Q ♦Q ♠K ♠K
  ♥K ♠A ♣A ♠2 ♠2 ♥2* ♣2 Small Joker
Your turn to play"""

ZH_SEED_1 = """\
第1副 · 打2 · 我方 2 : 对方 2
对家：三带二 8：♣8 ♣8 ♦8 ♣3 ♦3
上家：不要
你的手牌，27张：♥5 ♣6 ♥7 ♣7 ♦7 ♥8 ♥9 ♣9 ♥10 ♥10 ♣10 ♠J ♦J ♦J ♠Q ♣Q ♦Q ♠K ♠K ♥K
  ♠A ♣A ♠2 ♠2 ♥2* ♣2 小王
轮到你出牌"""

# what a Python value looks like when it reaches a person: a tuple or list of numbers, None, a dict, a repr
REPR = re.compile(r"[\[(]\s*-?\d+(\s*,\s*-?\d+)*\s*,?\s*[\])]|\[\]|\(\)|\bNone\b|\bTrue\b|\bFalse\b|[{}<>'\"]"
                  r"|\w+\(\w+=|[♠♥♣♦]T\b|\bT[♠♥♣♦]")
HAND_HEAD = {"en": "Your hand", "zh": "你的手牌"}
# a card, alone between spaces or after a colon (not the "♥8" of a combination's name "straight flush ♥8–Q")
CARD = re.compile(r"(?<![^\s:：])(?:[♠♥♣♦](?:10|[2-9JQKA])|Small Joker|Big Joker|小王|大王)(?=[\s*]|$)")


def _card_codes(lang: str) -> dict[str, Card]:
    p = Presenter(lang)
    return {p.card(c): c for c in range(54)}


def _cards(text: str, lang: str) -> Counter[Card]:
    codes = _card_codes(lang)
    return Counter(codes[t] for t in CARD.findall(text))


def _hand_part(text: str, lang: str) -> tuple[str, str]:
    """(the hand's lines, the other lines)."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith(HAND_HEAD[lang])), None)
    assert start is not None, text
    end = start + 1
    while end < len(lines) and lines[end].startswith("  "):
        end += 1
    return "\n".join(lines[start:end]), "\n".join(lines[:start] + lines[end:])


def _check(text: object, m: MatchState, seat: int, lang: str) -> None:
    """Words only, 80 columns, the seat's own hand exactly, and no card but its own or a public one."""
    assert isinstance(text, str)
    assert not REPR.search(text), text
    assert all(width(line) <= 80 for line in text.split("\n")), text
    if m.ended:
        return
    view, deal = m.observation(seat).deal, m.deal
    assert deal is not None
    hand_text, rest = _hand_part(text, lang)
    assert _cards(hand_text, lang) == Counter(view.hand), text
    public: Counter[Card] = Counter(view.hand)
    for e in view.events:
        match e:
            case Played(cards=cards):
                public.update(cards)
            case TributeGiven(transfers=ts) | CardsReturned(transfers=ts):
                public.update(t.card for t in ts)
            case FirstLead(flipped=c) if c is not None:
                public[c] += 1
    public.update(c for a in deal.actions if a.seat == seat for c in a.cards)  # its own tribute, given back
    shown = _cards(rest, lang)
    assert not shown - public, (text, shown - public)
    # another seat's cards that this seat cannot know of
    for other in range(4):
        if other != seat:
            hidden = Counter(deal.hands[other]) - public
            assert not (shown & hidden) - Counter(view.hand), text


@pytest.mark.parametrize(("lang", "expected"), [("en", EN_SEED_1), ("zh", ZH_SEED_1)])
def test_gym_render_is_the_learners_view_in_words(lang: str, expected: str) -> None:
    e = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, render_mode="ansi", lang=lang)
    e.reset(seed=1)
    text = e.render()
    assert text == expected
    _check(text, e.unwrapped.table.m, 0, lang)  # type: ignore[attr-defined]  # GuandanGymEnv's


def test_the_documented_render_is_what_the_env_renders() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
    assert f"```text\n{EN_SEED_1}\n```" in doc


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_gym_render_through_a_match_shows_words_and_only_the_learners_cards(lang: str) -> None:
    e = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, seat=1, render_mode="ansi", lang=lang, max_deals=3)
    env: Any = e.unwrapped
    obs, _ = e.reset(seed=5)
    texts: list[object] = []
    done = False
    while not done:
        texts.append(e.render())
        _check(texts[-1], env.table.m, 1, lang)
        obs, _, terminated, truncated, _ = e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        done = terminated or truncated
    texts.append(e.render())
    _check(texts[-1], env.table.m, 1, lang)
    said = "\n".join(t for t in texts if isinstance(t, str))
    if lang == "en":
        assert "You chose: " in said and "Your turn to play" in said and "Your turn to pay tribute" in said
        assert texts[-1] == "Match over after 3 deals (deal limit): no winner · Your team 3 : Opponents 8"
    else:
        assert "你选择了：" in said and "轮到你出牌" in said and "轮到你进贡" in said
        assert texts[-1] == "打满3副，比赛结束：无胜方 · 我方 3 : 对方 8"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_aec_render_is_the_seat_to_acts_view(lang: str) -> None:
    a = genv.raw_env(render_mode="ansi", lang=lang, max_deals=2)
    a.reset(seed=3)
    rng = np.random.default_rng(3)
    turns = {"en": "Your turn", "zh": "轮到你"}[lang]
    for agent in a.agent_iter():
        obs, _, term, trunc, _ = a.last()
        text = a.render()
        seat = a.possible_agents.index(agent)
        _check(text, a.table.m, seat, lang)
        if term or trunc:
            a.step(None)
            continue
        assert isinstance(text, str) and turns in text
        a.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    final = a.render()
    assert isinstance(final, str) and final.startswith({"en": "Match over after 2 deals", "zh": "打满2副"}[lang])


def test_lang_is_checked_and_defaults_to_the_environments_language(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(GuandanError, match='lang is one of "zh", "en", not "fr"'):
        genv.GuandanGymEnv(opponents=["random"] * 3, lang="fr")
    with pytest.raises(GuandanError, match="lang is one of"):
        genv.raw_env(lang="klingon")
    assert genv.GuandanGymEnv(opponents=["random"] * 3, lang="zh_CN.UTF-8").lang == "zh"
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANGUAGE", "zh_CN.UTF-8")
    e = genv.raw_env(render_mode="ansi")
    e.reset(seed=1)
    assert "轮到你" in (e.render() or "")
    monkeypatch.setenv("LANGUAGE", "C")
    g = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, render_mode="ansi")
    g.reset(seed=1)
    assert g.render() == EN_SEED_1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_render_measures_ambiguous_symbols_as_the_terminal_draws_them(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """♠ ♥ ♣ and · take one column, as terminals draw them by default; GUANDAN_AMBIGUOUS_WIDE=1 says the terminal
    draws them two, and the lines are broken to fit 80 columns so counted."""
    e = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, render_mode="ansi", lang=lang)
    e.reset(seed=1)
    narrow = e.render()
    assert isinstance(narrow, str)
    assert max(wide_width(line) for line in narrow.split("\n")) > 80
    monkeypatch.setenv("GUANDAN_AMBIGUOUS_WIDE", "1")
    wide = e.render()
    assert isinstance(wide, str)
    assert all(wide_width(line) <= 80 for line in wide.split("\n")), wide
    assert wide.replace("\n  ", " ") == narrow.replace("\n  ", " ")  # the same words, only broken elsewhere


def wide_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WFA" else 1 for c in text)


@pytest.mark.parametrize(("lang", "said"), [("en", "Your team {ours} : Opponents {theirs}"),
                                            ("zh", "我方 {ours} : 对方 {theirs}")])
def test_the_levels_read_as_the_terminal_clients_own_team_first(lang: str, said: str) -> None:
    """A seat of Team 2 reads its own team's level first, named, as the terminal client writes the levels
    (Presenter.team_levels); the spectator, who has no team, reads Team 1's first in the same words."""
    e = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, seat=1, render_mode="ansi", lang=lang, max_deals=3)
    obs, _ = e.reset(seed=5)
    done = False
    while not done:
        obs, _, terminated, truncated, _ = e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        done = terminated or truncated
    env: Any = e.unwrapped
    levels = [Presenter(lang).level(v) for v in env.table.m.levels]
    assert levels[0] != levels[1], levels  # the order shows
    text = e.render()
    assert isinstance(text, str) and text.endswith(" · " + said.format(ours=levels[1], theirs=levels[0])), text
    assert text.endswith(" · " + Presenter(lang, viewer=1).team_levels(levels[1], levels[0]))
    spectator = env.render_text("spectator")
    team = Presenter(lang).team
    assert spectator.replace("\n  ", " ").endswith(f" · {team(0)} {levels[0]} : {team(1)} {levels[1]}"), spectator

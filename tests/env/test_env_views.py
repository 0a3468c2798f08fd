"""The AEC environment renders any seat's view or the spectator's (public) one, not only the seat to act's:
``render_view`` (at construction or later) for ``render()``, ``render_text(view)`` for any view at any time."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import guandan.env as genv
from guandan.core.errors import GuandanError
from guandan.present import Presenter


def _played(e: genv.GuandanAEC, steps: int) -> genv.GuandanAEC:
    for _ in range(steps):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    return e


def test_the_spectator_sees_the_deal_the_round_and_the_mover_and_no_hand() -> None:
    e = genv.raw_env(max_deals=1, render_mode="ansi", lang="en", render_view="spectator")
    e.reset(seed=1)
    _played(e, 9)
    text = e.render()
    assert text is not None
    lines = text.splitlines()
    assert lines[0] == "Deal 1 · playing level 2 · Team 1 (seats 1 and 3) 2 · Team 2 (seats 2 and 4) 2"
    mover = int(e.agent_selection[-1])
    assert lines[-1] == f"Seat {mover + 1} is to move"
    assert all(re.match(r"Seat [1-4]: ", line) for line in lines[1:-1]) and len(lines) > 2, text
    assert "hand" not in text and "You" not in text and "Your" not in text
    for s in range(4):  # the cards it names are the round's plays, no hand
        held = Presenter("en").cards(e.table.m.deal.hands[s])  # type: ignore[union-attr]
        assert held not in text


def test_any_seat_renders_its_own_view_by_agent_or_number() -> None:
    e = genv.raw_env(max_deals=1, render_mode="ansi", lang="en")
    e.reset(seed=1)
    _played(e, 9)
    mover = int(e.agent_selection[-1])
    assert e.render_text() == e.render() == e.render_text(mover) == e.render_text(f"seat_{mover}")
    for s in range(4):
        text = e.render_text(f"seat_{s}")
        assert text == e.render_text(s)
        hand = sorted(e.table.m.deal.hands[s])  # type: ignore[union-attr]
        assert f"Your hand, {len(hand)} cards: " in text
        assert text.endswith("Your turn to play") == (s == mover)
    e.render_view = 2  # and render() follows it
    assert e.render() == e.render_text(2)


def test_the_views_reach_through_pettingzoos_wrappers_and_speak_chinese() -> None:
    e = genv.env(max_deals=1, render_mode="ansi", lang="zh", render_view="spectator")
    e.reset(seed=1)
    for _ in range(9):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    text = e.render()
    assert text is not None and text.startswith("第1副 · 打 2 · 第1队（1、3号位） 2 · 第2队（2、4号位） 2\n")
    assert text.splitlines()[-1] == f"轮到{int(e.agent_selection[-1]) + 1}号位"
    assert "手牌" not in text
    assert "你的手牌，27张：" in e.render_text("seat_0")  # type: ignore[attr-defined]


def test_the_spectator_sees_the_result_at_the_end() -> None:
    e = genv.raw_env(max_deals=1, render_mode="ansi", lang="en", render_view="spectator")
    e.reset(seed=3)
    while not any(e.truncations.values()):
        _played(e, 1)
    levels = [Presenter("en").level(v) for v in e.table.m.levels]
    text = e.render()
    assert text is not None and all(len(line) <= 80 for line in text.splitlines())
    assert " ".join(line.strip() for line in text.splitlines()) == (
        f"Match over after 1 deal (deal limit): no winner · Team 1 (seats 1 and 3) {levels[0]} · "
        f"Team 2 (seats 2 and 4) {levels[1]}")


@pytest.mark.parametrize("view", ["north", 4, True, "seat_4"])
def test_a_view_that_is_none_of_these_is_named(view: object) -> None:
    with pytest.raises(GuandanError, match=r'^a view is an agent seat_0…seat_3, a seat 0…3 or "spectator", not '):
        genv.raw_env(render_view=view, lang="en")  # type: ignore[arg-type]
    e = genv.raw_env(lang="en")
    e.reset(seed=1)
    with pytest.raises(GuandanError, match="a view is"):
        e.render_text(view)  # type: ignore[arg-type]


def test_the_docs_spectator_example_is_what_it_prints() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
    shown = doc.split('render_view="spectator")\naec.reset(seed=1)\nprint(aec.render())\n```\n\n```text\n', 1)[1]
    aec = genv.env(render_mode="ansi", lang="en", render_view="spectator")
    aec.reset(seed=1)
    assert shown.split("\n```", 1)[0] == aec.render()

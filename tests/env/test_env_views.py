"""Both environments render any seat's view or the spectator's (public) one, not only their own seat's (the AEC
environment's seat to act, the Gymnasium learner's): ``render_view`` (at construction or later) for ``render()``,
``render_text(view)`` for any view at any time."""

from __future__ import annotations

import re
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
from guandan.core.events import FirstLead, Played
from guandan.core.match import MatchState
from guandan.env.views import Views
from guandan.present import Presenter

from .test_env_render import _cards, _check


def _public(m: MatchState) -> Counter[Card]:
    """The cards this deal has shown everyone: the flipped card and the plays."""
    assert m.deal is not None
    out: Counter[Card] = Counter()
    for e in m.public_view().deal.events:
        if isinstance(e, Played):
            out.update(e.cards)
        elif isinstance(e, FirstLead) and e.flipped is not None:
            out[e.flipped] += 1
    return out


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
    assert lines[0] == "Deal 1 · playing level 2 · Team 1 (seats 1 and 3) 2 : Team 2 (seats 2 and 4) 2"
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
    assert text is not None and text.startswith("第1副 · 打2 · 第1队（座位1、3） 2 : 第2队（座位2、4） 2\n")
    assert text.splitlines()[-1] == f"轮到座位{int(e.agent_selection[-1]) + 1}"
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
        f"Match over after 1 deal (deal limit): no winner · Team 1 (seats 1 and 3) {levels[0]} : "
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


def _learner_steps(g: gymnasium.Env[Any, Any], obs: dict[str, np.ndarray], steps: int) -> dict[str, np.ndarray]:
    for _ in range(steps):
        obs, *_ = g.step(int(np.flatnonzero(obs["action_mask"])[0]))
    return obs


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_gym_env_renders_any_seats_view_and_only_that_seats_hand(lang: str) -> None:
    g = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, seat=1, max_deals=1, render_mode="ansi", lang=lang)
    obs, _ = g.reset(seed=2)
    _learner_steps(g, obs, 3)
    env: Any = g.unwrapped
    m = env.table.m
    assert g.render() == env.render_text() == env.render_text(1) == env.render_text("seat_1")  # the learner's
    for s in range(4):
        text = env.render_text(s)
        assert text == env.render_text(f"seat_{s}")
        _check(text, m, s, lang)  # its own hand exactly, no card of another hand
        assert text.endswith({"en": "Your turn to play", "zh": "轮到你出牌"}[lang]) == (s == 1)
    g.unwrapped.render_view = 3  # type: ignore[attr-defined]  # render() follows it, through the wrappers
    assert g.render() == env.render_text(3) != env.render_text(1)
    g.set_wrapper_attr("render_view", None)
    assert g.render() == env.render_text(1)


@pytest.mark.parametrize(("lang", "head", "mover", "hand"), [
    ("en", "Deal 1 · playing level 2 · Team 1 (seats 1 and 3) 2 : Team 2 (seats 2 and 4) 2", "Seat 2 is to move",
     "hand"),
    ("zh", "第1副 · 打2 · 第1队（座位1、3） 2 : 第2队（座位2、4） 2", "轮到座位2", "手牌"),
])
def test_the_gym_envs_spectator_sees_no_hand(lang: str, head: str, mover: str, hand: str) -> None:
    g = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, seat=1, max_deals=1, render_mode="ansi", lang=lang,
                       render_view="spectator")
    obs, _ = g.reset(seed=2)
    env: Any = g.unwrapped
    for steps in (0, 2, 5):
        obs = _learner_steps(g, obs, steps)
        text = g.render()
        assert text is not None and text == env.render_text("spectator")
        lines = text.splitlines()
        assert lines[0] == head and lines[-1] == mover  # the learner, seat 2 counted from 1, is to move
        assert hand not in text and not _cards(text, lang) - _public(env.table.m), text
        assert all(width(line) <= 80 for line in lines)


def test_the_gym_envs_render_text_ignores_the_render_mode_and_a_wrong_view_is_said() -> None:
    quiet = genv.GuandanGymEnv(opponents=["random"] * 3, lang="en", render_view=2)
    quiet.reset(seed=1)
    assert quiet.render() is None
    lines = quiet.render_text().splitlines()  # seat 2's view: it has played, the learner (its partner) is to move
    assert lines[:3] == ["Deal 1 · playing level 2 · Your team 2 : Opponents 2", "You: full house 8: ♣8 ♣8 ♦8 ♣3 ♦3",
                         "Next opponent: pass"]
    assert lines[3].startswith("Your hand, 22 cards: ") and lines[-1] == "Partner is to move"
    with pytest.raises(GuandanError, match=r'^视角须是智能体 seat_0…seat_3、座位 0…3 或 "spectator"，而不是 "north"$'):
        genv.GuandanGymEnv(opponents=["random"] * 3, lang="zh", render_view="north")  # type: ignore[arg-type]
    with pytest.raises(GuandanError, match=r'^a view is an agent seat_0…seat_3, a seat 0…3 or "spectator", not 4$'):
        quiet.render_text(4)


def test_both_environments_render_through_one_shared_views_class() -> None:
    assert issubclass(genv.GuandanGymEnv, Views) and issubclass(genv.GuandanAEC, Views)
    for cls in (genv.GuandanGymEnv, genv.GuandanAEC):
        assert cls.render is Views.render and cls.render_text is Views.render_text  # type: ignore[comparison-overlap]


def test_the_docs_gym_spectator_example_is_what_it_prints() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
    shown = doc.split('print(g.get_wrapper_attr("render_text")("spectator"))\n```\n\n```text\n', 1)[1]
    g = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, render_mode="ansi", lang="en")
    g.reset(seed=1)
    assert shown.split("\n```", 1)[0] == g.get_wrapper_attr("render_text")("spectator")


def test_the_views_reach_through_users_gymnasium_wrappers_and_a_wrong_view_is_refused_as_it_is_set() -> None:
    """Gymnasium 1.x wrappers forward no attribute: the documented way is get_wrapper_attr / set_wrapper_attr. A
    wrong view so set was taken, and raised at the next step(), inside RenderCollection's rendering."""
    from gymnasium.wrappers import RecordEpisodeStatistics, RenderCollection

    g = RecordEpisodeStatistics(RenderCollection(gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, max_deals=1,
                                                                render_mode="ansi", lang="en")))
    obs, _ = g.reset(seed=1)
    inner: Any = g.unwrapped
    assert g.get_wrapper_attr("render_text")("spectator") == inner.render_text("spectator")
    with pytest.raises(GuandanError, match=r'^a view is an agent seat_0…seat_3, a seat 0…3 or "spectator", not "north"$'):
        g.set_wrapper_attr("render_view", "north")
    assert g.get_wrapper_attr("render_view") is None  # unchanged
    g.set_wrapper_attr("render_view", "spectator")
    _learner_steps(g, obs, 1)  # plays on: RenderCollection renders the view set
    frames = g.render()
    assert isinstance(frames, list) and frames[-1] == inner.render_text("spectator") and "hand" not in frames[-1]


def test_a_vectors_environments_render_any_view_through_call_and_set_attr() -> None:
    envs = gymnasium.make_vec(genv.ENV_ID, num_envs=2, vectorization_mode="sync", opponents=["random"] * 3,
                              max_deals=1, action_features=False, render_mode="ansi", lang="en")
    envs.reset(seed=1)
    spectators = envs.call("render_text", "spectator")
    assert len(spectators) == 2 and all(t.startswith("Deal 1 · playing level 2 · Team 1 (seats 1 and 3)")
                                        for t in spectators)
    envs.set_attr("render_view", "spectator")
    assert envs.call("render") == spectators
    with pytest.raises(GuandanError, match="a view is"):
        envs.set_attr("render_view", 4)
    envs.close()


def test_pettingzoos_wrapped_env_takes_a_view_set_on_it() -> None:
    """PettingZoo's wrappers forward reads only: the view set on env() was the wrapper's own, never rendered."""
    e = genv.env(render_mode="ansi", lang="en")
    e.reset(seed=1)
    own = e.render()
    e.render_view = "spectator"
    assert e.render_view == e.unwrapped.render_view == "spectator"
    assert e.render() == e.render_text("spectator") != own  # type: ignore[attr-defined]
    with pytest.raises(GuandanError, match="a view is"):
        e.render_view = "north"
    assert str(e) == "guandan_v0"

"""The environments' own errors in the reader's language (the env's ``lang``; a PolicyAgent's, the environment's
LANGUAGE), from the ``cli`` catalogue, their types kept and their English what programs and tests have always read."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest

import guandan.env as genv
from guandan.agents import Agent
from guandan.agents.runner import run_match
from guandan.cliutil import said as cli_said
from guandan.core.errors import GuandanError
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import preset
from guandan.core.vocab import MoveMode
from guandan.env.actions import describe_index
from guandan.present import said


def _first_legal(obs: dict[str, np.ndarray]) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


def test_a_chinese_gym_env_says_a_bad_action_and_a_finished_episode_in_chinese() -> None:
    g = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, max_deals=1, lang="zh")
    obs, _ = g.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(genv.IllegalActionError) as caught:
        g.step(bad)
    assert str(caught.value) == f"动作序号 {bad} 此时不合法（请用 action_mask 屏蔽不合法的序号）"
    assert said(caught.value, "zh") == str(caught.value)  # catalogued: said again as it was
    assert caught.value.msgid == "action index {index} is not legal here (mask it with action_mask)"
    done = False
    while not done:
        obs, _r, term, trunc, _i = g.step(_first_legal(obs))
        done = term or trunc
    with pytest.raises(gymnasium.error.ResetNeeded, match=r"^本回合已结束（比赛已结束）：请先调用 reset\(\) 再调用 step\(\)$"):
        g.step(0)


def test_the_english_texts_are_the_msgids_filled() -> None:
    g = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, max_deals=1, lang="en")
    obs, _ = g.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(genv.IllegalActionError) as caught:
        g.step(bad)
    assert str(caught.value) == f"action index {bad} is not legal here (mask it with action_mask)"
    assert said(caught.value, "zh") == f"动作序号 {bad} 此时不合法（请用 action_mask 屏蔽不合法的序号）"


@pytest.mark.parametrize(("kwargs", "zh"), [
    ({"seat": 5}, "seat 须为整数 0…3（环境中学习者座位的编号，从0数起），而不是 5"),
    ({"on_illegal": "skip"}, 'on_illegal 只能是 raise 或 first_legal，而不是 "skip"'),
    ({"opponents": ["random"] * 2}, "opponents 须列出其他三个座位的机器人，而不是2个"),
    ({"opponents": ["random", 7, "random"]},
     "opponents 的每一项须是机器人规格、Agent 实例或生成 Agent 的函数；opponents[1]（座位 2，与 seat 参数一样按 0…3 编号）是 7"),
    ({"preset": "nope"}, '未知的预设 "nope"（competition, huaian-traditional, huaian-2009, huopin）'),
], ids=["seat", "on_illegal", "three", "opponent", "preset"])
def test_a_chinese_gym_envs_wrong_arguments_are_said_in_chinese(kwargs: dict[str, object], zh: str) -> None:
    with pytest.raises(GuandanError) as caught:
        genv.GuandanGymEnv(**{"opponents": ["random"] * 3, "lang": "zh", **kwargs})  # type: ignore[arg-type]
    assert str(caught.value) == zh


def test_a_closed_gym_env_asks_for_reset_instead_of_a_key_error() -> None:
    """A step after close() failed with KeyError: 1 (the agents it had made were gone)."""
    g = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, max_deals=1)
    obs, _ = g.reset(seed=1)
    g.close()
    with pytest.raises(gymnasium.error.ResetNeeded, match=r"^the environment is closed: call reset\(\) to play again$"):
        g.step(_first_legal(obs))
    obs, _ = g.reset(seed=1)  # and a reset plays again
    g.step(_first_legal(obs))
    z = genv.GuandanGymEnv(opponents=["random"] * 3, max_deals=1, lang="zh")
    obs, _ = z.reset(seed=1)
    z.close()
    with pytest.raises(gymnasium.error.ResetNeeded, match=r"^环境已关闭：请调用 reset\(\) 重新开始$"):
        z.step(_first_legal(obs))


def test_a_chinese_aec_env_says_its_errors_in_chinese() -> None:
    e = genv.raw_env(max_deals=1, lang="zh")
    with pytest.raises(GuandanError, match=r"^请先调用 reset\(\) 重置环境$"):
        e.observe("seat_0")
    e.reset(seed=1)
    mover = e.agent_selection
    with pytest.raises(ValueError, match=rf"^轮到 {mover}，必须给出一个动作$"):
        e.step(None)
    bad = int(np.flatnonzero(e.observe(mover)["action_mask"] == 0)[0])
    with pytest.raises(genv.IllegalActionError, match=rf"^动作序号 {bad} 此时不合法"):
        e.step(bad)
    with pytest.warns(UserWarning, match=r'render_mode "human" 不是本环境支持的模式（"ansi"）：render\(\) 将返回 None'):
        genv.raw_env(render_mode="human", lang="zh")


def test_a_policy_agents_errors_follow_the_environments_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "zh")
    with pytest.raises(GuandanError, match=r"^PolicyAgent 需要一个可调用的 policy\(observation, action_mask\)，"
                                           r'而不是 "heuristic"$'):
        genv.PolicyAgent("heuristic")  # type: ignore[arg-type]
    m = new_match(preset("competition"), 1, MatchConfig(max_deals=1, move_mode=MoveMode.CANONICAL))
    seat = m.to_move
    assert seat is not None
    agents: list[Agent] = [genv.PolicyAgent(lambda o, mask: _first_legal({"action_mask": mask})) for _ in range(4)]
    agents[seat] = genv.PolicyAgent(lambda o, mask: genv.ACTION_SIZE)
    with pytest.raises(genv.IllegalActionError, match=rf"^座位{seat + 1}的策略返回了动作序号 {genv.ACTION_SIZE}（超出 "
                                                      r"0…5697），动作掩码此时不允许它；合法的序号为 [\d, ]+，另有\d+个$"):
        run_match(m, agents)
    with pytest.raises(ValueError, match=r"^动作序号必须在 0…5697 之间，而不是 -1$"):
        describe_index(-1)


def _raised(make: Callable[[], object]) -> BaseException:
    try:
        make()
    except Exception as e:
        return e
    raise AssertionError("nothing was raised")


def test_an_error_raised_in_chinese_is_said_in_english_too() -> None:
    """said(e, "en") gave back the Chinese text: an English reader took an error's own text for more than its msgid."""
    g = genv.GuandanGymEnv(opponents=["random"] * 3, max_deals=1, lang="zh")
    obs, _ = g.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    illegal = _raised(lambda: g.step(bad))
    assert str(illegal).startswith("动作序号")
    english = f"action index {bad} is not legal here (mask it with action_mask)"
    assert said(illegal, "en") == cli_said(illegal, "en") == english
    assert said(copy.deepcopy(illegal), "en") == english  # a copy (a pickle) keeps what says it
    assert said(illegal, "zh") == str(illegal)
    g.close()
    closed = _raised(lambda: g.step(0))
    assert isinstance(closed, gymnasium.error.ResetNeeded)
    assert said(closed, "en") == "the environment is closed: call reset() to play again"
    seat = _raised(lambda: genv.GuandanGymEnv(opponents=["random"] * 3, seat=7, lang="zh"))
    assert said(seat, "en") == "seat must be an integer 0…3 (the env's index of the learner's seat, counted from 0), not 7"
    aec = genv.raw_env(max_deals=1, lang="zh")
    aec.reset(seed=1)
    must = _raised(lambda: aec.step(None))
    assert isinstance(must, ValueError) and said(must, "en") == f"{aec.agent_selection} is to move and must act"


def test_a_policy_agents_chinese_error_is_said_in_english_clauses_and_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its list of legal indices was a clause already said in Chinese: said in English, it stayed Chinese."""
    monkeypatch.setenv("LANGUAGE", "zh")
    m = new_match(preset("competition"), 1, MatchConfig(max_deals=1, move_mode=MoveMode.CANONICAL))
    seat = m.to_move
    assert seat is not None
    agents: list[Agent] = [genv.PolicyAgent(lambda o, mask: _first_legal({"action_mask": mask})) for _ in range(4)]
    agents[seat] = genv.PolicyAgent(lambda o, mask: genv.ACTION_SIZE)
    e = _raised(lambda: run_match(m, agents))
    assert str(e).endswith("个")
    assert re.fullmatch(rf"the policy at seat {seat + 1} returned action index {genv.ACTION_SIZE} \(outside 0…5697\), which "
                        r"the action mask does not allow here; the legal indices are [\d, ]+ and \d+ more",
                        said(e, "en")), said(e, "en")
    assert said(e, "zh") == str(e)



def _fresh(kind: str) -> tuple[Any, int]:
    """A new environment of ``kind`` reset to seed 1, and the first legal index of the seat to move."""
    if kind == "gym":
        g = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, max_deals=1, lang="en")
        return g, _first_legal(g.reset(seed=1)[0])
    e = genv.raw_env(max_deals=1, lang="en") if kind == "raw_env" else genv.env(max_deals=1, lang="en")
    e.reset(seed=1)
    return e, _first_legal(e.observe(e.agent_selection))


@pytest.mark.parametrize("kind", ["gym", "raw_env", "env"])
def test_an_action_is_any_integer_numpys_included_never_a_bool_nor_a_float(kind: str) -> None:
    """A float index was played as its int(), a string as the number it spells and a bool as index 0 or 1."""
    for make in (int, np.int64, np.int32, np.uint16, np.array):  # np.array: a 0-d integer array
        e, index = _fresh(kind)
        e.step(make(index))  # played
        assert e.unwrapped.table.m.deal.actions
    # PettingZoo's wrapper (env()) refuses what its Discrete space does not hold first: a bool it holds
    wrongs = [True] if kind == "env" else [True, np.bool_(False), 2.0, np.float32(3), "5"]
    for wrong in wrongs:
        e, _ = _fresh(kind)
        said_as = {True: "true", False: "false"}.get(wrong, f'"{wrong}"' if isinstance(wrong, str) else f"{float(wrong)}")
        with pytest.raises(GuandanError, match=rf"^an action is an action index, an integer 0…5697, not {said_as}$"):
            e.step(wrong)


@pytest.mark.parametrize(("seat", "shown"), [(7, "7"), (-1, "-1"), (2.0, "2.0"), (True, "true"), (np.bool_(False), "false"),
                                             ("1", '"1"')])
def test_the_gym_envs_seat_is_refused_naming_the_argument_and_its_count(seat: object, shown: str) -> None:
    """The env counts seats from 0 while a PolicyAgent's errors count them from 1: the refusal says whose count it is.
    2.0 was taken, and failed at the first step (list indices must be integers), and True sat the learner at seat 1."""
    e = _raised(lambda: genv.GuandanGymEnv(opponents=["random"] * 3, seat=seat, lang="zh"))  # type: ignore[arg-type]
    assert said(e, "en") == f"seat must be an integer 0…3 (the env's index of the learner's seat, counted from 0), not {shown}"
    assert str(e) == f"seat 须为整数 0…3（环境中学习者座位的编号，从0数起），而不是 {shown}"


def test_a_numpy_integer_is_a_seat() -> None:
    g = genv.GuandanGymEnv(opponents=["random"] * 3, seat=np.int64(2), max_deals=1)  # type: ignore[arg-type]
    assert g.seat == 2 and type(g.seat) is int and g.others == [0, 1, 3]


def test_an_opponent_is_named_by_its_place_in_opponents_and_its_seat_in_the_envs_count() -> None:
    """They said "seat 2's is 7", the env's seat counted from 0, beside a PolicyAgent's "the policy at seat 3" for the
    same seat: each names the entry of opponents and the count its seat is in."""
    agent = genv.PolicyAgent(lambda o, mask: _first_legal({"action_mask": mask}))
    bad = _raised(lambda: genv.GuandanGymEnv(opponents=["random", 7, "random"], seat=1, lang="zh"))  # type: ignore[list-item]
    assert said(bad, "en") == ("opponents are agent specs, Agent instances or functions that make an Agent; opponents[1] "
                               "(seat 2, counting seats 0…3 as seat= does) is 7")
    assert str(bad) == ("opponents 的每一项须是机器人规格、Agent 实例或生成 Agent 的函数；"
                        "opponents[1]（座位 2，与 seat 参数一样按 0…3 编号）是 7")
    made = _raised(lambda: genv.GuandanGymEnv(opponents=[lambda: "random", "random", "random"], seat=0))  # type: ignore[list-item, return-value]
    assert str(made).startswith('opponents[0] (seat 1, counting seats 0…3 as seat= does) is a function that returned '
                                '"random", not an agent: ')
    shared = _raised(lambda: genv.GuandanGymEnv(opponents=[agent, "random", agent], seat=2, lang="en"))
    assert str(shared) == ("opponents[0] and opponents[2] (seats 0 and 3, counting seats 0…3 as seat= does) are the same "
                           "Agent instance: an agent holds one seat's state, so give each seat its own")

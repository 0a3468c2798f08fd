"""guandan.env.PolicyAgent (a policy over the environments' arrays as an Agent), Agent instances among the
Gymnasium env's opponents, and the env's rewards from before the learner's first decision."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest
from gymnasium.utils.env_checker import check_env

import guandan.env as genv
from guandan.agents import Agent, agent_names, register
from guandan.agents import base as agents_base
from guandan.agents.runner import run_match
from guandan.arena.runner import Setup, play_pairs
from guandan.core.deal import Action
from guandan.core.errors import GuandanError
from guandan.core.match import MatchConfig, MatchObservation, new_match
from guandan.core.rules import preset
from guandan.core.vocab import MoveMode

Int8s = npt.NDArray[np.int8]


def _middle(observation: Int8s, mask: Int8s) -> int:
    """A deterministic policy that depends on the observation: a legal index picked by the vector's sum."""
    legal = np.flatnonzero(mask)
    return int(legal[int(observation.astype(np.int64).sum()) % len(legal)])


class _Recorder:
    def __init__(self, features: bool = False) -> None:
        self.seen: list[tuple[bytes, bytes, bytes]] = []
        self.features = features

    def __call__(self, observation: Int8s, mask: Int8s, feats: Int8s | None = None) -> int:
        assert observation.shape == (genv.OBS_SIZE,) and mask.shape == (genv.ACTION_SIZE,)
        assert (feats is not None) == self.features
        self.seen.append((observation.tobytes(), mask.tobytes(), b"" if feats is None else feats.tobytes()))
        return np.int64(_middle(observation, mask))  # type: ignore[return-value]  # numpy integers are indices too


def test_policy_agents_see_exactly_what_the_aec_env_shows_each_seat() -> None:
    """Four PolicyAgents in run_match and the same policy stepping the AEC env from the same seed: the same
    observation vectors, masks and feature rows at every decision, and the same match."""
    recorder = _Recorder(features=True)
    m = new_match(preset("competition"), 5, MatchConfig(max_deals=1, move_mode=MoveMode.CANONICAL))
    run_match(m, [genv.PolicyAgent(recorder, s, action_features=True) for s in range(4)])

    e = genv.raw_env("competition", max_deals=1)
    e.reset(seed=5)
    expected: list[tuple[bytes, bytes, bytes]] = []
    for _agent in e.agent_iter():
        obs, _r, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        expected.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(),
                         genv.legal_action_features(info).tobytes()))
        e.step(_middle(obs["observation"], obs["action_mask"]))
    assert len(expected) > 50
    assert recorder.seen == expected
    assert m.deals[0].finish == e.table.m.deals[0].finish


def test_a_policy_at_both_seats_of_a_team_in_the_gym_env() -> None:
    """The learner at seat 0 and a PolicyAgent of the same policy at seat 2 (its partner): the agent is
    the one passed, reset to its seat every episode, never closed by the env, and the episode replays."""
    def episode(seed: int) -> tuple[float, int]:
        obs, _ = g.reset(seed=seed)
        done, total, steps = False, 0.0, 0
        while not done:
            obs, reward, over, cut, _ = g.step(_middle(obs["observation"], obs["action_mask"]))
            done = over or cut
            total, steps = total + float(reward), steps + 1
        return total, steps

    partner = genv.PolicyAgent(_middle)
    g = gymnasium.make(genv.ENV_ID, opponents=["heuristic", partner, "heuristic"], seat=0, max_deals=1)
    first = episode(3)
    assert g.unwrapped.agents[2] is partner and partner.seat == 2  # type: ignore[attr-defined]
    assert episode(3) == first and first[1] > 0 and first[0] != 0.0
    closed: list[bool] = []
    partner.close = lambda: closed.append(True)
    g.close()
    assert closed == []


def test_opponents_refuse_a_shared_instance_and_what_is_not_an_agent() -> None:
    agent = genv.PolicyAgent(_middle)
    with pytest.raises(GuandanError, match=r"opponents\[0\] and opponents\[2\] \(seats 1 and 3, counting seats 0…3 as "
                                           r"seat= does\) are the same Agent instance"):
        gymnasium.make(genv.ENV_ID, opponents=[agent, "random", agent])
    with pytest.raises(GuandanError, match=r"agent specs, Agent instances or functions that make an Agent; opponents\[1\] "
                                           r"\(seat 2, counting seats 0…3 as seat= does\) is 7"):
        gymnasium.make(genv.ENV_ID, opponents=["random", 7, "random"])
    with pytest.raises(GuandanError, match=r"needs a callable policy"):
        genv.PolicyAgent("heuristic")  # type: ignore[arg-type]


def test_an_illegal_index_names_the_index_and_the_seat() -> None:
    """The seat is counted from 1, as every error names a seat to a person (the engine's say "seat 1" of seat 0)."""
    m = new_match(preset("competition"), 1, MatchConfig(max_deals=1, move_mode=MoveMode.CANONICAL))
    bad = genv.PolicyAgent(lambda o, mask: int(np.flatnonzero(mask == 0)[0]))
    agents: list[Agent] = [genv.PolicyAgent(_middle, s) for s in range(4)]
    agents[m.to_move] = bad  # type: ignore[index]
    seat = m.to_move
    with pytest.raises(genv.IllegalActionError, match=rf"the policy at seat {seat + 1} returned action index \d+ \(.*\), "
                                                      r"which the action mask does not allow here; the legal indices are \d+"):
        run_match(m, agents)
    for out_of_range in (-1, genv.ACTION_SIZE):
        agents[seat] = genv.PolicyAgent(lambda o, mask, i=out_of_range: i)  # type: ignore[index]
        m = new_match(preset("competition"), 1, MatchConfig(max_deals=1, move_mode=MoveMode.CANONICAL))
        with pytest.raises(genv.IllegalActionError, match=rf"seat {seat + 1} returned action index {out_of_range} "
                                                          r"\(outside 0…5697\)"):
            run_match(m, agents)
    agents[seat] = genv.PolicyAgent(lambda o, mask: 2.0)  # type: ignore[index]
    m = new_match(preset("competition"), 1, MatchConfig(max_deals=1, move_mode=MoveMode.CANONICAL))
    with pytest.raises(GuandanError, match=rf"the policy at seat {seat + 1} returned 2.0, not an action index"):
        run_match(m, agents)
    # a bool is no index (True was played as index 1), nor is NumPy's (its name was shown, not its value)
    for wrong, said_as in ((True, "true"), (np.bool_(False), "false"), (np.float64(2.5), "2.5")):
        agents[seat] = genv.PolicyAgent(lambda o, mask, w=wrong: w)  # type: ignore[index]
        m = new_match(preset("competition"), 1, MatchConfig(max_deals=1, move_mode=MoveMode.CANONICAL))
        with pytest.raises(GuandanError, match=rf"^the policy at seat {seat + 1} returned {said_as}, not an action index"):
            run_match(m, agents)


def test_an_illegal_index_from_a_gym_opponent_raises_from_the_env() -> None:
    g = gymnasium.make(genv.ENV_ID, opponents=[genv.PolicyAgent(lambda o, mask: 1), "random", "random"], seat=0,
                       max_deals=1)
    with pytest.raises(genv.IllegalActionError, match=r"the policy at seat 2 returned action index 1 \(card 0 \(S2\)\)"):
        obs, _ = g.reset(seed=2)  # seat 1 acts inside reset() when it leads, else inside the learner's first step
        g.step(_middle(obs["observation"], obs["action_mask"]))


def test_a_registered_policy_tier_plays_arena_duplicate_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    _private_registry(monkeypatch)
    register("test-policy-middle")(lambda seed, time_budget: genv.PolicyAgent(_middle, seed, time_budget))
    setup = Setup(a="test-policy-middle", b="random", preset="competition", seed=1, move_mode=MoveMode.CANONICAL)
    pairs = play_pairs(setup, range(2))
    assert [p.index for p in pairs] == [0, 1] and all(len(p.halves) == 2 for p in pairs)
    assert sum(p.illegal_a for p in pairs) == 0
    assert [p.a_score for p in play_pairs(setup, range(2))] == [p.a_score for p in pairs]


def _private_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiers registered by this test are forgotten after it (other tests list the registry)."""
    agent_names()  # the built-in tiers loaded first, into the registry that is copied
    monkeypatch.setattr(agents_base, "_REGISTRY", dict(agents_base._REGISTRY))
    monkeypatch.setattr(agents_base, "_OPTIONS", dict(agents_base._OPTIONS))


class _Longest(Agent):
    """Plays its longest legal action (a pass only when nothing else is legal)."""

    name = "longest"

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        return max(legal, key=lambda a: len(a.cards))


def _cards(*picks: tuple[int, str]) -> list[int]:
    """Card codes (rank index * 4 + suit, suits S H C D), a suit letter per copy."""
    return [rank * 4 + "SHCD".index(s) for rank, suits in picks for s in suits]


def _two_one_play_outs() -> tuple[tuple[int, ...], ...]:
    """火拼 hands where seat 1 leads nine triples 3…J and goes out, seat 2 holds no bomb and must pass, and
    seat 3 beats with nine triples 4…Q: the deal is over before seat 0 has made a decision."""
    odd, even = range(3, 10, 2), range(2, 10, 2)  # ranks 4…J: the leftover suits alternate, so no straight flush
    seat1 = _cards((1, "SSH"), *((r, "SCD") for r in even), *((r, "SHC") for r in odd))
    seat3 = _cards(*((r, "HCD") for r in even), *((r, "SHD") for r in odd), (10, "SHC"))
    seat2 = _cards((1, "CDD"), *((r, "SH") for r in even), *((r, "CD") for r in odd), (10, "SHD"), (11, "SHC"),
                   (12, "SH"))
    seat0 = [*_cards((0, "SSHHCCDD"), (1, "HC"), (10, "CD"), (11, "SHCDD"), (12, "SCCDDH")), 52, 52, 53, 53]
    hands = (seat0, seat1, seat2, seat3)
    assert [len(h) for h in hands] == [27] * 4
    assert sorted(c for h in hands for c in h) == sorted(list(range(54)) * 2)
    return tuple(tuple(sorted(h)) for h in hands)


def _rigged(max_deals: int) -> gymnasium.Env[Any, Any]:
    g = gymnasium.make(genv.ENV_ID, preset="huopin", opponents=[_Longest(), _Longest(), _Longest()], seat=0,
                       max_deals=max_deals)
    g.unwrapped.table.config = MatchConfig(  # type: ignore[attr-defined]
        max_deals=max_deals, move_mode=MoveMode.CANONICAL, first_hands=_two_one_play_outs(), first_leader=1)
    return g


def test_a_deal_settled_before_the_learners_first_decision_is_rewarded_at_its_first_step() -> None:
    g = _rigged(max_deals=2)
    obs, info = g.reset(seed=0)
    m = g.unwrapped.table.m  # type: ignore[attr-defined]
    assert m.deal_index == 1 and m.deals[0].finish[:2] == [1, 3]  # the first deal is over: seat 0 never moved
    first_deal = float(m.deals[0].points[0])
    assert first_deal < 0 and "reward_before_first_move" not in info
    rewards, done = [], False
    while not done:
        obs, reward, over, cut, info = g.step(_middle(obs["observation"], obs["action_mask"]))
        done = over or cut
        rewards.append(float(reward))
    second_deal = float(m.deals[1].points[0])
    assert rewards[0] == first_deal + (second_deal if len(rewards) == 1 else 0.0)
    assert sum(rewards) == first_deal + second_deal  # nothing lost


def test_an_episode_over_before_the_learners_first_decision_says_its_reward_in_resets_info() -> None:
    g = _rigged(max_deals=1)
    obs, info = g.reset(seed=0)
    m = g.unwrapped.table.m  # type: ignore[attr-defined]
    assert m.ended and not obs["action_mask"].any()
    assert info["reward_before_first_move"] == float(m.deals[0].points[0]) < 0
    with pytest.raises(gymnasium.error.ResetNeeded):
        g.step(0)


def test_gym_check_env_with_rendering_gives_no_render_fps_warning() -> None:
    e = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, max_deals=1, on_illegal="first_legal", render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(e.unwrapped)
    assert not [w for w in caught if "fps" in str(w.message)]
    assert genv.GuandanGymEnv.metadata["render_fps"] == 4

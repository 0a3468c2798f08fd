"""How the research environments end an episode (a match won is terminated, one cut at max_deals is
truncated), what they declare for rendering, and Agent instances across several environments (a vector)."""

from __future__ import annotations

import gc
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import render_test

import guandan.env as genv
from guandan.agents import Agent
from guandan.core.deal import Action
from guandan.core.errors import GuandanError
from guandan.core.match import MatchConfig, MatchObservation
from guandan.core.vocab import MoveMode


class _First(Agent):
    """Plays the first legal action, and remembers the seats it was reset to."""

    name = "first"

    def __init__(self, seed: int | str = 0, time_budget: float | None = None) -> None:
        super().__init__(seed, time_budget)
        self.seats: list[int] = []

    def reset(self, seat: int, rules: Any) -> None:
        super().reset(seat, rules)
        self.seats.append(seat)

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        return legal[0]


def _at_a(max_deals: int | None) -> MatchConfig:
    """Both teams at A, team 0 declaring: a deal can end the match, so both endings come within a few seeds."""
    return MatchConfig(max_deals=max_deals, move_mode=MoveMode.CANONICAL, start_levels=(12, 12), start_declarer=0)


def test_aec_a_match_won_is_terminated_and_one_cut_at_max_deals_is_truncated() -> None:
    endings = set()
    for seed in range(6):
        e = genv.env("competition", max_deals=1)
        e.unwrapped.table.config = _at_a(1)
        e.reset(seed=seed)
        flags = {}
        for agent in e.agent_iter(max_iter=2000):
            obs, _reward, term, trunc, _info = e.last()
            if term or trunc:
                flags[agent] = (term, trunc)
                e.step(None)
                continue
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert not e.agents  # every agent left through the ending it was told
        won = e.unwrapped.table.m.winner is not None
        # won on its one allowed deal: still the game's own end, so terminated; never both
        assert flags == dict.fromkeys(e.possible_agents, (won, not won))
        endings.add(won)
    assert endings == {True, False}


def test_gym_a_match_won_is_terminated_and_one_cut_at_max_deals_is_truncated() -> None:
    endings = set()
    for seed in range(10):  # seeds 8 and 9 are cut, the others won
        g = gymnasium.make(genv.ENV_ID, opponents=[_First(), _First(), _First()], seat=1, max_deals=1)
        g.unwrapped.table.config = _at_a(1)  # type: ignore[attr-defined]
        obs, _ = g.reset(seed=seed)
        terminated = truncated = False
        while not (terminated or truncated):
            obs, _r, terminated, truncated, _i = g.step(int(np.flatnonzero(obs["action_mask"])[0]))
        won = g.unwrapped.table.m.winner is not None  # type: ignore[attr-defined]
        assert (terminated, truncated) == (won, not won)
        endings.add(won)
        g.close()
    assert endings == {True, False}


def test_a_plain_cut_at_max_deals_is_truncated() -> None:
    """From level 2 no deal can end the match: max_deals=1 always cuts it."""
    g = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, max_deals=1)
    obs, _ = g.reset(seed=3)
    terminated = truncated = False
    while not (terminated or truncated):
        obs, _r, terminated, truncated, _i = g.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert truncated and not terminated
    with pytest.raises(gymnasium.error.ResetNeeded):  # truncated is as over as terminated
        g.step(0)


@pytest.mark.filterwarnings("ignore:.*render_mode \"human\"")  # render_test makes one with "human" first
def test_both_environments_declare_render_fps_and_render_as_declared() -> None:
    assert genv.GuandanAEC.metadata["render_fps"] == genv.GuandanGymEnv.metadata["render_fps"] == 4
    for metadata in (genv.GuandanAEC.metadata, genv.GuandanGymEnv.metadata):
        assert metadata["render_modes"] == ["ansi"]
    render_test(lambda render_mode=None: genv.raw_env(max_deals=1, render_mode=render_mode))
    render_test(lambda render_mode=None: genv.env(max_deals=1, render_mode=render_mode))
    g = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, max_deals=1, render_mode="ansi")
    g.reset(seed=0)
    assert isinstance(g.render(), str)
    quiet = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, max_deals=1)
    quiet.reset(seed=0)
    assert quiet.render() is None


@pytest.mark.parametrize("make", [lambda: genv.raw_env(render_mode="human"),
                                  lambda: genv.GuandanGymEnv(opponents=["random"] * 3, render_mode="human")])
def test_an_undeclared_render_mode_is_warned_of_and_renders_nothing(make: Any) -> None:
    # "human" promises to draw and return nothing: text returned under it would break that promise
    with pytest.warns(UserWarning, match='render_mode "human" is not one of this environment\'s \\("ansi"\\)'):
        e = make()
    e.reset(seed=0)
    assert e.render() is None


def test_one_agent_instance_in_a_vector_of_environments_is_refused() -> None:
    shared = _First()
    envs = gymnasium.make_vec(genv.ENV_ID, num_envs=2, vectorization_mode="sync",
                              opponents=[shared, "random", "random"], max_deals=1)
    with pytest.raises(GuandanError, match=r"^the Agent instance of opponents\[0\] \(seat 1, counting seats 0…3 as seat= "
                                           r"does\) already plays in another open environment"):
        envs.reset(seed=0)
    envs.close()


def test_a_factory_gives_each_environment_of_a_vector_its_own_agent() -> None:
    made: list[_First] = []

    def factory() -> _First:
        made.append(_First())
        return made[-1]

    envs = gymnasium.make_vec(genv.ENV_ID, num_envs=2, vectorization_mode="sync",
                              opponents=[factory, "random", factory], seat=0, max_deals=1,
                              action_features=False)  # its infos differ in shape from env to env
    obs, _ = envs.reset(seed=0)
    assert len(made) == 4 and len({id(a) for a in made}) == 4  # two seats in each of two environments
    for _ in range(20):
        actions = np.array([np.flatnonzero(mask)[0] for mask in obs["action_mask"]])
        obs, *_ = envs.step(actions)
    # each agent held one seat of one game: reset to that seat only, never to the other environment's
    assert [a.seats[0] for a in made] == [1, 3, 1, 3] and all(set(a.seats) == {a.seats[0]} for a in made)
    assert all(a.seat in (1, 3) for a in made)
    envs.close()


def test_a_factory_that_makes_no_agent_is_refused_naming_what_it_returned() -> None:
    """It named Python's type of the value (\"made str\"), where a spec returned by mistake is the likely cause."""
    with pytest.raises(GuandanError, match=r"^opponents\[1\] \(seat 2, counting seats 0…3 as seat= does\) is a function "
                                           r"that returned \"heuristic\", not an agent: a function among "
                                           r"opponents returns an Agent instance such as PolicyAgent\(policy\), while a "
                                           r"spec \(greedy, heuristic, random, search, external:module:Class\) is given "
                                           r"in opponents itself$"):
        genv.GuandanGymEnv(opponents=["random", lambda: "heuristic", "random"], lang="en")  # type: ignore[list-item, return-value]


def test_an_instance_passes_to_another_environment_once_the_first_is_closed_or_gone() -> None:
    agent = _First()
    first = gymnasium.make(genv.ENV_ID, opponents=[agent, "random", "random"], max_deals=1)
    first.reset(seed=0)
    first.reset(seed=1)  # its own environment again: no refusal
    second = gymnasium.make(genv.ENV_ID, opponents=["random", agent, "random"], max_deals=1)
    with pytest.raises(GuandanError, match=r"^the Agent instance of opponents\[1\] \(seat 2, counting seats 0…3 as "
                                           r"seat= does\) already plays"):
        second.reset(seed=0)
    first.close()
    second.reset(seed=0)
    assert agent.seat == 2
    third = gymnasium.make(genv.ENV_ID, opponents=[agent, "random", "random"], max_deals=1)
    del second
    gc.collect()  # an environment dropped without close() lets its agents go too
    third.reset(seed=0)
    assert agent.seat == 1

"""The PettingZoo AEC environment: the four seats are the agents ``seat_0`` … ``seat_3``; an episode
is one match (or ``max_deals`` deals). The agent to act is the seat the engine says is to move —
tribute, 头游's choice and return decisions included — so the turn order is not a fixed cycle."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.rules import RuleSet
from ..i18n import N_
from .actions import ACTION_SIZE
from .errors import env_error
from .table import (
    Obs,
    Table,
    check_render_mode,
    deal_rewards,
    observation_space,
    padded_rows,
    render_lang,
    rules_of,
)
from .views import AGENTS, View, Views

_SEATED = tuple(enumerate(AGENTS))
RENDER_MODES = ("ansi",)


class GuandanAEC(Views, AECEnv[str, Obs, int | None]):  # type: ignore[misc]  # PettingZoo ships no type hints
    """掼蛋 for four agents. ``observe(agent)`` is that seat's encoded view and its action mask (all
    zeros when it is not to move); ``infos[agent]`` carries ``legal_action_features`` for the mover."""

    # render_fps as the Gymnasium environment declares it (see there): wrappers and recorders read it from either
    metadata = {"name": "guandan_v0", "render_modes": list(RENDER_MODES), "render_fps": 4,  # noqa: RUF012 - PettingZoo's own convention
                "is_parallelizable": False}

    def __init__(self, preset: str | RuleSet = "competition", max_deals: int | None = None,
                 render_mode: str | None = None, action_features: bool | str = True, lang: str | None = None,
                 max_legal_actions: int | None = None, render_view: View = None) -> None:
        super().__init__()
        self.lang = render_lang(lang)  # first: every error below is said in it
        check_render_mode(render_mode, RENDER_MODES, self.lang)
        self.render_view = render_view  # refused now if wrong, not at the first render()
        rows = padded_rows(action_features, max_legal_actions, self.lang)
        self.rules = rules_of(preset, self.lang)
        self.table = Table(self.rules, max_deals, self.lang, rows)
        self.render_mode = render_mode
        self.action_features = action_features
        self.possible_agents = list(AGENTS)
        obs_space, act_space = observation_space(), spaces.Discrete(ACTION_SIZE)
        self.observation_spaces = dict.fromkeys(AGENTS, obs_space)
        self.action_spaces = dict.fromkeys(AGENTS, act_space)
        self._seed_rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match; the same ``seed`` deals the same cards (and, with the same actions, replays it)."""
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        match_seed = seed if seed is not None else int(self._seed_rng.integers(2**63))
        self.table.new(match_seed)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.agent_selection = self._mover()
        self._refresh_infos()

    def _mover(self) -> str:
        seat = self.table.m.to_move
        return AGENTS[seat if seat is not None else 0]

    def _refresh_infos(self) -> None:
        table = self.table
        m = table.m
        deal_index, levels, live = m.deal_index, m.levels, self.agents
        mover = self.agent_selection if self.action_features else None
        # Table.info's dicts, built here with a plain loop for the seats without features: this runs every
        # step, and a comprehension or a call per seat cost twice as much
        infos: dict[str, dict[str, Any]] = {}
        for s, a in _SEATED:
            if a in live:
                infos[a] = table.info(s, True) if a == mover else {"seat": s, "deal_index": deal_index, "levels": levels}
        self.infos = infos

    def observe(self, agent: str) -> Obs:
        return self.table.observe(AGENTS.index(agent))

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action index (which must be masked legal)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise env_error(ValueError, self.lang, N_("{agent} is to move and must act"), agent=agent)
        self._cumulative_rewards[agent] = 0.0
        events, _ = self.table.apply_index(action)
        rewards = deal_rewards(events, self.rules)
        self.rewards = dict(zip(AGENTS, rewards, strict=True))
        m = self.table.m
        if m.ended:
            # a match won ends by the game's own rules (terminated); one cut at max_deals could have gone on,
            # so it is truncated, as Gymnasium and PettingZoo mean the word: a value-bootstrapping learner
            # must tell the two apart
            if m.winner is not None:
                self.terminations = dict.fromkeys(AGENTS, True)
            else:
                self.truncations = dict.fromkeys(AGENTS, True)
        self.agent_selection = self._mover()
        self._accumulate_rewards()
        self._refresh_infos()

    def _own_seat(self) -> int:
        """The seat to act (seat_0 once the match is over): the view ``render()`` shows by default."""
        return AGENTS.index(self._mover())

    def close(self) -> None:
        """Nothing to release."""


def raw_env(preset: str | RuleSet = "competition", max_deals: int | None = None, render_mode: str | None = None,
            action_features: bool | str = True, lang: str | None = None,
            max_legal_actions: int | None = None, render_view: View = None) -> GuandanAEC:
    """The AEC environment without PettingZoo's wrappers."""
    return GuandanAEC(preset, max_deals, render_mode, action_features, lang, max_legal_actions, render_view)


def env(preset: str | RuleSet = "competition", max_deals: int | None = None, render_mode: str | None = None,
        action_features: bool | str = True, lang: str | None = None,
        max_legal_actions: int | None = None, render_view: View = None) -> AECEnv[str, Obs, int | None]:
    """The AEC environment in PettingZoo's usual wrappers (an illegal index raises, actions are
    range-checked, the call order is enforced); ``render_text`` and ``render_view`` (read and set) reach the
    environment through them."""
    e: AECEnv[str, Obs, int | None] = raw_env(preset, max_deals, render_mode, action_features, lang,
                                              max_legal_actions, render_view)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return _OrderEnforcing(e)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # PettingZoo ships no type hints
    """PettingZoo's outer wrapper, through which ``render_view`` is set as well as read. PettingZoo's wrappers
    forward reads only: ``env().render_view = "spectator"`` set an attribute of the wrapper, and ``render()``
    went on showing the old view."""

    @property
    def render_view(self) -> View:
        return cast("View", self.unwrapped.render_view)

    @render_view.setter
    def render_view(self, view: View) -> None:
        self.unwrapped.render_view = view

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's own outer wrapper shows itself: the environment's name

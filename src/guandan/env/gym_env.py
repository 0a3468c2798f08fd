"""The Gymnasium single-agent environment ``guandan/Guandan-v0``: the learner holds ``seat``; the
other three seats are agents — tiers by spec (via :func:`make_agent`) or :class:`Agent` instances such
as a :class:`~guandan.env.PolicyAgent` — which act inside :meth:`GuandanGymEnv.step` until the
learner is to move again or the match ends."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from ..agents.base import Agent, agent_names, make_agent
from ..core.errors import GuandanError, shown
from ..core.events import DealOver, Event
from ..core.rules import RuleSet
from ..i18n import N_
from .actions import ACTION_SIZE, as_index, shown_action
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
from .views import View, Views


def _listens(agent: Agent) -> bool:
    return getattr(type(agent), "on_events", Agent.on_events) is not Agent.on_events


class GuandanGymEnv(Views, gym.Env[dict[str, Any], Any]):
    """掼蛋 from one seat against three agents. ``info["legal_action_features"]`` (with
    ``info["legal_indices"]``) lists the legal actions' feature vectors for DouZero-style agents;
    ``action_features="padded"`` pads them to ``max_legal_actions`` rows (by default ``ACTION_SIZE``) with
    ``info["legal_features_mask"]``, a fixed shape that ``gymnasium.make_vec`` stacks. ``render()`` shows the
    learner's seat, or the view ``render_view`` names (:class:`~guandan.env.views.Views`)."""

    # render_fps: Gymnasium's checker asks every env that renders for one; text has no frame rate of its own,
    # and 4 is what Gymnasium's own text environments (Blackjack, Taxi, FrozenLake) declare
    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - Gymnasium reads (and lets wrappers replace) this dict

    def __init__(self, preset: str | RuleSet = "competition",
                 opponents: Sequence[str | Agent | Callable[[], Agent]] = ("heuristic",) * 3,
                 seat: int = 0, max_deals: int | None = None, render_mode: str | None = None,
                 action_features: bool | str = True, on_illegal: str = "raise", lang: str | None = None,
                 max_legal_actions: int | None = None, render_view: View = None) -> None:
        self.lang = lang = render_lang(lang)  # first: every error below is said in it
        if on_illegal not in ("raise", "first_legal"):
            raise env_error(GuandanError, lang, N_("on_illegal is raise or first_legal, not {value}"),
                            value=shown(on_illegal))
        check_render_mode(render_mode, self.metadata["render_modes"], lang)
        self.render_view = render_view  # refused now if wrong, not at the first render()
        # the env's own index, from 0 as its seats and the AEC env's agents are; an integer, NumPy's too, but a float
        # or a bool is no seat (seat=2.0 failed at the first step, seat=True sat the learner at seat 1)
        index = as_index(seat)
        if index is None or index not in range(4):
            raise env_error(GuandanError, lang, N_("seat must be an integer 0…3 (the env's index of the learner's "
                                                   "seat, counted from 0), not {value}"), value=shown_action(seat))
        seat = index
        if isinstance(opponents, str):
            raise env_error(GuandanError, lang, N_("opponents is a list of the three other seats' agent specs, in seat "
                                                   "order (such as [\"heuristic\"] * 3), not the one string {value}"),
                            value=shown(opponents))
        if len(opponents) != 3:
            raise env_error(GuandanError, lang, N_("opponents names the three other seats' agents, not {count}"),
                            count=len(opponents))
        others = [s for s in range(4) if s != seat]
        specs: list[str | Agent] = []
        self._made: set[int] = set()  # the seats whose agent a factory made: this env's own, closed by it
        for i, (s, o) in enumerate(zip(others, opponents, strict=True)):
            if isinstance(o, (str, Agent)):
                specs.append(o)
                continue
            if not callable(o):
                raise env_error(GuandanError, lang, N_("opponents are agent specs, Agent instances or functions that "
                                                       "make an Agent; {opponent} is {value}"),
                                opponent=_opponent(i, s), value=shown(o))
            # a factory is called here, once per environment: each of a vector's environments (gymnasium.make_vec
            # calls the constructor once for each with the same arguments) gets an agent of its own
            made = o()
            if not isinstance(made, Agent):
                # what it returned, as the caller wrote it: a spec returned by mistake reads as the spec
                raise env_error(GuandanError, lang, N_(
                    "{opponent} is a function that returned {value}, not an agent: a function among opponents returns "
                    "an Agent instance such as PolicyAgent(policy), while a spec ({known}) is given in opponents itself"),
                    opponent=_opponent(i, s), value=shown(made),
                    known=", ".join([n for n in agent_names() if n != "external"] + ["external:module:Class"]))
            specs.append(made)
            self._made.add(s)
        instances = [(i, s, o) for i, (s, o) in enumerate(zip(others, specs, strict=True)) if isinstance(o, Agent)]
        for n, (i, s, o) in enumerate(instances):
            for j, t, p in instances[n + 1:]:
                if o is p:
                    raise env_error(GuandanError, lang, N_(
                        "opponents[{index}] and opponents[{other_index}] (seats {seat} and {other}, counting seats 0…3 "
                        "as seat= does) are the same Agent instance: an agent holds one seat's state, so give each "
                        "seat its own"), index=i, other_index=j, seat=s, other=t)
        rows = padded_rows(action_features, max_legal_actions, lang)
        self.rules = rules_of(preset, lang)
        self.table = Table(self.rules, max_deals, lang, rows)
        self.seat = seat
        self.opponent_specs: tuple[str | Agent, ...] = tuple(specs)
        self.render_mode = render_mode
        self.action_features = action_features
        self.on_illegal = on_illegal  # first_legal: for checkers and samplers that ignore the mask
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(ACTION_SIZE)
        self.others = others
        self.agents: dict[int, Agent] = {}
        self._pending = 0.0  # the learner's reward from deals settled before its first decision
        self._closed = False  # close() was called since the last reset()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """A new match; the same ``seed`` gives the same deals and (the agents being seeded) the same play."""
        super().reset(seed=seed)
        match_seed = int(self.np_random.integers(2**63))
        self._close_made()
        for s, spec in zip(self.others, self.opponent_specs, strict=True):
            if isinstance(spec, Agent):
                _claim(spec, self, s)
        self._closed = False
        # a spec is made afresh, seeded from the match; an Agent instance is reset each match
        self.agents = {s: spec if isinstance(spec, Agent) else make_agent(spec, seed=f"{match_seed}:{s}")
                       for s, spec in zip(self.others, self.opponent_specs, strict=True)}
        self.table.new(match_seed)
        for s, agent in self.agents.items():
            agent.reset(s, self.rules)
        # a deal the other seats settle before the learner's first decision (possible, if rare: two of them go
        # out at one play each) has a reward reset() cannot return: the first step adds it to its own
        self._pending = self._advance([])
        info = self.table.info(self.seat, self.action_features)
        if self.table.m.ended and self._pending:  # no step will come to carry it
            info["reward_before_first_move"] = self._pending
        return self.table.observe(self.seat), info

    def _close_made(self) -> None:
        """Close the agents this env made from specs (an Agent instance is closed by its owner)."""
        for agent in self.agents.values():
            if not any(agent is o for o in self.opponent_specs):
                agent.close()
        self.agents = {}

    def _advance(self, events: list[Event]) -> float:
        """Let the other seats act until the learner is to move or the match is over; the learner's
        reward from every deal settled meanwhile (``events`` included)."""
        table, m = self.table, self.table.m
        reward = deal_rewards(events, self.rules)[self.seat]
        while not m.ended and m.to_move != self.seat:
            seat = m.to_move
            assert seat is not None
            agent = self.agents[seat]
            action = agent.choose(m.observation(seat), m.legal_actions())
            new = table.apply(action)
            self._notify(new)
            reward += deal_rewards(new, self.rules)[self.seat]
        return reward

    def _notify(self, events: list[Event]) -> None:
        m = self.table.m
        if m.ended and not events:
            return
        for s, agent in self.agents.items():
            if _listens(agent):
                shown: tuple[tuple[int, ...], ...] = ()
                if any(isinstance(e, DealOver) for e in events) and m.deals:
                    shown = m.final_hands(m.deals[-1].index)
                agent.on_events(events, m.observation(s), shown)

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action index, then the others' moves up to its next turn."""
        if self.table.match is not None and self.table.m.ended:
            # Gymnasium's own error for a step before reset(): the mask is all zeros here, so "index 0 is
            # not legal" would say nothing of why
            raise env_error(ResetNeeded, self.lang,
                            N_("the episode is over (the match has ended): call reset() before step()"))
        if self._closed:  # its agents are closed: the others could not move
            raise env_error(ResetNeeded, self.lang, N_("the environment is closed: call reset() to play again"))
        events, illegal = self.table.apply_index(action, self.on_illegal)
        self._notify(events)
        reward, self._pending = self._pending + self._advance(events), 0.0
        info = self.table.info(self.seat, self.action_features)
        if illegal:
            info["illegal_action"] = True
        m = self.table.m
        # a match won is the game's natural end (terminated); a cut at max_deals is a limit's (truncated)
        won = m.ended and m.winner is not None
        return self.table.observe(self.seat), float(reward), won, m.ended and not won, info

    def _own_seat(self) -> int:
        """The learner's seat: the view ``render()`` shows by default."""
        return self.seat

    def close(self) -> None:
        self._closed = True
        self._close_made()
        for s, spec in zip(self.others, self.opponent_specs, strict=True):
            if isinstance(spec, Agent):
                _release(spec, self)
                if s in self._made:
                    spec.close()


# The open environment each Agent instance plays in, by the instance's id (compiled agents take no
# attributes nor weak references), with the instance itself so that its id is not reused meanwhile. Two
# environments stepped in turn (gymnasium.make_vec's "sync" mode, a list of envs) would otherwise reset one
# agent to its seat for each game and feed it both games' events.
_CLAIMS: dict[int, tuple[weakref.ref[GuandanGymEnv], Agent]] = {}


def _opponent(index: int, seat: int) -> GuandanError:
    """An entry of ``opponents`` as an error names it: its place in the list and the seat it plays, in the env's own
    count from 0 (a PolicyAgent's errors, like the engine's, count seats from 1 for a person); a catalogued clause,
    said in the language of the error that holds it."""
    return GuandanError.said(N_("opponents[{index}] (seat {seat}, counting seats 0…3 as seat= does)"),
                             index=index, seat=seat)


def _claim(agent: Agent, env: GuandanGymEnv, seat: int) -> None:
    held = _CLAIMS.get(id(agent))
    other = held[0]() if held is not None else None
    if other is not None and other is not env:
        raise env_error(GuandanError, env.lang, N_(
            "the Agent instance of {opponent} already plays in another open environment, and one agent holds one "
            "game's state: give each environment its own, e.g. through a function that makes one (opponents=[lambda: "
            "PolicyAgent(policy), …], called once per environment, as gymnasium.make_vec makes them), or close the "
            "other environment first"), opponent=_opponent(env.others.index(seat), seat))

    def gone(_: object, key: int = id(agent)) -> None:
        # the env was collected without close(): its claim goes with it
        if key in _CLAIMS and _CLAIMS[key][0]() is None:
            del _CLAIMS[key]

    _CLAIMS[id(agent)] = (weakref.ref(env, gone), agent)


def _release(agent: Agent, env: GuandanGymEnv) -> None:
    held = _CLAIMS.get(id(agent))
    if held is not None and held[0]() is env:
        del _CLAIMS[id(agent)]

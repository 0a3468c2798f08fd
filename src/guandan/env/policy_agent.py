"""A learned policy as an :class:`~guandan.agents.base.Agent`: the bridge from the research environments
to everything that seats agents (the Gymnasium env's ``opponents``, ``run_match``, the arena, a league).

:class:`PolicyAgent` shows its policy exactly what the environments show a seat — the same
:class:`~guandan.env.encoding.Encoder` vector, the same action mask over the same fixed indices and,
if asked, the same legal-action feature rows — so a policy trained in ``guandan/Guandan-v0`` (or the
AEC environment) plays unchanged wherever an agent can sit (docs/research.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..agents.base import Agent
from ..core.deal import Action
from ..core.errors import GuandanError, IllegalActionError, shown
from ..core.match import MatchObservation
from ..core.params import SeatNo
from ..core.rules import RuleSet
from ..i18n import N_, default_lang
from .actions import ACTION_SIZE, action_mask, as_index, describe_index, features_of, index_actions, shown_action
from .encoding import Encoder
from .errors import env_error

Policy = Callable[..., Any]
"""``policy(observation, action_mask) -> action index`` (``action_features=True``: ``policy(observation,
action_mask, legal_action_features)``); the arrays are the environments' own, int8."""


class PolicyAgent(Agent):
    """Plays ``policy``'s choice at every decision (tribute, 头游's choice, return and play alike).

    The policy receives the seat's ``observation`` (``OBS_SIZE`` int8 values, the environments'
    ``obs["observation"]``) and its ``action_mask`` (``ACTION_SIZE`` int8 0/1 values,
    ``obs["action_mask"]``); with ``action_features=True`` also ``legal_action_features`` (one row per
    legal index in ascending order, ``np.flatnonzero(action_mask)``: the environments'
    ``info["legal_action_features"]``). It returns an action index (any integer type: ``int``,
    ``np.int64``, a 0-d array; not a bool nor a float); the agent plays the legal action the environments give that index
    (the first in the engine's order when two share one, as :func:`index_actions` says). An index the
    mask does not allow raises :class:`~guandan.env.IllegalActionError` naming the index and the seat (counted
    from 1, as every error names a seat to a person: the agent at seat index 0 is seat 1).

    One instance holds one seat's encoder: give every seat its own instance (they may share ``policy``).
    The environments play canonical moves; under complete move generation (the arena's default,
    ``Setup(move_mode=MoveMode.COMPLETE)``) an index stands for the first of its several plays."""

    name = "policy"

    def __init__(self, policy: Policy, seed: int | str = 0, time_budget: float | None = None, *,
                 action_features: bool = False) -> None:
        if not callable(policy):
            raise env_error(GuandanError, default_lang(),
                            N_("PolicyAgent needs a callable policy(observation, action_mask), not {value}"),
                            value=shown(policy))
        super().__init__(seed, time_budget)
        self.policy = policy
        self.action_features = action_features
        self.encoder = Encoder()

    def reset(self, seat: int, rules: RuleSet) -> None:
        super().reset(seat, rules)
        self.encoder.reset()

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        indices, _ = index_actions(legal, obs.deal.level)
        observation, mask = self.encoder.encode(obs), action_mask(indices)
        if self.action_features:
            _, feats = features_of(indices)
            chosen = self.policy(observation, mask, feats)
        else:
            chosen = self.policy(observation, mask)
        lang = default_lang()  # an agent has no language of its own: the environment's
        # the seat as a person reads every seat in an error, counted from 1 (the engine's own errors do the same)
        seat = SeatNo(self.seat)
        index = as_index(chosen)
        if index is None:
            raise env_error(GuandanError, lang, N_("the policy at seat {seat} returned {value}, not an action index "
                                                   "(an integer 0…{last})"),
                            seat=seat, value=shown_action(chosen), last=ACTION_SIZE - 1)
        action = indices.get(index)
        if action is None:
            # an index's name (describe_index) is notation, as a card's is: the same in every language
            what: object = (describe_index(index) if 0 <= index < ACTION_SIZE
                             else GuandanError.said(N_("outside 0…{last}"), last=ACTION_SIZE - 1))
            raise env_error(IllegalActionError, lang, N_(
                "the policy at seat {seat} returned action index {index} ({what}), which the action mask does not "
                "allow here; the legal indices are {legal}"),
                seat=seat, index=index, what=what, legal=_listed(sorted(indices)))
        return action


def _listed(order: list[int], most: int = 12) -> str | GuandanError:
    """The first ``most`` indices of ``order``, and how many more: a catalogued clause, said in the language of
    the error that holds it."""
    head = ", ".join(map(str, order[:most]))
    if len(order) <= most:
        return head
    return GuandanError.said(N_("{head} and {count} more"), head=head, count=len(order) - most)


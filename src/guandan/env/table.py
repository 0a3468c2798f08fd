"""What both environments share: a canonical-move match, per-seat encoders, spaces and rewards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import logger, spaces

from ..core.deal import Action
from ..core.errors import GuandanError, IllegalActionError, shown
from ..core.events import DealSettled, Event
from ..core.match import MatchConfig, MatchState, new_match
from ..core.rules import PRESET_NAMES, RuleSet, preset
from ..core.vocab import MoveMode, Scoring
from ..i18n import LANGUAGES, N_, default_lang, normalize_lang
from ..present.seat_view import public_view_text, seat_view_text
from .actions import ACTION_SIZE, action_mask, as_index, features_of, index_actions, padded_features_of, shown_action
from .encoding import OBS_HIGH, OBS_SIZE, Encoder
from .errors import env_error

Obs = dict[str, npt.NDArray[np.int8]]


def observation_space() -> spaces.Dict:
    """``{"observation": OBS_SIZE int8 values, "action_mask": ACTION_SIZE 0/1 values}``."""
    return spaces.Dict({
        "observation": spaces.Box(0, OBS_HIGH, (OBS_SIZE,), dtype=np.int8),
        "action_mask": spaces.Box(0, 1, (ACTION_SIZE,), dtype=np.int8),
    })


def check_render_mode(mode: str | None, declared: Sequence[str], lang: str) -> None:
    """Warn (in ``lang``) of a render mode the environment does not declare, as ``gymnasium.make`` does;
    ``render()`` then returns None. Not refused: PettingZoo's own ``render_test`` makes the environment with
    "human" first, only to read its metadata."""
    if mode is not None and mode not in declared:
        logger.warn(str(env_error(GuandanError, lang, N_("render_mode {mode} is not one of this environment's "
                                                         "({modes}): render() returns None"),
                                  mode=shown(mode), modes=", ".join(map(shown, declared)))))


def render_lang(lang: str | None) -> str:
    """The language ``render()`` speaks: ``lang`` (``"zh"``, ``"en"``, or a locale name such as ``zh_CN``), by
    default the environment's (``LANGUAGE``/``LC_ALL``/``LANG``, else English) as every other face of the project."""
    if lang is None:
        return default_lang()
    code = normalize_lang(lang) if isinstance(lang, str) else ""
    if code not in LANGUAGES:
        raise env_error(GuandanError, default_lang(), N_("lang is one of {choices}, not {value}"),
                        choices=", ".join(map(shown, LANGUAGES)), value=shown(lang))
    return code


def padded_rows(action_features: bool | str, max_legal_actions: int | None, lang: str) -> int | None:
    """How many rows ``action_features="padded"`` pads the legal actions' features to (``max_legal_actions``, by
    default :data:`ACTION_SIZE`, which no position exceeds); None for ``True`` or ``False``."""
    if action_features not in (True, False, "padded"):
        raise env_error(GuandanError, lang, N_("action_features is true, false or \"padded\", not {value}"),
                        value=shown(action_features))
    if action_features != "padded":
        if max_legal_actions is not None:
            raise env_error(GuandanError, lang, N_("max_legal_actions sizes the padded features: it needs "
                                                   "action_features=\"padded\""))
        return None
    if max_legal_actions is None:
        return ACTION_SIZE
    if (isinstance(max_legal_actions, bool) or not isinstance(max_legal_actions, int)
            or not 1 <= max_legal_actions <= ACTION_SIZE):
        raise env_error(GuandanError, lang, N_("max_legal_actions must be 1…{most}, not {value}"), most=ACTION_SIZE,
                        value=shown(max_legal_actions))
    return max_legal_actions


def rules_of(preset_name: str | RuleSet, lang: str) -> RuleSet:
    if isinstance(preset_name, RuleSet):
        return preset_name
    if preset_name not in PRESET_NAMES:
        raise env_error(GuandanError, lang, N_("unknown preset {name} ({choices})"), name=shown(preset_name),
                        choices=", ".join(PRESET_NAMES))
    return preset(preset_name)


def deal_rewards(events: Sequence[Event], rules: RuleSet) -> list[float]:
    """Each seat's reward from the deals settled among ``events``: the deal's points under 火拼
    scoring, else ±upgrade — the winning team's levels gained, the same amount negative for the
    losing team (zero-sum, so a team's return is its lead in levels)."""
    out = [0.0] * 4
    for e in events:
        if not isinstance(e, DealSettled):
            continue
        if rules.scoring == Scoring.HUOPIN_POINTS and e.points is not None:
            for s in range(4):
                out[s] += e.points[s]
        else:
            winners = e.finish[0] % 2
            for s in range(4):
                out[s] += e.upgrade if s % 2 == winners else -e.upgrade
    return out


class Table:
    """One match in canonical move mode and an :class:`Encoder` per seat; its errors are said in ``lang``.
    ``rows``: the legal actions' features padded to that many rows (:func:`padded_rows`), else as many as
    there are."""

    def __init__(self, rules: RuleSet, max_deals: int | None = None, lang: str = "en", rows: int | None = None) -> None:
        self.rules = rules
        self.lang = lang
        self.rows = rows
        self.config = MatchConfig(max_deals=max_deals, move_mode=MoveMode.CANONICAL)
        self.encoders = [Encoder() for _ in range(4)]
        self.match: MatchState | None = None
        self._indices: tuple[int, dict[int, Action], int] | None = None  # (actions applied, index map, dropped)
        self._applied = 0

    def new(self, seed: int | str) -> None:
        self.match = new_match(self.rules, seed, self.config)
        for enc in self.encoders:
            enc.reset()
        self._indices = None
        self._applied = 0

    @property
    def m(self) -> MatchState:
        if self.match is None:
            raise env_error(GuandanError, self.lang, N_("reset the environment first"))
        return self.match

    def indices(self, legal: Sequence[Action] | None = None) -> tuple[dict[int, Action], int]:
        """The mover's legal index map and collision count, from its own observation's legal actions
        (``legal``, when the caller already holds them: building them again cost a tenth of a step)."""
        if self._indices is None or self._indices[0] != self._applied:
            m = self.m
            if legal is None:
                legal = m.legal_actions()
            level = m.deal.level if m.deal is not None else 0
            idx, dropped = index_actions(legal, level)
            self._indices = (self._applied, idx, dropped)
        return self._indices[1], self._indices[2]

    def observe(self, seat: int) -> Obs:
        m = self.m
        view = m.observation(seat)
        if m.to_move == seat:
            mask = action_mask(self.indices(view.deal.legal)[0])
        else:
            mask = np.zeros(ACTION_SIZE, dtype=np.int8)
        return {"observation": self.encoders[seat].encode(view), "action_mask": mask}

    def info(self, seat: int, features: bool | str) -> dict[str, Any]:
        """``seat``'s info: with ``features``, its legal actions' indices and feature rows on its turn; padded to
        :attr:`rows`, they are there on every call (empty off its turn), so that a vector's infos stack."""
        m = self.m
        out: dict[str, Any] = {"seat": seat, "deal_index": m.deal_index, "levels": m.levels}
        if features and self.rows is not None:
            idx, dropped = self.indices() if m.to_move == seat else ({}, 0)
            if len(idx) > self.rows:
                raise env_error(GuandanError, self.lang, N_(
                    "{count} legal actions here, more than max_legal_actions={rows}: raise it (no position has more "
                    "than {most})"),
                    count=len(idx), rows=self.rows, most=ACTION_SIZE)
            legal, feats, rows = padded_features_of(idx, self.rows)
            out["legal_indices"], out["legal_action_features"], out["legal_features_mask"] = legal, feats, rows
            out["collisions"] = dropped
        elif features and m.to_move == seat:
            idx, dropped = self.indices()
            order, feats = features_of(idx)
            out["legal_indices"], out["legal_action_features"], out["collisions"] = order, feats, dropped
        return out

    def render(self, seat: int, lang: str) -> str:
        """What ``seat`` sees, as text for a person (:func:`guandan.present.seat_view.seat_view_text`): its own
        observation and its own last action this deal, nothing of another hand."""
        m = self.m
        actions = m.deal.actions if m.deal is not None else []
        own = next((a for a in reversed(actions) if a.seat == seat), None)
        return seat_view_text(m.observation(seat), lang, own)

    def render_public(self, lang: str) -> str:
        """What a spectator sees, as text for a person (:func:`guandan.present.seat_view.public_view_text`): the
        public view of the match, no hand."""
        return public_view_text(self.m.public_view(), lang)

    def apply_index(self, value: object, on_illegal: str = "raise") -> tuple[list[Event], bool]:
        """Apply the action at index ``value`` (an integer, NumPy's included: :func:`as_index`); with
        ``on_illegal="first_legal"`` an unmasked index plays the first legal action instead of raising. Returns the
        events and whether the index was illegal. A value that is no integer is refused whatever ``on_illegal``:
        it is a mistake in the caller, not a move."""
        index = as_index(value)
        if index is None:
            raise env_error(GuandanError, self.lang, N_("an action is an action index, an integer 0…{last}, not {value}"),
                            last=ACTION_SIZE - 1, value=shown_action(value))
        idx, _ = self.indices()
        action = idx.get(index)
        if action is None:
            if on_illegal != "first_legal" or not idx:
                raise env_error(IllegalActionError, self.lang,
                                N_("action index {index} is not legal here (mask it with action_mask)"), index=index)
            return self.apply(idx[min(idx)]), True
        return self.apply(action), False

    def apply(self, action: Action) -> list[Event]:
        events = self.m.apply(action)
        self._applied += 1
        return events

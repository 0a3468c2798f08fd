"""The match (§5, §8.2, §8.4): deals from level 2 until a team passes A, with per-team levels, the
declarer, A attempts, streaks and 火拼 points. Also a fixed-number-of-deals mode and a single-deal
mode that starts from a given situation (duplicate evaluation, tournaments).

Every random choice comes from a per-deal ``random.Random`` derived from the match seed, so a
match is reproduced exactly by its seed and its actions (see :mod:`guandan.core.record`). Every view
carries the current deal's commitment, the hash of its deal seed (:mod:`guandan.core.fair`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from .cards import Card
from .deal import Action, DealState, DealView, Observation, new_deal
from .errors import N_, GuandanError, IllegalActionError, shown
from .events import DealSettled, DealStart, Event, MatchOver
from .fair import deal_commitment
from .fair import deal_rng as seeded_rng
from .moves import Move
from .rules import RuleSet
from .scoring import DealSettlement, StreakCounts, huopin_score, settle_deal
from .vocab import RANKS, ActionKind, MoveMode, Scoring, parse_choice


@dataclass(frozen=True)
class MatchConfig:
    """How a match starts and ends. The defaults are a whole match from level 2."""

    max_deals: int | None = None  # stop after this many deals even if nobody passed A
    start_levels: tuple[int, int] = (0, 0)  # rank indices
    start_declarer: int | None = None
    start_prev_finish: tuple[int, ...] | None = None  # the previous deal's order: drives the tribute
    start_a_failures: tuple[int, int] = (0, 0)
    first_hands: tuple[tuple[Card, ...], ...] | None = None  # fixed hands for the first deal
    first_leader: int | None = None  # injected first leader (first deal only)
    move_mode: MoveMode = MoveMode.COMPLETE

    def to_dict(self) -> dict[str, object]:
        return {
            "max_deals": self.max_deals,
            "start_levels": list(self.start_levels),
            "start_declarer": self.start_declarer,
            "start_prev_finish": list(self.start_prev_finish) if self.start_prev_finish else None,
            "start_a_failures": list(self.start_a_failures),
            "first_hands": [list(h) for h in self.first_hands] if self.first_hands else None,
            "first_leader": self.first_leader,
            "move_mode": self.move_mode,
        }

    @classmethod
    def from_dict(cls, d: dict[str, object]) -> MatchConfig:
        def ints(v: object, n: int | None = None) -> tuple[int, ...] | None:
            if not isinstance(v, list) or not all(isinstance(x, int) for x in v) or (n is not None and len(v) != n):
                return None
            return tuple(v)

        def two(v: object) -> tuple[int, int]:
            t = ints(v, 2)
            return (t[0], t[1]) if t else (0, 0)

        def opt_int(v: object) -> int | None:
            return v if isinstance(v, int) else None

        hands = d.get("first_hands")
        return cls(
            max_deals=opt_int(d.get("max_deals")),
            start_levels=two(d.get("start_levels")),
            start_declarer=opt_int(d.get("start_declarer")),
            start_prev_finish=ints(d.get("start_prev_finish"), 4),
            start_a_failures=two(d.get("start_a_failures")),
            first_hands=tuple(ints(h) or () for h in hands) if isinstance(hands, list) else None,
            first_leader=opt_int(d.get("first_leader")),
            move_mode=parse_choice(MoveMode, d.get("move_mode", MoveMode.COMPLETE), "move_mode"),
        )


@dataclass
class DealSummary:
    index: int
    level: int
    declarer: int | None
    levels_before: tuple[int, int]
    finish: list[int]
    settlement: DealSettlement
    points: list[int] | None  # 火拼 deal points per seat
    state: DealState  # the finished deal: initial hands and every action, for records and review


@dataclass
class MatchState:
    """A match in progress: ``state.deal`` is the current deal; actions go through :meth:`apply`."""

    rules: RuleSet
    seed: int | str
    config: MatchConfig = field(default_factory=MatchConfig)
    levels: tuple[int, int] = (0, 0)
    declarer: int | None = None
    a_failures: tuple[int, int] = (0, 0)
    streaks: StreakCounts = field(default_factory=StreakCounts)
    points: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    prev_finish: tuple[int, ...] | None = None
    winner: int | None = None
    ended: bool = False
    deal: DealState | None = None
    deals: list[DealSummary] = field(default_factory=list)

    @property
    def deal_index(self) -> int:
        return len(self.deals)

    @property
    def level(self) -> int:
        """The level of the current deal: the declarer's (§5.1); 2 with no declarer."""
        return 0 if self.declarer is None else self.levels[self.declarer]

    @property
    def to_move(self) -> int | None:
        return None if self.ended or self.deal is None else self.deal.to_move

    def deal_rng(self, index: int) -> random.Random:
        return seeded_rng(self.seed, index)

    @property
    def commitment(self) -> str:
        """The current deal's commitment: the SHA-256 of its deal seed, public from its first frame (once
        the match is over, the last deal's)."""
        index = self.deals[-1].index if self.ended and self.deals else self.deal_index
        return deal_commitment(self.seed, index)

    def start_deal(self) -> list[Event]:
        if self.ended:
            raise GuandanError("the match is over")
        index = self.deal_index
        first = index == 0
        hands = self.config.first_hands if first else None
        self.deal = new_deal(
            self.rules,
            self.deal_rng(index),
            level=self.level,
            prev_finish=self.prev_finish,
            hands=hands,
            first_leader=self.config.first_leader if first else None,
            move_mode=self.config.move_mode,
        )
        return [self.deal_start_event(), *self.deal.events]

    def deal_start_event(self) -> DealStart:
        """The opening event of the current deal."""
        return DealStart(self.deal_index, self.level, self.declarer, self.levels)

    def final_hands(self, index: int) -> tuple[tuple[Card, ...], ...]:
        """The cards each seat still held when finished deal ``index`` ended (摊牌: public once a deal is
        over, as players turn their last cards up)."""
        for summary in self.deals:
            if summary.index == index:
                return tuple(tuple(sorted(h)) for h in summary.state.hands)
        raise GuandanError(f"deal {index} has not been played to its end")

    def legal_actions(self) -> list[Action]:
        return [] if self.ended or self.deal is None else self.deal.legal_actions()

    def legal_moves(self) -> list[Move]:
        return [] if self.ended or self.deal is None else self.deal.legal_moves()

    def observation(self, seat: int) -> MatchObservation:
        """What ``seat`` may know: its deal observation and the public match situation."""
        if self.deal is None:
            raise GuandanError("no deal in progress")
        return MatchView(self.deal.observation(seat), self.deal_index, self.levels, self.declarer, self.a_failures,
                         tuple(self.points), self.winner, self.ended, self.commitment)

    def public_view(self) -> PublicMatchView:
        """What a spectator may know: the deal's public view and the match situation."""
        if self.deal is None:
            raise GuandanError("no deal in progress")
        return MatchView(self.deal.public_view(), self.deal_index, self.levels, self.declarer, self.a_failures,
                         tuple(self.points), self.winner, self.ended, self.commitment)

    def apply(self, action: Action) -> list[Event]:
        """Apply an action of the current deal; settles the deal when it ends and starts the next."""
        if self.ended or self.deal is None:
            raise IllegalActionError.said(N_("the match is over") if self.ended else N_("no deal in progress"))
        events = self.deal.apply(action)
        if self.deal.over:
            events = events + self._settle()
        return events

    def apply_move(self, move: Move) -> list[Event]:
        seat = self.to_move
        if seat is None:
            raise IllegalActionError.said(N_("nobody is to move"))
        return self.apply(Action(ActionKind.PASS if move.combo is None else ActionKind.PLAY, seat, move.cards, move.combo))

    def _settle(self) -> list[Event]:
        deal = self.deal
        assert deal is not None
        finish = deal.finish
        before = self.levels
        s = settle_deal(self.levels, self.declarer, finish, self.rules, self.a_failures, self.streaks)
        pts: list[int] | None = None
        score = None
        if self.rules.scoring == Scoring.HUOPIN_POINTS:
            score = huopin_score(finish, deal.star_plays, self.rules)
            pts = list(score.points)
            self.points = [a + b for a, b in zip(self.points, pts, strict=True)]
        self.deals.append(DealSummary(self.deal_index, deal.level, self.declarer, before, finish, s, pts, deal))
        self.levels, self.declarer = s.levels_after, s.declarer_after
        self.a_failures, self.streaks = s.a_failures_after, s.streaks_after
        self.prev_finish = tuple(finish)
        events: list[Event] = [DealSettled(tuple(finish), self.levels, s.declarer_after, s.upgrade, s.partner_place,
                                           s.notes, None if pts is None else tuple(pts),
                                           None if score is None else score.base,
                                           None if score is None else score.multiplier)]
        if s.match_winner is not None:
            self.winner, self.ended = s.match_winner, True
        elif self.config.max_deals is not None and len(self.deals) >= self.config.max_deals:
            self.ended = True
        if self.ended:
            events.append(MatchOver(self.winner, self.levels, len(self.deals), tuple(self.points)))
            return events
        return events + self.start_deal()


V = TypeVar("V", bound=DealView)


@dataclass(frozen=True)
class MatchView(Generic[V]):
    """A view of the match: a deal view (a seat's observation, or the public view) plus the public
    match situation."""

    deal: V
    deal_index: int
    levels: tuple[int, int]
    declarer: int | None
    a_failures: tuple[int, int]
    points: tuple[int, ...]
    winner: int | None
    ended: bool
    # the deal's commitment (guandan.core.fair): its seed stays secret until the end. MatchState always sets
    # it; a view built by hand (a test, a preview) may leave it empty
    commitment: str = ""


MatchObservation = MatchView[Observation]
"""A seat's view of the match."""
PublicMatchView = MatchView[DealView]
"""A spectator's view of the match."""


def new_match(rules: RuleSet, seed: int | str, config: MatchConfig | None = None) -> MatchState:
    """A match whose first deal has been dealt."""
    config = config or MatchConfig()
    parse_choice(MoveMode, config.move_mode, "move_mode")
    if config.start_declarer not in (None, 0, 1):
        raise GuandanError.said(N_("start_declarer must be null, 0 or 1, not {value}"), value=shown(config.start_declarer))
    if config.max_deals is not None and config.max_deals < 1:
        raise GuandanError.said(N_("max_deals must be at least 1"))
    m = MatchState(rules=rules, seed=seed, config=config, levels=config.start_levels,
                   declarer=config.start_declarer, a_failures=config.start_a_failures,
                   prev_finish=config.start_prev_finish)
    m.start_deal()
    return m


def team_levels_str(levels: Sequence[int]) -> str:
    """Both teams' levels in rules notation (``2:T``): for machine-facing text, not for people."""
    return ":".join(RANKS[x] for x in levels)

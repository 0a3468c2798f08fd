"""Reviewing a record: every decision of the chosen seats, evaluated, labelled and summed up.

:func:`collect` replays the record (:func:`guandan.core.record.replay`) and takes, before each action
of a reviewed seat, that seat's observation — the only input of its verdict. :func:`review_record`
evaluates them (in worker processes with ``jobs`` > 1; each decision has its own seeded worlds, so
the result does not depend on the number of processes or their order) and returns a
:class:`Review`: per seat, per deal and for the match, the accuracy, the costliest decisions and the
evaluation decision by decision.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from .. import __version__
from ..agents.decompose import Decomposer
from ..agents.search import ENDGAME_CARDS
from ..core.cards import Card
from ..core.deal import Action
from ..core.errors import GuandanError
from ..core.match import MatchObservation
from ..core.record import replay
from ..core.rules import RuleSet
from ..core.vocab import ActionKind, Phase
from ..i18n import N_
from . import verdict
from .engine import WORLDS_PER_SECOND, Evaluation, Hindsight, Settings, evaluate, hindsight
from .verdict import Label, Reason, label_for, reason_for

FORMAT = "guandan-review"
VERSION = 1


@dataclass(frozen=True)
class Task:
    """One decision to review: the seat's observation then and what it did; with ``truth`` (every
    hand) only when hindsight is asked for, and never passed to the verdict."""

    deal: int
    index: int  # the action's place in the deal's action list
    seat: int
    obs: MatchObservation
    played: Action
    truth: tuple[tuple[Card, ...], ...] | None = None
    paid: tuple[tuple[int, Card], ...] = ()


@dataclass(frozen=True)
class Decision:
    """A reviewed decision; ``level`` is its deal's playing level (a rank index), which tells the wildcards
    (逢人配) of its actions apart when they are told."""

    deal: int
    index: int
    seat: int
    level: int
    phase: Phase
    played: Action
    legal: int
    evaluation: Evaluation
    label: Label
    reason: Reason | None
    reason_facts: dict[str, Any]
    hindsight: Hindsight | None

    @property
    def loss(self) -> float:
        return self.evaluation.loss

    @property
    def accuracy(self) -> float:
        return verdict.decision_accuracy(self.loss)


def review_task(task: Task, rules: RuleSet, settings: Settings) -> Decision:
    """Evaluate, label and explain one decision (a top-level function: worker processes run it)."""
    obs = task.obs
    ev = evaluate(obs, task.played, rules, settings, f"{task.deal}:{task.index}")
    label = label_for(ev.loss, ev.se)
    why = None
    if label != Label.GOOD:
        why = reason_for(obs, ev.played, ev.best.action, Decomposer(rules, obs.deal.level))
    seen = None
    if settings.hindsight and task.truth is not None:
        seen = hindsight(obs, task.played, rules, settings, task.truth, dict(task.paid))
    return Decision(task.deal, task.index, task.seat, obs.deal.level, obs.deal.phase, ev.played, len(obs.deal.legal),
                    ev, label, why[0] if why else None, why[1] if why else {}, seen)


@dataclass
class Collected:
    rules: RuleSet
    tasks: list[Task]
    forced: dict[tuple[int, int], int]  # (seat, deal) -> decisions with a single legal action
    deals: list[int]  # the deals reviewed (indices)
    players: list[str]


def collect(data: dict[str, Any], seats: Iterable[int], deals: Iterable[int] | None = None,
            with_truth: bool = False) -> Collected:
    """Replay ``data`` and take the decisions of ``seats`` in ``deals`` (all deals when None)."""
    wanted_seats = set(seats)
    if not wanted_seats or not wanted_seats <= {0, 1, 2, 3}:
        raise GuandanError.said(N_("seats are 0…3"))
    wanted = None if deals is None else set(deals)
    n_deals = len(data.get("deals", []))
    if wanted is not None:
        bad = sorted(d for d in wanted if not 0 <= d < n_deals)
        if bad and n_deals == 0:
            raise GuandanError.said(N_("the record holds no deal"))
        if bad:  # the last deal's number: a wording that reads right for one deal and for many
            raise GuandanError.said(N_("the record has no deal {deal}; its last deal is {count}"),
                                    count=n_deals, deal=bad[0] + 1)
    tasks: list[Task] = []
    forced: dict[tuple[int, int], int] = {}
    seen_keys: set[tuple[int, int]] = set()
    pending: tuple[int, int, int, MatchObservation, tuple[tuple[Card, ...], ...] | None,
                   tuple[tuple[int, Card], ...]] | None = None
    rules: RuleSet | None = None
    reviewed: list[int] = []
    for action, _events, match in replay(data):
        rules = match.rules
        if action is not None and pending is not None:
            deal_i, index, seat, obs, known, down = pending
            if action.seat == seat:
                tasks.append(Task(deal_i, index, seat, obs, action, known, down))
            pending = None
        if match.ended or match.deal is None or match.deal.over:
            continue
        key = (match.deal_index, len(match.deal.actions))
        if key in seen_keys:
            continue
        seen_keys.add(key)
        seat_to_move = match.to_move
        if seat_to_move is None or seat_to_move not in wanted_seats or (wanted is not None and key[0] not in wanted):
            continue
        if key[0] not in reviewed:
            reviewed.append(key[0])
        legal = match.legal_actions()
        if len(legal) < 2:
            forced[(seat_to_move, key[0])] = forced.get((seat_to_move, key[0]), 0) + 1
            continue
        truth = None
        paid: tuple[tuple[int, Card], ...] = ()
        if with_truth:
            # THE WHOLE TABLE, for the hindsight column only (never an input of the verdict)
            truth = tuple(tuple(h) for h in match.deal.hands)
            if match.deal.phase in (Phase.TRIBUTE, Phase.CHOOSE):
                paid = tuple((a.seat, a.cards[0]) for a in match.deal.actions if a.kind == ActionKind.TRIBUTE)
        pending = (key[0], key[1], seat_to_move, match.observation(seat_to_move), truth, paid)
    if rules is None:
        raise GuandanError.said(N_("the record holds no deal"))
    players = [str(p) for p in data.get("players") or []]
    return Collected(rules, tasks, forced, reviewed, players)


def _cost(task: Task) -> float:
    """A rough guess of a decision's review time: tribute-phase worlds play out whole deals, small
    endgames are solved exactly, other decisions cost about as much as the cards left to play."""
    d = task.obs.deal
    if d.phase != Phase.PLAY:
        return 4.0
    cards = 108 - sum(d.played_counts)
    return 1.5 if cards <= ENDGAME_CARDS else cards / 70


def _run(task: Task, rules: RuleSet, settings: Settings) -> Decision:
    return review_task(task, rules, settings)


def evaluate_all(tasks: Sequence[Task], rules: RuleSet, settings: Settings, jobs: int = 1,
                 progress: Callable[[int], None] | None = None) -> list[Decision]:
    """Review every task; ``progress(k)`` after each one (k done so far). Results in record order."""
    if jobs < 1:
        raise GuandanError.said(N_("--jobs must be at least 1, not {jobs}"), jobs=jobs)
    out: list[Decision] = []
    if jobs == 1 or len(tasks) < 2:
        for k, t in enumerate(tasks, 1):
            out.append(review_task(t, rules, settings))
            if progress:
                progress(k)
    else:
        # spawned workers: nothing of this process (threads, open displays) is copied into them
        with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
            # the costliest first, so that no worker is left with a long decision at the end
            futures = [pool.submit(_run, t, rules, settings) for t in sorted(tasks, key=_cost, reverse=True)]
            for k, f in enumerate(as_completed(futures), 1):
                out.append(f.result())
                if progress:
                    progress(k)
    out.sort(key=lambda d: (d.deal, d.index))
    return out


@dataclass
class SeatReview:
    seat: int
    decisions: list[Decision]
    forced: int
    deals: list[int]
    forced_by_deal: dict[int, int] = field(default_factory=dict)

    @property
    def accuracy(self) -> float | None:
        return verdict.accuracy([d.loss for d in self.decisions])

    def deal_decisions(self, deal: int) -> list[Decision]:
        return [d for d in self.decisions if d.deal == deal]

    def costliest(self, deal: int | None = None, n: int = 3) -> list[Decision]:
        """The ``n`` decisions that lost most, costliest first: only those labelled an inaccuracy or worse, since
        a loss the label calls good is within the measure's noise or too small to teach anything."""
        pool = self.decisions if deal is None else self.deal_decisions(deal)
        ranked = sorted((d for d in pool if d.label is not Label.GOOD), key=lambda d: (-d.loss, d.deal, d.index))
        return ranked[:n]


@dataclass
class Review:
    settings: Settings
    rules: RuleSet
    seats: list[SeatReview]
    deals: list[int]
    players: list[str]
    record_digest: str


def record_digest(data: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


def review_record(data: dict[str, Any], seats: Iterable[int], deals: Iterable[int] | None = None,
                  settings: Settings | None = None, jobs: int = 1,
                  progress: Callable[[int, int], None] | None = None) -> Review:
    """Review the decisions of ``seats`` in ``deals`` of a record (``progress(done, total)``)."""
    settings = settings or Settings()
    seat_list = sorted(set(seats))
    got = collect(data, seat_list, deals, with_truth=settings.hindsight)
    total = len(got.tasks)
    if progress:
        progress(0, total)
    decisions = evaluate_all(got.tasks, got.rules, settings, jobs,
                             (lambda k: progress(k, total)) if progress else None)
    return assemble(got, seat_list, decisions, settings, record_digest(data))


def assemble(got: Collected, seats: Sequence[int], decisions: Sequence[Decision], settings: Settings,
             digest: str) -> Review:
    """The review of ``seats`` from their evaluated decisions (in record order) and what
    :func:`collect` found (its tasks are not needed any more)."""
    seat_reviews = []
    for s in seats:
        by_deal = {d: n for (seat, d), n in got.forced.items() if seat == s}
        seat_reviews.append(SeatReview(s, [d for d in decisions if d.seat == s], sum(by_deal.values()), got.deals,
                                       by_deal))
    return Review(settings, got.rules, seat_reviews, got.deals, got.players, digest)


def engine_info() -> dict[str, Any]:
    """What produced a review: the package version and the review engine's constants."""
    return {
        "name": "guandan",
        "version": __version__,
        "review_version": VERSION,
        "worlds_per_second": WORLDS_PER_SECOND,
        "endgame_cards": ENDGAME_CARDS,
        "thresholds": {"inaccuracy": verdict.INACCURACY, "mistake": verdict.MISTAKE, "blunder": verdict.BLUNDER,
                       "significance_se": verdict.SIGNIFICANCE},
        "accuracy_scale": verdict.ACCURACY_SCALE,
    }


__all__ = ["FORMAT", "VERSION", "Collected", "Decision", "Review", "SeatReview", "Task", "assemble", "collect",
           "engine_info", "evaluate_all", "record_digest", "review_record", "review_task"]

"""One person (seat 0) against bots: the match, the bots, saving and resuming. No UI here.

The human's view is :meth:`Session.observation` (``match.observation(0)``) plus the public events
the session hands out; bots get their own seat's observation from the engine, never another hand.

Bots are made deterministic *per decision*: before each choice a bot's random generator is seeded
from (match seed, seat, deal, action number). A resumed match therefore continues exactly as the
uninterrupted one would have, whatever the bots drew before the save.
"""

from __future__ import annotations

import logging
import os
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, NamedTuple

from ..agents import Agent, agent_names, make_agent
from ..agents.base import parse_spec
from ..agents.fallback import fallback_action, is_legal
from ..core.deal import Action
from ..core.errors import GuandanError, RecordError, shown
from ..core.events import DealSettled, Event
from ..core.match import MatchConfig, MatchObservation, MatchState, new_match
from ..core.record import dumps, loads, replay
from ..core.rules import RuleSet
from ..i18n import N_
from ..i18n.reasons import os_reason

HUMAN = 0
FALLBACK_TIER = "greedy"
APP = "guandan play"

log = logging.getLogger(__name__)


STRONG_TIERS = ("heuristic", "search")  # may be missing from a slim install: greedy plays instead


def play_tiers() -> tuple[str, ...]:
    """The bot tiers a seat can be given by name (``external`` needs a module:Class spec, so not here)."""
    return tuple(dict.fromkeys([*(n for n in agent_names() if n != "external"), *STRONG_TIERS]))


def resolve_tier(name: str) -> tuple[str, bool]:
    """(tier to use, whether it fell back). The stronger tiers may not be installed yet: then greedy."""
    known = agent_names()
    if name in known and name in play_tiers():
        return name, False
    if name in STRONG_TIERS:
        return FALLBACK_TIER, True
    raise GuandanError.said(N_("unknown bot tier {name}; known: {known}"), name=shown(name), known=", ".join(play_tiers()))


def data_dir() -> Path:
    """Where `guandan play` keeps its matches: ``$XDG_DATA_HOME/guandan/matches`` (~/.local/share/…)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "guandan" / "matches"


def default_save_path(seed: int | str, now: datetime | None = None) -> Path:
    """A file of its own for each match: ``<data dir>/20261201-161000-seed3.json`` (a suffix is added
    when two matches start in the same second with the same seed), so no game overwrites another."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    # a number keeps its sign (seed -5 is not seed 5); other text keeps only what every file system allows
    safe = str(seed) if isinstance(seed, int) else re.sub(r"[^A-Za-z0-9_-]+", "-", seed).strip("-")[:40] or "x"
    folder = data_dir()
    path = folder / f"{stamp}-seed{safe}.json"
    n = 2
    while path.exists():
        path = folder / f"{stamp}-seed{safe}-{n}.json"
        n += 1
    return path


class SaveError(GuandanError):
    """The match could not be written where it was to be saved (a folder, a missing folder, no permission)."""


def _unusable(path: Path) -> SaveError | None:
    """Why a match could not be saved to ``path`` (None when it can): named before anything is written."""
    if path.is_dir():
        return SaveError.said(N_("{path} is a folder: give a file name to save the match to"), path=path)
    folder = path.parent
    if not folder.exists():
        return SaveError.said(N_("cannot save the match to {path}: the folder {folder} does not exist"),
                              path=path, folder=folder)
    if not folder.is_dir():
        return SaveError.said(N_("cannot save the match to {path}: {folder} is not a folder"), path=path, folder=folder)
    if path.exists() and not path.is_file():
        return SaveError.said(N_("cannot save the match to {path}: it is not a regular file"), path=path)
    return None


def check_save_path(path: Path, *, make_folder: bool = False) -> None:
    """Refuse, before the match starts, a path it could not be saved to: a folder, a missing folder
    (created when ``make_folder``, as for the default path in the data folder), or one that cannot be
    written. Writing is tried for real (the temporary file a save writes first, removed at once), since
    permission bits say nothing of read-only disks or of running as root."""
    if make_folder and not path.parent.exists():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise SaveError.said(N_("cannot create {path}: {reason}"), path=path.parent, reason=os_reason(e)) from None
    problem = _unusable(path)
    if problem is not None:
        raise problem
    probe = _temporary(path)
    try:
        with probe.open("a", encoding="utf-8"):
            pass
        if path.exists():
            with path.open("a", encoding="utf-8"):
                pass
    except OSError as e:
        raise SaveError.said(N_("cannot save the match to {path}: {reason}"), path=path, reason=os_reason(e)) from None
    finally:
        probe.unlink(missing_ok=True)


def _temporary(path: Path) -> Path:
    return path.with_name(path.name + ".tmp")


def display_path(path: Path) -> str:
    """The path as a person reads it: the home folder written ``~``."""
    try:
        return "~/" + path.resolve().relative_to(Path.home().resolve()).as_posix()
    except ValueError:
        return str(path)


FailedAt = Literal["create", "reset", "move"]


class BotFailure(NamedTuple):
    """A bot whose moves the fallback plays: its seat, its tier, and what failed (the tier's constructor, its
    ``reset`` for the match, or a move: it raised, or answered no legal action)."""

    seat: int
    tier: str
    stage: FailedAt


@dataclass
class Session:
    match: MatchState
    tiers: list[str]  # per seat; seat 0 is "human"
    save_path: Path | None = None
    agents: dict[int, Agent] = field(default_factory=dict)
    opening: list[Event] = field(default_factory=list)  # events to show before the first move
    save_problem: SaveError | None = None  # why the last automatic save (at a deal's end) failed
    failed_seats: set[int] = field(default_factory=set)  # bots whose move the fallback played at least once
    bot_failures: list[BotFailure] = field(default_factory=list)  # of those, the ones the player is yet to be told of

    def __post_init__(self) -> None:
        for seat in range(1, 4):
            tier = self.tiers[seat]
            parse_spec(tier)  # a tier that is not there (or a bad spec) is the match's problem: said before it starts
            stage: FailedAt = "create"
            try:
                agent = make_agent(tier, f"{self.match.seed}:{seat}")
                stage = "reset"
                agent.reset(seat, self.match.rules)
            except Exception:  # a faulty tier (a plugin's bug) must not stop the game: the fallback plays the seat
                log.debug("the bot at seat %d (tier %s) failed at %s", seat, tier, stage, exc_info=True)
                self._failed(seat, stage)
                continue
            self.agents[seat] = agent

    # --- construction ------------------------------------------------------------------------
    @classmethod
    def new(cls, rules: RuleSet, seed: int | str, partner: str = "heuristic", opponents: str = "heuristic",
            config: MatchConfig | None = None, save_path: Path | None = None) -> Session:
        p, _ = resolve_tier(partner)
        o, _ = resolve_tier(opponents)
        match = new_match(rules, seed, config)
        assert match.deal is not None
        opening = [match.deal_start_event(), *match.deal.events]
        return cls(match, ["human", o, p, o], save_path, opening=opening)

    @classmethod
    def resume(cls, path: Path, save_path: Path | None = None) -> Session:
        """Rebuild the match from its record file and continue it (saving back to ``path``)."""
        try:
            data = loads(path.read_text(encoding="utf-8"))
        except OSError as e:
            raise GuandanError.said(N_("cannot read {path}: {reason}"), path=path, reason=os_reason(e)) from None
        except UnicodeDecodeError:
            raise GuandanError.said(N_("{path}: not a text file"), path=path) from None
        except RecordError as e:  # the record's own words do not say which file they are about
            raise GuandanError.said(N_("{path}: {problem}"), path=path, problem=e) from None
        meta: dict[str, Any] = data.get("meta") or {}
        tiers = meta.get("tiers")
        if meta.get("app") != APP or not isinstance(tiers, list) or len(tiers) != 4:
            raise GuandanError.said(N_("{path} is not a match saved by `guandan play` (no seat tiers in its meta)"), path=path)
        match: MatchState | None = None
        try:
            for _action, _events, state in replay(data):
                match = state
        except RecordError as e:
            raise GuandanError.said(N_("{path}: {problem}"), path=path, problem=e) from None
        if match is None:
            raise GuandanError.said(N_("{path} holds no deal to resume"), path=path)
        if match.ended:
            raise GuandanError.said(N_("the match in {path} is already over"), path=path)
        assert match.deal is not None
        # the current deal's events are shown again so the table can be redrawn
        return cls(match, [str(t) for t in tiers], save_path or path,
                   opening=[match.deal_start_event(), *match.deal.events])

    # --- queries ------------------------------------------------------------------------------
    @property
    def rules(self) -> RuleSet:
        return self.match.rules

    @property
    def ended(self) -> bool:
        return self.match.ended

    @property
    def human_to_move(self) -> bool:
        return self.match.to_move == HUMAN

    def observation(self) -> MatchObservation:
        return self.match.observation(HUMAN)

    def legal(self) -> Sequence[Action]:
        return self.observation().deal.legal

    # --- actions ------------------------------------------------------------------------------
    def act(self, action: Action) -> list[Event]:
        """The human's action. IllegalActionError leaves everything unchanged."""
        if action.seat != HUMAN or not self.human_to_move:
            raise GuandanError.said(N_("it is not your turn"))
        return self._apply(action)

    def bot_step(self) -> list[Event]:
        """One bot decision (the seat to move must be a bot's)."""
        seat = self.match.to_move
        if seat is None or seat == HUMAN:
            raise GuandanError.said(N_("no bot is to move"))
        agent = self.agents.get(seat)  # none where the tier could not be created or reset: the fallback plays
        deal = self.match.deal
        assert deal is not None
        legal = self.match.legal_actions()
        action: object = None
        if agent is not None:
            agent.rng = random.Random(f"{agent.name}:{self.match.seed}:{seat}:{self.match.deal_index}:{len(deal.actions)}")
            try:
                action = agent.choose(self.match.observation(seat), legal)
            except Exception:  # a faulty tier (a plugin's bug) must not crash the client nor lose the game
                log.debug("the bot at seat %d (tier %s) raised", seat, self.tiers[seat], exc_info=True)
        if not is_legal(action, legal):
            # None or an illegal action too: the web app's rule plays instead, and the player is told once a seat
            self._failed(seat, "move")
            action = fallback_action(self.match, seat)
        return self._apply(action)

    def _failed(self, seat: int, stage: FailedAt) -> None:
        if seat not in self.failed_seats:
            self.failed_seats.add(seat)
            self.bot_failures.append(BotFailure(seat, self.tiers[seat], stage))

    def take_bot_failures(self) -> list[BotFailure]:
        """Each bot that failed for the first time since the last call (a bot that could not be created or
        reset, from the start): the client says so."""
        failed = list(self.bot_failures)
        self.bot_failures.clear()
        return failed

    def run_bots(self) -> list[Event]:
        """Bot moves until the human is to move or the match is over."""
        events: list[Event] = []
        while not self.ended and not self.human_to_move:
            events.extend(self.bot_step())
        return events

    def _apply(self, action: Action) -> list[Event]:
        events = self.match.apply(action)
        if any(isinstance(e, DealSettled) for e in events):
            # a failed save must not stop the game: the problem is kept for the client to say, and
            # quitting tries again (and elsewhere, see save_somewhere)
            try:
                self.save()
                self.save_problem = None
            except SaveError as e:
                self.save_problem = e
        return events

    # --- records ------------------------------------------------------------------------------
    def record(self) -> str:
        # "seats" as the web app's records say who was a bot (its replay page names the seats from it); the
        # player plays unnamed, as the web names a player who joined without a name
        seats = [{"kind": "human", "tier": None} if s == HUMAN else {"kind": "bot", "tier": t}
                 for s, t in enumerate(self.tiers)]
        meta = {"app": APP, "human_seat": HUMAN, "tiers": self.tiers, "seats": seats}
        return dumps(self.match, players=["" if s == HUMAN else t for s, t in enumerate(self.tiers)], meta=meta)

    def save(self) -> Path | None:
        """Write the record (atomically: a crash mid-write keeps the previous save). Raises SaveError
        naming the path and the reason when it cannot be written; no temporary file is left behind."""
        if self.save_path is None:
            return None
        return self._write(self.save_path)

    def _write(self, path: Path) -> Path:
        problem = _unusable(path)
        if problem is not None:
            raise problem
        tmp = _temporary(path)
        try:
            tmp.write_text(self.record(), encoding="utf-8")
            tmp.replace(path)
        except OSError as e:
            tmp.unlink(missing_ok=True)
            raise SaveError.said(N_("cannot save the match to {path}: {reason}"), path=path, reason=os_reason(e)) from None
        return path

    def save_somewhere(self) -> tuple[Path | None, SaveError | None]:
        """Save on the way out, so that quitting never loses the match: to ``save_path``, or, when that
        cannot be written, to a new file in the data folder. Returns (where it was saved, or None when
        nowhere could be written; the problem with ``save_path``, if any)."""
        try:
            return self.save(), None
        except SaveError as e:
            problem = e
        try:
            fallback = default_save_path(self.match.seed)
            check_save_path(fallback, make_folder=True)
            return self._write(fallback), problem
        except SaveError:
            return None, problem

"""``external:module:Class``: a 2020-protocol bot (any object with ``received_message(str) -> int``)
sitting at one of our seats, in this process or in a process of its own.

Spec: ``external:MODULE:CLASS[:process][:timeout=SECONDS]`` — ``process`` isolates the bot in a
child process (needed when two bots share module names, and to enforce the timeout); the default
timeout is 10 s per message. Bot modules are searched on the paths given to :func:`add_bot_path`
(the arena's ``--path``) before ``sys.path``.

The bot gets exactly the messages a seat gets on the platform: every notify, then an act message
whose ``actionList`` is our legal actions. What the arena reads (stats, never exceptions):

* ``crashes`` — the bot raised, its process died, or it could not be loaded;
* ``timeouts`` — a message took longer than the timeout;
* ``invalid`` — an act was answered with something other than an index in ``0…indexRange``;
* ``fallbacks`` — decisions we made for it (``legal[0]``) after any of the above.

After a crash or timeout the bot sits out the rest of the deal (we play ``legal[0]`` for it) and
is loaded afresh, so it starts clean, at the next deal's ``beginning``.

Events: the agent interface only hands over observations, which hold the current deal's events.
A host that also calls :meth:`ExternalAgent.on_events` after every action (``run_match``'s
``on_events``) gives the bot the complete stream: the end of each deal (``episodeOver`` with
``restCards``) and ``gameOver``. Without it the bot still gets every notify of each deal up to its
own last turn, and an ``episodeOver`` whose ``restCards`` is empty (unknown to its seat).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from ..agents.base import Agent, Shown, register
from ..core.cards import card_protocol
from ..core.deal import Action
from ..core.errors import GuandanError, shown
from ..core.events import DealSettled, DealStart, Event, MatchOver
from ..core.match import MatchObservation
from ..core.rules import RuleSet
from ..i18n import N_
from .errors import ProtocolError
from .messages import Message, MessageStream, deal_start_event, encode
from .notation import check_rules
from .worker import BotFailure, InlineBot, NotAnIndex, ProcessBot

DEFAULT_TIMEOUT = 10.0
_BOT_PATHS: list[str] = []
_MATCH_EVENTS = (DealSettled, MatchOver)  # match-level events: not part of any deal's event list


def add_bot_path(path: str) -> None:
    """Search ``path`` for external bot modules (in this process and in bot processes)."""
    if path not in _BOT_PATHS:
        _BOT_PATHS.append(path)
    if path not in sys.path:
        sys.path.insert(0, path)


def parse_spec(spec: str) -> tuple[str, str, bool, float]:
    """``external:MODULE:CLASS[:process][:timeout=S]`` → (module, class, isolated, timeout)."""
    parts = spec.split(":")
    if len(parts) < 3 or parts[0] != "external" or not parts[1] or not parts[2]:
        raise GuandanError.said(N_("an external bot is written external:MODULE:CLASS[:process][:timeout=S], not {spec}"),
                                spec=shown(spec))
    isolated, timeout = False, DEFAULT_TIMEOUT
    for opt in parts[3:]:
        if opt == "process":
            isolated = True
        elif opt.startswith("timeout="):
            try:
                timeout = float(opt[len("timeout="):])
            except ValueError:
                timeout = -1.0
            if not timeout > 0:
                raise GuandanError.said(N_("timeout must be a positive number of seconds, not {value}"), value=shown(opt[8:]))
        else:
            raise GuandanError.said(N_("unknown option {option} in {spec} (process, timeout=SECONDS)"), option=shown(opt),
                                    spec=shown(spec))
    return parts[1], parts[2], isolated, timeout


class _OwnView:
    """The view of an agent that only has its own observation, and the cards shown at a deal's end
    when the host's ``on_events`` passes them (``restCards``)."""

    def __init__(self, obs: MatchObservation, shown: Shown = ()) -> None:
        self.obs = obs
        self.shown = shown

    def observation(self, seat: int) -> MatchObservation:
        assert seat == self.obs.deal.seat
        return self.obs

    def rest_cards(self) -> list[list[Any]]:
        return [[s, [card_protocol(c) for c in sorted(cards)]] for s, cards in enumerate(self.shown) if cards]


class ExternalAgent(Agent):
    name = "external"

    def __init__(self, seed: int | str = 0, time_budget: float | None = None) -> None:
        super().__init__(seed, time_budget)
        self.spec = ""
        self.module, self.cls, self.isolated, self.timeout = "", "", False, DEFAULT_TIMEOUT
        self.crashes = self.timeouts = self.invalid = self.fallbacks = 0
        self.failures: list[str] = []  # one line per crash/timeout/invalid reply, for the report
        self._bot: InlineBot | ProcessBot | None = None
        self._benched = False  # sitting out the rest of the deal after a failure
        self._stream = MessageStream(seats=())
        self._deal = -1  # the deal whose events were delivered…
        self._seen = 0  # …and how many of them

    def configure(self, spec: str) -> None:
        self.module, self.cls, self.isolated, self.timeout = parse_spec(spec)
        self.spec = spec
        self.name = f"external:{self.module}:{self.cls}"

    def stats(self) -> dict[str, int]:
        return {"crashes": self.crashes, "timeouts": self.timeouts, "invalid": self.invalid, "fallbacks": self.fallbacks}

    def reset(self, seat: int, rules: RuleSet) -> None:
        if not self.module:
            raise GuandanError.said(N_("an external agent needs configure(\"external:MODULE:CLASS\") before use"))
        check_rules(rules)
        super().reset(seat, rules)
        # one stream per match, the game tallies carried over: the arena may reuse us for several
        # matches, and does not tell how many (settingTimes counts the games so far, this one included)
        old = self._stream
        self._stream = MessageStream(seats=(seat,), games=old.played_games + 1)
        self._stream.played_games = old.played_games
        self._stream.victories, self._stream.draws = list(old.victories), list(old.draws)
        self._deal, self._seen = -1, 0

    # --- bot calls ------------------------------------------------------------------------
    def _fail(self, failure: BotFailure) -> None:
        if failure.kind == "timeout":
            self.timeouts += 1
        else:
            self.crashes += 1
        self.failures.append(f"{self.spec} seat {self.seat}: {failure}")
        self._benched = True
        if self._bot is not None:
            self._bot.close()
            self._bot = None

    def _deliver(self, message: Message) -> int | NotAnIndex | None:
        if message["stage"] == "beginning" and self._benched:
            self._benched = False  # a fresh bot for the new deal
        if self._benched:
            return None
        try:
            if self._bot is None:
                factory = ProcessBot if self.isolated else InlineBot
                self._bot = factory(self.module, self.cls, list(_BOT_PATHS), self.timeout)
            return self._bot.call(encode(message))
        except BotFailure as f:
            self._fail(f)
            return None

    def _feed(self, events: Sequence[Event], view: Any) -> None:
        for e in events:
            if isinstance(e, DealStart):
                self._deal, self._seen = e.index, 0
            elif not isinstance(e, _MATCH_EVENTS):
                self._seen += 1
            for _, msg in self._stream.on_events([e], view):
                self._deliver(msg)

    def _sync(self, obs: MatchObservation, upto: int | None = None) -> None:
        """Deliver the events of ``obs``'s deal (the first ``upto`` of them) not delivered yet."""
        if obs.deal_index != self._deal:
            # without on_events the previous deal's tail and its episodeOver never reach us: its
            # restCards are unknown to this seat, and a made-up episodeOver would mislead the bot
            self._feed([deal_start_event(obs)], _OwnView(obs))
        events = obs.deal.events[: len(obs.deal.events) if upto is None else upto]
        self._feed(events[self._seen:], _OwnView(obs))

    # --- the agent interface ----------------------------------------------------------------
    def on_events(self, events: Sequence[Event], obs: MatchObservation, shown: Shown = ()) -> None:
        """Optional host hook, after every action: the action's events, in order, and our own
        observation after them (see module doc)."""
        if self.seat < 0:
            return
        if not obs.ended and not any(isinstance(e, DealStart) for e in events):
            # catch up first with what happened before this batch (the deal's opening, missed calls)
            before = len(obs.deal.events) - sum(1 for e in events if not isinstance(e, _MATCH_EVENTS))
            if obs.deal_index != self._deal or self._seen < before:
                self._sync(obs, upto=before)
        self._feed(events, _OwnView(obs, shown))

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ProtocolError("choose() needs at least one legal action")
        self._sync(obs)
        msg, ordered = self._stream.act(obs, legal)
        reply = self._deliver(msg)
        if self._benched or reply is None:  # it failed (counted as such) and sits the deal out: we play for it
            self.fallbacks += 1
            return legal[0]
        if isinstance(reply, NotAnIndex) or not 0 <= reply <= msg["indexRange"]:
            self.invalid += 1
            self.fallbacks += 1
            sent = reply.sent if isinstance(reply, NotAnIndex) else str(reply)
            self.failures.append(f"{self.spec} seat {self.seat}: answered {sent} to an act with indexRange "
                                 f"{msg['indexRange']}")
            return legal[0]
        return ordered[reply]

    def close(self) -> None:
        if self._stream.played_games and not self._benched:
            for _, msg in self._stream.game_result():
                self._deliver(msg)
        if self._bot is not None:
            self._bot.close()
            self._bot = None


def check_loads(spec: str) -> None:
    """Load the bot of ``spec`` (``external:…``) once, as a seat would (in a process of its own for
    ``:process``), and stop it. A bot that cannot be loaded at all (a wrong module, class or bot folder)
    is then an error before any deal, instead of a crash counted at every deal with nobody told why."""
    module, cls, isolated, timeout = parse_spec(spec)
    try:
        bot = (ProcessBot if isolated else InlineBot)(module, cls, list(_BOT_PATHS), timeout)
    except BotFailure as failure:
        reason = failure.problem or failure.detail.removeprefix(f"cannot load {module}:{cls}: ")
        raise GuandanError.said(N_("the external bot {spec} cannot be loaded: {reason}"), spec=spec,
                                reason=reason) from None
    bot.close()


register("external")(lambda seed, budget: ExternalAgent(seed, budget))

__all__ = ["DEFAULT_TIMEOUT", "ExternalAgent", "add_bot_path", "check_loads", "parse_spec"]

"""One interface for every seat kind: bots, the arena, servers and protocol adapters.

An agent receives its seat's :class:`MatchObservation` (the only view of hidden information) and
the legal actions, and returns one of them — for play, tribute and return alike. Agents are
deterministic for a given seed; ``time_budget`` (seconds per decision) bounds the thinking ones.
An agent that overrides :meth:`Agent.on_events` also hears every action's public events, again with
nothing but its own observation.
"""

from __future__ import annotations

import inspect
import math
import numbers
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .. import plugins
from ..core.cards import Card
from ..core.deal import Action
from ..core.errors import GuandanError, shown
from ..core.events import Event
from ..core.match import MatchObservation
from ..core.rules import RuleSet
from ..i18n import N_

Shown = tuple[tuple[Card, ...], ...]
"""The cards each seat still held when a deal ended (empty for seats that went out)."""


class Agent(ABC):
    """Base class of all players. Subclasses implement :meth:`choose`."""

    name = "agent"

    def __init__(self, seed: int | str = 0, time_budget: float | None = None) -> None:
        self.seed = seed
        self.time_budget = time_budget
        self.rng = random.Random(f"{self.name}:{seed}")
        self.seat = -1
        self.rules: RuleSet | None = None

    def reset(self, seat: int, rules: RuleSet) -> None:
        """Called before a match (or a single deal) with the agent's seat and the rules."""
        self.seat = seat
        self.rules = rules
        self.rng = random.Random(f"{self.name}:{self.seed}:{seat}")

    @abstractmethod
    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        """Return one of ``legal``."""

    def on_events(self, events: Sequence[Event], obs: MatchObservation, shown: Shown = ()) -> None:  # noqa: B027
        """Optional host hook (``run_match`` calls it only where a subclass overrides it), after every
        action: that action's public ``events`` in order, and this agent's own observation after them
        (``match.observation(self.seat)`` — never the match state, never another seat's hand).

        ``shown``: when a deal ended among ``events``, the cards each seat (0…3) still held at its end,
        public from that moment (the 2020 protocol's ``restCards``); empty otherwise."""

    def close(self) -> None:  # noqa: B027 - optional hook, not abstract
        """Release resources (external processes); a no-op for in-process bots."""


AgentFactory = Callable[..., Agent]  # (seed, time_budget, **options) -> Agent


@dataclass(frozen=True)
class Option:
    """One setting a tier accepts in its spec, e.g. ``prior`` in ``search:prior=0.3``. Options let an
    A/B run (the arena's SPRT mode) compare two settings of one tier without editing code."""

    kind: type  # int, float or bool
    default: int | float | bool
    help: str
    low: float | None = None  # inclusive bounds for numbers
    high: float | None = None
    # for an option added after arena results began to record option values: the value that gives
    # the tier as it played before, which a results file recorded then ran with without naming it
    before: int | float | bool | None = None

    def parse(self, key: str, text: str) -> int | float | bool:
        if self.kind is bool:
            if text.lower() in _TRUE:
                return True
            if text.lower() in _FALSE:
                return False
            raise GuandanError.said(N_("option {key} must be on or off, not {value}"), key=key, value=shown(text))
        try:
            value: int | float = int(text) if self.kind is int else float(text)
        except ValueError:
            msgid = N_("option {key} must be a whole number, not {value}") if self.kind is int else \
                N_("option {key} must be a number, not {value}")
            raise GuandanError.said(msgid, key=key, value=shown(text)) from None
        if not math.isfinite(value) or (self.low is not None and value < self.low) or \
                (self.high is not None and value > self.high):
            low, high = self._bound(self.low), self._bound(self.high)
            refusal = _RANGES[bool(low), bool(high)][1]
            raise GuandanError.said(refusal, key=key, low=low, high=high, value=text)
        return value

    def range(self, gettext: Callable[[str], str] = str) -> str:
        """The values the option takes, in words (in the language of ``gettext``, a catalogue's)."""
        if self.kind is bool:
            return gettext("on or off")
        low, high = self._bound(self.low), self._bound(self.high)
        return gettext(_RANGES[bool(low), bool(high)][0]).format(low=low, high=high)

    def _bound(self, x: float | None) -> str:
        """A bound as a person writes it: 1000000, not 1e+06."""
        if x is None:
            return ""
        return str(int(x)) if self.kind is int or float(x).is_integer() else f"{x:g}"

    def show(self, value: int | float | bool) -> str:
        """``value`` as a spec writes it; numbers exactly (``repr``), so parsing it gives it back."""
        if self.kind is bool:
            return "on" if value else "off"
        return repr(float(value)) if self.kind is float else str(int(value))


#: A number option's bounds (whether it has a lower, an upper one) → its values in words, and the refusal
#: of a value outside them.
_RANGES = {
    (True, True): (N_("from {low} to {high}"), N_("option {key} must be from {low} to {high}, not {value}")),
    (True, False): (N_("at least {low}"), N_("option {key} must be at least {low}, not {value}")),
    (False, True): (N_("at most {high}"), N_("option {key} must be at most {high}, not {value}")),
    (False, False): (N_("any number"), N_("option {key} must be a finite number, not {value}")),
}
_TRUE = ("on", "true", "yes", "1")
_FALSE = ("off", "false", "no", "0")
_REGISTRY: dict[str, AgentFactory] = {}
_OPTIONS: dict[str, dict[str, Option]] = {}


def register(name: str, options: dict[str, Option] | None = None) -> Callable[[AgentFactory], AgentFactory]:
    """Register a tier. Its factory is called with the seed, the time budget and, as keywords, the
    ``options`` a spec sets (the others keep their defaults)."""
    def deco(factory: AgentFactory) -> AgentFactory:
        _REGISTRY[name] = factory
        _OPTIONS[name] = dict(options or {})
        return factory

    return deco


def agent_names() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def agent_options(name: str) -> dict[str, Option]:
    """The options tier ``name`` accepts in a spec (empty for tiers without any)."""
    _load_builtin()
    return dict(_OPTIONS.get(name, {}))


#: What each built-in tier is, and roughly how strong and how fast (msgids of the ``cli`` catalogue; the
#: strengths as README's bot ratings rank them, the times as the arena measures decisions).
TIER_DESCRIPTIONS: dict[str, str] = {
    "random": N_("picks a legal move at random; the weakest, instant"),
    "greedy": N_("plays its cheapest legal play, bombs only to stop an opponent; weak, instant"),
    "heuristic": N_("plans from a decomposition of its hand (拆牌) and counts cards; strong, about a millisecond a move"),
    "search": N_("plays its few best candidate moves out to the end in sampled deals; the strongest, up to a second a move"),
}


def agent_description(name: str, gettext: Callable[[str], str] = str) -> str:
    """One line on what tier ``name`` is: a built-in tier's from the catalogue (in the language of
    ``gettext``, a ``cli`` catalogue's), another's the first paragraph of the docstring its author gave
    what it registered (the class of ``@register("mytier") class MyTier(Agent)``, or a factory
    function), on one line as written; "" where there is none (a lambda, an undocumented class)."""
    _load_builtin()
    factory = _REGISTRY.get(name)
    if factory is None:
        return ""
    if name in TIER_DESCRIPTIONS and getattr(factory, "__module__", "").startswith("guandan."):
        return gettext(TIER_DESCRIPTIONS[name])
    # a class's own docstring only (never its base's, never a callable object's class's: functools.partial's)
    doc = vars(factory).get("__doc__") if inspect.isclass(factory) else \
        factory.__doc__ if inspect.isfunction(factory) else None
    if not isinstance(doc, str) or not doc.strip():
        return ""
    return " ".join(re.split(r"\n\s*\n", inspect.cleandoc(doc))[0].split())


SHOWN_CHARS = 40  # of a value given in place of a spec, as its error quotes it: a list may hold a whole config


def _given(value: object) -> GuandanError:
    """What was given in place of a spec, in a bot author's words: its kind (an int, a list, an object of class
    Foo) and, where JSON writes it, the value, cut short; a catalogued clause, said in the language of the error
    that holds it."""
    if value is None:
        return GuandanError.said(N_("no value (null)"))
    if isinstance(value, Agent):
        return GuandanError.said(N_("an agent already made ({name}), which is used as it is, without make_agent"),
                                 name=type(value).__name__)
    if inspect.isclass(value):
        return GuandanError.said(N_("the class {name}"), name=value.__name__)
    if inspect.isroutine(value):
        name = getattr(value, "__name__", "<lambda>")
        return (GuandanError.said(N_("a lambda function")) if name == "<lambda>"
                else GuandanError.said(N_("the function {name}"), name=name))
    if isinstance(value, bytes | bytearray):
        return GuandanError.said(N_("bytes: decode them to a string first"))
    if isinstance(value, numbers.Number) and not isinstance(value, bool | complex):
        value = int(value) if isinstance(value, numbers.Integral) else float(value)  # type: ignore[arg-type]  # NumPy's too
    kinds = ((bool, N_("a bool ({value})")), (int, N_("an int ({value})")), (float, N_("a float ({value})")),
             (list, N_("a list ({value})")), (tuple, N_("a tuple ({value})")), (dict, N_("a dict ({value})")),
             ((set, frozenset), N_("a set ({value})")))
    for kind, msgid in kinds:
        if isinstance(value, kind):
            text = shown(value)
            return GuandanError.said(msgid, value=text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 1] + "…")
    return GuandanError.said(N_("an object of class {name}"), name=type(value).__name__)


def parse_spec(spec: str) -> tuple[str, dict[str, int | float | bool]]:
    """Split an agent spec ``tier[:key=value…]`` into the tier and its options (only those set).

    ``external:module:Class`` is returned whole as (``external``, {}): its colons name a class."""
    _load_builtin()
    if not isinstance(spec, str):  # an agent object, a number: said as the names one may give, not as an AttributeError
        raise GuandanError.said(N_("an agent is named by a spec, a string: one of {known} or external:module:Class, "
                                   "with its options after colons (search:prior=0.3); it was given {value}"),
                                known=", ".join(n for n in sorted(_REGISTRY) if n != "external"), value=_given(spec))
    if spec.startswith("external:"):
        if "external" not in _REGISTRY:
            raise GuandanError.said(N_("external agents need the protocol adapter (guandan.protocol)"))
        return "external", {}
    name, *parts = spec.split(":")
    if name not in _REGISTRY or name == "external":
        known = sorted(n for n in _REGISTRY if n != "external")
        raise GuandanError.said(N_("unknown agent {name}; known: {known}, external:module:Class"), name=shown(name),
                                known=", ".join(known))
    options = _OPTIONS.get(name, {})  # a factory put straight into the registry takes no options
    values: dict[str, int | float | bool] = {}
    for part in parts:
        key, eq, text = part.partition("=")
        if not eq or not key or not text:
            raise GuandanError.said(N_("agent spec {spec}: {part} is not key=value"), spec=shown(spec), part=shown(part))
        if key not in options:
            if not options:
                raise GuandanError.said(N_("agent {name} has no option {key}: it takes none"), name=shown(name),
                                        key=shown(key))
            raise GuandanError.said(N_("agent {name} has no option {key}; its options: {names}"), name=shown(name),
                                    key=shown(key), names=", ".join(sorted(options)))
        if key in values:
            raise GuandanError.said(N_("agent spec {spec} sets {key} twice"), spec=shown(spec), key=key)
        values[key] = options[key].parse(key, text)
    return name, values


def canonical_spec(spec: str) -> str:
    """``spec`` with its options sorted, defaults dropped and numbers written one way, so that two
    spellings of the same agent name the same arena setup (``search:prior=0.15`` is ``search``)."""
    name, values = parse_spec(spec)
    if name == "external":
        return spec
    options = _OPTIONS.get(name, {})
    kept = [f"{k}={options[k].show(v)}" for k, v in sorted(values.items()) if v != options[k].default]
    return ":".join([name, *kept])


def resolved_options(spec: str) -> dict[str, int | float | bool]:
    """Every option of ``spec``'s tier with the value it runs with, defaults included (empty for
    ``external`` and tiers without options): what a spec means today, which a later change of a
    default would otherwise alter silently."""
    name, values = parse_spec(spec)
    options = _OPTIONS.get(name, {}) if name != "external" else {}
    out: dict[str, int | float | bool] = {}
    for key in sorted(options):
        o = options[key]
        v = values.get(key, o.default)
        out[key] = bool(v) if o.kind is bool else int(v) if o.kind is int else float(v)
    return out


def recorded_options_of(spec: str, recorded: dict[str, int | float | bool]) -> dict[str, int | float | bool]:
    """``recorded`` (the option values a results file holds for ``spec``) completed by every option
    the tier gained since that file was written, at the value its behaviour had before
    (:attr:`Option.before`), so a file stays comparable with, and resumable by, today's build."""
    _load_builtin()
    options = {} if spec.startswith("external:") else _OPTIONS.get(spec.split(":", 1)[0], {})
    out = dict(recorded)
    for key, o in options.items():
        if key not in out and o.before is not None:
            out[key] = o.before
    return out


def make_agent(spec: str, seed: int | str = 0, time_budget: float | None = None) -> Agent:
    """An agent by spec: a tier name (``random``, ``greedy``, …), optionally with options
    (``search:prior=0.3:shortlist=8``), or ``external:module:Class``."""
    name, values = parse_spec(spec)
    agent = _REGISTRY[name](seed, time_budget, **values)
    if name == "external":
        agent.configure(spec)  # type: ignore[attr-defined]
    return agent


def _load_builtin() -> None:
    """Import every tier's module (pyproject.toml's ``guandan.agent_tiers`` entry points, ``external``
    included); each registers its tier as it loads, under the entry point's name."""
    for name in plugins.load(plugins.AGENT_TIERS):
        if name not in _REGISTRY:
            raise GuandanError.said(N_("the module of agent tier {name} did not register it"), name=shown(name))

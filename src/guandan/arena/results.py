"""Arena results files: one JSON line per finished deal pair, so a long measurement survives being
stopped, resumes where it stopped, and can be split over machines (``--first``) and merged.

Each line is ``{"format": "guandan-arena-pair/1", "setup": {...}, "pair": {...}}``. ``setup`` is
what decides the games (agents, preset, deal seed, budgets, move mode, and every option value each
agent ran with, its tier's defaults included: ``a_options`` / ``b_options``); pairs from different
setups never mix. A pair index identifies one deal spec, so the same index in two files is the same deal.

A pair in which a side answered an action that was not legal keeps that side's first such answer as
``first_illegal_a`` / ``first_illegal_b``: ``{"seat": 2, "phase": "play", "problem": "not_in_hand", "answer":
{"seat": 2, "kind": "play", "cards": ["H3", "H3"]}}`` (``problem`` one of
:data:`~guandan.agents.fallback.PROBLEMS`, ``answer`` as :func:`~guandan.agents.fallback.answer_record` writes
it). Files written before these keys count such answers only; they read and resume as ever, since the keys
are not part of the setup.

Files written before the option values were recorded lack the two keys: they still read, summarize
and compare, but cannot be resumed, since the defaults behind their specs may have changed since. An
option a tier gained after a file was written is read as the value that plays as the tier did then
(:attr:`~guandan.agents.base.Option.before`), so such a file joins and resumes with today's runs.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..agents.base import recorded_options_of, resolved_options
from ..agents.fallback import PROBLEMS
from ..cliutil import cell
from ..core.errors import GuandanError, shown
from ..core.record import FORMAT as RECORD_FORMAT
from ..core.vocab import Phase
from ..i18n import N_
from ..i18n.reasons import json_problem, os_reason
from .runner import HalfResult, IllegalAnswer, PairResult, Setup

FORMAT = "guandan-arena-pair/1"
SETUP_KEYS = ("a", "b", "preset", "seed", "budget_a", "budget_b", "move_mode")
OPTION_KEYS = ("a_options", "b_options")  # every option value of each agent (absent from older files)
ILLEGAL_KEYS = ("first_illegal_a", "first_illegal_b")  # a pair's first illegal answers (absent from older files)


def setup_key(setup: Setup) -> dict[str, Any]:
    """The fields of ``setup`` that decide the games (not where records go or bots are found)."""
    key = {k: getattr(setup, k) for k in SETUP_KEYS}
    key["move_mode"] = setup.move_mode.value  # the plain string a results file holds
    key["a_options"] = resolved_options(setup.a)
    key["b_options"] = resolved_options(setup.b)
    return key


def recorded_options(setup: dict[str, Any]) -> bool:
    """Whether a file's setup records the agents' option values (files before them do not)."""
    return all(k in setup for k in OPTION_KEYS)


def show_value(v: Any) -> str:
    """A setup or option value in words: ``none``, ``on``/``off``, numbers as written."""
    return ("on" if v else "off") if isinstance(v, bool) else cell(v, "g", "none")


def show_options(options: dict[str, Any]) -> str:
    """Option values as a spec writes them: ``confidence=1 endgame=on …`` (— for none)."""
    return " ".join(f"{k}={show_value(v)}" for k, v in sorted(options.items())) or "—"


#: How a setup field is named in a message: the option that sets it.
_FIELD_OPTIONS = {"a": "--a", "b": "--b", "preset": "--preset", "seed": "--seed", "budget_a": "--budget-a",
                  "budget_b": "--budget-b", "move_mode": "--move-mode"}
#: One difference between two setups, by where the first setup comes from (``where``).
_DIFFERENCES = {"": N_("{field} {old} vs {new}"), "file": N_("{field} {old} in the file vs {new}"),
                "first": N_("{field} {old} in --first vs {new}")}
_UNRECORDED = {("", True): N_("option values recorded vs not recorded"),
               ("", False): N_("option values not recorded vs recorded"),
               ("file", True): N_("option values recorded in the file vs not recorded"),
               ("file", False): N_("option values not recorded in the file vs recorded")}


def setup_diff(old: dict[str, Any], new: dict[str, Any], where: str = "", keys: Sequence[str] = SETUP_KEYS,
               note_unrecorded: bool = True, gettext: Callable[[str], str] = str) -> str:
    """The fields two setups differ in, in the language of ``gettext``: ``--seed 3 in the file vs 4`` or
    ``A's win_bonus 0 in the file vs 1`` (``where``: "file", "first" or "" for where ``old`` comes from);
    the options of the agents among ``keys`` are compared where both setups record them (and, with
    ``note_unrecorded``, a setup that records none against one that does is named too)."""
    _ = gettext

    def value(v: Any) -> str:
        return _("none") if v is None else show_value(v)

    out = [_(_DIFFERENCES[where]).format(field=_FIELD_OPTIONS.get(k, k), old=value(old[k]), new=value(new[k]))
           for k in keys if old[k] != new[k]]
    for side in ("a", "b"):
        k = f"{side}_options"
        if side not in keys or k not in old or k not in new:
            continue
        whose = _("A's {option}") if side == "a" else _("B's {option}")
        for name in sorted(set(old[k]) | set(new[k])):
            was, now = old[k].get(name, "—"), new[k].get(name, "—")
            if was != now:
                out.append(_(_DIFFERENCES[where]).format(field=whose.format(option=name), old=value(was),
                                                         new=value(now)))
    if note_unrecorded and recorded_options(old) != recorded_options(new):
        out.append(_(_UNRECORDED[where, recorded_options(old)]))
    return _(", ").join(out)


def pair_line(setup: Setup, pair: PairResult) -> str:
    return json.dumps({"format": FORMAT, "setup": setup_key(setup), "pair": _pair_json(pair)}, separators=(",", ":"))


def _pair_json(pair: PairResult) -> dict[str, Any]:
    """A pair as its line holds it: each side's first illegal answer only where it gave one (the agent and the
    pair are the line's own)."""
    d = asdict(pair)
    for k in ILLEGAL_KEYS:
        first = getattr(pair, k)
        if first is None:
            del d[k]
        else:
            d[k] = first.to_json()
    return d


def _field(d: dict[str, Any], key: str, read: Callable[[Any], Any], where: str, half: bool) -> Any:
    """``d[key]`` read with ``read``, or an error naming the line, the field and its value."""
    if key not in d:
        msgid = N_("{where}: a half has no field {field}") if half else N_("{where}: the pair has no field {field}")
        raise GuandanError.said(msgid, where=where, field=shown(key))
    try:
        return read(d[key])
    except (TypeError, ValueError, AttributeError):
        msgid = (N_("{where}: a half's field {field} is not valid: {value}") if half
                 else N_("{where}: the pair's field {field} is not valid: {value}"))
        raise GuandanError.said(msgid, where=where, field=shown(key), value=shown(d[key])) from None


def _ints(v: Any) -> list[int]:
    return [_int(x) for x in v]


def _int(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != int(v):
        raise ValueError(v)
    return int(v)


def _number(v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError(v)
    return float(v)


def _truth(v: Any) -> bool:
    if not isinstance(v, bool):
        raise ValueError(v)
    return v


def _counts(v: Any) -> dict[str, int]:
    return {str(k): _int(n) for k, n in v.items()}


def _illegal(agent: str, index: int) -> Callable[[Any], IllegalAnswer]:
    """A reader of a pair's first illegal answer of ``agent``: ``{"seat", "phase", "problem", "answer"}``."""

    def read(v: Any) -> IllegalAnswer:
        if not isinstance(v, dict) or set(v) != {"seat", "phase", "problem", "answer"}:
            raise ValueError(v)
        if v["phase"] not in _PHASES or v["problem"] not in PROBLEMS:
            raise ValueError(v)
        seat = _int(v["seat"])
        if seat not in range(4):
            raise ValueError(v)
        return IllegalAnswer(agent, index, seat, v["phase"], v["problem"], v["answer"])

    return read


_PHASES = tuple(p.value for p in Phase if p != Phase.OVER)


def _half(d: Any, where: str) -> HalfResult:
    if not isinstance(d, dict):
        raise GuandanError.said(N_("{where}: a half must be an object"), where=where)
    return HalfResult(_field(d, "a_seats", _int, where, True), _field(d, "a_won", _truth, where, True),
                      _field(d, "a_points", _number, where, True), _field(d, "double", _truth, where, True),
                      _field(d, "hands", lambda v: tuple(tuple(_ints(h)) for h in v), where, True),
                      _field(d, "finish", _ints, where, True))


def _check_seating(pair: PairResult, where: str) -> None:
    """Refuse a pair that is not one deal played twice with the seats swapped, naming what is wrong in a player's
    seat numbers (1…4): a half's ``a_seats`` is 0 for A at seats 1 and 3, 1 for A at seats 2 and 4."""
    if pair.index < 0:
        raise GuandanError.said(N_("{where}: pair index {index} is negative: pairs are numbered from 0"),
                                where=where, index=pair.index)
    if len(pair.halves) != 2:
        raise GuandanError.said(N_("{where}: a pair has two halves; pair {index} has {count}"), where=where,
                                index=pair.index, count=len(pair.halves))
    for half, h in enumerate(pair.halves, 1):
        if h.a_seats not in (0, 1):
            raise GuandanError.said(N_("{where}: half {half} of pair {index} has a_seats {value}, not 0 (A at seats 1 "
                                       "and 3) or 1 (A at seats 2 and 4)"), where=where, half=half, index=pair.index,
                                    value=h.a_seats)
    first, second = (h.a_seats for h in pair.halves)
    if first == second:
        raise GuandanError.said(N_("{where}: A sat at seats {a} and {b} in both halves of pair {index}, not once at "
                                   "1 and 3 and once at 2 and 4"), where=where, a=first + 1, b=first + 3,
                                index=pair.index)


def parse_line(text: str, where: str) -> tuple[dict[str, Any], PairResult]:
    """One results line → (setup key, pair). Errors name ``where`` (file:line) and the problem."""
    try:
        d = json.loads(text)
    except json.JSONDecodeError as e:
        raise GuandanError.said(N_("{where}: not JSON ({reason})"), where=where, reason=json_problem(e)) from None
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise GuandanError.said(N_("{where}: not an arena pair line (format must be {format})"), where=where,
                                format=shown(FORMAT))
    setup, p = d.get("setup"), d.get("pair")
    if not isinstance(setup, dict) or set(setup) not in (set(SETUP_KEYS), {*SETUP_KEYS, *OPTION_KEYS}):
        raise GuandanError.said(N_("{where}: setup must have exactly {keys} (and {options})"), where=where,
                                keys=", ".join(SETUP_KEYS), options=", ".join(OPTION_KEYS))
    for side, k in zip(("a", "b"), OPTION_KEYS, strict=True):
        opts = setup.get(k, {})
        if not isinstance(opts, dict) or not all(
                isinstance(v, (bool, int, float)) for v in opts.values()):
            raise GuandanError.said(N_("{where}: setup's {key} must be an object of option values (numbers, true "
                                       "or false)"), where=where, key=k)
        if k in setup and isinstance(setup[side], str):
            setup[k] = recorded_options_of(setup[side], opts)
    if not isinstance(p, dict):
        raise GuandanError.said(N_("{where}: pair must be an object"), where=where)
    halves = _field(p, "halves", lambda v: [_half(h, where) for h in v], where, False)
    pair = PairResult(_field(p, "index", _int, where, False), halves,
                      _field(p, "a_times", lambda v: [_number(t) for t in v], where, False),
                      _field(p, "b_times", lambda v: [_number(t) for t in v], where, False),
                      _field(p, "illegal_a", _int, where, False), _field(p, "illegal_b", _int, where, False),
                      _field(p, "cpu_seconds", _number, where, False),
                      _field(p, "bot_failures_a", _counts, where, False) if "bot_failures_a" in p else {},
                      _field(p, "bot_failures_b", _counts, where, False) if "bot_failures_b" in p else {})
    for side, k in zip(("a", "b"), ILLEGAL_KEYS, strict=True):
        if k in p:
            setattr(pair, k, _field(p, k, _illegal(str(setup[side]), pair.index), where, False))
    _check_seating(pair, where)
    if halves[0].hands != halves[1].hands:
        raise GuandanError.said(N_("{where}: the two halves of pair {index} were dealt different hands"), where=where,
                                index=pair.index)
    return setup, pair


def _read_text(path: Path) -> str:
    """A results file's text; ``*.gz`` files (as kept for the README's figures) are read unzipped."""
    try:
        raw = path.read_bytes()
        return (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode("utf-8")
    except gzip.BadGzipFile:  # an OSError too: caught first
        raise GuandanError.said(N_("{path} ends in .gz but is not gzip data"), path=path) from None
    except OSError as e:
        raise GuandanError.said(N_("cannot read {path}: {reason}"), path=path, reason=os_reason(e)) from None
    except (EOFError, zlib.error):
        raise GuandanError.said(N_("{path} is cut short or damaged gzip data"), path=path) from None
    except UnicodeDecodeError:
        raise GuandanError.said(N_("{path} is not UTF-8 text: not an arena results file"), path=path) from None


def _not_a_record(text: str, path: Path) -> None:
    """Refuse a match record (the other JSON file the commands write) by name: read line by line it is only
    "not JSON" at its first line, which says nothing of the mix-up."""
    if not text.lstrip().startswith("{") or f'"{RECORD_FORMAT}"' not in text[:4096]:
        return
    try:
        d = json.loads(text)
    except json.JSONDecodeError:
        return
    if isinstance(d, dict) and d.get("format") == RECORD_FORMAT:
        raise GuandanError.said(N_("{path} is a match record, not an arena results file (arena --results writes "
                                   "those)"), path=path)


def read_results(paths: Iterable[Path], gettext: Callable[[str], str] = str
                 ) -> tuple[dict[str, Any] | None, dict[int, PairResult]]:
    """Every pair in ``paths``, by index. All lines must share one setup; an index seen twice must
    be the same games (the same deal spec played the same way), else the files disagree. A setup's
    difference is named in the language of ``gettext``."""
    setup: dict[str, Any] | None = None
    pairs: dict[int, PairResult] = {}
    for path in paths:
        text = _read_text(path)
        _not_a_record(text, path)
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            where = f"{path}:{n}"
            s, pair = parse_line(line, where)
            if setup is None:
                setup = s
            elif s != setup:
                raise GuandanError.said(N_("{where}: another setup than the lines before ({difference})"),
                                        where=where, difference=setup_diff(setup, s, gettext=gettext))
            old = pairs.get(pair.index)
            if old is not None and [(h.a_won, h.a_points, h.hands) for h in old.halves] != [
                    (h.a_won, h.a_points, h.hands) for h in pair.halves]:
                raise GuandanError.said(N_("{where}: pair {index} appears twice with different results"), where=where,
                                        index=pair.index)
            pairs.setdefault(pair.index, pair)
    return setup, pairs


def append_pairs(path: Path, setup: Setup, pairs: Sequence[PairResult]) -> None:
    """Append and flush at once: what is written survives the run being stopped. A ``*.gz`` file
    gets each batch as one more gzip member, which a reader unzips as the lines of all members."""
    text = "".join(pair_line(setup, p) + "\n" for p in pairs).encode("utf-8")
    with path.open("ab") as f:
        f.write(gzip.compress(text) if path.suffix == ".gz" else text)
        f.flush()


__all__ = ["FORMAT", "ILLEGAL_KEYS", "OPTION_KEYS", "append_pairs", "pair_line", "parse_line", "read_results", "recorded_options",
           "setup_diff", "setup_key", "show_options"]

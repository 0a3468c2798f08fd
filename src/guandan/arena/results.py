"""Arena results files: one JSON line per finished deal pair, so a long measurement survives being
stopped, resumes where it stopped, and can be split over machines (``--first``) and merged.

Each line is ``{"format": "guandan-arena-pair/1", "setup": {...}, "pair": {...}}``. ``setup`` is
what decides the games (agents, preset, deal seed, budgets, move mode, and every option value each
agent ran with, its tier's defaults included: ``a_options`` / ``b_options``); pairs from different
setups never mix. A pair index identifies one deal spec, so the same index in two files is the same deal.

Files written before the option values were recorded lack the two keys: they still read, summarize
and compare, but cannot be resumed, since the defaults behind their specs may have changed since.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..agents.base import resolved_options
from ..cliutil import cell
from ..core.errors import GuandanError, shown
from .runner import HalfResult, PairResult, Setup

FORMAT = "guandan-arena-pair/1"
SETUP_KEYS = ("a", "b", "preset", "seed", "budget_a", "budget_b", "move_mode")
OPTION_KEYS = ("a_options", "b_options")  # every option value of each agent (absent from older files)


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


def setup_diff(old: dict[str, Any], new: dict[str, Any], where: str = "", keys: Sequence[str] = SETUP_KEYS,
               note_unrecorded: bool = True) -> str:
    """The fields two setups differ in, e.g. ``seed 3 in the file vs 4`` or ``a's win_bonus 0 in the
    file vs 1``; the options of the agents among ``keys`` are compared where both setups record them
    (and, with ``note_unrecorded``, a setup that records none against one that does is named too)."""
    out = [f"{k} {show_value(old[k])}{where} vs {show_value(new[k])}" for k in keys if old[k] != new[k]]
    for side in ("a", "b"):
        k = f"{side}_options"
        if side not in keys or k not in old or k not in new:
            continue
        for name in sorted(set(old[k]) | set(new[k])):
            was, now = old[k].get(name, "—"), new[k].get(name, "—")
            if was != now:
                out.append(f"{side}'s {name} {show_value(was)}{where} vs {show_value(now)}")
    if note_unrecorded and recorded_options(old) != recorded_options(new):
        out.append(f"option values {'recorded' if recorded_options(old) else 'not recorded'}{where} vs "
                   f"{'recorded' if recorded_options(new) else 'not recorded'}")
    return ", ".join(out)


def pair_line(setup: Setup, pair: PairResult) -> str:
    return json.dumps({"format": FORMAT, "setup": setup_key(setup), "pair": asdict(pair)}, separators=(",", ":"))


def _why(e: Exception) -> str:
    """What was wrong with a line's field, in words (a KeyError's text is only the key's repr)."""
    return f"no field {e.args[0]}" if isinstance(e, KeyError) and e.args else str(e)


def _half(d: Any, where: str) -> HalfResult:
    if not isinstance(d, dict):
        raise GuandanError(f"{where}: a half must be an object")
    try:
        return HalfResult(int(d["a_seats"]), bool(d["a_won"]), float(d["a_points"]), bool(d["double"]),
                          tuple(tuple(int(c) for c in h) for h in d["hands"]), [int(s) for s in d["finish"]])
    except (KeyError, TypeError, ValueError) as e:
        raise GuandanError(f"{where}: a half is malformed ({_why(e)})") from None


def parse_line(text: str, where: str) -> tuple[dict[str, Any], PairResult]:
    """One results line → (setup key, pair). Errors name ``where`` (file:line) and the problem."""
    try:
        d = json.loads(text)
    except json.JSONDecodeError as e:
        raise GuandanError(f"{where}: not JSON ({e.msg})") from None
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise GuandanError(f"{where}: not an arena pair line (format must be {shown(FORMAT)})")
    setup, p = d.get("setup"), d.get("pair")
    if not isinstance(setup, dict) or set(setup) not in (set(SETUP_KEYS), {*SETUP_KEYS, *OPTION_KEYS}):
        raise GuandanError(f"{where}: setup must have exactly {', '.join(SETUP_KEYS)} (and {' and '.join(OPTION_KEYS)})")
    for k in OPTION_KEYS:
        opts = setup.get(k, {})
        if not isinstance(opts, dict) or not all(
                isinstance(v, (bool, int, float)) for v in opts.values()):
            raise GuandanError(f"{where}: setup's {k} must be an object of option values (numbers, true or false)")
    if not isinstance(p, dict):
        raise GuandanError(f"{where}: pair must be an object")
    try:
        halves = [_half(h, where) for h in p["halves"]]
        pair = PairResult(int(p["index"]), halves, [float(t) for t in p["a_times"]], [float(t) for t in p["b_times"]],
                          int(p["illegal_a"]), int(p["illegal_b"]), float(p["cpu_seconds"]),
                          {str(k): int(v) for k, v in p.get("bot_failures_a", {}).items()},
                          {str(k): int(v) for k, v in p.get("bot_failures_b", {}).items()})
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise GuandanError(f"{where}: pair is malformed ({_why(e)})") from None
    if len(halves) != 2 or {h.a_seats for h in halves} != {0, 1} or pair.index < 0:
        raise GuandanError(f"{where}: a pair has two halves, A at seats 0/2 then 1/3, and an index ≥ 0")
    if halves[0].hands != halves[1].hands:
        raise GuandanError(f"{where}: the two halves of pair {pair.index} were dealt different hands")
    return setup, pair


def _read_text(path: Path) -> str:
    """A results file's text; ``*.gz`` files (as kept for the README's figures) are read unzipped."""
    try:
        raw = path.read_bytes()
        return (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode("utf-8")
    except gzip.BadGzipFile:  # an OSError too: caught first
        raise GuandanError(f"{path} ends in .gz but is not gzip data") from None
    except OSError as e:
        raise GuandanError(f"cannot read {path}: {e.strerror}") from None
    except (EOFError, zlib.error):
        raise GuandanError(f"{path} is cut short or damaged gzip data") from None
    except UnicodeDecodeError:
        raise GuandanError(f"{path} is not UTF-8 text: not an arena results file") from None


def read_results(paths: Iterable[Path]) -> tuple[dict[str, Any] | None, dict[int, PairResult]]:
    """Every pair in ``paths``, by index. All lines must share one setup; an index seen twice must
    be the same games (the same deal spec played the same way), else the files disagree."""
    setup: dict[str, Any] | None = None
    pairs: dict[int, PairResult] = {}
    for path in paths:
        text = _read_text(path)
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            where = f"{path}:{n}"
            s, pair = parse_line(line, where)
            if setup is None:
                setup = s
            elif s != setup:
                raise GuandanError(f"{where}: another setup than the lines before ({setup_diff(setup, s)})")
            old = pairs.get(pair.index)
            if old is not None and [(h.a_won, h.a_points, h.hands) for h in old.halves] != [
                    (h.a_won, h.a_points, h.hands) for h in pair.halves]:
                raise GuandanError(f"{where}: pair {pair.index} appears twice with different results")
            pairs.setdefault(pair.index, pair)
    return setup, pairs


def append_pairs(path: Path, setup: Setup, pairs: Sequence[PairResult]) -> None:
    """Append and flush at once: what is written survives the run being stopped."""
    with path.open("a", encoding="utf-8") as f:
        for p in pairs:
            f.write(pair_line(setup, p) + "\n")
        f.flush()


__all__ = ["FORMAT", "OPTION_KEYS", "append_pairs", "pair_line", "parse_line", "read_results", "recorded_options",
           "setup_diff", "setup_key", "show_options"]

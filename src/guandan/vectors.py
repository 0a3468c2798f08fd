"""The rules-vector runner (RULES.md §9): settles rule disputes from a JSONL file of test vectors.

Each kind has a checker that computes the engine's answer; the runner compares it with ``expect``.
Kinds without a checker are counted as skipped and listed, never silently passed. The checkers live
in the layers that know the answers and register here with :func:`checker`; the runner finds their
modules through :mod:`guandan.plugins`, so it never imports them itself.

The runner never stops at a bad vector: a line that is not JSON, a vector without ``id``/``kind``/
``expect``, a missing or mistyped field, or a vector the engine cannot evaluate each become one failed
outcome whose error says ``cannot evaluate: …`` and why, and the run goes on with the next vector.
Checkers read their fields with :func:`field` and :func:`parsed`, which name the field at fault.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import plugins
from .core.errors import GuandanError
from .core.params import Phrase
from .i18n import N_
from .i18n.reasons import json_problem, os_reason

Checker = Callable[[dict[str, Any]], Any]
CHECKERS: dict[str, Checker] = {}
COMPARERS: dict[str, Callable[[Any, Any], bool]] = {}
CANNOT = "cannot evaluate: "


class VectorError(GuandanError):
    """A vector the engine cannot evaluate: a field missing or of the wrong type or value, named."""


def checker(kind: str, compare: Callable[[Any, Any], bool] | None = None) -> Callable[[Checker], Checker]:
    """Register the function that computes the engine's answer for one vector kind."""

    def register(fn: Checker) -> Checker:
        CHECKERS[kind] = fn
        if compare is not None:
            COMPARERS[kind] = compare
        return fn

    return register


# --- reading a vector's fields ------------------------------------------------------------------
_MISSING = object()


def json_type(value: Any) -> Phrase:
    """What a JSON value is, in words (never a Python type name)."""
    if value is None:
        return Phrase(N_("null"))
    if isinstance(value, bool):
        return Phrase(N_("a boolean"))
    if isinstance(value, int | float):
        return Phrase(N_("a number"))
    if isinstance(value, str):
        return Phrase(N_("a string"))
    if isinstance(value, list | tuple):
        return Phrase(N_("a list"))
    if isinstance(value, dict):
        return Phrase(N_("an object"))
    return Phrase(N_("not a JSON value"))


def _is(value: Any, types: type | tuple[type, ...]) -> bool:
    types = types if isinstance(types, tuple) else (types,)
    if isinstance(value, bool) and bool not in types:
        return False  # JSON true/false is no number here
    return isinstance(value, types)


def field(obj: Mapping[str, Any], name: str, types: type | tuple[type, ...], what: str, *, where: str = "",
          default: Any = _MISSING) -> Any:
    """``obj[name]`` if it is of ``types`` (described to a person as ``what``, a msgid); a
    :class:`VectorError` naming the field (``where.name``) if it is missing (and no ``default`` is given)
    or mistyped. A ``default`` also stands for an explicit ``null``."""
    label = f"{where}.{name}" if where else name
    value = obj.get(name, _MISSING)
    if value is _MISSING or (value is None and default is not _MISSING and not _is(None, types)):
        if default is _MISSING:
            raise VectorError.said(N_("missing field '{field}' ({what})"), field=label, what=Phrase(what))
        return default
    if not _is(value, types):
        raise VectorError.said(N_("field '{field}' must be {what}, not {found}"), field=label, what=Phrase(what),
                               found=json_type(value))
    return value


def parsed(label: str, parse: Callable[..., Any], *args: Any) -> Any:
    """``parse(*args)``, with an engine error (bad cards, unknown preset, …) reported against ``label``."""
    try:
        return parse(*args)
    except VectorError:
        raise
    except GuandanError as e:
        raise VectorError.said(N_("field '{field}': {problem}"), field=label, problem=e) from None


# --- outcomes -----------------------------------------------------------------------------------
@dataclass
class Outcome:
    """One vector's verdict. ``error`` is the failure in the engine's words, for programs; ``problem`` the
    same, said in the reader's language by :func:`format_report`."""

    vector_id: str
    kind: str
    ok: bool
    expected: Any = None
    actual: Any = None
    error: str | None = None
    problem: GuandanError | None = None


def _failed(vid: str, kind: str, problem: GuandanError, expected: Any = None, actual: Any = None) -> Outcome:
    """A vector that could not be evaluated (or compared): its outcome names why."""
    return Outcome(vid, kind, False, expected, actual, str(problem), problem)


def _cannot(problem: GuandanError) -> GuandanError:
    return GuandanError.said(N_("cannot evaluate: {problem}"), problem=problem)


@dataclass
class Report:
    outcomes: list[Outcome] = dataclasses.field(default_factory=list)
    skipped: dict[str, int] = dataclasses.field(default_factory=dict)

    @property
    def passed(self) -> int:
        return sum(o.ok for o in self.outcomes)

    @property
    def failed(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.ok]


class Unreadable(dict[str, Any]):
    """A line of a vector file that is no vector (not JSON, not an object, no ``id``/``kind``):
    :func:`run_vectors` reports it as one failure and goes on."""

    def __init__(self, where: str, problem: GuandanError) -> None:
        super().__init__(id=where, kind="")
        self.where = where
        self.problem = problem


def _line_problem(v: Any) -> GuandanError | None:
    if not isinstance(v, dict):
        return GuandanError.said(N_("a vector must be a JSON object, not {found}"), found=json_type(v))
    for key in ("id", "kind"):
        if key not in v:
            return GuandanError.said(N_("a vector must have '{key}'"), key=key)
    if not isinstance(v["kind"], str) or not v["kind"]:
        return GuandanError.said(N_("'kind' must be a non-empty string, not {found}"), found=json_type(v["kind"]))
    if not _is(v["id"], (str, int)):
        return GuandanError.said(N_("'id' must be a string or a number, not {found}"), found=json_type(v["id"]))
    return None


def load_vectors(path: str | Path) -> list[dict[str, Any]]:
    """Parse a JSONL vector file. A line that is no vector comes back as :class:`Unreadable` (its
    failure names the line); a file that cannot be read, or none of whose lines is a vector, raises
    a :class:`GuandanError` naming the reason."""
    out: list[dict[str, Any]] = []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise GuandanError.said(N_("cannot read vector file {path}: {reason}"), path=path, reason=os_reason(e)) from None
    except UnicodeDecodeError:
        raise GuandanError.said(N_("vector file {path} is not UTF-8 text"), path=path) from None
    bad: list[Unreadable] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            v = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as e:
            problem = GuandanError.said(N_("not valid JSON ({reason})"), reason=json_problem(e)) \
                if isinstance(e, json.JSONDecodeError) else GuandanError.said(N_("not valid JSON (nested too deeply)"))
            bad.append(Unreadable(f"{path}:{n}", problem))
            out.append(bad[-1])
            continue
        wrong = _line_problem(v)
        if wrong is not None:
            bad.append(Unreadable(f"{path}:{n}", wrong))
            out.append(bad[-1])
            continue
        out.append(v)
    if bad and len(bad) == len(out):
        raise GuandanError.said(N_("{path} holds no rules vector (line {line}: {problem})"), path=path,
                                line=bad[0].where.rsplit(':', 1)[1], problem=bad[0].problem)
    return out


def _equal(expected: Any, actual: Any) -> bool:
    return bool(expected == actual)


def _describe(e: Exception) -> GuandanError:
    """A checker's unexpected exception, in words: most are a field of an unforeseen shape."""
    if isinstance(e, GuandanError):
        return e
    if isinstance(e, KeyError):
        return GuandanError.said(N_("missing field '{field}'"), field=str(e.args[0]) if e.args else "?")
    return GuandanError.said(N_("a field has an unexpected type or value ({detail})"),
                             detail=f"{type(e).__name__}: {e}")


def run_vectors(vectors: Iterable[Any], kinds: set[str] | None = None) -> Report:
    """Check every vector whose kind has a checker; one :class:`Outcome` each, whatever is wrong
    with a vector (see the module doc)."""
    _load_checkers()
    report = Report()
    for i, v in enumerate(vectors, 1):
        if isinstance(v, Unreadable):
            report.outcomes.append(_failed(v.where, "", _cannot(v.problem)))
            continue
        problem = _line_problem(v)
        if problem is not None:
            given = v if isinstance(v, dict) else {}
            vid = given["id"] if _is(given.get("id"), (str, int)) else f"vector {i}"
            kind = given["kind"] if isinstance(given.get("kind"), str) else ""
            report.outcomes.append(_failed(str(vid), kind, _cannot(problem)))
            continue
        kind, vid = v["kind"], str(v["id"])
        fn = CHECKERS.get(kind)
        if fn is None or (kinds is not None and kind not in kinds):
            report.skipped[kind] = report.skipped.get(kind, 0) + 1
            continue
        if "expect" not in v:
            report.outcomes.append(_failed(vid, kind, _cannot(GuandanError.said(
                N_("missing field '{field}' ({what})"), field="expect", what=Phrase(N_("the answer"))))))
            continue
        expected = v["expect"]
        try:
            actual = fn(v)
        except Exception as e:  # one bad vector must never end the run
            report.outcomes.append(_failed(vid, kind, _cannot(_describe(e)), expected))
            continue
        try:
            ok = COMPARERS.get(kind, _equal)(expected, actual)
        except Exception as e:
            report.outcomes.append(_failed(vid, kind, GuandanError.said(
                N_("cannot compare with 'expect' (of the wrong shape for {kind}): {problem}"), kind=kind,
                problem=_describe(e)), expected, actual))
            continue
        report.outcomes.append(Outcome(vid, kind, bool(ok), expected, actual))
    return report


def _load_checkers() -> None:
    """Import every module of checkers (pyproject.toml's ``guandan.vector_kinds`` entry points: the
    engine's kinds in :mod:`guandan.vector_kinds`, the tournament's in ``guandan.tournament``)."""
    plugins.load(plugins.VECTOR_KINDS)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def format_report(report: Report, gettext: Callable[[str], str] = str,
                  say: Callable[[GuandanError], str] = str) -> str:
    """The report a person reads: each failure with what was expected and found, the kinds skipped, and
    the counts, in the words of ``gettext`` (a catalogue's, for the ``cli`` domain) with each failure said
    by ``say`` (guandan.cliutil.said); English by default. The vectors' ids, kinds and JSON stay as written
    in the file."""
    _ = gettext
    lines: list[str] = []
    for o in report.failed:
        lines.append(_("FAIL {id} ({kind})").format(id=o.vector_id, kind=o.kind or _("no kind")))
        if o.problem is not None:
            lines.append("  " + say(o.problem))
        elif o.error:
            lines.append(f"  {o.error}")
        if o.expected is not None or not o.error:
            lines.append("  " + _("expected: {value}").format(value=_json(o.expected)))
        if o.actual is not None or not o.error:
            lines.append("  " + _("actual:   {value}").format(value=_json(o.actual)))
    if report.skipped:
        listed = ", ".join(f"{k} ({n})" for k, n in sorted(report.skipped.items()))
        lines.append(_("skipped kinds not covered by this engine: {kinds}").format(kinds=listed))
    skipped = sum(report.skipped.values())
    counts = {"passed": report.passed, "failed": len(report.failed), "skipped": skipped}
    lines.append((_("{passed} passed, {failed} failed, {skipped} skipped") if skipped
                  else _("{passed} passed, {failed} failed")).format(**counts))
    return "\n".join(lines)


__all__ = [
    "CANNOT",
    "CHECKERS",
    "COMPARERS",
    "Checker",
    "Outcome",
    "Report",
    "Unreadable",
    "VectorError",
    "checker",
    "field",
    "format_report",
    "json_type",
    "load_vectors",
    "parsed",
    "run_vectors",
]

"""The rules-vector runner (RULES.md §9): settles rule disputes from a JSONL file of test vectors.

Each kind has a checker that computes the engine's answer; the runner compares it with ``expect``.
Kinds without a checker are counted as skipped and listed, never silently passed. The checkers live
in the layers that know the answers and register here with :func:`checker`; the runner finds their
modules through :mod:`guandan.plugins`, so it never imports them itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import plugins
from .core.errors import GuandanError

Checker = Callable[[dict[str, Any]], Any]
CHECKERS: dict[str, Checker] = {}
COMPARERS: dict[str, Callable[[Any, Any], bool]] = {}


def checker(kind: str, compare: Callable[[Any, Any], bool] | None = None) -> Callable[[Checker], Checker]:
    """Register the function that computes the engine's answer for one vector kind."""

    def register(fn: Checker) -> Checker:
        CHECKERS[kind] = fn
        if compare is not None:
            COMPARERS[kind] = compare
        return fn

    return register


@dataclass
class Outcome:
    vector_id: str
    kind: str
    ok: bool
    expected: Any = None
    actual: Any = None
    error: str | None = None


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)

    @property
    def passed(self) -> int:
        return sum(o.ok for o in self.outcomes)

    @property
    def failed(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.ok]


def load_vectors(path: str | Path) -> list[dict[str, Any]]:
    """Parse a JSONL vector file; a malformed line raises an error naming its line number."""
    out: list[dict[str, Any]] = []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise GuandanError(f"cannot read vector file {path}: {e.strerror}") from None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            v = json.loads(line)
        except json.JSONDecodeError as e:
            raise GuandanError(f"{path}:{n}: not valid JSON ({e.msg})") from None
        if not isinstance(v, dict) or "kind" not in v or "id" not in v:
            raise GuandanError(f"{path}:{n}: a vector must be an object with 'id' and 'kind'")
        out.append(v)
    return out


def _equal(expected: Any, actual: Any) -> bool:
    return bool(expected == actual)


def run_vectors(vectors: Iterable[dict[str, Any]], kinds: set[str] | None = None) -> Report:
    _load_checkers()
    report = Report()
    for v in vectors:
        kind = v["kind"]
        fn = CHECKERS.get(kind)
        if fn is None or (kinds is not None and kind not in kinds):
            report.skipped[kind] = report.skipped.get(kind, 0) + 1
            continue
        expected = v.get("expect")
        try:
            actual = fn(v)
        except GuandanError as e:
            report.outcomes.append(Outcome(v["id"], kind, False, expected, None, f"{type(e).__name__}: {e}"))
            continue
        ok = COMPARERS.get(kind, _equal)(expected, actual)
        report.outcomes.append(Outcome(v["id"], kind, ok, expected, actual))
    return report


def _load_checkers() -> None:
    """Import every module of checkers (pyproject.toml's ``guandan.vector_kinds`` entry points: the
    engine's kinds in :mod:`guandan.vector_kinds`, the tournament's in ``guandan.tournament``)."""
    plugins.load(plugins.VECTOR_KINDS)


def format_report(report: Report) -> str:
    lines: list[str] = []
    for o in report.failed:
        lines.append(f"FAIL {o.vector_id} ({o.kind})")
        lines.append(f"  expected: {json.dumps(o.expected, ensure_ascii=False)}")
        if o.error:
            lines.append(f"  error:    {o.error}")
        else:
            lines.append(f"  actual:   {json.dumps(o.actual, ensure_ascii=False, default=str)}")
    if report.skipped:
        listed = ", ".join(f"{k} ({n})" for k, n in sorted(report.skipped.items()))
        lines.append(f"skipped kinds not covered by this engine: {listed}")
    skipped = sum(report.skipped.values())
    tail = f", {skipped} skipped" if skipped else ""
    lines.append(f"{report.passed} passed, {len(report.failed)} failed{tail}")
    return "\n".join(lines)

"""The compiled hot paths: which modules mypyc compiles, and whether this process runs them compiled.

The engine's move generation and deal stepping, and the agents' playout policy and search, are
compiled with mypyc from the very same Python sources (there is no second implementation). The
build (``setup.py``) compiles :data:`MODULES` into one shared library; this module decides at import
time whether the compiled extensions or the sources run, and it is all or nothing, because compiled
modules call each other directly and a mix would hold two copies of one class:

* ``GUANDAN_PURE_PYTHON=1`` runs the sources;
* so does a build that failed or was skipped (no extension beside a source);
* so does a stale build: the sources' digests are recorded at build time
  (:data:`MANIFEST`), and an extension whose source has changed since is never run — a warning says
  so and names the command that rebuilds.

:func:`install` is called by ``guandan/__init__.py`` before anything else of the package is imported.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, cast

MODULES: tuple[str, ...] = (
    "guandan.core.cards",
    "guandan.core.combos",
    "guandan.core.moves",
    "guandan.core.deal",
    "guandan.core.turns",
    "guandan.core.tribute",
    "guandan.core.scoring",
    "guandan.agents.arrange",
    "guandan.agents.belief",
    "guandan.agents.counting",
    "guandan.agents.decompose",
    "guandan.agents.endgame",
    "guandan.agents.greedy",
    "guandan.agents.heuristic",
    "guandan.agents.inference",
    "guandan.agents.policy",
    "guandan.agents.random_agent",
    "guandan.agents.search",
    "guandan.agents.worlds",
)
"""Every module compiled by mypyc (the hot paths: profile first before adding one)."""

PURE_ENV = "GUANDAN_PURE_PYTHON"
MANIFEST = "native-build.json"  # beside this file: {module: sha256 of its source when it was compiled}
REBUILD = "scripts/setup.sh (or: pip install --no-build-isolation -e .)"

_ROOT = Path(__file__).resolve().parent  # the guandan package
_state: dict[str, object] = {"compiled": False, "reason": "not checked", "why": ("", ())}


class NativeBuildWarning(UserWarning):
    """The compiled modules cannot be used; the pure-Python sources run instead (slower, same results)."""


def source_path(module: str) -> Path:
    return _ROOT.joinpath(*module.split(".")[1:]).with_suffix(".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _extension(module: str) -> Path | None:
    src = source_path(module)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        ext = src.with_suffix(suffix)
        if ext.exists():
            return ext
    return None


def _pure_requested() -> bool:
    return os.environ.get(PURE_ENV, "").strip().lower() not in ("", "0", "false", "no")


#: Why a process runs uncompiled, as a code (a person reads it from the catalogue: ``bench.REASONS``).
PURE_REQUESTED, NOT_BUILT, PARTIAL, NO_MANIFEST, STALE = "pure_requested", "not_built", "partial", "no_manifest", "stale"


def _diagnose() -> tuple[str, tuple[str, ...]]:
    """(why not compiled, the modules concerned), or ``("", ())`` to run compiled; imports none of them."""
    if _pure_requested():
        return PURE_REQUESTED, ()
    missing = tuple(m for m in MODULES if _extension(m) is None)
    if len(missing) == len(MODULES):
        return NOT_BUILT, ()
    if missing:
        return PARTIAL, missing
    try:
        built = json.loads((_ROOT / MANIFEST).read_text())
    except (OSError, ValueError):
        return NO_MANIFEST, ()
    stale = tuple(m for m in MODULES if not isinstance(built, dict) or built.get(m) != digest(source_path(m)))
    if stale:
        return STALE, stale
    return "", ()


def _english(code: str, modules: tuple[str, ...]) -> str:
    """The reason in the words of a log line or a warning."""
    names = ", ".join(modules)
    return {
        PURE_REQUESTED: f"{PURE_ENV} is set",
        NOT_BUILT: "not compiled (no extension modules were built)",
        PARTIAL: f"a partial build: no extension for {names}",
        NO_MANIFEST: f"the build left no readable {MANIFEST}",
        STALE: f"stale: {names} changed since the build",
    }.get(code, "")


def _check() -> tuple[bool, str]:
    """(use the compiled modules?, why not) without importing any of them."""
    code, modules = _diagnose()
    return code == "", _english(code, modules)


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Loads the compiled modules' ``.py`` sources although an extension lies beside them."""

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None,
                  ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MODULES:
            return None
        src = source_path(fullname)
        return importlib.util.spec_from_file_location(fullname, src) if src.exists() else None


def install() -> None:
    """Decide, once per process, whether the compiled modules run; if not, make the sources load."""
    if _state["reason"] != "not checked":
        return
    code, modules = _diagnose()
    use, words = code == "", _english(code, modules)
    _state["compiled"], _state["reason"], _state["why"] = use, words, (code, modules)
    if use:
        return
    if not any(isinstance(f, _SourcesFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst())
    if code in (STALE, PARTIAL, NO_MANIFEST):
        warnings.warn(f"guandan runs uncompiled: the compiled modules are {words}; rebuild with {REBUILD}",
                      NativeBuildWarning, stacklevel=2)


def compiled() -> bool:
    """True when this process runs the compiled modules (every benchmark's ``"compiled"``)."""
    install()
    return bool(_state["compiled"])


def with_build(figures: dict[str, Any]) -> dict[str, Any]:
    """A benchmark's figures with ``"compiled": true|false`` (and why not), so a figure says what it measured."""
    out = dict(figures)
    out["compiled"] = compiled()
    if not out["compiled"]:
        out["uncompiled_because"] = str(_state["reason"])
    return out


def status() -> str:
    """``compiled`` or ``pure Python (why)``, for a log or a test (a person reads it from the catalogue)."""
    install()
    return "compiled" if _state["compiled"] else f"pure Python ({_state['reason']})"


def why() -> tuple[str, tuple[str, ...]]:
    """Why this process runs uncompiled as (code, modules concerned); ``("", ())`` when it runs compiled."""
    install()
    return cast(tuple[str, tuple[str, ...]], _state["why"])

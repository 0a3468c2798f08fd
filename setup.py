"""Builds the compiled hot paths (guandan.native.MODULES) with mypyc; everything else is in pyproject.toml.

A failure to compile never breaks the install: the package then runs its pure-Python sources, which
are the very same code (guandan/native.py decides at import time). ``GUANDAN_PURE_PYTHON=1`` skips the
build altogether.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "src" / "guandan"


def _native() -> Any:
    # guandan/native.py holds the module list; loaded by path (importing the package would import it all)
    import importlib.util

    spec = importlib.util.spec_from_file_location("_guandan_native", PACKAGE / "native.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


NATIVE = _native()


def _say(message: str) -> None:
    print(f"guandan build: {message}", file=sys.stderr)


def _sources() -> list[str]:
    return [str(NATIVE.source_path(m).relative_to(ROOT)) for m in NATIVE.MODULES]


def _write_manifest(package_dirs: list[Path]) -> None:
    manifest = {m: NATIVE.digest(NATIVE.source_path(m)) for m in NATIVE.MODULES}
    for d in package_dirs:
        d.mkdir(parents=True, exist_ok=True)
        (d / NATIVE.MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


class OptionalBuildExt(build_ext):
    """Compiles the extensions if it can; on any compiler error it warns and installs the sources alone."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # a compiler, a header or a platform missing: fall back
            _say(f"compiling failed ({exc}); guandan will run as pure Python (same results, slower)")
            return
        if self.extensions:
            # in place (an editable install) beside the sources; for a wheel, also where build_py put them
            dirs = [PACKAGE] if self.inplace else [PACKAGE, Path(self.build_lib) / "guandan"]
            _write_manifest(dirs)
            _say(f"compiled {len(NATIVE.MODULES)} modules with mypyc")


def _ext_modules() -> list[Any]:
    if os.environ.get(NATIVE.PURE_ENV, "").strip().lower() not in ("", "0", "false", "no"):
        _say(f"{NATIVE.PURE_ENV} is set: not compiling")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc (part of mypy) is not installed: not compiling; guandan will run as pure Python")
        return []
    try:
        return list(mypycify(_sources(), opt_level="3", group_name="guandan", verbose=False))
    except BaseException as exc:  # mypyc exits (SystemExit) on a type error it cannot compile
        _say(f"mypyc could not translate the modules ({exc!r}); guandan will run as pure Python")
        return []


if __name__ == "__main__":  # as setuptools runs it; the tests import the pieces above
    setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt})

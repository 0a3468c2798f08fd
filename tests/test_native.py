"""The compiled hot paths and their pure-Python fallback (guandan.native, setup.py)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from setuptools import Distribution, Extension

import guandan.native as native

ROOT = Path(__file__).resolve().parents[1]


def _setup_py() -> ModuleType:
    spec = importlib.util.spec_from_file_location("guandan_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # not as __main__: setup() is not called
    return mod


REQUIRE_COMPILED = "GUANDAN_REQUIRE_COMPILED"


@pytest.mark.skipif(os.environ.get(REQUIRE_COMPILED) != "1" or native._pure_requested(),
                    reason=f"the build may fall back to pure Python here; {REQUIRE_COMPILED}=1 (CI) makes that a failure")
def test_the_project_installs_compiled_where_it_must() -> None:
    # a fresh `scripts/setup.sh` must leave the hot paths compiled: a build that silently falls back runs
    # every compiled-path test on the sources instead
    assert native.compiled(), native.status()


def test_this_process_reports_what_it_runs() -> None:
    import importlib

    files = [importlib.import_module(m).__file__ or "" for m in native.MODULES]
    extension = [f.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) for f in files]
    assert all(extension) == native.compiled()
    assert all(extension) or not any(extension), "compiled and source modules were mixed"
    assert native.with_build({"x": 1.0})["compiled"] is native.compiled()


def _run(code: str, **env: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True,
                          check=True, cwd=ROOT)
    return done.stdout


def test_pure_python_is_chosen_by_the_environment() -> None:
    out = _run("import importlib, guandan.native as n; print(n.compiled(), n.status()); "
               "print(*[importlib.import_module(m).__file__ for m in n.MODULES])", GUANDAN_PURE_PYTHON="1")
    first, files = out.splitlines()
    assert first == "False pure Python (GUANDAN_PURE_PYTHON is set)"
    assert _run("import guandan.native as n; print(n.why())", GUANDAN_PURE_PYTHON="1").strip() == "('pure_requested', ())"
    assert all(f.endswith(".py") for f in files.split())


def test_every_benchmark_says_whether_it_ran_compiled() -> None:
    cli = [sys.executable, "-c", "from guandan.cli import main; main()"]
    done = subprocess.run([*cli, "bench", "movegen", "--json", "--hands", "10"],
                          env={**os.environ, "GUANDAN_PURE_PYTHON": "1"}, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["compiled"] is False
    assert figures["uncompiled_because"] == "GUANDAN_PURE_PYTHON is set"


@pytest.fixture
def fake_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A package tree with a source and an (empty) extension file for every compiled module, and a manifest."""
    for m in native.MODULES:
        src = tmp_path.joinpath(*m.split(".")[1:]).with_suffix(".py")
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(f"# {m}\n")
        src.with_suffix(importlib.machinery.EXTENSION_SUFFIXES[0]).write_bytes(b"")
    monkeypatch.setattr(native, "_ROOT", tmp_path)
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    manifest = {m: native.digest(native.source_path(m)) for m in native.MODULES}
    (tmp_path / native.MANIFEST).write_text(json.dumps(manifest))
    return tmp_path


def test_a_complete_current_build_is_used(fake_build: Path) -> None:
    assert native._check() == (True, "")
    assert native._diagnose() == ("", ())


def test_a_changed_source_makes_the_build_stale(fake_build: Path) -> None:
    native.source_path("guandan.core.moves").write_text("# edited since the build\n")
    use, why = native._check()
    assert not use and why == "stale: guandan.core.moves changed since the build"
    assert native._diagnose() == (native.STALE, ("guandan.core.moves",))


def test_a_partial_build_is_not_used(fake_build: Path) -> None:
    src = native.source_path("guandan.agents.search")
    src.with_suffix(importlib.machinery.EXTENSION_SUFFIXES[0]).unlink()
    use, why = native._check()
    assert not use and why == "a partial build: no extension for guandan.agents.search"
    assert native._diagnose() == (native.PARTIAL, ("guandan.agents.search",))


def test_a_build_without_its_manifest_is_not_used(fake_build: Path) -> None:
    (fake_build / native.MANIFEST).unlink()
    assert native._check() == (False, f"the build left no readable {native.MANIFEST}")
    assert native._diagnose() == (native.NO_MANIFEST, ())


def test_the_environment_wins_over_a_good_build(fake_build: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert native._check() == (False, "GUANDAN_PURE_PYTHON is set")
    monkeypatch.setenv(native.PURE_ENV, "0")  # 0, false, no and empty mean: not set
    assert native._check() == (True, "")


def test_a_failed_compile_falls_back_without_breaking_the_install(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    setup_py = _setup_py()
    dist = Distribution({"name": "broken", "ext_modules": [Extension("broken", [str(tmp_path / "missing.c")])]})
    cmd = setup_py.OptionalBuildExt(dist)
    cmd.build_lib, cmd.build_temp = str(tmp_path / "lib"), str(tmp_path / "temp")
    cmd.ensure_finalized()
    cmd.run()  # must not raise
    assert "compiling failed" in capsys.readouterr().err
    assert not list(tmp_path.rglob("*.so"))


def test_setting_the_environment_skips_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert _setup_py()._ext_modules() == []

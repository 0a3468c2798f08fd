"""`guandan arena --b external:module:Class --path DIR`: a 2020-protocol bot found on a folder plays
duplicate deals in worker processes (issue: the adapter's module must be importable there too)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guandan.cli import _mount, app

_mount()
BOTS = Path(__file__).resolve().parents[1] / "protocol"


def test_arena_with_an_external_bot_on_a_path() -> None:
    result = CliRunner().invoke(app, [
        "arena", "--a", "greedy", "--b", "external:conformance_bot:ConformanceBot", "--path", str(BOTS),
        "--deals", "2", "--jobs", "2", "--json",  # complete moves: the conformance bot checks actionList against them
    ])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output.strip().splitlines()[-1])
    assert report["deal_pairs"] == 2 and report["illegal_actions"] == 0
    # the bot really played: its failures are counted apart, and there were none
    assert report["b_bot_failures"] == {"crashes": 0, "timeouts": 0, "invalid": 0, "fallbacks": 0}
    assert "a_bot_failures" not in report


def test_arena_reports_a_crashing_external_bot(tmp_path: Path) -> None:
    (tmp_path / "crashy.py").write_text(
        "class Bot:\n    def received_message(self, message: str) -> int:\n        raise RuntimeError('boom')\n",
        encoding="utf-8")
    result = CliRunner().invoke(app, [
        "arena", "--a", "greedy", "--b", "external:crashy:Bot", "--path", str(tmp_path),
        "--deals", "1", "--move-mode", "canonical", "--json",
    ])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output.strip().splitlines()[-1])
    assert report["illegal_actions"] == 0  # the adapter played a legal move instead
    assert report["b_bot_failures"]["crashes"] >= 1


def test_arena_path_must_be_a_folder(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["arena", "--b", "greedy", "--path", str(tmp_path / "nope")])
    assert result.exit_code == 2 and "is not a folder" in result.output


def test_a_bot_that_cannot_be_loaded_is_refused_before_any_deal(tmp_path: Path) -> None:
    """A wrong module, class or --path was a crash counted at every deal ('crashes=8') with nothing saying
    why; it is one error, before any deal is played, that says what was looked for and where."""
    (tmp_path / "loadable_bot.py").write_text(
        "class Bot:\n    def received_message(self, message: str) -> int:\n        return 0\n", encoding="utf-8")
    for spec, why in (("external:my_bot.loadable_bot:Bot", "no module my_bot in the bot folders ("),
                      ("external:loadable_bot:Robot", "module loadable_bot has no Robot")):
        result = CliRunner().invoke(app, ["arena", "--b", spec, "--path", str(tmp_path), "--deals", "1"])
        assert result.exit_code == 2, result.output
        assert f"the external bot {spec} cannot be loaded: " in result.output and why in result.output, result.output
        assert "my_bot" not in spec or str(tmp_path.resolve()) in result.output  # where it was looked for
        assert "crashes" not in result.output


def test_a_bot_that_cannot_be_loaded_is_said_in_the_readers_language(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Why a bot cannot be loaded is the cli catalogue's, in this process and in a bot's own (``:process``)."""
    (tmp_path / "methodless_bot.py").write_text("class Bot:\n    pass\n", encoding="utf-8")
    folder = str(tmp_path.resolve())  # among the bot folders this process was given (earlier tests add theirs)
    no_module = ("机器人文件夹（", "）和 Python 的路径中都没有模块 my_bot")
    no_method = ("methodless_bot:Bot 没有 received_message(message) 方法", "")
    cases = (("external:my_bot.methodless_bot:Bot", no_module),
             ("external:methodless_bot:Robot", ("模块 methodless_bot 中没有 Robot", "")),
             ("external:methodless_bot:Bot", no_method), ("external:methodless_bot:Bot:process", no_method),
             ("external:my_bot:Bot:process", no_module))
    monkeypatch.setenv("LANGUAGE", "zh")
    for spec, (head, tail) in cases:
        result = CliRunner().invoke(app, ["arena", "--b", spec, "--path", str(tmp_path), "--deals", "1"])
        assert result.exit_code == 2, result.output
        said = result.output.strip()
        assert said.startswith(f"错误：无法载入外部机器人 {spec}：{head}") and said.endswith(tail), said
        assert tail == "" or folder in said
    monkeypatch.setenv("LANGUAGE", "en")
    result = CliRunner().invoke(app, ["arena", "--b", "external:my_bot:Bot:process", "--path", str(tmp_path),
                                      "--deals", "1"])
    said = result.output.strip()
    assert said.startswith("error: the external bot external:my_bot:Bot:process cannot be loaded: no module my_bot in "
                           "the bot folders (") and said.endswith(") or on Python's path") and folder in said, said

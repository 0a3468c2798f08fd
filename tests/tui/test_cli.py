"""`guandan play` arguments: bad ones exit 2 with a clear message; --plain plays from stdin; --resume."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guandan.cli import _mount, app

_mount()
runner = CliRunner()


@pytest.mark.parametrize(("args", "message"), [
    (["--lang", "fr"], "--lang must be one of zh, en, not fr"),
    (["--preset", "nope"], "nope"),
    (["--partner", "genius"], "unknown bot tier \"genius\"; known: greedy, heuristic, random, search"),
    (["--opponents", "external"], "unknown bot tier \"external\""),
    (["--delay", "-1"], "greater than or equal to 0"),
])
def test_bad_arguments_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", "--plain", *args], input="quit\n")
    assert result.exit_code == 2
    assert message in result.output


def test_resume_errors(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    result = runner.invoke(app, ["play", "--plain", "--resume", str(missing)])
    assert result.exit_code == 2 and "cannot read" in result.output
    other = tmp_path / "other.json"
    other.write_text('{"format": "guandan-record", "version": 1}', encoding="utf-8")
    result = runner.invoke(app, ["play", "--plain", "--resume", str(other)])
    assert result.exit_code == 2 and 'no "rules" field' in result.output
    result = runner.invoke(app, ["play", "--plain", "--resume", str(other), "--seed", "3"])
    assert result.exit_code == 2 and "drop --seed" in result.output


def test_plain_play_saves_and_resumes(tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    args = ["play", "--plain", "--lang", "en", "--partner", "greedy", "--opponents", "greedy", "--seed", "4"]
    result = runner.invoke(app, [*args, "--save", str(save)], input="hint\n1\n" * 5 + "quit\n")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"This match is saved to {save}\n")
    assert result.output.rstrip().endswith(f"Saved to {save}\nTo go on with this match: guandan play --resume {save}")
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["meta"]["tiers"] == ["human", "greedy", "greedy", "greedy"]
    moves = sum(1 for a in data["deals"][0]["actions"] if a["seat"] == 0)
    assert moves == 5
    result = runner.invoke(app, ["play", "--plain", "--lang", "en", "--resume", str(save)], input="hint\n1\n" * 2 + "quit\n")
    assert result.exit_code == 0, result.output
    data = json.loads(save.read_text(encoding="utf-8"))
    assert sum(1 for d in data["deals"] for a in d["actions"] if a["seat"] == 0) == 7


def test_unavailable_tiers_fall_back_to_greedy() -> None:
    from guandan.tui.session import resolve_tier

    assert resolve_tier("greedy") == ("greedy", False)
    name, fell_back = resolve_tier("search")
    assert (name, fell_back) in (("search", False), ("greedy", True))


def test_every_match_is_saved_under_its_own_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    args = ["play", "--plain", "--lang", "en", "--partner", "greedy", "--opponents", "greedy", "--seed", "8"]
    first = runner.invoke(app, args, input="hint\n1\nquit\n")
    second = runner.invoke(app, args, input="quit\n")
    assert first.exit_code == second.exit_code == 0
    saved = sorted((tmp_path / "guandan" / "matches").iterdir())
    assert len(saved) == 2  # the second game did not overwrite the first
    assert all(re.fullmatch(r"\d{8}-\d{6}-seed8(-\d+)?\.json", p.name) for p in saved), saved
    for result in (first, second):
        shown = result.output.splitlines()[0].removeprefix("This match is saved to ")
        assert Path(shown).expanduser() in saved
    moves = [sum(a["seat"] == 0 for d in json.loads(p.read_text(encoding="utf-8"))["deals"] for a in d["actions"])
             for p in saved]
    assert sorted(moves) == [0, 1]


def test_default_save_paths_differ_for_the_same_second(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from datetime import datetime

    from guandan.tui.session import default_save_path

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    now = datetime(2026, 12, 1, 16, 10, 0)
    a = default_save_path(3, now)
    a.parent.mkdir(parents=True)
    a.write_text("{}", encoding="utf-8")
    b = default_save_path(3, now)
    assert a.name == "20261201-161000-seed3.json" and b.name == "20261201-161000-seed3-2.json"
    assert default_save_path("a/../b c", now).name == "20261201-161000-seeda-b-c.json"


def test_quitting_a_match_tells_the_command_that_goes_on_with_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """q leaves a match half played: the way out names the file and the command line that resumes it, quoted for
    a shell where the path needs it and with the home folder written ~; a match played to its end is not offered."""
    from guandan.tui.text import saved_lines

    monkeypatch.setenv("HOME", str(tmp_path))
    plain = tmp_path / "out" / "m.json"
    spaced = Path("/srv/my matches/m 1.json")
    assert saved_lines((plain, None), "zh", unfinished=True) == [
        "已保存到 ~/out/m.json", "继续这场比赛：guandan play --resume ~/out/m.json"]
    assert saved_lines((spaced, None), "en", unfinished=True)[-1] == (
        "To go on with this match: guandan play --resume '/srv/my matches/m 1.json'")
    assert saved_lines((tmp_path / "a b.json", None), "en", unfinished=True)[-1].endswith("--resume ~/'a b.json'")
    assert saved_lines((plain, None), "en") == ["Saved to ~/out/m.json"]  # the match is over: nothing to go on with

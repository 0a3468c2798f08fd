"""Where a match is saved: a --save path that cannot be written is refused before the match starts, in
the player's language; a save that fails later (at a deal's end, at q) never loses the match nor shows
a traceback: it goes to the data folder instead, and when nothing can be written the table stays."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

import async_support
from guandan.cli import _mount, app
from guandan.core.record import loads
from guandan.core.rules import preset
from guandan.tui.app import GuandanApp
from guandan.tui.session import SaveError, Session, default_save_path

_mount()
runner = CliRunner()
PLAY = ["play", "--plain", "--partner", "greedy", "--opponents", "greedy", "--seed", "3"]


def _bad_paths(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("x", encoding="utf-8")
    return {"folder": tmp_path / "folder", "missing": tmp_path / "nope" / "m.json",
            "under a file": tmp_path / "file" / "m.json"}


@pytest.mark.parametrize("kind", ["folder", "missing", "under a file"])
@pytest.mark.parametrize(("lang", "words"), [
    ("en", {"folder": "is a folder: give a file name", "missing": "does not exist", "under a file": "is not a folder"}),
    ("zh", {"folder": "是文件夹", "missing": "不存在", "under a file": "不是文件夹"}),
])
def test_an_unusable_save_path_is_refused_before_the_match_starts(
        tmp_path: Path, kind: str, lang: str, words: dict[str, str]) -> None:
    target = _bad_paths(tmp_path)[kind]
    before = sorted(tmp_path.rglob("*"))
    result = runner.invoke(app, [*PLAY, "--lang", lang, "--save", str(target)], input="quit\n")
    assert result.exit_code == 2
    assert str(target) in result.output and words[kind] in result.output
    assert "Traceback" not in result.output and "Saved to" not in result.output
    assert sorted(tmp_path.rglob("*")) == before  # nothing written, no stray .tmp


def test_a_folder_given_to_resume_with_is_refused_too(tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    assert runner.invoke(app, [*PLAY, "--lang", "en", "--save", str(save)], input="quit\n").exit_code == 0
    (tmp_path / "d").mkdir()
    result = runner.invoke(app, ["play", "--plain", "--lang", "en", "--resume", str(save), "--save", str(tmp_path / "d")])
    assert result.exit_code == 2 and "is a folder" in result.output


def test_a_negative_seed_keeps_its_sign_in_the_file_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    now = datetime(2026, 12, 1, 16, 10, 0)
    assert default_save_path(-5, now).name == "20261201-161000-seed-5.json"
    assert default_save_path(5, now).name == "20261201-161000-seed5.json"


def _session(save: Path) -> Session:
    return Session.new(preset("competition"), 3, "greedy", "greedy", save_path=save)


def test_a_save_that_cannot_be_written_goes_to_the_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    save = tmp_path / "m.json"
    s = _session(save)
    s.run_bots()
    save.mkdir()  # the file became a folder while the match was played
    with pytest.raises(SaveError, match="is a folder"):
        s.save()
    path, problem = s.save_somewhere()
    assert problem is not None and str(save) in str(problem)
    assert path is not None and path.parent == tmp_path / "data" / "guandan" / "matches"
    assert loads(path.read_text(encoding="utf-8"))["seed"] == 3
    assert list(tmp_path.glob("*.tmp")) == []


def test_plain_quit_says_where_the_match_went_when_its_file_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from io import StringIO

    from guandan.tui.plain import run_plain

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    save = tmp_path / "m.json"
    s = _session(save)
    save.mkdir()
    out = StringIO()
    assert run_plain(s, "en", StringIO("quit\n"), out) == 0
    lines = out.getvalue().splitlines()
    assert lines[-3] == f"{save} is a folder: give a file name to save the match to"
    saved = lines[-2].removeprefix("Saved to ")
    assert lines[-1] == f"To go on with this match: guandan play --resume {saved}"
    assert Path(saved).parent == tmp_path / "data" / "guandan" / "matches" and Path(saved).is_file()

    # nowhere to write at all (the data folder's place is a file): said, exit 1, no traceback
    (tmp_path / "blocked").write_text("x", encoding="utf-8")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "blocked"))
    out = StringIO()
    assert run_plain(_session(save), "zh", StringIO("quit\n"), out) == 1
    assert out.getvalue().splitlines()[-2:] == [f"{save} 是文件夹：请给出保存比赛用的文件名", "比赛没能保存到任何地方。"]


def test_an_automatic_save_that_fails_does_not_stop_the_game(tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    s = _session(save)
    save.mkdir()
    while not s.match.deals:  # play the first deal out: its end saves
        s.act(s.legal()[0]) if s.human_to_move else s.bot_step()
    assert s.save_problem is not None and "is a folder" in str(s.save_problem)
    assert not s.ended and s.match.deal is not None  # the next deal is on


async def _quit_twice(s: Session, game: GuandanApp) -> list[str]:
    seen = []
    async with game.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        seen.append(game.message)
        assert game.is_running and game.saved is None  # nothing written: the match stays on the screen
        await pilot.press("q")
        await pilot.pause()
        assert not game.is_running
    return seen


def test_the_table_stays_when_q_can_save_nowhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "blocked").write_text("x", encoding="utf-8")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "blocked"))
    save = tmp_path / "m.json"
    s = _session(save)
    save.mkdir()
    game = GuandanApp(s, "en", bot_delay=0)
    messages = async_support.run(_quit_twice(s, game))
    assert messages == [f"{save} is a folder: give a file name to save the match to "
                        "Nothing could be saved: press q again to quit without saving."]
    assert game.saved is not None and game.saved[0] is None


def test_q_in_the_table_saves_to_the_data_folder_when_the_file_fails(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    save = tmp_path / "m.json"
    s = _session(save)
    save.mkdir()
    game = GuandanApp(s, "en", bot_delay=0)

    async def quit_once() -> None:
        async with game.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()

    async_support.run(quit_once())
    assert game.saved is not None
    path, problem = game.saved
    assert problem is not None and path is not None and path.is_file()
    assert json.loads(path.read_text(encoding="utf-8"))["meta"]["app"] == "guandan play"

"""What the client asks and answers: a tribute of two copies of one card names that card (not "one of ♥A");
a record that cannot be resumed is named with its file."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

from typer.testing import CliRunner

import async_support
from guandan.cli import _mount, app
from guandan.core.match import MatchConfig
from guandan.core.rules import preset
from guandan.tui.app import GuandanApp
from guandan.tui.plain import run_plain
from guandan.tui.session import Session

from .conftest import hands_with

_mount()
ACE = 48  # two copies of this ace are the highest cards of a hand that pays tribute


def _tribute_session(path: Path | None = None) -> Session:
    config = MatchConfig(max_deals=1, start_prev_finish=(1, 2, 3, 0), first_hands=hands_with([ACE, ACE]))
    return Session.new(preset("competition"), 5, "greedy", "greedy", config, save_path=path)


def test_one_tribute_card_is_named_alone() -> None:
    s = _tribute_session()
    given = {a.cards[0] for a in s.legal()}
    assert given == {ACE}  # both copies are the same choice
    game = GuandanApp(s, "en", bot_delay=0)

    async def prompt() -> str:
        async with game.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return game.message

    name = game.present.card(ACE)
    assert async_support.run(prompt()) == f"Tribute: your card is {name}; select it (←/→, space) and press Enter"
    out = StringIO()
    run_plain(_tribute_session(), "zh", StringIO("quit\n"), out)
    assert "> 进贡：给出 SA" in out.getvalue().splitlines()


def test_a_broken_record_is_named_with_its_file_on_resume(tmp_path: Path) -> None:
    broken = tmp_path / "cut.json"
    broken.write_text('{"format": "guandan-record", "version": 2, "rules": {', encoding="utf-8")
    result = CliRunner().invoke(app, ["play", "--plain", "--lang", "en", "--resume", str(broken)])
    assert result.exit_code == 2
    assert f"{broken}: the record is not valid JSON (line 1" in result.output
    nulled = tmp_path / "null.json"
    nulled.write_text('{"format": "guandan-record", "version": 2, "rules": {}, "seed": 1, "config": null, "deals": []}',
                      encoding="utf-8")
    result = CliRunner().invoke(app, ["play", "--plain", "--lang", "zh", "--resume", str(nulled)])
    assert result.exit_code == 2 and f"{nulled}：'config' 须为 JSON 对象，而不是 null" in result.output

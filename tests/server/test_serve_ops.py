"""`guandan serve`'s operating options: --metrics-allow, --log-format and --access-log are checked before
anything starts, and uvicorn is run to match them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import typer

from guandan.server.accounts_service import AccountSettings
from guandan.server.cli import serve, uvicorn_config
from guandan.server.table import Settings


@pytest.mark.parametrize(("options", "said"), [
    ({"metrics_allow": "127.0.0.1,localhost"}, "--metrics-allow: not an IP address or network: \"localhost\""),
    ({"metrics_allow": "10.0.0.0/33"}, "--metrics-allow: not an IP address or network: \"10.0.0.0/33\""),
    ({"log_format": "yaml"}, "--log-format must be one of text, json, not yaml"),
])
def test_bad_operating_options_are_refused_before_anything_starts(options: dict[str, Any], said: str, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    with pytest.raises(typer.Exit) as e:
        serve(data=data, **options)
    assert e.value.exit_code == 2
    assert said in capsys.readouterr().err
    assert not data.exists()  # no database was made


def test_uvicorn_leaves_its_loggers_to_the_json_handler_and_writes_no_access_log_of_its_own() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover - never called
        raise AssertionError

    plain = uvicorn_config(app, "127.0.0.1", 8000)
    as_json = uvicorn_config(app, "127.0.0.1", 8000, json_logs=True)
    assert plain.log_config is not None and as_json.log_config is None
    assert plain.access_log is False and as_json.access_log is False


# --- the limits of matches of four bots to watch (观战) ------------------------------------------------------
WIDE = {"COLUMNS": "200"}  # Rich boxes the error: one line, so that a sentence is read whole


@pytest.fixture
def typer_words_restored() -> Iterator[None]:
    """main() rebinds Typer's words to the command line's language for the process: put them back."""
    from guandan.clihelp import speak

    yield
    speak(None)


@pytest.mark.parametrize(("args", "said"), [
    # 0 is allowed (no matches of four bots at all: test_watch_limits_reach_the_settings), below it is not
    (["--max-watched-tables", "-1"], "invalid value for '--max-watched-tables': -1 is too small: it must be at least 0"),
    (["--max-watched-per-address", "-1"],
     "invalid value for '--max-watched-per-address': -1 is too small: it must be at least 0"),
    (["--watch-min-bot-delay-ms", "-1"],
     "invalid value for '--watch-min-bot-delay-ms': -1 is out of range: it must be from 0 to 10000"),
    (["--watch-min-bot-delay-ms", "60000"],
     "invalid value for '--watch-min-bot-delay-ms': 60000 is out of range: it must be from 0 to 10000"),
    (["--max-watched-tables", "many"], "invalid value for '--max-watched-tables': not an integer"),
])
def test_watch_limits_out_of_range_are_refused_in_words(args: list[str], said: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch, typer_words_restored: None) -> None:
    from guandan.cli import main

    for k, v in {**WIDE, "LANGUAGE": "en"}.items():
        monkeypatch.setenv(k, v)
    data = tmp_path / "data"
    with pytest.raises(SystemExit) as e:
        main(["serve", "--data", str(data), *args])
    assert e.value.code == 2
    assert said in capsys.readouterr().err
    assert not data.exists()  # no database was made


def test_watch_limits_are_refused_in_chinese_too(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                                 typer_words_restored: None) -> None:
    from guandan.cli import main

    for k, v in {**WIDE, "LANGUAGE": "zh"}.items():
        monkeypatch.setenv(k, v)
    with pytest.raises(SystemExit) as e:
        main(["serve", "--watch-min-bot-delay-ms", "20000"])
    assert e.value.code == 2
    assert "'--watch-min-bot-delay-ms' 的值无效：20000 超出范围：须在 0 到 10000 之间" in capsys.readouterr().err


class _Built(Exception):
    """Stands for the app being built: the test stops `serve` there and keeps the Settings it was given."""


@dataclass
class _Given:
    """The Settings and AccountSettings `serve` built its app with, a call at a time."""

    settings: list[Settings] = field(default_factory=list)
    accounts: list[AccountSettings | None] = field(default_factory=list)


@pytest.fixture
def given(monkeypatch: pytest.MonkeyPatch) -> _Given:
    """What `serve` builds its app with, each time it is stopped there (:class:`_Built`); whatever listens on 8000
    meanwhile is not in its way, and the test's own logging stays as it is."""
    from guandan.server import app as app_module
    from guandan.server import cli as cli_module
    from guandan.server import logs

    kept = _Given()

    def build(_db: Any, settings: Settings, *, accounts: AccountSettings | None = None, **_kw: Any) -> Any:
        kept.settings.append(settings)
        kept.accounts.append(accounts)
        raise _Built

    monkeypatch.setattr(app_module, "create_app", build)
    monkeypatch.setattr(cli_module, "_check_address", lambda *_a: None)
    monkeypatch.setattr(logs, "configure", lambda *_a: None)
    return kept


def test_a_watch_limit_of_0_is_taken_on_the_command_line(given: _Given, tmp_path: Path,
                                                          typer_words_restored: None) -> None:
    """0 is no refusal: the server starts offering no match of four bots to watch."""
    from guandan.cli import main

    for option in ("--max-watched-tables", "--max-watched-per-address"):
        with pytest.raises(_Built):
            main(["serve", "--data", str(tmp_path / "data"), option, "0"])
        assert given.settings.pop().watching is False


def test_watch_limits_reach_the_settings(given: _Given) -> None:
    settings = given.settings
    with pytest.raises(_Built):
        serve(max_watched_tables=7, max_watched_per_address=3, watch_min_bot_delay_ms=0)
    assert (settings[0].max_watched_tables, settings[0].max_watched_per_address,
            settings[0].watch_min_bot_delay_ms) == (7, 3, 0)
    with pytest.raises(_Built):
        serve(max_watched_tables=0, max_watched_per_address=0)  # 0: no such matches (Settings.watching)
    assert (settings[-1].max_watched_tables, settings[-1].max_watched_per_address, settings[-1].watching) == (0, 0, False)
    settings.pop()
    with pytest.raises(_Built):
        serve()  # left out: the Settings' own defaults
    defaults = Settings()
    assert (settings[1].max_watched_tables, settings[1].max_watched_per_address, settings[1].watch_min_bot_delay_ms) == (
        defaults.max_watched_tables, defaults.max_watched_per_address, defaults.watch_min_bot_delay_ms)


# --- sign-ups per client address ------------------------------------------------------------------------------
SIGNUPS = "invalid value for '--signups-per-address' (env var: 'GUANDAN_SIGNUPS_PER_ADDRESS'): "


@pytest.mark.parametrize(("args", "env", "said"), [
    (["--signups-per-address", "0"], {}, SIGNUPS + "0 is too small: it must be at least 1"),
    (["--signups-per-address", "-5"], {}, SIGNUPS + "-5 is too small: it must be at least 1"),
    (["--signups-per-address", "lots"], {}, SIGNUPS + "not an integer"),
    ([], {"GUANDAN_SIGNUPS_PER_ADDRESS": "0"}, SIGNUPS + "0 is too small: it must be at least 1"),
    ([], {"GUANDAN_SIGNUPS_PER_ADDRESS": "ten"}, SIGNUPS + "not an integer"),
])
def test_a_bad_signup_limit_is_refused_naming_its_option(args: list[str], env: dict[str, str], said: str,
                                                         tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         typer_words_restored: None) -> None:
    from guandan.cli import main
    from guandan.server import app as app_module
    from guandan.server import cli as cli_module

    def build(*_a: Any, **_kw: Any) -> Any:
        raise _Built  # the limit was taken: no server is started here

    monkeypatch.setattr(app_module, "create_app", build)
    monkeypatch.setattr(cli_module, "_check_address", lambda *_a: None)
    for k, v in {**WIDE, "LANGUAGE": "en", **env}.items():
        monkeypatch.setenv(k, v)
    data = tmp_path / "data"
    with pytest.raises(SystemExit) as e:
        main(["serve", "--data", str(data), *args])
    assert e.value.code == 2
    assert said in capsys.readouterr().err
    assert not data.exists()  # no database was made


def test_the_signup_limit_reaches_the_accounts_and_keeps_its_default(given: _Given, monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path, typer_words_restored: None) -> None:
    """A venue whose phones all come through one router raises it, on the command line or in the environment."""
    from guandan.cli import main

    data = ["serve", "--data", str(tmp_path / "data")]
    with pytest.raises(_Built):
        main([*data, "--signups-per-address", "200"])
    monkeypatch.setenv("GUANDAN_SIGNUPS_PER_ADDRESS", "80")
    with pytest.raises(_Built):
        main(data)
    with pytest.raises(_Built):
        main([*data, "--signups-per-address", "150"])  # the option before the environment
    monkeypatch.delenv("GUANDAN_SIGNUPS_PER_ADDRESS")
    with pytest.raises(_Built):
        main(data)
    assert [a.signups_per_address if a else None for a in given.accounts] == [200, 80, 150, 10]
    assert AccountSettings().signups_per_address == 10

"""`guandan serve`'s operating options: --metrics-allow, --log-format and --access-log are checked before
anything starts, and uvicorn is run to match them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import typer

from guandan.server.cli import serve, uvicorn_config


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

"""The README's table of the server's limits names every field of ``Settings`` with its default, so a new
limit cannot go undocumented."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from guandan.server.table import Settings

README = Path(__file__).resolve().parents[2] / "README.md"


def _limit_rows() -> dict[str, str]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### Threat model and limits"):]
    section = section[:section.index("\n## ")]
    rows: dict[str, str] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`"):
            for name in re.findall(r"`([a-z_]+)`", cells[0]):
                rows[name] = cells[1]
    return rows


def test_every_setting_is_in_the_readme_with_its_default() -> None:
    rows = _limit_rows()
    settings = Settings()
    missing = [f.name for f in dataclasses.fields(Settings) if f.name not in rows]
    assert not missing, f"README limits table lacks {missing}"
    for name in ("msg_rate", "msg_burst", "join_rate_per_min", "join_burst", "max_rooms",
                 "max_rooms_per_address", "lobby_idle_s", "unattended_pause_s", "finished_linger_s",
                 "sweep_interval_s", "work_rate", "work_burst", "address_work_rate", "address_work_burst",
                 "disconnect_grace_s"):
        value = getattr(settings, name)
        shown = f"{value:g}" if isinstance(value, float) else str(value)
        assert re.search(rf"(?<![\d.]){re.escape(shown)}(?![\d.])", rows[name]), (name, value, rows[name])

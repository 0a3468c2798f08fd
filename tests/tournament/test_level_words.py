"""级差 and 级差分 in English: a table's 级差 is the winner's level − the loser's (never negative: the winning
margin), a team's 级差分 the sum over its rounds of its own level − its opponent's (signed: the net level
difference). Each has its own English name, the same in the pages, the prints, the exports and the command line,
and neither is called plain "Level diff" any more."""

from __future__ import annotations

import csv
import re
import warnings
from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI

from guandan.i18n import translator
from guandan.tournament.cli_botevent import summary_rows
from guandan.tournament.desk import Desk
from guandan.tournament.export import STANDING_FIELDS, TABLE_FIELDS, table_records, write_csv
from guandan.tournament.prints import standings_html
from guandan.tournament.rounds import ResultSlip
from guandan.tournament.web import create_router

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's notice that it prefers httpx2 over the pinned httpx
    from fastapi.testclient import TestClient

NET, MARGIN = "Net lvls", "Winning margin"  # the head; its name in full is Net level difference
PLAIN = re.compile(r"(?<![Nn]et )\b[Ll](?:evel|vl)\.? diff")  # "Level diff", "Lvl diff." without "Net"


def _played(desk: Desk, new_event: Callable[..., int]) -> int:
    tid = new_event(4, rounds=2)
    desk.pair_next(tid)
    desk.override(tid, 1, 1, ResultSlip.parse("5:9", None, 8), "slip")  # the away team wins by 4 levels
    desk.override(tid, 1, 2, ResultSlip.parse("7:7", None, 8), "slip")  # a draw: no margin
    return tid


def test_exports_head_them_apart(desk: Desk, new_event: Callable[..., int], tmp_path: Path) -> None:
    state = desk.state(_played(desk, new_event))
    margins = {r["table"]: r["level_diff"] for r in table_records(state, 1)}
    assert margins == {1: 4, 2: 0}  # the winner's level − the loser's
    assert sorted(s.level_diff for s in state.standings(1)) == [-4, 0, 0, 4]  # own − opponent's, signed
    assert dict(STANDING_FIELDS)["level_diff"] == f"级差分 {NET}"
    assert dict(TABLE_FIELDS)["level_diff"] == f"级差 {MARGIN}"
    write_csv(state, tmp_path, lang="en")
    for name, header in (("standings.csv", f"级差分 {NET}"), ("tables.csv", f"级差 {MARGIN}")):
        head = next(csv.reader((tmp_path / name).read_text(encoding="utf-8-sig").splitlines()))
        assert header in head and not any(PLAIN.search(h) for h in head), (name, head)


def test_pages_prints_and_the_command_line_say_net_level_difference(desk: Desk,
                                                                    new_event: Callable[..., int]) -> None:
    tid = _played(desk, new_event)
    state = desk.state(tid)
    app = FastAPI()
    app.include_router(create_router(desk))
    web = TestClient(app)
    screen = web.get(f"/t/{tid}/standings?lang=en").text
    assert '<th class="num" title="Net level difference"><span class="full">Net lvls</span>' in screen
    assert "Order: Match points → Opponents&#39; points → Net level difference → Levels gained" in screen
    arbiter = web.get(f"/t/{tid}/arbiter?key=test-secret-key&lang=en").text
    assert 'title="Net level difference"><span class="full">Net lvls</span>' in arbiter
    printed = standings_html(state, 1, "en")
    assert f'{NET} <span class="term">(级差分)</span>' in printed
    assert "Order: Match points → Opponents&#39; points → Net level difference → Levels gained" in printed
    head, _rows = summary_rows(translator("desk", "en").gettext, state)
    assert NET in head
    for text in (screen, arbiter, printed, " ".join(head)):
        assert not PLAIN.search(text), PLAIN.search(text)
    # in Chinese each is still its own word
    zh = web.get(f"/t/{tid}/standings?lang=zh").text
    assert '<th class="num" title="级差分">级差分</th>' in zh and "级差分" in standings_html(state, 1, "zh")

"""The prints' HTML (`print … --out FILE.html`) read in a browser, as the README promises it: the same page as the
PDF. The standings are an A4 landscape page; drawn on the portrait sheet's 190 mm, the fixed columns (rank, number,
team, club, players, the record) took the whole width and the tie-break figures (场分, 对手分, 级差分, 升级数) were
squeezed to nothing, the table spilling off the sheet."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser

from guandan.tournament.desk import Desk
from guandan.tournament.prints import standings_html
from guandan.tournament.rounds import ResultSlip

pytestmark = pytest.mark.timeout(300)

FIGURES = ("match_points", "opponents_points", "level_diff", "levels_gained")
#: A millimetre in CSS pixels: a figure's column is at least this many wide, room for "对手分" or "Opp MP (对手分)".
MM = 96 / 25.4

# each figure column's width, and how far the table reaches past its sheet (0: not at all)
MEASURE = """() => {
  const sheet = document.querySelector('.sheet').getBoundingClientRect();
  const table = document.querySelector('table.standings').getBoundingClientRect();
  const widths = {};
  for (const key of %s) widths[key] = document.querySelector('th.w-' + key).getBoundingClientRect().width;
  return {widths, spill: Math.max(0, table.right - sheet.right)};
}"""


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    path = shutil.which("chromium")
    if path is None:
        pytest.fail("Debian's chromium is not installed: run scripts/setup.sh (apt-get install chromium)")
    return {**browser_type_launch_args, "executable_path": path, "args": ["--no-sandbox", "--disable-gpu"]}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_standings_print_shows_every_figure_in_a_browser(browser: Browser, desk: Desk, new_event: Callable[..., int],
                                                         lang: str) -> None:
    tid = new_event(5, rounds=3)
    desk.pair_next(tid)
    desk.override(tid, 1, 1, ResultSlip.parse("A:10", "home", 6), "slip")
    desk.override(tid, 1, 2, ResultSlip.parse("J:Q", "none", 8), "slip")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.set_content(standings_html(desk.state(tid), 1, lang))
        seen = page.evaluate(MEASURE % list(FIGURES))
        assert seen["spill"] == 0
        for key in FIGURES:
            assert seen["widths"][key] >= 12 * MM, (key, seen["widths"])
        # the figures are read, not cut: 级差分 of the winner of table 1 (A:10) is +4
        assert "+4" in page.inner_text("table.standings")
    finally:
        page.close()

"""Each column of the standings is headed alike wherever the standings are: the venue screen, the arbiter's page, the
print, the exports and the command line ("Opp MP" everywhere in English, 对手分 in Chinese; the print's English
heads carry the Chinese term after them, the exports' before them), and its name in full wherever a head is
explained (a head's title, the legend a phone shows under the table)."""

from __future__ import annotations

import csv
import re
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi import FastAPI

from guandan.i18n import translator
from guandan.tournament.cli_botevent import summary_rows
from guandan.tournament.desk import Desk
from guandan.tournament.export import write_csv, write_xlsx
from guandan.tournament.prints import standings_html
from guandan.tournament.rounds import ResultSlip
from guandan.tournament.web import create_router
from guandan.tournament.words import STANDING_HEADS, STANDING_NAMES, STANDING_TERMS

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's notice that it prefers httpx2 over the pinned httpx
    from fastapi.testclient import TestClient

FIGURES = ("match_points", "opponents_points", "level_diff", "levels_gained")
HEADS = {"en": ["MP", "Opp MP", "Net lvls", "Lvls up"], "zh": ["场分", "对手分", "级差分", "升级数"]}
NAMES = {"en": ["Match points", "Opponents' points", "Net level difference", "Levels gained"],
         "zh": ["场分", "对手分", "级差分", "升级数"]}


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip().replace("&#39;", "'")


def _heads(html: str, table: str) -> list[str]:
    """The heads of the first table of class ``table`` (a venue screen's: the whole head, not the phone's)."""
    body = html.split(f'<table class="{table}"', 1)[1] if table else html.split("<table", 1)[1]
    row = body.split("</tr>", 1)[0]
    row = re.sub(r'<span class="compact">.*?</span>', "", row)
    return [_text(th) for th in re.findall(r"<th\b[^>]*>(.*?)</th>", row, re.S)]


def _titles(html: str) -> list[str]:
    return [t.replace("&#39;", "'") for t in re.findall(r'<th class="num[^"]*" title="([^"]*)"', html)]


def _event(desk: Desk, new_event: Callable[..., int]) -> int:
    tid = new_event(4, rounds=2)
    desk.pair_next(tid)
    desk.override(tid, 1, 1, ResultSlip.parse("5:9", None, 8), "slip")
    desk.override(tid, 1, 2, ResultSlip.parse("7:7", None, 8), "slip")
    return tid


def test_the_chinese_terms_are_the_catalogues_words() -> None:
    zh = translator("desk", "zh").gettext
    for key, term in STANDING_TERMS.items():
        assert zh(STANDING_HEADS[key]) == term and zh(STANDING_NAMES[key]) == term, key


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_standings_table_heads_its_columns_alike(desk: Desk, new_event: Callable[..., int], tmp_path: Path,
                                                       lang: str) -> None:
    tid = _event(desk, new_event)
    state = desk.state(tid)
    app = FastAPI()
    app.include_router(create_router(desk))
    web = TestClient(app)
    heads = HEADS[lang]

    screen = web.get(f"/t/{tid}/standings?lang={lang}").text
    assert _heads(screen, "")[-4:] == heads
    assert _titles(screen) == NAMES[lang]
    arbiter = web.get(f"/t/{tid}/arbiter?key=test-secret-key&lang={lang}").text
    shown = _heads(arbiter, "standings")
    assert shown[5:9] == heads and _titles(arbiter) == NAMES[lang]

    printed = _heads(standings_html(state, 1, lang), "standings")
    assert printed[:5] == _heads(arbiter, "standings")[:5]  # 名次 编号 队伍 单位 队员, Rank No. Team Club Players
    if lang == "en":  # the Chinese term after each English head, as the order line under the table names it
        assert printed[5:9] == [f"{h} ({STANDING_TERMS[k]})" for h, k in zip(heads, FIGURES, strict=True)]
        assert printed[9:] == ["Played", "W", "D", "L", "Byes"]
    else:
        assert printed[5:9] == heads and printed[9:] == ["场次", "胜", "平", "负", "轮空"]

    write_csv(state, tmp_path, lang=lang)  # the files' headers are bilingual whatever their language
    head = next(csv.reader((tmp_path / "standings.csv").read_text(encoding="utf-8-sig").splitlines()))
    assert head[5:9] == [f"{t} {h}" for t, h in zip(HEADS["zh"], HEADS["en"], strict=True)]
    assert head[:1] + head[9:14] == ["名次 Rank", "场次 Played", "胜 W", "平 D", "负 L", "轮空 Byes"]

    cli_head, _rows = summary_rows(translator("desk", lang).gettext, state)
    assert cli_head[3:7] == heads


def test_the_phones_legend_names_each_shortened_head(desk: Desk, new_event: Callable[..., int]) -> None:
    """A head's title never shows on a touch screen: under the table a phone reads each head with its name, the
    upright phone's shorter one as well; in Chinese a head is the name, and there is no legend."""
    tid = _event(desk, new_event)
    app = FastAPI()
    app.include_router(create_router(desk))
    web = TestClient(app)
    page = web.get(f"/t/{tid}/standings?lang=en").text
    legend = page.split('data-testid="legend">', 1)[1].split("</dl>", 1)[0]
    entries = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", legend)
    assert [(re.findall(r'class="full">(.*?)<', dt) or [dt])[0] for dt, _dd in entries] == HEADS["en"]
    assert [re.findall(r'class="compact">(.*?)<', dt) for dt, _dd in entries] == [[], ["Opp"], ["Net"], ["Up"]]
    assert [dd.replace("&#39;", "'") for _dt, dd in entries] == NAMES["en"]
    assert 'data-testid="legend"' not in web.get(f"/t/{tid}/standings?lang=zh").text


ORDERS = {"zh": "排名依据：场分、相互间胜负、对手分、胜轮数",
          "en": "Order: Match points → Head-to-head → Opponents' points → Rounds won"}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_order_of_the_tie_breaks_is_worded_alike_everywhere(desk: Desk, new_event: Callable[..., int],
                                                                 tmp_path: Path, lang: str) -> None:
    """The line that says in which order the tie-breaks decide reads the same on the venue screen, the arbiter's
    page, the print and the workbook, each criterion named as the columns' titles name it (head-to-head and rounds
    won among them, which have no column)."""
    from openpyxl import load_workbook

    tid = new_event(4, rounds=2, tiebreaks=("match_points", "head_to_head", "opponents_points", "wins"))
    desk.pair_next(tid)
    desk.override(tid, 1, 1, ResultSlip.parse("5:9", None, 8), "slip")
    desk.override(tid, 1, 2, ResultSlip.parse("7:7", None, 8), "slip")
    state = desk.state(tid)
    app = FastAPI()
    app.include_router(create_router(desk))
    web = TestClient(app)
    said = ORDERS[lang]

    assert said in _text(web.get(f"/t/{tid}/standings?lang={lang}").text)
    assert said in _text(web.get(f"/t/{tid}/arbiter?key=test-secret-key&lang={lang}").text)
    assert said in _text(standings_html(state, 1, lang))
    book = load_workbook(write_xlsx(state, tmp_path / "event.xlsx", lang=lang))
    cells = [c for row in book.worksheets[0].iter_rows(values_only=True) for c in row if isinstance(c, str)]
    assert said in cells

"""The desk's prints: score slips (HTML and PDF), standings and pairings PDFs, QR quiet zones, the CLI."""

from __future__ import annotations

import contextlib
import html
import json
import re
import shutil
import subprocess
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
import segno
from PIL import Image
from typer.testing import CliRunner

from guandan.tournament.cli import app
from guandan.tournament.desk import Desk
from guandan.tournament.errors import TournamentError
from guandan.tournament.export import QUIET_ZONE, entry_url, qr_svg, slip_data, slips_html, write_qr_png
from guandan.tournament.model import EventConfig, RoundLimits
from guandan.tournament.prints import PRINTS, make_print, pdf_from_html, slips_pdf, standings_html, standings_pdf
from guandan.tournament.rounds import ResultSlip

BASE = "https://cup.example"
runner = CliRunner()


def pdf_objects(data: bytes) -> bytes:
    """The PDF's bytes with every Flate stream inflated (WeasyPrint packs page objects in object streams)."""
    parts = [data]
    for m in re.finditer(rb"(?<!end)stream\r?\n", data):
        with contextlib.suppress(zlib.error):  # not every stream is Flate
            parts.append(zlib.decompressobj().decompress(data[m.end():]))
    return b"\n".join(parts)


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf_objects(data)))


def pdf_text(data: bytes, tmp_path: Path) -> str:
    exe = shutil.which("pdftotext")
    if exe is None:
        pytest.skip("pdftotext (Debian's poppler-utils, which scripts/setup.sh installs) is not on PATH")
    path = tmp_path / "doc.pdf"
    path.write_bytes(data)
    return subprocess.run([exe, "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


@pytest.fixture
def event(desk: Desk, new_event: Callable[..., int]) -> int:
    """Five teams, round 1 paired (two tables and a bye), table 1's result in."""
    tid = new_event(5, rounds=3)
    desk.pair_next(tid)
    desk.override(tid, 1, 1, ResultSlip.parse("A:10", "home", 6), "slip")
    return tid


# ---- QR codes --------------------------------------------------------------------------------------

def test_qr_codes_have_a_four_module_quiet_zone(tmp_path: Path) -> None:
    url = entry_url(BASE, 3, 2, 17, 1, "123456")
    assert url == f"{BASE}/t/3/table/2/17?side=away#code=123456"
    modules = segno.make(url, error="m").symbol_size(border=0)[0]
    svg = qr_svg(url, size_mm=38)
    view = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    scale = re.search(r"scale\(([\d.]+)\)", svg)
    assert view and scale and view[1] == view[2]
    assert float(view[1]) == pytest.approx(38.0) and 'width="38' in svg and "mm" in svg
    assert float(view[1]) / float(scale[1]) == pytest.approx(modules + 2 * QUIET_ZONE)
    assert QUIET_ZONE == 4
    # the light background covers the quiet zone; the first dark module starts 4 modules in
    assert re.search(r'fill="#fff" d="M0 0h([\d.]+)', svg)
    assert re.search(r'stroke="#000" d="M4 4\.5', svg)
    plain = qr_svg(url)  # the web page's form: 3 px a module
    assert 'xmlns="http://www.w3.org/2000/svg"' in plain and not plain.startswith("<?xml")
    assert int(re.search(r'width="(\d+)"', plain)[1]) == 3 * (modules + 2 * QUIET_ZONE)  # type: ignore[index]
    png = Image.open(write_qr_png(url, tmp_path / "q.png")).convert("L")
    scale_px = 6
    assert png.width == scale_px * (modules + 2 * QUIET_ZONE)
    edge = QUIET_ZONE * scale_px
    margin = [png.getpixel((x, y)) for x in range(png.width) for y in range(png.height)
              if x < edge or y < edge or x >= png.width - edge or y >= png.height - edge]
    assert min(margin) == 255  # all light
    assert png.getpixel((edge, edge)) == 0  # the finder pattern's corner


# ---- slips -------------------------------------------------------------------------------------------

def test_slip_data_gives_each_team_its_own_code_and_page(desk: Desk, event: int) -> None:
    state = desk.state(event)
    slips = slip_data(state, 1, BASE + "/")
    assert [s["table"] for s in slips] == [1, 2]
    for s in slips:
        home, away = s["halves"]
        assert (home["side"], away["side"]) == ("home", "away")
        assert home["team"] == s["home"] and away["team"] == s["away"]
        for side, h in enumerate((home, away)):
            assert h["code"] == state.team_code(1, s["table"], side) and len(h["code"]) == 6
            assert h["url"] == f"{BASE}/t/{event}/table/1/{s['table']}?side={h['side']}"
            assert h["qr_url"] == f"{h['url']}#code={h['code']}"
            assert state.side_of_code(1, s["table"], h["code"]) == side
        assert home["code"] != away["code"]


def test_slips_html_has_every_box_in_chinese_and_in_english(desk: Desk, event: int) -> None:
    state = desk.state(event)
    page = slips_html(state, 1, BASE)
    assert page.count('class="sheet slip"') == 2 and page.count("<svg") == 4
    for label in ("头游", "二游", "升级", "南北级数", "东西级数", "西家签字", "北家签字", "迟到", "本轮因时间到结束",
                  "最终级数", "过A", "南北签名", "东西签名", "裁判", "本队代码", "第1轮", "第2桌"):
        assert label in page, label
    assert len(re.findall(r'<tr><td class="n">\d+</td>', page)) == 2 * 8  # a row per deal, max_deals 8
    for s in slip_data(state, 1, BASE):
        for h in s["halves"]:
            assert h["code"] in page and h["url"] in page
    assert "#code=" not in re.sub(r"<svg.*?</svg>", "", page, flags=re.S)  # the code is in no URL a person reads
    assert "PIN" not in page
    en = html.unescape(slips_html(state, 1, BASE, "en"))
    for label in ("First out", "Second out", "Lateness", "Round ended by time", "Signature, North–South", "Arbiter",
                  "Your team's code", "Round 1", "Table 2"):
        assert label in en, label
    with pytest.raises(TournamentError, match="zh or en"):
        slips_html(state, 1, BASE, "fr")
    with pytest.raises(TournamentError, match="round 2 has not been paired"):
        slips_html(state, 2, BASE)


def test_slips_pdf_one_page_per_table_with_the_codes(desk: Desk, tmp_path: Path) -> None:
    tid = desk.create(EventConfig(name="长名字公开赛", rounds=2, limits=RoundLimits(None, 50)), secret="test-secret-key")
    for i in range(1, 7):
        # the longest names a team may have still leave one page per table
        name = f"{i}号" + "很长的队伍名字" * 14 if i % 2 else f"队伍{i}"
        desk.register(tid, name[:100], [f"张{i}" * 10, f"李{i}"])
    desk.pair_next(tid)
    state = desk.state(tid)
    pdf = slips_pdf(state, 1, BASE)
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    assert pdf_pages(pdf) == 3
    assert b"WenQuanYi" in pdf_objects(pdf)  # the Chinese is set in the CJK font, embedded
    text = pdf_text(pdf, tmp_path)
    assert text.count("\f") == 3
    for s in slip_data(state, 1, BASE):
        for h in s["halves"]:
            assert h["code"] in text
    for label in ("头游", "迟到", "本轮因时间到结束", "南北签名", "裁判", "本队代码", "第1轮", "第3桌", "开局"):
        assert label in text, label
    # no deal limit: twelve rows a slip
    assert len(re.findall(r'<tr><td class="n">\d+</td>', slips_html(state, 1, BASE))) == 3 * 12


def test_a_slips_deal_row_holds_what_the_desk_takes_for_a_deal(desk: Desk, tmp_path: Path) -> None:
    """Typed in later from the paper (the network down), a deal is its first three out (the phone asks for them,
    deals --set takes them): the slip has a column for each, 三游 too, and its hint says so; on one A4 page."""
    tid = desk.create(EventConfig(name="纸面补录赛", rounds=2, per_deal=True, limits=RoundLimits(max_deals=10)),
                      secret="test-secret-key")
    for i in range(1, 5):
        desk.register(tid, f"队伍{i}", [f"张{i}", f"李{i}"])
    desk.pair_next(tid)
    state = desk.state(tid)
    for lang, places, hint in (("zh", ("头游", "二游", "三游"), "头游、二游、三游"),
                               ("en", ("First out", "Second out", "Third out"), "First, second and third out")):
        page = html.unescape(slips_html(state, 1, BASE, lang))
        heads = re.findall(r"<th[^>]*>([^<]*)</th>", page.split('<table class="deals">', 1)[1].split("</thead>", 1)[0])
        assert tuple(heads[1:4]) == places, heads
        assert hint in page
        rows = re.findall(r'<tr><td class="n">\d+</td>(.*?)</tr>', page)
        assert len(rows) == 2 * 10 and all(r.count("<td>") == len(heads) - 1 for r in rows)
    pdf = slips_pdf(state, 1, BASE)
    assert pdf_pages(pdf) == 2  # the extra column costs no page
    text = pdf_text(pdf, tmp_path)
    assert text.count("三游") == 2 * 2  # each page: the column and the hint


def test_standings_pdf_every_tie_break_column(desk: Desk, event: int, tmp_path: Path) -> None:
    state = desk.state(event)
    pdf = standings_pdf(state, 1)
    assert pdf.startswith(b"%PDF-") and pdf_pages(pdf) == 1
    text = pdf_text(pdf, tmp_path)
    for label in ("第1轮后排名", "名次", "场分", "对手分", "级差分", "升级数", "排名依据", "T1", "P1a / P1b"):
        assert label in text, label
    en = pdf_text(standings_pdf(state, 0, "en"), tmp_path)
    assert "Standings before round 1" in en and "MP" in en and "Played" in en and "Byes" in en
    with pytest.raises(TournamentError, match="after round 0…1"):
        standings_pdf(state, 2)


def test_standings_print_marks_a_withdrawn_team_in_each_languages_punctuation(desk: Desk, event: int) -> None:
    desk.withdraw(event, "T5", "left early")
    state = desk.state(event)
    zh, en = standings_html(state, 1), standings_html(state, 1, "en")
    assert "T5（已退赛）" in zh and "T5 (已退赛)" not in zh and "T5 (" not in zh
    assert "T5 (withdrawn)" in en


def test_pairings_print_and_the_registry(desk: Desk, event: int, tmp_path: Path) -> None:
    state = desk.state(event)
    assert set(PRINTS) == {"standings", "pairings", "bracket"}
    page = make_print("pairings", state, 1, pdf=False).decode()
    assert "按桌号" in page and "轮空" in page
    text = pdf_text(make_print("pairings", state, None, "en"), tmp_path)
    assert "Tables by number" in text and "Bye" in text
    with pytest.raises(TournamentError, match='no print called "scoreboard"'):
        make_print("scoreboard", state)
    with pytest.raises(TournamentError, match=r"Swiss event .* has no bracket"):
        make_print("bracket", state)


def test_pdf_from_html_fetches_nothing_from_the_network() -> None:
    page = ('<html><head><link rel="stylesheet" href="http://127.0.0.1:9/x.css"></head><body>'
            '<img src="http://127.0.0.1:9/x.png"><img src="data:image/gif;base64,'
            'R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw=="><p>你好</p></body></html>')
    pdf = pdf_from_html(page)
    assert pdf.startswith(b"%PDF-") and pdf_pages(pdf) == 1


# ---- the CLI -------------------------------------------------------------------------------------------

def _event(folder: Path) -> str:
    url = f"sqlite:///{folder / 'p.sqlite3'}"
    assert runner.invoke(app, ["new", "Print Cup", "--rounds", "2", "--seed", "3", "--db", url]).exit_code == 0
    for i in range(1, 5):
        assert runner.invoke(app, ["register", "1", f"Team {i}", "--players", f"p{i},q{i}", "--db", url]).exit_code == 0
    assert runner.invoke(app, ["pair", "1", "--db", url]).exit_code == 0
    return url


@pytest.fixture
def db(tmp_path: Path) -> str:
    return _event(tmp_path)


@pytest.fixture(scope="module")
def shared_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One event for the refusals, which change nothing (the test checks that nothing is written)."""
    return _event(tmp_path_factory.mktemp("refusals"))


def cli(db: str, *args: str) -> tuple[int, str]:
    res = runner.invoke(app, [*args, "--db", db])
    return res.exit_code, res.output


def test_cli_slips_and_prints(db: str, tmp_path: Path) -> None:
    code, out = cli(db, "slips", "1", "--round", "1", "--out", str(tmp_path / "r1.pdf"), "--base-url", BASE)
    assert code == 0, out
    assert pdf_pages((tmp_path / "r1.pdf").read_bytes()) == 2
    code, out = cli(db, "slips", "1", "--out", str(tmp_path / "folder"), "--lang", "en", "--png")
    assert code == 0, out
    names = sorted(p.name for p in (tmp_path / "folder").iterdir())
    assert names == ["slips-1.html", "slips-1.pdf", "table-1-1-away.png", "table-1-1-home.png",
                     "table-1-2-away.png", "table-1-2-home.png"]
    assert "First out" in (tmp_path / "folder" / "slips-1.html").read_text(encoding="utf-8")
    code, out = cli(db, "print", "1", "standings", "--out", str(tmp_path / "st.pdf"), "--after-round", "0")
    assert code == 0 and pdf_pages((tmp_path / "st.pdf").read_bytes()) == 1, out
    code, out = cli(db, "print", "1", "pairings", "--out", str(tmp_path / "pa.html"), "--lang", "en")
    assert code == 0 and "Tables by number" in (tmp_path / "pa.html").read_text(encoding="utf-8"), out


@pytest.mark.parametrize(("args", "message"), [
    (["slips", "1", "--round", "2", "--out", "{tmp}/x.pdf"], "round 2 has not been paired"),
    (["slips", "1", "--out", "{tmp}/x.pdf", "--lang", "fr"], "--lang"),
    (["slips", "1", "--out", "{tmp}/x.pdf", "--base-url", "cup.example"], "http://"),
    (["print", "1", "scoreboard", "--out", "{tmp}/x.pdf"], "no print called “scoreboard”"),
    (["print", "1", "bracket", "--out", "{tmp}/x.pdf"], "it has no bracket"),
    (["print", "1", "standings", "--out", "{tmp}/x.txt"], ".pdf or .html"),
    (["print", "1", "standings", "--out", "{tmp}/x.pdf", "--after-round", "4"], "after round 0…1"),
    (["print", "1", "standings", "--out", "{tmp}/x.pdf", "--round", "1"], "--after-round"),
    (["print", "1", "pairings", "--out", "{tmp}/x.pdf", "--after-round", "1"], "--round"),
    (["print", "1", "pairings", "--out", "{tmp}/x.pdf", "--round", "3"], "round 3 has not been paired"),
    (["print", "1", "standings", "--out", "{tmp}/x.pdf", "--lang", "de"], "--lang must be one of zh, en, not “de”"),
    (["export", "1", "--format", "yaml", "--out", "{tmp}/x.pdf"], "xlsx, csv or json"),
    (["status", "7", "--json"], "no tournament number 7"),
])
def test_cli_refusals_write_nothing(shared_db: str, tmp_path: Path, args: list[str], message: str) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    before = len(Desk.open(shared_db).events(1))
    code, out = cli(shared_db, *[a.replace("{tmp}", str(out_dir)) for a in args])
    assert code == 2 and "error:" in out and message in out, out
    assert list(out_dir.iterdir()) == [] and len(Desk.open(shared_db).events(1)) == before


def test_cli_json(db: str, tmp_path: Path) -> None:
    code, out = cli(db, "standings", "1", "--json")
    assert code == 0
    doc = json.loads(out)
    assert [set(r) for r in doc["standings"]] == [{
        "rank", "team_id", "team", "club", "players", "match_points", "opponents_points", "level_diff",
        "levels_gained", "played", "wins", "draws", "losses", "byes", "withdrawn"}] * 4
    code, out = cli(db, "status", "1", "--json")
    status = json.loads(out)
    assert code == 0 and status["current_round"] == 1 and [t["table"] for t in status["tables"]] == [1, 2]
    assert {"table", "home", "away", "status", "result", "source"} <= set(status["tables"][0])
    code, out = cli(db, "standings", "1", "--tables", "--json")
    assert code == 0 and [t["table"] for t in json.loads(out)["tables"]] == [1, 2]
    code, out = cli(db, "export", "1", "--format", "json", "--out", str(tmp_path / "all.json"),
                    "--log", str(tmp_path / "log.json"))
    assert code == 0, out
    everything = json.loads((tmp_path / "all.json").read_text(encoding="utf-8"))
    log = json.loads((tmp_path / "log.json").read_text(encoding="utf-8"))
    assert everything["log"] == log and [e["type"] for e in log][:2] == ["created", "team_registered"]
    assert len(everything["cross_table"]) == 4


def test_standings_print_counts_one_round_as_one(desk: Desk, new_event: Callable[..., int]) -> None:
    one, three = new_event(4, rounds=1), new_event(4, rounds=3)
    assert "· 1 round</h2>" in standings_html(desk.state(one), 0, "en")
    assert "· 3 rounds</h2>" in standings_html(desk.state(three), 0, "en")
    assert "· 共1轮</h2>" in standings_html(desk.state(one), 0, "zh")


def test_the_slips_count_one_deal_and_one_minute_as_one(desk: Desk, new_event: Callable[..., int]) -> None:
    one = new_event(4, limits=RoundLimits(max_deals=1, max_minutes=1, warning_minutes=1))
    many = new_event(4, limits=RoundLimits(max_deals=6, max_minutes=40, warning_minutes=5))
    for tid in (one, many):
        desk.pair_next(tid)
    assert ">at most 1 deal · 1 minute · no new deal in the last 1 minute · " in slips_html(desk.state(one), 1, BASE, "en")
    assert ">at most 6 deals · 40 minutes · no new deal in the last 5 minutes · " in slips_html(
        desk.state(many), 1, BASE, "en")
    assert ">每轮最多1副 · 1分钟 · 最后1分钟不开新副 · " in slips_html(desk.state(one), 1, BASE, "zh")

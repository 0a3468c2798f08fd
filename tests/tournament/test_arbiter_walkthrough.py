"""What an arbiter and the teams stumbled on running a club event in Chinese: the pages and the CLI say
what happened (a deal sent back, a deal disputed), count the teams still playing, explain the arbiter's
deal list, and never offer a form that can only be refused."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from guandan.tournament.cli import app as cli_app
from guandan.tournament.desk import Desk
from guandan.tournament.model import EventConfig, RoundLimits
from guandan.tournament.rounds import ResultSlip
from guandan.tournament.web import create_router
from guandan.tournament.web_table import create_table_router

URL = "/t/1/table/1/1"
KEY = "walk-secret"


def _event(desk: Desk, max_deals: int = 8) -> int:
    tid = desk.create(EventConfig(name="秋季杯", rounds=2, per_deal=True, limits=RoundLimits(max_deals=max_deals)),
                      secret=KEY)
    for name in ("红队", "蓝队", "绿队", "金队", "紫队"):
        desk.register(tid, name, [f"{name}甲", f"{name}乙"])
    desk.withdraw(tid, "紫队")
    return tid


def _client(desk: Desk) -> TestClient:
    app = FastAPI()
    app.include_router(create_table_router(lambda: desk))
    app.include_router(create_router(desk))
    return TestClient(app)


def _phone(desk: Desk, side: int) -> TestClient:
    client = _client(desk)
    code = desk.state(1).team_code(1, 1, side)
    assert client.post(f"{URL}/code", data={"code": code}, follow_redirects=False).status_code == 303
    return client


def _text(html: str, testid: str) -> str:
    m = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</(?:p|section|small)>', html, re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", m.group(1))).strip() if m else ""


def test_the_reporting_team_is_told_its_deal_was_sent_back(desk: Desk) -> None:
    _event(desk)
    desk.pair_next(1)
    west, north = _phone(desk, 1), _phone(desk, 0)
    home = desk.state(1).teams[desk.state(1).table(1, 1).table.home].name
    west.post(f"{URL}/deal", data={"deal": "1", "first": "E", "second": "W", "third": "N"})
    north.post(f"{URL}/answer", data={"deal": "1", "action": "reject", "reason": "三游是南家"})
    # West's phone reloads to the report form: it says why the form is empty again, and who sent it back
    said = _text(west.get(URL).text, "sent-back")
    assert said == f"{home}退回了第1副的报分：请核对后重新报。理由：三游是南家", said
    west.post(f"{URL}/deal", data={"deal": "1", "first": "E", "second": "W", "third": "S"})
    north.post(f"{URL}/answer", data={"deal": "1", "action": "confirm"})
    assert 'data-testid="sent-back"' not in west.get(URL).text  # reported again: the note is gone
    # sent back without a reason: still said; and in English
    west.post(f"{URL}/deal", data={"deal": "2", "first": "N", "second": "S", "third": "E"})
    north.post(f"{URL}/answer", data={"deal": "2", "action": "reject"})
    assert _text(west.get(f"{URL}?lang=en").text, "sent-back") == \
        f"{home} sent deal 2 back: check it and report it again."
    # the arbiter setting the deals clears it as well
    desk.set_deals(1, 1, 1, [{"finish": "E W S"}], "checked")
    assert 'data-testid="sent-back"' not in west.get(f"{URL}?lang=zh").text


def test_a_disputed_deal_shows_what_was_reported(desk: Desk) -> None:
    _event(desk)
    desk.pair_next(1)
    west, north = _phone(desk, 1), _phone(desk, 0)
    west.post(f"{URL}/deal", data={"deal": "1", "first": "E", "second": "W", "third": "S"})
    north.post(f"{URL}/answer", data={"deal": "1", "action": "dispute", "reason": "三游应为北家"})
    page = west.get(URL).text
    # the arbiter walking over reads the order in question on either phone; Chinese colons, no ": "
    assert _text(page, "disputed-deal") == "头游：东 · 二游：西 · 三游：南 · 末游：北"
    assert "所报的第1副：" in page and "理由：三应为北家" not in page and "理由：三游应为北家" in page
    assert not re.search(r"[\u4e00-\u9fff]: ", re.sub(r"<[^>]+>", "", page))
    # the arbiter's page: the status with its reason, and the deal marked disputed, not waiting
    arbiter = _client(desk).get(f"/t/1/arbiter?key={KEY}").text
    assert "有争议（三游应为北家）" in arbiter and "有争议：第1副" in arbiter and "待确认：第1副" not in arbiter


def test_the_arbiter_page_counts_teams_explains_deals_and_hides_forms_of_final_tables(desk: Desk) -> None:
    _event(desk, max_deals=1)
    client = _client(desk)
    page = client.get(f"/t/1/arbiter?key={KEY}").text
    assert "共5队（1队已退赛）" in page and "第0轮" not in page and "共2轮" in page
    desk.pair_next(1)
    page = client.get(f"/t/1/arbiter?key={KEY}").text
    assert "第1轮（共2轮）" in page
    help_text = _text(page, "deals-help")
    # in the page's seat names and words, with the letters still taken
    assert "北、东、南、西，也可写 N、E、S、W" in help_text and "“判给主队”或“判给客队”" in help_text
    assert "award:home" not in help_text
    # table 1's round ends with its one deal: its deals can no longer be set, so no form is offered for it
    tb = desk.state(1).table(1, 1).table
    desk.report_deal(1, 1, 1, 1, "N S E", by=tb.away)
    desk.confirm_deal(1, 1, 1, 1, by=tb.home)
    assert desk.state(1).table(1, 1).status == "final"
    page = client.get(f"/t/1/arbiter?key={KEY}").text
    assert 'data-testid="set-deals-1"' not in page and 'data-testid="set-deals-2"' in page
    assert "共5队（1队已退赛）" in client.get("/t/1/standings").text  # the venue screen too
    assert "Teams: 5 (1 withdrawn)" in client.get("/t/1/standings?lang=en").text


runner = CliRunner()


def _cli(db: str, *args: str) -> tuple[int, str]:
    res = runner.invoke(cli_app, [*args, "--db", db])
    return res.exit_code, res.output


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("LANGUAGE", "zh")
    url = f"sqlite:///{tmp_path / 'walk.sqlite3'}"
    assert _cli(url, "new", "秋季杯", "--rounds", "2", "--seed", "7")[0] == 0
    for name in ("红队", "蓝队", "绿队", "金队", "紫队"):
        assert _cli(url, "register", "1", name, "--players", f"{name}甲,{name}乙")[0] == 0
    return url


def test_status_counts_the_teams_still_playing_and_names_disputes(db: str) -> None:
    assert _cli(db, "withdraw", "1", "紫队")[0] == 0
    code, out = _cli(db, "status", "1")
    assert code == 0 and out.splitlines()[0] == "秋季杯：5队（1队已退赛），共2轮，尚未编排", out
    assert _cli(db, "pair", "1")[0] == 0
    code, out = _cli(db, "status", "1")
    assert out.splitlines()[0] == "秋季杯：5队（1队已退赛），第1轮（共2轮）", out
    assert _cli(db, "deal", "1", "-r", "1", "-t", "1", "--finish", "E,W,S")[0] == 0
    assert _cli(db, "deal", "1", "-r", "1", "-t", "1", "--dispute", "--reason", "三游应为北家")[0] == 0
    code, out = _cli(db, "status", "1")
    assert "第1桌有争议，由裁判裁定（`deals --set` / `result --override`）：三游应为北家" in out, out
    assert "等待对方确认的牌" not in out  # a disputed deal waits for the arbiter, not for the other team
    code, out = _cli(db, "deals", "1", "-r", "1", "-t", "1")
    assert out.splitlines() == ["第1副：东 西 南 北，有争议；用 --set 裁定", "状态：有争议（三游应为北家）"], out


def test_status_after_the_last_round_is_paired_says_where_the_event_stands(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Not "下一轮：全部1轮均已编排": no next round is coming; the event ends with the last round's results."""
    monkeypatch.setenv("LANGUAGE", "zh")
    url = f"sqlite:///{tmp_path / 'last.sqlite3'}"
    assert _cli(url, "new", "秋季杯", "--rounds", "1", "--seed", "7")[0] == 0
    for name in ("红队", "蓝队"):
        assert _cli(url, "register", "1", name, "--players", f"{name}甲,{name}乙")[0] == 0
    assert _cli(url, "pair", "1")[0] == 0
    code, out = _cli(url, "status", "1")
    assert code == 0 and out.splitlines()[-1] == "全部1轮均已编排；第1轮结果全部确定后比赛结束", out
    assert "下一轮" not in out
    assert _cli(url, "result", "1", "-r", "1", "-t", "1", "--forfeit", "away", "--override", "--reason", "未到")[0] == 0
    code, out = _cli(url, "status", "1")
    assert out.splitlines()[-1] == "比赛已结束：全部1轮均已赛完，结果均已确定" and "下一轮" not in out, out


def test_slips_warn_when_the_qr_codes_lead_to_this_machine_only(db: str, tmp_path: Path) -> None:
    assert _cli(db, "pair", "1")[0] == 0
    code, out = _cli(db, "slips", "1", "--out", str(tmp_path / "s.html"))
    assert code == 0 and "警告：二维码指向 http://localhost:8000，选手的手机无法打开" in out, out
    code, out = _cli(db, "slips", "1", "--out", str(tmp_path / "s.html"), "--base-url", "http://127.0.0.1:8125")
    assert "警告" in out
    code, out = _cli(db, "slips", "1", "--out", str(tmp_path / "s.html"), "--base-url", "http://192.168.1.10:8000")
    assert code == 0 and "警告" not in out and (tmp_path / "s.html").exists()


def test_the_last_round_is_no_refusal_on_the_arbiter_page(desk: Desk) -> None:
    tid = desk.create(EventConfig(name="秋季杯", rounds=1, per_deal=False), secret=KEY)
    for name in ("红队", "蓝队"):
        desk.register(tid, name, [f"{name}甲", f"{name}乙"])
    desk.pair_next(tid)
    page = _client(desk).get(f"/t/1/arbiter?key={KEY}").text
    # every round is paired: nothing is refused, so no red "round 2 cannot be paired yet"
    assert "第2轮暂不能编排" not in page
    assert _text(page, "no-next-round") == "全部1轮均已编排；第1轮结果全部确定后比赛结束"
    desk.override(tid, 1, 1, ResultSlip.parse("A:9", "home", 8), "slip")
    page = _client(desk).get(f"/t/1/arbiter?key={KEY}").text  # its result final: the event is over
    assert _text(page, "no-next-round") == "比赛已结束：全部1轮均已赛完，结果均已确定"


def test_serve_on_this_machine_only_says_how_phones_reach_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """`guandan serve` listens on 127.0.0.1 by default: it says --host 0.0.0.0 is what phones at the venue need."""
    from guandan.server import cli as server_cli

    monkeypatch.setenv("LANGUAGE", "en")
    en = server_cli.loopback_note("127.0.0.1", 8000)
    assert en is not None and "--host 0.0.0.0" in en and "http://192.168.1.10:8000" in en and "only this computer" in en
    assert server_cli.loopback_note("0.0.0.0", 8000) is None and server_cli.loopback_note("192.168.1.10", 80) is None
    monkeypatch.setenv("LANGUAGE", "zh")
    zh = server_cli.loopback_note("localhost", 8080)
    assert zh is not None and zh.startswith("guandan：只有本机能打开") and "--host 0.0.0.0" in zh and ":8080" in zh



def test_serve_says_it_right_after_serving_on(tmp_path: Path) -> None:
    """The real command, started and stopped: the line comes right after "serving on"."""
    import os
    import socket
    import subprocess
    import sys

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    cmd = [sys.executable, "-c", "from guandan.cli import main; main()", "serve", "--port", str(port),
           "--db", f"sqlite:///{tmp_path / 'site.sqlite3'}"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "LANGUAGE": "en"})
    try:
        assert proc.stderr is not None
        lines = [proc.stderr.readline()]
        while "serving on" not in lines[-1] and lines[-1] and len(lines) < 20:  # after any warning of its own
            lines.append(proc.stderr.readline())
        lines.append(proc.stderr.readline())
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert lines[-2].strip() == f"guandan: serving on http://127.0.0.1:{port}", lines
    assert lines[-1].startswith("guandan: only this computer can open it"), lines


def _warning(html: str) -> str:
    m = re.search(r'data-testid="local-url">(.*?)</p>', html, re.S)
    return m.group(1) if m else ""


def test_the_arbiter_page_and_its_slips_say_when_they_lead_phones_to_this_machine_only(desk: Desk) -> None:
    tid = desk.create(EventConfig(name="秋季杯", rounds=1, per_deal=True), secret=KEY)
    for name in ("红队", "蓝队"):
        desk.register(tid, name, [f"{name}甲", f"{name}乙"])
    desk.pair_next(tid)
    app = FastAPI()
    app.include_router(create_table_router(lambda: desk))
    app.include_router(create_router(desk))
    local = TestClient(app, base_url="http://127.0.0.1:8000")
    said = _warning(local.get(f"/t/1/arbiter?key={KEY}").text)
    assert "http://127.0.0.1:8000/" in said and "guandan serve --host 0.0.0.0" in said and "只有本机" in said, said
    said = _warning(local.get(f"/t/1/arbiter/slips/1?key={KEY}").text)
    assert "二维码指向 http://127.0.0.1:8000/，" in said and "--host 0.0.0.0" in said, said
    said = _warning(local.get(f"/t/1/arbiter/slips/1?key={KEY}&lang=en").text)
    assert "These QR codes lead to http://127.0.0.1:8000/" in said and "--host 0.0.0.0" in said, said
    venue = TestClient(app, base_url="http://192.168.1.10:8000")
    assert 'data-testid="local-url"' not in venue.get(f"/t/1/arbiter?key={KEY}").text
    assert 'data-testid="local-url"' not in venue.get(f"/t/1/arbiter/slips/1?key={KEY}").text


def test_the_arbiter_page_counts_one_round_as_one(desk: Desk) -> None:
    """Before its first round an event's head line gives its rounds: "1 round", not "1 rounds"."""
    desk.create(EventConfig(name="Cup", rounds=1), secret=KEY)
    desk.create(EventConfig(name="Cup", rounds=2), secret=KEY)
    client = _client(desk)
    one = " ".join(client.get(f"/t/1/arbiter?key={KEY}&lang=en").text.split())
    assert "1 round ·" in one and "1 rounds" not in one
    assert "2 rounds ·" in " ".join(client.get(f"/t/2/arbiter?key={KEY}&lang=en").text.split())
    assert "共1轮 ·" in " ".join(client.get(f"/t/1/arbiter?key={KEY}&lang=zh").text.split())


def test_the_arbiter_page_counts_one_deal_at_a_table_as_one(desk: Desk) -> None:
    """A table's line counts its deals, "1 deal" for one (its status and, once final, its deals column)."""
    tid = desk.create(EventConfig(name="Cup", rounds=1, per_deal=True), secret=KEY)
    for name in ("Red", "Blue", "Green", "Gold"):
        desk.register(tid, name, [f"{name} A", f"{name} B"])
    desk.pair_next(tid)
    desk.set_deals(tid, 1, 1, [{"finish": "N S E"}], "checked", end=True)
    desk.set_deals(tid, 1, 2, [{"finish": "N S E"}, {"finish": "E W N"}], "checked")
    client = _client(desk)
    page = " ".join(client.get(f"/t/{tid}/arbiter?key={KEY}&lang=en").text.split())
    assert "· 1 deal</td>" in page and '<td class="deals">1 deal</td>' in page and "1 deals" not in page
    assert "· 2 deals</td>" in page
    zh = " ".join(client.get(f"/t/{tid}/arbiter?key={KEY}&lang=zh").text.split())
    assert "· 1副</td>" in zh and '<td class="deals">1副</td>' in zh

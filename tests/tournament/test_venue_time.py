"""The venue's time: a time an arbiter types without a zone is the venue's (its zone set for the event, else the
machine's), an offset typed is honoured, the log keeps UTC, and every time shown to a person names its zone.

Every test names its zone (Asia/Shanghai, Europe/Berlin) or sets ``TZ``: none depends on the machine's."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from openpyxl import load_workbook  # type: ignore[import-untyped]
from typer.testing import CliRunner

from guandan.db import make_engine
from guandan.tournament import online
from guandan.tournament.cli import app
from guandan.tournament.desk import Desk
from guandan.tournament.errors import TournamentError
from guandan.tournament.model import EventConfig
from guandan.tournament.state import Event, replay
from guandan.tournament.venuetime import check_zone, local_zone, read_time, shown_time, zone_label

from .conftest import SECRET, unchanged

SHANGHAI = ZoneInfo("Asia/Shanghai")
BERLIN = ZoneInfo("Europe/Berlin")
#: 14:10 in Beijing on the day of the event.
NOW = datetime(2026, 12, 5, 6, 10, tzinfo=UTC)
runner = CliRunner()


# ---- reading what a person typed ------------------------------------------------------------------
@pytest.mark.parametrize(("typed", "utc"), [
    ("14:05", "2026-12-05T06:05:00+00:00"),  # today, at the venue
    ("14:05:30", "2026-12-05T06:05:30+00:00"),
    ("14：05", "2026-12-05T06:05:00+00:00"),  # a Chinese keyboard's colon
    ("2026-12-05 14:05", "2026-12-05T06:05:00+00:00"),
    ("2026-12-05T14:05", "2026-12-05T06:05:00+00:00"),
    (" 2026-12-04 23:30 ", "2026-12-04T15:30:00+00:00"),
    # an offset typed is honoured, whatever the venue's zone
    ("2026-12-05 06:05+00:00", "2026-12-05T06:05:00+00:00"),
    ("2026-12-05T06:05Z", "2026-12-05T06:05:00+00:00"),
    ("2026-12-05 15:05+09:00", "2026-12-05T06:05:00+00:00"),
    ("06:05+00:00", "2026-12-05T06:05:00+00:00"),
])
def test_a_typed_time_without_a_zone_is_the_venues(typed: str, utc: str) -> None:
    assert read_time(typed, SHANGHAI, NOW, "--at").astimezone(UTC).isoformat() == utc


def test_a_time_alone_is_todays_at_the_venue_not_in_utc() -> None:
    # 01:00 in Beijing on 6 December is still 5 December in UTC: "00:30" is the venue's 6 December
    late = datetime(2026, 12, 5, 17, 0, tzinfo=UTC)
    assert read_time("00:30", SHANGHAI, late, "--at") == datetime(2026, 12, 5, 16, 30, tzinfo=UTC)


@pytest.mark.parametrize("typed", ["half past two", "2026-12-05", "", "14", "25:00", "2026-13-01 14:05"])
def test_what_is_no_time_is_refused_naming_the_option(typed: str) -> None:
    with pytest.raises(TournamentError, match=r"--at must be a time such as 14:05, .*not \"") as e:
        read_time(typed, SHANGHAI, NOW, "--at")
    assert e.value.msgid and "{what}" in e.value.msgid


def test_a_time_the_clocks_skipped_or_showed_twice_needs_its_offset() -> None:
    with pytest.raises(TournamentError, match=r"2026-03-29 02:30 does not exist in Europe/Berlin.*2026-03-29 02:30\+02:00"):
        read_time("2026-03-29 02:30", BERLIN, NOW, "--at")
    with pytest.raises(TournamentError, match=r"happens twice in Europe/Berlin.*02:30\+02:00 or 2026-10-25 02:30\+01:00"):
        read_time("2026-10-25 02:30", BERLIN, NOW, "--at")
    assert read_time("2026-10-25 02:30+01:00", BERLIN, NOW, "--at") == datetime(2026, 10, 25, 1, 30, tzinfo=UTC)


def test_a_time_is_shown_with_its_zone() -> None:
    t = datetime(2026, 12, 5, 6, 5, tzinfo=UTC)
    assert shown_time(t, SHANGHAI) == "2026-12-05 14:05:00 Asia/Shanghai (UTC+08:00)"
    assert shown_time(t, UTC) == "2026-12-05 06:05:00 UTC"
    assert zone_label(BERLIN, datetime(2026, 7, 1, tzinfo=UTC)) == "Europe/Berlin (UTC+02:00)"
    assert zone_label(BERLIN, datetime(2026, 1, 1, tzinfo=UTC)) == "Europe/Berlin (UTC+01:00)"


def test_the_machines_zone_is_read_from_tz(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Asia/Shanghai")
    assert getattr(local_zone(), "key", None) == "Asia/Shanghai"
    monkeypatch.setenv("TZ", ":Europe/Berlin")
    assert getattr(local_zone(), "key", None) == "Europe/Berlin"


# ---- the zone's name -----------------------------------------------------------------------------
def test_a_zone_is_an_iana_name_this_machine_knows() -> None:
    assert check_zone(" Asia/Shanghai ") == "Asia/Shanghai"
    assert check_zone("UTC") == "UTC"
    with pytest.raises(TournamentError, match=r"\"asia/shanghai\" is not a time zone; did you mean Asia/Shanghai\?"):
        check_zone("asia/shanghai")
    with pytest.raises(TournamentError, match=r"did you mean America/New_York"):
        check_zone("America/New York")
    for bad in ("Beijing", "Asia/Shangai", "+08:00", "localtime", "Asia", "../etc/passwd"):
        with pytest.raises(TournamentError, match=r"is not a time zone: give an IANA name, such as Asia/Shanghai"):
            check_zone(bad)


# ---- the desk ------------------------------------------------------------------------------------
def _desk(now: list[datetime]) -> Desk:
    return Desk(make_engine("sqlite://"), clock=lambda: now[0])


def _paired(desk: Desk, now: list[datetime], **config: object) -> int:
    now[0] = NOW - timedelta(minutes=10)  # paired at 14:00 Beijing time
    tid = desk.create(EventConfig(name="Huai'an Open", rounds=2, **config), secret=SECRET)  # type: ignore[arg-type]
    for i in (1, 2):
        desk.register(tid, f"T{i}", [f"a{i}", f"b{i}"])
    desk.pair_next(tid)
    now[0] = NOW
    return tid


def test_the_arbiters_1405_is_1405_at_the_venue() -> None:
    now = [NOW]
    desk = _desk(now)
    tid = _paired(desk, now, time_zone="Asia/Shanghai")
    st = desk.state(tid)
    desk.start_round(tid, 1, st.typed_time("14:05", desk.now(), "--at"))  # read as UTC it would be in the future
    st = desk.state(tid)
    assert st.rounds[1].started_at == "2026-12-05T06:05:00+00:00"  # the log keeps UTC, with its offset
    assert st.round_clock(1, NOW)["seconds_left"] == 45 * 60


def test_an_offset_typed_is_honoured_and_kept_in_utc() -> None:
    now = [NOW]
    desk = _desk(now)
    tid = _paired(desk, now, time_zone="Asia/Shanghai")
    at = desk.state(tid).typed_time("2026-12-05 15:05+09:00", desk.now(), "--at")
    desk.start_round(tid, 1, at)
    assert desk.state(tid).rounds[1].started_at == "2026-12-05T06:05:00+00:00"


def test_a_time_without_a_zone_given_to_the_desk_is_the_venues() -> None:
    now = [NOW]
    desk = _desk(now)
    tid = _paired(desk, now, time_zone="Asia/Shanghai")
    desk.start_round(tid, 1, datetime(2026, 12, 5, 14, 5))
    assert desk.state(tid).rounds[1].started_at == "2026-12-05T06:05:00+00:00"


def test_without_a_zone_set_the_machines_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Asia/Shanghai")
    now = [NOW]
    desk = _desk(now)
    tid = _paired(desk, now)
    st = desk.state(tid)
    assert st.time_zone is None and getattr(st.zone, "key", None) == "Asia/Shanghai"
    desk.start_round(tid, 1, st.typed_time("14:05", desk.now(), "--at"))
    assert desk.state(tid).rounds[1].started_at == "2026-12-05T06:05:00+00:00"


def test_refusals_say_times_on_the_venues_clocks() -> None:
    now = [NOW]
    desk = _desk(now)
    tid = _paired(desk, now, time_zone="Asia/Shanghai")
    unchanged(desk, tid, lambda: desk.start_round(tid, 1, desk.state(tid).typed_time("15:05", NOW, "--at")),
              r"start 2026-12-05 15:05:00 Asia/Shanghai \(UTC\+08:00\) is in the future \(it is now 2026-12-05 14:10:00\): "
              r"start the round when its play begins, without a start time")
    unchanged(desk, tid, lambda: desk.start_round(tid, 1, desk.state(tid).typed_time("13:55", NOW, "--at")),
              r"is before round 1 was paired \(2026-12-05 14:00:00\)")
    desk.start_round(tid, 1, desk.state(tid).typed_time("14:05", NOW, "--at"))
    unchanged(desk, tid, lambda: desk.start_round(tid, 1),
              r"running since 2026-12-05 14:05:00 Asia/Shanghai \(UTC\+08:00\)")


def test_the_zone_is_a_setting_recorded_in_the_log_and_changed_by_an_entry() -> None:
    now = [NOW]
    desk = _desk(now)
    tid = _paired(desk, now, time_zone="Asia/Shanghai")
    assert desk.events(tid)[0].data["config"]["time_zone"] == "Asia/Shanghai"
    assert desk.set_time_zone(tid, "Europe/Berlin", "the event moved") == "Europe/Berlin"
    last = desk.events(tid)[-1]
    assert (last.type, last.data) == ("time_zone_set", {"time_zone": "Europe/Berlin", "reason": "the event moved"})
    assert desk.state(tid).time_zone == "Europe/Berlin"
    unchanged(desk, tid, lambda: desk.set_time_zone(tid, "Europe/Berlin"), "already Europe/Berlin")
    # a time typed now is Berlin's: 07:05 there is 06:05 UTC
    desk.start_round(tid, 1, desk.state(tid).typed_time("07:05", NOW, "--at"))
    assert desk.state(tid).rounds[1].started_at == "2026-12-05T06:05:00+00:00"
    assert replay(desk.events(tid), tid).time_zone == "Europe/Berlin"


@pytest.mark.parametrize("bad", ["Asia/Shangai", "asia/shanghai", "Beijing", "+08:00", ""])
def test_a_bad_zone_is_refused_and_nothing_changes(bad: str) -> None:
    now = [NOW]
    desk = _desk(now)
    tid = _paired(desk, now, time_zone="Asia/Shanghai")
    unchanged(desk, tid, lambda: desk.set_time_zone(tid, bad), "time zone")
    assert desk.state(tid).time_zone == "Asia/Shanghai"
    with pytest.raises(TournamentError, match="time zone"):
        desk.create(EventConfig(name="Elsewhere", time_zone=bad))
    assert [t.id for t in desk.tournaments()] == [tid]


def test_an_event_made_without_a_zone_logs_what_older_events_did() -> None:
    assert "time_zone" not in EventConfig(name="Cup").to_dict()
    assert EventConfig.from_dict(EventConfig(name="Cup", time_zone="Asia/Shanghai").to_dict()).time_zone == "Asia/Shanghai"


def test_an_old_log_without_the_setting_replays_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    """A log written before the venue's zone existed: no setting, and a start given without an offset, which
    the log reads as UTC (as it always did). Its state is the same in whatever zone it is read."""
    config = EventConfig(name="Old Cup", rounds=1).to_dict()
    log = [
        Event(1, "created", {"config": config, "secret": SECRET}, "arbiter", "2026-05-01 13:50:00"),
        Event(2, "team_registered", {"team": {"name": "A", "players": ["a1", "a2"]}}, "arbiter", "2026-05-01 13:51:00"),
        Event(3, "team_registered", {"team": {"name": "B", "players": ["b1", "b2"]}}, "arbiter", "2026-05-01 13:52:00"),
        Event(4, "round_paired", {"round": 1, "method": "random", "seed": 1, "tables": [[1, 2]], "bye": None},
              "arbiter", "2026-05-01 13:55:00"),
        Event(5, "round_started", {"round": 1, "at": "2026-05-01T14:05:00"}, "arbiter", "2026-05-01 14:06:00"),
    ]
    seen = []
    for tz in ("Asia/Shanghai", "America/New_York", "UTC"):
        monkeypatch.setenv("TZ", tz)
        st = replay(log, 1)
        assert st.time_zone is None and st.last_seq == 5
        clock = st.round_clock(1, datetime(2026, 5, 1, 14, 15, tzinfo=UTC))
        seen.append((st.rounds[1].started_at, st.rounds[1].paired_at, clock["ends_at"], clock["seconds_left"]))
    assert seen == [("2026-05-01T14:05:00", "2026-05-01T13:55:00+00:00", "2026-05-01T14:55:00+00:00", 40 * 60)] * 3


def test_a_log_whose_zone_this_machine_does_not_know_still_opens() -> None:
    """The zone is checked when it is set; a log from a machine with a newer time zone database replays, and
    its times are then shown in UTC (named so), while a time typed without an offset is refused."""
    config = EventConfig(name="Far Cup", rounds=1).to_dict() | {"time_zone": "Mars/Olympus_Mons"}
    st = replay([Event(1, "created", {"config": config, "secret": SECRET}, "arbiter", "2026-05-01T13:50:00+00:00")], 1)
    assert st.time_zone == "Mars/Olympus_Mons" and st.zone is UTC
    with pytest.raises(TournamentError, match="does not know the event's time zone Mars/Olympus_Mons"):
        st.typed_time("14:05", NOW, "--at")
    assert st.typed_time("14:05+08:00", NOW, "--at") == datetime(2026, 12, 5, 6, 5, tzinfo=UTC)


def test_the_round_clock_in_status_says_when_time_was_up_on_the_venues_clocks() -> None:
    from guandan.tournament.cli import _table_notes

    config = EventConfig(name="Past Cup", rounds=1, time_zone="Asia/Shanghai").to_dict()
    log = [
        Event(1, "created", {"config": config, "secret": SECRET}, "arbiter", "2026-05-01T13:50:00+00:00"),
        Event(2, "team_registered", {"team": {"name": "A", "players": ["a1", "a2"]}}, "arbiter", "2026-05-01T13:51:00"),
        Event(3, "team_registered", {"team": {"name": "B", "players": ["b1", "b2"]}}, "arbiter", "2026-05-01T13:52:00"),
        Event(4, "round_paired", {"round": 1, "method": "random", "seed": 1, "tables": [[1, 2]], "bye": None},
              "arbiter", "2026-05-01T13:55:00"),
        Event(5, "round_started", {"round": 1, "at": "2026-05-01T14:05:00+00:00"}, "arbiter", "2026-05-01T14:06:00"),
    ]
    notes = _table_notes(replay(log, 1))
    assert "round clock: over, 0:00 left; time was up at 2026-05-01 22:55:00 Asia/Shanghai (UTC+08:00)" in notes, notes


# ---- the command line ------------------------------------------------------------------------------
def cli(db: str, *args: str) -> tuple[int, str]:
    res = runner.invoke(app, [*args, "--db", db])
    return res.exit_code, res.output


def _cli_event(db: str, *options: str) -> None:
    code, out = cli(db, "new", "Huai'an Open", "--rounds", "2", "--seed", "3", *options)
    assert code == 0, out
    for i in (1, 2):
        assert cli(db, "register", "1", f"T{i}", "--players", f"a{i},b{i}")[0] == 0
    assert cli(db, "pair", "1")[0] == 0


def test_cli_start_at_reads_the_venues_time_and_shows_its_zone(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'v.sqlite3'}"
    _cli_event(db, "--time-zone", "Asia/Shanghai")
    at = (datetime.now(UTC) + timedelta(minutes=1)).replace(microsecond=0)  # the arbiter's watch is a little ahead
    code, out = cli(db, "start", "1", "--at", at.astimezone(SHANGHAI).strftime("%Y-%m-%d %H:%M:%S"))
    assert code == 0, out
    beijing = at.astimezone(SHANGHAI)
    ends = beijing + timedelta(minutes=50)
    assert f"started at {beijing:%Y-%m-%d %H:%M:%S} Asia/Shanghai (UTC+08:00); it ends at " in out, out
    assert (f"{ends:%H:%M:%S}" if ends.date() == beijing.date() else f"{ends:%Y-%m-%d %H:%M:%S}") in out
    code, out = cli(db, "log", "1", "--json")
    started = [json.loads(line) for line in out.splitlines()][-1]
    assert started["type"] == "round_started" and started["data"]["at"] == at.isoformat()  # UTC in the log
    # the log as people read it: the venue's clocks, with the offset
    code, out = cli(db, "log", "1")
    assert code == 0 and re.search(r"^ {3}1 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+08:00 arbiter +created", out, re.M), out
    assert f"round 1 started at {beijing:%Y-%m-%d %H:%M:%S}+08:00" in out
    code, out = cli(db, "status", "1")
    assert code == 0 and f"it ends at {ends:%Y-%m-%d %H:%M:%S} Asia/Shanghai (UTC+08:00)" in out, out
    assert cli(db, "export", "1", "--out", str(tmp_path / "v.xlsx"))[0] == 0
    sheet = list(load_workbook(tmp_path / "v.xlsx")["审计日志 Audit log"].iter_rows(values_only=True))
    assert "times in Asia/Shanghai (UTC+08:00)" in sheet[0][0]
    head = sheet.index(("序号 Seq", "类型 Type", "操作人 Actor", "时间 At", "数据 Data", "记录 Entry"))
    assert all(str(row[3]).endswith("+08:00") for row in sheet[head + 1:])
    assert sheet[-1][5] == f"round 1 started at {beijing:%Y-%m-%d %H:%M:%S}+08:00"  # the entry in words, same clocks


def test_cli_start_at_without_a_zone_set_is_the_machines_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The arbiter's laptop in Beijing (TZ), the event made without a zone: --at in Beijing time is now, not
    eight hours ahead (which the desk would refuse as a start in the future)."""
    monkeypatch.setenv("TZ", "Asia/Shanghai")
    db = f"sqlite:///{tmp_path / 'm.sqlite3'}"
    _cli_event(db)
    at = (datetime.now(UTC) + timedelta(minutes=1)).replace(microsecond=0)
    code, out = cli(db, "start", "1", "--at", at.astimezone(SHANGHAI).strftime("%Y-%m-%d %H:%M"))
    assert code == 0, out
    assert Desk.open(db).state(1).rounds[1].started_at == at.replace(second=0).isoformat()


def test_cli_an_offset_given_with_at_is_honoured(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'o.sqlite3'}"
    _cli_event(db, "--time-zone", "Asia/Shanghai")
    at = (datetime.now(UTC) + timedelta(minutes=1)).replace(microsecond=0)
    code, out = cli(db, "start", "1", "--at", at.strftime("%Y-%m-%dT%H:%M:%S+00:00"))
    assert code == 0 and f"started at {at.astimezone(SHANGHAI):%Y-%m-%d %H:%M:%S} Asia/Shanghai" in out, out
    assert Desk.open(db).state(1).rounds[1].started_at == at.isoformat()


def test_cli_the_zone_is_set_shown_and_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Europe/Berlin")
    db = f"sqlite:///{tmp_path / 'z.sqlite3'}"
    code, out = cli(db, "new", "Cup", "--rounds", "1")
    assert code == 0 and "times are in Europe/Berlin (UTC+0" in out and "this machine's time zone" in out, out
    code, out = cli(db, "time-zone", "1")
    assert code == 0 and "this machine's time zone (set the venue's with `time-zone`)" in out, out
    code, out = cli(db, "time-zone", "1", "Asia/Shanghai", "--reason", "the venue is in Huai'an")
    assert code == 0 and out.strip() == "times are in Asia/Shanghai (UTC+08:00), the venue's time zone", out
    entry = Desk.open(db).events(1)[-1]
    assert (entry.type, entry.data) == ("time_zone_set", {"time_zone": "Asia/Shanghai", "reason": "the venue is in Huai'an"})
    monkeypatch.setenv("LANGUAGE", "zh")
    code, out = cli(db, "time-zone", "1")
    assert code == 0 and out.strip() == "时间按 Asia/Shanghai (UTC+08:00) 计，即赛场时区", out


@pytest.mark.parametrize(("lang", "message"), [
    ("en", 'error: "Asia/Shangai" is not a time zone: give an IANA name, such as Asia/Shanghai for China'),
    ("zh", "错误：\"Asia/Shangai\" 不是时区：请给出 IANA 时区名，例如中国用 Asia/Shanghai"),
])
def test_cli_a_bad_zone_is_refused_naming_it_and_nothing_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 lang: str, message: str) -> None:
    monkeypatch.setenv("LANGUAGE", lang)
    db = f"sqlite:///{tmp_path / 'b.sqlite3'}"
    code, out = cli(db, "new", "Cup", "--time-zone", "Asia/Shangai")
    assert code == 2 and out.strip() == message, out
    assert not (tmp_path / "b.sqlite3").exists() or Desk.open(db).tournaments() == []
    assert cli(db, "new", "Cup", "--time-zone", "Asia/Shanghai")[0] == 0
    before = Desk.open(db).events(1)
    code, out = cli(db, "time-zone", "1", "Asia/Shangai")
    assert code == 2 and out.strip() == message, out
    code, out = cli(db, "time-zone", "1", "asia/shanghai")
    assert code == 2 and "Asia/Shanghai" in out and "asia/shanghai" in out, out
    assert Desk.open(db).events(1) == before


def test_cli_online_round_says_when_it_started_in_the_venues_zone(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'online.sqlite3'}"
    code, out = cli(url, "new", "Web Cup", "--rounds", "1", "--seed", "2", "--online", "--time-zone", "Asia/Shanghai")
    assert code == 0, out
    desk = Desk.open(url)
    assert online.online_ids(desk) == [1]
    desk.register(1, "Red", ["ann", "bob"])
    desk.register(1, "Blue", ["cat", "dan"])
    code, out = cli(url, "online", "round", "1")
    assert code == 0 and re.search(r"round 1 started at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d Asia/Shanghai \(UTC\+08:00\)",
                                   out), out


# ---- bot events and status --json ------------------------------------------------------------------
@pytest.mark.parametrize(("lang", "line"), [
    ("en", "times are in Asia/Shanghai (UTC+08:00), the venue's time zone"),
    ("zh", "时间按 Asia/Shanghai (UTC+08:00) 计，即赛场时区"),
])
def test_cli_a_bot_event_is_made_with_the_venues_zone(tmp_path: Path, lang: str, line: str) -> None:
    db = f"sqlite:///{tmp_path / 'bots.sqlite3'}"
    code, out = cli(db, "bot-event", "new", "Bot Cup", "--entry", "A=greedy", "--entry", "B=random", "--seed", "1",
                    "--time-zone", "Asia/Shanghai", "--lang", lang)
    assert code == 0 and out.splitlines()[-1] == line, out
    state = Desk.open(db).state(1)
    assert (state.time_zone, state.cfg.time_zone) == ("Asia/Shanghai", "Asia/Shanghai")
    code, out = cli(db, "bot-event", "new", "Plain Cup", "--entry", "A=greedy", "--entry", "B=random", "--seed", "1")
    assert code == 0 and "times are in" not in out, out  # without the option: the machine's zone, as before
    assert Desk.open(db).state(2).time_zone is None
    assert "time_zone" not in Desk.open(db).events(2)[0].data["config"]


@pytest.mark.parametrize(("lang", "message"), [
    ("en", 'error: "Asia/Shangai" is not a time zone: give an IANA name, such as Asia/Shanghai for China'),
    ("zh", "错误：\"Asia/Shangai\" 不是时区：请给出 IANA 时区名，例如中国用 Asia/Shanghai"),
])
def test_cli_a_bot_event_with_a_bad_zone_is_refused_as_new_refuses_it(tmp_path: Path, lang: str, message: str) -> None:
    db = f"sqlite:///{tmp_path / 'bots.sqlite3'}"
    code, out = cli(db, "bot-event", "new", "Bot Cup", "--entry", "A=greedy", "--entry", "B=random",
                    "--time-zone", "Asia/Shangai", "--lang", lang)
    assert code == 2 and out.strip() == message, out
    assert not (tmp_path / "bots.sqlite3").exists() or Desk.open(db).tournaments() == []
    code, out = cli(db, "bot-event", "new", "Bot Cup", "--entry", "A=greedy", "--entry", "B=random",
                    "--time-zone", "asia/shanghai", "--lang", lang)
    assert code == 2 and "Asia/Shanghai" in out and "asia/shanghai" in out, out


def test_cli_status_json_names_the_venues_zone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Europe/Berlin")
    db = f"sqlite:///{tmp_path / 's.sqlite3'}"
    _cli_event(db)
    code, out = cli(db, "status", "1", "--json")
    assert code == 0 and json.loads(out)["time_zone"] is None, out  # the machine's: no zone of the event's own
    assert cli(db, "time-zone", "1", "Asia/Shanghai")[0] == 0
    code, out = cli(db, "status", "1", "--json")
    assert code == 0 and json.loads(out)["time_zone"] == "Asia/Shanghai", out

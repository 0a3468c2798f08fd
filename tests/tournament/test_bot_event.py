"""Bot events: Swiss and knockout events played by bots through the desk, deterministic from the event's seed,
resumable, refusing bad input without changing anything, with a 2020-protocol bot through the adapter."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook  # type: ignore[import-untyped]
from typer.testing import CliRunner

from guandan.db import make_engine
from guandan.tournament.botevent import (
    BOT_ACTOR,
    Entry,
    Progress,
    TablePlay,
    create_event,
    enter_teams,
    event_config,
    parse_entry,
    run_event,
    settings,
    table_seed,
)
from guandan.tournament.cli import app
from guandan.tournament.cli_botevent import write_exports
from guandan.tournament.desk import Desk
from guandan.tournament.errors import TournamentError
from guandan.tournament.export import standing_records
from guandan.tournament.model import EventConfig
from guandan.tournament.state import FINAL, TournamentState

from .conftest import unchanged

PROTOCOL_BOTS = str(Path(__file__).resolve().parents[1] / "protocol")
SWISS = ["Alpha=greedy,greedy", "Beta=random", "Gamma=greedy,random", "Delta=random,greedy", "Eps=greedy"]
KNOCKOUT = ["A=random", "B=greedy", "C=random,greedy", "D=greedy,random"]
KNOCKOUT_TIE_SEED = 4  # round 1 table 1 ends level after its 2 deals (found by trying seeds 0, 1, …)
runner = CliRunner()


def fresh() -> Desk:
    return Desk(make_engine("sqlite://"))


def event(desk: Desk, entries: list[str], *, fmt: str = "swiss", rounds: int | None = 3, deals: int = 3,
          seed: int = 11, per_deal: bool | None = None, preset: str = "competition") -> int:
    cfg = event_config("Bot Cup", fmt, rounds if fmt == "swiss" else None, preset, deals, seed, per_deal)
    return create_event(desk, cfg, [parse_entry(e) for e in entries])


def outcome(state: TournamentState) -> tuple[Any, ...]:
    """Everything the results are: each table's teams, deals and final slip, and the standings."""
    tables = [(r, n, ts.table.teams(), [d.source() for d in ts.deals], ts.final.to_dict() if ts.final else None)
              for r, rnd in sorted(state.rounds.items()) for n, ts in sorted(rnd.tables.items())]
    return tuple(tables), tuple((s.team_id, s.rank, s.match_points, s.level_diff) for s in state.standings())


def play(entries: list[str], **kw: Any) -> tuple[Desk, int, TournamentState]:
    desk = fresh()
    tid = event(desk, entries, **kw)
    return desk, tid, run_event(desk, tid, all_rounds=True)


# ---- a Swiss event ------------------------------------------------------------------------------------------
def test_swiss_event_runs_to_the_end_the_same_twice(tmp_path: Path) -> None:
    desk, tid, state = play(SWISS)
    assert state.finished and state.completed_rounds == 3
    # five teams: a bye each round, never twice to one team; every other team plays every round
    byes = [state.rounds[r].bye for r in (1, 2, 3)]
    assert None not in byes and len(set(byes)) == 3
    assert all(s.played == 3 for s in state.standings())
    # the same seed, a fresh database: the same event, deal by deal
    again = play(SWISS)[2]
    assert outcome(again) == outcome(state) and again.standings() == state.standings()
    # another seed deals other hands
    assert outcome(play(SWISS, seed=12)[2]) != outcome(state)
    # per-deal: every deal reported by the away team and confirmed by the home team, by the bot event; the
    # desk settled the levels itself, and a replay of the log agrees with what it stored
    events = desk.events(tid)
    assert {e.actor for e in events} == {BOT_ACTOR}
    kinds = Counter(e.type for e in events)
    deals = sum(len(ts.deals) for rnd in state.rounds.values() for ts in rnd.tables.values())
    assert kinds["deal_reported"] == kinds["deal_confirmed"] == deals
    assert all(ts.status == FINAL and ts.source == "deals" and ts.ended_by in ("deals", "pass_a")
               for rnd in state.rounds.values() for ts in rnd.tables.values())
    assert all(len(ts.deals) <= 3 for rnd in state.rounds.values() for ts in rnd.tables.values())
    desk.verify(tid)
    # the desk's exports, unchanged
    written = write_exports(state, events, tmp_path, "zh")
    assert {p.name for p in written} == {"event.xlsx", "event.json", "standings.csv", "tables.csv", "by_team.csv",
                                         "cross_table.csv", "log.json"}
    data = json.loads((tmp_path / "event.json").read_text(encoding="utf-8"))
    assert data["standings"] == standing_records(state) and data["completed_rounds"] == 3
    assert data["standings"][0]["players"] == list(state.teams[data["standings"][0]["team_id"]].players)
    sheet = load_workbook(tmp_path / "event.xlsx")["成绩排名 Standings"]
    names = {c.value for row in sheet.iter_rows() for c in row}
    assert {t.name for t in state.teams.values()} <= names
    assert "Alpha" in (tmp_path / "standings.csv").read_text(encoding="utf-8-sig")


def test_per_round_reporting_records_each_table_once() -> None:
    desk, tid, state = play(SWISS, per_deal=False)
    assert state.finished
    kinds = Counter(e.type for e in desk.events(tid))
    assert kinds["result_reported"] == 6 and kinds["deal_reported"] == 0
    assert all(ts.source == "server" and ts.final is not None and ts.final.deals
               for rnd in state.rounds.values() for ts in rnd.tables.values())
    # the same levels as the same event recorded deal by deal
    per_deal = play(SWISS)[2]
    assert [s.level_diff for s in state.standings()] == [s.level_diff for s in per_deal.standings()]
    desk.verify(tid)


def test_the_budget_is_kept_in_the_log() -> None:
    desk = fresh()
    cfg = event_config("Timed", "swiss", 1, "competition", 1, 3)
    tid = create_event(desk, cfg, [parse_entry(e) for e in SWISS[:2]], budget=0.25)
    assert settings(desk, tid)["budget"] == 0.25
    assert desk.events(tid)[0].to_dict()["data"]["notes"]["bot_event"]["budget"] == 0.25
    with pytest.raises(TournamentError, match="positive number of seconds per decision, not -1"):
        create_event(fresh(), cfg, [parse_entry(e) for e in SWISS[:2]], budget=-1)
    # an event made by hand (teams of bots registered as players) runs with the defaults
    other = desk.create(EventConfig(name="By hand", rounds=1, per_deal=True))
    desk.register(other, "G", ["greedy", "greedy"])
    desk.register(other, "R", ["random", "random"])
    assert settings(desk, other) == {} and run_event(desk, other).finished


def test_table_seeds_are_the_events_and_differ_by_table() -> None:
    assert table_seed(11, 1, 1) == table_seed(11, 1, 1)
    assert len({table_seed(11, 1, 1), table_seed(11, 1, 2), table_seed(11, 2, 1), table_seed(12, 1, 1)}) == 4
    assert len(table_seed(11, 1, 1)) == 32 and int(table_seed(11, 1, 1), 16) >= 0


def test_records_replay_the_tables(tmp_path: Path) -> None:
    from guandan.core.record import loads, replay

    desk = fresh()
    tid = event(desk, SWISS[:4], rounds=1)
    state = run_event(desk, tid, records=str(tmp_path))
    for n, ts in state.round(1).tables.items():
        data = loads((tmp_path / f"round-1-table-{n}.json").read_text(encoding="utf-8"))
        final = None
        for _action, _events, st in replay(data):
            final = st
        assert final is not None and [tuple(d.finish) for d in final.deals] == \
            [d.finish for d in ts.deals]


# ---- knockout -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("per_deal", [True, False])
def test_knockout_tie_is_decided_by_the_deciding_deal(per_deal: bool) -> None:
    plays: list[TablePlay] = []
    desk = fresh()
    tid = event(desk, KNOCKOUT, fmt="knockout", deals=2, seed=KNOCKOUT_TIE_SEED, per_deal=per_deal)
    state = run_event(desk, tid, all_rounds=True, progress=lambda p: plays.append(p.play) if p.play else None)
    assert state.finished and state.rounds_total == 2
    tied = state.table(1, 1)
    assert tied.result is not None and tied.result.winner is None  # level: a draw for 级差 and 场分
    assert tied.final is not None and tied.final.decider in (0, 1)
    decider = next(p for p in plays if (p.round, p.table) == (1, 1)).decider
    assert decider is not None and tied.final.decider == decider[0] % 2
    if per_deal:  # the deciding deal is in the log as a deal of its own, after the round's two
        assert tied.decider_deal is not None and tied.decider_deal.number == 3 and len(tied.deals) == 2
    winner = tied.table.teams()[tied.final.decider]
    assert winner in state.round(2).tables[1].table.teams()  # the desk sent the decider's winner through
    again = play(KNOCKOUT, fmt="knockout", deals=2, seed=KNOCKOUT_TIE_SEED, per_deal=per_deal)[2]
    assert outcome(again) == outcome(state)


def test_knockout_of_three_gives_a_bye() -> None:
    desk, tid, state = play(KNOCKOUT[:3], fmt="knockout")
    assert state.finished and len(state.round(1).tables) == 1 and len(state.round(1).byes) == 1
    desk.verify(tid)


# ---- resuming ---------------------------------------------------------------------------------------------
class Stop(Exception):
    pass


def test_a_stopped_run_resumes_without_replaying_or_losing_what_the_log_holds() -> None:
    whole = play(SWISS)[2]
    desk = fresh()
    tid = event(desk, SWISS)
    run_event(desk, tid)  # one round
    assert desk.state(tid).completed_rounds == 1

    def stop_after_first_table(p: Progress) -> None:
        if p.kind == "table":
            raise Stop

    with pytest.raises(Stop):
        run_event(desk, tid, progress=stop_after_first_table)
    mid = desk.state(tid)
    assert [ts.status for ts in mid.round(2).tables.values()] == [FINAL, "missing"]
    before = len(desk.events(tid))
    state = run_event(desk, tid, all_rounds=True)
    assert outcome(state) == outcome(whole)
    # nothing was written twice: each table's deals once, and the log only grew
    events = desk.events(tid)
    assert [e.seq for e in events] == list(range(1, len(events) + 1)) and len(events) > before
    reported = Counter((e.data["round"], e.data["table"]) for e in events if e.type == "deal_reported")
    assert reported == Counter({(r, n): len(ts.deals) for r, rnd in state.rounds.items()
                                for n, ts in rnd.tables.items()})
    desk.verify(tid)
    # over: another run plays nothing and says so for a given round
    assert outcome(run_event(desk, tid, all_rounds=True)) == outcome(whole)
    unchanged(desk, tid, lambda: run_event(desk, tid, round_no=4), "The event is over")


def test_a_table_reported_by_hand_is_left_to_the_arbiter() -> None:
    desk = fresh()
    tid = event(desk, SWISS[:4], rounds=2)
    desk.pair_next(tid)
    st = desk.state(tid)
    tb = st.table(1, 2).table
    desk.report_deal(tid, 1, 2, 1, "N S E", by=tb.away)
    unchanged(desk, tid, lambda: run_event(desk, tid), r"Round 1 table 2 has entries in the log that the bot event "
                                                       "did not write")
    # once the arbiter has settled it, the run goes on and keeps the arbiter's word
    desk.set_deals(tid, 1, 2, [{"finish": "N S E"}], reason="as reported", end=True)
    state = run_event(desk, tid)
    assert state.round(1).complete and state.table(1, 2).source == "arbiter"


def test_jobs_do_not_change_the_results() -> None:
    desk = fresh()
    tid = event(desk, SWISS[:4], rounds=2)
    assert outcome(run_event(desk, tid, all_rounds=True, workers=2)) == outcome(play(SWISS[:4], rounds=2)[2])


# ---- a 2020-protocol bot through the adapter ----------------------------------------------------------------
def test_a_2020_protocol_bot_plays_through_the_adapter() -> None:
    plays: list[TablePlay] = []
    desk = fresh()
    entries = ["Proto=external:conformance_bot:ConformanceBot,greedy", "Greedy=greedy", "Rand=random",
               "Proto2=external:conformance_bot:ConformanceBot"]
    tid = event(desk, entries, rounds=2)
    state = run_event(desk, tid, all_rounds=True, bot_paths=[PROTOCOL_BOTS],
                      progress=lambda p: plays.append(p.play) if p.play else None)
    assert state.finished and len(plays) == 4
    # the conformance bot checks every message it gets and raises on any fault: none crashed or fell back
    assert all(not any(side.values()) for p in plays for side in p.failures), [p.failures for p in plays]
    assert state.teams[1].players == ("external:conformance_bot:ConformanceBot", "greedy")


# ---- bad input --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "match"), [
    ("Alpha", "NAME=SPEC,SPEC"), ("=greedy", "NAME=SPEC,SPEC"), ("A=greedy,", "NAME=SPEC,SPEC"),
    ("A=greedy,random,greedy", "a team has two bots, not 3"),
])
def test_wrong_entry_syntax_is_refused(text: str, match: str) -> None:
    with pytest.raises(TournamentError, match=match) as e:
        parse_entry(text)
    assert e.value.msgid


@pytest.mark.parametrize(("entries", "match"), [
    (["A=greedy", "B=wizard"], "no bot tier called wizard"),
    (["A=greedy", "B=search:warp=9"], "the options of search:warp=9 are not valid"),
    (["A=greedy", "B=search:prior=99"], "the options of search:prior=99 are not valid"),
    (["A=greedy", "B=external:onlymodule"], "an external bot is written"),
    (["A=greedy", "a=random"], "Two entries are named a"),
    (["A=greedy", "12=random"], "not only digits"),
    (["A=greedy"], "at least two entries, not 1"),
])
def test_bad_entries_create_nothing(entries: list[str], match: str) -> None:
    desk = fresh()
    with pytest.raises(TournamentError, match=match):
        event(desk, entries)
    assert desk.tournaments() == []


@pytest.mark.parametrize(("teams", "rounds", "most"), [(4, 4, 3), (5, 6, 5)])
def test_more_swiss_rounds_than_the_teams_allow_are_refused(teams: int, rounds: int, most: int) -> None:
    desk = fresh()
    with pytest.raises(TournamentError, match=f"{teams} teams can play at most {most} Swiss rounds"):
        event(desk, SWISS[:teams], rounds=rounds)
    assert desk.tournaments() == []


def test_a_protocol_bot_needs_rules_the_protocol_knows() -> None:
    desk = fresh()
    with pytest.raises(TournamentError, match="cannot play the huopin rules"):
        event(desk, ["A=greedy", "B=external:conformance_bot:ConformanceBot"], preset="huopin")
    assert desk.tournaments() == []


def test_entering_teams_is_all_or_nothing() -> None:
    desk = fresh()
    tid = event(desk, SWISS[:2], rounds=1)
    unchanged(desk, tid, lambda: enter_teams(desk, tid, [Entry("C", ("greedy", "greedy")), Entry("D", ("x", "y"))]),
              "no bot tier called x")
    unchanged(desk, tid, lambda: enter_teams(desk, tid, [Entry("alpha", ("greedy", "greedy"))]), "already registered")
    assert enter_teams(desk, tid, [Entry("C", ("greedy", "random"))]) == [3]


def test_an_event_of_people_is_not_run() -> None:
    desk = fresh()
    tid = desk.create(EventConfig(name="People", rounds=1, per_deal=True))
    desk.register(tid, "Li", ["Li Wei", "Wang Fang"])
    desk.register(tid, "Zh", ["greedy", "greedy"])
    unchanged(desk, tid, lambda: run_event(desk, tid), "Team Li is not a team of bots: its player Li Wei")


def test_a_protocol_bot_that_cannot_be_found_is_refused_before_play() -> None:
    desk = fresh()
    tid = event(desk, ["A=greedy", "B=external:no_such_bot_module_xyz:Bot"], rounds=1)
    unchanged(desk, tid, lambda: run_event(desk, tid), "the module no_such_bot_module_xyz of its bot")


def test_a_round_out_of_turn_is_refused() -> None:
    desk = fresh()
    tid = event(desk, SWISS[:4])
    unchanged(desk, tid, lambda: run_event(desk, tid, round_no=2), "Round 2 cannot be played now: the next round "
                                                                   "to play is 1")


@pytest.mark.parametrize(("args", "match"), [
    (["--format", "league"], "swiss or knockout, not league"),
    (["--preset", "nope"], "no preset called nope"),
    (["--deals", "100"], "1 to 99, or 0"),
])
def test_bad_event_options_are_refused(args: list[str], match: str) -> None:
    fmt = args[1] if args[0] == "--format" else "swiss"
    preset = args[1] if args[0] == "--preset" else "competition"
    deals = int(args[1]) if args[0] == "--deals" else 3
    with pytest.raises(TournamentError, match=match):
        event_config("X", fmt, 3, preset, deals, 1)


# ---- the command line ---------------------------------------------------------------------------------------
def test_cli_new_run_and_exports(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'b.sqlite3'}"
    args = ["bot-event", "new", "CLI Bots", "--seed", "5", "--deals", "2", "--db", db, "--lang", "en"]
    for e in SWISS[:4]:
        args += ["--entry", e]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "created bot event 1: CLI Bots, Swiss of 4 teams, rounds: 2, seed 5" in res.output
    res = runner.invoke(app, ["bot-event", "run", "1", "--db", db, "--lang", "en"])
    assert res.exit_code == 0, res.output
    assert "round 1: 2 tables" in res.output and "standings after 1 of 2 rounds" in res.output
    res = runner.invoke(app, ["bot-event", "run", "1", "--all", "--out", str(tmp_path / "out"), "--db", db,
                              "--lang", "zh"])
    assert res.exit_code == 0, res.output
    assert "第2轮：2桌" in res.output and "CLI Bots：赛事结束" in res.output and "名次" in res.output
    assert (tmp_path / "out" / "event.xlsx").is_file() and (tmp_path / "out" / "log.json").is_file()
    # the desk's own commands read the same event
    res = runner.invoke(app, ["standings", "1", "--json", "--db", db])
    assert json.loads(res.output)["completed_rounds"] == 2


def test_cli_refusals_change_nothing(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'b.sqlite3'}"
    res = runner.invoke(app, ["bot-event", "new", "X", "--entry", "A=greedy", "--entry", "B=wizard", "--db", db,
                              "--lang", "en"])
    assert res.exit_code == 2 and "error: Entry B: there is no bot tier called wizard" in res.output
    assert Desk.open(db).tournaments() == []
    res = runner.invoke(app, ["bot-event", "new", "X", "--entry", "A", "--db", db, "--lang", "zh"])
    assert res.exit_code == 2 and "参赛队写作 NAME=SPEC,SPEC" in res.output
    res = runner.invoke(app, ["bot-event", "run", "1", "--db", f"sqlite:///{tmp_path / 'none.sqlite3'}",
                              "--lang", "en"])
    assert res.exit_code == 2 and "There is no tournament database" in res.output
    res = runner.invoke(app, ["bot-event", "run", "1", "--round", "1", "--all", "--db", db, "--lang", "en"])
    assert res.exit_code == 2 and "--round and --all exclude each other" in res.output


# ---- the desk's pages, unchanged ----------------------------------------------------------------------------
def test_the_venue_screen_and_the_bracket_show_a_bot_event() -> None:
    import warnings

    from fastapi import FastAPI

    from guandan.tournament.bracket import bracket_data
    from guandan.tournament.web import create_router

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Starlette's notice that it prefers httpx2 over the pinned httpx
        from fastapi.testclient import TestClient

    desk, swiss, _ = play(SWISS[:4], rounds=2)
    ko = event(desk, KNOCKOUT, fmt="knockout", deals=2, seed=KNOCKOUT_TIE_SEED)
    state = run_event(desk, ko, all_rounds=True)
    app = FastAPI()
    app.include_router(create_router(desk, base_url="https://bots.example"))
    client = TestClient(app, cookies={"lang": "en"})
    screen = client.get(f"/t/{swiss}/standings")
    assert screen.status_code == 200 and all(name in screen.text for name in ("Alpha", "Beta", "Gamma", "Delta"))
    page = client.get(f"/t/{ko}/bracket")
    champion = bracket_data(state)["champion"]
    assert page.status_code == 200 and champion is not None and champion["team"] in page.text


def test_a_bot_that_crashes_is_played_for_and_counted(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'c.sqlite3'}"
    res = runner.invoke(app, ["bot-event", "new", "Crash", "--rounds", "1", "--deals", "1", "--seed", "3",
                              "--entry", "Bad=external:conformance_bot:CrashingBot,greedy", "--entry", "Good=greedy",
                              "--db", db, "--lang", "en"])
    assert res.exit_code == 0, res.output
    assert "Swiss of 2 teams, rounds: 1, seed 3" in res.output  # a count after a colon reads right for one
    res = runner.invoke(app, ["bot-event", "run", "1", "--path", PROTOCOL_BOTS, "--db", db, "--lang", "en"])
    assert res.exit_code == 0, res.output
    # the round is played out and recorded; the crash and the moves played for the bot are told
    assert "Bad's bots: crashes: 1, timeouts: 0, invalid replies: 0" in res.output
    # one table of one deal: its counts read as one
    assert "round 1: 1 table\n" in res.output and re.search(r"round 1 table 1: .* in 1 deal\b", res.output), res.output
    assert Desk.open(db).state(1).round(1).complete

"""The desk's commands over the audit log: validation, the entry/confirmation workflow, re-pairing."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DatabaseError

from guandan.tournament.desk import Desk, report_table_result
from guandan.tournament.errors import NotFoundError, TournamentError
from guandan.tournament.model import EventConfig
from guandan.tournament.rounds import ResultSlip
from guandan.tournament.state import DISPUTED, ENTERED, FINAL, MISSING, REJECTED, Event, TournamentState, replay

from .conftest import SECRET, unchanged

NewEvent = Callable[..., int]


def test_registration(desk: Desk, new_event: NewEvent) -> None:
    tid = new_event(2)
    assert [t.name for t in desk.state(tid).teams.values()] == ["T1", "T2"]
    unchanged(desk, tid, lambda: desk.register(tid, "t1", ["a", "b"]), "already registered")
    unchanged(desk, tid, lambda: desk.register(tid, "T3", ["a"]), "two players")
    unchanged(desk, tid, lambda: desk.register(tid, "42", ["a", "b"]), "only digits")
    unchanged(desk, tid, lambda: desk.register(tid, "T3", ["a", "b"], rating="high"), "rating")  # type: ignore[arg-type]
    desk.pair_next(tid)
    unchanged(desk, tid, lambda: desk.register(tid, "Late", ["a", "b"]), "registration is closed")
    with pytest.raises(NotFoundError, match="no tournament number 99"):
        desk.state(99)


def test_enter_confirm_dispute_override(desk: Desk, new_event: NewEvent) -> None:
    tid = new_event(4, rounds=2, first_round="rating")
    rnd = desk.pair_next(tid)
    t1, t2 = rnd.tables[1].table, rnd.tables[2].table
    assert (t1.home, t1.away, t2.home, t2.away) == (1, 3, 2, 4)  # fold: 1v3, 2v4
    slip = ResultSlip.parse("A:6", "home", 6)
    unchanged(desk, tid, lambda: desk.confirm(tid, 1, 1, by=1), "no result waiting")
    unchanged(desk, tid, lambda: desk.enter_result(tid, 1, 1, slip, by=2), "does not play")
    desk.enter_result(tid, 1, 1, slip, by=3)
    assert desk.state(tid).table(1, 1).status == ENTERED
    unchanged(desk, tid, lambda: desk.confirm(tid, 1, 1, by=3), "the other team must confirm")
    # a pending result is not replaced by entering again: the other team must send it back first
    unchanged(desk, tid, lambda: desk.enter_result(tid, 1, 1, ResultSlip.parse("K:6"), by=3), "waiting for T1")
    unchanged(desk, tid, lambda: desk.reject(tid, 1, 1, by=3), "the other team must reject")
    desk.reject(tid, 1, 1, by=1, reason="we were at K")
    ts = desk.state(tid).table(1, 1)
    assert (ts.status, ts.pending, ts.note) == (REJECTED, None, "we were at K")
    desk.enter_result(tid, 1, 1, ResultSlip.parse("K:6"), by=3)  # entered again after the rejection
    desk.dispute(tid, 1, 1, by=1, reason="it was K:7")
    ts = desk.state(tid).table(1, 1)
    assert (ts.status, ts.note) == (DISPUTED, "it was K:7")
    # after a dispute neither team can enter or confirm: only the arbiter settles
    unchanged(desk, tid, lambda: desk.confirm(tid, 1, 1, by=1), "no result waiting")
    unchanged(desk, tid, lambda: desk.enter_result(tid, 1, 1, slip, by=3), "only the arbiter can settle")
    unchanged(desk, tid, lambda: desk.enter_result(tid, 1, 1, slip, by=1), "only the arbiter can settle")
    desk.override(tid, 1, 1, ResultSlip.parse("K:6"), reason="both teams agree at the desk")
    st = desk.state(tid)
    assert st.table(1, 1).status == FINAL and st.table(1, 1).result is not None
    assert st.table(1, 1).result.levels == (13, 6)
    unchanged(desk, tid, lambda: desk.enter_result(tid, 1, 1, slip, by=3), "only the arbiter")
    unchanged(desk, tid, lambda: desk.pair_next(tid), "table 2 .*T2 v T4.*: result missing")
    unchanged(desk, tid, lambda: desk.override(tid, 1, 2, slip, reason=""), "needs a reason")
    unchanged(desk, tid, lambda: desk.override(tid, 1, 2, ResultSlip.parse("K:6", "home"), reason="x"),
               "recorded at level A")
    desk.override(tid, 1, 2, ResultSlip.parse(None, forfeit="home"), reason="T2 12 minutes late")
    res = desk.state(tid).table(1, 2).result
    assert res is not None and res.winner == 1 and res.levels == (6, 14)
    # an override may change a final result, even once the next round is paired
    desk.pair_next(tid)
    desk.override(tid, 1, 1, ResultSlip.parse("6:6"), reason="scoring error found")
    assert desk.state(tid).table(1, 1).result.winner is None  # type: ignore[union-attr]
    desk.verify(tid)


def test_server_report(desk: Desk, new_event: NewEvent) -> None:
    tid = new_event(2, rounds=1)
    desk.pair_next(tid)
    report_table_result(desk, tid, 1, 1, levels=("Q", 14), passed_a=1, deals_played=8)
    st = desk.state(tid)
    assert st.table(1, 1).source == "server" and st.finished
    with pytest.raises(TournamentError, match="already has a final result"):
        report_table_result(desk, tid, 1, 1, levels=("Q", "A"), passed_a=1)
    assert desk.events(tid)[-1].actor == "server"


def test_repair_before_the_round_starts(desk: Desk, new_event: NewEvent) -> None:
    tid = new_event(6, rounds=3, seed=11)
    first = desk.pair_next(tid)
    assert first.method == "random" and first.seed == 11
    again = desk.repair(tid, reason="wrong draw announced")
    assert again.seed == 12 and again.method == "random"
    manual = desk.repair(tid, tables=[(1, 2), (3, 4), (5, 6)], reason="accessibility")
    assert [ts.table.teams() for ts in manual.tables.values()] == [(1, 2), (3, 4), (5, 6)]
    unchanged(desk, tid, lambda: desk.repair(tid, tables=[(1, 2), (3, 4)]), "not placed")
    unchanged(desk, tid, lambda: desk.repair(tid, tables=[(1, 2), (3, 4), (5, 1)]), "more than once")
    unchanged(desk, tid, lambda: desk.repair(tid, tables=[(1, 2), (3, 4), (5, 6)], bye=6), "6 placed more than once")
    for n in (1, 2, 3):
        desk.override(tid, 1, n, ResultSlip.parse("9:5"), reason="test")
    desk.pair_next(tid)
    unchanged(desk, tid, lambda: desk.repair(tid, tables=[(1, 2), (3, 5), (4, 6)]), "already met")
    desk.override(tid, 2, 1, ResultSlip.parse("9:5"), reason="test")
    unchanged(desk, tid, lambda: desk.repair(tid), "has started")


def test_withdrawal_and_byes(desk: Desk, new_event: NewEvent) -> None:
    tid = new_event(4, rounds=3, first_round="rating")
    desk.withdraw(tid, "T4", reason="ill")
    unchanged(desk, tid, lambda: desk.withdraw(tid, 4), "already withdrawn")
    rnd = desk.pair_next(tid)
    assert rnd.bye == 3 and len(rnd.tables) == 1
    desk.override(tid, 1, 1, ResultSlip.parse("8:8"), reason="t")
    rnd2 = desk.pair_next(tid)
    assert rnd2.bye in (1, 2) and rnd2.bye != 3
    standings = {s.team_id: s for s in desk.state(tid).standings()}
    assert standings[3].byes == 1 and standings[3].match_points == 2 and standings[3].level_diff == 8
    assert standings[4].played == 0


def test_no_valid_pairing_is_explained(desk: Desk, new_event: NewEvent) -> None:
    tid = new_event(4, rounds=4)
    for r in (1, 2, 3):
        rnd = desk.pair_next(tid)
        for n in rnd.tables:
            desk.override(tid, r, n, ResultSlip.parse("7:5"), reason="t")
    unchanged(desk, tid, lambda: desk.pair_next(tid), "no valid pairing exists for round 4: teams T2, T3, T1, T4 have")
    assert desk.state(tid).pairing_blockers() == []


def test_all_rounds_paired(desk: Desk, new_event: NewEvent) -> None:
    tid = new_event(2, rounds=1)
    desk.pair_next(tid)
    desk.override(tid, 1, 1, ResultSlip.parse("7:5"), reason="t")
    unchanged(desk, tid, lambda: desk.pair_next(tid), r"every round has been paired \(1 in all\)")


def test_log_is_append_only_in_the_database(desk: Desk, new_event: NewEvent) -> None:
    tid = new_event(2)
    with desk.engine.begin() as conn, pytest.raises(DatabaseError, match="append-only"):
        conn.execute(text("UPDATE tournament_events SET actor = 'mallory'"))
    with desk.engine.begin() as conn, pytest.raises(DatabaseError, match="append-only"):
        conn.execute(text("DELETE FROM tournament_events"))
    assert len(desk.events(tid)) == 3


def test_a_second_desk_sees_the_first_ones_changes(desk: Desk, new_event: NewEvent) -> None:
    tid = new_event(4)
    other = Desk(desk.engine, migrate=False)
    other.pair_next(tid)
    assert desk.state(tid).current_round == 1  # the cached state notices the newer log entry
    desk.override(tid, 1, 1, ResultSlip.parse("9:8"), reason="t")
    assert other.state(tid).table(1, 1).status == FINAL
    assert other.state(tid).table(1, 2).status == MISSING
    desk.verify(tid)


def test_replay_rejects_a_broken_log() -> None:
    with pytest.raises(TournamentError, match="the audit log is damaged at entry 1: the log must start with exactly one"):
        replay([Event(1, "team_registered", {"team": {"name": "x", "players": ["a", "b"]}})])
    st = TournamentState()
    with pytest.raises(TournamentError, match="out of order"):
        st.apply(Event(2, "created", {}))
    with pytest.raises(TournamentError, match="unknown event type"):
        st.apply(Event(1, "deleted", {}))
    with pytest.raises(TournamentError, match=r'malformed "created" entry: a field is missing or of the wrong kind$'):
        st.apply(Event(1, "created", {}))


def test_verify_notices_a_tampered_projection(desk: Desk, new_event: NewEvent) -> None:
    tid = new_event(2)
    desk.pair_next(tid)
    desk.override(tid, 1, 1, ResultSlip.parse("9:8"), reason="t")
    desk.verify(tid)
    with desk.engine.begin() as conn:
        conn.execute(text("UPDATE tournament_standings SET match_points = 9 WHERE team_id = 2"))
    with pytest.raises(TournamentError, match="differ from a replay"):
        desk.verify(tid)


def test_a_log_written_before_the_registration_checks_still_replays() -> None:
    """The checks on new registrations (finite ratings, one person per team, plain names) refuse only entries
    being added: an older log that holds such entries replays as it did."""
    config = EventConfig(name="Old Cup", rounds=3).to_dict()
    old = [Event(1, "created", {"config": config, "secret": SECRET}),
           Event(2, "team_registered", {"team": {"name": "A\tB", "players": ["x", "x"], "rating": -5}}),
           Event(3, "team_registered", {"team": {"name": "C", "players": ["x", "y"], "rating": None}})]
    state = replay(old, 1)
    assert [t.players for t in state.teams.values()] == [("x", "x"), ("x", "y")]
    with pytest.raises(TournamentError, match="two different players"):
        state.check_new(Event(4, "team_registered", {"team": {"name": "D", "players": ["z", "Z"]}}))


def test_a_bot_may_sit_in_many_teams_a_person_in_one(desk: Desk) -> None:
    tid = desk.create(EventConfig(name="Bots", rounds=1), secret=SECRET)
    desk.register(tid, "A", ["heuristic", "heuristic"])
    desk.register(tid, "B", ["heuristic", "search:max_worlds=4"])
    assert len(desk.state(tid).teams) == 2
    unchanged(desk, tid, lambda: desk.register(tid, "C", ["Heuristics", "heuristics"]), "not \"heuristics\" twice")


def test_a_round_start_given_by_hand_is_neither_in_the_future_nor_before_the_pairing() -> None:
    from datetime import UTC, datetime, timedelta

    from guandan.db import make_engine

    now = datetime(2026, 5, 1, 14, 0, tzinfo=UTC)
    desk = Desk(make_engine("sqlite://"), clock=lambda: now)
    tid = desk.create(EventConfig(name="Clock Cup", rounds=2, time_zone="Asia/Shanghai"), secret=SECRET)
    for i in (1, 2):
        desk.register(tid, f"T{i}", [f"a{i}", f"b{i}"])
    desk.pair_next(tid)
    now += timedelta(minutes=10)
    # said on the venue's clocks, the zone named
    unchanged(desk, tid, lambda: desk.start_round(tid, 1, now + timedelta(days=1)),
              r"start 2026-05-02 22:10:00 Asia/Shanghai \(UTC\+08:00\) is in the future \(it is now 2026-05-01 22:10:00\)")
    unchanged(desk, tid, lambda: desk.start_round(tid, 1, now - timedelta(minutes=11)),
              r"is before round 1 was paired \(2026-05-01 22:00:00\)")
    desk.start_round(tid, 1, now + timedelta(minutes=1))  # the arbiter's watch may be a little ahead
    assert desk.state(tid).rounds[1].started_at == "2026-05-01T14:11:00+00:00"


def test_a_team_is_withdrawn_from_the_standings_after_the_round_it_withdrew_in(desk: Desk, new_event: NewEvent) -> None:
    from guandan.tournament.export import standing_records

    tid = new_event(4, rounds=3)

    def play_round() -> None:
        st = desk.pair_next(tid)
        for n in st.tables:
            desk.override(tid, st.number, n, ResultSlip.parse("9:8"), reason="t")

    play_round()
    play_round()
    desk.withdraw(tid, "T1", reason="left")
    state = desk.state(tid)

    def withdrawn(after: int | None) -> list[str]:
        return [r["team"] for r in standing_records(state, after) if r["withdrawn"]]

    assert (withdrawn(1), withdrawn(2), withdrawn(None)) == ([], ["T1"], ["T1"])
    play_round()
    assert desk.state(tid).finished
    unchanged(desk, tid, lambda: desk.withdraw(tid, "T2", reason="late"), "the event is over")

"""Deleting an account erases its username from every online event, although the desk's log is
append-only: the log refers to the players, and their names are kept beside it (Desk.keep_name)."""

from __future__ import annotations

import json

from sqlalchemy import select

from guandan.db.tournament import TournamentEventRow
from guandan.tournament import online

from .test_events_online import PASSWORD, Site, new_event, site, team_up  # noqa: F401  (site: the fixture)


def _stored_log(s: Site, tid: int) -> str:
    """The log as the database holds it (not as the desk reads it)."""
    with s.events.desk.sessions() as db:
        rows = db.scalars(select(TournamentEventRow).where(TournamentEventRow.tournament_id == tid)
                          .order_by(TournamentEventRow.seq))
        return json.dumps([(r.type, r.data, r.actor) for r in rows], ensure_ascii=False)


def _delete(s: Site, name: str) -> None:
    me = s.players[name]
    r = me.client.request("DELETE", "/api/me", json={"password": PASSWORD}, headers={"X-CSRF-Token": me.csrf})
    assert r.status_code == 200, r.text


def test_the_log_never_holds_a_players_name(site: Site) -> None:  # noqa: F811
    tid = new_event(site)
    team_up(site, tid, "Red", "ann", "bob")
    stored = _stored_log(site, tid)
    assert "ann" not in stored and "bob" not in stored
    assert site.events.desk.state(tid).teams[1].players == ("ann", "bob")  # the desk reads the names


def test_a_deleted_players_name_is_gone_and_the_event_reads_whole(site: Site) -> None:  # noqa: F811
    tid = new_event(site)
    team_up(site, tid, "Red", "ann", "bob")
    team_up(site, tid, "Blue", "cat", "dan")
    online.replace_player(site.events.desk, tid, "Blue", "dan", "eve", "dan is ill")
    other = new_event(site)  # an event ann never entered is left as it was
    team_up(site, other, "Green", "eve", "fay")
    before_other = site.events.desk.state(other).teams
    user_id = site.players["ann"].client.get("/api/me").json()["user"]["id"]
    reader = site.events.desk.state(tid)  # a desk that read the event before the deletion …

    _delete(site, "ann")

    state = site.events.desk.state(tid)
    assert state.teams[1].players == (f"#{user_id}", "bob")
    assert state.teams[2].players == ("cat", "eve")
    assert reader.teams[1].players == ("ann", "bob")  # (a copy: what was read stays as read)
    assert site.events.desk.verify(tid).teams == state.teams  # the log replays whole
    assert "ann" not in json.dumps([e.data for e in site.events.desk.events(tid)])
    assert "ann" not in _stored_log(site, tid)
    last = site.events.desk.events(tid)[-1]
    assert (last.type, last.data, last.actor) == ("names_forgotten", {"people": 1, "reason": "account deleted"},
                                                  "server")
    assert site.events.desk.state(other).teams == before_other
    assert "ann" not in json.dumps(site.players["bob"].client.get(f"/api/events/{tid}").json())


def test_another_desk_on_the_same_database_reads_the_erasure(site: Site) -> None:  # noqa: F811
    from guandan.tournament.desk import Desk

    tid = new_event(site)
    team_up(site, tid, "Red", "ann", "bob")
    team_up(site, tid, "Blue", "cat", "dan")
    second = Desk(site.events.desk.engine, migrate=False)  # e.g. the arbiter's CLI beside the server
    assert second.peek(tid, lambda st: st.teams[1].players) == ("ann", "bob")  # it has cached the state
    _delete(site, "ann")
    assert "ann" not in second.peek(tid, lambda st: st.teams[1].players)


def test_a_pending_invitation_of_a_deleted_account_goes(site: Site) -> None:  # noqa: F811
    tid = new_event(site)
    r = site.players["ann"].post(f"/api/events/{tid}/entries", {"team_name": "Red", "partner": "bob"})
    assert r.status_code == 200, r.text
    _delete(site, "ann")
    page = site.players["bob"].client.get(f"/api/events/{tid}").json()
    assert "ann" not in json.dumps(page)

"""Online events on the web app's tables: teams of two accounts register (the partner confirms), the
arbiter starts a round and the server opens a room per table with every seat bound to its account, the
deals are reported to the desk by the server itself, a seat nobody took is scored by the lateness rule,
the round's warning ends the table after the deal in play, a dropped player's seat is played by the bot
until they are back, and the arbiter pauses a table, replaces a player and overrides a result.

The desk's clock is a stand-in and the round-up loop is driven by the tests (on the app's event loop),
so nothing here waits on time."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from argon2 import profiles
from fastapi.testclient import TestClient

from guandan.server.accounts_service import AccountSettings
from guandan.server.app import create_app
from guandan.server.events_online import OnlineEvents
from guandan.server.rooms import Room
from guandan.server.table import Settings
from guandan.tournament import online
from guandan.tournament.model import EventConfig, RoundLimits
from guandan.tournament.state import FINAL
from guandan.tournament.web import level_text

from .conftest import counting_seeds
from .test_ws import recv_until

pytestmark = pytest.mark.timeout(180)
PASSWORD = "correct horse battery"


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 2, 19, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@dataclasses.dataclass
class Player:
    username: str
    client: TestClient
    csrf: str

    def post(self, path: str, body: dict[str, Any] | None = None, *, csrf: bool = True) -> Any:
        return self.client.post(path, json=body if body is not None else {},
                                headers={"X-CSRF-Token": self.csrf} if csrf else {})


@dataclasses.dataclass
class Site:
    app: Any
    client: TestClient
    events: OnlineEvents
    clock: Clock
    players: dict[str, Player]

    def on_loop(self, fn: Callable[..., Any], *args: Any) -> Any:
        portal = self.client.portal
        assert portal is not None
        return portal.call(fn, *args)

    def reconcile(self, tid: int) -> None:
        self.on_loop(self.events.reconcile, tid)

    def room(self, code: str) -> Room:
        return self.events.service.rooms[code]


NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    # nobody is played for before a test says so: a seat nobody connected to waits (a test that drops a player
    # sets the grace to 0 first), and the turn timers are the event rooms' own (40 s for a first play)
    settings = Settings(bot_delay_ms=0, next_deal_s=0, seed_source=counting_seeds("online"), workers=0,
                        disconnect_grace_s=3600)
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", settings,
                     accounts=AccountSettings(password_parameters=profiles.CHEAPEST, signups_per_address=1000))
    events: OnlineEvents = app.state.online_events
    events.tick_s = 3600  # the tests drive the round-up themselves
    clock = Clock()
    events.desk.now = clock
    with TestClient(app) as c:
        players = {}
        for name in NAMES:
            browser = TestClient(app)
            r = browser.post("/api/auth/signup", json={"username": name, "password": PASSWORD})
            assert r.status_code == 201, r.text
            players[name] = Player(name, browser, r.json()["csrf"])
        yield Site(app, c, events, clock, players)


def new_event(site: Site, per_deal: bool = True, **limits: Any) -> int:
    lim = {"max_deals": 1, "max_minutes": 30, "warning_minutes": 5, **limits}
    config = EventConfig(name="Club night", rounds=2, limits=RoundLimits(**lim), per_deal=per_deal, seed=3)
    return online.create_online(site.events.desk, config, secret="arbiter-key-123")


def team_up(site: Site, tid: int, team: str, a: str, b: str) -> None:
    r = site.players[a].post(f"/api/events/{tid}/entries", {"team_name": team, "partner": b})
    assert r.status_code == 200, r.text
    assert r.json()["me"]["entry"] == {"team_name": team, "partner": b}
    r = site.players[b].post(f"/api/events/{tid}/entries/confirm")
    assert r.status_code == 200, r.text
    assert r.json()["me"]["team"]["name"] == team


def two_teams(site: Site) -> int:
    tid = new_event(site)
    team_up(site, tid, "Red", "ann", "bob")
    team_up(site, tid, "Blue", "cat", "dan")
    return tid


def start_round(site: Site, tid: int) -> dict[str, Any]:
    r = site.client.post(f"/api/events/{tid}/arbiter/round", json={"key": "arbiter-key-123"})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def take_seats(site: Site, tid: int, *names: str) -> dict[str, dict[str, Any]]:
    out = {}
    for name in names:
        r = site.players[name].post(f"/api/events/{tid}/seat")
        assert r.status_code == 200, r.text
        out[name] = r.json()
    return out


def over(frame: dict[str, Any]) -> bool:
    return frame["type"] in ("room", "snapshot") and frame["room"]["status"] == "over"


def all_auto(site: Site, code: str) -> None:
    def go() -> None:
        room = site.room(code)
        for s in room.seats:
            s.auto = True
        site.events.service.schedule(room)

    site.on_loop(go)


# --- registration -----------------------------------------------------------------------------------
def test_a_team_of_two_accounts_registers_and_the_partner_confirms(site: Site) -> None:
    tid = new_event(site)
    ann, bob = site.players["ann"], site.players["bob"]
    assert site.client.get(f"/api/events/{tid}").json()["me"] is None
    assert ann.client.get(f"/api/events/{tid}").json()["me"]["entry"] is None
    r = ann.post(f"/api/events/{tid}/entries", {"team_name": "Red", "partner": "BOB"})
    assert r.status_code == 200 and r.json()["me"]["entry"]["partner"] == "bob"
    assert bob.client.get(f"/api/events/{tid}").json()["me"]["invitation"] == {"team_name": "Red", "partner": "ann"}
    assert site.events.desk.state(tid).teams == {}  # not registered before the partner agrees
    assert ann.post(f"/api/events/{tid}/entries/confirm").json()["error"] == "no_invitation"  # not ann's to confirm
    r = bob.post(f"/api/events/{tid}/entries/confirm")
    assert r.status_code == 200
    team = site.events.desk.state(tid).teams[1]
    assert (team.name, team.players) == ("Red", ("ann", "bob"))
    log = site.events.desk.events(tid)
    bob_id = bob.client.get("/api/me").json()["user"]["id"]
    # the log names the account by its number, never by a name that a deleted account takes with it
    assert log[-1].type == "team_registered" and log[-1].actor == f"online:#{bob_id}"


@pytest.mark.parametrize(("who", "body", "status", "code"), [
    ("ann", {"team_name": "Red", "partner": "nobody"}, 404, "no_player"),
    ("ann", {"team_name": "Red", "partner": "ann"}, 422, "self_partner"),
    ("ann", {"team_name": "123", "partner": "bob"}, 422, "bad_team_name"),
    ("ann", {"team_name": "  ", "partner": "bob"}, 422, "bad_team_name"),
    ("ann", {"team_name": "x" * 101, "partner": "bob"}, 422, "bad_team_name"),
    ("eve", {"team_name": "Blue", "partner": "fay"}, 409, "team_taken"),
    ("eve", {"team_name": "Green", "partner": "ann"}, 409, "partner_entered"),
    ("bob", {"team_name": "Green", "partner": "eve"}, 409, "already_entered"),
])
def test_bad_entries_are_refused_in_both_languages_and_change_nothing(site: Site, who: str, body: dict[str, str],
                                                                      status: int, code: str) -> None:
    tid = new_event(site)
    team_up(site, tid, "Blue", "cat", "dan")
    assert site.players["ann"].post(f"/api/events/{tid}/entries", {"team_name": "Red", "partner": "bob"}).status_code == 200
    before = site.events._entries(tid)
    r = site.players[who].post(f"/api/events/{tid}/entries", body)
    assert (r.status_code, r.json()["error"]) == (status, code), r.text
    text = r.json()["text"]
    assert text["zh"] and text["en"] and text["zh"] != text["en"]
    assert [(e.team_name, e.status) for e in site.events._entries(tid)] == [(e.team_name, e.status) for e in before]


def test_entries_need_a_session_and_its_csrf_token_and_an_online_event(site: Site) -> None:
    tid = new_event(site)
    body = {"team_name": "Red", "partner": "bob"}
    assert site.client.post(f"/api/events/{tid}/entries", json=body).status_code == 401
    r = site.players["ann"].post(f"/api/events/{tid}/entries", body, csrf=False)
    assert (r.status_code, r.json()["error"]) == (403, "csrf")
    desk_only = site.events.desk.create(EventConfig(name="At the venue"))
    r = site.players["ann"].post(f"/api/events/{desk_only}/entries", body)
    assert (r.status_code, r.json()["error"]) == (404, "not_online")
    assert site.players["ann"].post("/api/events/99/entries", body).json()["error"] == "no_event"
    assert site.events._entries(tid) == []


def test_a_waiting_entry_can_be_declined_and_registration_closes_with_round_one(site: Site) -> None:
    tid = two_teams(site)
    eve, fay = site.players["eve"], site.players["fay"]
    assert eve.post(f"/api/events/{tid}/entries", {"team_name": "Green", "partner": "fay"}).status_code == 200
    assert fay.post(f"/api/events/{tid}/entries/decline").status_code == 200
    assert site.events._entries(tid)[-1].team_name == "Blue"
    assert fay.post(f"/api/events/{tid}/entries/decline").json()["error"] == "no_entry"
    start_round(site, tid)
    r = eve.post(f"/api/events/{tid}/entries", {"team_name": "Green", "partner": "fay"})
    assert (r.status_code, r.json()["error"]) == (409, "registration_closed")


def test_an_entry_still_waiting_when_entries_close_stays_out_and_cannot_be_withdrawn_or_confirmed(site: Site) -> None:
    """Round 1 closes the entries: an entry its partner had not confirmed is not in the event, and both its
    accounts are told so by the event's view (their entry and invitation, with the entries closed); neither may
    withdraw, decline or confirm it any more, and nothing changes."""
    tid = two_teams(site)
    eve, fay = site.players["eve"], site.players["fay"]
    assert eve.post(f"/api/events/{tid}/entries", {"team_name": "Green", "partner": "fay"}).status_code == 200
    start_round(site, tid)
    for who, path in ((eve, "decline"), (fay, "decline"), (fay, "confirm")):
        r = who.post(f"/api/events/{tid}/entries/{path}")
        assert (r.status_code, r.json()["error"]) == (409, "registration_closed"), (who.username, path)
        assert r.json()["text"]["zh"] == "报名已截止：第1轮已经编排。"
    assert [(e.team_name, e.status) for e in site.events._entries(tid)][-1] == ("Green", "pending")
    assert [t.name for t in site.events.desk.state(tid).teams.values()] == ["Red", "Blue"]
    mine = eve.client.get(f"/api/events/{tid}").json()
    assert not mine["registration_open"] and mine["me"]["entry"] == {"team_name": "Green", "partner": "fay"}
    assert fay.client.get(f"/api/events/{tid}").json()["me"]["invitation"] == {"team_name": "Green", "partner": "eve"}


# --- a round on the server's tables -----------------------------------------------------------------
def test_the_round_opens_a_room_per_table_with_every_seat_bound_to_its_account(site: Site) -> None:
    tid = two_teams(site)
    r = site.client.post(f"/api/events/{tid}/arbiter/round", json={"key": "wrong"})
    assert (r.status_code, r.json()["error"]) == (403, "wrong_key")
    assert site.players["ann"].post(f"/api/events/{tid}/seat").json()["error"] == "no_table"  # not paired yet
    view = start_round(site, tid)
    [table] = view["tables"]
    code = table["room"]
    room = site.room(code)
    st = site.events.desk.state(tid)
    assert st.rounds[1].started_at is not None
    ids = {n: site.events._user(n).id for n in NAMES}  # type: ignore[union-attr]
    assert [s.user_id for s in room.seats] == [ids[p] for p in online.seats_of(st, 1, 1)]
    assert room.config.max_deals == 1 and not room.config.listed and isinstance(room.seed, str)
    # nobody takes a seat but its account, through its session
    assert site.client.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "x"}).json()["error"] == "seat_taken"
    assert site.players["eve"].post(f"/api/events/{tid}/seat").json()["error"] == "no_table"
    assert site.players["ann"].post(f"/api/events/{tid}/seat", csrf=False).json()["error"] == "csrf"
    seats = take_seats(site, tid, "ann")
    assert room.seats[seats["ann"]["seat"]].user_id == ids["ann"]
    assert site.client.post(f"/api/rooms/{code}/leave", json={"token": seats["ann"]["token"]}).json()["error"] \
        == "seats_bound"
    assert site.client.post(f"/api/rooms/{code}/ready", json={"token": seats["ann"]["token"], "ready": False}) \
        .json()["error"] == "seats_bound"
    assert site.client.post(f"/api/rooms/{code}/bots", json={"token": seats["ann"]["token"], "seat": 1,
                                                             "tier": "greedy"}).json()["error"] == "seats_bound"
    with site.client.websocket_connect(f"/ws/{code}?token=guessed-token") as ws:
        assert ws.receive_json()["code"] == "forbidden"
    me = site.players["ann"].client.get(f"/api/events/{tid}").json()["me"]
    assert me["table"]["room"] == code and me["table"]["open"]
    assert room.status == "lobby"
    take_seats(site, tid, "bob", "cat", "dan")
    assert room.status == "playing"


def test_every_deal_is_reported_by_the_server_and_the_standings_follow(site: Site) -> None:
    tid = two_teams(site)
    code = start_round(site, tid)["tables"][0]["room"]
    take_seats(site, tid, "ann", "bob", "cat", "dan")
    with site.client.websocket_connect(f"/ws/{code}") as ws:
        all_auto(site, code)
        recv_until(ws, over, limit=20_000)
    st = site.events.desk.state(tid)
    ts = st.table(1, 1)
    assert ts.status == FINAL and ts.source == "deals" and len(ts.deals) == 1 and ts.ended_by == "deals"
    reports = [e for e in site.events.desk.events(tid) if e.type in ("deal_reported", "deal_confirmed")]
    assert [e.type for e in reports] == ["deal_reported", "deal_confirmed"]
    assert {e.actor for e in reports} == {"server"}
    standings = site.client.get(f"/api/t/{tid}/standings").json()
    assert {row["team"] if "team" in row else row["name"] for row in standings["standings"]} == {"Red", "Blue"}
    mine = site.players["ann"].client.get(f"/api/events/{tid}").json()["me"]["table"]
    # the player reads the result, not only that there is one: the levels home first, as the desk writes them
    assert ts.result is not None
    levels = f"{level_text(ts.result.levels[0])} : {level_text(ts.result.levels[1])}"
    assert mine["final"] and mine["result_text"]["en"].startswith(levels) and mine["result_text"]["zh"].startswith(levels)
    arbiter = site.client.post(f"/api/events/{tid}/arbiter", json={"key": "arbiter-key-123"}).json()
    assert arbiter["tables"][0]["result_text"] == mine["result_text"]


def test_an_event_reported_by_round_gets_the_tables_result_from_the_server(site: Site) -> None:
    tid = new_event(site, per_deal=False, max_deals=2)
    team_up(site, tid, "Red", "ann", "bob")
    team_up(site, tid, "Blue", "cat", "dan")
    code = start_round(site, tid)["tables"][0]["room"]
    take_seats(site, tid, "ann", "bob", "cat", "dan")
    with site.client.websocket_connect(f"/ws/{code}") as ws:
        all_auto(site, code)
        recv_until(ws, over, limit=40_000)
    match = site.room(code).match if code in site.events.service.rooms else None
    ts = site.events.desk.state(tid).table(1, 1)
    assert ts.status == FINAL and ts.source == "server" and ts.final is not None and ts.final.deals == 2
    assert ts.result is not None
    if match is not None:
        assert ts.result.levels == (match.levels[0] + 2, match.levels[1] + 2)
    assert [e.actor for e in site.events.desk.events(tid) if e.type == "result_reported"] == ["server"]


def test_a_team_that_never_sits_down_forfeits_after_the_lateness_rule(site: Site) -> None:
    tid = two_teams(site)
    code = start_round(site, tid)["tables"][0]["room"]
    st = site.events.desk.state(tid)
    home = st.teams[st.table(1, 1).table.home].players
    take_seats(site, tid, *home)  # only the home team comes
    site.clock.advance(minutes=10)  # 10 minutes is not more than 10
    site.reconcile(tid)
    assert site.events.desk.state(tid).table(1, 1).status != FINAL
    site.clock.advance(seconds=1)
    site.reconcile(tid)
    ts = site.events.desk.state(tid).table(1, 1)
    assert ts.status == FINAL and ts.final is not None and ts.final.forfeit == 1 and ts.source == "server"
    assert ts.result is not None and ts.result.winner == 0
    assert site.client.get(f"/api/rooms/{code}").json()["error"] == "room_closed"


def away_team_late(site: Site, tid: int, minutes: int) -> str:
    """Round 1 started, and its table's home team and one of the away team seated at once, the other of the away team
    ``minutes`` later: the table's room code."""
    code: str = start_round(site, tid)["tables"][0]["room"]
    st = site.events.desk.state(tid)
    tb = st.table(1, 1).table
    home, away = st.teams[tb.home].players, st.teams[tb.away].players
    take_seats(site, tid, *home, away[0])
    site.clock.advance(minutes=minutes)
    take_seats(site, tid, away[1])
    return code


def test_a_team_more_than_five_minutes_late_gives_the_other_the_first_deal(site: Site) -> None:
    tid = new_event(site, max_deals=2)
    team_up(site, tid, "Red", "ann", "bob")
    team_up(site, tid, "Blue", "cat", "dan")
    code = away_team_late(site, tid, 6)  # the away team is complete 6 minutes after the start
    room = site.room(code)
    assert room.status == "playing" and room.config.award == (0, 3) and room.config.max_deals == 1
    assert room.match is not None and room.match.levels == (3, 0) and room.match.declarer == 0
    ts = site.events.desk.state(tid).table(1, 1)
    assert [d.award for d in ts.deals] == [0] and ts.levels_now == (5, 2)
    assert site.events.desk.events(tid)[-1].actor == "server"
    with site.client.websocket_connect(f"/ws/{code}") as ws:
        all_auto(site, code)
        recv_until(ws, over, limit=20_000)
    ts = site.events.desk.state(tid).table(1, 1)
    assert ts.status == FINAL and len(ts.deals) == 2 and ts.ended_by == "deals"


def test_five_minutes_late_is_on_time_and_more_than_ten_at_the_door_is_a_forfeit(site: Site) -> None:
    tid = two_teams(site)
    code = away_team_late(site, tid, 5)
    assert site.room(code).config.award is None and site.room(code).status == "playing"
    r = site.client.post("/api/rooms", json={"award": [0, 3]})
    assert r.status_code == 400  # the award is the server's to give
    # another event: a team that completes its table more than ten minutes late forfeits there and then
    other = two_teams(site)
    code = away_team_late(site, other, 11)
    ts = site.events.desk.state(other).table(1, 1)
    assert ts.status == FINAL and ts.final is not None and ts.final.forfeit == 1
    assert site.client.get(f"/api/rooms/{code}").json()["error"] == "room_closed"


def test_after_the_warning_the_deal_in_play_is_the_tables_last(site: Site) -> None:
    tid = new_event(site, max_deals=5)
    team_up(site, tid, "Red", "ann", "bob")
    team_up(site, tid, "Blue", "cat", "dan")
    code = start_round(site, tid)["tables"][0]["room"]
    take_seats(site, tid, "ann", "bob", "cat", "dan")
    site.clock.advance(minutes=25)  # the warning: 30 minutes less 5
    site.reconcile(tid)
    room = site.room(code)
    assert room.match is not None and room.match.config.max_deals == 1 and room.config.max_deals == 1
    with site.client.websocket_connect(f"/ws/{code}") as ws:
        all_auto(site, code)
        recv_until(ws, over, limit=20_000)
    ts = site.events.desk.state(tid).table(1, 1)
    assert ts.status == FINAL and ts.ended_by == "time" and len(ts.deals) == 1


def test_a_dropped_player_is_played_for_by_the_bot_until_they_are_back(site: Site) -> None:
    tid = two_teams(site)
    code = start_round(site, tid)["tables"][0]["room"]
    tokens = {v["seat"]: v["token"] for v in take_seats(site, tid, "ann", "bob", "cat", "dan").values()}
    c = site.client
    socks = {s: c.websocket_connect(f"/ws/{code}?token={tok}") for s, tok in tokens.items()}
    for ws in socks.values():
        ws.__enter__()
    try:
        first = recv_until(socks[0], lambda f: f["type"] in ("snapshot", "update") and f["view"] is not None
                           and f["view"]["to_move"] is not None)
        mover = first["view"]["to_move"]
        watcher = socks[(mover + 1) % 4]
        site.events.service.settings.disconnect_grace_s = 0
        socks.pop(mover).__exit__(None, None, None)  # the player to move drops
        recv_until(watcher, lambda f: f["type"] == "room" and f["room"]["seats"][mover]["auto"])
        recv_until(watcher, lambda f: f["type"] == "update" and f["action"]["seat"] == mover)  # the bot played
        assert site.room(code).seats[mover].auto
        socks[mover] = c.websocket_connect(f"/ws/{code}?token={tokens[mover]}")
        socks[mover].__enter__()
        back = recv_until(watcher, lambda f: f["type"] == "room" and f["room"]["seats"][mover]["online"])
        assert not back["room"]["seats"][mover]["auto"]  # 托管 ends when the player is back
        assert not site.room(code).seats[mover].auto
    finally:
        for ws in socks.values():
            ws.__exit__(None, None, None)


# --- the arbiter ------------------------------------------------------------------------------------
def test_the_arbiter_pauses_and_resumes_a_table_with_a_reason_in_the_log(site: Site) -> None:
    tid = two_teams(site)
    code = start_round(site, tid)["tables"][0]["room"]
    tokens = {v["seat"]: v["token"] for v in take_seats(site, tid, "ann", "bob", "cat", "dan").values()}
    key = "arbiter-key-123"
    r = site.client.post(f"/api/events/{tid}/arbiter/pause", json={"key": key, "round": 1, "table": 1})
    assert (r.status_code, r.json()["error"]) == (409, "desk_refused")  # no reason
    r = site.client.post(f"/api/events/{tid}/arbiter/pause",
                         json={"key": key, "round": 1, "table": 1, "reason": "a player's connection is down"})
    assert r.status_code == 200 and r.json()["tables"][0]["paused"]
    room = site.room(code)
    assert room.held and room.paused
    assert site.events.desk.events(tid)[-1].type == "table_paused"
    mover = room.match.to_move if room.match else None
    assert mover is not None
    with site.client.websocket_connect(f"/ws/{code}?token={tokens[mover]}") as ws:
        f = recv_until(ws, lambda f: f["type"] == "snapshot")
        assert f["room"]["paused"] and site.room(code).held  # a player coming back does not lift the pause
        ws.send_json({"type": "act", "kind": "pass", "cards": []})
        assert recv_until(ws, lambda f: f["type"] == "error")["code"] == "held"
    r = site.client.post(f"/api/events/{tid}/arbiter/resume", json={"key": key, "round": 1, "table": 1})
    assert r.status_code == 200 and not r.json()["tables"][0]["paused"]
    assert not room.held and not room.paused


def test_the_arbiter_replaces_a_player_whose_seat_goes_to_the_new_account(site: Site) -> None:
    tid = two_teams(site)
    key = "arbiter-key-123"
    code = start_round(site, tid)["tables"][0]["room"]
    take_seats(site, tid, "ann")
    r = site.client.post(f"/api/events/{tid}/arbiter/replace",
                         json={"key": key, "team": "Red", "old": "bob", "new": "nobody", "reason": "ill"})
    assert r.json()["error"] == "no_player"
    r = site.client.post(f"/api/events/{tid}/arbiter/replace",
                         json={"key": key, "team": "Red", "old": "bob", "new": "eve", "reason": ""})
    assert r.json()["error"] == "desk_refused"
    r = site.client.post(f"/api/events/{tid}/arbiter/replace",
                         json={"key": key, "team": "Red", "old": "bob", "new": "EVE", "reason": "bob is ill"})
    assert r.status_code == 200, r.text
    assert site.events.desk.state(tid).teams[1].players == ("ann", "eve")
    eve_id = site.events._user("eve").id  # type: ignore[union-attr]
    assert eve_id in [s.user_id for s in site.room(code).seats]
    assert site.players["bob"].post(f"/api/events/{tid}/seat").json()["error"] == "no_table"
    take_seats(site, tid, "eve", "cat", "dan")
    assert site.room(code).status == "playing"


def test_the_arbiters_view_names_each_players_seat_at_the_table_in_every_language(site: Site) -> None:
    """Each seat of a table comes with its place at it, North to West as the desk's table pages name the seats,
    in both page languages: the home team (Red) sits North and South, the away team East and West."""
    tid = two_teams(site)
    start_round(site, tid)
    take_seats(site, tid, "cat")
    [table] = site.client.post(f"/api/events/{tid}/arbiter", json={"key": "arbiter-key-123"}).json()["tables"]
    seats = table["seats"]
    st = site.events.desk.state(tid)
    assert [s["player"] for s in seats] == list(online.seats_of(st, 1, 1))
    assert [(s["seat"], s["seat_text"]) for s in seats] == [
        (0, {"zh": "北", "en": "North"}), (1, {"zh": "东", "en": "East"}), (2, {"zh": "南", "en": "South"}),
        (3, {"zh": "西", "en": "West"})]
    assert [s["present"] for s in seats] == [p == "cat" for p in online.seats_of(st, 1, 1)]


def test_the_arbiters_view_offers_each_teams_players_and_a_player_not_in_the_team_is_refused(site: Site) -> None:
    """The arbiter's page chooses whom to replace from the teams' own players (their usernames, which the desk
    names); a name that is not the team's (a hand-made request) is refused in words that say why, and the event is
    as it was."""
    tid = two_teams(site)
    key = "arbiter-key-123"
    view = site.client.post(f"/api/events/{tid}/arbiter", json={"key": key}).json()
    assert view["roster"] == [
        {"id": 1, "name": "Red", "withdrawn": False,
         "players": [{"username": "ann", "name": "ann"}, {"username": "bob", "name": "bob"}]},
        {"id": 2, "name": "Blue", "withdrawn": False,
         "players": [{"username": "cat", "name": "cat"}, {"username": "dan", "name": "dan"}]}]
    log = len(site.events.desk.events(tid))
    r = site.client.post(f"/api/events/{tid}/arbiter/replace",
                         json={"key": key, "team": "1", "old": "cat", "new": "eve", "reason": "ill"})
    assert r.status_code == 409 and r.json()["error"] == "desk_refused"
    assert r.json()["text"] == {
        "en": 'The tournament desk refused this: "cat" is not a player of team Red (ann / bob)',
        "zh": '赛事台拒绝了这个操作："cat"不是队伍 Red 的选手（ann / bob）'}
    assert len(site.events.desk.events(tid)) == log
    assert [t.players for t in site.events.desk.state(tid).teams.values()] == [("ann", "bob"), ("cat", "dan")]


def test_the_arbiter_overrides_a_table_and_its_room_stops(site: Site) -> None:
    tid = two_teams(site)
    code = start_round(site, tid)["tables"][0]["room"]
    take_seats(site, tid, "ann", "bob", "cat", "dan")
    r = site.client.post(f"/api/events/{tid}/arbiter/override",
                         json={"key": "arbiter-key-123", "round": 1, "table": 1, "levels": "A:6",
                               "reason": "a server fault at the table"})
    assert r.status_code == 200, r.text
    ts = site.events.desk.state(tid).table(1, 1)
    assert ts.status == FINAL and ts.source == "override" and ts.note == "a server fault at the table"
    room = site.room(code)
    assert room.status == "over" and room.match is not None and room.match.ended  # nothing more is played there


def test_a_restarted_server_keeps_the_tables_bindings_pause_and_reports(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"

    def app() -> Any:
        settings = Settings(bot_delay_ms=0, next_deal_s=0, seed_source=counting_seeds("restart"), workers=0,
                            disconnect_grace_s=3600)
        made = create_app(url, settings, accounts=AccountSettings(password_parameters=profiles.CHEAPEST,
                                                                   signups_per_address=1000))
        made.state.online_events.tick_s = 3600
        return made

    first = app()
    with TestClient(first) as c:
        csrf = {}
        browsers = {}
        for name in NAMES[:4]:
            b = TestClient(first)
            csrf[name] = b.post("/api/auth/signup", json={"username": name, "password": PASSWORD}).json()["csrf"]
            browsers[name] = b
        events: OnlineEvents = first.state.online_events
        config = EventConfig(name="Restart night", rounds=1, limits=RoundLimits(max_deals=2, max_minutes=None,
                                                                               warning_minutes=0), per_deal=True)
        tid = online.create_online(events.desk, config, secret="arbiter-key-123")
        for team, a, b in (("Red", "ann", "bob"), ("Blue", "cat", "dan")):
            browsers[a].post(f"/api/events/{tid}/entries", json={"team_name": team, "partner": b},
                             headers={"X-CSRF-Token": csrf[a]})
            assert browsers[b].post(f"/api/events/{tid}/entries/confirm",
                                    headers={"X-CSRF-Token": csrf[b]}).status_code == 200
        code = c.post(f"/api/events/{tid}/arbiter/round", json={"key": "arbiter-key-123"}).json()["tables"][0]["room"]
        for name in NAMES[:4]:
            assert browsers[name].post(f"/api/events/{tid}/seat", headers={"X-CSRF-Token": csrf[name]}).status_code == 200
        assert c.post(f"/api/events/{tid}/arbiter/pause", json={"key": "arbiter-key-123", "round": 1, "table": 1,
                                                               "reason": "server update"}).status_code == 200
        seats = [s.user_id for s in events.service.rooms[code].seats]
    second = app()
    with TestClient(second) as c:
        events = second.state.online_events
        portal = c.portal
        assert portal is not None
        assert events.codes[code] == (tid, 1, 1)
        assert c.get(f"/api/rooms/{code}").json()["event_table"] == {"event": tid, "round": 1, "table": 1}
        room = events.service.room(code)
        assert [s.user_id for s in room.seats] == seats and room.status == "playing"
        portal.call(events.reconcile, tid)
        assert room.held and room.paused  # the desk still says paused
        assert c.post(f"/api/events/{tid}/arbiter/resume", json={"key": "arbiter-key-123", "round": 1,
                                                                "table": 1}).status_code == 200
        with c.websocket_connect(f"/ws/{code}") as ws:
            def go() -> None:
                for s in room.seats:
                    s.auto = True
                events.service.schedule(room)

            portal.call(go)
            recv_until(ws, over, limit=40_000)
        ts = events.desk.state(tid).table(1, 1)
        assert ts.status == FINAL and ts.source == "deals"


def test_an_event_tables_room_says_which_event_round_and_table_it_is(site: Site) -> None:
    tid = two_teams(site)
    assert site.client.get(f"/api/events/{tid}").json()["format"] == "pairs-swiss"
    code = start_round(site, tid)["tables"][0]["room"]
    room = site.client.get(f"/api/rooms/{code}").json()
    assert room["event"] is True and room["event_table"] == {"event": tid, "round": 1, "table": 1}
    assert room["name"] == "Club night"  # the round and the table are the page's words, in its language
    plain = site.client.post("/api/rooms", json={}).json()["code"]
    assert site.client.get(f"/api/rooms/{plain}").json()["event_table"] is None


# --- knockouts --------------------------------------------------------------------------------------
def _knockout(site: Site, per_deal: bool, max_deals: int) -> int:
    config = EventConfig(name="Online KO", format="knockout", rounds=0, per_deal=per_deal, seed=4,
                         limits=RoundLimits(max_deals=max_deals, max_minutes=None, warning_minutes=0))
    tid = online.create_online(site.events.desk, config, secret="arbiter-key-123")
    team_up(site, tid, "Red", "ann", "bob")
    team_up(site, tid, "Blue", "cat", "dan")
    return tid


@pytest.mark.parametrize("per_deal", [True, False])
def test_a_knockout_table_keeps_room_for_its_deciding_deal_and_ends_with_a_winner(site: Site, per_deal: bool) -> None:
    tid = _knockout(site, per_deal, 1)
    code = start_round(site, tid)["tables"][0]["room"]
    assert site.room(code).config.max_deals == 2  # the round's one deal, and a deciding one if it ends level
    take_seats(site, tid, "ann", "bob", "cat", "dan")
    with site.client.websocket_connect(f"/ws/{code}") as ws:
        all_auto(site, code)
        recv_until(ws, over, limit=20_000)
    room = site.room(code)
    assert room.match is not None and len(room.match.deals) == 1  # one deal always has a winner
    st = site.events.desk.state(tid)
    ts = st.table(1, 1)
    assert ts.status == FINAL and st.finished and st.match_winner(1, 0) is not None


def test_a_level_knockout_round_is_reported_with_its_deciding_deal(site: Site) -> None:
    from types import SimpleNamespace

    tid = _knockout(site, False, 2)
    code = start_round(site, tid)["tables"][0]["room"]
    room = site.room(code)

    def deal(levels: tuple[int, int], first: int) -> Any:
        return SimpleNamespace(settlement=SimpleNamespace(levels_after=levels), finish=[first, 0, 0, 0])

    st = site.events.desk.state(tid)
    fake = SimpleNamespace(deals=[deal((1, 0), 0), deal((1, 1), 1)], winner=None, levels=(1, 1), ended=False)
    real, room.match = room.match, fake  # type: ignore[assignment]
    try:
        site.events._knockout_result(tid, st, room, 1, 1, 0)  # level after the round's two deals: play on
        assert site.events.desk.state(tid).table(1, 1).status != FINAL
        fake.deals.append(deal((2, 1), 3))  # the deciding deal: West (away) went out first
        fake.ended = True
        site.events._knockout_result(tid, st, room, 1, 1, 0)
    finally:
        room.match = real
    ts = site.events.desk.state(tid).table(1, 1)
    assert ts.status == FINAL and ts.final is not None and ts.final.decider == 1 and ts.final.levels == ("3", "3")
    assert ts.final.deals == 2 and site.events.desk.state(tid).match_winner(1, 0) == ts.table.away


def test_the_arbiter_is_told_why_the_next_round_cannot_start(site: Site) -> None:
    tid = new_event(site)
    team_up(site, tid, "Red", "ann", "bob")
    view = site.client.post(f"/api/events/{tid}/arbiter", json={"key": "arbiter-key-123"}).json()
    assert view["blocker_texts"] == [{"en": "At least two teams are needed; 1 registered",
                                      "zh": "至少需要两支队伍，现有1支"}]
    team_up(site, tid, "Blue", "cat", "dan")
    view = site.client.post(f"/api/events/{tid}/arbiter", json={"key": "arbiter-key-123"}).json()
    assert view["blockers"] == [] and view["blocker_texts"] == []
    start_round(site, tid)
    view = site.client.post(f"/api/events/{tid}/arbiter", json={"key": "arbiter-key-123"}).json()
    [texts] = view["blocker_texts"]  # the one table of round 1 is still being played
    home, away = sorted(("Red", "Blue"), key=texts["en"].index)
    assert texts == {"en": f"Round 1 table 1 ({home} v {away}): result missing",
                     "zh": f"第1轮第1桌（{home} 对 {away}）：结果未录入"}


def test_the_arbiters_view_names_the_teams_with_the_rounds_bye(site: Site) -> None:
    """A Swiss round of three teams leaves one out, a knockout round of five three: the arbiter's view names each
    team with the bye (as the desk's arbiter page lists it), and none before the round is paired."""
    tid = new_event(site)
    team_up(site, tid, "Red", "ann", "bob")
    team_up(site, tid, "Blue", "cat", "dan")
    team_up(site, tid, "Green", "eve", "fay")
    key = {"key": "arbiter-key-123"}
    assert site.client.post(f"/api/events/{tid}/arbiter", json=key).json()["byes"] == []
    view = start_round(site, tid)
    bye = site.events.desk.state(tid).rounds[1].bye
    assert bye is not None and len(view["tables"]) == 1
    assert view["byes"] == [{"id": bye, "name": ("Red", "Blue", "Green")[bye - 1]}]
    assert site.client.post(f"/api/events/{tid}/arbiter", json=key).json()["byes"] == view["byes"]

    ko = online.create_online(site.events.desk, EventConfig(name="Cup", format="knockout", seed=3), secret="ko-key-1")
    for n, team in enumerate(("T1", "T2", "T3", "T4", "T5"), 1):
        site.events.desk.register(ko, team, [f"ko{n}a", f"ko{n}b"])
    view = site.client.post(f"/api/events/{ko}/arbiter/round", json={"key": "ko-key-1"}).json()
    byes = site.events.desk.state(ko).rounds[1].byes
    assert len(byes) == 3 and len(view["tables"]) == 1
    assert view["byes"] == [{"id": b, "name": f"T{b}"} for b in byes]

"""An organiser makes an online event from the site (POST /api/events, the page /events/new): the site's operator
grants the organiser permission from the command line (`guandan organiser grant NAME`, `revoke NAME`), kept in the
accounts' table (migration 0011, SQLite and PostgreSQL). The form is checked as `guandan tournament new --online`
checks its options, each refusal naming the form's field in both languages, and nothing is made then; anyone who
is not an organiser is refused (403) and a change without the session's CSRF token too. Once an event is over, its
page gives each team its final place."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from typer.testing import CliRunner

from guandan.cli import _mount, app
from guandan.db import alembic_config, make_engine, upgrade_to_head
from guandan.tournament import online
from guandan.tournament.cli import app as tournament_app
from guandan.tournament.model import EventConfig, RoundLimits
from guandan.tournament.rounds import ResultSlip

from .test_events_online import Site, site, team_up  # noqa: F401  (site: the fixture)
from .test_persistence import db_url  # noqa: F401  (the SQLite and PostgreSQL databases, as a fixture)

pytestmark = pytest.mark.timeout(180)
runner = CliRunner()
_mount()
EN = {"LANGUAGE": "en", "LANG": "en_US.UTF-8", "GUANDAN_DB_URL": ""}
AT = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
GOOD = {"name": "Thursday club night", "format": "pairs-swiss", "rounds": 5, "max_deals": 6, "max_minutes": 40,
        "preset": "competition"}


def _url(s: Site) -> str:
    return s.events.desk.engine.url.render_as_string(hide_password=False)


def _organiser(s: Site, name: str = "ann") -> None:
    done = runner.invoke(app, ["organiser", "grant", name, "--db", _url(s)], env=EN)
    assert done.exit_code == 0, done.output


def _online_ids(s: Site) -> list[int]:
    return online.online_ids(s.events.desk)


def test_the_operator_grants_and_revokes_the_organiser_permission(site: Site) -> None:  # noqa: F811
    url = _url(site)
    me = site.players["ann"].client
    assert me.get("/api/auth/session").json()["user"]["organiser"] is False
    done = runner.invoke(app, ["organiser", "grant", "ANN", "--db", url], env=EN)
    assert (done.exit_code, done.stdout.strip()) == (0, "ANN is now an organiser: they can create online events on "
                                                        "the site")
    assert me.get("/api/auth/session").json()["user"]["organiser"] is True
    assert me.get("/api/me").json()["user"]["organiser"] is True
    again = runner.invoke(app, ["organiser", "grant", "ann", "--db", url], env=EN)
    assert (again.exit_code, again.stdout.strip()) == (0, "ann is an organiser already")
    zh = runner.invoke(app, ["organiser", "revoke", "ann", "--db", url], env={**EN, "LANGUAGE": "zh", "LANG": "zh_CN.UTF-8"})
    assert (zh.exit_code, zh.stdout.strip()) == (0, "ann 不再是组织者")
    assert me.get("/api/auth/session").json()["user"]["organiser"] is False
    not_one = runner.invoke(app, ["organiser", "revoke", "ann", "--db", url], env=EN)
    assert (not_one.exit_code, not_one.stdout.strip()) == (0, "ann was not an organiser")
    nobody = runner.invoke(app, ["organiser", "grant", "nobody", "--db", url], env=EN)
    assert (nobody.exit_code, nobody.stderr.strip()) == (1, "error: there is no account called nobody")
    # no database where the command looks: refused as reset-password refuses it
    gone = runner.invoke(app, ["organiser", "grant", "ann", "--data", "/nonexistent-guandan-data"], env=EN)
    assert gone.exit_code == 2 and "no database at" in gone.stderr


def test_an_organiser_makes_an_online_event_and_is_sent_to_its_page(site: Site) -> None:  # noqa: F811
    _organiser(site)
    ann = site.players["ann"]
    r = ann.post("/api/events", GOOD)
    assert r.status_code == 201, r.text
    made = r.json()
    tid = made["id"]
    assert made["link"] == f"/events/{tid}" and made["arbiter"] == f"/events/{tid}/arbiter"
    assert _online_ids(site) == [tid]
    st = site.events.desk.state(tid)
    assert made["key"] == st.secret
    cfg = st.cfg
    assert (cfg.name, cfg.rounds, cfg.format, cfg.partners, cfg.rules.name) == (
        "Thursday club night", 5, "pairs-swiss", "fixed", "competition")
    # the CLI's defaults for the rest: the warning 5 minutes before time, passing A ends a round, per deal for 竞技
    assert cfg.limits == RoundLimits(max_deals=6, max_minutes=40, stop_on_pass_a=True, warning_minutes=5)
    assert cfg.per_deal is True
    page = site.client.get(made["link"])
    assert page.status_code == 200
    view = site.client.get(f"/api/events/{tid}").json()
    assert view["registration_open"] and view["limits"]["max_deals"] == 6 and "key" not in view
    assert [e["id"] for e in site.client.get("/api/events").json()["events"]] == [tid]
    # the key it was given opens the arbiter's page; players enter as for any online event
    assert site.client.post(f"/api/events/{tid}/arbiter", json={"key": made["key"]}).status_code == 200
    team_up(site, tid, "Red", "bob", "cat")
    # a knockout by another preset, its numbers left empty: the command's defaults (as many rounds as it needs)
    r = ann.post("/api/events", {"name": "KO", "format": "knockout", "rounds": None, "max_deals": None,
                                 "max_minutes": 0, "preset": "huopin"})
    assert r.status_code == 201, r.text
    ko = site.events.desk.state(r.json()["id"]).cfg
    assert (ko.format, ko.rounds, ko.rules.name, ko.limits.max_deals, ko.limits.max_minutes, ko.per_deal) == (
        "knockout", 0, "huopin", 8, None, False)
    assert site.client.get("/events/new").status_code == 200


def test_the_event_page_gives_its_arbiter_key_to_the_account_that_made_it_alone(site: Site) -> None:  # noqa: F811
    """An organiser who closed the tab that made the event finds its arbiter key again on the event's page,
    logged in to the same account; no other account (another organiser's, a player's), no guest, and not the
    maker once no longer an organiser is given it, nor anyone for an event made at the command line."""
    _organiser(site)
    _organiser(site, "bob")
    ann, bob, cat = site.players["ann"], site.players["bob"], site.players["cat"]
    tid = ann.post("/api/events", GOOD).json()["id"]
    key = site.events.desk.state(tid).secret

    def given(who: Any) -> Any:
        view = who.get(f"/api/events/{tid}").json()
        assert key not in json.dumps({k: v for k, v in view.items() if k != "me"})
        return (view["me"] or {}).get("arbiter_key")

    assert given(ann.client) == key
    team_up(site, tid, "Red", "ann", "cat")  # the maker playing in the event still has it
    assert given(ann.client) == key
    assert given(bob.client) is None and given(cat.client) is None and given(site.client) is None
    assert key not in site.client.get(f"/events/{tid}").text
    runner.invoke(app, ["organiser", "revoke", "ann", "--db", _url(site)], env=EN)
    assert given(ann.client) is None
    _organiser(site)
    cli_made = online.create_online(site.events.desk, EventConfig(name="Desk cup", rounds=2), secret="s3cret-key")
    view = ann.client.get(f"/api/events/{cli_made}").json()
    assert "arbiter_key" not in view["me"] and "s3cret-key" not in json.dumps(view)


def test_only_an_organiser_may_make_an_event_and_only_with_the_pages_token(site: Site) -> None:  # noqa: F811
    bob = site.players["bob"]
    r = bob.post("/api/events", GOOD)
    assert r.status_code == 403 and r.json()["error"] == "not_organiser"
    assert r.json()["text"] == {
        "en": "Only an organiser can create an event: ask the person who runs the site to make your account one.",
        "zh": "只有组织者才能创建赛事：请网站的管理者把你的账号设为组织者。"}
    assert site.client.post("/api/events", json=GOOD).status_code == 401  # a guest
    _organiser(site, "bob")
    r = bob.post("/api/events", GOOD, csrf=False)  # a form another site posts carries no token
    assert r.status_code == 403 and r.json()["error"] == "csrf"
    runner.invoke(app, ["organiser", "revoke", "bob", "--db", _url(site)], env=EN)
    assert bob.post("/api/events", GOOD).status_code == 403  # taken away: refused again
    assert _online_ids(site) == [] and site.events.desk.tournaments() == []


BAD: list[tuple[dict[str, Any], str, str, list[str] | None]] = [
    # the form's change, the field named, the refusal's opening in English, the CLI's options that are refused alike
    ({"name": ""}, "name", "Event name: 1 to 200 characters", None),
    ({"name": "   "}, "name", "Event name: 1 to 200 characters", ["   "]),
    ({"name": "x" * 201}, "name", "Event name: 1 to 200 characters", ["x" * 201]),
    ({"name": "Cup\n2"}, "name", "Event name: it cannot hold control characters", ["Cup\n2"]),
    ({"format": "round-robin"}, "format", "Format: choose Swiss or Knockout.", ["Cup", "--format", "round-robin"]),
    ({"rounds": 0}, "rounds", "Rounds: a Swiss event plays 1 to 99 rounds.", ["Cup", "--rounds", "0"]),
    ({"rounds": 100}, "rounds", "Rounds: a Swiss event plays 1 to 99 rounds.", ["Cup", "--rounds", "100"]),
    ({"format": "knockout", "rounds": -1}, "rounds", "Rounds: a knockout's most rounds",
     ["Cup", "--format", "knockout", "--rounds", "-1"]),
    ({"max_deals": 100}, "max_deals", "Deals a round: 0 (no limit) to 99.", ["Cup", "--max-deals", "100"]),
    ({"max_deals": -1}, "max_deals", "Deals a round: 0 (no limit) to 99.", ["Cup", "--max-deals", "-1"]),
    ({"max_minutes": 4}, "max_minutes", "Minutes a round: 0 (no limit), or 5 to 1440", ["Cup", "--max-minutes", "4"]),
    ({"max_minutes": 1441}, "max_minutes", "Minutes a round: 0 (no limit), or 5 to 1440",
     ["Cup", "--max-minutes", "1441"]),
    ({"preset": "snap"}, "preset", "Rules: choose one of the presets.", ["Cup", "--preset", "snap"]),
]


@pytest.mark.parametrize(("change", "field", "said", "cli_args"), BAD, ids=[f"{b[1]}-{i}" for i, b in enumerate(BAD)])
def test_a_bad_form_is_refused_naming_its_field_as_the_cli_refuses_it_and_nothing_is_made(
        site: Site, tmp_path: Path, change: dict[str, Any], field: str, said: str,  # noqa: F811
        cli_args: list[str] | None) -> None:
    _organiser(site)
    r = site.players["ann"].post("/api/events", {**GOOD, **change})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["field"] == field and body["text"]["en"].startswith(said), body
    assert body["text"]["zh"] and body["text"]["zh"] != body["text"]["en"]
    assert site.events.desk.tournaments() == []
    if cli_args is not None:  # the command refuses the same value (an empty name is no argument there)
        done = CliRunner().invoke(tournament_app, ["new", *cli_args, "--online", "--db",
                                                   f"sqlite:///{tmp_path / 'desk.sqlite3'}"], env=EN)
        assert done.exit_code != 0, done.output


def test_a_body_of_the_wrong_shape_is_refused_naming_the_field(site: Site) -> None:  # noqa: F811
    _organiser(site)
    r = site.players["ann"].post("/api/events", {**GOOD, "rounds": "7"})
    assert r.status_code == 422 and "rounds" in r.json()["text"]["en"]
    r = site.players["ann"].post("/api/events", {**GOOD, "secret": "mine"})
    assert r.status_code == 422
    assert site.events.desk.tournaments() == []


def _score(s: Site, tid: int, *results: str) -> None:
    desk = s.events.desk
    online.open_round(desk, tid)
    for n, result in enumerate(results, start=1):
        desk.override(tid, desk.state(tid).current_round, n, ResultSlip.parse(result), "scored at the venue")


def test_the_event_page_gives_each_team_its_final_place_once_it_is_over(site: Site) -> None:  # noqa: F811
    desk = site.events.desk
    tid = online.create_online(desk, EventConfig(name="Places", rounds=1, seed=3,
                                                 limits=RoundLimits(max_deals=1, max_minutes=30)), secret="places-key-1")
    team_up(site, tid, "Red", "ann", "bob")
    team_up(site, tid, "Blue", "cat", "dan")
    view = site.client.get(f"/api/events/{tid}").json()
    assert [t["place"] for t in view["teams"]] == [None, None]
    online.open_round(desk, tid)
    tb = desk.state(tid).table(1, 1).table
    view = site.client.get(f"/api/events/{tid}").json()
    assert [t["place"] for t in view["teams"]] == [None, None]  # being played: no place yet
    desk.override(tid, 1, 1, ResultSlip.parse("3:A"), "scored at the venue")  # the away team wins
    view = site.client.get(f"/api/events/{tid}").json()
    assert view["finished"]
    away, home = desk.state(tid).teams[tb.away].name, desk.state(tid).teams[tb.home].name
    assert [(t["name"], t["place"]) for t in view["teams"]] == [(away, 1), (home, 2)]


def test_a_knockouts_places_are_its_brackets(site: Site) -> None:  # noqa: F811
    desk = site.events.desk
    config = EventConfig(name="KO places", format="knockout", rounds=0, seed=4,
                         limits=RoundLimits(max_deals=1, max_minutes=None, warning_minutes=0))
    tid = online.create_online(desk, config, secret="places-key-2")
    team_up(site, tid, "Red", "ann", "bob")
    team_up(site, tid, "Blue", "cat", "dan")
    team_up(site, tid, "Gold", "eve", "fay")
    desk.register(tid, "Jade", ["p1", "p2"])
    _score(site, tid, "A:6", "A:6")
    assert site.client.get(f"/api/events/{tid}").json()["teams"][0]["place"] is None
    _score(site, tid, "6:A")
    st = desk.state(tid)
    assert st.finished
    final = st.rounds[2].tables[1].table
    view = site.client.get(f"/api/events/{tid}").json()
    places = [(t["name"], t["place"]) for t in view["teams"]]
    assert places[:2] == [(st.teams[final.away].name, 1), (st.teams[final.home].name, 2)]
    assert [p for _, p in places[2:]] == [3, 3]  # the semi-finals' losers share third


def test_the_migration_adds_the_permission_off_for_every_account_there(db_url: str) -> None:  # noqa: F811
    engine = make_engine(db_url)
    try:
        cfg = alembic_config()
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0010_web_replay_summary")
        users = sa.table("users", sa.column("id", sa.Integer), sa.column("username", sa.String),
                         sa.column("username_key", sa.String), sa.column("created_at", sa.DateTime(timezone=True)))
        with engine.begin() as conn:
            conn.execute(sa.insert(users), [{"id": 1, "username": "Old", "username_key": "old",
                                             "created_at": AT}])
        upgrade_to_head(engine)
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT username, organiser FROM users")).all() == [("Old", False)]
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0010_web_replay_summary")
        assert "organiser" not in {c["name"] for c in sa.inspect(engine).get_columns("users")}
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT username FROM users")).all() == [("Old",)]
        upgrade_to_head(engine)
    finally:
        engine.dispose()

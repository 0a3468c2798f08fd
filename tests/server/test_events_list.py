"""The site's list of online events (GET /api/events, the page /events): the events being played, those open for
entry and those finished within RECENT_DAYS, in that order, each linking to its own page and saying no more than
that page shows anyone — never the arbiter's key nor a table's room. A logged-in player reads which they are
entered in (a team, or an entry waiting for the partner). A desk event played at the venue is not listed."""

from __future__ import annotations

from typing import Any

import pytest

from guandan.server.events_online import RECENT_DAYS
from guandan.tournament import online
from guandan.tournament.model import EventConfig, RoundLimits
from guandan.tournament.rounds import ResultSlip

from .test_events_online import Site, site, start_round, team_up  # noqa: F401  (site: the fixture)

pytestmark = pytest.mark.timeout(120)
KEYS = {"id", "name", "phase", "rounds", "current_round", "teams", "preset", "updated_at", "link"}


def event(site: Site, name: str, rounds: int = 2, secret: str = "arbiter-key-123") -> int:  # noqa: F811
    config = EventConfig(name=name, rounds=rounds, seed=3,
                         limits=RoundLimits(max_deals=1, max_minutes=30, warning_minutes=5))
    return online.create_online(site.events.desk, config, secret=secret)


def finished_event(site: Site, name: str) -> int:  # noqa: F811
    """A one-round event of two teams whose one table the arbiter scored: finished."""
    desk = site.events.desk
    tid = event(site, name, rounds=1, secret=f"key-of-{name}")
    desk.register(tid, f"{name} A", ["p1", "p2"])
    desk.register(tid, f"{name} B", ["p3", "p4"])
    online.open_round(desk, tid)
    desk.override(tid, 1, 1, ResultSlip.parse("A:6"), "played at the venue after all")
    assert desk.state(tid).finished
    return tid


def listed(client: Any) -> list[dict[str, Any]]:
    r = client.get("/api/events")
    assert r.status_code == 200, r.text
    assert r.json()["recent_days"] == RECENT_DAYS
    events: list[dict[str, Any]] = r.json()["events"]
    return events


def test_the_list_shows_the_events_being_played_open_and_recently_finished(site: Site) -> None:  # noqa: F811
    long_ago = finished_event(site, "Spring Cup")
    site.clock.advance(days=RECENT_DAYS + 1)
    recent = finished_event(site, "Autumn Cup")
    venue = site.events.desk.create(EventConfig(name="Club night at the venue", rounds=2))  # not an online event
    playing = event(site, "Winter Cup")
    team_up(site, playing, "Red", "ann", "bob")
    team_up(site, playing, "Blue", "cat", "dan")
    room = start_round(site, playing)["tables"][0]["room"]
    entering = event(site, "New Year Cup")
    r = site.players["eve"].post(f"/api/events/{entering}/entries", {"team_name": "Green", "partner": "fay"})
    assert r.status_code == 200, r.text

    events = listed(site.client)  # a guest
    assert [(e["id"], e["phase"]) for e in events] == [(playing, "playing"), (entering, "open"), (recent, "finished")]
    assert long_ago not in [e["id"] for e in events] and venue not in [e["id"] for e in events]
    assert all(set(e) == KEYS for e in events)  # nothing more than the event's own page shows anyone
    by_id = {e["id"]: e for e in events}
    assert by_id[playing] | {"updated_at": None} == {
        "id": playing, "name": "Winter Cup", "phase": "playing", "rounds": 2, "current_round": 1, "teams": 2,
        "preset": "competition", "updated_at": None, "link": f"/events/{playing}"}
    assert (by_id[entering]["teams"], by_id[entering]["current_round"]) == (0, 0)  # an entry waiting is no team yet
    assert (by_id[recent]["name"], by_id[recent]["rounds"], by_id[recent]["current_round"]) == ("Autumn Cup", 1, 1)
    text = site.client.get("/api/events").text
    assert "arbiter-key-123" not in text and "key-of-" not in text and room not in text
    for e in events:  # each links to a page that shows it
        assert site.client.get(e["link"]).status_code == 200
        assert site.client.get(f"/api/events/{e['id']}").json()["name"] == e["name"]

    def entered(who: str) -> dict[int, bool]:
        return {e["id"]: e["entered"] for e in listed(site.players[who].client)}

    assert entered("ann") == {playing: True, entering: False, recent: False}
    assert entered("eve") == entered("fay") == {playing: False, entering: True, recent: False}  # waiting counts


def test_no_online_event_is_an_empty_list_and_the_page_is_served(site: Site) -> None:  # noqa: F811
    site.events.desk.create(EventConfig(name="Club night at the venue", rounds=2))
    assert listed(site.client) == []
    page = site.client.get("/events")
    assert page.status_code == 200 and "/static/events.js" in page.text
    assert site.client.get("/api/meta").json()["events"] is True  # the start page links to the list

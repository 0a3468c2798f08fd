"""An online event in Debian's chromium: four accounts in four browser contexts (phones held upright) enter
two teams (each partner confirms on their own page), the arbiter starts round 1 on the arbiter's page, each
player follows their event page's link to their own seat, the four play the one-deal round out (托管 after
the link), and the venue's standings page, left open in a fifth context, shows the result by itself."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from guandan.server.events_online import OnlineEvents
from guandan.tournament import online
from guandan.tournament.model import EventConfig, RoundLimits
from guandan.tournament.rounds import ResultSlip
from guandan.tournament.state import FINAL

from .conftest import LiveServer, sign_up
from .test_browser_crowded_table import shoot

pytestmark = pytest.mark.timeout(300)
PHONE = {"width": 390, "height": 844}
KEY = "browser-online-key"


def _page(browser: Browser, problems: list[str], **kw: Any) -> Page:
    ctx = browser.new_context(viewport=kw.pop("viewport", PHONE), bypass_csp=True, **kw)
    page = ctx.new_page()
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.add_init_script("localStorage.setItem('guandan:lang', 'en')")
    return page


def _top_gap(page: Page, panel: str) -> float:
    """How far below the top of ``panel`` (a selector) its first line is drawn: the first box in it with a height."""
    gap: float = page.evaluate("""(sel) => {
      const panel = document.querySelector(sel);
      const first = [...panel.querySelectorAll('*')].find((n) => n.getBoundingClientRect().height > 0);
      return first.getBoundingClientRect().top - panel.getBoundingClientRect().top;
    }""", panel)
    return gap


def assert_no_gap_over_the_players_panel(page: Page) -> None:
    """The player's panel's first line, a heading or a paragraph, is as near its top as the event panel's heading
    is: no blank band over it."""
    assert _top_gap(page, "#my-panel") <= _top_gap(page, "main > .panel") + 1


def _bands_round_the_no_teams_note(page: Page) -> dict[str, float]:
    """How far "No team has entered yet" stands below its panel's heading (``over``) and above its panel's end
    (``under``), and what the heading's own bottom margin and the panel's padding leave there (``heading``,
    ``padding``)."""
    found: dict[str, float] = page.evaluate("""() => {
      const note = document.getElementById('no-teams'), panel = note.closest('.panel');
      const heading = panel.querySelector('h2'), box = (n) => n.getBoundingClientRect();
      return {over: box(note).top - box(heading).bottom, under: box(panel).bottom - box(note).bottom,
              heading: parseFloat(getComputedStyle(heading).marginBottom),
              padding: parseFloat(getComputedStyle(panel).paddingBottom) + parseFloat(getComputedStyle(panel).borderBottomWidth)};
    }""")
    return found


def _sign_up(page: Page, url: str, username: str) -> None:
    page.goto(f"{url}/account")
    sign_up(page, username)
    page.wait_for_selector("#member:not(.hidden)")


def test_two_teams_of_accounts_play_a_round_of_an_online_event(browser: Browser, live_server: LiveServer) -> None:
    events: OnlineEvents = live_server.app.state.online_events
    config = EventConfig(name="Online Cup", rounds=1, seed=5, per_deal=True,
                         limits=RoundLimits(max_deals=1, max_minutes=None, warning_minutes=0))
    tid = online.create_online(events.desk, config, secret=KEY)
    url = live_server.url
    problems: list[str] = []
    names = ["evt_ann", "evt_bob", "evt_cat", "evt_dan"]
    pages = {n: _page(browser, problems) for n in names}
    screen = _page(browser, problems, viewport={"width": 1920, "height": 1080})
    try:
        for n, p in pages.items():
            _sign_up(p, url, n)
            p.goto(f"{url}/events/{tid}")
            expect(p.locator("[data-testid=event-name]")).to_have_text("Online Cup")
        for team, (a, b) in (("Red", ("evt_ann", "evt_bob")), ("Blue", ("evt_cat", "evt_dan"))):
            pa, pb = pages[a], pages[b]
            expect(pa.locator("[data-testid=enter-form]")).to_be_visible()
            pa.fill("#team-name", team)
            pa.fill("#partner", b)
            pa.click("#enter")
            expect(pa.locator("#waiting-line")).to_contain_text(f"Waiting for {b} to confirm")
            expect(pb.locator("[data-testid=invitation]")).to_be_visible(timeout=10_000)  # its page asks again
            pb.click("[data-testid=confirm]")
            expect(pb.locator("[data-testid=team-line]")).to_contain_text(team)
        expect(pages["evt_ann"].locator("[data-testid=teams] li")).to_have_count(2)

        screen.goto(f"{url}/t/{tid}/standings?lang=en&refresh=5")
        expect(screen.locator("tr[data-team] td.rank").first).to_have_text("–")

        arbiter = _page(browser, problems, viewport={"width": 1920, "height": 1080})
        arbiter.goto(f"{url}/events/{tid}/arbiter?key={KEY}")
        expect(arbiter.locator("[data-testid=start-round]")).to_be_enabled()
        arbiter.click("[data-testid=start-round]")
        expect(arbiter.locator("[data-testid=tables] tr")).to_have_count(1)

        for i, p in enumerate(pages.values()):  # the event page shows the link to one's table once the room is open
            expect(p.locator("[data-testid=go-table]")).to_be_visible(timeout=15_000)
            p.click("[data-testid=go-table]")
            p.wait_for_url("**/r/*")
            if i == 0:  # the first at the table waits in its lobby, which says which event's table it is
                expect(p.locator("#lobby-facts strong")).to_have_text("Online Cup")
                expect(p.locator("[data-testid=lobby-event-table]")).to_have_text("Round 1, table 1")
                # its seats are fixed: nothing to type or press while the other three come (the server refuses both)
                for hidden in ("#name", "#ready", "#leave"):
                    expect(p.locator(hidden)).to_be_hidden()
        codes = {p.url.rsplit("/", 1)[1] for p in pages.values()}
        assert len(codes) == 1
        for p in pages.values():
            p.wait_for_function("document.body.dataset.status === 'playing' || document.body.dataset.status === 'over'",
                                timeout=30_000)
            if p.evaluate("document.body.dataset.status") == "playing":
                expect(p.locator("#auto")).to_be_enabled()
                p.click("#auto")
        for p in pages.values():
            p.wait_for_function("document.body.dataset.status === 'over'", timeout=120_000)
            # the match's end leads back to the event's page (the result, the next round)
            expect(p.locator("[data-testid=event-link]").first).to_have_attribute("href", f"/events/{tid}")
        ts = events.desk.state(tid).table(1, 1)
        assert ts.status == FINAL and len(ts.deals) == 1

        # the venue's standings reload by themselves: the round is complete, so its ranks are shown
        expect(screen.locator("tr[data-team] td.rank").first).to_have_text("1", timeout=20_000)
        winner = ts.table.home if ts.result is not None and ts.result.winner == 0 else ts.table.away
        expect(screen.locator("tr[data-team] td.name").first).to_contain_text(events.desk.state(tid).teams[winner].name)
        me = pages["evt_ann"]
        me.locator("[data-testid=event-link]").first.click()
        me.wait_for_url(f"{url}/events/{tid}")
        expect(me.locator("#table-note")).to_have_text("Your table's result is in")
        expect(me.locator("[data-testid=table-result]")).to_contain_text("Result, North–South first: ")
        arbiter.reload()
        expect(arbiter.locator("[data-testid=table-result]")).to_contain_text("Result, North–South first: ")
        assert problems == []
    finally:
        for p in [*pages.values(), screen]:
            p.context.close()


def test_the_event_pages_run_under_the_content_security_policy(browser: Browser, live_server: LiveServer) -> None:
    events: OnlineEvents = live_server.app.state.online_events
    tid = online.create_online(events.desk, EventConfig(name="Policy Cup", rounds=1), secret="policy-key-1")
    ctx = browser.new_context()  # the policy enforced
    page = ctx.new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: refused.append(str(e)))
    try:
        page.goto(f"{live_server.url}/events/{tid}")
        expect(page.locator("[data-testid=event-name]")).to_have_text("Policy Cup")  # event.js ran
        page.goto(f"{live_server.url}/events/{tid}/arbiter?key=policy-key-1")
        expect(page.locator("#event-name")).to_have_text("Policy Cup")  # event_arbiter.js ran, with the key
        page.goto(f"{live_server.url}/events/{tid}/arbiter?key=wrong")
        expect(page.locator("[data-testid=arbiter-error]")).not_to_be_empty()
        page.goto(f"{live_server.url}/events/new")
        expect(page.locator("#guest-note")).to_be_visible()  # event_new.js ran: a guest is asked to log in
        assert refused == []
    finally:
        ctx.close()


def test_a_guest_reads_what_the_event_is_logs_in_from_its_page_and_comes_back_to_enter(
        browser: Browser, live_server: LiveServer) -> None:
    events: OnlineEvents = live_server.app.state.online_events
    config = EventConfig(name="Spring Cup", rounds=3, seed=5, limits=RoundLimits(max_deals=6, max_minutes=40))
    tid = online.create_online(events.desk, config, secret="spring-key-1")
    problems: list[str] = []
    page = _page(browser, problems, has_touch=True)
    try:
        page.goto(f"{live_server.url}/events/{tid}")
        expect(page.locator("[data-testid=event-name]")).to_have_text("Spring Cup")
        # what a team enters: the format, the rounds, each round's deals and minutes, the rules
        expect(page.locator("[data-testid=event-facts] .tag")).to_have_text(
            ["Swiss", "Rounds: 3", "6 deals a round", "40 minutes a round", "Competition (2022)"])
        expect(page.locator("[data-testid=no-teams]")).to_have_text("No team has entered yet")
        expect(page.locator("[data-testid=events-link]")).to_have_attribute("href", "/events")
        expect(page.locator("#guest-note")).to_be_visible()
        assert_no_gap_over_the_players_panel(page)
        # the guest's link to log in comes back here once the account is made
        page.get_by_role("link", name="Log in to enter this event").click()
        sign_up(page, "spring_ann")
        page.wait_for_url(f"{live_server.url}/events/{tid}")
        expect(page.locator("[data-testid=enter-form]")).to_be_visible()
        expect(page.locator("#account-link")).to_have_text("spring_ann")
        assert problems == []
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_event_no_team_has_entered_says_so_with_no_blank_band_round_the_note(
        browser: Browser, live_server: LiveServer, lang: str) -> None:
    """The teams' panel of an event with no entry holds its heading and the note, spaced as a heading and its
    first line are: the empty list and the paragraph's own margins add no band over or under the note."""
    events: OnlineEvents = live_server.app.state.online_events
    tid = online.create_online(events.desk, EventConfig(name=f"Empty Cup {lang}", rounds=2), secret=f"empty-key-{lang}")
    said = {"zh": "还没有队伍报名", "en": "No team has entered yet"}
    problems: list[str] = []
    for viewport in ({"width": 844, "height": 390}, PHONE):
        page = _page(browser, problems, viewport=viewport)
        page.add_init_script(f"localStorage.setItem('guandan:lang', '{lang}')")
        try:
            page.goto(f"{live_server.url}/events/{tid}")
            expect(page.locator("[data-testid=event-name]")).to_have_text(f"Empty Cup {lang}")  # event.js has drawn it
            note = page.locator("[data-testid=no-teams]")
            expect(note).to_be_visible()
            expect(note).to_have_text(said[lang])
            bands = _bands_round_the_no_teams_note(page)
            assert bands["over"] <= bands["heading"] + 1, bands
            assert bands["under"] <= bands["padding"] + 1, bands
            note.scroll_into_view_if_needed()
            shoot(page, f"event-no-teams-{lang}-{viewport['width']}x{viewport['height']}")
        finally:
            page.context.close()
    assert problems == []


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_player_outside_an_event_under_way_or_over_is_told_entries_are_closed_and_how_to_follow_it(
        browser: Browser, live_server: LiveServer, lang: str) -> None:
    events: OnlineEvents = live_server.app.state.online_events
    key = f"closed-key-{lang}"
    tid = online.create_online(events.desk, EventConfig(name=f"Closed Cup {lang}", rounds=1, limits=RoundLimits(
        max_deals=1, max_minutes=None, warning_minutes=0)), secret=key)
    for team, players in (("Red", [f"cl_{lang}_ann", f"cl_{lang}_bob"]), ("Blue", [f"cl_{lang}_cat", f"cl_{lang}_dan"])):
        events.desk.register(tid, team, players)
    with httpx.Client(base_url=live_server.url, timeout=30) as c:
        assert c.post(f"/api/events/{tid}/arbiter/round", json={"key": key}).status_code == 200
    problems: list[str] = []
    player, guest = _page(browser, problems), _page(browser, problems)
    for p in (player, guest):
        p.add_init_script(f"localStorage.setItem('guandan:lang', '{lang}')")
    said = {"zh": "报名已截止，赛事正在进行：可以点上面的“排名”和“对阵”关注赛事。",
            "en": "Entries are closed: the event is under way. Follow it through the Standings and Pairings links above."}
    try:
        _sign_up(player, live_server.url, f"cl_{lang}_eve")
        for p in (player, guest):
            p.goto(f"{live_server.url}/events/{tid}")
            expect(p.locator("[data-testid=teams] li")).to_have_count(2)  # event.js has drawn the event
            # the player's panel says why there is nothing to do in it (it was an empty box); a guest is not
            # asked to log in to enter an event that takes no more entries
            expect(p.locator("[data-testid=closed-note]")).to_have_text(said[lang])
            assert p.locator("#my-panel").inner_text().strip() == said[lang]  # nothing else in it shows
            expect(p.locator("#guest-note")).to_be_hidden()
            assert_no_gap_over_the_players_panel(p)
        expect(player.locator("#account-link")).to_have_text(f"cl_{lang}_eve")
        for p in (player, guest):
            shoot(p, f"event-closed-{lang}-{'player' if p is player else 'guest'}")
        # once it is over, the note says where its result is (the page asks again every few seconds)
        with httpx.Client(base_url=live_server.url, timeout=30) as c:
            assert c.post(f"/api/events/{tid}/arbiter/override", json={
                "key": key, "round": 1, "table": 1, "levels": "A:6", "reason": "scored at the venue"}).status_code == 200
        over = {"zh": "赛事已经结束：下面按最终名次列出各队。",
                "en": "The event is over: the teams below are in their final places."}
        for p in (player, guest):
            expect(p.locator("[data-testid=closed-note]")).to_have_text(over[lang], timeout=15_000)
            expect(p.locator("[data-testid=teams] li").first).to_have_attribute("data-place", "1")
            shoot(p, f"event-over-{lang}-{'player' if p is player else 'guest'}")
        assert problems == []
    finally:
        player.context.close()
        guest.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_entry_unconfirmed_when_entries_close_is_said_to_be_out_with_nothing_to_press(
        browser: Browser, live_server: LiveServer, lang: str) -> None:
    """The entry waiting for its partner when round 1 is paired did not make it into the event: the page of the
    account that entered it, and its partner's, say so in the reader's language (and how to follow the event)
    and offer neither the withdrawal nor the confirmation, which the server refuses from then on."""
    events: OnlineEvents = live_server.app.state.online_events
    key = f"lapsed-key-{lang}"
    tid = online.create_online(events.desk, EventConfig(name=f"Lapsed Cup {lang}", rounds=1), secret=key)
    for team, players in (("Red", [f"lp_{lang}_ann", f"lp_{lang}_bob"]), ("Blue", [f"lp_{lang}_cat", f"lp_{lang}_dan"])):
        events.desk.register(tid, team, players)
    problems: list[str] = []
    eve, fay = _page(browser, problems), _page(browser, problems)
    for p in (eve, fay):
        p.add_init_script(f"localStorage.setItem('guandan:lang', '{lang}')")
    try:
        _sign_up(eve, live_server.url, f"lp_{lang}_eve")
        _sign_up(fay, live_server.url, f"lp_{lang}_fay")
        eve.goto(f"{live_server.url}/events/{tid}")
        eve.fill("#team-name", "Green")
        eve.fill("#partner", f"lp_{lang}_fay")
        eve.click("#enter")
        expect(eve.locator("[data-testid=withdraw]")).to_be_visible()
        fay.goto(f"{live_server.url}/events/{tid}")
        expect(fay.locator("[data-testid=confirm]")).to_be_visible()
        for p in (eve, fay):  # the entry waiting for its partner; the partner's invitation
            assert_no_gap_over_the_players_panel(p)
        with httpx.Client(base_url=live_server.url, timeout=30) as c:
            assert c.post(f"/api/events/{tid}/arbiter/round", json={"key": key}).status_code == 200
        lapsed = {"zh": ("报名截止前 lp_zh_fay 没有确认：队伍“Green”没有参加本次赛事。",
                         "报名截止前你没有确认：队伍“Green”没有参加本次赛事。"),
                  "en": ("Entries closed before lp_en_fay confirmed: team “Green” is not in the event.",
                         "Entries closed before you confirmed: team “Green” is not in the event.")}[lang]
        closed = {"zh": "报名已截止，赛事正在进行：可以点上面的“排名”和“对阵”关注赛事。",
                  "en": "Entries are closed: the event is under way. Follow it through the Standings and Pairings "
                        "links above."}[lang]
        # the page asks again every few seconds
        expect(eve.locator("[data-testid=waiting-line]")).to_have_text(lapsed[0], timeout=15_000)
        expect(fay.locator("[data-testid=invited-line]")).to_have_text(lapsed[1], timeout=15_000)
        for p in (eve, fay):
            expect(p.locator("[data-testid=closed-note]")).to_have_text(closed)
            expect(p.locator("#my-panel button:visible")).to_have_count(0)
            expect(p.locator("[data-testid=enter-form]")).to_be_hidden()
            shoot(p, f"event-lapsed-{lang}-{'entrant' if p is eve else 'partner'}")
        assert problems == []
    finally:
        eve.context.close()
        fay.context.close()


def test_an_organiser_makes_an_event_from_the_list_and_a_player_is_offered_none(
        browser: Browser, live_server: LiveServer) -> None:
    events: OnlineEvents = live_server.app.state.online_events
    url = live_server.url
    problems: list[str] = []
    org, player = _page(browser, problems), _page(browser, problems)
    try:
        _sign_up(org, url, "org_ann")
        _sign_up(player, url, "org_bob")
        # the password managers' username beside the change-password and delete forms' passwords
        for form in ("password", "delete"):
            field = player.locator(f"[data-testid={form}-username]")
            expect(field).to_have_attribute("autocomplete", "username")
            expect(field).to_have_value("org_bob")
            expect(field).to_be_hidden()
        assert live_server.app.state.accounts.set_organiser("org_ann", True) is False  # the operator's grant
        player.goto(f"{url}/events")
        expect(player.locator("#account-link")).to_have_text("org_bob")  # account_link.js has read the session
        expect(player.locator("[data-testid=new-event-link]")).to_be_hidden()
        player.goto(f"{url}/events/new")
        expect(player.locator("[data-testid=not-organiser]")).to_be_visible()
        expect(player.locator("[data-testid=new-event-form]")).to_be_hidden()

        before = online.online_ids(events.desk)  # the server is the session's: other tests' events are there
        org.goto(f"{url}/events")
        org.click("[data-testid=new-event-link]")
        org.wait_for_url(f"{url}/events/new")
        expect(org.locator("#ev-preset option")).to_have_count(4)
        org.fill("#ev-name", "Club night")
        org.fill("#ev-rounds", "0")
        org.click("[data-testid=create-event]")
        expect(org.locator("[data-testid=new-event-error]")).to_have_text("Rounds: a Swiss event plays 1 to 99 rounds.")
        expect(org.locator("#ev-rounds")).to_have_attribute("aria-invalid", "true")
        expect(org.locator("#ev-rounds")).to_be_focused()
        assert online.online_ids(events.desk) == before  # nothing made
        org.fill("#ev-rounds", "3")
        org.fill("#ev-deals", "6")
        org.click("[data-testid=create-event]")
        org.wait_for_url(re.compile(r".*/events/\d+\?lang=en$"))
        (tid,) = set(online.online_ids(events.desk)) - set(before)
        assert org.url == f"{url}/events/{tid}?lang=en"
        expect(org.locator("[data-testid=event-name]")).to_have_text("Club night")
        expect(org.locator("[data-testid=event-facts] .tag")).to_have_text(
            ["Swiss", "Rounds: 3", "6 deals a round", "50 minutes a round", "Competition (2022)"])
        key = events.desk.state(tid).secret
        expect(org.locator("[data-testid=made-key]")).to_have_text(key)
        expect(org.locator("[data-testid=made-arbiter]")).to_have_attribute("href", f"/events/{tid}/arbiter?key={key}")
        player.goto(f"{url}/events/{tid}")
        expect(player.locator("[data-testid=event-name]")).to_have_text("Club night")
        expect(player.locator("[data-testid=event-made]")).to_be_hidden()  # the key is its organiser's alone
        # the tab that made it closed, the same account finds the key again on the event's page, in a new tab
        again = org.context.new_page()
        again.goto(f"{url}/events/{tid}?lang=en")
        expect(again.locator("[data-testid=made-key]")).to_have_text(key)
        expect(again.locator("[data-testid=made-again]")).to_have_text(
            "You find it here again whenever you are logged in to this account; nobody else is shown it.")
        assert again.evaluate(f"sessionStorage.getItem('guandan:arbiter:{tid}')") is None  # the server's answer
        again.close()
        org.click("[data-testid=made-arbiter]")
        expect(org.locator("#event-name")).to_have_text("Club night")  # the arbiter's page, opened with the key
        assert problems == []
    finally:
        org.context.close()
        player.context.close()


def test_a_finished_events_page_lists_the_teams_by_their_final_place(browser: Browser, live_server: LiveServer) -> None:
    events: OnlineEvents = live_server.app.state.online_events
    desk = events.desk
    tid = online.create_online(desk, EventConfig(name="Over", rounds=1, seed=5), secret="over-key-1")
    desk.register(tid, "Home team", ["over_a", "over_b"])
    desk.register(tid, "Away team", ["over_c", "over_d"])
    online.open_round(desk, tid)
    desk.override(tid, 1, 1, ResultSlip.parse("3:A"), "scored at the venue")
    problems: list[str] = []
    page = _page(browser, problems)
    try:
        page.goto(f"{live_server.url}/events/{tid}")
        expect(page.locator("[data-testid=event-status]")).to_have_text("The event is over")
        rows = page.locator("[data-testid=teams] li")
        expect(rows).to_have_count(2)
        expect(rows.nth(0)).to_contain_text("Place 1")
        expect(rows.nth(0)).to_contain_text("Away team")
        expect(rows.nth(1)).to_contain_text("Place 2")
        expect(rows.nth(1)).to_contain_text("Home team")
        page.goto(f"{live_server.url}/events/{tid}?lang=zh")
        expect(rows.nth(0).locator(".place")).to_have_text("第1名")
        assert problems == []
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_team_with_the_bye_is_told_so_in_a_sentence(browser: Browser, live_server: LiveServer, lang: str) -> None:
    """Three teams: the one left out of round 1's pairing reads, on its player's event page, that it has the bye,
    as a sentence of its own (where it read a fragment, "bye this round")."""
    events: OnlineEvents = live_server.app.state.online_events
    desk = events.desk
    tid = online.create_online(desk, EventConfig(name=f"Bye Cup {lang}", rounds=2, seed=5), secret=f"bye-key-{lang}")
    for team in ("Red", "Blue", "Green"):
        desk.register(tid, team, [f"bye_{lang}_{team}_a", f"bye_{lang}_{team}_b"])
    online.open_round(desk, tid)
    state = desk.state(tid)
    bye = state.rounds[1].bye
    assert bye is not None
    problems: list[str] = []
    page = _page(browser, problems)
    page.add_init_script(f"localStorage.setItem('guandan:lang', '{lang}')")
    try:
        _sign_up(page, live_server.url, f"bye_{lang}_{state.teams[bye].name}_a")
        page.goto(f"{live_server.url}/events/{tid}")
        said = {"zh": "你的队伍本轮轮空", "en": "Your team has a bye this round"}[lang]
        expect(page.locator("#table-where")).to_have_text(said)
        expect(page.locator("[data-testid=go-table]")).to_be_hidden()
        shoot(page, f"event-bye-{lang}")
        assert problems == []
    finally:
        page.context.close()


def test_an_entry_refused_is_no_longer_said_once_the_form_is_changed(browser: Browser, live_server: LiveServer) -> None:
    """The player who named themselves as partner reads why the entry was refused; once they type another name the
    refusal goes, so that it is not read as the answer to the form as it now stands (a browser's own refusal of an
    empty team name is then not shown beside a stale one about the partner)."""
    events: OnlineEvents = live_server.app.state.online_events
    tid = online.create_online(events.desk, EventConfig(name="Refused Cup", rounds=1), secret="refused-key")
    problems: list[str] = []
    page = _page(browser, problems)
    try:
        _sign_up(page, live_server.url, "rf_ann")
        page.goto(f"{live_server.url}/events/{tid}")
        page.fill("#team-name", "Red")
        page.fill("#partner", "rf_ann")
        page.click("#enter")
        expect(page.locator("#my-error")).to_have_text("Your partner must be another player, not you.")
        page.fill("#partner", "rf_bob")
        expect(page.locator("#my-error")).to_have_text("")
        assert problems == []
    finally:
        page.context.close()

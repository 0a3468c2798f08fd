"""`guandan bench server` end to end on a tiny load: a real server process, bot clients over loopback
WebSockets, figures that add up."""

from __future__ import annotations

import pytest

import async_support
from guandan.server.bench import format_report, run_bench

pytestmark = pytest.mark.timeout(120)


def test_bench_server_plays_over_real_websockets() -> None:
    r = async_support.call(run_bench, tables=2, seconds=3, think_ms=20, seed=3)
    assert r["errors"] == 0, r["first_errors"]
    assert r["actions"] > 20
    assert 0 < r["p50_ms"] <= r["p99_ms"]
    assert r["actions_per_s"] == pytest.approx(r["actions"] / r["seconds"], rel=0.05)
    text = format_report(r)
    assert "actions/s" in text and "p50/p99" in text


def test_bench_clients_lead_from_a_view_too_long_to_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lead of more than LEGAL_INLINE_MAX plays (27 ordinary cards reach it now and then) lists no play:
    a client still leads, with a single the engine accepts, and when following it passes."""
    from guandan.core.match import new_match
    from guandan.core.rules import preset
    from guandan.core.vocab import ActionKind
    from guandan.server import wire
    from guandan.server.bench import client_actions, client_turn

    monkeypatch.setattr(wire, "LEGAL_INLINE_MAX", 1)
    match = new_match(preset("competition"), "long-lead")
    match.start_deal()
    for step in ("lead", "follow"):
        seat = match.to_move
        view = wire.seat_view(match.observation(seat), with_events=False)
        assert view["legal_complete"] is False and not any(a["kind"] == ActionKind.PLAY for a in view["legal"])
        assert client_turn(view, seat) and not client_turn(view, (seat + 1) % 4)
        actions = client_actions(view)
        if step == "lead":
            assert actions == [{"kind": ActionKind.PLAY, "cards": [view["hand"][0]], "combo": None}]
        else:
            assert [a["kind"] for a in actions] == [ActionKind.PASS]
        a = actions[0]
        match.apply(wire.parse_action(match, seat, a["kind"], a["cards"], a.get("combo")))

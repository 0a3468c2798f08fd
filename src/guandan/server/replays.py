"""Replays (复盘) of finished matches: every step with all four hands, from the open record format.

A match is over, so its hands are no longer secret; the hands still come from each seat's
observation, the one door hidden information leaves the engine by.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from functools import partial
from typing import Any

from ..core import record
from ..core.deal import DealState
from ..core.errors import RecordError
from ..core.events import DealOver, DealSettled, DealStart, MatchOver
from ..core.fair import DealCheck, check_deals
from ..core.match import MatchState
from ..core.vocab import RANKS, ActionKind, Scoring
from ..i18n import LANGUAGES, translator
from ..present import Presenter
from ..present.fairness import checks_summary, deal_check_lines, seed_line
from ..present.seats import recorded_players, seat_kinds, seat_names
from .wire import Texts, action_json, cards_json, event_json, texts_for

MAX_RECORD_BYTES = 5_000_000


def _hands(state: DealState) -> list[list[str]]:
    return [cards_json(state.observation(s).hand) for s in range(4)]


def _check_lines(check: DealCheck, p: Presenter) -> list[str]:
    return deal_check_lines(p, check)


def _levels(levels: Iterable[int]) -> list[str]:
    return [RANKS[x] for x in levels]


def _deal_result(settled: DealSettled, texts: Texts) -> dict[str, Any]:
    """What a deal came to: the order, the result, the levels after it, its 火拼 points, in words too."""
    return {"finish": list(settled.finish), "partner_place": settled.partner_place, "winners": settled.winners,
            "upgrade": settled.upgrade, "levels": _levels(settled.levels),
            "points": list(settled.points) if settled.points is not None else None,
            "text": texts(lambda p: p.settlement(settled))}


def _deal_header(start: DealStart, settled: DealSettled | None, p: Presenter) -> list[str]:
    """A deal as its entry in the deal list says it: the opening line (level, levels before, declarer), the
    result with its notes and the levels after, and the 火拼 points in one line — the per-seat breakdown of
    the settlement is for the deal-end panel."""
    lines = p.event(start)
    if settled is not None:
        lines += p.settlement(dataclasses.replace(settled, points=None))
        if settled.points is not None:
            web = translator("web", p.lang)
            lines.append(web.gettext("Points: {points}").format(points=p.points(settled.points)))
    return lines


def _match_summary(match: MatchState, over: MatchOver | None, texts: Texts) -> dict[str, Any]:
    """The match at its end (or where the record stops): winner, final levels, deals, total 火拼 points."""
    scored = match.rules.scoring == Scoring.HUOPIN_POINTS
    deals = len(match.deals)

    def lines(p: Presenter) -> list[str]:
        web = translator("web", p.lang)
        out = p.event(over) if over is not None else [web.gettext(
            "The record stops before the match is over: {n} deals played · levels {levels}").format(
                n=deals, levels=p.levels(match.levels))]
        if scored:
            out.append(web.gettext("Points in the match: {points}").format(points=p.points(match.points)))
        return out

    return {"ended": match.ended, "winner": match.winner, "levels": _levels(match.levels), "deals": deals,
            "points": list(match.points) if scored else None, "text": texts(lines)}


def replay_frames(text: str, *, in_play: bool = False) -> dict[str, Any]:
    """The record re-run step by step: per deal, its steps (action, events, the four hands after it), its
    opening line and its result; the seats' names and teams; the match's summary. Every line people read is
    rendered here in every language, with the seats named as on the page. ``in_play``: the record of a match
    still in play (server/deal_reviews.py), whose seed is secret: no fair-deal check (it reveals the seed), and
    no seed, record result or players' list of the record in the answer."""
    data = record.loads(text)
    kinds = seat_kinds(data.get("meta"))  # the seats named as the review (复盘) names them too (present.seats)
    names = {lang: seat_names(recorded_players(data), kinds)(lang) for lang in LANGUAGES}
    texts = texts_for(names.__getitem__)  # a replay is no seat's: each team named beside its level (PagePresenter)
    deals: list[dict[str, Any]] = []
    match: MatchState | None = None
    over: MatchOver | None = None
    last_play: int | None = None  # the step of the deal's latest play
    for action, events, match in record.replay(data):
        finished = any(isinstance(e, DealOver) for e in events)
        state = match.deals[-1].state if finished else match.deal
        assert state is not None
        if action is None:
            last_play = None
            start = next(e for e in events if isinstance(e, DealStart))  # every deal opens with one
            deals.append({"index": len(deals), "level": RANKS[state.level], "levels": _levels(match.levels),
                          "declarer": match.declarer, "steps": [], "result": None,
                          "title": texts(partial(_opening, start)), "header": texts(partial(_deal_header, start, None))})
        for e in events:
            if isinstance(e, DealSettled):
                deals[-1]["result"] = _deal_result(e, texts)
                deals[-1]["header"] = texts(partial(_deal_header, start, e))
            elif isinstance(e, MatchOver):
                over = e
        if action is not None and action.kind == ActionKind.PLAY:
            last_play = len(deals[-1]["steps"])
        deals[-1]["steps"].append({
            "action": action_json(action) if action is not None else None,
            "events": [event_json(e, texts) for e in events],
            "hands": _hands(state),
            "to_move": state.to_move,
            "phase": state.phase,
            # the play the next move must beat, as the step whose event shows it (an index, not the play again: a
            # long match has thousands of steps); None when the next play leads a new round. The page shows it
            # beside a pass or a play, so that a decision is seen against what the seat had to answer.
            "top": last_play if state.top is not None else None,
        })
    assert match is not None  # a record replays at least its first deal's opening
    kinds_json = [{"name": {lang: names[lang][s] for lang in LANGUAGES}, "team": s % 2, "kind": kinds[s][0],
                   "tier": kinds[s][1]} for s in range(4)]
    teams = [texts(partial(_team, t)) for t in (0, 1)]
    if in_play:
        return {"meta": {}, "seats": kinds_json, "teams": teams, "summary": _match_summary(match, over, texts),
                "deals": deals, "fair": None}
    # the match is over, so its seed is revealed: every deal is dealt again from it and checked against the
    # record's hands and the commitment shown at the table (guandan.core.fair; `guandan verify-deal` too)
    checks = check_deals(data)
    for entry, check in zip(deals, checks, strict=True):
        entry["commitment"] = check.commitment
        entry["check"] = {"verified": check.verified, "text": texts(partial(_check_lines, check))}
    seed = data["seed"]
    fair = {"verified": all(c.verified for c in checks), "seed": seed,
            "text": texts(lambda p: [checks_summary(p, checks), seed_line(p, seed, len(checks))])}
    return {"players": data.get("players", []), "meta": data.get("meta", {}), "result": data.get("result"),
            "rules": data.get("rules", {}).get("name"), "seats": kinds_json, "teams": teams,
            "summary": _match_summary(match, over, texts), "deals": deals, "fair": fair}


def _opening(start: DealStart, p: Presenter) -> list[str]:
    return p.event(start)


def _team(team: int, p: Presenter) -> list[str]:
    return [p.team(team)]


def check_record(text: str) -> None:
    """Check a record file by replaying it completely: a :class:`RecordError` (a GuandanError) says why
    it is not one this server keeps."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"a record is limited to {MAX_RECORD_BYTES} bytes")
    data = record.loads(text)
    for _ in record.replay(data):
        pass

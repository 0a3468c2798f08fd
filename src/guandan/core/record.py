"""Game records: an open, versioned JSON format (docs/record-format.md) and exact replay.

A record holds the RuleSet, the seed, the match configuration, every deal's initial hands, its
commitment (version 2) and every action with its seat and declared combo, and the results.
:func:`replay` re-runs the actions on a fresh engine and checks each deal's hands and results, so
every intermediate state is reproduced. Pure: strings in, objects out; the CLI does the file I/O.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from .cards import Card, card_str, parse_card
from .combos import Combo, resolve_combo
from .deal import Action, DealState
from .errors import N_, GuandanError, RecordError, shown
from .events import DealStart, Event
from .fair import deal_commitment
from .match import MatchConfig, MatchState, new_match
from .rules import RuleSet
from .vocab import RANKS, ActionKind

FORMAT = "guandan-record"
VERSION = 2  # 2 adds each deal's commitment (guandan.core.fair)
READABLE_VERSIONS = (1, 2)  # every version written so far still loads and replays
_LEVELS = RANKS


def _cards(codes: tuple[Card, ...] | list[Card]) -> list[str]:
    return [card_str(c) for c in codes]


def _action_dict(a: Action) -> dict[str, Any]:
    d: dict[str, Any] = {"seat": a.seat, "kind": a.kind}
    if a.cards:
        d["cards"] = _cards(a.cards)
    if a.combo is not None:
        d["combo"] = a.combo.to_dict()
    return d


def to_dict(match: MatchState, players: list[str] | None = None, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record of a match so far (finished deals and the deal in progress)."""
    deals = []
    summaries = {s.index: s for s in match.deals}
    states = list(match_history(match))
    for index, deal in states:
        entry: dict[str, Any] = {
            "index": index,
            "level": _LEVELS[deal.level],
            "prev_finish": list(deal.prev_finish) if deal.prev_finish is not None else None,
            "hands": [_cards(h) for h in deal.initial_hands],
            "first_leader": deal.first_leader if deal.tracker else None,
            "flipped": card_str(deal.flipped) if deal.flipped is not None else None,
            "commitment": deal_commitment(match.seed, index),
            "actions": [_action_dict(a) for a in deal.actions],
        }
        s = summaries.get(index)
        if s is not None:
            entry["declarer"] = s.declarer
            entry["levels_before"] = [_LEVELS[x] for x in s.levels_before]
            entry["finish"] = s.finish
            entry["levels_after"] = [_LEVELS[x] for x in s.settlement.levels_after]
            entry["result"] = f"1-{s.settlement.partner_place}"
            if s.points is not None:
                entry["points"] = s.points
        deals.append(entry)
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": match.rules.to_dict(),
        "seed": match.seed,
        "config": match.config.to_dict(),
        "players": players or [],
        "meta": meta or {},
        "deals": deals,
        "result": {
            "ended": match.ended,
            "winner": match.winner,
            "levels": [_LEVELS[x] for x in match.levels],
            "deals_played": len(match.deals),
            "points": list(match.points),
        },
    }


def match_history(match: MatchState) -> Iterator[tuple[int, DealState]]:
    """(index, DealState) for every deal of the match: the finished ones, then the one in progress."""
    for s in match.deals:
        yield s.index, s.state
    if not match.ended and match.deal is not None:
        yield match.deal_index, match.deal


def dumps(match: MatchState, players: list[str] | None = None, meta: dict[str, Any] | None = None) -> str:
    return json.dumps(to_dict(match, players, meta), ensure_ascii=False, indent=1)


def loads(text: str) -> dict[str, Any]:
    """Parse and validate a record's envelope; :func:`replay` checks its content."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError.said(N_("the record is not valid JSON (line {line}: {reason})"), line=e.lineno, reason=e.msg) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError.said(N_("not a guandan record: the 'format' field must be {format}"), format=shown(FORMAT))
    version = data.get("version")
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        readable = ", ".join(map(str, READABLE_VERSIONS))
        raise RecordError.said(N_("record version {version} is not supported (this engine reads versions {readable})"),
                                version=shown(version), readable=readable)
    for key in ("rules", "seed", "config", "deals"):
        if key not in data:
            raise RecordError.said(N_("the record has no {key} field"), key=shown(key))
    if not isinstance(data["deals"], list):
        raise RecordError.said(N_("'deals' must be a list"))
    return data


def _parse_action(d: Any, deal: int, action: int, match: MatchState) -> Action:
    """Action ``action`` of deal ``deal`` (both counted from 1, as a person counts them in a message), as the
    record writes it."""
    if not isinstance(d, dict) or "seat" not in d or "kind" not in d:
        raise RecordError.said(N_("deal {deal}, action {action}: an action needs 'seat' and 'kind'"),
                               deal=deal, action=action)
    try:
        cards = tuple(parse_card(t) for t in d.get("cards", []))
    except GuandanError as e:
        raise RecordError.said(N_("deal {deal}, action {action}: {problem}"), deal=deal, action=action,
                               problem=e) from None
    combo: Combo | None = None
    if "combo" in d:
        assert match.deal is not None
        try:
            combo = resolve_combo(cards, match.deal.level, match.rules, d["combo"])
        except GuandanError as e:
            raise RecordError.said(N_("deal {deal}, action {action}: {problem}"), deal=deal, action=action,
                                   problem=e) from None
    try:
        kind = ActionKind(d["kind"])
    except ValueError:
        raise RecordError.said(N_("deal {deal}, action {action}: unknown action kind {kind}"), deal=deal, action=action,
                               kind=shown(d["kind"])) from None
    seat = d["seat"]
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(4):
        raise RecordError.said(N_("deal {deal}, action {action}: seat must be 0…3, not {seat}"), deal=deal, action=action,
                               seat=shown(seat))
    return Action(kind, seat, cards, combo)


def replay(data: dict[str, Any]) -> Iterator[tuple[Action | None, list[Event], MatchState]]:
    """Re-run a record. Yields (None, the deal's opening events, state) at each deal's start and
    (action, its events, state) after every action; the state is the live engine (clone its deal to
    keep a snapshot). Raises RecordError on any mismatch with the recorded hands or results."""
    try:
        rules = RuleSet.from_dict(data["rules"])
        config = MatchConfig.from_dict(data["config"])
    except (GuandanError, TypeError, ValueError) as e:
        raise RecordError.said(N_("the record's rules or config are invalid: {problem}"), problem=e) from None
    match = new_match(rules, data["seed"], config)
    opening = match.deal.events if match.deal else []
    for n, deal in enumerate(data["deals"]):
        if match.deal is None or match.ended:
            raise RecordError.said(N_("deal {deal}: the match was already over"), deal=n + 1)
        if not isinstance(deal, dict):
            raise RecordError.said(N_("deal {deal}: not an object"), deal=n + 1)
        try:
            hands = [[parse_card(t) for t in h] for h in deal.get("hands", [])]
        except GuandanError as e:
            raise RecordError.said(N_("deal {deal}: {problem}"), deal=n + 1, problem=e) from None
        if [sorted(h) for h in hands] != [sorted(h) for h in match.deal.initial_hands]:
            raise RecordError.said(N_("deal {deal}: the recorded hands differ from the seeded deal"), deal=n + 1)
        if "commitment" in deal and deal["commitment"] != match.commitment:
            raise RecordError.said(N_("deal {deal}: the recorded commitment is not the hash of the seed's deal"), deal=n + 1)
        yield None, [match.deal_start_event(), *opening], match
        events: list[Event] = []
        for i, a in enumerate(deal.get("actions", [])):
            action = _parse_action(a, n + 1, i + 1, match)
            try:
                events = match.apply(action)
            except GuandanError as e:
                raise RecordError.said(N_("deal {deal}, action {action} ({move}): {problem}"), deal=n + 1, action=i + 1,
                                       move=str(action), problem=e) from None
            # the events of a deal's last action also open the next deal: show those at its start
            cut = next((k for k, e in enumerate(events) if isinstance(e, DealStart)), len(events))
            opening = events[cut + 1:]
            yield action, events[:cut], match
        if "finish" in deal:
            last = match.deals[-1] if match.deals else None
            if last is None or last.index != n or last.finish != deal["finish"]:
                raise RecordError.said(N_("deal {deal}: the replay does not reproduce the recorded finishing order"), deal=n + 1)
    result = data.get("result")
    if isinstance(result, dict) and result.get("ended") and (not match.ended or match.winner != result.get("winner")):
        raise RecordError.said(N_("the replay does not reproduce the recorded result"))

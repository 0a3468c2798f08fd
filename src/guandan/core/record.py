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

from .cards import N_CODES, Card, card_str, parse_card
from .combos import Combo, resolve_combo
from .deal import Action, DealState
from .errors import N_, GuandanError, RecordError, shown
from .events import DealStart, Event
from .fair import deal_commitment
from .match import MatchConfig, MatchState, new_match
from .params import JsonProblem, SeatNo
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
        raise RecordError.said(N_("the record is not valid JSON (line {line}: {reason})"), line=e.lineno,
                               reason=JsonProblem(e.msg)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError.said(N_("not a guandan record: the 'format' field must be {format}"), format=shown(FORMAT))
    version = data.get("version")
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        readable = ", ".join(map(str, READABLE_VERSIONS))
        raise RecordError.said(N_("record version {version} is not supported (this engine reads versions {readable})"),
                                version=shown(version), readable=readable)
    check(data)
    return data


def check(data: dict[str, Any]) -> None:
    """Refuse an envelope whose fields are missing or of the wrong kind, naming the field; :func:`replay`
    checks the deals (and calls this first, for a record that did not come through :func:`loads`)."""
    for key in ("rules", "seed", "config", "deals"):
        if key not in data:
            raise RecordError.said(N_("the record has no {key} field"), key=shown(key))
    if not isinstance(data["deals"], list):
        raise RecordError.said(N_("'deals' must be a list"))
    for key in ("rules", "config"):
        if not isinstance(data[key], dict):
            raise RecordError.said(N_("'{key}' must be an object, not {value}"), key=key,
                                   value=_quoted(data[key]))
    seed = data["seed"]
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        raise RecordError.said(N_("'seed' must be an integer or a string, not {value}"), value=_quoted(seed))
    # meta and players are free for the producing program, but of a fixed kind: their readers look inside
    if data.get("meta") is not None and not isinstance(data["meta"], dict):
        raise RecordError.said(N_("'{key}' must be an object, not {value}"), key="meta",
                               value=_quoted(data["meta"]))
    if data.get("players") is not None and not isinstance(data["players"], list):
        raise RecordError.said(N_("'players' must be a list, not {value}"), value=_quoted(data["players"]))
    _check_config(data["config"])


def _quoted(value: object, limit: int = 40) -> str:
    """A value of the file as an error quotes it: as JSON writes it, cut short when long."""
    text = shown(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _is_int(value: object, low: int, high: int | None = None) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low and (high is None or value <= high)


def _check_config(config: dict[str, Any]) -> None:
    """Refuse a ``config`` value the engine would misread: :meth:`MatchConfig.from_dict` quietly takes the
    default for a value of the wrong kind, and a level beyond A fails only deals later."""

    def bad(msgid: str, key: str) -> RecordError:
        return RecordError.said(msgid, value=_quoted(config[key]))

    def present(key: str) -> bool:
        return config.get(key) is not None

    if present("max_deals") and not _is_int(config["max_deals"], 1):
        raise bad(N_("config: 'max_deals' must be null or a number of deals from 1, not {value}"), "max_deals")
    if "start_levels" in config and not (isinstance(config["start_levels"], list) and len(config["start_levels"]) == 2
                                         and all(_is_int(x, 0, len(_LEVELS) - 1) for x in config["start_levels"])):
        raise bad(N_("config: 'start_levels' must be two levels, each 0…12 (2…A), not {value}"), "start_levels")
    if present("start_declarer") and not _is_int(config["start_declarer"], 0, 1):
        raise bad(N_("config: 'start_declarer' must be null or a team, 0 or 1, not {value}"), "start_declarer")
    finish = config.get("start_prev_finish")
    if finish is not None and not (isinstance(finish, list) and all(_is_int(x, 0, 3) for x in finish)
                                   and sorted(finish) == [0, 1, 2, 3]):
        raise bad(N_("config: 'start_prev_finish' must be null or the seats 0…3 in finishing order, not {value}"),
                  "start_prev_finish")
    if "start_a_failures" in config and not (isinstance(config["start_a_failures"], list)
                                             and len(config["start_a_failures"]) == 2
                                             and all(_is_int(x, 0) for x in config["start_a_failures"])):
        raise bad(N_("config: 'start_a_failures' must be two counts from 0, not {value}"), "start_a_failures")
    hands = config.get("first_hands")
    if hands is not None and not (isinstance(hands, list) and len(hands) == 4 and all(
            isinstance(h, list) and all(_is_int(c, 0, N_CODES - 1) for c in h) for h in hands)):
        raise bad(N_("config: 'first_hands' must be null or four lists of card codes 0…53, not {value}"), "first_hands")
    if present("first_leader") and not _is_int(config["first_leader"], 0, 3):
        raise bad(N_("config: 'first_leader' must be null or a seat 0…3, not {value}"), "first_leader")


def _parse_action(d: Any, deal: int, action: int, match: MatchState) -> Action:
    """Action ``action`` of deal ``deal`` (both counted from 1, as a person counts them in a message), as the
    record writes it."""
    if not isinstance(d, dict) or "seat" not in d or "kind" not in d:
        raise RecordError.said(N_("deal {deal}, action {action}: an action needs 'seat' and 'kind'"),
                               deal=deal, action=action)
    tokens = d.get("cards", [])
    if not isinstance(tokens, list):
        raise RecordError.said(N_("deal {deal}, action {action}: 'cards' must be a list of cards such as \"H3\", not {value}"),
                               deal=deal, action=action, value=_quoted(tokens))
    try:
        cards = tuple(_card(t) for t in tokens)
    except GuandanError as e:
        raise RecordError.said(N_("deal {deal}, action {action}: {problem}"), deal=deal, action=action,
                               problem=e) from None
    try:
        kind = ActionKind(d["kind"])
    except ValueError:
        raise RecordError.said(N_("deal {deal}, action {action}: unknown action kind {kind}"), deal=deal, action=action,
                               kind=shown(d["kind"])) from None
    combo: Combo | None = None
    if d.get("combo") is not None and kind != ActionKind.PLAY:
        raise RecordError.said(N_("deal {deal}, action {action}: only a play declares a combo"), deal=deal, action=action)
    if d.get("combo") is not None and not isinstance(d["combo"], dict):
        raise RecordError.said(N_("deal {deal}, action {action}: 'combo' must be an object (type, key, size), not {value}"),
                               deal=deal, action=action, value=_quoted(d["combo"]))
    if kind == ActionKind.PLAY and "combo" in d:
        assert match.deal is not None
        try:
            combo = resolve_combo(cards, match.deal.level, match.rules, d["combo"])
        except GuandanError as e:
            raise RecordError.said(N_("deal {deal}, action {action}: {problem}"), deal=deal, action=action,
                                   problem=e) from None
    seat = d["seat"]
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(4):
        raise RecordError.said(N_("deal {deal}, action {action}: seat must be 0…3, not {seat}"), deal=deal, action=action,
                               seat=shown(seat))
    return Action(kind, seat, cards, combo)


def _card(token: object) -> Card:
    """A card of the record: a token such as ``"H3"``; a number or any other value is refused by name
    (the compiled :func:`parse_card` would raise a bare TypeError)."""
    if not isinstance(token, str):
        raise RecordError.said(N_("a card is written as text such as \"H3\" or \"BJ\", not {value}"), value=_quoted(token))
    return parse_card(token)


def replay(data: dict[str, Any]) -> Iterator[tuple[Action | None, list[Event], MatchState]]:
    """Re-run a record. Yields (None, the deal's opening events, state) at each deal's start and
    (action, its events, state) after every action; the state is the live engine (clone its deal to
    keep a snapshot). Raises RecordError on any mismatch with the recorded hands or results."""
    check(data)
    try:
        rules = RuleSet.from_dict(data["rules"])
        config = MatchConfig.from_dict(data["config"])
        match = new_match(rules, data["seed"], config)
    except (GuandanError, TypeError, ValueError) as e:
        raise RecordError.said(N_("the record's rules or config are invalid: {problem}"), problem=e) from None
    opening = match.deal.events if match.deal else []
    for n, deal in enumerate(data["deals"]):
        if match.deal is None or match.ended:
            raise RecordError.said(N_("deal {deal}: the match was already over"), deal=n + 1)
        if not isinstance(deal, dict):
            raise RecordError.said(N_("deal {deal}: not an object"), deal=n + 1)
        recorded = deal.get("hands", [])
        if not isinstance(recorded, list) or not all(isinstance(h, list) for h in recorded):
            raise RecordError.said(N_("deal {deal}: 'hands' must be four lists of cards, not {value}"), deal=n + 1,
                                   value=_quoted(recorded))
        hands = []
        for seat, h in enumerate(recorded):
            try:
                hands.append([_card(t) for t in h])
            except GuandanError as e:  # seats are counted from 1 for people, as replay shows them
                raise RecordError.said(N_("deal {deal}, hand of seat {seat}: {problem}"), deal=n + 1, seat=seat + 1,
                                       problem=e) from None
        actions = deal.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError.said(N_("deal {deal}: 'actions' must be a list, not {value}"), deal=n + 1,
                                   value=_quoted(actions))
        if [sorted(h) for h in hands] != [sorted(h) for h in match.deal.initial_hands]:
            raise RecordError.said(N_("deal {deal}: the recorded hands differ from the seeded deal"), deal=n + 1)
        if "commitment" in deal and deal["commitment"] != match.commitment:
            raise RecordError.said(N_("deal {deal}: the recorded commitment is not the hash of the seed's deal"), deal=n + 1)
        yield None, [match.deal_start_event(), *opening], match
        events: list[Event] = []
        for i, a in enumerate(actions):
            action = _parse_action(a, n + 1, i + 1, match)
            try:
                events = match.apply(action)
            except GuandanError as e:
                raise RecordError.said(N_("deal {deal}, action {action} (seat {seat}: {move}): {problem}"), deal=n + 1,
                                       action=i + 1, seat=SeatNo(action.seat), move=action, problem=e) from None
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

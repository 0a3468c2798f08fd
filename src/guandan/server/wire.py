"""JSON shapes of engine objects on the wire (docs/web-protocol.md): cards as rules-notation strings,
actions, public events and the two projections a client may see — a seat's view, built only from
``match.observation(seat)``, and the spectator's public view (the same minus the hand and the legal
actions). Nothing here reads another seat's hand: hidden cards cannot reach a frame by mistake.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from ..core.cards import Card, card_str, parse_card
from ..core.combos import beats, classify, resolve_combo
from ..core.deal import Action, Event
from ..core.errors import GuandanError
from ..core.match import MatchObservation, MatchState

LEVELS = "23456789TJQKA"
JSON = dict[str, Any]


def cards_json(codes: Iterable[Card]) -> list[str]:
    return [card_str(c) for c in codes]


def action_json(a: Action) -> JSON:
    d: JSON = {"kind": a.kind, "seat": a.seat, "cards": cards_json(a.cards)}
    if a.combo is not None:
        d["combo"] = a.combo.to_dict()
    return d


def event_json(e: Event) -> JSON:
    d: JSON = {"type": e.type}
    if e.seat is not None:
        d["seat"] = e.seat
    if e.cards:
        d["cards"] = cards_json(e.cards)
    if e.combo is not None:
        d["combo"] = e.combo.to_dict()
    if e.info:
        d["info"] = _info_json(e.info)
    return d


def _info_json(info: dict[str, Any]) -> JSON:
    out: JSON = {}
    for k, v in info.items():
        if k == "level" and isinstance(v, int):
            out[k] = LEVELS[v]  # levels travel as rank characters everywhere, as in the views
        elif k == "levels" and isinstance(v, list):
            out[k] = [LEVELS[x] if isinstance(x, int) else x for x in v]
        elif k in ("result", "cards") and isinstance(v, list):
            # tribute/return/anti-tribute triples hold card codes in their last place
            out[k] = [[*x[:-1], card_str(x[-1])] if isinstance(x, list) and x else x for x in v]
        else:
            out[k] = v
    return out


def parse_action(match: MatchState, seat: int, kind: str, cards: Sequence[str], combo: JSON | None) -> Action:
    """The engine action a client asked for. Raises GuandanError naming what is wrong."""
    codes = tuple(parse_card(t) for t in cards)
    resolved = None
    if kind == "play":
        if match.deal is None:
            raise GuandanError("no deal in progress")
        resolved = resolve_combo(codes, match.deal.level, match.rules, combo)
    elif combo is not None:
        raise GuandanError(f"a {kind} action takes no combo")
    if kind == "pass" and codes:
        raise GuandanError("a pass takes no cards")
    return Action(kind, seat, codes, resolved)


LEGAL_INLINE_MAX = 3000  # a longer legal list (火拼 leads reach 80,000) is answered per selection


def seat_view(obs: MatchObservation, *, with_events: bool) -> JSON:
    """What one seat sees: its hand and (when it is to move) its legal actions. When there are more
    than LEGAL_INLINE_MAX, only the non-play actions are listed, ``legal_complete`` is false, and the
    client asks for the plays of its selection with a ``readings`` frame."""
    view = public_view(obs, with_events=with_events)
    d = obs.deal
    view["seat"] = d.seat
    view["hand"] = cards_json(d.hand)
    complete = len(d.legal) <= LEGAL_INLINE_MAX
    view["legal"] = [action_json(a) for a in d.legal if complete or a.kind != "play"]
    view["legal_complete"] = complete
    view["can_play"] = any(a.kind == "play" for a in d.legal)
    return view


def readings_of(match: MatchState, seat: int, cards: Sequence[str]) -> list[JSON]:
    """The legal plays of exactly ``cards`` for the seat to move: each reading that beats the top.
    Raises GuandanError naming a bad card or a card the seat does not hold."""
    deal = match.deal
    if deal is None or deal.phase != "play":
        raise GuandanError("readings are for the play phase")
    codes = tuple(sorted(parse_card(t) for t in cards))
    hand = Counter(deal.hands[seat])  # the requester's own hand (observation() would rebuild every legal move)
    missing = [card_str(c) for c, n in Counter(codes).items() if hand[c] < n]
    if missing:
        raise GuandanError(f"you do not hold {' '.join(missing)}")
    top = deal.top_combo
    return [action_json(Action("play", seat, codes, c)) for c in classify(codes, deal.level, match.rules)
            if beats(c, top, match.rules)]


def public_view(obs: MatchObservation, *, with_events: bool) -> JSON:
    """Public information only (公开信息): no hand, no legal actions, counts only once 报牌 made them public."""
    d = obs.deal
    view: JSON = {
        "phase": d.phase,
        "to_move": d.to_move,
        "level": LEVELS[d.level],
        "reported": reported_counts(obs),
        "played_counts": list(d.played_counts),
        "top": None if d.top is None else {"seat": d.top[0], "cards": cards_json(d.top[1]), "combo": d.top[2].to_dict()},
        "finish": list(d.finish),
        "prev_finish": list(d.prev_finish) if d.prev_finish is not None else None,
        "first_leader": d.first_leader,
        "deal_index": obs.deal_index,
        "levels": [LEVELS[x] for x in obs.levels],
        "declarer": obs.declarer,
        "a_failures": list(obs.a_failures),
        "points": list(obs.points),
        "winner": obs.winner,
        "ended": obs.ended,
    }
    if with_events:
        view["events"] = [event_json(e) for e in d.events]
    return view


def reported_counts(obs: MatchObservation) -> dict[str, int]:
    """Counts made public by 报牌. The engine also lists the observer's own count, which is private
    until that seat reports, so it is left out unless a report event made it public."""
    d = obs.deal
    own_reported = any(e.type == "report" and e.seat == d.seat for e in d.events)
    return {str(s): n for s, n in d.public_counts.items() if s != d.seat or own_reported}

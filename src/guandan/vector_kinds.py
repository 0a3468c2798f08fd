"""Vector checkers for the kinds the rules core and the deal/match engine cover (RULES.md §9).

Every field is read with :func:`guandan.vectors.field` / :func:`~guandan.vectors.parsed`, so a vector
with a missing or mistyped field fails with an error naming that field, never an exception.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from .core.cards import BIG_JOKER, SMALL_JOKER, Card, card_str, level_order, parse_card, parse_cards, parse_level
from .core.combos import Combo, beats, classify, resolve_combo
from .core.deal import deal_cards, first_leader_from_flips
from .core.errors import IllegalActionError
from .core.params import Phrase
from .core.rules import RuleSet, preset
from .core.scoring import StreakCounts, huopin_points, settle_deal
from .core.tribute import partner, plan_tribute, return_eligible
from .core.turns import TurnTracker
from .core.vocab import RANKS
from .i18n import N_
from .vectors import VectorError, checker, field, json_type, parsed

_NULL = type(None)
_SEAT_KEYS = ("0", "1", "2", "3")


# --- fields -------------------------------------------------------------------------------------
def _preset(v: Mapping[str, Any]) -> RuleSet:
    return parsed("preset", preset, field(v, "preset", str, N_("a preset name")))  # type: ignore[no-any-return]


def _level(v: Mapping[str, Any], name: str = "level", *, where: str = "", default: Any = None) -> int:
    kw = {} if default is None else {"default": default}
    value = field(v, name, (str, int), N_("a level, 2…A"), where=where, **kw)
    return parsed(f"{where}.{name}" if where else name, parse_level, value)  # type: ignore[no-any-return]


def _cards(v: Mapping[str, Any], name: str, *, where: str = "", nonempty: bool = False) -> list[Card]:
    label = f"{where}.{name}" if where else name
    text = field(v, name, str, N_("cards in RULES.md notation, e.g. \"S3 H3\""), where=where)
    cards: list[Card] = parsed(label, parse_cards, text)
    if nonempty and not cards:
        raise VectorError.said(N_("field '{field}' must hold at least one card"), field=label)
    return cards


def _count(v: Mapping[str, Any], name: str, what: str = N_("a whole number ≥ 0"), *, where: str = "", default: Any = None) -> int:
    kw = {} if default is None else {"default": default}
    n: int = field(v, name, int, what, where=where, **kw)
    if n < 0:
        raise VectorError.said(N_("field '{field}' must be {what}, not {found}"),
                               field=f"{where}.{name}" if where else name, what=Phrase(what), found=n)
    return n


def _seat(value: Any, label: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 3:
        shown = json.dumps(value) if isinstance(value, int | float) and not isinstance(value, bool) else json_type(value)
        raise VectorError.said(N_("field '{field}' must be a seat 0…3, not {found}"), field=label, found=shown)
    return value


def _seats(v: Mapping[str, Any], name: str, what: str) -> list[int]:
    """A list of distinct seats."""
    values = field(v, name, list, what)
    seats = [_seat(s, f"{name}[{i}]") for i, s in enumerate(values)]
    if len(set(seats)) != len(seats):
        raise VectorError.said(N_("field '{field}' must not name a seat twice, not {found}"), field=name,
                               found=json.dumps(seats))
    return seats


def _finish(v: Mapping[str, Any], name: str = "finish") -> list[int]:
    seats = _seats(v, name, N_("the four seats in finishing order"))
    if len(seats) != 4:
        raise VectorError.said(N_("field '{field}' must list all four seats, not {n}"), field=name, n=len(seats))
    return seats


def _seat_map(v: Mapping[str, Any], name: str, *, where: str = "", default: Any = None) -> dict[str, Any]:
    kw = {} if default is None else {"default": default}
    m: dict[str, Any] = field(v, name, dict, N_('an object keyed by seat, "0"…"3"'), where=where, **kw)
    for key in m:
        if key not in _SEAT_KEYS:
            label = f"{where}.{name}" if where else name
            raise VectorError.said(N_("field '{field}' has the key {key}: seats are \"0\"…\"3\""), field=label,
                                   key=json.dumps(key, ensure_ascii=False))
    return m


# --- kinds --------------------------------------------------------------------------------------
def _set_compare(expected: Any, actual: Any) -> bool:
    if expected == "invalid" or actual == "invalid":
        return bool(expected == actual)
    if not isinstance(expected, list) or not all(isinstance(d, dict) for d in expected):
        return False
    key = lambda d: json.dumps(d, sort_keys=True)  # noqa: E731  (any JSON values, in any order)
    return sorted(map(key, expected)) == sorted(map(key, actual))


@checker("classify", _set_compare)
def _classify(v: dict[str, Any]) -> Any:
    rules, level, cards = _preset(v), _level(v), _cards(v, "cards")
    found = classify(cards, level, rules)
    return [c.to_dict() for c in found] or "invalid"


@checker("compare")
def _compare(v: dict[str, Any]) -> bool:
    rules, level = _preset(v), _level(v)

    def combo(side: str) -> Combo:
        spec = field(v, side, dict, N_("an object with 'cards' (and optionally 'as')"))
        cards = _cards(spec, "cards", where=side)
        if "as" in spec:
            declared = field(spec, "as", dict, N_('a declared reading, e.g. {"type": "pair"}'), where=side)
            return parsed(f"{side}.as", resolve_combo, cards, level, rules, declared)  # type: ignore[no-any-return]
        found = classify(cards, level, rules)
        if not found:
            raise VectorError.said(N_("field '{field}': {cards} is not a legal play at this level"),
                                   field=f"{side}.cards", cards=spec["cards"])
        return found[0]  # the strongest reading when not declared

    return beats(combo("a"), combo("b"), rules)


def _cards_set(expected: Any, actual: Any) -> bool:
    return sorted(str(expected).split()) == sorted(str(actual).split())


@checker("return_eligible", _cards_set)
def _return_eligible(v: dict[str, Any]) -> str:
    rules, level, hand = _preset(v), _level(v), _cards(v, "hand", nonempty=True)
    return " ".join(card_str(c) for c in return_eligible(hand, None, level, rules, to_partner=False))


@checker("level_order")
def _level_order(v: dict[str, Any]) -> str:
    return " ".join(level_order(_level(v)))


@checker("report")
def _report(v: dict[str, Any]) -> dict[str, bool]:
    threshold = _preset(v).report_threshold
    announce = threshold is not None and _count(v, "hand_size_after_play", N_("a number of cards ≥ 0")) <= threshold
    out = {"announce": announce}
    expect = v.get("expect")
    if isinstance(expect, dict) and "count_public_from_now" in expect:
        out["count_public_from_now"] = announce
    return out


@checker("deal")
def _deal(v: dict[str, Any]) -> dict[str, int]:
    seed = field(v, "seed", (int, str), N_("a seed (a number or a string)"), default=0)
    hands, _, _ = deal_cards(random.Random(seed), 0)
    allc = [c for h in hands for c in h]
    sizes = {len(h) for h in hands}
    return {
        "cards_total": len(allc),
        "per_player": sizes.pop() if len(sizes) == 1 else -1,
        "wilds": allc.count(1),  # H2 at the first deal's level
        "jokers": sum(1 for c in allc if c in (SMALL_JOKER, BIG_JOKER)),
    }


@checker("first_lead_flip")
def _first_lead_flip(v: dict[str, Any]) -> dict[str, str]:
    tokens = field(v, "flips", list, N_("the flipped cards in order, e.g. [\"BJ\", \"S7\"]"))
    flips = []
    for i, t in enumerate(tokens):
        if not isinstance(t, str):
            raise VectorError.said(N_("field '{field}' must be a card such as \"S7\", not {found}"),
                                   field=f"flips[{i}]", found=json_type(t))
        flips.append(parsed(f"flips[{i}]", parse_card, t))
    i = parsed("flips", first_leader_from_flips, flips, _level(v, default="2"))
    return {"leader": f"holder_of:{card_str(flips[i])}"}


def _rank_name(value: int, level: int) -> str:
    if value == 16:
        return "LJ"
    if value == 17:
        return "BJ"
    return RANKS[level] if value == 15 else RANKS[value - 2]


def _tribute_compare(expected: Any, actual: Any) -> bool:
    if not isinstance(expected, dict) or any(k not in expected for k in ("anti_tribute", "first_leader", "payments")):
        return False
    if expected["anti_tribute"] != actual["anti_tribute"] or expected["first_leader"] != actual["first_leader"]:
        return False

    def norm(ps: Any) -> list[str] | None:
        if not isinstance(ps, list) or not all(isinstance(p, dict) and {"from", "to", "rank", "eligible"} <= p.keys()
                                               for p in ps):
            return None
        return sorted(json.dumps([p["from"], p["to"], p["rank"], sorted(str(p["eligible"]).split())]) for p in ps)

    wanted = norm(expected["payments"])
    return wanted is not None and wanted == norm(actual["payments"])


@checker("tribute", _tribute_compare)
def _tribute(v: dict[str, Any]) -> dict[str, Any]:
    rules, level = _preset(v), _level(v)
    if field(v, "prev_finish", (list, _NULL), N_("the previous deal's finishing order, or null for the first deal")) is None:
        return {"anti_tribute": False, "payments": [], "first_leader": "holder_of_flipped_card"}
    prev = _finish(v, "prev_finish")
    given = _seat_map(v, "hands")
    hands = {int(s): _cards(given, s, where="hands") for s in given}
    for s in range(4):
        hands.setdefault(s, [])
    plan = parsed("hands", plan_tribute, prev, hands, level, rules, random.Random(0))
    return {
        "anti_tribute": plan.anti_tribute,
        "payments": [
            {"from": p.payer, "to": p.receiver, "rank": _rank_name(p.value, level),
             # the vectors list physical cards: both copies when the payer holds two
             "eligible": " ".join(card_str(c) for c in hands[p.payer] if c in p.eligible)}
            for p in plan.payments
        ],
        "first_leader": plan.leader,
    }


def _subset_compare(expected: Any, actual: Any) -> bool:
    return isinstance(expected, dict) and all(actual.get(k) == val for k, val in expected.items())


def _ended_by(out: list[int]) -> bool:
    """Whether a deal with these seats out (in this order) is over: 双上 or three out."""
    return len(out) >= 3 or (len(out) == 2 and out[1] == partner(out[0]))


def _completed(out: list[int], rules: RuleSet) -> list[int]:
    """The finishing order of a deal that ``out`` ended, by the engine's own rule: the last of them
    goes out again on a tracker that holds the others."""
    last = out[-1]
    tracker = TurnTracker(last, rules, out[:-1])
    tracker.play(last, goes_out=True)
    return list(tracker.finish)


@checker("trick", _subset_compare)
def _trick(v: dict[str, Any]) -> dict[str, Any]:
    rules = _preset(v)
    out = _seats(v, "already_out", N_("the seats already out, in finishing order"))
    for n in range(1, len(out)):
        if _ended_by(out[:n]):
            raise VectorError.said(N_("field '{field}': the deal was over after {over}, so {rest} cannot have gone "
                                      "out after"), field="already_out", over=json.dumps(out[:n]),
                                   rest=json.dumps(out[n:]))
    raw = field(v, "actions", list, N_("a list of plays and passes"))
    actions: list[tuple[int, bool, bool]] = []  # (seat, plays, goes out)
    for i, a in enumerate(raw):
        where = f"actions[{i}]"
        if not isinstance(a, dict):
            raise VectorError.said(N_("field '{field}' must be an object with 'seat' and 'act', not {found}"),
                                   field=where, found=json_type(a))
        seat = _seat(field(a, "seat", int, N_("a seat 0…3"), where=where), f"{where}.seat")
        act = field(a, "act", str, N_('"play" or "pass"'), where=where)
        if act not in ("play", "pass"):
            raise VectorError.said(N_("field '{field}' must be \"play\" or \"pass\", not {found}"),
                                   field=f"{where}.act", found=json.dumps(act, ensure_ascii=False))
        goes_out = field(a, "goes_out", bool, N_("true or false"), where=where, default=False)
        if act == "pass" and goes_out:
            raise VectorError.said(N_("field '{field}': a pass cannot go out"), field=where)
        actions.append((seat, act == "play", goes_out))
    if _ended_by(out):
        # the deal is over before any action (双上 or three out): it is evaluated as it stands, and
        # any action after it is illegal
        return {"illegal": True} if actions else {"deal_over": True, "finish": _completed(out, rules)}
    if not actions:
        raise VectorError.said(N_("field '{field}' is empty and the deal is not over (already out: {out}): there "
                                  "is no trick to evaluate"), field="actions", out=json.dumps(out))
    result: dict[str, Any] = {}
    try:
        tracker = TurnTracker(actions[0][0], rules, out)
        for seat, plays, goes_out in actions:
            if tracker.turn != seat:
                return {"illegal": True}
            if plays:
                _, leader = tracker.play(seat, goes_out)
            else:
                leader = tracker.pass_(seat)
            if tracker.over:
                return {"deal_over": True, "finish": list(tracker.finish)}
            if leader is not None:
                result["next_leader"] = leader
    except IllegalActionError:
        return {"illegal": True}
    return result


def _team(value: Any, label: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value not in (0, 1):
        raise VectorError.said(N_("field '{field}' must be a team, 0 or 1 (or null), not {found}"), field=label,
                               found=json.dumps(value) if isinstance(value, int | float) else json_type(value))
    return value


def _keys(obj: Mapping[str, Any], label: str, allowed: tuple[str, ...]) -> None:
    for key in obj:
        if key not in allowed:
            raise VectorError.said(N_("field '{field}' has the key {key}: its keys are {keys}"), field=label,
                                   key=json.dumps(key, ensure_ascii=False),
                                   keys=", ".join(json.dumps(a) for a in allowed))


def _streaks(v: Mapping[str, Any]) -> StreakCounts:
    st_in = field(v, "streaks_before", dict, N_('an object {"first": {seat: n}, "last": {seat: n}}'), default={})
    _keys(st_in, "streaks_before", ("first", "last"))
    per: list[tuple[int, int, int, int]] = []
    for part in ("first", "last"):
        counts = _seat_map(st_in, part, where="streaks_before", default={})
        n = [_count(counts, s, where=f"streaks_before.{part}", default=0) for s in _SEAT_KEYS]
        per.append((n[0], n[1], n[2], n[3]))
    return StreakCounts(per[0], per[1])


@checker("deal_result", _subset_compare)
def _deal_result(v: dict[str, Any]) -> dict[str, Any]:
    rules = _preset(v)
    before = field(v, "levels_before", dict, N_('the teams\' levels, {"0": "2", "1": "2"}'))
    _keys(before, "levels_before", ("0", "1"))
    levels = (_level(before, "0", where="levels_before"), _level(before, "1", where="levels_before"))
    if "declarer" not in v:
        raise VectorError.said(N_("missing field '{field}' ({what})"), field="declarer",
                               what=Phrase(N_("the team that declared the deal, 0 or 1, or null")))
    declarer = _team(v["declarer"], "declarer")
    fails_in = field(v, "a_failures_before", dict, N_('failed A attempts per team, {"0": 0, "1": 0}'), default={})
    _keys(fails_in, "a_failures_before", ("0", "1"))
    fails = (_count(fails_in, "0", where="a_failures_before", default=0),
             _count(fails_in, "1", where="a_failures_before", default=0))
    r = settle_deal(levels, declarer, _finish(v), rules, fails, _streaks(v))
    name = RANKS
    return {
        "levels_after": {"0": name[r.levels_after[0]], "1": name[r.levels_after[1]]},
        "next_level": name[r.next_level],
        "next_declarer": r.declarer_after,
        "match_winner": r.match_winner,
        "a_failures_after": {"0": r.a_failures_after[0], "1": r.a_failures_after[1]},
    }


@checker("huopin_score")
def _huopin_score(v: dict[str, Any]) -> dict[str, int]:
    rules, finish = _preset(v), _finish(v)
    plays = []
    for i, p in enumerate(field(v, "star_plays", list, N_('the star bombs played, [{"seat": 0, "stars": 6}, …]'))):
        where = f"star_plays[{i}]"
        if not isinstance(p, dict):
            raise VectorError.said(N_("field '{field}' must be an object with 'seat' and 'stars', not {found}"),
                                   field=where, found=json_type(p))
        plays.append((_seat(field(p, "seat", int, N_("a seat 0…3"), where=where), f"{where}.seat"),
                      _count(p, "stars", N_("a number of stars ≥ 0"), where=where)))
    pts = huopin_points(finish, plays, rules)
    return {str(s): pts[s] for s in range(4)}

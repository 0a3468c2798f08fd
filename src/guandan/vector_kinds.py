"""Vector checkers for the kinds the rules core and the deal/match engine cover (RULES.md §9)."""

from __future__ import annotations

import random
from typing import Any

from .core.cards import BIG_JOKER, SMALL_JOKER, card_str, level_order, parse_card, parse_cards, parse_level
from .core.combos import beats, classify, resolve_combo
from .core.deal import deal_cards, first_leader_from_flips
from .core.errors import IllegalActionError
from .core.rules import preset
from .core.scoring import StreakCounts, huopin_points, settle_deal
from .core.tribute import plan_tribute, return_eligible
from .core.turns import TurnTracker
from .core.vocab import RANKS
from .vectors import checker


def _set_compare(expected: Any, actual: Any) -> bool:
    if expected == "invalid" or actual == "invalid":
        return bool(expected == actual)
    key = lambda d: sorted(d.items())  # noqa: E731
    return sorted(map(key, expected)) == sorted(map(key, actual))


@checker("classify", _set_compare)
def _classify(v: dict[str, Any]) -> Any:
    found = classify(v["cards"], parse_level(v["level"]), preset(v["preset"]))
    return [c.to_dict() for c in found] or "invalid"


@checker("compare")
def _compare(v: dict[str, Any]) -> bool:
    rules, level = preset(v["preset"]), parse_level(v["level"])

    def combo(side: dict[str, Any]) -> Any:
        cards = parse_cards(side["cards"])
        if "as" in side:
            return resolve_combo(cards, level, rules, side["as"])
        return classify(cards, level, rules)[0]  # the strongest reading when not declared

    return beats(combo(v["a"]), combo(v["b"]), rules)


def _cards_set(expected: Any, actual: Any) -> bool:
    return sorted(str(expected).split()) == sorted(str(actual).split())


@checker("return_eligible", _cards_set)
def _return_eligible(v: dict[str, Any]) -> str:
    rules, level = preset(v["preset"]), parse_level(v["level"])
    hand = parse_cards(v["hand"])
    return " ".join(card_str(c) for c in return_eligible(hand, None, level, rules, to_partner=False))


@checker("level_order")
def _level_order(v: dict[str, Any]) -> str:
    return " ".join(level_order(parse_level(v["level"])))


@checker("report")
def _report(v: dict[str, Any]) -> dict[str, bool]:
    threshold = preset(v["preset"]).report_threshold
    announce = threshold is not None and v["hand_size_after_play"] <= threshold
    out = {"announce": announce}
    if "count_public_from_now" in v["expect"]:
        out["count_public_from_now"] = announce
    return out


@checker("deal")
def _deal(v: dict[str, Any]) -> dict[str, int]:
    hands, _, _ = deal_cards(random.Random(v.get("seed", 0)), 0)
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
    flips = [parse_card(t) for t in v["flips"]]
    i = first_leader_from_flips(flips, parse_level(v.get("level", "2")))
    return {"leader": f"holder_of:{card_str(flips[i])}"}


def _rank_name(value: int, level: int) -> str:
    if value == 16:
        return "LJ"
    if value == 17:
        return "BJ"
    return RANKS[level] if value == 15 else RANKS[value - 2]


def _tribute_compare(expected: Any, actual: Any) -> bool:
    if expected["anti_tribute"] != actual["anti_tribute"] or expected["first_leader"] != actual["first_leader"]:
        return False
    def norm(ps: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        return sorted((p["from"], p["to"], p["rank"], tuple(sorted(p["eligible"].split()))) for p in ps)

    return norm(expected["payments"]) == norm(actual["payments"])


@checker("tribute", _tribute_compare)
def _tribute(v: dict[str, Any]) -> dict[str, Any]:
    rules, level = preset(v["preset"]), parse_level(v["level"])
    if v["prev_finish"] is None:
        return {"anti_tribute": False, "payments": [], "first_leader": "holder_of_flipped_card"}
    hands = {int(s): parse_cards(h) for s, h in v["hands"].items()}
    for s in range(4):
        hands.setdefault(s, [])
    plan = plan_tribute(v["prev_finish"], hands, level, rules, random.Random(0))
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
    return all(actual.get(k) == val for k, val in expected.items())


@checker("trick", _subset_compare)
def _trick(v: dict[str, Any]) -> dict[str, Any]:
    rules = preset(v["preset"])
    actions = v["actions"]
    tracker = TurnTracker(actions[0]["seat"], rules, v["already_out"])
    result: dict[str, Any] = {}
    try:
        for a in actions:
            if tracker.turn != a["seat"]:
                return {"illegal": True}
            if a["act"] == "pass":
                leader = tracker.pass_(a["seat"])
            else:
                _, leader = tracker.play(a["seat"], bool(a.get("goes_out")))
            if tracker.over:
                return {"deal_over": True, "finish": list(tracker.finish)}
            if leader is not None:
                result["next_leader"] = leader
    except IllegalActionError:
        return {"illegal": True}
    return result


@checker("deal_result", _subset_compare)
def _deal_result(v: dict[str, Any]) -> dict[str, Any]:
    rules = preset(v["preset"])
    levels = (parse_level(v["levels_before"]["0"]), parse_level(v["levels_before"]["1"]))
    fails_in = v.get("a_failures_before") or {}
    fails = (int(fails_in.get("0", 0)), int(fails_in.get("1", 0)))
    st_in = v.get("streaks_before") or {}
    streaks = StreakCounts(
        tuple(int(st_in.get("first", {}).get(str(s), 0)) for s in range(4)),  # type: ignore[arg-type]
        tuple(int(st_in.get("last", {}).get(str(s), 0)) for s in range(4)),  # type: ignore[arg-type]
    )
    r = settle_deal(levels, v["declarer"], v["finish"], rules, fails, streaks)
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
    pts = huopin_points(v["finish"], [(p["seat"], p["stars"]) for p in v["star_plays"]], preset(v["preset"]))
    return {str(s): pts[s] for s in range(4)}



"""A play on the web's wire says how it is shown: ``order``, its cards in the order the combination reads
(``guandan.present.order.play_order``, the terminal's rule: the browser has none of its own), and ``wild``,
the places of its wildcards (逢人配) in that order, at the level of the deal it was played in — at the table
(snapshots and updates) and in a replay's steps. The record and the core's events keep the engine's order."""

from __future__ import annotations

from typing import Any

from guandan.agents import make_agent
from guandan.agents.runner import run_match
from guandan.core import parse_cards, preset, record
from guandan.core.cards import RANKS, parse_card, wild_code
from guandan.core.combos import classify
from guandan.core.events import DealStart, Played
from guandan.core.match import MatchConfig, new_match
from guandan.core.vocab import ComboType
from guandan.present import Presenter
from guandan.present.order import play_order
from guandan.server.replays import replay_frames
from guandan.server.wire import event_json, public_view, texts_for
from wire_schema import check

FIVE = RANKS.index("5")  # at level 5 the wildcard is ♥5


def _straight_to_ace() -> Played:
    """10-J-Q-K-A with the ♥5 standing for the K: the engine keeps it sorted by code, the ♥5 among them."""
    cards = tuple(sorted(parse_cards("ST CJ SQ H5 SA")))
    combo = next(c for c in classify(cards, FIVE, preset("competition")) if c.type == ComboType.STRAIGHT and c.key == "A")
    return Played(1, cards, combo)


def _shown(e: dict[str, Any]) -> str:
    """A play's ``order`` and ``wild`` as the terminal writes the cards: each wildcard starred."""
    p = Presenter("en")
    return " ".join(p.card(parse_card(c)) + ("*" if i in e["wild"] else "") for i, c in enumerate(e["order"]))


def test_a_play_on_the_wire_reads_as_its_combination_with_its_wildcard_marked() -> None:
    played = _straight_to_ace()
    d = event_json(played, texts_for(["Ann", "Bob", "Cy", "Di"], FIVE))
    check("Event", d)
    assert d["cards"] == ["H5", "ST", "CJ", "SQ", "SA"]  # the engine's order, as the record keeps it
    assert d["order"] == ["ST", "CJ", "SQ", "H5", "SA"]
    assert [parse_card(c) for c in d["order"]] == play_order(played.cards, played.combo, FIVE)
    assert d["wild"] == [3]
    assert d["text"]["en"] == ["Bob: straight 10–A: ♠10 ♣J ♠Q ♥5* ♠A"]
    assert d["text"]["en"][0].endswith(_shown(d))
    assert played.to_json() == {k: v for k, v in d.items() if k not in {"text", "order", "wild"}}  # the core's event
    # at another level the ♥5 is a plain card, marked nowhere; a deal's start told on the way sets the level
    texts = texts_for(["Ann", "Bob", "Cy", "Di"], RANKS.index("3"))
    assert event_json(played, texts)["wild"] == []
    event_json(DealStart(1, FIVE, 0, (FIVE, 0)), texts)
    assert event_json(played, texts)["wild"] == [3]
    assert event_json(played, None, FIVE)["wild"] == [3]  # a level given outright: no texts needed


def _check_plays(events: list[dict[str, Any]], level: int | None) -> tuple[int, int | None]:
    """Every play among ``events`` against the rule and its own text; how many held a wildcard, and the level
    the events leave the deal at."""
    rules = preset("competition")
    found = 0
    for d in events:
        if d["type"] == "deal_start":
            level = RANKS.index(d["level"])
        if d["type"] != "play":
            continue
        assert level is not None
        check("Event", d)
        cards = tuple(parse_card(c) for c in d["cards"])
        combo = next(c for c in classify(cards, level, rules) if c.to_dict() == d["combo"])
        assert [parse_card(c) for c in d["order"]] == play_order(cards, combo, level)
        assert d["wild"] == [i for i, c in enumerate(d["order"]) if parse_card(c) == wild_code(level)]
        # a single or a pair of jokers is its combination alone ("pair Small Joker"): its cards would repeat the joker
        said = Presenter("en").combo(combo) if combo.key in ("LJ", "BJ") else _shown(d)
        assert d["text"]["en"][0].endswith(said), (d["text"], d["order"], d["wild"])
        found += bool(d["wild"])
    return found, level


def _match(seed: int, deals: int) -> Any:
    match = new_match(preset("competition"), seed, MatchConfig(max_deals=deals))
    run_match(match, [make_agent("greedy", seed=s) for s in range(4)])
    return match


def test_every_play_of_a_replay_is_shown_in_its_combinations_order_at_its_deals_level() -> None:
    match = _match(4, 3)
    frames = replay_frames(record.dumps(match, players=["Ann", "", "", ""]))
    found, levels = 0, set()
    for deal in frames["deals"]:
        level = None
        for step in deal["steps"]:
            n, level = _check_plays(step["events"], level)
            found += n
        levels.add(level)
    assert found >= 2 and len(levels) > 1, (found, levels)  # wildcards played, deals at more than one level


def test_a_views_plays_are_shown_at_its_deals_level() -> None:
    match = _match(4, 1)  # over: its deal's events are those of the view's last deal
    played = [e for e in match.deals[-1].state.events if isinstance(e, Played)]
    level = match.deals[-1].state.level
    assert any(wild_code(level) in e.cards for e in played)
    # a view's texts start at its deal's level; the events are shown at it even with no texts at all
    view = public_view(match.public_view(), with_events=True)
    wild = [e for e in view["events"] if e["type"] == "play" and e["wild"]]
    assert wild and all(e["order"][i] == "H" + RANKS[level] for e in wild for i in e["wild"])

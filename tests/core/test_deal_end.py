"""The end of a deal as the table tells it: 火拼 points broken down (base × multiplier + bomb
contributions), the breakdown carried by the settlement event, and every hand turned up (摊牌)."""

from __future__ import annotations

import pytest

from guandan.core import preset
from guandan.core.errors import GuandanError
from guandan.core.events import DealSettled, event_from_json
from guandan.core.match import MatchState, new_match
from guandan.core.scoring import huopin_points, huopin_score
from guandan.present import Presenter

HUOPIN = preset("huopin")


def test_the_breakdown_adds_up_to_the_points() -> None:
    finish = [0, 2, 1, 3]  # 1-2: the winners +3 each
    plays = [(0, 7), (1, 6)]  # a 7-star bomb by seat 0 (×3, +8/+4/−6), a 6-star by seat 1 (×2, +4/+2/−3)
    score = huopin_score(finish, plays, HUOPIN)
    assert score.base == (3, -3, 3, -3)
    assert score.points == tuple(huopin_points(finish, plays, HUOPIN))
    assert all(p == b * score.multiplier + c for p, b, c in zip(score.points, score.base, score.contributions,
                                                                strict=True))
    assert sum(score.points) == 0 and sum(score.contributions) == 0
    assert score.contributions == (8 - 3, 4 - 6, 4 - 3, 2 - 6)


def _play_out(rules_name: str, seed: int) -> tuple[DealSettled, MatchState]:
    m = new_match(preset(rules_name), seed=seed)
    while True:
        for e in m.apply(m.legal_actions()[0]):
            if isinstance(e, DealSettled):
                return e, m


def test_the_settlement_carries_the_breakdown_and_reads_it_out() -> None:
    settled, _ = _play_out("huopin", 5)
    assert settled.points is not None and settled.base is not None and settled.multiplier is not None
    assert settled.contributions is not None
    back = event_from_json(settled.to_json())
    assert back == settled
    lines = Presenter("en", names=["A", "B", "C", "D"]).event(settled)
    assert "Points this deal (base × multiplier + bombs):" in lines
    for i, name in enumerate("ABCD"):
        want = (f"{name}: {settled.base[i]} × {settled.multiplier} {settled.contributions[i]:+d} = "
                f"{settled.points[i]:+d}")
        assert want in lines
    zh = Presenter("zh", names=["甲", "乙", "丙", "丁"]).event(settled)
    assert any(line.startswith("甲：") for line in zh)


def test_a_settlement_without_points_has_no_breakdown_and_old_events_still_read() -> None:
    settled, _ = _play_out("competition", 5)
    assert settled.points is None and settled.base is None and "base" not in settled.to_json()
    d = _play_out("huopin", 5)[0].to_json()
    del d["base"], d["multiplier"]  # an event written before the breakdown existed
    old = event_from_json(d)
    assert isinstance(old, DealSettled) and old.contributions is None
    assert any(line.startswith("Points this deal:") for line in Presenter("en").event(old))


def test_every_hand_is_turned_up_when_a_deal_ends() -> None:
    _, m = _play_out("competition", 9)
    summary = m.deals[-1]
    hands = m.final_hands(summary.index)
    assert [len(h) for h in hands] == [len(h) for h in summary.state.hands]
    assert sum(len(h) for h in hands) > 0
    assert all(len(hands[s]) == 0 for s in summary.finish[:1])  # 头游 holds nothing
    with pytest.raises(GuandanError, match="has not been played to its end"):
        m.final_hands(summary.index + 1)

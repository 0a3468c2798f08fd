"""The rating model: teams of two, deal by deal, bots fixed, the published bot ratings."""

from __future__ import annotations

import pytest

from guandan.ratings import (
    ARENA_DEAL_WIN_RATES,
    BOT_MU,
    MU,
    SIGMA,
    Rating,
    Seat,
    bot_mus,
    bot_rating,
    displayed,
    gap_for,
    predict_deal,
    rate_match,
)


def test_a_new_account_starts_at_the_prior_and_shows_1000() -> None:
    r = Rating()
    assert (r.mu, r.sigma) == (MU, SIGMA)
    assert r.display == 1000 and displayed(25.0, 25.0 / 3.0) == 1000
    assert r.estimate == 2000 and r.plus_minus == round(80 * SIGMA)


def test_two_humans_against_two_humans_the_winners_rise_the_losers_fall() -> None:
    before = [Rating(), Rating(), Rating(), Rating()]
    after = rate_match(before, [0])
    assert all(a is not None for a in after)
    a0, a1, a2, a3 = (a for a in after if a is not None)
    assert a0.mu > MU and a2.mu > MU  # seats 0 and 2 are team 0, the winners
    assert a1.mu < MU and a3.mu < MU
    assert a0 == a2 and a1 == a3  # partners of equal ratings move alike
    assert all(a.sigma < SIGMA for a in (a0, a1, a2, a3))  # every game tells something
    assert a0.mu - MU == pytest.approx(MU - a1.mu)


def test_every_deal_is_one_game_in_order() -> None:
    seats = [Rating(), Rating(), Rating(), Rating()]
    one = rate_match(seats, [1])
    three = rate_match(seats, [1, 1, 1])
    assert one[1] is not None and three[1] is not None
    assert three[1].mu > one[1].mu > MU and three[1].sigma < one[1].sigma
    split = rate_match(seats, [0, 1])
    assert split[0] is not None and split[0].mu == pytest.approx(MU, abs=0.5)  # one each: about even (order counts)


def test_bots_are_fixed_and_only_the_humans_move() -> None:
    seats: list[Seat] = [Rating(), "heuristic", "greedy", "heuristic"]
    after = rate_match(seats, [0, 0, 1])
    assert after[1] is None and after[2] is None and after[3] is None
    assert after[0] is not None and after[0] != Rating()
    assert bot_rating("heuristic") == Rating(BOT_MU["heuristic"], 0.0)  # unchanged by any match
    assert rate_match(seats, []) == [Rating(), None, None, None]  # no deal, no change


def test_beating_stronger_bots_is_worth_more_than_beating_weaker_ones() -> None:
    strong = rate_match([Rating(), "search", "random", "search"], [0])[0]
    weak = rate_match([Rating(), "random", "random", "random"], [0])[0]
    assert strong is not None and weak is not None and strong.mu > weak.mu


def test_the_published_bot_ratings_reproduce_the_arena_deal_win_rates() -> None:
    assert bot_mus() == BOT_MU
    assert BOT_MU["heuristic"] == MU
    assert BOT_MU["random"] < BOT_MU["greedy"] < BOT_MU["heuristic"] < BOT_MU["search"]
    for (strong, weak), rate in ARENA_DEAL_WIN_RATES.items():
        assert predict_deal([strong, weak, strong, weak]) == pytest.approx(rate, abs=0.002)
    assert BOT_MU == {"random": 13.18, "greedy": 18.48, "heuristic": 25.0, "search": 25.77}


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="four seats"):
        rate_match([Rating()], [0])
    with pytest.raises(ValueError, match="team, 0 or 1"):
        rate_match([Rating()] * 4, [2])
    with pytest.raises(ValueError, match="bot tier 'oracle'"):
        rate_match([Rating(), "oracle", Rating(), Rating()], [0])
    with pytest.raises(ValueError, match="between 0 and 1"):
        gap_for(1.0)
    with pytest.raises(ValueError, match="no deal-win rate"):
        bot_mus({}, ("random", "greedy"), anchor="random")

"""Ratings for partnership play: OpenSkill (Weng–Lin, Plackett–Luce) over teams of two.

Pure: no I/O, no clock, nothing of the server or the database. The web app stores what this module
computes (``guandan.db.ratings``); the bench and the tests call it directly.

The model
---------
* Every account has one rating per rule preset: ``mu`` (the skill estimate) and ``sigma`` (its
  uncertainty), starting at the model's defaults, mu 25 and sigma 25/3.
* A rated match is rated deal by deal, once the match is over: each deal is one game between the two
  partnerships (seats 0 and 2 against 1 and 3), won by the team of the deal's first finisher. A long
  match therefore weighs more than a one-deal one, and the games are on the same scale as the arena's
  duplicate deal-win rates, from which the bots' ratings come.
* Bots have fixed ratings per tier (:data:`BOT_MU`, sigma 0): in a game they count with their fixed mu
  and are never updated, so a human's match against bots moves only the humans.
* The displayed rating is conservative: ``1000 + 40·(mu − 3·sigma)`` rounded (:func:`displayed`). A
  new account shows 1000 and climbs as its uncertainty shrinks; a bot, being certain, shows
  ``1000 + 40·mu``. The uncertainty is shown as ``± 80·sigma`` around ``1000 + 40·mu`` (about 95%).

The bots' ratings
-----------------
OpenSkill predicts that team A beats team B with probability ``Φ((μA − μB) / √(2β² + σA² + σB²))``
(``PlackettLuce.predict_win``), a team's mu being the sum of its players'. Two teams of one tier each,
sigma 0, win a deal against each other with probability ``Φ(√2·Δ/β)``, where ``Δ`` is the gap of the
tiers' mus and β = 25/6; so the gap that reproduces a measured deal-win rate ``p`` is
``Δ = β·Φ⁻¹(p)/√2`` (:func:`gap_for`). The chain random < greedy < heuristic < search is measured by
the arena over duplicate deal pairs (competition rules; search at its default 1 s budget), and the
heuristic tier is anchored at mu 25, the prior of a new account: a new player is assumed to play about
as well as the heuristic bot until their games say otherwise. `guandan bench bot-ratings` recomputes
the figures from the arena's results files and a fresh greedy-against-random run.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from openskill.models import PlackettLuce, PlackettLuceRating

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
DISPLAY_BASE, DISPLAY_SCALE = 1000.0, 40.0
ANCHOR_TIER = "heuristic"  # the tier pinned at the prior mean MU

# The arena's duplicate deal-win rates the bots' ratings come from: (stronger, weaker) -> the stronger
# tier's share of deals won, competition rules, seed 1. heuristic/greedy and search/heuristic are the
# README's 1,000-pair rows (docs/arena/*.jsonl.gz); greedy/random was measured by
# `guandan bench bot-ratings` (1,000 pairs).
ARENA_DEAL_WIN_RATES: dict[tuple[str, str], float] = {
    ("greedy", "random"): 0.964,
    ("heuristic", "greedy"): 0.9865,
    ("search", "heuristic"): 0.6035,
}
TIER_ORDER = ("random", "greedy", "heuristic", "search")


def gap_for(deal_win_rate: float, beta: float = BETA) -> float:
    """The gap of mu between two tiers at which OpenSkill predicts that a team of two of the stronger wins
    a deal against a team of two of the weaker with probability ``deal_win_rate`` (both sigma 0)."""
    if not 0.0 < deal_win_rate < 1.0:
        raise ValueError(f"a deal-win rate must be strictly between 0 and 1, not {deal_win_rate}")
    return beta * NormalDist().inv_cdf(deal_win_rate) / math.sqrt(2.0)


def bot_mus(rates: Mapping[tuple[str, str], float] = ARENA_DEAL_WIN_RATES, order: Sequence[str] = TIER_ORDER,
            anchor: str = ANCHOR_TIER, anchor_mu: float = MU) -> dict[str, float]:
    """Each tier's fixed mu from the deal-win rates of neighbouring tiers in ``order`` (weakest first),
    with ``anchor`` at ``anchor_mu``; rounded to two decimals, as published."""
    raw = {order[0]: 0.0}
    for weaker, stronger in itertools.pairwise(order):
        rate = rates.get((stronger, weaker))
        if rate is None:
            raise ValueError(f"no deal-win rate for {stronger} against {weaker}")
        raw[stronger] = raw[weaker] + gap_for(rate)
    shift = anchor_mu - raw[anchor]
    return {tier: round(mu + shift, 2) for tier, mu in raw.items()}


BOT_MU: dict[str, float] = bot_mus()  # random 13.18, greedy 18.48, heuristic 25.00, search 25.77


@dataclass(frozen=True)
class Rating:
    """One account's rating in one preset."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def display(self) -> int:
        return displayed(self.mu, self.sigma)

    @property
    def estimate(self) -> int:
        """The skill estimate on the displayed scale, ``1000 + 40·mu`` (the ± is :attr:`plus_minus`)."""
        return round(DISPLAY_BASE + DISPLAY_SCALE * self.mu)

    @property
    def plus_minus(self) -> int:
        """Two sigmas on the displayed scale: about a 95% interval around :attr:`estimate`."""
        return round(2 * DISPLAY_SCALE * self.sigma)


def displayed(mu: float, sigma: float) -> int:
    """The conservative rating people see: ``1000 + 40·(mu − 3·sigma)``, rounded."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3.0 * sigma))


def bot_rating(tier: str) -> Rating:
    """A bot tier's fixed rating (sigma 0)."""
    try:
        return Rating(BOT_MU[tier], 0.0)
    except KeyError:
        raise ValueError(f"no fixed rating for the bot tier {tier!r}; rated tiers: {', '.join(BOT_MU)}") from None


Seat = Rating | str  # a human's rating before the match, or the tier of a bot (fixed)


def _model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


def rate_match(seats: Sequence[Seat], deal_winners: Sequence[int]) -> list[Rating | None]:
    """The humans' ratings after a rated match: ``seats`` are the four seats (a human's :class:`Rating`
    before the match, or a bot's tier), ``deal_winners`` each deal's winning team in order (0: seats 0
    and 2, 1: seats 1 and 3). Answers the new rating of every human seat, None for a bot's. A match of
    no deals changes nothing."""
    if len(seats) != 4:
        raise ValueError(f"a match has four seats, not {len(seats)}")
    if any(w not in (0, 1) for w in deal_winners):
        raise ValueError("each deal's winner is a team, 0 or 1")
    model = _model()
    current: list[Rating] = [s if isinstance(s, Rating) else bot_rating(s) for s in seats]
    human = [isinstance(s, Rating) for s in seats]
    for winner in deal_winners:
        players: list[PlackettLuceRating] = [model.rating(mu=r.mu, sigma=r.sigma) for r in current]
        teams = [[players[0], players[2]], [players[1], players[3]]]
        ranks: list[float] = [0.0, 1.0] if winner == 0 else [1.0, 0.0]
        rated = model.rate(teams, ranks=ranks)
        after = [rated[0][0], rated[1][0], rated[0][1], rated[1][1]]
        current = [Rating(a.mu, a.sigma) if human[i] else current[i] for i, a in enumerate(after)]
    return [current[i] if human[i] else None for i in range(4)]


def predict_deal(seats: Sequence[Seat]) -> float:
    """OpenSkill's probability that team 0 (seats 0 and 2) wins a deal."""
    model = _model()
    r = [s if isinstance(s, Rating) else bot_rating(s) for s in seats]
    players = [model.rating(mu=x.mu, sigma=x.sigma) for x in r]
    return float(model.predict_win([[players[0], players[2]], [players[1], players[3]]])[0])


def team_of_seat(seat: int) -> int:
    return seat % 2


__all__ = ["ARENA_DEAL_WIN_RATES", "BOT_MU", "MU", "SIGMA", "Rating", "Seat", "bot_mus", "bot_rating", "displayed",
           "gap_for", "predict_deal", "rate_match", "team_of_seat"]

"""Swiss pairing (瑞士制, RULES.md §5.4, S003 rule 2) as a maximum-weight matching.

Every team is a node; an edge joins two teams that have not met yet, and a "bye" node joins the teams
that have not had a bye. ``networkx.max_weight_matching(maxcardinality=True)`` first maximises the number
of pairs, so a pairing with no rematch is found whenever one exists, and only then maximises the weight.
The weight is ``BIG - cost``, where the cost is a sum of terms on strictly separated scales, so a higher
term always outweighs everything below it:

1. score fidelity: (场分 difference)² between the two teams (the bye counts as the lowest score);
2. the bye goes to the lowest-placed team that may have one: (places above the bottom)²;
3. soft wish: two teams of the same club (a fixed penalty);
4. high against high: (difference of places)², or for a seeded first round the distance from the
   1-vs-(n/2+1) fold.

That is RULES.md's "pair greedily from the top, backtracking" made global: instead of the first
completion found from the top, the completion that keeps the pairs closest in standing.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx  # type: ignore[import-untyped]

from .errors import TournamentError

_BYE = "bye"


@dataclass(frozen=True)
class Pairing:
    """Tables as (home, away) team pairs, the better-placed team first and the top table first."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None


def random_order(team_ids: Collection[int], seed: int) -> list[int]:
    """A seeded shuffle for the random first round; the seed is recorded in the audit log."""
    order = sorted(team_ids)
    random.Random(seed).shuffle(order)
    return order


def rating_order(ratings: Mapping[int, float | None]) -> list[int]:
    """By rating, highest first; unrated teams last, in registration order."""
    return sorted(ratings, key=lambda t: (ratings[t] is None, -(ratings[t] or 0.0), t))


def swiss_pairing(order: Sequence[int], points: Mapping[int, int], met: Collection[frozenset[int]],
                  had_bye: Collection[int] = (), clubs: Mapping[int, str | None] | None = None, *,
                  fold: bool = False, avoid_same_club: bool = True, round_no: int | None = None,
                  names: Mapping[int, str] | None = None) -> Pairing:
    """Pair the teams of ``order`` (best placed first) with no rematch and at most one bye per team.

    ``points`` is each team's 场分, ``met`` the pairs that have already played, ``had_bye`` the teams that
    have had a bye; ``names`` label teams in the explanation. Raises :class:`TournamentError` explaining why
    when no valid pairing exists.
    """
    n = len(order)
    if len(set(order)) != n:
        raise TournamentError("a team appears twice in the pairing order")
    if n < 2:
        raise TournamentError(f"at least two teams are needed to pair a round, not {n}")
    clubs = clubs or {}
    pos = {t: i for i, t in enumerate(order)}
    pts = {t: int(points.get(t, 0)) for t in order}
    low = min(pts.values())
    odd = n % 2 == 1
    half = n // 2

    # Scales: each one larger than the largest possible total of every term below it.
    rank_max = n * n * n + 1
    club_unit = rank_max
    bye_unit = (half + 1) * club_unit + rank_max
    score_unit = bye_unit * (n * n + 1) + (half + 1) * club_unit + rank_max

    def rank_cost(a: int, b: int) -> int:
        d = abs(pos[a] - pos[b])
        return (d - half) ** 2 if fold else d * d

    g = nx.Graph()
    g.add_nodes_from(order)
    costs: dict[tuple[object, object], int] = {}
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            if frozenset((a, b)) in met:
                continue
            c = score_unit * (pts[a] - pts[b]) ** 2 + rank_cost(a, b)
            if avoid_same_club and clubs.get(a) and clubs.get(a) == clubs.get(b):
                c += club_unit
            costs[(a, b)] = c
    if odd:
        g.add_node(_BYE)
        for a in order:
            if a not in had_bye:
                costs[(a, _BYE)] = score_unit * (pts[a] - low) ** 2 + bye_unit * (n - 1 - pos[a]) ** 2
    big = max(costs.values(), default=0) + 1
    for (u, v), c in costs.items():
        g.add_edge(u, v, weight=big - c)

    matching = nx.max_weight_matching(g, maxcardinality=True)
    partner: dict[object, object] = {}
    for u, v in matching:
        partner[u], partner[v] = v, u
    unpaired = [t for t in order if t not in partner]
    if unpaired or (odd and _BYE not in partner):
        raise TournamentError(_explain(order, met, had_bye, unpaired, odd, round_no, names or {}))

    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    for t in order:
        p = partner[t]
        if p == _BYE:
            bye = t
        elif isinstance(p, int) and pos[t] < pos[p]:
            pairs.append((t, p))
    return Pairing(tuple(pairs), bye)


def _explain(order: Sequence[int], met: Collection[frozenset[int]], had_bye: Collection[int], unpaired: list[int],
             odd: bool, round_no: int | None, names: Mapping[int, str]) -> str:
    def label(t: int) -> str:
        return names.get(t, str(t))

    where = f"round {round_no}" if round_no is not None else "this round"
    head = f"no valid pairing exists for {where}"
    def free(t: int) -> list[int]:
        return [o for o in order if o != t and frozenset((t, o)) not in met]

    stuck = [t for t in order if not free(t) and (not odd or t in had_bye)]
    if stuck:
        who = f"team {label(stuck[0])} has" if len(stuck) == 1 else f"teams {', '.join(map(label, stuck))} have"
        return f"{head}: {who} already met every other team" + (" and had a bye" if odd else "")
    if odd and all(t in had_bye for t in order):
        return f"{head}: the number of teams is odd and every team has already had its bye"
    detail = "; ".join(f"team {label(t)} may still meet {', '.join(map(label, free(t))) or 'nobody'}" for t in unpaired)
    return (f"{head}: with no rematch and at most one bye per team, at most {len(order) - len(unpaired)} of "
            f"{len(order)} teams can be placed ({detail}). Reduce the number of rounds or pair this round by hand.")

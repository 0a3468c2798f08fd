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

Fewer edges, the same optimum. The matching's time grows with the number of edges (a 300-team round has
about 45,000), and most of them cannot be in any cheapest pairing. When the 场分 do not rise down the
order and there is no fold, only the pairs that :func:`window_pairs` keeps are offered to the matching;
it keeps every pair that some cheapest pairing may use, so the cheapest cost is the same as on the full
graph (the argument is in its docstring). Should the smaller graph have no perfect matching, neither
does the full one, and the full graph is matched to explain why.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ..i18n import N_
from .errors import Word, joined, refusal, refused, said

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
        raise refusal(N_("a team appears twice in the pairing order"))
    if n < 2:
        raise refusal(N_("at least two teams are needed to pair a round, not {n}"), n=n)
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

    def cost(a: int, b: int) -> int:
        c = score_unit * (pts[a] - pts[b]) ** 2 + rank_cost(a, b)
        if avoid_same_club and clubs.get(a) and clubs.get(a) == clubs.get(b):
            c += club_unit
        return c

    bye_costs = {a: score_unit * (pts[a] - low) ** 2 + bye_unit * (n - 1 - pos[a]) ** 2
                 for a in order if a not in had_bye} if odd else {}
    window = None if fold else window_pairs(order, pts, met, clubs if avoid_same_club else {})
    partner = {} if window is None else _match(order, {(a, b): cost(a, b) for a, b in window}, bye_costs)
    if len(partner) < n + odd:
        # No window, or no perfect matching in it, so none in the full graph either: that one says who
        # cannot be placed.
        every = ((a, b) for i, a in enumerate(order) for b in order[i + 1:] if frozenset((a, b)) not in met)
        partner = _match(order, {(a, b): cost(a, b) for a, b in every}, bye_costs)
    unpaired = [t for t in order if t not in partner]
    if unpaired or (odd and _BYE not in partner):
        raise refused(_explain(order, met, had_bye, unpaired, odd, round_no, names or {}))

    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    for t in order:
        p = partner[t]
        if p == _BYE:
            bye = t
        elif isinstance(p, int) and pos[t] < pos[p]:
            pairs.append((t, p))
    return Pairing(tuple(pairs), bye)


def _match(order: Sequence[int], costs: Mapping[tuple[int, int], int],
           bye_costs: Mapping[int, int]) -> dict[object, object]:
    """Each node's partner in a cheapest matching of the most pairs (the bye node too when it has costs)."""
    import networkx as nx  # type: ignore[import-untyped]  # here: only pairing a round needs it, not every desk command

    g = nx.Graph()
    g.add_nodes_from(order)
    if bye_costs:
        g.add_node(_BYE)
    big = max(max(costs.values(), default=0), max(bye_costs.values(), default=0)) + 1
    g.add_weighted_edges_from((a, b, big - c) for (a, b), c in costs.items())
    g.add_weighted_edges_from((a, _BYE, big - c) for a, c in bye_costs.items())
    partner: dict[object, object] = {}
    for u, v in nx.max_weight_matching(g, maxcardinality=True):
        partner[u], partner[v] = v, u
    return partner


def window_pairs(order: Sequence[int], points: Mapping[int, int], met: Collection[frozenset[int]],
                 clubs: Mapping[int, str | None]) -> list[tuple[int, int]] | None:
    """The pairs (a, b), ``a`` placed above ``b``, that a cheapest pairing of :func:`swiss_pairing` may use.

    None unless ``points`` never rise down ``order`` (the standings are ranked by 场分 first). ``clubs``
    is empty when clubs are not kept apart. The rank cost here is (difference of places)², not the fold.

    Write ``bad(t)`` for the places of the teams that ``t`` has met or shares a club with. The pair of
    places p < q is kept when ``q - p - 1 <= odd + #{y in bad(p): y < q} + #{y in bad(q): y > p}``
    (``odd`` is 1 when a bye is given). Every pair of every cheapest pairing passes, because:

    Let (p, q) be in a cheapest pairing M and x a place between them, paired with y. The four teams p, q,
    x, y can be paired three ways: apart (the two best-placed together, the two others together),
    crossing, or nested. With the gaps g1, g2, g3 between the four sorted places, crossing − apart =
    2·g2² + 2·g1·g2 + 2·g2·g3 and nested − crossing = 2·g1·g3 on the rank term; every gap is at least 1,
    so apart beats the other two and crossing beats nested, strictly. The same sums over the 场分 gaps
    (≥ 0, since points never rise) say the score term does not grow; the bye term is unchanged; and if
    neither new pair is a rematch or of one club, the club term does not grow either. M being cheapest,
    every such rearrangement must be blocked by a new pair in bad(). Each new pair holds p or q and one
    of x, y, so x is blocked only if x is in bad(p) or bad(q), or y is the bye, or y is placed above p
    and in bad(p) (the new pairs are (y, p) and (x, q)), or below q and in bad(q) (the new pairs (p, x)
    and (q, y)), or between p and q and in both bad(p) and bad(q) (apart and crossing both beat the
    nested pairs; one pairs y with p, the other with q). Different x have different partners y. So the
    q − p − 1 teams between p and q number at most #(bad(p) between) + #(bad(q) between) − #(both
    between) + odd + #(bad(p) above p) + #(bad(q) below q) + #(both between), the right-hand side.
    """
    n = len(order)
    if any(points.get(order[i], 0) < points.get(order[i + 1], 0) for i in range(n - 1)):
        return None
    pos = {t: i for i, t in enumerate(order)}
    bad: list[set[int]] = [set() for _ in order]
    for pair in met:
        u, v = tuple(pair)
        if u in pos and v in pos:
            bad[pos[u]].add(pos[v])
            bad[pos[v]].add(pos[u])
    members: dict[str, list[int]] = {}
    for i, t in enumerate(order):
        club = clubs.get(t)
        if club:
            members.setdefault(club, []).append(i)
    for places in members.values():
        for i in places:
            bad[i].update(places)
            bad[i].discard(i)
    ranked = [sorted(b) for b in bad]
    odd = n % 2
    most = max(map(len, ranked), default=0)
    out: list[tuple[int, int]] = []
    for p in range(n):
        bp, reach = ranked[p], odd + len(ranked[p]) + most
        for q in range(p + 1, min(n, p + reach + 2)):
            if q in bad[p] and frozenset((order[p], order[q])) in met:
                continue
            allowed = odd + bisect_left(bp, q) + len(ranked[q]) - bisect_right(ranked[q], p)
            if q - p - 1 <= allowed:
                out.append((order[p], order[q]))
    return out


def _explain(order: Sequence[int], met: Collection[frozenset[int]], had_bye: Collection[int], unpaired: list[int],
             odd: bool, round_no: int | None, names: Mapping[int, str]) -> str:
    def label(t: int) -> str:
        return names.get(t, str(t))

    where = said(N_("round {round}"), round=round_no) if round_no is not None else Word(N_("this round"))
    head = said(N_("no valid pairing exists for {where}"), where=where)
    def free(t: int) -> list[int]:
        return [o for o in order if o != t and frozenset((t, o)) not in met]

    stuck = [t for t in order if not free(t) and (not odd or t in had_bye)]
    if stuck:
        if len(stuck) == 1:
            msgid = (N_("{head}: team {teams} has already met every other team and had a bye") if odd
                     else N_("{head}: team {teams} has already met every other team"))
        else:
            msgid = (N_("{head}: teams {teams} have already met every other team and had a bye") if odd
                     else N_("{head}: teams {teams} have already met every other team"))
        return said(msgid, head=head, teams=", ".join(map(label, stuck)))
    if odd and all(t in had_bye for t in order):
        return said(N_("{head}: the number of teams is odd and every team has already had its bye"), head=head)
    detail = joined(said(N_("team {team} may still meet {teams}"), team=label(t),
                         teams=", ".join(map(label, free(t))) or Word(N_("nobody"))) for t in unpaired)
    return said(N_("{head}: with no rematch and at most one bye per team, at most {placed} of {teams} teams can be "
                   "placed ({detail}). Reduce the number of rounds or pair this round by hand."),
                head=head, placed=len(order) - len(unpaired), teams=len(order), detail=detail)

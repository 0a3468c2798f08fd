"""The pairing's cost as the module's docstring states it, computed apart from the module, for the tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from guandan.tournament.pairing import Pairing


def lex_cost(p: Pairing, order: Sequence[int], pts: Mapping[int, int], clubs: Mapping[int, str | None],
             avoid: bool) -> tuple[int, int, int, int]:
    """(score, bye, club, rank), the four terms of swiss_pairing's cost. Comparing these tuples is
    comparing the weighted sums, since each scale outweighs the largest total of everything below it."""
    pos = {t: i for i, t in enumerate(order)}
    score = sum((pts[a] - pts[b]) ** 2 for a, b in p.pairs)
    bye = 0
    if p.bye is not None:
        score += (pts[p.bye] - min(pts[t] for t in order)) ** 2
        bye = (len(order) - 1 - pos[p.bye]) ** 2
    club = sum(1 for a, b in p.pairs if avoid and clubs.get(a) and clubs.get(a) == clubs.get(b))
    return score, bye, club, sum((pos[a] - pos[b]) ** 2 for a, b in p.pairs)

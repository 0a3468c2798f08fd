"""Brute-force oracle shared by the pairing tests: does a no-rematch pairing exist?"""

from __future__ import annotations


def pairable(teams: list[int], met: set[frozenset[int]], had_bye: set[int]) -> bool:
    """Is there a pairing with no rematch (and an allowed bye when the count is odd)?"""
    def rec(rest: list[int]) -> bool:
        if not rest:
            return True
        a = rest[0]
        return any(frozenset((a, b)) not in met and rec([x for x in rest[1:] if x != b]) for b in rest[1:])

    if len(teams) % 2 == 0:
        return rec(teams)
    return any(t not in had_bye and rec([x for x in teams if x != t]) for t in teams)

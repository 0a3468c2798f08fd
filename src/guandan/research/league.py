"""`guandan league`: every pair of agents plays duplicate deals with the seats swapped (the arena's
own runner, :func:`guandan.arena.runner.play_pairs`), and each deal updates an openskill rating.

Ratings: openskill's Plackett–Luce model (Weng–Lin; mu 25, sigma 25/3 to start). Each deal is one
game between two "players" — an agent and its partner are the same agent, so a team is one player —
ranked by who won it. Updates are online, so their order matters: deals are fed pair index by pair
index, every pairing's two halves in turn, so no pairing's games all come last. The interval is
mu ± 2·sigma, the model's own uncertainty (about 95% under its Gaussian belief); it treats the two
halves of a duplicate pair as independent games, so the pairings' deal-win shares are also given
with a bootstrap over deal pairs (the arena's interval), which does not.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from importlib.metadata import version
from typing import Any

from ..arena.runner import PairResult, Pool, Setup, play_pairs
from ..arena.stats import bootstrap_ci, mean
from ..cliutil import pad, width
from ..core.errors import GuandanError
from ..i18n import N_

INTERVAL_SIGMAS = 2.0


@dataclass(frozen=True)
class LeagueSetup:
    agents: tuple[str, ...]
    pairs: int
    preset: str = "competition"
    seed: int = 1
    budget: float | None = None
    jobs: int = 1


def play_league(setup: LeagueSetup, pool: Pool | None = None) -> dict[tuple[str, str], list[PairResult]]:
    """Every pairing (A before B in ``setup.agents`` order) over deal pairs ``0 … pairs-1``; every
    pairing plays the same deals (the deal specs come from the seed alone). With ``pool`` (the
    arena's :class:`~guandan.arena.ray_pool.RayPool`) the pairs are Ray tasks, played from the
    same seeds, so the results equal a one-process run's."""
    if len(setup.agents) < 2:
        raise GuandanError.said(N_("a league needs at least two agents"))
    if len(set(setup.agents)) != len(setup.agents):
        raise GuandanError.said(N_("a league's agents must be distinct"))
    out: dict[tuple[str, str], list[PairResult]] = {}
    for a, b in itertools.combinations(setup.agents, 2):
        arena = Setup(a=a, b=b, preset=setup.preset, seed=setup.seed, budget_a=setup.budget, budget_b=setup.budget)
        out[(a, b)] = play_pairs(arena, range(setup.pairs), setup.jobs, pool=pool)
    return out


def rate(setup: LeagueSetup, results: dict[tuple[str, str], list[PairResult]]) -> dict[str, Any]:
    """The rating table and the pairings' results, as one JSON-ready dict (ratings best first)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {a: model.rating(name=a) for a in setup.agents}
    deals = dict.fromkeys(setup.agents, 0)
    wins = dict.fromkeys(setup.agents, 0)
    for k in range(setup.pairs):
        for (a, b), pairs in results.items():
            for half in pairs[k].halves:
                winner, loser = (a, b) if half.a_won else (b, a)
                [[ratings[winner]], [ratings[loser]]] = model.rate([[ratings[winner]], [ratings[loser]]], ranks=[0, 1])
                deals[a] += 1
                deals[b] += 1
                wins[winner] += 1
    table: list[dict[str, Any]] = []
    for agent in setup.agents:
        r = ratings[agent]
        table.append({"agent": agent, "mu": r.mu, "sigma": r.sigma, "low": r.mu - INTERVAL_SIGMAS * r.sigma,
                      "high": r.mu + INTERVAL_SIGMAS * r.sigma, "ordinal": r.ordinal(), "deals": deals[agent],
                      "deal_wins": wins[agent], "deal_win_rate": wins[agent] / deals[agent] if deals[agent] else 0.0})
    table.sort(key=lambda row: (-row["mu"], row["agent"]))
    for rank, row in enumerate(table, 1):
        row["rank"] = rank
    pairings = []
    for (a, b), pairs in results.items():
        scores = [p.a_score for p in pairs]
        lo, hi = bootstrap_ci(scores, f"league:{setup.seed}:{a}:{b}")
        pairings.append({"a": a, "b": b, "deal_pairs": len(pairs), "a_deal_win_rate": mean(scores),
                         "a_deal_win_ci95": [lo, hi], "a_points_per_deal": mean([p.a_points for p in pairs]),
                         "illegal_a": sum(p.illegal_a for p in pairs), "illegal_b": sum(p.illegal_b for p in pairs)})
    return {"preset": setup.preset, "seed": setup.seed, "deal_pairs_per_pairing": setup.pairs,
            "rating": {"library": "openskill", "version": version("openskill"), "model": "PlackettLuce",
                       "interval": f"mu ± {INTERVAL_SIGMAS:g} sigma"},
            "ratings": table, "pairings": pairings}


def text_table(report: dict[str, Any], gettext: Callable[[str], str] = str) -> str:
    """The rating table and the pairings, as aligned text in the language of ``gettext`` (a catalogue's)."""
    _ = gettext
    cols = [(_("agent"), 24), (_("mu"), 6), (_("sigma"), 6), (_("interval (mu ± 2σ)"), 18), (_("deals"), 6),
            (_("won"), 6)]
    head = "#".rjust(2) + "  " + "".join(_cell(name, w, i) for i, (name, w) in enumerate(cols))
    # the catalogue's own words for one pair: gettext has no plural forms
    title = (N_("league: {preset}, seed {seed}, 1 deal pair per pairing; {library} {version} {model}")
             if report["deal_pairs_per_pairing"] == 1 else
             N_("league: {preset}, seed {seed}, {pairs} deal pairs per pairing; {library} {version} {model}"))
    lines = [_(title).format(
        preset=report["preset"], seed=report["seed"], pairs=report["deal_pairs_per_pairing"],
        library=report["rating"]["library"], version=report["rating"]["version"], model=report["rating"]["model"]),
        head.rstrip()]
    for r in report["ratings"]:
        values = [r["agent"], f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"[{r['low']:.2f}, {r['high']:.2f}]",
                  str(r["deals"]), f"{r['deal_win_rate']:.1%}"]
        lines.append((f"{r['rank']:>2}  " + "".join(_cell(v, w, i) for i, (v, (_n, w)) in
                                                   enumerate(zip(values, cols, strict=True)))).rstrip())
    lines.append("")
    lines.append(_("pairings (A's deal-win rate, 95% bootstrap interval over deal pairs):"))
    for p in report["pairings"]:
        lo, hi = p["a_deal_win_ci95"]
        over = (N_("{a} vs {b}: {rate} [{low}, {high}] over 1 deal pair, {points} levels a deal") if p["deal_pairs"] == 1
                else N_("{a} vs {b}: {rate} [{low}, {high}] over {pairs} deal pairs, {points} levels a deal"))
        lines.append("  " + _(over).format(
            a=p["a"], b=p["b"], rate=f"{p['a_deal_win_rate']:.1%}", low=f"{lo:.1%}", high=f"{hi:.1%}",
            pairs=p["deal_pairs"], points=f"{p['a_points_per_deal']:+.2f}"))
    return "\n".join(lines)


def _cell(text: str, cols: int, index: int) -> str:
    """One column of the rating table: the agent's name left-aligned, the numbers right-aligned, a
    column's gap before it (two before the interval), by terminal width (a Chinese word takes two)."""
    if index == 0:
        return pad(text, cols) + " "
    if index == 3:
        return " " + pad(text, cols) + " "
    return " " * max(0, cols - width(text)) + text + " "


def svg(report: dict[str, Any], gettext: Callable[[str], str] = str) -> str:
    """A hand-written SVG of the ratings: one row per agent, the interval as a bar, mu as a dot (no
    plotting library needed)."""
    rows: Sequence[dict[str, Any]] = report["ratings"]
    lo = min(r["low"] for r in rows)
    hi = max(r["high"] for r in rows)
    span = hi - lo or 1.0
    left, width, row_h, top = 200, 440, 28, 40
    height = top + row_h * len(rows) + 40

    def x(v: float) -> float:
        return float(left + (v - lo) / span * width)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 40}" height="{height}" '
             f'font-family="sans-serif" font-size="13">',
             '<text x="10" y="22">' + escape(gettext("League ratings ({model}, mu ± 2σ), {preset}, seed {seed}").format(
                 model=report["rating"]["model"], preset=report["preset"], seed=report["seed"])) + "</text>"]
    for i, r in enumerate(rows):
        y = top + i * row_h + row_h / 2
        parts.append(f'<text x="10" y="{y + 4:.1f}" class="agent">{escape(r["agent"])}</text>')
        parts.append(f'<line x1="{x(r["low"]):.1f}" y1="{y:.1f}" x2="{x(r["high"]):.1f}" y2="{y:.1f}" '
                     f'stroke="#4a78b5" stroke-width="4"/>')
        parts.append(f'<circle cx="{x(r["mu"]):.1f}" cy="{y:.1f}" r="5" fill="#b5462e" data-mu="{r["mu"]:.4f}"/>')
    axis_y = top + row_h * len(rows) + 10
    parts.append(f'<line x1="{left}" y1="{axis_y}" x2="{left + width}" y2="{axis_y}" stroke="#333"/>')
    for k in range(5):
        v = lo + span * k / 4
        parts.append(f'<text x="{x(v):.1f}" y="{axis_y + 18}" text-anchor="middle">{v:.1f}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


__all__ = ["LeagueSetup", "play_league", "rate", "svg", "text_table"]

"""`guandan bench`: benchmarks that print numbers (never timed tests).

All runs use a fixed seed and one core, so figures are comparable between commits. Per-call timings
are CPU time of this process (``time.process_time``), so other work on the machine inflates them less.
"""

from __future__ import annotations

import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Annotated, Any, NoReturn

import typer

from .agents.base import make_agent, parse_spec
from .agents.decompose import Decomposer
from .agents.heuristic import HeuristicAgent
from .agents.search import SearchAgent
from .agents.worlds import level_points, playout, tracker_from
from .cliutil import Messages, fail, figure_table, width
from .core.cards import physical_deck
from .core.combos import _classify_codes
from .core.deal import new_deal
from .core.errors import GuandanError
from .core.match import MatchConfig, new_match
from .core.moves import legal_moves
from .core.rules import PRESET_NAMES, preset
from .core.vocab import ActionKind, MoveMode, Phase
from .i18n import N_
from .native import MANIFEST, NO_MANIFEST, NOT_BUILT, PARTIAL, PURE_ENV, PURE_REQUESTED, STALE, compiled, why, with_build
from .present import said

_messages = Messages("cli")
_ = _messages.gettext

app = typer.Typer(help="Benchmarks (fixed seeds, one core).", no_args_is_help=True)


def _hands(rng: random.Random, n: int) -> list[tuple[list[int], int]]:
    deck = [pc.code for pc in physical_deck()]
    out = []
    for _ in range(n):
        rng.shuffle(deck)
        out.append((sorted(deck[:27]), rng.randrange(13)))
    return out


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def movegen_figures(preset_name: str = "competition", hands: int = 500, seed: int = 1) -> dict[str, Any]:
    rules = preset(preset_name)
    rng = random.Random(seed)
    sample = _hands(rng, hands)
    out: dict[str, Any] = {"preset": preset_name, "hands": hands, "seed": seed}
    # untimed first: the engine's caches of combos and rank patterns fill once per process, and a
    # process that generates moves at all generates many (the figures are the steady state)
    for hand, level in _hands(random.Random(seed + 1), 50):
        for mode in MoveMode:
            legal_moves(hand, None, level, rules, mode)
    for mode in MoveMode:
        gc.collect()
        times, counts = [], []
        for hand, level in sample:
            t0 = time.process_time()
            moves = legal_moves(hand, None, level, rules, mode)
            times.append(time.process_time() - t0)
            counts.append(len(moves))
        out[f"lead_{mode}_mean_ms"] = statistics.fmean(times) * 1e3
        out[f"lead_{mode}_p50_ms"] = _pct(times, 0.5) * 1e3
        out[f"lead_{mode}_p99_ms"] = _pct(times, 0.99) * 1e3
        out[f"lead_{mode}_moves_mean"] = statistics.fmean(counts)
    follow = []
    for i, (hand, level) in enumerate(sample):
        other, _ = sample[(i + 1) % len(sample)]
        leads = [m for m in legal_moves(other, None, level, rules, MoveMode.CANONICAL)]
        top = rng.choice(leads).combo
        t0 = time.process_time()
        legal_moves(hand, top, level, rules)
        follow.append(time.process_time() - t0)
    out["follow_mean_us"] = statistics.fmean(follow) * 1e6
    out["follow_p99_us"] = _pct(follow, 0.99) * 1e6
    sets = []
    for hand, level in sample[:100]:
        for m in legal_moves(hand, None, level, rules)[::7]:
            sets.append((m.cards, level))
    t0 = time.process_time()
    for cards, level in sets:
        _classify_codes(cards, level, rules)
    out["classify_per_s"] = len(sets) / (time.process_time() - t0)
    return out


def deals_figures(preset_name: str = "competition", deals: int = 100, seed: int = 1) -> dict[str, Any]:
    rules = preset(preset_name)
    out: dict[str, Any] = {"preset": preset_name, "deals": deals, "seed": seed}
    for mode in MoveMode:
        rng = random.Random(seed)
        prev = None
        level = 0
        actions = 0
        t0 = time.process_time()
        for _ in range(deals):
            state = new_deal(rules, rng, level, prev, move_mode=mode)
            while not state.over:
                if state.phase == Phase.PLAY:
                    state.apply_move(rng.choice(state.legal_moves()))
                else:
                    state.apply(rng.choice(state.legal_actions()))
                actions += 1
            prev = state.finish
            level = rng.randrange(13)
        dt = time.process_time() - t0
        out[f"deals_per_s_{mode}"] = deals / dt
        out[f"actions_per_deal_{mode}"] = actions / deals
    return out


def search_positions(preset_name: str, count: int, seed: int) -> list[tuple[int, Any, list[Any]]]:
    """Play decisions with a real choice (at least three legal plays or passes), every other one
    taken from seeded heuristic self-play deals, as (seat, observation, legal actions)."""
    rules = preset(preset_name)
    out: list[tuple[int, Any, list[Any]]] = []
    deal = 0
    while len(out) < count:
        m = new_match(rules, f"bench-search:{seed}:{deal}", MatchConfig(max_deals=1))
        players = [HeuristicAgent(f"{seed}:{s}") for s in range(4)]
        for s, p in enumerate(players):
            p.reset(s, rules)
        n = 0
        while not m.ended and len(out) < count:
            seat = m.to_move
            assert seat is not None
            obs, legal = m.observation(seat), m.legal_actions()
            if legal[0].kind in (ActionKind.PLAY, ActionKind.PASS) and len(legal) >= 3:
                n += 1
                if n % 2:
                    out.append((seat, obs, legal))
            m.apply(players[seat].choose(obs, legal))
        deal += 1
    return out


def playouts_figures(preset_name: str = "competition", deals: int = 300, break_any: int = 1000,
                     seed: int = 1) -> dict[str, Any]:
    """How faithfully search's playouts replay heuristic players: from the true hands at the first
    play of seeded heuristic self-play deals, how often a playout names the team that won the real
    deal and its exact level outcome, and its CPU time — with the plain follow rule and with
    ``break_any`` follows that may break any unit (:func:`guandan.agents.policy.follow_full`)."""
    rules = preset(preset_name)
    starts: list[tuple[Any, list[list[int]], list[int]]] = []
    for i in range(deals):
        m = new_match(rules, f"bench-playouts:{seed}:{i}", MatchConfig(max_deals=1))
        players = [HeuristicAgent(f"{seed}:{s}") for s in range(4)]
        for s, p in enumerate(players):
            p.reset(s, rules)
        start: tuple[Any, list[list[int]]] | None = None
        while not m.ended:
            seat = m.to_move
            assert seat is not None and m.deal is not None
            obs = m.observation(seat)
            if start is None and obs.deal.phase == Phase.PLAY:
                start = (obs, [sorted(h) for h in m.deal.hands])
            m.apply(players[seat].choose(obs, m.legal_actions()))
        assert start is not None
        starts.append((start[0], start[1], list(m.deals[0].finish)))
    out: dict[str, Any] = {"preset": preset_name, "deals": deals, "seed": seed, "break_any": break_any}
    for name, full in (("plain", 0), ("break_any", break_any)):
        team = exact = 0
        cpu = 0.0
        for obs, hands, finish in starts:
            dec = Decomposer(rules, obs.deal.level)
            units = [list(dec(h).units) for h in hands]
            top = obs.deal.top
            t0 = time.process_time()
            got = playout(units, tracker_from(obs.deal, rules), top[2] if top else None, top[0] if top else None,
                          dec=dec, full=full)
            cpu += time.process_time() - t0
            team += got[0] % 2 == finish[0] % 2
            exact += level_points(got, 0, rules) == level_points(finish, 0, rules)
        out[f"{name}_winner_agrees"] = team / deals
        out[f"{name}_outcome_agrees"] = exact / deals
        out[f"{name}_playout_ms"] = cpu / deals * 1e3
    return out


def search_figures(preset_name: str = "competition", positions: int = 40, worlds: int = 100, budget: float = 1.0,
                   seed: int = 1, spec: str = "search") -> dict[str, Any]:
    """The search tier's speed: worlds per CPU second at a fixed effort, then real decisions under
    ``budget`` (wall clock, as the agent itself counts it) by the search ``spec`` (its options: early
    settling is on unless it says otherwise)."""
    rules = preset(preset_name)
    sample = search_positions(preset_name, positions, seed)
    out: dict[str, Any] = {"preset": preset_name, "positions": len(sample), "seed": seed, "agent": spec}
    out.update(_worlds_speed(rules, sample, worlds, seed))
    times, counts, settled, full = [], [], 0, []
    for seat, obs, legal in sample:
        agent = make_agent(spec, seed, budget)
        assert isinstance(agent, SearchAgent)
        agent.reset(seat, rules)
        t0 = time.perf_counter()
        agent.choose(obs, legal)
        times.append(time.perf_counter() - t0)
        counts.append(agent.last_worlds)
        settled += agent.last_settled
        if agent.last_worlds and not agent.last_settled and agent.max_worlds is None:
            full.append(agent.last_worlds)  # searched until the budget ran out
    out["budget_s"] = budget
    out["decision_mean_ms"] = statistics.fmean(times) * 1e3
    out["decision_p50_ms"] = _pct(times, 0.5) * 1e3
    out["decision_p95_ms"] = _pct(times, 0.95) * 1e3
    out["worlds_per_decision_mean"] = statistics.fmean(counts)
    out["settled_share"] = settled / len(sample)
    out["budget_decisions"] = len(full)
    if full:
        out["worlds_per_budget_decision_mean"] = statistics.fmean(full)
    return out


def search_profile(preset_name: str, positions: int, worlds: int, seed: int, top: int) -> str:
    """Where the search's time goes at a fixed effort: cProfile's functions by their own time. Compiled
    functions are opaque to the profiler (they show inside their uncompiled callers), so the
    breakdown is meaningful with ``GUANDAN_PURE_PYTHON=1``; compiled, it gives the total."""
    import cProfile
    import io
    import pstats

    rules = preset(preset_name)
    sample = search_positions(preset_name, positions, seed)
    prof = cProfile.Profile()
    prof.enable()
    _worlds_speed(rules, sample, worlds, seed)
    prof.disable()
    buf = io.StringIO()
    stats = pstats.Stats(prof, stream=buf)
    total = sum(row[2] for row in stats.stats.values())  # type: ignore[attr-defined]
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:top]  # type: ignore[attr-defined]
    share, calls_word, function = _("share"), _("calls"), _("function")
    lines = [_messages.ngettext("{build}: {decisions} decision × {worlds} worlds; each function's own time under "
                                "the profiler", "{build}: {decisions} decisions × {worlds} worlds; each function's own "
                                "time under the profiler", len(sample)).format(
        build=build_words(), decisions=len(sample), worlds=worlds),
        f"{' ' * (6 - width(share))}{share} {' ' * (10 - width(calls_word))}{calls_word}  {function}"]
    for (path, line, name), (_cc, calls, own, _cum, _callers) in rows:
        where = path.split("/guandan/")[-1] if "/guandan/" in path else path
        lines.append(f"{own / total:6.1%} {calls:10,}  {where}:{line} {name}" if total else f"{calls:10,} {name}")
    by_module: dict[str, float] = {}
    for (path, _line, _name), (_cc, _calls, own, _cum, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        key = path.split("/guandan/")[-1] if "/guandan/" in path else _("Python's built-ins and libraries")
        by_module[key] = by_module.get(key, 0.0) + own
    top_modules = sorted(by_module.items(), key=lambda kv: -kv[1])[:8] if total else []
    lines.append(_("by module: {modules}").format(modules=_(", ").join(f"{k} {v / total:.0%}" for k, v in top_modules)))
    return "\n".join(lines)


def _worlds_speed(rules: Any, sample: list[tuple[int, Any, list[Any]]], worlds: int, seed: int) -> dict[str, float]:
    total, exact, cpu = 0, 0, 0.0
    for seat, obs, legal in sample:
        agent = SearchAgent(seed, None, max_worlds=worlds, settle=False)
        agent.reset(seat, rules)
        t0 = time.process_time()
        agent.choose(obs, legal)
        cpu += time.process_time() - t0
        total += agent.last_worlds
        exact += agent.last_exact
    return {"worlds_per_cpu_s": total / cpu if cpu else 0.0, "exact_world_share": exact / total if total else 0.0}


# figures where more is faster; the rest (times) are faster when smaller
_HIGHER_IS_FASTER = ("deals_per_s_complete", "deals_per_s_canonical", "worlds_per_cpu_s")
_COMPARED = ("lead_complete_mean_ms", "lead_canonical_mean_ms", "follow_mean_us", *_HIGHER_IS_FASTER)


def speed_figures(preset_name: str = "competition", hands: int = 300, n_deals: int = 100, positions: int = 20,
                  worlds: int = 100, seed: int = 1) -> dict[str, float]:
    """The figures that compiling changes, measured in this process (compiled or not, see guandan.native)."""
    out: dict[str, float] = {}
    move = movegen_figures(preset_name, hands, seed)
    out.update({k: move[k] for k in ("lead_complete_mean_ms", "lead_canonical_mean_ms", "follow_mean_us")})
    dealt = deals_figures(preset_name, n_deals, seed)
    out.update({k: dealt[k] for k in ("deals_per_s_complete", "deals_per_s_canonical")})
    out["worlds_per_cpu_s"] = _worlds_speed(preset(preset_name), search_positions(preset_name, positions, seed),
                                            worlds, seed)["worlds_per_cpu_s"]
    return out


def compiled_figures(preset_name: str = "competition", hands: int = 300, n_deals: int = 100, positions: int = 20,
                     worlds: int = 100, seed: int = 1, rounds: int = 3) -> dict[str, Any]:
    """:func:`speed_figures` compiled and pure Python (``GUANDAN_PURE_PYTHON=1``), each in a fresh child
    process, alternating ``rounds`` times in one run; the median of each figure and their ratios (> 1:
    compiled is faster). Alternating keeps a change of the machine's load from favouring one side."""
    args = (preset_name, hands, n_deals, positions, worlds, seed)
    code = f"import json, guandan.bench as b; print(json.dumps(b.speed_figures(*{args!r})))"
    runs: dict[bool, list[dict[str, float]]] = {True: [], False: []}
    for _ in range(rounds):
        for pure in (False, True):
            env = {**os.environ, PURE_ENV: "1" if pure else ""}
            done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                side = "pure-Python" if pure else "compiled"
                raise RuntimeError(f"the {side} run failed: {done.stderr.strip()[-500:]}")
            runs[not pure].append(json.loads(done.stdout.strip().splitlines()[-1]))
    out: dict[str, Any] = {"preset": preset_name, "seed": seed, "rounds": rounds}
    for k in _COMPARED:
        fast = statistics.median(r[k] for r in runs[True])
        slow = statistics.median(r[k] for r in runs[False])
        out[f"{k}_compiled"] = fast
        out[f"{k}_pure"] = slow
        out[f"{k}_speedup"] = fast / slow if k in _HIGHER_IS_FASTER else slow / fast
    return out


#: Why a process runs uncompiled (guandan.native's codes), said for a person.
REASONS: dict[str, str] = {
    PURE_REQUESTED: N_("{variable} is set"),
    NOT_BUILT: N_("no extension modules were built"),
    PARTIAL: N_("a partial build: no extension for {modules}"),
    NO_MANIFEST: N_("the build left no readable {file}"),
    STALE: N_("the build is stale: {modules} changed since"),
}


def reason_words() -> str:
    """Why this process runs uncompiled, in the catalogue's language (empty when it runs compiled)."""
    code, modules = why()
    return _(REASONS[code]).format(variable=PURE_ENV, modules=", ".join(modules), file=MANIFEST) if code else ""


def build_words() -> str:
    """Whether this process runs the compiled modules, said for a person."""
    return _("compiled") if compiled() else _("pure Python ({reason})").format(reason=reason_words())


def _unknown_preset(name: str) -> NoReturn:
    fail(_("{option} must be one of {choices}, not {value}").format(
        option="--preset", choices=", ".join(PRESET_NAMES), value=name))


#: What each benchmark figure is called in the table a person reads (``--json`` keeps the keys).
LABELS: dict[str, str] = {
    "preset": N_("rules"), "seed": N_("seed"), "hands": N_("27-card hands"), "deals": N_("deals"),
    "positions": N_("search decisions"), "rounds": N_("compiled and pure runs each"), "steps": N_("environment steps"),
    "break_any": N_("follows that may break any unit"), "features": N_("legal-action features built"),
    "compiled": N_("compiled"), "uncompiled_because": N_("not compiled because"),
    "lead_complete_mean_ms": N_("leading, complete moves: mean ms"),
    "lead_complete_p50_ms": N_("leading, complete moves: median ms"),
    "lead_complete_p99_ms": N_("leading, complete moves: 99th percentile ms"),
    "lead_complete_moves_mean": N_("leading, complete moves: moves per hand"),
    "lead_canonical_mean_ms": N_("leading, canonical moves: mean ms"),
    "lead_canonical_p50_ms": N_("leading, canonical moves: median ms"),
    "lead_canonical_p99_ms": N_("leading, canonical moves: 99th percentile ms"),
    "lead_canonical_moves_mean": N_("leading, canonical moves: moves per hand"),
    "follow_mean_us": N_("following: mean µs"), "follow_p99_us": N_("following: 99th percentile µs"),
    "classify_per_s": N_("card sets classified per second"),
    "deals_per_s_complete": N_("deals per second, complete moves"),
    "actions_per_deal_complete": N_("actions per deal, complete moves"),
    "deals_per_s_canonical": N_("deals per second, canonical moves"),
    "actions_per_deal_canonical": N_("actions per deal, canonical moves"),
    "worlds_per_cpu_s": N_("sampled worlds per CPU second"),
    "exact_world_share": N_("share of worlds solved exactly"), "budget_s": N_("seconds per decision"),
    "decision_mean_ms": N_("decision: mean ms"), "decision_p50_ms": N_("decision: median ms"),
    "decision_p95_ms": N_("decision: 95th percentile ms"), "worlds_per_decision_mean": N_("worlds per decision"),
    "settled_share": N_("share of decisions settled early"), "agent": N_("agent"),
    "budget_decisions": N_("decisions that searched until the budget"),
    "worlds_per_budget_decision_mean": N_("worlds per decision that searched until the budget"),
    "plain_winner_agrees": N_("plain playout: same winning team"),
    "plain_outcome_agrees": N_("plain playout: same places and levels"),
    "plain_playout_ms": N_("plain playout: CPU ms"),
    "break_any_winner_agrees": N_("breaking playout: same winning team"),
    "break_any_outcome_agrees": N_("breaking playout: same places and levels"),
    "break_any_playout_ms": N_("breaking playout: CPU ms"),
    "steps_per_s": N_("steps per second"), "us_per_step": N_("µs per step"),
    "episodes_finished": N_("episodes finished"), "legal_mean": N_("legal actions per step, mean"),
    "legal_max": N_("legal actions per step, most"),
}
#: ``compiled``'s figures: each compared figure, compiled, pure and the speed-up between them.
SUFFIXES: dict[str, str] = {
    "_compiled": N_("{figure} (compiled)"), "_pure": N_("{figure} (pure Python)"),
    "_speedup": N_("{figure}: times faster compiled"),
}


def labels(figures: dict[str, Any]) -> dict[str, str]:
    """The name of every figure in ``figures`` (in the catalogue's language), ``compiled``'s included."""
    out = {k: _(v) for k, v in LABELS.items() if k in figures}
    for k in figures:
        for suffix, template in SUFFIXES.items():
            if k.endswith(suffix) and k[: -len(suffix)] in LABELS:
                out[k] = _(template).format(figure=_(LABELS[k[: -len(suffix)]]))
    return out


def _print(figures: dict[str, Any], as_json: bool) -> None:
    figures = with_build(figures)
    if as_json:
        typer.echo(json.dumps(figures))
        return
    if "uncompiled_because" in figures:  # --json keeps the log's words; the table says it in the reader's
        figures["uncompiled_because"] = reason_words()
    typer.echo(figure_table(figures, labels(figures), _, float_format=",.3f"))


JsonOpt = Annotated[bool, typer.Option("--json", help="one JSON object")]
PresetOpt = Annotated[str, typer.Option("--preset", help=", ".join(PRESET_NAMES))]


@app.command()
def movegen(
    as_json: JsonOpt = False,
    preset_name: PresetOpt = "competition",
    hands: Annotated[int, typer.Option(min=10, help="random 27-card hands")] = 500,
    seed: int = 1,
) -> None:
    """legal_moves when leading a fresh 27-card hand (complete and canonical), following, classify/s."""
    _print(movegen_figures(preset_name, hands, seed), as_json)


@app.command()
def deals(
    as_json: JsonOpt = False,
    preset_name: PresetOpt = "competition",
    n: Annotated[int, typer.Option("--deals", min=1)] = 100,
    seed: int = 1,
) -> None:
    """Random-play deals per second, full lifecycle with tribute (complete and canonical moves)."""
    _print(deals_figures(preset_name, n, seed), as_json)


@app.command()
def search(
    as_json: JsonOpt = False,
    preset_name: PresetOpt = "competition",
    positions: Annotated[int, typer.Option(min=1, help="decisions taken from heuristic self-play")] = 40,
    worlds: Annotated[int, typer.Option(min=1, help="worlds per decision for the worlds/s figure")] = 100,
    budget: Annotated[float, typer.Option(min=0.01, help="seconds per decision for the timing figures")] = 1.0,
    seed: int = 1,
    profile: Annotated[int, typer.Option(min=0, help="instead: the N functions taking the most time (cProfile)")] = 0,
    agent: Annotated[str, typer.Option(help="the search tier, with options, that makes the timed decisions "
                                            "(search:prune=on)")] = "search",
) -> None:
    """The search tier: sampled worlds per CPU second, and decision times under a budget."""
    try:
        name, _values = parse_spec(agent)
    except GuandanError as e:
        fail(said(e))
    if name != "search":  # the tier's registered name (a compiled class hides its class attribute)
        fail(_("{option} must be the search tier with its options (search:OPTION=VALUE), not {value}").format(
            option="--agent", value=agent))
    if profile:
        typer.echo(search_profile(preset_name, positions, worlds, seed, profile))
        return
    _print(search_figures(preset_name, positions, worlds, budget, seed, agent), as_json)


@app.command()
def playouts(
    as_json: JsonOpt = False,
    preset_name: PresetOpt = "competition",
    n: Annotated[int, typer.Option("--deals", min=1, help="heuristic self-play deals")] = 300,
    break_any: Annotated[int, typer.Option("--break-any", min=0, help="playout follows that may break any unit")] = 1000,
    seed: int = 1,
) -> None:
    """How often search's playouts, from the true hands, replay a heuristic deal's outcome; and their cost."""
    if preset_name not in PRESET_NAMES:
        _unknown_preset(preset_name)
    _print(playouts_figures(preset_name, n, break_any, seed), as_json)


@app.command("compiled")
def compiled_cmd(
    as_json: JsonOpt = False,
    preset_name: PresetOpt = "competition",
    hands: Annotated[int, typer.Option(min=10, help="random 27-card hands for the move generator")] = 300,
    n: Annotated[int, typer.Option("--deals", min=1, help="random-play deals")] = 100,
    positions: Annotated[int, typer.Option(min=1, help="search decisions for worlds per CPU second")] = 20,
    worlds: Annotated[int, typer.Option(min=1, help="worlds per search decision")] = 100,
    rounds: Annotated[int, typer.Option(min=1, help="compiled and pure runs, alternating; medians")] = 3,
    seed: int = 1,
) -> None:
    """Compiled against pure Python in one run: move generation, deals/s and search worlds/s, with ratios."""
    if not compiled():
        fail(_("this process does not run compiled ({status}); nothing to compare").format(status=build_words()), 1)
    if preset_name not in PRESET_NAMES:
        _unknown_preset(preset_name)
    try:
        figures = compiled_figures(preset_name, hands, n, positions, worlds, seed, rounds)
    except RuntimeError as e:
        fail(said(e), 1)
    _print(figures, as_json)


@app.command("env")
def env(
    as_json: JsonOpt = False,
    preset_name: PresetOpt = "competition",
    steps: Annotated[int, typer.Option("--steps", min=1, help="environment steps")] = 5000,
    seed: Annotated[int, typer.Option(help="seed of the matches and the random actions")] = 1,
    features: Annotated[bool, typer.Option("--features", help="also build legal_action_features")] = False,
) -> None:
    """Research environment steps per second (random legal actions, one core)."""
    # here, not at the top: NumPy, Gymnasium and PettingZoo take half a second to load, which every other
    # `guandan` command would pay
    from .env.bench import env_figures

    if preset_name not in PRESET_NAMES:
        _unknown_preset(preset_name)
    _print(env_figures(preset_name, steps, seed, features), as_json)

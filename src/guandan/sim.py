"""`guandan simulate` and `guandan replay`."""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from .agents import make_agent
from .agents.runner import RunStats, run_match
from .cliutil import ensure_dir
from .cliutil import fail as _fail
from .core.cards import card_display
from .core.deal import Action, Event
from .core.errors import GuandanError
from .core.match import MatchConfig, new_match, team_levels_str
from .core.record import dumps, loads, replay
from .core.rules import PRESET_NAMES, preset
from .names import PLACES, cards_display, combo_name


def describe(action: Action | None, events: list[Event]) -> list[str]:
    """Readable lines (Chinese and English) for one action and the events it caused."""
    lines: list[str] = []
    for e in events:
        info = e.info or {}
        if e.type == "deal_start":
            lv = "23456789TJQKA"
            lines.append(f"== deal {info['index'] + 1} 第{info['index'] + 1}副 · level 级 {lv[info['level']]} · "
                         f"levels {team_levels_str(info['levels'])} · declarer 庄 {info['declarer']}")
        elif e.type == "first_lead":
            flip = f" (flipped 翻牌 {card_display(e.cards[0])})" if e.cards else ""
            lines.append(f"seat {e.seat} leads first 首出{flip}")
        elif e.type == "anti_tribute":
            lines.append(f"anti-tribute 抗贡: seats {info['seats']} hold both big jokers")
        elif e.type in ("tribute", "return"):
            word = "tribute 进贡" if e.type == "tribute" else "return 还贡"
            for frm, to, card in info["result"]:
                lines.append(f"{word}: seat {frm} → seat {to}: {card_display(card)}")
        elif e.type == "lead":
            lines.append(f"seat {e.seat} leads 先出")
        elif e.type == "play" and e.combo is not None:
            lines.append(f"  seat {e.seat}: {cards_display(e.cards)}  [{combo_name(e.combo)}]")
        elif e.type == "pass":
            lines.append(f"  seat {e.seat}: pass 不要")
        elif e.type == "report":
            lines.append(f"  seat {e.seat} reports 报牌: {info['count']} cards left")
        elif e.type == "out":
            zh, en = PLACES[info["place"]]
            lines.append(f"  seat {e.seat} is out: {zh} {en}")
        elif e.type == "round_won" and info.get("jiefeng"):
            lines.append(f"  接风 jiefeng: seat {info['leader']} takes the lead")
        elif e.type == "deal_settled":
            lines.append(f"== result {info['result']} · finish {info['finish']} · levels {team_levels_str(info['levels'])}"
                         + (f" · points {info['points']}" if "points" in info else "")
                         + (f" · {'; '.join(info['notes'])}" if info.get("notes") else ""))
        elif e.type == "match_over":
            w = info["winner"]
            who = f"team {w} wins 获胜" if w is not None else "no winner (deal limit)"
            lines.append(f"== match over 比赛结束: {who}"
                         f" · levels {team_levels_str(info['levels'])} after {info['deals']} deals")
    return lines


def simulate(
    preset_name: Annotated[str, typer.Option("--preset", help=", ".join(PRESET_NAMES))] = "competition",
    agents: Annotated[str, typer.Option(help="four agent specs, seats 0-3 (see guandan agents)")] = "greedy,random,greedy,random",
    deals: Annotated[int, typer.Option(min=1, help="deals to play (matches restart when one ends)")] = 10,
    seed: Annotated[int, typer.Option(help="the seed: same seed, same games")] = 1,
    out: Annotated[Path | None, typer.Option(help="write one record file per match here")] = None,
    match: Annotated[bool, typer.Option("--match", help="play exactly one whole match (2 → passing A)")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", help="print every action")] = False,
    mode: Annotated[str, typer.Option(help="move generation: complete or canonical")] = "complete",
) -> None:
    """Bots play deals; prints a summary and writes records."""
    try:
        rules = preset(preset_name)
        names = [a.strip() for a in agents.split(",")]
        if len(names) != 4:
            raise GuandanError(f"--agents needs four names, got {len(names)}")
        seats = [make_agent(n, f"{seed}:{i}") for i, n in enumerate(names)]
    except GuandanError as e:
        _fail(str(e))
    if mode not in ("complete", "canonical"):
        _fail(f"--mode must be complete or canonical, not {mode!r}")
    if out is not None:
        ensure_dir(out)
    played, matches, wins, results = 0, 0, Counter[str](), Counter[str]()
    stats = RunStats()
    t0 = time.perf_counter()
    while played < deals or (match and matches == 0):
        remaining = None if match else deals - played
        m = new_match(rules, f"{seed}:{matches}", MatchConfig(max_deals=remaining, move_mode=mode))
        if verbose:
            for line in describe(None, [Event("deal_start", None, info={"index": 0, "level": 0, "declarer": None,
                                                                          "levels": [0, 0]}), *m.deal.events]):  # type: ignore[union-attr]
                typer.echo(line)

        def show(action: Action, events: list[Event]) -> None:
            if verbose:
                for line in describe(action, events):
                    typer.echo(line)

        run_match(m, seats, on_events=show, stats=stats)
        played += len(m.deals)
        matches += 1
        wins[f"team {m.winner}" if m.winner is not None else "unfinished"] += 1
        for d in m.deals:
            results[f"1-{d.settlement.partner_place}"] += 1
        if out is not None:
            (out / f"match-{seed}-{matches - 1}.json").write_text(dumps(m, names), encoding="utf-8")
        if match:
            break
    dt = time.perf_counter() - t0
    typer.echo(f"preset {rules.name} · agents {', '.join(names)} · seed {seed}")
    typer.echo(f"deals {played} · matches {matches} ({dict(wins)}) · results {dict(sorted(results.items()))}")
    typer.echo(f"{dt:.2f} s · {played / dt:.1f} deals/s · illegal actions {sum(stats.illegal)}"
               + (f" · records in {out}" if out else ""))


def replay_cmd(
    file: Annotated[Path, typer.Argument(help="a record file written by simulate, the arena or a server")],
    as_json: Annotated[bool, typer.Option("--json", help="only validate and print the result as JSON")] = False,
) -> None:
    """Replay a record move by move (Chinese and English names); checks that it reproduces exactly."""
    try:
        data = loads(file.read_text(encoding="utf-8"))
    except OSError as e:
        _fail(f"cannot read {file}: {e.strerror}")
    except GuandanError as e:
        _fail(f"{file}: {e}")
    final = None
    try:
        for action, events, state in replay(data):
            final = state
            if as_json:
                continue
            if action is None and state.deal is not None:
                for line in describe(None, events[:1]):
                    typer.echo(line)
                for s in range(4):
                    typer.echo(f"  seat {s} hand 手牌: {cards_display(state.deal.initial_hands[s])}")
                events = events[1:]
            for line in describe(action, events):
                typer.echo(line)
    except GuandanError as e:
        _fail(f"{file}: {e}")
    if as_json and final is not None:
        typer.echo(json.dumps({"ended": final.ended, "winner": final.winner, "deals": len(final.deals),
                               "levels": team_levels_str(final.levels)}))

"""A plugin tier's illegal answer (None, cards it does not hold, a pass where it must play, …) in the arena:
still replaced by the first legal action and counted, and now said in words, with the agent, its seat and
the deal pair, as a raising tier's error is."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from guandan.agents import base
from guandan.arena.report import summarize_matches
from guandan.arena.runner import MatchResult, PairResult, Setup, play_full_match, play_pair
from guandan.cli import _mount, app
from guandan.core.cards import card_str
from guandan.core.deal import Action
from guandan.core.match import MatchObservation
from guandan.core.vocab import ActionKind, Phase
from guandan.present import Presenter, said

Answer = Callable[[MatchObservation, Sequence[Action]], object]


def _tier(monkeypatch: pytest.MonkeyPatch, name: str, answer: Answer) -> None:
    """Register tier ``name``, which answers ``answer(obs, legal)`` (its fault) and the first legal action
    otherwise (``answer`` returning ``...``)."""

    class Faulty(base.Agent):
        def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
            got = answer(obs, legal)
            return legal[0] if got is ... else got  # type: ignore[return-value]

    Faulty.name = name
    monkeypatch.setitem(base._REGISTRY, name, lambda seed, budget: Faulty(seed, budget))


def _leading(obs: MatchObservation) -> bool:
    return obs.deal.phase == Phase.PLAY and obs.deal.top is None


def _missing_pair(obs: MatchObservation) -> tuple[int, int]:
    """Two copies of the lowest card the seat does not hold at all."""
    held = Counter(obs.deal.hand)
    card = next(c for c in range(52) if not held[c])
    return card, card


def test_none_is_said_as_answered_nothing_with_agent_seat_and_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    _tier(monkeypatch, "silent", lambda obs, legal: None if _leading(obs) else ...)
    pair = play_pair(Setup("silent", "greedy", "competition", 1), 2)
    assert pair.illegal_a > 0 and pair.illegal_b == 0 and pair.first_illegal_b is None
    assert pair.first_illegal_a is not None
    e = pair.first_illegal_a.error()
    seat = e.params["seat"]
    assert seat in (1, 2, 3, 4)
    assert said(e, "en") == (f"silent (seat {seat}) in deal pair 2: answered nothing; "
                             "the first legal action was played instead")
    assert said(e, "zh") == f"silent（座位{seat}）在第2组复式牌中：什么也没有回答；已改为第一个合法动作"


def test_cards_not_in_hand_are_named_in_card_notation(monkeypatch: pytest.MonkeyPatch) -> None:
    answered: list[tuple[int, int]] = []

    def phantom_pair(obs: MatchObservation, legal: Sequence[Action]) -> object:
        if not _leading(obs):
            return ...
        cards = _missing_pair(obs)
        answered.append(cards)
        return Action(ActionKind.PLAY, obs.deal.seat, cards, None)

    _tier(monkeypatch, "phantom", phantom_pair)
    pair = play_pair(Setup("greedy", "phantom", "competition", 1), 0)
    assert pair.first_illegal_b is not None and pair.illegal_b == len(answered) and pair.first_illegal_a is None
    e = pair.first_illegal_b.error()
    shown = Presenter("en").cards(answered[0])  # e.g. ♠3 ♠3: the first answer, in the cards' own notation
    assert "♠" in shown or "♥" in shown or "♣" in shown or "♦" in shown
    assert said(e, "en") == (f"phantom (seat {e.params['seat']}) in deal pair 0: played {shown}, which is not in "
                             "its hand; the first legal action was played instead")


@pytest.mark.parametrize("answer, english", [
    (lambda obs, legal: Action(ActionKind.PASS, obs.deal.seat) if _leading(obs) else ...,
     "passed while leading, which is not allowed"),
    (lambda obs, legal: "pass" if _leading(obs) else ..., "answered an object of type str, not an action"),
    (lambda obs, legal: legal[0]._replace(seat=(obs.deal.seat + 1) % 4) if _leading(obs) else ...,
     "answered for seat "),
    (lambda obs, legal: Action(ActionKind.TRIBUTE, obs.deal.seat, obs.deal.hand[:1]) if _leading(obs) else ...,
     "answered a tribute during the play"),
])
def test_other_wrong_answers_are_said_too(monkeypatch: pytest.MonkeyPatch, answer: Answer, english: str) -> None:
    _tier(monkeypatch, "faulty", answer)
    pair = play_pair(Setup("faulty", "random", "competition", 4), 1)
    assert pair.first_illegal_a is not None
    text = said(pair.first_illegal_a.error(), "en")
    assert f"in deal pair 1: {english}" in text
    assert "Action(" not in text and "None" not in text and "'" not in text  # words, never a repr


def test_a_whole_match_says_it_too(monkeypatch: pytest.MonkeyPatch) -> None:
    _tier(monkeypatch, "silent", lambda obs, legal: None if _leading(obs) else ...)
    setup = Setup("random", "silent", "competition", 1)
    result: MatchResult = play_full_match(setup, 1)
    assert result.first_illegal_b is not None and result.first_illegal_a is None
    assert said(result.first_illegal_b.error(), "en").endswith(
        "in match 1: answered nothing; the first legal action was played instead")
    first = summarize_matches([result])["b_first_illegal"]
    assert first == {"match": 1, "seat": result.first_illegal_b.seat, "phase": "play", "problem": "nothing",
                     "answer": None}


def test_results_compare_equal_whatever_the_notes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs are compared result by result (one process against several, Ray against processes): the said
    answers are errors, equal only to themselves, so they must stay out of the comparison."""
    _tier(monkeypatch, "silent", lambda obs, legal: None if _leading(obs) else ...)
    setup = Setup("silent", "greedy", "competition", 1)
    one: PairResult = play_pair(setup, 0)
    two: PairResult = play_pair(setup, 0)
    one.a_times = two.a_times = []
    one.b_times = two.b_times = []
    one.cpu_seconds = two.cpu_seconds = 0.0
    assert one == two and one.first_illegal_a is not two.first_illegal_a


def test_the_arena_command_says_each_sides_first_illegal_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    _tier(monkeypatch, "silent", lambda obs, legal: None if _leading(obs) else ...)
    _mount()
    r = CliRunner().invoke(app, ["arena", "--a", "heuristic", "--b", "silent", "--deals", "2", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)  # the JSON stays clean: the words go to stderr
    count = data["illegal_b"]
    assert count > 0 and data["illegal_a"] == 0
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("warning: silent (seat ")
    assert lines[0].endswith(f" in deal pair 0: answered nothing; the first legal action was played instead "
                             f"({count} illegal actions by this agent in all)")


def test_the_arena_command_says_it_in_chinese(monkeypatch: pytest.MonkeyPatch) -> None:
    _tier(monkeypatch, "silent", lambda obs, legal: None if _leading(obs) else ...)
    monkeypatch.setenv("LANGUAGE", "zh")
    _mount()
    r = CliRunner().invoke(app, ["arena", "--a", "silent", "--b", "random", "--deals", "1", "--json"])
    assert r.exit_code == 0, r.output
    assert "在第0组复式牌中：什么也没有回答；已改为第一个合法动作（该机器人共有" in r.stderr, r.stderr



def _pair_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line)["pair"] for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_results_file_keeps_each_sides_first_illegal_answer(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Its seat, phase, what was wrong and the answer itself, for a program; arena-summary says it in words and
    gives it in its JSON. (Writing such a pair to the file failed: the said answer was no JSON value.)"""
    _tier(monkeypatch, "silent", lambda obs, legal: None if _leading(obs) else ...)
    _mount()
    f = tmp_path / "r.jsonl"
    r = CliRunner().invoke(app, ["arena", "--a", "silent", "--b", "greedy", "--deals", "2", "--results", str(f),
                                 "--json"])
    assert r.exit_code == 0, r.output
    lines = _pair_lines(f)
    first = lines[0]["first_illegal_a"]
    assert first == {"seat": first["seat"], "phase": "play", "problem": "nothing", "answer": None}
    assert first["seat"] in range(4) and all("first_illegal_b" not in p for p in lines)
    assert f"silent (seat {first['seat'] + 1}) in deal pair 0: answered nothing" in r.stderr  # the same answer
    out = CliRunner().invoke(app, ["arena-summary", str(f), "--json"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.output)
    assert summary["a_first_illegal"] == {"pair": 0, **first} and "b_first_illegal" not in summary
    words = f"deal pair 0, seat {first['seat'] + 1}: answered nothing"
    table = CliRunner().invoke(app, ["arena-summary", str(f)]).output
    assert re.search(rf"^A's first illegal action +{words}$", table, re.M), table
    assert "B's first illegal" not in table
    monkeypatch.setenv("LANGUAGE", "zh")
    table = CliRunner().invoke(app, ["arena-summary", str(f)]).output
    assert re.search(rf"^A 的第一个非法动作 +第0组复式牌，座位{first['seat'] + 1}：什么也没有回答$", table, re.M), table


def test_the_answer_kept_is_the_action_as_a_record_writes_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    answered: list[Action] = []

    def phantom_pair(obs: MatchObservation, legal: Sequence[Action]) -> object:
        if not _leading(obs):
            return ...
        action = Action(ActionKind.PLAY, obs.deal.seat, _missing_pair(obs), None)
        answered.append(action)
        return action

    _tier(monkeypatch, "phantom", phantom_pair)
    _mount()
    f = tmp_path / "r.jsonl"
    r = CliRunner().invoke(app, ["arena", "--a", "random", "--b", "phantom", "--deals", "1", "--results", str(f)])
    assert r.exit_code == 0, r.output
    (line,) = _pair_lines(f)
    action = answered[0]
    tokens = [card_str(c) for c in action.cards]
    assert line["first_illegal_b"] == {"seat": action.seat, "phase": "play", "problem": "not_in_hand",
                                       "answer": {"seat": action.seat, "kind": "play", "cards": tokens}}
    shown = Presenter("en").cards(action.cards)
    words = f"deal pair 0, seat {action.seat + 1}: played {shown}, which is not in its hand"
    assert re.search(rf"^B's first illegal action +{re.escape(words)}$", r.output, re.M), r.output  # the run's table


def test_a_file_without_first_illegal_answers_still_summarizes_and_resumes(monkeypatch: pytest.MonkeyPatch,
                                                                           tmp_path: Path) -> None:
    """Files written before the answers were kept count them only: they read, summarize and resume as before,
    and a damaged answer is named as any other field."""
    _tier(monkeypatch, "silent", lambda obs, legal: None if _leading(obs) else ...)
    _mount()
    cli = CliRunner()
    f = tmp_path / "r.jsonl"
    assert cli.invoke(app, ["arena", "--a", "silent", "--b", "greedy", "--deals", "2", "--results", str(f)]).exit_code == 0
    kept = f.read_text(encoding="utf-8")
    old = [json.loads(line) for line in kept.splitlines()]
    for d in old:
        d["pair"].pop("first_illegal_a", None)
    f.write_text("".join(json.dumps(d) + "\n" for d in old), encoding="utf-8")
    summary = json.loads(cli.invoke(app, ["arena-summary", str(f), "--json"]).output)
    assert summary["illegal_a"] > 0 and "a_first_illegal" not in summary
    r = cli.invoke(app, ["arena", "--a", "silent", "--b", "greedy", "--deals", "3", "--results", str(f), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["resumed_pairs"] == 2 and json.loads(r.stdout)["a_first_illegal"]["pair"] == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text(kept.replace('"problem":"nothing"', '"problem":"rude"', 1), encoding="utf-8")
    r = cli.invoke(app, ["arena-summary", str(bad)])
    assert r.exit_code == 2 and f"{bad}:1: the pair's field \"first_illegal_a\" is not valid" in r.output, r.output

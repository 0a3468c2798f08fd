"""The core is safe to call from several threads: the move generator's per-hand cache is shared by
every thread of a process (the web server's worker threads, ``asyncio.to_thread``), so four threads
switching every microsecond must get exactly the single-threaded answers (seeded, deterministic)."""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Iterator

import pytest

from guandan.core import Combo, Move, RuleSet, legal_moves, preset
from guandan.core.cards import physical_deck
from guandan.core.vocab import MoveMode

COMPETITION = preset("competition")
THREADS = 4


def _tasks(seed: int, hands: int) -> list[tuple[tuple[int, ...], Combo | None, int, RuleSet, MoveMode]]:
    """Leads and follows on random hands of 8…27 cards, in both move modes: the follows ask one
    hand's generator several times (its cached, bisected follow lists and its bombs)."""
    rng = random.Random(seed)
    deck = [pc.code for pc in physical_deck()]
    out: list[tuple[tuple[int, ...], Combo | None, int, RuleSet, MoveMode]] = []
    for _ in range(hands):
        rng.shuffle(deck)
        hand = tuple(sorted(deck[: rng.randrange(8, 28)]))
        other = sorted(deck[27:54])
        level = rng.randrange(13)
        tops = [m.combo for m in legal_moves(other, None, level, COMPETITION, MoveMode.CANONICAL)]
        for mode in MoveMode:
            out.append((hand, None, level, COMPETITION, mode))
            out.extend((hand, top, level, COMPETITION, mode) for top in rng.sample(tops, 3))
    return out


def _answer(task: tuple[tuple[int, ...], Combo | None, int, RuleSet, MoveMode]) -> list[Move]:
    hand, top, level, rules, mode = task
    return legal_moves(hand, top, level, rules, mode)


@pytest.fixture
def tiny_switch_interval() -> Iterator[None]:
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def test_four_threads_get_the_single_threaded_answers(tiny_switch_interval: None) -> None:
    tasks = _tasks(seed=14, hands=60)
    expected = [_answer(t) for t in tasks]
    results: list[list[list[Move]]] = [[] for _ in range(THREADS)]
    failures: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def work(i: int) -> None:
        try:
            start.wait()
            # every thread walks the same tasks at once, so they share each hand's generator
            results[i] = [_answer(t) for t in tasks]
        except BaseException as e:
            failures.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    for i in range(THREADS):
        wrong = [j for j, (got, want) in enumerate(zip(results[i], expected, strict=True)) if got != want]
        assert wrong == [], f"thread {i}: {len(wrong)} of {len(tasks)} answers differ from the single-threaded ones"


def test_answers_are_fresh_lists() -> None:
    """A caller may change the list it got: the next caller's answer is unaffected."""
    hand, top, level, rules, mode = _tasks(seed=3, hands=1)[1]
    first = legal_moves(hand, top, level, rules, mode)
    want = list(first)
    first.clear()
    assert legal_moves(hand, top, level, rules, mode) == want


def test_an_answer_does_not_depend_on_what_was_asked_before() -> None:
    """A hand's first follow of a (type, size) and its later, cached ones list the plays in one order."""
    for hand, top, level, rules, mode in _tasks(seed=5, hands=20):
        if top is None or top.is_bomb:
            continue
        cold = legal_moves(hand, top, level, rules, mode)  # may be the hand's first ask of this type
        legal_moves(hand, top, level, rules, mode)  # the second ask fills the sorted cache
        assert legal_moves(hand, top, level, rules, mode) == cold

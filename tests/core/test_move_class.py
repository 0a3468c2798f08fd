"""Move is a compiled class, not a named tuple: it must still behave as the pair (cards, combo) it
was — equality, hashing, indexing, unpacking, pickling — and the generator's caches, keyed by the
rule set's id, must never hand one rule set's moves to another."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from dataclasses import replace

from guandan.core import PASS, Move, RuleSet, legal_moves, parse_cards, parse_level, preset
from guandan.core.vocab import ComboType

COMPETITION = preset("competition")


def _a_play() -> Move:
    return next(m for m in legal_moves(parse_cards("S3 S3 H4"), None, 0, COMPETITION) if len(m.cards) == 2)


def test_a_move_is_equal_to_its_pair_and_hashes_like_it() -> None:
    m = _a_play()
    twin = Move(m.cards, m.combo)
    assert m == twin and m.__ne__(twin) is False and hash(m) == hash(twin)
    assert m == (m.cards, m.combo) and hash(m) == hash((m.cards, m.combo))
    assert m != PASS and m != (m.cards, None) and m != (m.cards,) and m != "a move"
    assert {m, twin, PASS} == {m, PASS}


def test_a_move_indexes_and_unpacks_as_a_pair() -> None:
    m = _a_play()
    cards, combo = m
    assert (cards, combo) == (m[0], m[1]) == (m.cards, m.combo) and len(m) == 2
    assert list(PASS) == [(), None] and PASS.is_pass and not m.is_pass
    assert repr(PASS) == "Move(cards=(), combo=None)"


def test_a_move_survives_pickling() -> None:
    m = _a_play()
    for x in (m, PASS):
        back = pickle.loads(pickle.dumps(x))
        assert back == x and type(back) is Move


def test_an_equal_rule_set_gets_its_own_answers() -> None:
    """Two rule sets that differ (straights of 5 only, or of 5 to 8) and a fresh equal copy of one:
    the generator cache is keyed by id, so each must see its own rules' moves."""
    hand, level = parse_cards("S3 D4 C5 S6 D7 C8 H9 ST"), parse_level("2")

    def straight_sizes(rules: RuleSet) -> set[int]:
        return {m.combo.size for m in legal_moves(hand, None, level, rules) if m.combo is not None
                and m.combo.type == ComboType.STRAIGHT}

    short = straight_sizes(COMPETITION)
    long_ = straight_sizes(replace(COMPETITION, straight_len=(5, 8)))
    again = straight_sizes(replace(COMPETITION))
    assert short == again == {5} and long_ == {5, 6, 7, 8}


_LISTING = """
import json
from guandan.core import legal_moves, preset
from guandan.core.vocab import MoveMode
# a hand where one card set has two strongest readings (a triple run and a pair run of ♠3 ♥3 ♠4 and wildcards)
hand = [1, 3, 4, 5, 9, 10, 12, 13, 13, 14, 19, 22, 22, 27, 30, 30, 33, 34, 35, 36, 40, 44, 48, 50, 51, 51, 53]
print(json.dumps([[list(m.cards), str(m.combo)] for m in legal_moves(hand, None, 1, preset("huopin"), MoveMode.CANONICAL)]))
"""


def test_huopin_moves_come_in_the_same_order_in_every_process() -> None:
    """A card set with several strongest readings lists them strongest first, not in the order of
    a set, which changes with the process's string hashing."""
    outs = []
    for seed in ("1", "2", "3", "4"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", _LISTING], env=env, capture_output=True, text=True, check=True)
        outs.append(done.stdout)
    assert all(out == outs[0] for out in outs) and len(outs[0]) > 1000

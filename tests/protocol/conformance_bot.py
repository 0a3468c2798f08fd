"""The conformance test bot: a 2020-protocol bot that checks every message it receives and plays
randomly. Any violation raises :class:`ConformanceError` (a crash, which the adapter and the
server tests count), so a passing game is a clean one.

Checks: the JSON Schema of PROTOCOL-2020.md; ``indexRange``; the act's ``handCards`` against the
hand it tracks itself from ``beginning``, tribute, back and its own plays; and the ``actionList``
against the legal moves it computes itself from that hand and ``greaterAction``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import jsonschema

from guandan.core.cards import Card, lv, parse_card, wild_code
from guandan.core.moves import legal_moves
from guandan.core.rules import RuleSet, preset
from guandan.core.vocab import RANKS, MoveMode
from guandan.protocol.notation import move_from_triple, parse_protocol_cards
from guandan.protocol.schema import SERVER_MESSAGE
from guandan.protocol_names import protocol_action

_VALIDATOR = jsonschema.Draft202012Validator(SERVER_MESSAGE)


class ConformanceError(AssertionError):
    pass


def key(triple: Any) -> str:
    return json.dumps([triple[0], triple[1], sorted(triple[2]) if isinstance(triple[2], list) else triple[2]])


class ConformanceBot:
    rules: RuleSet = preset("competition")
    mode = MoveMode.COMPLETE

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.received = 0
        self.stages: Counter[str] = Counter()
        self.acts = 0
        self.hand: Counter[Card] = Counter()
        self.pos = -1
        self.level = 0

    def fail(self, why: str, msg: Any) -> None:
        raise ConformanceError(f"{why}: {json.dumps(msg)[:300]}")

    def received_message(self, message: str) -> int | None:
        msg = json.loads(message)
        self.received += 1
        errors = sorted(_VALIDATOR.iter_errors(msg), key=lambda e: e.path)
        if errors:
            self.fail(f"schema violation: {errors[0].message}", msg)
        stage = msg["stage"]
        self.stages[f"{msg['type']}:{stage}"] += 1
        if msg["type"] == "act":
            return self.act(msg)
        if stage == "beginning":
            self.hand = Counter(parse_protocol_cards(msg["handCards"]))
            self.pos = msg["myPos"]
            self.level = RANKS.index(msg["curRank"])
        elif stage in ("tribute", "back"):
            for giver, taker, card in msg["result"]:
                code = parse_card(card, "protocol")
                if giver == self.pos:
                    self.hand[code] -= 1
                if taker == self.pos:
                    self.hand[code] += 1
        elif stage == "play" and msg["curPos"] == self.pos and msg["curAction"][0] != "PASS":
            self.hand.subtract(parse_protocol_cards(msg["curAction"][2]))
        if any(n < 0 for n in self.hand.values()):
            self.fail("the messages took a card this seat never had", msg)
        return None

    def act(self, msg: dict[str, Any]) -> int:
        self.acts += 1
        actions = msg["actionList"]
        if msg["indexRange"] != len(actions) - 1:
            self.fail("indexRange is not len(actionList) - 1", msg)
        if Counter(parse_protocol_cards(msg["handCards"])) != +self.hand:
            self.fail("handCards differ from the hand the messages imply", msg)
        keys = [key(a) for a in actions]
        if len(set(keys)) != len(keys):
            self.fail("actionList repeats an action", msg)
        hand = sorted(self.hand.elements())
        if msg["stage"] == "play":
            top = None
            if msg["greaterPos"] != -1:
                if msg["greaterPos"] == self.pos:
                    self.fail("asked to play on its own winning play", msg)
                top = move_from_triple(msg["greaterAction"], self.level, self.rules).combo
            expected = {key(protocol_action(m.cards, m.combo, self.level))
                        for m in legal_moves(hand, top, self.level, self.rules, self.mode)}
            if set(keys) != expected:
                self.fail(f"actionList differs from the legal moves ({len(keys)} vs {len(expected)})", msg)
            if top is not None and keys[0] != key(["PASS", "PASS", "PASS"]):
                self.fail("PASS is not the first entry when following", msg)
        else:
            cards = [parse_card(a[2][0], "protocol") for a in actions]
            if any(self.hand[c] < 1 for c in cards):
                self.fail(f"a {msg['stage']} option is not in hand", msg)
            if msg["stage"] == "tribute":
                wc = wild_code(self.level)
                best = max(lv(c, self.level) for c in hand if c != wc)
                if {lv(c, self.level) for c in cards} != {best} or wc in cards:
                    self.fail("tribute options are not the largest non-wildcard card", msg)
        return self.rng.randrange(len(actions))


class CanonicalConformanceBot(ConformanceBot):
    mode = MoveMode.CANONICAL


class Huaian2009ConformanceBot(ConformanceBot):
    rules = preset("huaian-2009")


class CrashingBot(ConformanceBot):
    """Raises on its 5th act: the adapter must count it and go on."""

    def act(self, msg: dict[str, Any]) -> int:
        if self.acts == 4:
            raise RuntimeError("deliberate crash")
        return super().act(msg)


class SleepyBot(ConformanceBot):
    """Hangs on its 3rd act (the adapter's timeout must fire)."""

    def act(self, msg: dict[str, Any]) -> int:
        if self.acts == 2:
            import time

            time.sleep(30)
        return super().act(msg)


class BadIndexBot(ConformanceBot):
    """Answers every 7th act out of range."""

    def act(self, msg: dict[str, Any]) -> int:
        i = super().act(msg)
        return msg["indexRange"] + 1 if self.acts % 7 == 0 else i


class NumpyIndexBot(ConformanceBot):
    """Answers with NumPy's integer, as a policy's ``argmax`` gives it: an index like any other."""

    def act(self, msg: dict[str, Any]) -> int:
        import numpy as np

        return np.int64(super().act(msg))  # type: ignore[return-value]


class FloatIndexBot(ConformanceBot):
    """Answers with the right index as a float (and every 5th as a bool): neither is an integer."""

    def act(self, msg: dict[str, Any]) -> int:
        i = super().act(msg)
        return (i == 0) if self.acts % 5 == 0 else float(i)  # type: ignore[return-value]


class Move:
    """A bot's own move object, handed back instead of its index."""


class WrongAnswersBot(ConformanceBot):
    """Answers its first acts with what a bot author gets wrong (a float, text, a bool, nothing, NumPy's
    float and bool, a long string, an object of its own), the rest rightly."""

    def act(self, msg: dict[str, Any]) -> int:
        import numpy as np

        i = super().act(msg)
        wrong: list[Any] = [2.0, "5", True, None, np.float32(1.5), np.bool_(False), "x" * 500, Move()]
        return wrong[self.acts - 1] if self.acts <= len(wrong) else i

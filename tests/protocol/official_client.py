"""A test client that behaves as the platform's official example client (``client1.py`` … ``client4.py``
of the 2020 competition), for the regression tests of ``guandan protocol-server``'s defaults.

What it does as that client does:

* it connects to ``ws://HOST:PORT/game/clientN`` — N is 1…4, one client per seat, started in order;
* it parses **every** message the way the example's ``State.parse`` does: each key of the message
  becomes an attribute, the handler is looked up by ``(stage, type)`` and a pair it does not know is
  an error (so any message outside the protocol, our ``error`` message included, breaks it);
* its handlers read the fields as the example's do: ``result`` entries unpacked as
  ``from, to, card``, ``restCards`` entries as ``pos, cards``, ``antiPos`` iterated, and ``gameResult``
  formatted into four-slot templates with ``*victoryNum`` and ``*draws`` (a number, or a list of
  another length, raises there, as it did for bots on our server before draws were per seat);
* it answers every message that carries an ``actionList`` with ``{"actIndex": i}``, ``i`` drawn from
  ``0…indexRange`` (the example's ``Action.parse``), here from a seeded generator.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any


class UnknownMessage(KeyError):
    """The example client's ``parse`` raises KeyError on a (stage, type) it has no handler for."""


class OfficialExampleState:
    """The example client's message parser (its ``State`` class), printing into ``lines``."""

    _stage: Any
    _type: Any

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.seen: list[tuple[str, str]] = []
        self._handlers: dict[tuple[str, str], Callable[[], None]] = {
            ("beginning", "notify"): self.notify_begin,
            ("play", "notify"): self.notify_play,
            ("tribute", "notify"): self.notify_tribute,
            ("anti-tribute", "notify"): self.notify_anti,
            ("back", "notify"): self.notify_back,
            ("gameOver", "notify"): self.notify_game_over,
            ("episodeOver", "notify"): self.notify_episode_over,
            ("gameResult", "notify"): self.notify_game_result,
            ("play", "act"): self.act,
            ("tribute", "act"): self.act,
            ("back", "act"): self.act,
        }

    def __getattr__(self, name: str) -> Any:
        # a field the handler reads but the message never carried: the example client reads None there
        # (its __init__ sets every field to None), and the format below would show it
        if name.startswith("_") and not name.startswith("__"):
            return None
        raise AttributeError(name)

    def parse(self, msg: Any) -> None:
        assert type(msg) is dict
        for key, value in msg.items():
            setattr(self, f"_{key}", value)
        handler = self._handlers.get((self._stage, self._type))
        if handler is None:
            raise UnknownMessage(f"no handler for stage {self._stage!r}, type {self._type!r}: {json.dumps(msg)[:200]}")
        self.seen.append((self._stage, self._type))
        handler()
        self._stage = None
        self._type = None

    def say(self, template: str, *values: Any) -> None:
        self.lines.append(template.format(*values))

    def notify_begin(self) -> None:
        self.say("游戏开始, 我是{}号位，手牌：{}", self._myPos, self._handCards)

    def notify_play(self) -> None:
        self.say("{}号位打出{}， 最大动作为{}号位打出的{}", self._curPos, self._curAction, self._greaterPos, self._greaterAction)

    def notify_tribute(self) -> None:
        for tribute_result in self._result:
            tribute_pos, receive_pos, card = tribute_result
            self.say("{}号位向{}号位进贡{}", tribute_pos, receive_pos, card)

    def notify_anti(self) -> None:
        for pos in self._antiPos:
            self.say("{}号位玩家抗贡", pos)

    def notify_back(self) -> None:
        for back_result in self._result:
            back_pos, receive_pos, card = back_result
            self.say("{}号位向{}号位还贡{}", back_pos, receive_pos, card)

    def notify_episode_over(self) -> None:
        self.say("对局结束，完牌次序为{}，结束时所打的等级为{}", self._order, self._curRank)
        for rest in self._restCards:
            rest_pos, rest_cards = rest
            self.say("{}号位剩余卡牌{}", rest_pos, rest_cards)

    def notify_game_over(self) -> None:
        self.say("当前训练次数为{}, 设定的游戏次数为{}", self._curTimes, self._settingTimes)

    def notify_game_result(self) -> None:
        self.say("达到设定场次, 其中0号位胜利{}次，1号位胜利{}次，2号位胜利{}次，3号位胜利{}次", *self._victoryNum)
        self.say("其中平局次数：0号位平局{}次，1号位平局{}次，2号位平局{}次，3号位平局{}次", *self._draws)

    def act(self) -> None:
        self.say("我方等级：{}， 对方等级：{}， 当前等级{}", self._selfRank, self._oppoRank, self._curRank)
        self.say("当前动作为{}号-动作{}， 最大动作为{}号-动作{}", self._curPos, self._curAction, self._greaterPos,
                 self._greaterAction)


class OfficialExampleClient:
    """The example client's ``received_message``: parse, then answer when there is an ``actionList``."""

    def __init__(self, n: int, seed: int = 0) -> None:
        self.n = n  # 1…4: connects to /game/client{n}
        self.state = OfficialExampleState()
        self.rng = random.Random(seed)
        self.acts = 0

    @property
    def path(self) -> str:
        return f"/game/client{self.n}"

    def received_message(self, message: str | bytes) -> str | None:
        msg = json.loads(message if isinstance(message, str) else message.decode("utf-8"))
        self.state.parse(msg)
        if "actionList" in msg:
            self.acts += 1
            act_range = msg["indexRange"]
            index = self.rng.randint(0, act_range)  # Action.parse: randint(0, indexRange)
            assert 0 <= index < len(msg["actionList"])
            return json.dumps({"actIndex": index})
        return None

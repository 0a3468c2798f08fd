"""Bot hosting: load ``module:Class`` and call its ``received_message(str)``, in this process or in a
child process of its own (many bots ship top-level modules named ``state`` or ``action``, so two of
them cannot share one interpreter).

A child answers every message with ``("ok", int | NotAnIndex)`` (``None`` once loaded) or ``("err",
traceback)``; the parent waits at most ``timeout`` seconds per message, so a hung bot costs one timeout,
never the arena.
"""

from __future__ import annotations

import importlib
import json
import multiprocessing
import numbers
import sys
import time
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from ..core.errors import N_, GuandanError

STARTUP_TIMEOUT = 60.0  # importing a bot (numpy, a model) may take far longer than one move
SENT_CHARS = 60  # of a wrong answer, as a failure line quotes it: a bot may answer with a whole message


class BotLoadError(GuandanError, ImportError):
    """A bot's own module or class that is not there, or a class that is no 2020-protocol bot: said in the
    reader's language wherever a person reads it."""


class BotFailure(Exception):
    """The bot raised, died or broke the interface; ``kind`` is "crash" or "timeout". ``problem`` is the
    catalogued error behind a bot that could not be loaded, where there is one."""

    def __init__(self, kind: str, detail: str, problem: GuandanError | None = None) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail
        self.problem = problem


def load_bot(module: str, cls: str, paths: list[str]) -> Any:
    """Import ``module`` (searching ``paths`` first) and return ``cls()``."""
    for p in reversed(paths):
        if p not in sys.path:
            sys.path.insert(0, p)
    try:
        found = importlib.import_module(module)
    except ModuleNotFoundError as e:  # the bot's own module, not one it imports: say where it was looked for
        if e.name is None or not (module == e.name or module.startswith(f"{e.name}.")):
            raise
        if paths:
            raise BotLoadError.said(N_("no module {module} in the bot folders ({folders}) or on Python's path"),
                                    module=e.name, folders=", ".join(paths)) from None
        raise BotLoadError.said(N_("no module {module} in the bot folders (none given) or on Python's path"),
                                module=e.name) from None
    obj = getattr(found, cls, None)
    if obj is None:
        raise BotLoadError.said(N_("module {module} has no {cls}"), module=module, cls=cls)
    bot = obj()
    if not callable(getattr(bot, "received_message", None)):
        raise BotLoadError.said(N_("{bot} has no received_message(message) method"), bot=f"{module}:{cls}")
    return bot


@dataclass(frozen=True)
class NotAnIndex:
    """A bot's answer that names no index: ``sent`` is what it answered, as :func:`quoted` writes it."""

    sent: str


def _plain(value: Any) -> Any:
    """NumPy's scalars and arrays as the numbers and lists they hold, for :func:`json.dumps`."""
    for method in ("item", "tolist"):
        if hasattr(value, "dtype") and callable(getattr(value, method, None)):
            return getattr(value, method)()
    raise TypeError(type(value).__name__)


def quoted(value: Any, limit: int = SENT_CHARS) -> str:
    """What a bot answered, as its author would write it: JSON (``2.0``, ``"5"``, ``true``, ``null``), or
    ``a Move object`` for what JSON cannot write; cut to ``limit`` characters, ending in ``…``."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=_plain)
    except (TypeError, ValueError, RecursionError):
        text = f"a {type(value).__name__} object"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _reply_value(value: Any) -> int | NotAnIndex:
    """A bot's answer as the index it names: an ``int`` or any integer type (NumPy's ``int64`` from an
    ``argmax``), never a bool nor a float; anything else is :class:`NotAnIndex`, saying what it was."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    return NotAnIndex(quoted(value))


class InlineBot:
    """A bot in this interpreter. A call cannot be interrupted, so an overlong one is discovered
    when it returns (and then counted as a timeout by the caller)."""

    def __init__(self, module: str, cls: str, paths: list[str], timeout: float) -> None:
        self.timeout = timeout
        try:
            self.bot = load_bot(module, cls, paths)
        except BotLoadError as e:
            raise BotFailure("crash", f"cannot load {module}:{cls}: {e}", e) from None
        except Exception as e:
            raise BotFailure("crash", f"cannot load {module}:{cls}: {type(e).__name__}: {e}") from None

    def call(self, text: str) -> int | NotAnIndex:
        t0 = time.perf_counter()
        try:
            value = self.bot.received_message(text)
        except Exception as e:
            raise BotFailure("crash", f"{type(e).__name__}: {e}") from None
        if time.perf_counter() - t0 > self.timeout:
            raise BotFailure("timeout", f"took more than {self.timeout:g} s")
        return _reply_value(value)

    def close(self) -> None:
        pass


def serve(conn: Connection, module: str, cls: str, paths: list[str]) -> None:
    """The child process: load the bot, then answer messages until the pipe closes."""
    try:
        bot = load_bot(module, cls, paths)
    except BotLoadError as e:  # its msgid and parameters (plain text): the parent says it in its reader's language
        conn.send(("said", (e.msgid, e.params)))
        return
    except BaseException:
        conn.send(("err", traceback.format_exc(limit=3)))
        return
    conn.send(("ok", None))
    while True:
        try:
            text = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(("ok", _reply_value(bot.received_message(text))))
        except Exception:
            conn.send(("err", traceback.format_exc(limit=3)))


class ProcessBot:
    """A bot in a child process of its own ("spawn": a fresh interpreter, nothing inherited)."""

    def __init__(self, module: str, cls: str, paths: list[str], timeout: float) -> None:
        self.timeout = timeout
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=serve, args=(child, module, cls, list(paths)), daemon=True,
                                name=f"guandan-bot-{module}:{cls}")
        self.proc.start()
        child.close()
        try:
            self._receive(STARTUP_TIMEOUT, f"loading {module}:{cls}")
        except BotFailure:
            self.close()
            raise

    def _receive(self, timeout: float, what: str) -> int | NotAnIndex | None:
        try:
            if not self.conn.poll(timeout):
                raise BotFailure("timeout", f"{what} took more than {timeout:g} s")
            kind, value = self.conn.recv()
        except (EOFError, OSError):
            self.proc.join(1)
            raise BotFailure("crash", f"the bot process exited (code {self.proc.exitcode}) while {what}") from None
        if kind == "said":
            msgid, params = value
            problem = BotLoadError.said(msgid, **params)
            raise BotFailure("crash", str(problem), problem)
        if kind == "err":
            raise BotFailure("crash", str(value).strip().splitlines()[-1] if value else "unknown error")
        return value if value is None or isinstance(value, NotAnIndex) else _reply_value(value)

    def call(self, text: str) -> int | NotAnIndex:
        try:
            self.conn.send(text)
        except (OSError, ValueError):
            raise BotFailure("crash", f"the bot process is gone (code {self.proc.exitcode})") from None
        reply = self._receive(self.timeout, "answering a message")
        return NotAnIndex(quoted(None)) if reply is None else reply

    def close(self) -> None:
        self.conn.close()
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)


__all__ = ["BotFailure", "BotLoadError", "InlineBot", "NotAnIndex", "ProcessBot", "load_bot", "quoted", "serve"]

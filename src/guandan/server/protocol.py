"""The one JSON message protocol (docs/web-protocol.md): every frame a client may send, as strict
pydantic models. A frame that does not parse is answered with an ``error`` frame naming the problem
and changes nothing.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

MAX_FRAME_BYTES = 8192


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Act(_Msg):
    """An action of the seat's own: 出牌 play, 不要 pass, 进贡 tribute, 还贡 return, or choose (头游 picks)."""

    type: Literal["act"]
    kind: Literal["play", "pass", "tribute", "return", "choose"]
    cards: list[Annotated[str, Field(min_length=2, max_length=3)]] = Field(default_factory=list, max_length=27)
    combo: dict[str, Any] | None = None
    seq: int | None = Field(default=None, ge=0)  # the sequence number the client acted on (stale-frame guard)


class Hint(_Msg):
    """提示: ask for the top suggestions for one's own turn."""

    type: Literal["hint"]
    k: int = Field(default=3, ge=1, le=10)


class Auto(_Msg):
    """托管: switch the bot takeover of one's own seat on or off."""

    type: Literal["auto"]
    on: bool


class Resume(_Msg):
    """Catch up after a reconnect: every update after ``since`` (or a fresh snapshot)."""

    type: Literal["resume"]
    since: int = Field(ge=0)


class Readings(_Msg):
    """The legal plays of exactly these cards (their readings that beat the top), for a view whose
    ``legal`` list was too long to send whole (``legal_complete`` false, e.g. 火拼 leads)."""

    type: Literal["readings"]
    cards: list[Annotated[str, Field(min_length=2, max_length=3)]] = Field(max_length=27)


class Ping(_Msg):
    type: Literal["ping"]


class Continue(_Msg):
    """继续: ready for the next deal, after the end of one."""

    type: Literal["continue"]


class Talk(_Msg):
    """Table talk: one of the fixed quick phrases or emotes (server/talk.py), never free text."""

    type: Literal["talk"]
    phrase: str = Field(min_length=1, max_length=32)


class Arrange(_Msg):
    """理牌: ask for one's own hand arranged into groups by the engine's decomposition."""

    type: Literal["arrange"]


ClientFrame = Act | Hint | Auto | Resume | Readings | Ping | Continue | Talk | Arrange
ClientMessage = Annotated[ClientFrame, Field(discriminator="type")]
_ADAPTER: TypeAdapter[ClientFrame] = TypeAdapter(ClientMessage)


class ProtocolError(Exception):
    """A frame that is not a valid client message; ``code`` is machine-readable, the text says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def parse_message(text: str | bytes) -> ClientFrame:
    # the limit is in bytes as sent (UTF-8): counting characters let 8,192 emoji (32 KiB) through
    if len(text) > MAX_FRAME_BYTES or (isinstance(text, str) and len(text.encode()) > MAX_FRAME_BYTES):
        raise ProtocolError("too_large", f"frames are limited to {MAX_FRAME_BYTES} bytes")
    try:
        return _ADAPTER.validate_json(text)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "frame"
        raise ProtocolError("bad_message", f"{where}: {first['msg']}") from None


def error_frame(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}

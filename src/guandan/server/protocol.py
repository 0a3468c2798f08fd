"""The one JSON message protocol (docs/web-protocol.md): every frame a client may send, as strict
pydantic models. A frame that does not parse is answered with an ``error`` frame naming the problem
and changes nothing.

Every refusal — an ``error`` frame here, a REST answer of the app — says why twice: ``message`` (or
``detail``) in English for programs and tests, and ``text``: the same for people, from the web catalogue
in every page language (:class:`Words`, :func:`say`). A bad frame or request body is told by the field it
names (:func:`invalid`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..core.errors import GuandanError
from ..i18n import N_, fill, translator, unprintable
from ..present import said
from .i18n_web import LANGS

MAX_FRAME_BYTES = 8192


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ComboSpec(_Msg):
    """The reading a play declares, as the views write a combo (the engine's ``Combo.to_dict``): its type
    and any of the fields that tell two readings of the same cards apart; no other field."""

    type: Annotated[str, Field(min_length=1, max_length=20)]
    key: Annotated[str, Field(min_length=1, max_length=6)] | None = None
    size: int | None = Field(default=None, ge=1, le=27)
    suit: Annotated[str, Field(min_length=1, max_length=1)] | None = None
    x: int | None = Field(default=None, ge=0, le=27)
    y: int | None = Field(default=None, ge=0, le=27)
    stars: int | None = Field(default=None, ge=0, le=27)

    def spec(self) -> dict[str, Any]:
        """The fields given, as the engine matches a reading against them."""
        return self.model_dump(exclude_none=True)


class Act(_Msg):
    """An action of the seat's own: 出牌 play, 不要 pass, 进贡 tribute, 还贡 return, or choose (头游 picks)."""

    type: Literal["act"]
    kind: Literal["play", "pass", "tribute", "return", "choose"]
    cards: list[Annotated[str, Field(min_length=2, max_length=3)]] = Field(default_factory=list, max_length=27)
    combo: ComboSpec | None = None
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


# --- what a refusal says to people ----------------------------------------------------------------
@dataclass(frozen=True)
class SeatNo:
    """A seat in a sentence: 0-based on the wire, counted from 1 wherever a person reads it."""

    seat: int


@dataclass(frozen=True)
class Words:
    """A sentence of the web catalogue and its named parameters, rendered in each page language when it is
    sent. A parameter is shown as it is (a room code, a count), a :class:`SeatNo` counted from 1, another
    Words in the same language (a field's name or the problem inside a sentence) or an engine error in the
    catalogue's words (guandan.present.said): no Python value is shown."""

    msgid: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def render(self, lang: str) -> str:
        return fill(translator("web", lang).gettext(self.msgid), **{k: _shown(v, lang) for k, v in self.params.items()})

    def texts(self) -> dict[str, str]:
        """The sentence in every page language: the ``text`` of a refusal."""
        return {lang: self.render(lang) for lang in LANGS}


Param = str | int | SeatNo | Words | GuandanError  # what a sentence's parameter may be (Words._shown)


def say(msgid: str, **params: Param) -> Words:
    return Words(msgid, params)


def _shown(value: Param, lang: str) -> str:
    if isinstance(value, SeatNo):
        return str(value.seat + 1)
    if isinstance(value, Words):
        return value.render(lang)
    if isinstance(value, GuandanError):  # the engine's words for what it refused (a move, a record's bad action)
        value = said(value, lang, "web")  # the server's own msgids (wire.py) are in web, the core's in cli
    # what a sentence never shows of a value it quotes (a name, a code from an address): such characters
    # would break its line or turn the direction of the text after them
    return "".join("\ufffd" if unprintable(c) else c for c in str(value))


def error_frame(code: str, message: str, words: Words) -> dict[str, Any]:
    """A refused frame: the machine-readable ``code``, the English ``message`` and ``text`` for people."""
    return {"type": "error", "code": code, "message": message, "text": words.texts()}


# --- a frame or request body that does not validate, told by the field it names --------------------
# the fields a person can get wrong from our pages (the lobby's create and join forms) and those of the
# frames the table sends; a field of no model here (only a hostile client sends one) keeps its wire name
FIELD_NAMES: dict[str, str] = {
    "timer": N_("turn timer"), "first_timer": N_("first-play timer"), "next_deal_s": N_("pause after a deal"),
    "max_deals": N_("number of deals"), "seed": N_("seed"), "name": N_("name"), "seat": N_("seat"),
    "preset": N_("rule preset"), "rules": N_("rules"), "bots": N_("bots"), "tier": N_("bot strength"),
    "counter": N_("card counter"), "listed": N_("listing in the lobby"), "bot_delay_ms": N_("bot delay"),
    "token": N_("seat token"), "tokens": N_("tokens"), "public": N_("visibility"), "ready": N_("ready"),
    "type": N_("message type"), "kind": N_("action kind"), "cards": N_("cards"), "combo": N_("combination"),
    "seq": N_("sequence number"), "since": N_("sequence number"), "k": N_("number of hints"),
    "on": N_("auto-play switch"), "phrase": N_("phrase"),
    "rated": N_("rated play"), "page": N_("page"), "watch": N_("start to watch"),
}
# pydantic's error types (https://docs.pydantic.dev/latest/errors/validation_errors/) as the problem of a
# field, each with the bound it names (from the error's context) as {limit}
PROBLEMS: dict[str, tuple[str, str | None]] = {
    "greater_than_equal": (N_("it must be at least {limit}"), "ge"),
    "less_than_equal": (N_("it must be at most {limit}"), "le"),
    "greater_than": (N_("it must be more than {limit}"), "gt"),
    "less_than": (N_("it must be less than {limit}"), "lt"),
    "string_too_long": (N_("it must be at most {limit} characters long"), "max_length"),
    "string_too_short": (N_("it must be at least {limit} characters long"), "min_length"),
    "too_long": (N_("it must have at most {limit} entries"), "max_length"),
    "too_short": (N_("it must have at least {limit} entries"), "min_length"),
    "int_type": (N_("it must be a whole number"), None), "int_parsing": (N_("it must be a whole number"), None),
    "int_from_float": (N_("it must be a whole number"), None),
    "float_type": (N_("it must be a number"), None), "float_parsing": (N_("it must be a number"), None),
    "bool_type": (N_("it must be true or false"), None), "bool_parsing": (N_("it must be true or false"), None),
    "string_type": (N_("it must be text"), None), "list_type": (N_("it must be a list"), None),
    "literal_error": (N_("it must be one of the values this field takes"), None),
    "union_tag_invalid": (N_("it must be one of the values this field takes"), None),
    # JSON may escape half of a surrogate pair ("\ud800"), which is no character (server/bodies.py)
    "lone_surrogate": (N_("it holds a broken character (half of a surrogate pair)"), None),
}
RANGE = frozenset({"greater_than_equal", "less_than_equal", "greater_than", "less_than"})
WHERE = frozenset({"body", "query", "path", "header", "cookie"})  # FastAPI's first part of a REST error's place


def invalid(errors: Sequence[Mapping[str, Any]]) -> Words:
    """What a person is told of a frame or request body that does not validate: its first error, as the
    field it names (in the page's language where the field is one of ours) and the problem, from the
    catalogue; pydantic's English stays in ``message``/``detail`` for programs."""
    first = errors[0] if errors else {}
    kind = str(first.get("type", ""))
    if kind == "json_invalid":
        return say(N_("This request could not be read: it is not valid JSON."))
    # the most particular field named: past a list's index, past the tag of a frame type (WS) or "body" (REST)
    names = [str(x) for x in first.get("loc", ()) if isinstance(x, str) and x not in WHERE]
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        names = ["type"]  # the discriminator: what kind of frame it is
    if not names:
        return say(N_("This request is not in a form the server understands."))
    name = names[-1]
    value = first.get("input")
    if name == "seat" and kind in RANGE and isinstance(value, int):  # a 0-based seat: its bounds (0…3) are not the page's
        return say(N_("There is no seat {seat}: a table has seats 1 to 4."), seat=SeatNo(value))
    shown: Param = say(FIELD_NAMES[name]) if name in FIELD_NAMES else name
    if kind in ("missing", "union_tag_not_found"):
        return say(N_("The field “{field}” is missing."), field=shown)
    if kind == "extra_forbidden":
        return say(N_("The field “{field}” is not one this request takes."), field=shown)
    problem = PROBLEMS.get(kind)
    if problem is None:
        return say(N_("The field “{field}” is not valid."), field=shown)
    msgid, bound = problem
    ctx = first.get("ctx") or {}
    limit = ctx.get(bound) if bound is not None else None
    if bound is not None and not isinstance(limit, (int, float)):
        return say(N_("The field “{field}” is not valid."), field=shown)
    params: dict[str, Param] = {} if limit is None else {"limit": _number(limit)}
    return say(N_("The field “{field}” is not valid: {problem}."), field=shown, problem=Words(msgid, params))


def _number(x: int | float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


class ProtocolError(Exception):
    """A frame that is not a valid client message; ``code`` is machine-readable, the message says why in
    English, ``words`` for people."""

    def __init__(self, code: str, message: str, words: Words) -> None:
        super().__init__(message)
        self.code = code
        self.words = words

    def frame(self) -> dict[str, Any]:
        return error_frame(self.code, str(self), self.words)


def parse_message(text: str | bytes) -> ClientFrame:
    # the limit is in bytes as sent (UTF-8): counting characters let 8,192 emoji (32 KiB) through
    if len(text) > MAX_FRAME_BYTES or (isinstance(text, str) and len(text.encode()) > MAX_FRAME_BYTES):
        raise ProtocolError("too_large", f"frames are limited to {MAX_FRAME_BYTES} bytes",
                            say(N_("A message to the table may be at most {n} bytes long."), n=MAX_FRAME_BYTES))
    try:
        return _ADAPTER.validate_json(text)
    except ValidationError as e:
        errors = e.errors()
        first = errors[0]
        where = ".".join(str(x) for x in first["loc"]) or "frame"
        raise ProtocolError("bad_message", f"{where}: {first['msg']}", invalid(errors)) from None

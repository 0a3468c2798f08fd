"""A JSON Schema (draft 2020-12) of every message of PROTOCOL-2020.md, server→client and back.

It is the conformance test bot's contract (tests/protocol) and documentation for bot authors; the
package itself never needs a validator at run time.
"""

from __future__ import annotations

from typing import Any

from ..core.vocab import RANKS

_PROTOCOL_RANKS = ["A", *RANKS[:-1]]  # the protocol lists the ace first
_RANK = {"enum": _PROTOCOL_RANKS}
_CARD = {"type": "string", "pattern": "^([SHCD][A2-9TJQK]|SB|HR)$"}
_CARDS = {"type": "array", "items": _CARD}
_SEAT = {"type": "integer", "minimum": 0, "maximum": 3}
_POS = {"type": "integer", "minimum": -1, "maximum": 3}

_PLAY_TYPES = ["Single", "Pair", "Trips", "ThreePair", "ThreeWithTwo", "TwoTrips", "Straight", "StraightFlush", "Bomb"]
_PASS = {"type": "array", "prefixItems": [{"const": "PASS"}] * 3, "minItems": 3, "maxItems": 3}
_PLAY = {
    "type": "array",
    "prefixItems": [{"enum": _PLAY_TYPES}, {"enum": [*_PROTOCOL_RANKS, "B", "R", "JOKER"]},
                    {**_CARDS, "minItems": 1, "maxItems": 10}],
    "minItems": 3,
    "maxItems": 3,
}


def _single_card(word: str) -> dict[str, Any]:
    return {"type": "array", "prefixItems": [{"const": word}, {"const": word}, {**_CARDS, "minItems": 1, "maxItems": 1}],
            "minItems": 3, "maxItems": 3}


_ACTION = {"oneOf": [_PASS, _PLAY]}
_ACTION_OR_NULL = {"oneOf": [_PASS, _PLAY, {"type": "null"}]}
_RESULT = {"type": "array", "minItems": 1, "maxItems": 2,
           "items": {"type": "array", "prefixItems": [_SEAT, _SEAT, _CARD], "minItems": 3, "maxItems": 3}}
_RANKS = {"curRank": _RANK, "selfRank": _RANK, "oppoRank": _RANK}
_PER_SEAT_COUNTS = {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 4, "maxItems": 4}


def _msg(type_: str, stage: str, props: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"type": {"const": type_}, "stage": {"const": stage}, **props},
        "required": ["type", "stage", *props],
    }


def _act(stage: str, action: dict[str, Any]) -> dict[str, Any]:
    return _msg("act", stage, {
        "handCards": _CARDS,
        "publicInfo": {"type": "array", "minItems": 4, "maxItems": 4, "items": {
            "type": "object", "required": ["rest", "playArea"],
            "properties": {"rest": {"type": "integer", "minimum": 0, "maximum": 28}, "playArea": _ACTION_OR_NULL}}},
        **_RANKS,
        "curPos": _POS, "curAction": _ACTION_OR_NULL, "greaterPos": _POS, "greaterAction": _ACTION_OR_NULL,
        "actionList": {"type": "array", "minItems": 1, "items": action},
        "indexRange": {"type": "integer", "minimum": 0},
    })


SERVER_MESSAGE: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "2020 Guandan competition protocol: server to client",
    "oneOf": [
        _msg("notify", "beginning", {"handCards": {**_CARDS, "minItems": 27, "maxItems": 27}, "myPos": _SEAT, **_RANKS}),
        _msg("notify", "play", {"curPos": _SEAT, "curAction": _ACTION, "greaterPos": _SEAT, "greaterAction": _PLAY}),
        _msg("notify", "tribute", {"result": _RESULT}),
        _msg("notify", "anti-tribute", {"antiNums": {"enum": [1, 2]},
                                        "antiPos": {"type": "array", "items": _SEAT, "minItems": 1, "maxItems": 2}}),
        _msg("notify", "back", {"result": _RESULT}),
        _msg("notify", "episodeOver", {
            "order": {"type": "array", "items": _SEAT, "minItems": 4, "maxItems": 4, "uniqueItems": True},
            "curRank": _RANK,
            "restCards": {"type": "array", "minItems": 1, "maxItems": 2, "items": {
                "type": "array", "prefixItems": [_SEAT, {**_CARDS, "minItems": 1}], "minItems": 2, "maxItems": 2}}}),
        _msg("notify", "gameOver", {"curTimes": {"type": "integer", "minimum": 1},
                                    "settingTimes": {"type": "integer", "minimum": 1}}),
        _msg("notify", "gameResult", {"victoryNum": _PER_SEAT_COUNTS, "draws": _PER_SEAT_COUNTS}),
        _act("play", _ACTION),
        _act("tribute", _single_card("tribute")),
        _act("back", _single_card("back")),
    ],
}

CLIENT_MESSAGE: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "2020 Guandan competition protocol: client to server",
    "type": "object",
    "properties": {"actIndex": {"type": "integer", "minimum": 0}},
    "required": ["actIndex"],
}

__all__ = ["CLIENT_MESSAGE", "SERVER_MESSAGE"]

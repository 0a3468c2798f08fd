"""The wire contract as JSON Schema (draft 2020-12): cards, combos, actions, every event type, a
seat's view and the public (spectator) view — exactly the shapes ``Event.to_json`` and the web
server's views produce. ``guandan schema`` prints it; the tests validate real frames against it.

The browser's vocabulary file (``server/static/vocab.js``) is generated from the same core enums and
the presentation layer's catalogue by :func:`browser_vocabulary`; a test fails when it is stale.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from .cliutil import Messages, fail, reason_words
from .core.cards import level_order
from .core.events import EVENT_CLASSES
from .core.vocab import RANKS, SUITS, VOCABULARY, ActionKind, ComboKey, ComboType, EventType, Phase, SettlementNote
from .i18n import LANGUAGES
from .present import _RANKS_PER_CARD, COMBO_NAMES, PLACE_NAMES, RESULT_NAMES, SEQUENCES, SUIT_SYMBOLS, Presenter

JSON = dict[str, Any]
SCHEMA_ID = "urn:guandan:schema:wire"


def _enum(values: list[str]) -> JSON:
    return {"type": "string", "enum": values}


def _ref(name: str) -> JSON:
    return {"$ref": f"#/$defs/{name}"}


def _array(item: JSON, n: int | None = None) -> JSON:
    out: JSON = {"type": "array", "items": item}
    if n is not None:
        out["minItems"] = out["maxItems"] = n
    return out


SEAT: JSON = {"type": "integer", "minimum": 0, "maximum": 3}
TEAM: JSON = {"type": "integer", "minimum": 0, "maximum": 1}


def NULLABLE(schema: JSON) -> JSON:
    return {"anyOf": [schema, {"type": "null"}]}


INT: JSON = {"type": "integer"}


def _obj(props: JSON, required: list[str] | None = None, extra: bool = False) -> JSON:
    return {"type": "object", "properties": props, "required": list(props) if required is None else required,
            "additionalProperties": extra}


def _event_fields() -> dict[EventType, JSON]:
    seat = _ref("Seat")
    levels = _array(_ref("Level"), 2)
    transfers = _array(_obj({"giver": seat, "receiver": seat, "card": _ref("Card")}))
    return {
        EventType.DEAL_START: {"index": {"type": "integer", "minimum": 0}, "level": _ref("Level"),
                               "declarer": NULLABLE(_ref("Team")), "levels": levels},
        EventType.FIRST_LEAD: {"seat": seat, "flipped": NULLABLE(_ref("Card"))},
        EventType.ANTI_TRIBUTE: {"seats": _array(seat)},
        EventType.TRIBUTE_PAID: {"payers": _array(seat)},
        EventType.TRIBUTE: {"transfers": transfers},
        EventType.RETURN: {"transfers": transfers},
        EventType.LEAD: {"seat": seat},
        EventType.PLAY: {"seat": seat, "cards": _array(_ref("Card")), "combo": _ref("Combo"),
                         # the web server's: how the play is shown (guandan.present.order.play_order)
                         "order": {**_array(_ref("Card")), "description": "the cards in the order the combination "
                                   "reads, each wildcard in the place of the card it stands for"},
                         "wild": {**_array({"type": "integer", "minimum": 0}),
                                  "description": "the places in order (from 0) of the wildcards (逢人配)"}},
        EventType.PASS: {"seat": seat},
        EventType.REPORT: {"seat": seat, "count": {"type": "integer", "minimum": 0, "maximum": 27}},
        EventType.OUT: {"seat": seat, "place": {"type": "integer", "minimum": 1, "maximum": 4}},
        EventType.ROUND_WON: {"seat": seat, "leader": seat, "jiefeng": {"type": "boolean"}},
        EventType.DEAL_OVER: {"finish": _array(seat)},
        EventType.DEAL_SETTLED: {
            "finish": _array(seat), "levels": levels, "next_declarer": _ref("Team"), "upgrade": INT,
            "partner_place": {"type": "integer", "minimum": 2, "maximum": 4}, "notes": _array(_ref("Note")),
            "points": _array(INT, 4), "base": _array(INT, 4), "multiplier": {"type": "integer", "minimum": 1}},
        EventType.MATCH_OVER: {"winner": NULLABLE(_ref("Team")), "levels": levels, "deals": INT,
                               "points": _array(INT, 4)},
    }


def _event_schema(kind: EventType, fields: JSON) -> JSON:
    props: JSON = {"type": {"const": kind.value}, **fields,
                   "text": {"type": "object", "description": "what the event says for people, per language",
                            "properties": {lang: _array({"type": "string"}) for lang in LANGUAGES},
                            "required": list(LANGUAGES), "additionalProperties": False}}
    optional = {EventType.DEAL_SETTLED: {"points", "base", "multiplier"},  # 火拼 scoring only
                EventType.PLAY: {"order", "wild"}}.get(kind, set())  # the web server's, not the record's
    required = ["type", *(k for k in fields if k not in optional)]
    return {**_obj(props, required), "description": (EVENT_CLASSES[kind].__doc__ or "").split("\n")[0]}


def _public_view_props() -> JSON:
    return {
        "phase": _ref("Phase"),
        "to_move": NULLABLE(_ref("Seat")),
        "level": _ref("Level"),
        "reported": {"type": "object", "description": "cards left, for the seats that have reported (报牌)",
                     "patternProperties": {"^[0-3]$": {"type": "integer", "minimum": 0}}, "additionalProperties": False},
        "played_counts": _array(INT, 4),
        "top": NULLABLE(_obj({"seat": _ref("Seat"), "cards": _array(_ref("Card")), "combo": _ref("Combo")})),
        "finish": _array(_ref("Seat")),
        "prev_finish": NULLABLE(_array(_ref("Seat"), 4)),
        "tribute_payers": {**_array(_ref("Seat")), "description": "the seats paying tribute (进贡) in the tribute phase"},
        "first_leader": NULLABLE(_ref("Seat")),
        "deal_index": {"type": "integer", "minimum": 0},
        "levels": _array(_ref("Level"), 2),
        "declarer": NULLABLE(_ref("Team")),
        "a_failures": _array(INT, 2),
        "points": _array(INT, 4),
        "winner": NULLABLE(_ref("Team")),
        "ended": {"type": "boolean"},
        "commitment": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                       "description": "the deal's commitment: SHA-256 (hex) of guandan:{seed}:{index}, shown "
                                      "before the deal is played; the seed is revealed in the replay"},
        "events": _array(_ref("Event")),
    }


def wire_schema() -> JSON:
    """The whole contract: ``$defs`` for every shape; the document itself accepts any one of
    Action, Event, SeatView or PublicView."""
    public = _public_view_props()
    required = [k for k in public if k != "events"]
    seat_props = {**public, "seat": _ref("Seat"), "hand": _array(_ref("Card")), "legal": _array(_ref("Action")),
                  "legal_complete": {"type": "boolean"}, "can_play": {"type": "boolean"}}
    fields = _event_fields()
    defs: JSON = {
        "Seat": {**SEAT, "description": "a seat, 0…3 in play order; seats 0 and 2, 1 and 3 are partners"},
        "Team": {**TEAM, "description": "a team: 0 (seats 0 and 2) or 1 (seats 1 and 3)"},
        "Level": {**_enum(list(RANKS)), "description": "a level or rank, 2…A; T is 10"},
        "Card": {"type": "string", "pattern": f"^([{SUITS}][{RANKS}]|LJ|BJ)$",
                 "description": "a card in rules notation: suit S H C D and rank 2…9 T J Q K A; LJ/BJ jokers"},
        "Phase": _enum([m.value for m in Phase]),
        "ActionKind": _enum([m.value for m in ActionKind]),
        "EventType": _enum([m.value for m in EventType]),
        "ComboType": _enum([m.value for m in ComboType]),
        "SettlementNote": _enum([m.value for m in SettlementNote]),
        "Combo": _obj({"type": _ref("ComboType"),
                       "key": _enum([*RANKS, *(k.value for k in ComboKey)]),
                       "size": {"type": "integer", "minimum": 1},
                       "suit": _enum(list(SUITS)), "x": INT, "y": INT, "stars": INT},
                      ["type", "key", "size"]),
        "Action": _obj({"kind": _ref("ActionKind"), "seat": _ref("Seat"), "cards": _array(_ref("Card")),
                        "combo": _ref("Combo")}, ["kind", "seat", "cards"]),
        "Note": _obj({"kind": _ref("SettlementNote"), "team": _ref("Team"), "amount": INT, "streak": INT,
                      "level": _ref("Level")}, ["kind"]),
        "Event": {"oneOf": [_ref(f"Event.{k.value}") for k in EventType]},
        **{f"Event.{k.value}": _event_schema(k, fields[k]) for k in EventType},
        "PublicView": {**_obj(public, required), "description": "what a spectator sees (公开信息)"},
        "SeatView": {**_obj(seat_props, [*required, "seat", "hand", "legal", "legal_complete", "can_play"]),
                     "description": "what one seat sees: the public view, its hand and its legal actions"},
    }
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID,
            "title": "guandan wire contract", "$defs": defs,
            "anyOf": [_ref("Action"), _ref("Event"), _ref("SeatView"), _ref("PublicView")]}


def browser_vocabulary() -> str:
    """The ES module the browser imports its vocabulary from (``server/static/vocab.js``)."""
    names: JSON = {}
    for lang in LANGUAGES:
        p = Presenter(lang)
        _ = p.tr.gettext
        names[lang] = {
            "combo": {t.value: _(COMBO_NAMES[t]) for t in ComboType},
            "place": {str(k): _(v) for k, v in PLACE_NAMES.items()},
            "result": {str(k): _(v) for k, v in RESULT_NAMES.items()},
            "joker": {ComboKey.SMALL_JOKER.value: _("Small Joker"), ComboKey.BIG_JOKER.value: _("Big Joker")},
        }
    data: dict[str, Any] = {
        "RANKS": list(RANKS),
        "SUITS": list(SUITS),
        "SUIT_SYMBOLS": SUIT_SYMBOLS,
        **{name.upper(): {m.name: m.value for m in enum} for name, enum in (
            ("phase", Phase), ("action_kind", ActionKind), ("event_type", EventType), ("combo_type", ComboType))},
        # the single-card order at each level, lowest first: 2…A with the level rank above A, then the jokers
        "RANK_ORDER": {RANKS[lv]: list(reversed(level_order(lv))) for lv in range(13)},
        "SEQUENCES": sorted(t.value for t in SEQUENCES),
        "RANKS_PER_CARD": {t.value: n for t, n in sorted(_RANKS_PER_CARD.items())},
        "NAMES": names,
    }
    lines = ["// Generated from guandan.core.vocab and guandan.present by `guandan schema --browser`: do not edit.",
             "// The browser's vocabulary: ranks, suits, phases, action kinds, event and combo types, the card order,",
             "// and the names people read, in every language of the catalogue."]
    lines += [f"export const {k} = {json.dumps(v, ensure_ascii=False, sort_keys=True)};" for k, v in data.items()]
    return "\n".join(lines) + "\n"


def vocabulary_json() -> JSON:
    """Every enumerated vocabulary (what ``guandan schema --vocabulary`` prints)."""
    return {name: [m.value for m in enum] for name, enum in VOCABULARY.items()}


def schema_cmd(
    browser: Annotated[Path | None, typer.Option(
        help="write the browser's vocabulary module (server/static/vocab.js) to this path instead")] = None,
    vocabulary: Annotated[bool, typer.Option("--vocabulary", help="print only the enumerated vocabularies")] = False,
) -> None:
    """Print the wire contract as JSON Schema: observations (seat and public), actions and events."""
    if browser is not None:
        try:
            browser.write_text(browser_vocabulary(), encoding="utf-8")
        except OSError as e:
            fail(Messages("game").gettext("cannot write {path}: {reason}").format(path=browser, reason=reason_words(e)))
        return
    typer.echo(json.dumps(vocabulary_json() if vocabulary else wire_schema(), ensure_ascii=False, indent=1))

"""The wire contract: `guandan schema` prints a valid JSON Schema, every view, action and event the
server builds conforms to it, the spectator view holds public information only, and the browser's
vocabulary file is what the core generates."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from guandan.cli import _mount, app
from guandan.core import preset
from guandan.core.combos import resolve_combo
from guandan.core.events import Reported, event_from_json
from guandan.core.match import MatchConfig, new_match
from guandan.core.vocab import VOCABULARY, EventType
from guandan.schema import browser_vocabulary, wire_schema
from guandan.server.wire import action_json, event_json, public_view, seat_view, texts_for
from wire_schema import check

VOCAB_JS = Path(__file__).resolve().parents[1] / "src" / "guandan" / "server" / "static" / "vocab.js"


def test_schema_command_prints_a_valid_json_schema() -> None:
    _mount()
    result = CliRunner().invoke(app, ["schema"])
    assert result.exit_code == 0, result.output
    schema = json.loads(result.output)
    Draft202012Validator.check_schema(schema)
    defs = schema["$defs"]
    assert {"SeatView", "PublicView", "Action", "Event", "Combo", "Card"} <= set(defs)
    assert {f"Event.{t.value}" for t in EventType} <= set(defs)
    vocab = json.loads(CliRunner().invoke(app, ["schema", "--vocabulary"]).output)
    assert set(vocab) == set(VOCABULARY) and vocab["ComboType"][0] == "single"


def test_the_browser_vocabulary_file_is_generated_from_the_core() -> None:
    assert VOCAB_JS.read_text(encoding="utf-8") == browser_vocabulary(), (
        "server/static/vocab.js is stale: run `guandan schema --browser src/guandan/server/static/vocab.js`")


@pytest.mark.parametrize("name", ["competition", "huaian-traditional", "huopin"])
def test_every_view_action_and_event_conforms_and_reads_back(name: str) -> None:
    rules = preset(name)
    match = new_match(rules, 5, MatchConfig(max_deals=2, move_mode="canonical"))
    rng = random.Random(5)
    texts = texts_for(["Ann", "", "", ""])
    reported: set[int] = set()
    steps = 0
    while not match.ended:
        assert match.deal is not None
        level = match.deal.level
        full = steps % 40 == 0  # the whole event list now and then: checking it every step is quadratic
        spectator = public_view(match.public_view(), with_events=full, texts=texts)
        check("PublicView", spectator)
        # only what the rules make public: counts of the seats that have reported, no hand, no legal list
        assert set(spectator) | {"events"} == set(wire_schema()["$defs"]["PublicView"]["properties"])
        reported = {e.player for e in match.deal.events if isinstance(e, Reported)}
        assert {int(s) for s in spectator["reported"]} == reported
        for seat in range(4):
            view = seat_view(match.observation(seat), with_events=False)
            check("SeatView", view)
            public_part = {k: v for k, v in view.items() if k in spectator}
            assert public_part == {k: v for k, v in spectator.items() if k != "events"}
        legal = match.legal_actions()
        for a in legal[:5]:
            check("Action", action_json(a))
        events = match.apply(rng.choice(legal))
        for e in events:
            d = event_json(e, texts)
            check("Event", d)
            assert d["text"]["zh"] and d["text"]["en"]
            back = event_from_json(json.loads(json.dumps(d)),
                                   lambda cards, spec, lv=level: resolve_combo(cards, lv, rules, spec))
            assert back == e
        steps += 1
    assert steps > 50

"""The rules-vector runner: the shared vectors all pass, and no vector — a trick on a deal that is
already over, a missing or mistyped field, a line that is no JSON — ever stops the run or
``guandan vectors`` with a traceback: each gets its own clear outcome."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from guandan.cli import _mount, app
from guandan.vectors import CANNOT, Outcome, Unreadable, format_report, load_vectors, run_vectors

ENGINE_KINDS = {
    "classify", "compare", "return_eligible", "level_order", "report", "deal", "first_lead_flip",
    "tribute", "trick", "deal_result", "huopin_score",
}


def test_every_engine_vector_passes(vectors_path: Path) -> None:
    report = run_vectors(load_vectors(vectors_path))
    assert not report.failed, format_report(report)
    covered = {o.kind for o in report.outcomes}
    assert covered >= ENGINE_KINDS, f"kinds not run: {ENGINE_KINDS - covered}"
    assert report.passed >= 162


def _one(vector: dict[str, Any]) -> Outcome:
    report = run_vectors([vector])
    (outcome,) = report.outcomes
    return outcome


def _trick(already_out: list[int], actions: list[dict[str, Any]], expect: Any = None) -> dict[str, Any]:
    return {"id": "T", "kind": "trick", "preset": "competition", "already_out": already_out, "actions": actions,
            "expect": expect if expect is not None else {}}


# --- the trick vector with no actions (the reported crash) ---------------------------------------
@pytest.mark.parametrize(("already_out", "finish"), [
    ([0, 2], [0, 2, 3, 1]),  # 双上: the deal ended at once; 3rd/4th by turn order after the 2nd finisher
    ([1, 3], [1, 3, 0, 2]),
    ([0, 1, 2], [0, 1, 2, 3]),  # three out
    ([3, 0, 1], [3, 0, 1, 2]),
])
def test_an_empty_trick_on_a_finished_deal_is_evaluated(already_out: list[int], finish: list[int]) -> None:
    o = _one(_trick(already_out, [], {"deal_over": True, "finish": finish}))
    assert o.ok and o.actual == {"deal_over": True, "finish": finish}, o


def test_an_empty_trick_on_a_live_deal_cannot_be_evaluated() -> None:
    for out in ([], [0], [0, 1]):
        o = _one(_trick(out, [], {"next_leader": 1}))
        assert not o.ok and o.error is not None and o.error.startswith(CANNOT) and "'actions' is empty" in o.error


def test_trick_actions_after_a_finished_deal_are_illegal_and_impossible_orders_are_named() -> None:
    o = _one(_trick([0, 2], [{"seat": 1, "act": "play"}], {"illegal": True}))
    assert o.ok, o
    o = _one(_trick([0, 2, 1], [], {"deal_over": True}))
    assert not o.ok and o.error is not None and "'already_out'" in o.error and "over after [0, 2]" in o.error
    o = _one(_trick([0, 0], [], {}))
    assert o.error is not None and "twice" in o.error
    o = _one(_trick([], [{"seat": 0, "act": "pass", "goes_out": True}], {}))
    assert o.error is not None and "'actions[0]'" in o.error and "cannot go out" in o.error


def test_cli_reports_the_empty_trick_without_a_traceback(tmp_path: Path) -> None:
    _mount()
    path = tmp_path / "v.jsonl"
    lines = [_trick([0, 2], [], {"deal_over": True}) | {"id": "OVER"},
             _trick([0], [], {"next_leader": 2}) | {"id": "LIVE"}]
    path.write_text("\n".join(json.dumps(v) for v in lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["vectors", str(path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    assert "FAIL LIVE (trick)\n  cannot evaluate: field 'actions' is empty" in result.output
    assert "FAIL OVER" not in result.output and result.output.rstrip().endswith("1 passed, 1 failed")


# --- fuzzing: every kind, missing and mistyped fields ---------------------------------------------
# one vector of every kind the runner covers (from ../shared/rules-vectors.jsonl), and for the
# engine's kinds the fields the checker reads: field -> (required, the JSON types it accepts)
SAMPLES: list[dict[str, Any]] = [
    {"id": "CLS-001", "kind": "classify", "preset": "competition", "level": "2", "cards": "S3 H3 C3 D4 D4",
     "expect": [{"type": "full_house", "key": "3", "size": 5}]},
    {"id": "CMP-044", "kind": "compare", "preset": "competition", "level": "9",
     "a": {"cards": "SK DK CK H9 H9", "as": {"type": "full_house", "key": "K", "size": 5}},
     "b": {"cards": "SA DA CA HA"}, "expect": False},
    {"id": "TRB-002", "kind": "tribute", "preset": "competition", "level": "3", "prev_finish": [0, 1, 3, 2],
     "hands": {"2": "H3 S3 SA DK"},
     "expect": {"anti_tribute": False, "payments": [{"from": 2, "to": 0, "rank": "3", "eligible": "S3"}], "first_leader": 2}},
    {"id": "RET-001", "kind": "return_eligible", "preset": "competition", "level": "T", "hand": "S2 D9 ST HT SJ SA LJ",
     "expect": "S2 D9"},
    {"id": "DLR-001", "kind": "deal_result", "preset": "competition", "levels_before": {"0": "2", "1": "2"}, "declarer": None,
     "finish": [0, 2, 1, 3], "a_failures_before": {"0": 0, "1": 0}, "streaks_before": {"first": {}, "last": {}},
     "expect": {"levels_after": {"0": "5", "1": "2"}, "next_level": "5", "next_declarer": 0, "match_winner": None}},
    {"id": "TRK-006", "kind": "trick", "preset": "competition", "already_out": [0],
     "actions": [{"seat": 1, "act": "play", "goes_out": True}, {"seat": 2, "act": "pass"}, {"seat": 3, "act": "pass"}],
     "expect": {"next_leader": 3}},
    {"id": "HPS-005", "kind": "huopin_score", "preset": "huopin", "finish": [0, 1, 2, 3],
     "star_plays": [{"seat": 0, "stars": 6}, {"seat": 3, "stars": 8}], "expect": {"0": 3, "1": -5, "2": 1, "3": 1}},
    {"id": "MSC-001", "kind": "first_lead_flip", "preset": "competition", "flips": ["BJ", "H2", "S7"],
     "expect": {"leader": "holder_of:S7"}},
    {"id": "MSC-002", "kind": "report", "preset": "competition", "hand_size_after_play": 11, "expect": {"announce": False}},
    {"id": "MSC-004", "kind": "deal", "preset": "competition", "seed": 0,
     "expect": {"cards_total": 108, "per_player": 27, "wilds": 2, "jokers": 4}},
    {"id": "MSC-005", "kind": "level_order", "preset": "competition", "level": "T", "expect": "BJ LJ T A K Q J 9 8 7 6 5 4 3 2"},
    {"id": "TRN-001", "kind": "round_end", "preset": "competition",
     "state": {"deals_played": 6, "passed_a": 0, "elapsed_min": 31}, "expect": {"round_over": True, "winner": 0}},
    {"id": "TRN-004", "kind": "round_result", "preset": "competition", "levels": {"0": "A", "1": "6"}, "passed_a": 0,
     "expect": {"winner": 0, "level_diff": 8, "levels_gained": {"0": 12, "1": 4}, "match_points": {"0": 2, "1": 0}}},
    {"id": "TRN-007", "kind": "forfeit", "preset": "competition", "late_minutes": 12,
     "expect": {"round_result": {"levels": {"present": "A", "late": "6"}}}},
    {"id": "TRN-009", "kind": "swiss_pairing", "preset": "competition",
     "history": [["A", "B"], ["C", "D"], ["A", "C"], ["B", "D"]], "standings": {"A": 4, "B": 2, "C": 2, "D": 0},
     "expect": {"pairs": [["A", "D"], ["B", "C"]]}},
    {"id": "TRN-010", "kind": "ranking", "preset": "competition",
     "teams": {"A": {"mp": 4, "opp_mp": 4, "diff": 10, "gained": 20}, "B": {"mp": 4, "opp_mp": 4, "diff": 12, "gained": 18},
               "C": {"mp": 4, "opp_mp": 6, "diff": 2, "gained": 15}},
     "expect": {"order": ["C", "B", "A"]}},
]
STR, INT, LIST, OBJ, NULL = "string", "number", "list", "object", "null"
PRESET, LEVEL = (True, {STR}), (True, {STR, INT})
FIELDS: dict[str, dict[str, tuple[bool, set[str]]]] = {
    "classify": {"preset": PRESET, "level": LEVEL, "cards": (True, {STR})},
    "compare": {"preset": PRESET, "level": LEVEL, "a": (True, {OBJ}), "b": (True, {OBJ})},
    "tribute": {"preset": PRESET, "level": LEVEL, "prev_finish": (True, {LIST, NULL}), "hands": (True, {OBJ})},
    "return_eligible": {"preset": PRESET, "level": LEVEL, "hand": (True, {STR})},
    "deal_result": {"preset": PRESET, "levels_before": (True, {OBJ}), "declarer": (True, {INT, NULL}),
                    "finish": (True, {LIST}), "a_failures_before": (False, {OBJ}), "streaks_before": (False, {OBJ})},
    "trick": {"preset": PRESET, "already_out": (True, {LIST}), "actions": (True, {LIST})},
    "huopin_score": {"preset": PRESET, "finish": (True, {LIST}), "star_plays": (True, {LIST})},
    "first_lead_flip": {"flips": (True, {LIST}), "level": (False, {STR, INT})},
    "report": {"preset": PRESET, "hand_size_after_play": (True, {INT})},
    "deal": {"seed": (False, {STR, INT})},
    "level_order": {"level": LEVEL},
}
WRONG: dict[str, Any] = {STR: "x", INT: 7, LIST: [7], OBJ: {"x": 1}, NULL: None, "boolean": True}
# nested fields, mistyped: (kind, path, value, the field the error must name)
NESTED: list[tuple[str, tuple[Any, ...], Any, str]] = [
    ("compare", ("a", "cards"), 5, "a.cards"),
    ("compare", ("b", "cards"), "S3 X9", "b.cards"),
    ("compare", ("a", "as"), "pair", "a.as"),
    ("tribute", ("hands", "2"), ["S3"], "hands.2"),
    ("tribute", ("prev_finish", 1), 9, "prev_finish[1]"),
    ("deal_result", ("levels_before", "0"), "Z", "levels_before.0"),
    ("deal_result", ("a_failures_before", "1"), -1, "a_failures_before.1"),
    ("deal_result", ("streaks_before", "last"), {"7": 1}, "streaks_before.last"),
    ("trick", ("actions", 0), 7, "actions[0]"),
    ("trick", ("actions", 1, "seat"), "2", "actions[1].seat"),
    ("trick", ("actions", 1, "act"), "jump", "actions[1].act"),
    ("trick", ("actions", 0, "goes_out"), "yes", "actions[0].goes_out"),
    ("trick", ("already_out", 0), 4, "already_out[0]"),
    ("huopin_score", ("star_plays", 0, "stars"), "six", "star_plays[0].stars"),
    ("huopin_score", ("finish", 3), 0, "finish"),
    ("first_lead_flip", ("flips", 1), "H22", "flips[1]"),
]


def _mutants() -> list[tuple[dict[str, Any], str | None]]:
    """(vector, the field its error must name — None where any clear outcome will do)."""
    out: list[tuple[dict[str, Any], str | None]] = []
    for sample in SAMPLES:
        fields = FIELDS.get(sample["kind"])
        for name in [k for k in sample if k not in ("id", "kind")]:
            required, types = fields.get(name, (False, set())) if fields else (False, set())
            missing = {k: v for k, v in sample.items() if k != name} | {"id": f"{sample['id']} -{name}"}
            out.append((missing, name if required and name != "expect" else None))
            for jtype, value in WRONG.items():
                v = copy.deepcopy(sample) | {name: value, "id": f"{sample['id']} {name}={json.dumps(value)}"}
                must_name = fields is not None and name in fields and jtype not in types and not (jtype == NULL and not required)
                out.append((v, name if must_name else None))
    for kind, path, value, named in NESTED:
        (sample,) = [s for s in SAMPLES if s["kind"] == kind]
        v = copy.deepcopy(sample)
        v["id"] = f"{sample['id']} {named}={json.dumps(value)}"
        target = v
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value
        out.append((v, named))
    return out


def test_every_kind_with_missing_or_mistyped_fields_gets_its_own_clear_outcome() -> None:
    assert {s["kind"] for s in SAMPLES} >= ENGINE_KINDS
    baseline = run_vectors(SAMPLES)
    assert not baseline.failed and not baseline.skipped, format_report(baseline)
    mutants = _mutants()
    report = run_vectors([v for v, _ in mutants])
    assert len(report.outcomes) == len(mutants) and not report.skipped
    for (vector, named), o in zip(mutants, report.outcomes, strict=True):
        assert o.vector_id == vector["id"]
        if o.error is not None:
            assert o.error.startswith(CANNOT) and "\n" not in o.error, o
        if named is not None:
            assert not o.ok and o.error is not None and f"'{named}" in o.error, (vector, o)
            assert "Error:" not in o.error and "object" not in o.error.replace("an object", ""), o  # no Python words


def test_a_fuzzed_file_runs_to_its_last_vector(tmp_path: Path) -> None:
    """The generated vectors, lines that are no vector and an unknown kind in one JSONL file: the CLI
    reports every one and runs on to the valid vector at the end."""
    _mount()
    mutants = [v for v, _ in _mutants()]
    path = tmp_path / "fuzz.jsonl"
    lines = [json.dumps(v) for v in mutants]
    lines[5:5] = ["not json {", "[1, 2]", '{"kind": "trick"}', '{"id": "K", "kind": 7}', '{"id": [1], "kind": "deal"}',
                  json.dumps({"id": "U", "kind": "no_such_kind", "expect": 1})]
    lines.append(json.dumps(SAMPLES[0] | {"id": "LAST"}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    vectors = load_vectors(path)
    assert [str(v.problem) for v in vectors if isinstance(v, Unreadable)] == [
        "not valid JSON (Expecting value)", "a vector must be a JSON object, not a list", "a vector must have 'id'",
        "'kind' must be a non-empty string, not a number", "'id' must be a string or a number, not a list"]
    report = run_vectors(vectors)
    assert len(report.outcomes) == len(lines) - 1 and report.skipped == {"no_such_kind": 1}
    assert report.outcomes[-1].vector_id == "LAST" and report.outcomes[-1].ok
    assert report.outcomes[5].vector_id == f"{path}:6" and report.outcomes[5].error == CANNOT + "not valid JSON (Expecting value)"

    result = CliRunner().invoke(app, ["vectors", str(path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit) and "Traceback" not in result.output
    assert result.output.rstrip().endswith(f"{report.passed} passed, {len(report.failed)} failed, 1 skipped")
    assert "FAIL LAST" not in result.output and f"FAIL {path}:6 (no kind)" in result.output


def test_unreadable_files_are_one_clear_error(tmp_path: Path) -> None:
    _mount()
    runner = CliRunner()
    cases = {"binary.jsonl": (b"\xff\xfe\x00", "is not UTF-8 text"),
             "text.jsonl": (b"hello\nworld\n", "holds no rules vector (line 1")}
    for name, (data, message) in cases.items():
        (tmp_path / name).write_bytes(data)
        result = runner.invoke(app, ["vectors", str(tmp_path / name)])
        assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
    result = runner.invoke(app, ["vectors", str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 2 and "cannot read vector file" in result.output


def _said_of_one(vector: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """What `guandan vectors` says of ``vector``, a file's only one, under its FAIL line: in English, then in
    Chinese."""
    path = tmp_path / "v.jsonl"
    path.write_text(json.dumps(vector) + "\n", encoding="utf-8")
    _mount()
    runner = CliRunner()
    english = runner.invoke(app, ["vectors", str(path)]).output.splitlines()
    monkeypatch.setenv("LANGUAGE", "zh")
    chinese = runner.invoke(app, ["vectors", str(path)]).output.splitlines()
    return english[1], chinese[1]


def test_flips_with_no_card_to_lead_are_said_in_the_readers_language(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    english, chinese = _said_of_one({"id": "f", "kind": "first_lead_flip", "preset": "competition", "level": "2",
                                     "flips": ["BJ", "H2", "LJ"], "expect": {"leader": "holder_of:S7"}},
                                    tmp_path, monkeypatch)
    assert english == "  cannot evaluate: field 'flips': no flipped card qualifies (all jokers or wildcards)"
    assert chinese == "  无法判定：字段 'flips'：翻出的牌没有一张可定首出（都是王或逢人配）"


def test_a_payer_with_only_wildcards_is_said_in_the_readers_language(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    english, chinese = _said_of_one({"id": "t", "kind": "tribute", "preset": "competition", "level": "2",
                                     "prev_finish": [0, 1, 2, 3], "hands": {"3": "H2"}, "expect": {}},
                                    tmp_path, monkeypatch)
    assert english == "  cannot evaluate: field 'hands': a payer holding only wildcards cannot pay a tribute"
    assert chinese == "  无法判定：字段 'hands'：进贡方手中只有逢人配，无法进贡"


def test_run_vectors_takes_any_iterable_of_values() -> None:
    report = run_vectors([7, {"id": "A"}, {"id": "B", "kind": "deal", "expect": {}}])
    errors = [o.error for o in report.outcomes]
    assert errors[:2] == [CANNOT + "a vector must be a JSON object, not a number", CANNOT + "a vector must have 'kind'"]
    assert not report.outcomes[2].ok and report.outcomes[2].error is None  # a plain mismatch: expected vs actual


def test_the_report_is_said_in_the_readers_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "v.jsonl"
    path.write_text("\n".join([
        json.dumps({"id": "x", "kind": "classify"}),
        json.dumps({"id": "y", "kind": "classify", "preset": "competition", "level": "2", "cards": 5, "expect": []}),
        json.dumps({"id": "t", "kind": "trick", "preset": "competition", "level": "2", "already_out": [],
                    "actions": [{"seat": 7, "act": "play"}], "expect": {}}),
        "not json",
        json.dumps({"id": "k", "kind": "no-such-kind"}),
    ]) + "\n", encoding="utf-8")
    _mount()
    runner = CliRunner()
    english = runner.invoke(app, ["vectors", str(path)])
    assert english.exit_code == 1
    assert english.output.splitlines() == [
        "FAIL x (classify)",
        "  cannot evaluate: missing field 'expect' (the answer)",
        "FAIL y (classify)",
        "  cannot evaluate: field 'cards' must be cards in RULES.md notation, e.g. \"S3 H3\", not a number",
        "  expected: []",
        "FAIL t (trick)",
        "  cannot evaluate: field 'actions[0].seat' must be a seat 0…3, not 7",
        "  expected: {}",
        f"FAIL {path}:4 (no kind)",
        "  cannot evaluate: not valid JSON (a value was expected)",
        "skipped kinds not covered by this engine: no-such-kind (1)",
        "0 passed, 4 failed, 1 skipped",
    ]
    monkeypatch.setenv("LANGUAGE", "zh")
    chinese = runner.invoke(app, ["vectors", str(path)]).output.splitlines()
    assert chinese[:2] == ["未通过 x（classify）", "  无法判定：缺少字段 'expect'（答案）"]
    assert chinese[3] == "  无法判定：字段 'cards' 应为：RULES.md 记法的牌，例如 \"S3 H3\"；实际是：数字"
    assert chinese[6] == "  无法判定：字段 'actions[0].seat' 应为座位 0…3；实际是：7"
    assert chinese[9] == "  无法判定：不是有效的 JSON（此处应有一个值）"
    assert chinese[-1] == "0个通过，4个未通过，1个跳过"
    report = run_vectors(load_vectors(path))  # a program still reads the engine's own words
    assert report.failed[0].error == "cannot evaluate: missing field 'expect' (the answer)"

"""Fair deals in the core and `guandan verify-deal`: each deal's commitment is the SHA-256 of its deal
seed, records (version 2) carry it, and the shuffle of every deal is recomputed from the revealed seed;
a tampered record fails naming the deal, and version-1 records still load, replay and verify."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from guandan.agents import make_agent
from guandan.agents.runner import run_match
from guandan.core.errors import RecordError
from guandan.core.fair import check_deals, deal_commitment, seeded_hands
from guandan.core.match import MatchConfig, new_match
from guandan.core.record import VERSION, dumps, loads, replay
from guandan.core.rules import preset
from guandan.server.replays import replay_frames

RECORD_V1 = Path(__file__).parent / "data" / "record-v1.json"
runner = CliRunner()


def _cli(*args: str) -> Any:
    from guandan.cli import _mount, app

    _mount()
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def record_text() -> str:
    """A finished two-deal match (the second deal has a tribute), as the engine writes it now."""
    m = new_match(preset("competition"), "f00d" * 8, MatchConfig(max_deals=2))
    run_match(m, [make_agent("greedy", f"fair:{i}") for i in range(4)])
    assert m.ended and len(m.deals) == 2
    return dumps(m, ["a", "b", "c", "d"])


def _write(tmp_path: Path, data: dict[str, Any], name: str = "r.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_commitment_is_the_hash_of_the_deal_seed_and_every_view_carries_it() -> None:
    assert deal_commitment(7, 3) == hashlib.sha256(b"guandan:7:3").hexdigest()
    assert deal_commitment("ab", 0) != deal_commitment("ab", 1) != deal_commitment("ac", 1)
    m = new_match(preset("competition"), 11, MatchConfig(max_deals=2, move_mode="canonical"))
    seen = set()
    while not m.ended:
        assert m.public_view().commitment == m.observation(m.to_move or 0).commitment == deal_commitment(11, m.deal_index)
        seen.add(m.public_view().commitment)
        m.apply(m.legal_actions()[0])
    assert len(seen) == 2
    assert m.public_view().commitment == deal_commitment(11, 1)  # the finished match shows its last deal's
    # the seed deals exactly the engine's hands
    hands, _flipped = seeded_hands(11, 1, m.deals[1].state.level)
    assert [list(h) for h in m.deals[1].state.initial_hands] == hands


def test_records_carry_the_commitments_and_replay_checks_them(record_text: str) -> None:
    data = loads(record_text)
    assert data["version"] == VERSION == 2
    assert [d["commitment"] for d in data["deals"]] == [deal_commitment(data["seed"], n) for n in range(2)]
    assert sum(1 for _ in replay(data)) > 50
    forged = copy.deepcopy(data)
    forged["deals"][1]["commitment"] = deal_commitment("another seed", 1)
    with pytest.raises(RecordError, match="deal 2: the recorded commitment"):
        for _ in replay(forged):
            pass
    assert all(c.verified for c in check_deals(data))


def test_verify_deal_passes_on_a_finished_record(tmp_path: Path, record_text: str) -> None:
    path = tmp_path / "match.json"
    path.write_text(record_text, encoding="utf-8")
    seed = json.loads(record_text)["seed"]
    result = _cli("verify-deal", str(path), "--lang", "en")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"Seed {seed} · deals: 2")
    assert lines[1] == f"Deal 1: verified: the hands follow from the seed, and the commitment " \
                       f"{deal_commitment(seed, 0)[:12]}… is its hash"
    assert lines[2].startswith("Deal 2: verified")
    assert lines[3] == "Verified: the hands of every deal (2) follow from the revealed seed"
    zh = _cli("verify-deal", str(path), "--lang", "zh")
    assert zh.exit_code == 0 and "第2副：已验证" in zh.output and "已验证：全部2副牌" in zh.output
    one = _cli("verify-deal", str(path), "--deal", "2", "--lang", "en")
    assert one.exit_code == 0 and "Deal 2: verified" in one.output and "Deal 1" not in one.output


def test_verify_deal_fails_naming_the_deal_whose_hands_were_tampered_with(tmp_path: Path, record_text: str) -> None:
    data = json.loads(record_text)
    hands = data["deals"][1]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]  # one card moved between two players: still 108 cards
    result = _cli("verify-deal", str(_write(tmp_path, data)), "--lang", "en")
    assert result.exit_code == 1, result.output
    assert "Deal 1: verified" in result.output
    assert "Deal 2: MISMATCH: the recorded hands are not the ones the seed deals" in result.output
    assert "Not verified: deals 2 do not follow from the revealed seed" in result.output
    zh = _cli("verify-deal", str(_write(tmp_path, data)), "--lang", "zh")
    assert zh.exit_code == 1 and "第2副：不符：记录中的手牌不是这个种子发出的牌" in zh.output


def test_verify_deal_fails_on_a_tampered_seed_or_commitment(tmp_path: Path, record_text: str) -> None:
    data = json.loads(record_text)
    wrong_seed = {**data, "seed": "0" * 32}
    result = _cli("verify-deal", str(_write(tmp_path, wrong_seed)), "--lang", "en")
    assert result.exit_code == 1
    for n in (1, 2):
        assert f"Deal {n}: MISMATCH: the recorded hands" in result.output
        assert f"Deal {n}: MISMATCH: the recorded commitment" in result.output
    assert "Not verified: deals 1, 2" in result.output
    # a seed that deals these hands but is not the one committed to (the record's commitments were replaced)
    forged = copy.deepcopy(data)
    forged["deals"][0]["commitment"] = "9" * 64
    result = _cli("verify-deal", str(_write(tmp_path, forged)), "--lang", "en")
    assert result.exit_code == 1 and "Deal 1: MISMATCH: the recorded commitment 999999999999… is not the hash" \
        in result.output and "Deal 2: verified" in result.output
    del forged["deals"][0]["commitment"]  # a version-2 record must hold every deal's commitment
    result = _cli("verify-deal", str(_write(tmp_path, forged)), "--lang", "en")
    assert result.exit_code == 1 and "Deal 1: MISMATCH: the record holds no commitment for this deal" in result.output
    flipped = copy.deepcopy(data)
    flipped["deals"][0]["flipped"] = "BJ"
    result = _cli("verify-deal", str(_write(tmp_path, flipped)), "--lang", "en")
    assert result.exit_code == 1 and "Deal 1: MISMATCH: the recorded flipped card" in result.output


def test_fixed_hands_are_reported_as_not_shuffled(tmp_path: Path) -> None:
    first = seeded_hands(99, 0, 0)[0]
    m = new_match(preset("competition"), 5, MatchConfig(max_deals=1, first_hands=tuple(tuple(h) for h in first),
                                                          first_leader=0))
    run_match(m, [make_agent("greedy", i) for i in range(4)])
    result = _cli("verify-deal", str(_write(tmp_path, json.loads(dumps(m)))), "--lang", "en")
    assert result.exit_code == 1
    assert "Deal 1: not verified: the record's configuration fixes these hands" in result.output


def test_verify_deal_refuses_what_is_not_a_record(tmp_path: Path, record_text: str) -> None:
    path = tmp_path / "match.json"
    path.write_text(record_text, encoding="utf-8")
    for args, message in (
        ([str(tmp_path / "missing.json")], "cannot read"),
        ([str(_write(tmp_path, {"hello": 1}, "x.json"))], "not a guandan record"),
        ([str(path), "--deal", "3"], "the record has no deal 3 (it has 2)"),
        ([str(path), "--deal", "0"], "greater than or equal to 1"),
        ([str(path), "--lang", "fr"], "--lang must be one of zh, en, not fr"),
    ):
        result = _cli("verify-deal", *args)
        assert result.exit_code == 2 and message in result.output, (args, result.output)
    (tmp_path / "bad.json").write_text(record_text[:-20], encoding="utf-8")
    result = _cli("verify-deal", str(tmp_path / "bad.json"))
    assert result.exit_code == 2 and "not valid JSON" in result.output
    data = json.loads(record_text)
    data["deals"][0]["hands"] = [["S3"]]
    result = _cli("verify-deal", str(_write(tmp_path, data)))
    assert result.exit_code == 2 and "deal 1: 'hands' must be four lists of cards" in result.output


def test_version_1_records_still_load_replay_and_verify() -> None:
    text = RECORD_V1.read_text(encoding="utf-8")
    data = loads(text)
    assert data["version"] == 1 and all("commitment" not in d for d in data["deals"])
    steps = list(replay(data))
    assert len(steps) > 100 and steps[-1][2].ended
    checks = check_deals(data)
    assert [c.verified for c in checks] == [True, True] and all(c.commitment is None for c in checks)
    frames = replay_frames(text)
    assert frames["fair"]["verified"] and [d["commitment"] for d in frames["deals"]] == [None, None]
    assert frames["deals"][0]["check"]["text"]["en"] == [
        "Deal 1: verified: the hands follow from the seed (this version-1 record holds no commitment)"]
    result = _cli("verify-deal", str(RECORD_V1), "--lang", "en")
    assert result.exit_code == 0 and "version-1 record holds no commitment" in result.output
    assert _cli("replay", str(RECORD_V1), "--json").exit_code == 0

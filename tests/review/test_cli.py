"""`guandan review` and `guandan bench review`: JSON, text, HTML, determinism across processes, bad input;
and every word of the review in the game catalogue, zh and en."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guandan.agents import make_agent
from guandan.agents.runner import run_match
from guandan.cli import _mount, app
from guandan.core.match import MatchConfig, new_match
from guandan.core.record import dumps
from guandan.core.rules import preset
from guandan.i18n.check import extract_msgids, missing

_mount()
runner = CliRunner()
SRC = Path(__file__).resolve().parents[2] / "src" / "guandan"
TINY = ["--budget", "0.02"]  # MIN_WORLDS worlds a decision: fast, still deterministic


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One deal: heuristic seats 1 and 3, random seats 2 and 4 (a name with markup, to be escaped)."""
    rules = preset("competition")
    m = new_match(rules, "review-cli", MatchConfig(max_deals=1))
    run_match(m, [make_agent(t, i) for i, t in enumerate(["heuristic", "random", "heuristic", "random"])])
    path = tmp_path_factory.mktemp("rec") / "match.json"
    path.write_text(dumps(m, ["Ann", "<b>x</b>", "Cai", "Dee"]), encoding="utf-8")
    return path


def test_review_json_has_accuracy_and_labelled_decisions(record: Path) -> None:
    result = runner.invoke(app, ["review", str(record), "--seat", "2", "--json", "--lang", "en", *TINY])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["format"] == "guandan-review" and out["version"] == 1
    assert out["engine"]["name"] == "guandan" and out["engine"]["version"]
    assert out["settings"] == {"budget": 0.02, "worlds": 8, "seed": 0, "shortlist": 6, "hindsight": False}
    assert out["seat"] == 1 and out["player"] == "<b>x</b>"
    assert 0 <= out["accuracy"] <= 100
    assert out["decisions"] and all(d["loss"] >= 0 and d["label"] in ("good", "inaccuracy", "mistake", "blunder")
                                    for d in out["decisions"])
    assert all(d["seat"] == 1 and d["legal"] > 1 and d["worlds"] == 8 for d in out["decisions"])
    assert len(out["costliest"]) <= 3
    losses = sorted((d["loss"] for d in out["decisions"]), reverse=True)
    assert [c["loss"] for c in out["costliest"]] == [x for x in losses if x > 0][:3]
    (deal,) = out["deals"]
    assert deal["deal"] == 0 and len(deal["graph"]) == len(out["decisions"])
    assert "hindsight" not in out["decisions"][0]


def test_the_same_review_from_one_or_two_processes(record: Path) -> None:
    args = ["review", str(record), "--all", "--json", "--lang", "zh", "--seed", "4", *TINY]
    one = runner.invoke(app, args)
    two = runner.invoke(app, [*args, "--jobs", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, two.output
    assert one.output == two.output
    out = json.loads(one.output)
    assert [s["seat"] for s in out["seats"]] == [0, 1, 2, 3] and out["lang"] == "zh"


def test_text_review_in_both_languages_and_hindsight_labelled(record: Path) -> None:
    en = runner.invoke(app, ["review", str(record), "--seat", "1", "--lang", "en", "--hindsight", *TINY])
    assert en.exit_code == 0, en.output
    lines = en.output.splitlines()
    assert lines[0] == "Engine review (复盘): each decision against the best move the engine found, in level points"
    assert lines[1].startswith("Review of deal 1: Ann: accuracy ")
    assert any(line.strip().startswith("hindsight, with every hand known: best ") for line in lines)
    assert lines[-1].startswith("Hindsight lines value the moves with every hand known")
    # the technical settings come last, in words: the worlds bought by the budget, and the seed
    assert lines[-3].startswith("Level points: the levels a deal is expected to bring the team, from +3")
    assert lines[-2].startswith("How it was worked out: 8 deals drawn at random for each decision ")
    assert "(effort 0.02, seed 0: the same review every time)" in lines[-2]
    assert not re.search(r"None|True|False|\{|\}|<|Action\(|ActionKind", en.output)
    zh = runner.invoke(app, ["review", str(record), "--seat", "1", "--lang", "zh", *TINY])
    assert zh.exit_code == 0
    assert zh.output.splitlines()[1].startswith("第 1 副复盘：Ann：准确度 ")
    assert "逐手评估" in zh.output


def test_text_review_says_each_cost_in_level_points_and_its_settings_in_words(record: Path) -> None:
    """"mistake, loss 0.51 ± 0.12" had no unit and "budget 1 s · seed 0" was the command line's wording: a cost is
    "about 0.51 level points (± 0.12)", a best move is its label alone, the better move is named without a bare
    signed value beside it, and the settings are said last, for people."""
    en = runner.invoke(app, ["review", str(record), "--seat", "2", "--lang", "en", *TINY])  # a random seat
    assert en.exit_code == 0, en.output
    lines = en.output.splitlines()
    costly = [line for line in lines if re.match(r" {4}\d\. ", line)]
    assert costly
    for line in costly:
        assert re.search(r" · (good|inaccuracy|mistake|blunder): costs about \d+\.\d\d level points \(± \d+\.\d\d\)"
                         r" · better: ", line), line
        assert not re.search(r"better: [^·]*\([+−]\d", line), line
    assert any(line.endswith(" · good") for line in lines)  # the best move found: nothing to cost
    assert not re.search(r"\bloss\b|budget|sampled worlds", en.output)
    assert lines[-2] == "Level points: the levels a deal is expected to bring the team, from +3 (a 1-2 finish) to " \
                        "−3 (the other team's 1-2 finish)."
    assert lines[-1].startswith("How it was worked out: 8 deals drawn at random for each decision from what the player")
    zh = runner.invoke(app, ["review", str(record), "--seat", "2", "--lang", "zh", *TINY])
    assert zh.exit_code == 0
    assert re.search(r"：约损失 \d+\.\d\d 级（± \d+\.\d\d） · 更好：", zh.output)
    assert zh.output.splitlines()[-1].startswith("复盘方法：每一手都按该玩家当时能知道的信息随机抽出 8 个牌局推演（计算量 0.02，"
                                                 "随机种子 0")
    assert "预算" not in zh.output and not re.search(r"(?<!约)损失 \d", zh.output)  # the old "损失 0.51 ± 0.12"


def test_html_report_is_self_contained_and_escaped(record: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    result = runner.invoke(app, ["review", str(record), "--seat", "2", "--html", str(out), "--lang", "en", *TINY])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and "<svg" in page and "<polyline" in page
    assert "<script" not in page and "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page  # the player's name is text, not markup
    for word in ("good", "accuracy", "cost (level points)", "How it was worked out: 8 deals drawn at random"):
        assert word in page


def test_bad_input_is_refused_with_a_clear_error(record: Path, tmp_path: Path) -> None:
    cases = [
        (["review", str(tmp_path / "nope.json")], "cannot read"),
        (["review", str(record), "--seat", "5"], "--seat"),
        (["review", str(record), "--seat", "1", "--all"], "not both"),
        (["review", str(record), "--deal", "3", *TINY], "there is no deal 3"),
        (["review", str(record), "--budget", "0"], "--budget must be a positive number"),
        (["review", str(record), "--budget", "nan"], "--budget must be a positive number"),
        (["review", str(record), "--lang", "fr"], "--lang"),
        (["review", str(record), "--jobs", "0"], "--jobs"),
    ]
    for args, words in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert words in result.output, (args, result.output)
    notjson = tmp_path / "x.json"
    notjson.write_text("{", encoding="utf-8")
    result = runner.invoke(app, ["review", str(notjson)])
    assert result.exit_code == 2 and "not valid JSON" in result.output


def test_bench_review_prints_each_tier(tmp_path: Path) -> None:
    result = runner.invoke(app, ["bench", "review", "--deals", "1", "--tiers", "random,heuristic", "--budget", "0.02",
                                 "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["deals"] == 1 and out["decisions"] > 0 and out["seconds_per_decision"] > 0
    for tier in ("random", "heuristic"):
        assert 0 <= out[tier]["accuracy"] <= 100 and out[tier]["seat_deals"] == 2


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_word_of_the_review_is_in_the_game_catalogue(lang: str) -> None:
    ids = extract_msgids([SRC / "review"])
    assert len(ids) > 30
    assert missing("game", lang, ids) == []

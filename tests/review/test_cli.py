"""`guandan review` and `guandan bench review`: JSON, text, HTML, determinism across processes, bad input;
and every word of the review in the game catalogue, zh and en."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html import escape
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guandan.agents import make_agent
from guandan.agents.heuristic import HeuristicAgent
from guandan.agents.runner import run_match
from guandan.cli import _mount, app
from guandan.core.cards import card_str, parse_card, wild_code
from guandan.core.combos import resolve_combo
from guandan.core.match import MatchConfig, new_match
from guandan.core.record import dumps, loads
from guandan.core.rules import preset
from guandan.core.vocab import RANKS
from guandan.i18n.check import extract_msgids, missing
from guandan.present import Presenter
from guandan.review.engine import Settings
from guandan.review.html import review_html
from guandan.review.report import review_record
from guandan.review.verdict import Label
from guandan.review.words import review_lines
from guandan.tui.session import Session

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


@pytest.fixture(scope="module")
def play_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two deals saved as `guandan play` saves them (its meta says who was a bot: the player at seat 1, played here
    by the heuristic; a greedy partner, heuristic opponents). With seed 14 the player plays the wildcard in both
    deals: ♥2 in deal 1 (a tube), ♥5 in deal 2 (where ♥2 is none), once in the middle of a straight flush."""
    s = Session.new(preset("competition"), 14, "greedy", "heuristic", MatchConfig(max_deals=2))
    me = HeuristicAgent(0)
    me.reset(0, s.rules)
    while not s.ended:
        if s.human_to_move:
            s.act(me.choose(s.observation(), s.legal()))
        else:
            s.bot_step()
    path = tmp_path_factory.mktemp("play") / "play.json"
    path.write_text(s.record(), encoding="utf-8")
    return path


def test_a_play_record_is_told_with_each_deals_wildcards_starred_in_json_and_html(play_record: Path,
                                                                                  tmp_path: Path) -> None:
    """`guandan review` gave its presenter no deal level: a record of `guandan play` read "♥5" where the table and
    the client's own review read "♥5*". Every action of a decision — the move played, the better one, each
    candidate — is told as the table tells it: its deal's wildcards starred, a play in its combination's order."""
    page = tmp_path / "review.html"
    result = runner.invoke(app, ["review", str(play_record), "--json", "--html", str(page), "--lang", "en", *TINY])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    data = json.loads(play_record.read_text(encoding="utf-8"))
    rules = preset("competition")
    levels = [RANKS.index(d["level"]) for d in data["deals"]]
    assert levels[0] != levels[1]
    p = Presenter("en")
    starred: dict[int, list[str]] = {}
    for d in out["decisions"]:
        level = levels[d["deal"]]
        wild = card_str(wild_code(level))
        told = [(d["played"], d["text"]), (d["best"]["action"], d["best"]["text"]),
                *((c["action"], c["text"]) for c in d["candidates"])]
        for action, text in told:
            tokens = action.get("cards", [])
            assert text.count("*") == tokens.count(wild), (text, tokens, wild)
            if action["kind"] == "play":
                cards = [parse_card(t) for t in tokens]
                assert text == p.play(cards, resolve_combo(cards, level, rules, action["combo"]), level)
        if wild in d["played"].get("cards", []):
            starred.setdefault(d["deal"], []).append(d["text"])
    assert sorted(starred) == [0, 1], starred  # the seed's player plays the wildcard in both deals
    assert "straight flush ♦9–K: ♦9 ♦10 ♦J ♥5* ♦K" in starred[1]  # the wildcard in the Q's place
    html = page.read_text(encoding="utf-8")
    for text in (t for texts in starred.values() for t in texts):
        assert f"<td>{escape(text)}</td>" in html
    assert "<h2>Player 1 · accuracy " in html


@pytest.mark.parametrize(("lang", "names", "seat_word"), [
    ("en", ["Player 1", "Bot 2 · Heuristic", "Bot 3 · Greedy", "Bot 4 · Heuristic"], "Seat"),
    ("zh", ["玩家1", "机器人2·启发式", "机器人3·贪心", "机器人4·启发式"], "座位"),
])
def test_a_play_record_names_its_seats_as_the_web_replay_page(play_record: Path, lang: str, names: list[str],
                                                               seat_word: str) -> None:
    """The record has no players' names, but says who was a bot: the seats are named as the web replay page names
    them ("Player 1", "Bot 2 · Greedy"), not "Seat 1"; the wildcards of deal 2 (♥5) are starred in the text too."""
    result = runner.invoke(app, ["review", str(play_record), "--all", "--deal", "2", "--lang", lang, *TINY])
    assert result.exit_code == 0, result.output
    heads = [line for line in result.output.splitlines() if line.startswith(("Review of deal 2: ", "第2副复盘："))]
    sep = ": " if lang == "en" else "："
    assert [head.split(sep)[1] for head in heads] == names
    assert seat_word not in result.output
    assert "♥5*" in result.output and "♥2*" not in result.output


def test_a_record_that_does_not_say_who_was_a_bot_keeps_the_seat_numbers(play_record: Path, tmp_path: Path) -> None:
    data = json.loads(play_record.read_text(encoding="utf-8"))
    del data["meta"]["seats"]  # a `guandan play` save from before it said so: its players are the bots' tiers
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data), encoding="utf-8")
    for lang, head in (("en", "Review of deal 1: Seat 1: accuracy "), ("zh", "第1副复盘：座位1：准确度 ")):
        result = runner.invoke(app, ["review", str(old), "--deal", "1", "--lang", lang, *TINY])
        assert result.exit_code == 0, result.output
        assert result.output.splitlines()[1].startswith(head)
        assert "♥2*" in result.output


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
    # the costliest are the largest losses among the decisions labelled an inaccuracy or worse: a loss the label
    # calls good (within the measure's noise) is no "costly decision" to show a learner
    losses = sorted((d["loss"] for d in out["decisions"] if d["label"] != "good"), reverse=True)
    assert [c["loss"] for c in out["costliest"]] == losses[:3]
    assert all(c["label"] != "good" for c in out["costliest"])
    assert any(d["label"] == "good" and d["loss"] > 0 for d in out["decisions"])  # such a loss, left out
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
    assert zh.output.splitlines()[1].startswith("第1副复盘：Ann：准确度 ")
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
        assert re.search(r" · ((inaccuracy|mistake|blunder): costs about \d+\.\d\d level points \(± \d+\.\d\d\)|"
                         r"good: not clearly worse than the best found \(\d+\.\d\d ± \d+\.\d\d level points\))"
                         r" · better: ", line), line
        assert not re.search(r"better: [^·]*\([+−]\d", line), line
    assert any(line.endswith(" · good") for line in lines)  # the best move found: nothing to cost
    assert not re.search(r"\bloss\b|budget|sampled worlds", en.output)
    assert lines[-2] == "Level points: the levels a deal is expected to bring the team, from +3 (a 1-2 finish) to " \
                        "−3 (the other team's 1-2 finish)."
    assert lines[-1].startswith("How it was worked out: 8 deals drawn at random for each decision from what the player")
    zh = runner.invoke(app, ["review", str(record), "--seat", "2", "--lang", "zh", *TINY])
    assert zh.exit_code == 0
    assert re.search(r"：约损失\d+\.\d\d级（± \d+\.\d\d） · 更好：", zh.output)
    assert zh.output.splitlines()[-1].startswith("复盘方法：每一手都按该玩家当时能知道的信息随机抽出8个牌局推演（计算量 0.02，"
                                                 "随机种子 0")
    assert "预算" not in zh.output and not re.search(r"(?<!约)损失 \d", zh.output)  # the old "损失 0.51 ± 0.12"


def test_a_good_move_that_was_not_the_best_is_not_said_to_cost(record: Path) -> None:
    """"good" means the loss is within the measure's margin, so such a move is "not clearly worse than the best
    found", never "costs about": each decision's cost_text says it as the text review does, in both languages."""
    kinds = set()
    for lang, costs, good in (("en", "costs about", "not clearly worse than the best found"),
                              ("zh", "约损失", "与找到的最佳着法相差不显著")):
        result = runner.invoke(app, ["review", str(record), "--all", "--json", "--lang", lang, *TINY])
        assert result.exit_code == 0, result.output
        for d in (d for s in json.loads(result.output)["seats"] for d in s["decisions"]):
            text = d["cost_text"]
            assert text.startswith(d["label_text"]), text
            if d["best"]["action"] == d["played"]:
                kind = "best"
                assert text == d["label_text"]
            elif d["label"] == "good":
                kind = "good"
                assert good in text and costs not in text, text
            else:
                kind = "lost"
                assert costs in text and good not in text, text
            kinds.add((lang, kind))
    assert {k for _, k in kinds} == {"best", "good", "lost"}  # the record shows all three


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
        (["review", str(record), "--deal", "3", *TINY], "the record has no deal 3; its last deal is 1"),
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


def test_a_review_of_one_decision_says_one_decision(record: Path, tmp_path: Path) -> None:
    """A record cut after its first play: the seat that led has one decision, and the review says so."""
    data = json.loads(record.read_text(encoding="utf-8"))
    data["deals"][0]["actions"] = data["deals"][0]["actions"][:1]
    for key in ("finish", "levels_after", "result", "declarer", "levels_before"):
        data["deals"][0].pop(key, None)
    data["result"]["ended"] = False
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(data), encoding="utf-8")
    said = {lang: runner.invoke(app, ["review", str(cut), "--all", "--lang", lang, *TINY]) for lang in ("en", "zh")}
    assert all(r.exit_code == 0 for r in said.values()), said["en"].output
    assert re.search(r"^Review of deal 1: \w+: accuracy \S+ over 1 decision$", said["en"].output, re.M), said["en"].output
    assert re.search(r"^第1副复盘：\S+：准确度 \S+（共1手）$", said["zh"].output, re.M), said["zh"].output
    full = runner.invoke(app, ["review", str(record), "--seat", "1", "--lang", "en", *TINY])
    assert re.search(r"^Review of deal 1: Ann: accuracy \S+ over \d+ decisions$", full.output, re.M), full.output


def test_the_costliest_decisions_are_inaccuracies_or_worse_and_a_review_without_any_says_so(record: Path) -> None:
    """"Costliest decisions" lists no move labelled good (a loss within the measure's noise): a seat none of whose
    decisions was an inaccuracy or worse is told so in one line of its text and HTML reports, in both languages."""
    review = review_record(loads(record.read_text(encoding="utf-8")), [1], settings=Settings(budget=0.02))
    seat = review.seats[0]
    assert any(d.label is Label.GOOD and d.loss > 0 for d in seat.decisions)
    assert all(d.label is not Label.GOOD for d in seat.costliest())
    seat.decisions = [replace(d, label=Label.GOOD) for d in seat.decisions]  # a seat that made no error
    assert seat.costliest() == [] and seat.costliest(0) == []
    for lang, none in (("en", "Costliest decisions: none was an inaccuracy, a mistake or a blunder"),
                       ("zh", "代价最大的几手：无（没有欠佳、失误或大错）")):
        p = Presenter(lang)
        lines = review_lines(p, review, moves=False)
        assert [line.strip() for line in lines].count(none) == 1, lines
        assert not any(re.match(r" {4}\d\. ", line) for line in lines), lines
        assert escape(none) in review_html(p, review)

"""Agent specs: a tier with options (``search:prior=0.3:shortlist=8``) builds that agent, names one
arena setup however it is spelled, and bad specs are refused with the reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guandan.agents import make_agent
from guandan.agents.base import canonical_spec, parse_spec
from guandan.agents.search import SearchAgent
from guandan.cli import _mount, app
from guandan.core.errors import GuandanError
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import preset
from guandan.core.vocab import ActionKind
from guandan.present import said


def test_options_reach_the_agent() -> None:
    agent = make_agent("search:prior=0.4:confidence=0:shortlist=3:max_worlds=5:settle=off:evidence=no", 1, 0.5)
    assert isinstance(agent, SearchAgent)
    assert (agent.prior, agent.confidence, agent.shortlist, agent.max_worlds) == (0.4, 0.0, 3, 5)
    assert (agent.settle, agent.evidence, agent.endgame, agent.breaks) == (False, False, True, True)
    deep = make_agent("search:endgame_cards=20:endgame_nodes=50000", 1)
    assert isinstance(deep, SearchAgent) and (deep.endgame_cards, deep.endgame_nodes) == (20, 50000)
    plain = make_agent("search", 1)
    assert isinstance(plain, SearchAgent) and plain.max_worlds is None and plain.prior == 0.15
    margin = make_agent("search:win_bonus=0", 1)
    assert isinstance(margin, SearchAgent) and (plain.win_bonus, margin.win_bonus) == (1.0, 0.0)
    assert canonical_spec("search:win_bonus=1") == "search"


def test_a_spec_has_one_canonical_spelling() -> None:
    assert canonical_spec("search:prior=0.15") == "search"  # the default is no option at all
    assert canonical_spec("search:shortlist=8:prior=0.30:settle=false") == "search:prior=0.3:settle=off:shortlist=8"
    assert canonical_spec("heuristic") == "heuristic"
    assert canonical_spec("external:mybots:Bot") == "external:mybots:Bot"
    assert parse_spec("search:breaks=ON") == ("search", {"breaks": True})
    assert canonical_spec("search:confidence=2:prior=0.123456789") == "search:confidence=2.0:prior=0.123456789"


@pytest.mark.parametrize(("spec", "message"), [
    ("searchy", "unknown agent \"searchy\""),
    ("external", "unknown agent \"external\""),
    ("search:foo=1", 'no option "foo"; its options: belief, belief_steps, bomb, break_any, breaks, confidence'),
    ("greedy:prior=1", "agent \"greedy\" has no option \"prior\": it takes none"),
    ("heuristic:prior=1", "agent \"heuristic\" has no option \"prior\"; its options: danger"),
    ("heuristic:danger=28", "danger must be from 0 to 27, not 28"),
    ("search:prior", '"prior" is not key=value'),
    ("search:prior=", '"prior=" is not key=value'),
    ("search:", '"" is not key=value'),
    ("search:prior=x", 'prior must be a number, not "x"'),
    ("search:prior=nan", "prior must be from 0 to 10, not nan"),
    ("search:prior=-1", "prior must be from 0 to 10, not -1"),
    ("search:shortlist=2.5", 'shortlist must be a whole number, not "2.5"'),
    ("search:shortlist=0", "shortlist must be from 1 to 50, not 0"),
    ("search:settle=maybe", "settle must be on or off, not \"maybe\""),
    ("search:endgame_cards=3", "endgame_cards must be from 4 to 54, not 3"),
    ("search:endgame_nodes=10", "endgame_nodes must be from 100 to 1000000, not 10"),
    ("search:max_worlds=-1", "max_worlds must be from 0 to 100000, not -1"),
    ("search:prior=0.2:prior=0.3", "sets prior twice"),
])
def test_bad_specs_are_refused_with_the_reason(spec: str, message: str) -> None:
    with pytest.raises(GuandanError) as e:
        make_agent(spec, 1)
    assert message in str(e.value)


class _Config:
    """A bot author's own object, passed where a spec goes."""


def _lambda() -> None:
    """Stands in for a function passed where a spec goes."""


@pytest.mark.parametrize(("spec", "en", "zh"), [
    (5, "an int (5)", "整数 5"),
    (2.5, "a float (2.5)", "浮点数 2.5"),
    (True, "a bool (true)", "布尔值 true"),
    (None, "no value (null)", "空值（null）"),
    (["heuristic"], 'a list (["heuristic"])', '列表 ["heuristic"]'),
    (["heuristic"] * 9, 'a list (["heuristic", "heuristic", "heuristic",…)', '列表 ["heuristic", "heuristic", "heuristic",…'),
    (b"heuristic", "bytes: decode them to a string first", "bytes 字节串：请先解码为字符串"),
    (_Config(), "an object of class _Config", "_Config 类的对象"),
    (_Config, "the class _Config", "类 _Config"),
    (_lambda, "the function _lambda", "函数 _lambda"),
    (lambda: None, "a lambda function", "lambda 函数"),
    (make_agent("random", 1), "an agent already made (RandomAgent), which is used as it is, without make_agent",
     "已生成的机器人（RandomAgent），直接使用即可，无需 make_agent"),
])
def test_a_spec_that_is_no_text_is_refused_saying_what_was_given(spec: object, en: str, zh: str) -> None:
    """It was an AttributeError naming Python's type (\'int\' object has no attribute \'startswith\'), then the
    value alone, an object as its bare class name ('not _Config', read as a spec's name) and a list uncut."""
    with pytest.raises(GuandanError) as e:
        make_agent(spec, 1)  # type: ignore[arg-type]
    assert str(e.value) == ("an agent is named by a spec, a string: one of greedy, heuristic, random, search or "
                            f"external:module:Class, with its options after colons (search:prior=0.3); it was given {en}")
    assert said(e.value, "zh") == ("机器人用规格指定，规格是字符串：greedy, heuristic, random, search 之一或 "
                                   f"external:module:Class，选项写在冒号后（如 search:prior=0.3）；收到的却是{zh}")


def test_the_prior_option_changes_what_search_chooses() -> None:
    """With a prior beyond any gain a deal can give, search keeps the heuristic's first choice on
    every decision; with no prior and no confidence margin it leaves it on some. Same worlds, same
    positions: only the option differs."""
    rules = preset("competition")
    m = new_match(rules, "spec-prior", MatchConfig(max_deals=1, first_leader=0))
    players = [make_agent("heuristic", s) for s in range(4)]
    trusting = make_agent("search:prior=10:max_worlds=12", 5)
    bold = make_agent("search:prior=0:confidence=0:max_worlds=12", 5)
    for s, a in enumerate(players):
        a.reset(s, rules)
    trusting.reset(0, rules)
    bold.reset(0, rules)
    decisions = differ = 0
    while (seat := m.to_move) is not None:
        obs, legal = m.observation(seat), m.legal_actions()
        choice = players[seat].choose(obs, legal)
        if seat == 0 and legal[0].kind in (ActionKind.PLAY, ActionKind.PASS):
            decisions += 1
            assert trusting.choose(obs, legal) == choice
            differ += bold.choose(obs, legal) != choice
        m.apply(choice)
    assert decisions >= 5 and differ >= 1


def test_the_arena_records_the_canonical_spec(tmp_path: Path) -> None:
    _mount()
    cli = CliRunner()
    f = tmp_path / "r.jsonl"
    r = cli.invoke(app, ["arena", "--a", "search:max_worlds=2:prior=0.15", "--b", "greedy", "--deals", "1",
                         "--results", str(f), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(f.read_text(encoding="utf-8"))["setup"]["a"] == "search:max_worlds=2"
    bad = cli.invoke(app, ["arena", "--a", "greedy", "--b", "search:prior=x", "--deals", "1"])
    assert bad.exit_code == 2 and '--b: option prior must be a number, not "x"' in bad.output

"""`guandan agents` says what each tier is: a built-in tier in one line of the catalogue, in the reader's
language, roughly how strong and how fast; a plugin tier in its author's words, the first paragraph of the
docstring of what it registered, or by its name alone when it has none. `--json` carries the same line."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guandan.agents import base
from guandan.cli import _mount, app
from guandan.core.deal import Action
from guandan.core.match import MatchObservation

_mount()
runner = CliRunner()


def _listed() -> list[str]:
    result = runner.invoke(app, ["agents"])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def _tier_line(lines: list[str], tier: str) -> str:
    """The line that names ``tier`` (the options below it are indented)."""
    found = [line for line in lines if line == tier or line.startswith(f"{tier} ") or line.startswith(f"{tier}：")]
    assert len(found) == 1, (tier, lines)
    return found[0]


def test_each_builtin_tier_says_what_it_is_and_how_strong_and_fast_in_english() -> None:
    lines = _listed()
    assert _tier_line(lines, "random") == "random — picks a legal move at random; the weakest, instant"
    assert _tier_line(lines, "greedy") == \
        "greedy — plays its cheapest legal play, bombs only to stop an opponent; weak, instant"
    assert _tier_line(lines, "heuristic") == \
        "heuristic — plans from a decomposition of its hand (拆牌) and counts cards; strong, about a millisecond a move"
    assert _tier_line(lines, "search") == "search — plays its few best candidate moves out to the end in sampled deals; " \
        "the strongest, up to a second a move"
    # the options stay as they were, under their tier
    i = lines.index(_tier_line(lines, "heuristic"))
    assert lines[i + 1].startswith("  danger=6 an opponent with this many cards or fewer")
    assert lines[-1] == "external:module:Class  a 2020-protocol bot class (see --path in guandan arena)"


def test_each_builtin_tier_says_what_it_is_in_chinese(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "zh")
    lines = _listed()
    assert _tier_line(lines, "random") == "random：随机选一个合法着法；最弱，瞬间出牌"
    assert _tier_line(lines, "greedy") == "greedy：总出能出的最小的牌，只为拦住对手才出炸弹；较弱，瞬间出牌"
    assert _tier_line(lines, "heuristic") == "heuristic：按拆牌规划出牌并记牌；较强，每步约一毫秒"
    assert _tier_line(lines, "search") == "search：在抽样出的牌局中把几个最佳候选着法各自打到底；最强，每步至多约一秒"
    assert not any(word in "\n".join(lines) for word in ("weakest", "strongest", "instant", "millisecond"))


class _Documented(base.Agent):
    """Plays the legal action with the fewest cards,
    passing whenever it may.

    Written for the docs; nothing below the first paragraph is shown."""

    name = "documented"

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        return legal[0]


class _Undocumented(_Documented):  # its base's docstring is not its own
    name = "undocumented"


def _fewest(seed: int | str, budget: float | None) -> base.Agent:
    """Builds a tier from a factory function: this line is its description."""
    return _Documented(seed, budget)


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four plugin tiers as an entry point's module would register them: a documented class, an undocumented
    subclass of it, a documented factory function and a lambda."""
    monkeypatch.setitem(base._REGISTRY, "documented", _Documented)
    monkeypatch.setitem(base._REGISTRY, "undocumented", _Undocumented)
    monkeypatch.setitem(base._REGISTRY, "factory", _fewest)
    monkeypatch.setitem(base._REGISTRY, "bare", lambda seed, budget: _Documented(seed, budget))


@pytest.mark.usefixtures("plugins")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_plugin_tier_is_described_by_its_docstring_or_by_its_name_alone(lang: str,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", lang)
    lines = _listed()
    sep = " — " if lang == "en" else "："
    assert _tier_line(lines, "documented") == \
        f"documented{sep}Plays the legal action with the fewest cards, passing whenever it may."
    assert _tier_line(lines, "factory") == f"factory{sep}Builds a tier from a factory function: this line is its description."
    assert _tier_line(lines, "undocumented") == "undocumented"
    assert _tier_line(lines, "bare") == "bare"
    text = "\n".join(lines)
    for repr_like in ("<class", "<function", "<lambda>", "None", "Base class of all players", "Written for the docs"):
        assert repr_like not in text


@pytest.mark.usefixtures("plugins")
def test_the_json_list_carries_each_tiers_description_beside_its_options() -> None:
    result = runner.invoke(app, ["agents", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["random"] == {"description": "picks a legal move at random; the weakest, instant", "options": {}}
    assert out["search"]["description"].startswith("plays its few best candidate moves out")
    assert out["heuristic"]["options"]["danger"] == {
        "type": "int", "default": 6, "range": "from 0 to 27",
        "help": "an opponent with this many cards or fewer is close to going out: worth a bomb, and a costlier break to stop"}
    assert out["documented"] == {"description": "Plays the legal action with the fewest cards, passing whenever it may.",
                                 "options": {}}
    assert out["undocumented"]["description"] == "" and out["bare"]["description"] == ""
    assert "external" not in out


def test_the_docs_example_tier_is_listed_as_docs_protocol_md_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """"Writing a bot tier" (docs/protocol.md): its tier, registered as its module would, is listed with the
    line the text quotes."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Writing a bot tier"):]
    code = section[section.index("```python\n") + len("```python\n"):section.index("```\n", section.index("```python"))]
    quoted = re.search(r"\(`(mytier — [^`]+)`", section)
    assert quoted is not None, "the section quotes the line guandan agents gives mytier"
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    monkeypatch.setattr(base, "_OPTIONS", dict(base._OPTIONS))
    exec(compile(code, "docs/protocol.md", "exec"), {"__name__": "mytier"})
    assert _tier_line(_listed(), "mytier") == quoted.group(1)

"""Plugins are listed once, in pyproject.toml's entry points: the agent tiers and the modules of rules-vector
checkers. The installed metadata must say the same (else the project needs reinstalling), every tier's
module registers the tier it is named for, and a source tree without metadata is an error, not an
empty registry."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from guandan import plugins
from guandan.agents.base import agent_names
from guandan.core.deal import Action
from guandan.core.errors import GuandanError
from guandan.core.match import MatchObservation
from guandan.vectors import CHECKERS, run_vectors

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def _declared(group: str) -> dict[str, str]:
    table: dict[str, str] = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["entry-points"][group]
    return table


@pytest.mark.parametrize("group", [plugins.AGENT_TIERS, plugins.VECTOR_KINDS])
def test_the_installed_plugins_are_the_declared_ones(group: str) -> None:
    installed = {ep.name: ep.value for ep in entry_points(group=group)}
    assert installed == _declared(group), "the installed metadata is stale: run scripts/setup.sh (or pip install -e .)"


def test_every_tier_is_registered_under_its_entry_point_name() -> None:
    assert agent_names() == sorted(_declared(plugins.AGENT_TIERS))
    assert "external" in agent_names()  # the protocol's tier, though guandan.agents never imports the protocol


def test_every_vector_module_registers_its_kinds() -> None:
    run_vectors([])
    assert {"classify", "compare", "round_result", "swiss_pairing"} <= set(CHECKERS)


def test_without_metadata_the_registry_says_how_to_fix_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugins, "_loaded", {})
    monkeypatch.setattr(plugins, "entry_points", lambda group: [])
    with pytest.raises(GuandanError, match=r"guandan.agent_tiers plugins .*pip install -e \."):
        plugins.load(plugins.AGENT_TIERS)


def test_a_plugin_tier_that_raises_stops_the_arena_naming_itself_its_seat_and_its_bug(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A plugin's bug was a traceback through the arena's own code; it is an error that says which agent, at
    which seat, raised what and where, in which deal pair."""
    from guandan.agents import base
    from guandan.arena.runner import Setup, play_pair

    class Raiser(base.Agent):
        name = "raiser"

        def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
            raise ValueError("my bug")

    monkeypatch.setitem(base._REGISTRY, "raiser", lambda seed, budget: Raiser(seed, budget))
    with pytest.raises(GuandanError) as caught:
        play_pair(Setup("greedy", "raiser", "competition", 1), 3)
    e = caught.value
    assert e.msgid == "{agent} (seat {seat}) raised {error} ({place}) in deal pair {index}"
    assert e.params["agent"] == "raiser" and e.params["seat"] in (2, 4) and e.params["index"] == 3
    assert e.params["error"] == "ValueError: my bug"
    assert e.params["place"].startswith(f"{__file__}:")  # the line of the plugin's raise

"""The start page tells a player choosing a bot what each tier is: GET /api/meta sends, beside the tiers, one line
on each in every language of the pages. The words are the ones `guandan agents` prints (agents.base
TIER_DESCRIPTIONS through the cli catalogue), never a copy in the web catalogue; a plugin tier's line is its own
docstring's first paragraph, the same in both languages, or nothing."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from fastapi.testclient import TestClient

from guandan.agents import base
from guandan.agents.base import TIER_DESCRIPTIONS, agent_description
from guandan.core.deal import Action
from guandan.core.match import MatchObservation
from guandan.i18n import translator
from guandan.server.i18n_web import LANGS, strings


class _Documented(base.Agent):
    """Plays the legal action with the fewest cards,
    passing whenever it may.

    Nothing below the first paragraph is shown."""

    name = "documented"

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        return legal[0]


def test_meta_says_what_each_tier_is_in_both_languages_from_the_cli_catalogue(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    about = meta["tier_descriptions"]
    assert sorted(about) == sorted(meta["tiers"]) and set(LANGS) == {"zh", "en"}
    for tier in meta["tiers"]:
        assert set(about[tier]) == set(LANGS)
        for lang in LANGS:  # the line of `guandan agents`, word for word
            assert about[tier][lang] == agent_description(tier, translator("cli", lang).gettext) != ""
    assert about["search"]["en"] == \
        "plays its few best candidate moves out to the end in sampled deals; the strongest, up to a second a move"
    assert about["random"]["zh"] == "随机选一个合法着法；最弱，瞬间出牌"
    assert about["heuristic"]["zh"].startswith("按拆牌规划出牌并记牌")
    # one source of words: none of them is in the web catalogue, in either language
    for lang in LANGS:
        web = set(strings(lang)) | set(strings(lang).values())
        assert not web & ({about[t][lang] for t in about} | set(TIER_DESCRIPTIONS.values()))


def test_a_plugin_tier_is_described_by_its_docstring_or_not_at_all(client: TestClient,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(base._REGISTRY, "documented", _Documented)
    monkeypatch.setitem(base._REGISTRY, "bare", lambda seed, budget: _Documented(seed, budget))
    meta = client.get("/api/meta").json()
    assert {"documented", "bare"} <= set(meta["tiers"])
    line = "Plays the legal action with the fewest cards, passing whenever it may."
    assert meta["tier_descriptions"]["documented"] == {"zh": line, "en": line}
    assert meta["tier_descriptions"]["bare"] == {"zh": "", "en": ""}
    # a plugin that takes a built-in tier's name is not described by the built-in's words
    monkeypatch.setitem(base._REGISTRY, "greedy", lambda seed, budget: _Documented(seed, budget))
    assert client.get("/api/meta").json()["tier_descriptions"]["greedy"] == {"zh": "", "en": ""}

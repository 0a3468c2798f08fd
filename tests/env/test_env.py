"""The research environments (guandan.env): the PettingZoo and Gymnasium checkers, seeded resets,
masks against the engine's legal moves, full episodes per preset, hidden-information safety, bench."""

from __future__ import annotations

import json
import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test
from typer.testing import CliRunner

import guandan.env as genv
from guandan.cli import _mount, app
from guandan.core.deal import Action
from guandan.core.errors import GuandanError
from guandan.core.match import MatchConfig, MatchState, new_match
from guandan.core.rules import PRESET_NAMES, preset
from guandan.core.vocab import ActionKind, MoveMode, Phase
from guandan.env.actions import ACTION_SIZE, PATTERNS, action_index, describe_index, index_actions
from guandan.env.encoding import OBS_SIZE, OFFSET, Encoder, encode
from guandan.env.table import deal_rewards


def _walk(preset_name: str, seed: int, steps: int, max_deals: int = 2):  # type: ignore[no-untyped-def]
    """A canonical-mode match played by random legal actions, yielded before each action."""
    m = new_match(preset(preset_name), seed, MatchConfig(max_deals=max_deals, move_mode=MoveMode.CANONICAL))
    rng = random.Random(seed)
    for _ in range(steps):
        if m.ended:
            return
        yield m
        m.apply(rng.choice(m.legal_actions()))


def test_sizes_are_the_documented_ones() -> None:
    assert len(PATTERNS) == 627
    assert ACTION_SIZE == 1 + 54 + 9 * 627 == 5698
    assert OBS_SIZE == 510
    assert len(set(PATTERNS)) == len(PATTERNS)
    assert describe_index(0) == "pass"
    assert describe_index(1 + 53) == "card 53 (BJ)"
    assert describe_index(1 + 0) == "card 0 (S2)" and describe_index(1 + 5) == "card 5 (H3)"
    with pytest.raises(ValueError):
        describe_index(ACTION_SIZE)


def test_pettingzoo_api_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice to use a Box observation space: ours is a Dict with the mask
        api_test(genv.env(max_deals=1), num_cycles=400, verbose_progress=False)


def test_gymnasium_check_env() -> None:
    e = gymnasium.make(genv.ENV_ID, preset="competition", opponents=["random"] * 3, seat=1, max_deals=1,
                       on_illegal="first_legal")
    check_env(e.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_masks_match_the_engines_legal_moves(preset_name: str) -> None:
    positions = 0
    for m in _walk(preset_name, seed=11, steps=400):
        legal = m.legal_actions()
        level = m.deal.level  # type: ignore[union-attr]
        idx, dropped = index_actions(legal, level)
        assert dropped == 0  # canonical mode keeps one play per index in these positions
        table_mask = np.zeros(ACTION_SIZE, dtype=bool)
        table_mask[list(idx)] = True
        for a in legal:  # every legal action's index is masked …
            assert table_mask[action_index(a, level)]
        for i, a in idx.items():  # … and every masked index decodes to a legal action with that index
            assert a in legal and action_index(a, level) == i
        positions += 1
    assert positions > 100


def test_aec_mask_is_the_movers_legal_set() -> None:
    e = genv.raw_env("huopin", max_deals=1)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    checked = 0
    while not all(e.truncations.values()):  # one deal of max_deals=1: cut, not won
        agent = e.agent_selection
        seat = int(agent[-1])
        m = e.table.m
        obs = e.observe(agent)
        expected = {action_index(a, m.deal.level) for a in m.observation(seat).deal.legal}  # type: ignore[union-attr]
        assert set(np.flatnonzero(obs["action_mask"])) == expected
        other = e.observe(e.possible_agents[(seat + 1) % 4])
        assert not other["action_mask"].any()
        feats = e.infos[agent]["legal_action_features"]
        assert feats.shape == (len(expected), genv.FEATURE_SIZE)
        assert e.infos[agent]["legal_indices"] == sorted(expected)
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.integers(len(legal))]))
        checked += 1
    assert checked > 50


def _aec_trace(seed: int, steps: int) -> list[bytes]:
    e = genv.raw_env("competition", max_deals=1)
    e.reset(seed=seed)
    out = []
    for _ in range(steps):
        obs = e.observe(e.agent_selection)
        out.append(obs["observation"].tobytes() + obs["action_mask"].tobytes())
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    return out


def test_seeded_resets_reproduce_observations() -> None:
    assert _aec_trace(42, 60) == _aec_trace(42, 60)
    assert _aec_trace(42, 1) != _aec_trace(43, 1)
    g = gymnasium.make(genv.ENV_ID, opponents=["heuristic", "greedy", "random"], seat=2, max_deals=1)
    first = [g.reset(seed=9)[0]["observation"].tobytes()]
    second = [g.reset(seed=9)[0]["observation"].tobytes()]
    for trace in (first, second):
        g.reset(seed=9)
        for _ in range(15):
            o, _r, over, cut, _info = g.step(_first_legal(g))
            done = over or cut
            trace.append(o["observation"].tobytes())
            if done:
                break
    assert first == second


def _first_legal(g: gymnasium.Env) -> int:  # type: ignore[type-arg]
    table = g.unwrapped.table  # type: ignore[attr-defined]
    return min(table.indices()[0])


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_a_random_episode_terminates(preset_name: str) -> None:
    e = genv.env(preset_name, max_deals=2)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    returns = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(max_iter=5000):
        obs, reward, term, trunc, _ = e.last()
        returns[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.integers(len(legal))]))
    assert not e.agents  # every agent left: the episode ended
    m = e.unwrapped.table.m  # type: ignore[attr-defined]
    assert m.ended and len(m.deals) == 2
    expected = [0.0] * 4
    for d in m.deals:
        if preset(preset_name).scoring == "huopin_points":
            assert d.points is not None
            expected = [x + p for x, p in zip(expected, d.points, strict=True)]
        else:
            won = d.finish[0] % 2
            expected = [x + (d.settlement.upgrade if s % 2 == won else -d.settlement.upgrade)
                        for s, x in enumerate(expected)]
    assert [returns[f"seat_{s}"] for s in range(4)] == expected
    if preset(preset_name).scoring != "huopin_points":
        assert returns["seat_0"] == -returns["seat_1"] and any(returns.values())


def test_gym_episode_against_heuristics_ends_with_a_reward() -> None:
    g = gymnasium.make(genv.ENV_ID, preset="huaian-2009", opponents=["heuristic"] * 3, seat=0, max_deals=1)
    g.reset(seed=4)
    total, done, steps = 0.0, False, 0
    while not done and steps < 500:
        _o, r, over, cut, _info = g.step(_first_legal(g))
        done = over or cut
        total += r
        steps += 1
    assert done and total != 0.0


def test_observation_ignores_other_seats_hidden_cards() -> None:
    """Two matches that differ only in how seats 2 and 3 split their cards look the same from seat 0."""
    rules = preset("competition")
    base = new_match(rules, 77, MatchConfig(move_mode=MoveMode.CANONICAL))
    hands = [list(h) for h in base.deal.initial_hands]  # type: ignore[union-attr]
    swapped = [hands[0], hands[1], hands[2][:13] + hands[3][13:], hands[3][:13] + hands[2][13:]]
    assert sorted(swapped[2]) != sorted(hands[2])
    def match(h: list[list[int]]) -> MatchState:
        return new_match(rules, 77, MatchConfig(move_mode=MoveMode.CANONICAL, first_leader=0,
                                                first_hands=tuple(tuple(x) for x in h)))

    a, b = match(hands), match(swapped)
    for seat in range(4):
        same = np.array_equal(Encoder().encode(a.observation(seat)), Encoder().encode(b.observation(seat)))
        assert same == (seat in (0, 1))  # seats 2 and 3 see their own changed hands: the test can tell
    # seat 0 plays the same first card in both; its view still matches
    first = next(x for x in a.legal_actions() if x.kind == ActionKind.PLAY and len(x.cards) == 1)
    a.apply(first)
    b.apply(first)
    assert np.array_equal(encode(a.observation(0)), encode(b.observation(0)))


def test_encoding_slots_and_incremental_tallies() -> None:
    enc = Encoder()
    for m in _walk("huaian-traditional", seed=8, steps=600, max_deals=3):
        seat = m.to_move
        assert seat is not None
        view = m.observation(seat)
        v = enc.encode(view)
        assert np.array_equal(v, encode(view))  # the cached tallies equal a fresh encoding
        assert v[:54].sum() == len(view.deal.hand)
        assert v[OFFSET["phase"]:OFFSET["phase"] + 5].sum() == 1
        assert v[OFFSET["deal_level"] + view.deal.level] == 1
        played = v[OFFSET["played"]:OFFSET["played"] + 216].reshape(4, 54).sum(axis=1)
        assert list(played) == [view.deal.played_counts[(seat + k) % 4] for k in range(4)]
        if view.deal.phase == Phase.RETURN:
            assert v[OFFSET["tribute"]:OFFSET["tribute"] + 54].sum() >= 1  # the tribute was seen
    assert enc._deal is not None and enc._deal[0] == 2  # reached the third deal, after tributes


def test_deal_rewards_are_zero_sum_levels() -> None:
    from guandan.core.events import DealSettled

    e = DealSettled((1, 3, 0, 2), (0, 3), 1, 3, 2)
    assert deal_rewards([e], preset("competition")) == [-3.0, 3.0, -3.0, 3.0]


def test_illegal_index_raises_unless_asked() -> None:
    e = genv.raw_env(max_deals=1)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(Exception, match="not legal"):
        e.step(bad)
    assert isinstance(Action(ActionKind.PASS, 0), tuple)


def test_bench_env_command_prints_sane_figures() -> None:
    _mount()
    result = CliRunner().invoke(app, ["bench", "env", "--steps", "300", "--preset", "huopin", "--json"])
    assert result.exit_code == 0, result.output
    fig = json.loads(result.output)
    assert fig["preset"] == "huopin" and fig["steps"] == 300
    assert fig["steps_per_s"] > 0 and fig["us_per_step"] > 0
    assert 1 <= fig["legal_mean"] <= fig["legal_max"]


def _play_out(g: gymnasium.Env, seed: int) -> list[bytes]:
    """A whole Gym episode of random masked actions (seeded): each observation and mask, and the rewards."""
    obs, _info = g.reset(seed=seed)
    rng, done, trace = np.random.default_rng(seed), False, []
    while not done:
        trace.append(obs["observation"].tobytes() + obs["action_mask"].tobytes())
        obs, reward, over, cut, _info = g.step(rng.choice(np.flatnonzero(obs["action_mask"])))
        done = over or cut
        trace.append(repr(reward).encode())
    return trace


def test_gym_same_seed_same_whole_episode() -> None:
    g = gymnasium.make(genv.ENV_ID, opponents=["heuristic", "random", "search:max_worlds=2"], max_deals=1)
    assert _play_out(g, 7) == _play_out(g, 7)
    assert _play_out(g, 7) != _play_out(g, 8)


def test_gym_step_after_the_episode_asks_for_reset() -> None:
    for on_illegal in ("raise", "first_legal"):
        g = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, max_deals=1, on_illegal=on_illegal)
        _play_out(g, 3)
        with pytest.raises(gymnasium.error.ResetNeeded, match=r"episode is over .* call reset\(\)"):
            g.step(0)
        g.reset(seed=3)  # and a reset starts the next one
        g.step(_first_legal(g))


def test_gym_illegal_index_raises_the_exported_error_or_plays_the_first_legal() -> None:
    g = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, max_deals=1)
    obs, _ = g.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(genv.IllegalActionError, match=f"action index {bad} is not legal"):
        g.step(bad)
    g = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, max_deals=1, on_illegal="first_legal")
    g.reset(seed=1)
    _o, _r, _d, _t, info = g.step(bad)
    assert info["illegal_action"] is True


def test_gym_opponents_are_the_other_seats_in_order() -> None:
    g = gymnasium.make(genv.ENV_ID, opponents=["random", "greedy", "heuristic"], seat=1, max_deals=1)
    g.reset(seed=1)
    agents = g.unwrapped.agents  # type: ignore[attr-defined]
    assert {s: type(a).__name__ for s, a in agents.items()} == {0: "RandomAgent", 2: "GreedyAgent", 3: "HeuristicAgent"}
    with pytest.raises(GuandanError, match=r"list of the three other seats' agent specs.*not the one string \"heuristic\""):
        gymnasium.make(genv.ENV_ID, opponents="heuristic")


def _doc_examples() -> list[str]:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
    return [block.split("```", 1)[0] for block in text.split("```python\n")[1:]]


def test_the_docs_python_examples_run_as_written(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from guandan.agents import agent_names
    from guandan.agents import base as agents_base

    agent_names()  # the built-in tiers loaded, then a registry of this test's own: the page registers my-policy
    monkeypatch.setattr(agents_base, "_REGISTRY", dict(agents_base._REGISTRY))
    monkeypatch.setattr(agents_base, "_OPTIONS", dict(agents_base._OPTIONS))
    examples = _doc_examples()
    assert len(examples) >= 4  # the Gymnasium loop, the PettingZoo one, evaluation, PolicyAgent in both
    for code in examples:
        exec(compile(code, "docs/research.md", "exec"), {"__name__": "__docs__"})
    out = capsys.readouterr().out
    assert "return" in out
    assert "the policy's team (seats 0 and 2) against two heuristics: return" in out
    assert "my-policy vs random:" in out and "my-policy vs heuristic:" in out and ", 0 illegal" in out

"""Legal-action features in Gymnasium's vector environments: ``action_features="padded"`` gives them a fixed shape
(``max_legal_actions`` rows and a mask), which both vector kinds stack; the variable-length rows could not be."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

import guandan.env as genv
from guandan.core.errors import GuandanError

ROWS = 256
N = 3


def _plain_infos(seed: int, steps: int) -> list[list[dict[str, Any]]]:
    """Each environment's infos over ``steps`` steps, played alone with variable-length features (the vector
    seeds its environment i with ``seed + i``)."""
    out = []
    for i in range(N):
        e = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, max_deals=1)
        obs, info = e.reset(seed=seed + i)
        infos = [info]
        for _ in range(steps):
            obs, _r, _t, _tr, info = e.step(int(np.flatnonzero(obs["action_mask"])[0]))
            infos.append(info)
        out.append(infos)
    return out


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_padded_features_stack_in_both_vector_kinds(mode: str) -> None:
    steps = 6
    plain = _plain_infos(5, steps)
    v = gymnasium.make_vec(genv.ENV_ID, num_envs=N, vectorization_mode=mode, opponents=["random"] * 3, max_deals=1,
                           action_features="padded", max_legal_actions=ROWS)
    try:
        obs, info = v.reset(seed=5)
        for step in range(steps + 1):
            feats, legal, mask = info["legal_action_features"], info["legal_indices"], info["legal_features_mask"]
            assert feats.shape == (N, ROWS, genv.FEATURE_SIZE) and feats.dtype == np.int8
            assert legal.shape == (N, ROWS) and mask.shape == (N, ROWS)
            for i in range(N):
                n = int(mask[i].sum())
                assert mask[i].tolist() == [1] * n + [0] * (ROWS - n)
                assert legal[i, :n].tolist() == np.flatnonzero(obs["action_mask"][i]).tolist() == plain[i][step][
                    "legal_indices"]
                assert (legal[i, n:] == -1).all() and not feats[i, n:].any()
                assert np.array_equal(feats[i, :n], plain[i][step]["legal_action_features"])
            if step < steps:
                obs, _r, _t, _tr, info = v.step([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
    finally:
        v.close()


def test_by_default_the_rows_are_the_whole_action_space_which_no_position_exceeds() -> None:
    v = gymnasium.make_vec(genv.ENV_ID, num_envs=2, vectorization_mode="sync", opponents=["random"] * 3, max_deals=1,
                           action_features="padded")
    _obs, info = v.reset(seed=1)
    assert info["legal_action_features"].shape == (2, genv.ACTION_SIZE, genv.FEATURE_SIZE)
    v.close()


def test_an_ended_episode_keeps_the_shape_with_no_legal_row() -> None:
    """The learner's info at the end of its match has the keys too, empty: a vector whose environments all end
    at one step still finds them."""
    e = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, max_deals=1, action_features="padded",
                       max_legal_actions=ROWS)
    obs, _ = e.reset(seed=2)
    done = False
    while not done:
        obs, _r, term, trunc, info = e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        done = term or trunc
    assert info["legal_action_features"].shape == (ROWS, genv.FEATURE_SIZE) and not info["legal_features_mask"].any()
    assert genv.legal_action_features(info).shape == (0, genv.FEATURE_SIZE)


def test_the_helper_gives_one_environments_rows_without_the_padding() -> None:
    padded = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, max_deals=1, action_features="padded")
    plain = gymnasium.make(genv.ENV_ID, opponents=["random"] * 3, max_deals=1)
    _o, a = padded.reset(seed=3)
    _o, b = plain.reset(seed=3)
    assert a["legal_action_features"].shape == (genv.ACTION_SIZE, genv.FEATURE_SIZE)
    assert np.array_equal(genv.legal_action_features(a), genv.legal_action_features(b))
    assert len(genv.legal_action_features(b)) == len(b["legal_indices"]) < genv.ACTION_SIZE


def test_the_aec_env_pads_the_movers_features_too() -> None:
    e = genv.env(max_deals=1, action_features="padded", max_legal_actions=ROWS)
    e.reset(seed=1)
    info = e.infos[e.agent_selection]
    n = int(info["legal_features_mask"].sum())
    assert info["legal_action_features"].shape == (ROWS, genv.FEATURE_SIZE)
    assert info["legal_indices"][:n].tolist() == np.flatnonzero(e.observe(e.agent_selection)["action_mask"]).tolist()


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"action_features": "pad"}, 'action_features is true, false or "padded", not "pad"'),
    ({"max_legal_actions": 64}, 'max_legal_actions sizes the padded features: it needs action_features="padded"'),
    ({"action_features": "padded", "max_legal_actions": 0}, "max_legal_actions must be 1…5698, not 0"),
], ids=["mode", "without-padding", "zero"])
def test_wrong_padding_arguments_are_named(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(GuandanError) as caught:
        genv.GuandanGymEnv(opponents=["random"] * 3, lang="en", **kwargs)
    assert str(caught.value) == message


def test_too_few_rows_for_a_position_is_said_with_its_count() -> None:
    e = genv.GuandanGymEnv(opponents=["random"] * 3, action_features="padded", max_legal_actions=1, lang="en")
    with pytest.raises(GuandanError, match=r"^\d+ legal actions here, more than max_legal_actions=1: raise it \(no "
                                           r"position has more than 5698\)$"):
        e.reset(seed=1)

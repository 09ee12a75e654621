"""--model and --rollout on the CLI: a bad model file is one error line and exit 2, never a
crash; a model for another game, player count, feature count or feature version is refused;
--rollout random is today's search."""
import json

import numpy as np
import pytest

from atelier import model as model_file
from cli_helpers import one_error_line, run
from model_helpers import random_model

POS = "example:inventors-mid"   # three players


@pytest.fixture()
def good(tmp_path):
    p = tmp_path / "m.npz"
    model_file.save(random_model(game="inventors", players=3, features=20), p)
    return p


def _refused(path, *extra):
    return one_error_line(run("suggest", POS, "--iterations", "50", "--model", path, *extra))


def test_a_missing_file(tmp_path):
    assert "no such file" in _refused(tmp_path / "none.npz")


def test_a_file_that_is_not_a_model(tmp_path):
    p = tmp_path / "junk.npz"
    p.write_bytes(b"\x00\x01garbage" * 100)
    assert "not a readable atelier model file" in _refused(p)


def test_a_truncated_file(tmp_path, good):
    p = tmp_path / "cut.npz"
    p.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    assert _refused(p).startswith("error: model")


def test_a_corrupted_member(tmp_path, good):
    p = tmp_path / "bad.npz"
    data = bytearray(good.read_bytes())
    for i in range(len(data) // 3, len(data) // 3 + 64):
        data[i] ^= 0x5A
    p.write_bytes(bytes(data))
    assert _refused(p).startswith("error: model")


@pytest.mark.parametrize("key,value", [
    ("W1", np.zeros((20, 7), np.float32)),        # wrong shape against its own meta
    ("bwin", np.zeros(3, np.float64)),             # wrong type
    ("mean", np.full(20, np.nan, np.float32)),     # not finite
])
def test_a_wrong_array(tmp_path, good, key, value):
    with np.load(good, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    arrays[key] = value
    p = tmp_path / "shape.npz"
    np.savez(p, **arrays)
    assert key in _refused(p)


def test_a_pickle_is_never_loaded(tmp_path):
    p = tmp_path / "pickle.npz"
    np.savez(p, meta=np.array([{"format": "atelier.model/1"}], dtype=object))
    assert _refused(p).startswith("error: model")


@pytest.mark.parametrize("game,players,expect", [
    ("leonardo", 3, "made for leonardo with 3 players"),
    ("inventors", 2, "made for inventors with 2 players"),
])
def test_a_model_for_another_game_or_player_count(tmp_path, game, players, expect):
    p = tmp_path / "other.npz"
    model_file.save(random_model(game=game, players=players, features=20), p)
    assert expect in _refused(p)


def test_a_model_with_another_feature_count_or_version(tmp_path):
    from atelier.cli.options import read_position
    from atelier.solvers import engine

    count, version, _ = engine.position_features(read_position(POS, None))
    for features, fv in ((count + 1, version), (max(count, 1), version + 1)):
        p = tmp_path / f"f{features}-{fv}.npz"
        model_file.save(random_model(game="inventors", players=3, features=features,
                                     feature_version=fv), p)
        assert _refused(p).startswith("error: model: ")


def test_a_model_with_rollout_random_is_refused(good):
    assert "uses no model" in _refused(good, "--rollout", "random")


def test_rollout_random_through_the_cli_is_the_search_without_a_model():
    r = run("suggest", POS, "--iterations", "300", "--seed", "3", "--rollout", "random", "--json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["evaluation"] == "random" and d["model"] is None


@pytest.mark.parametrize("key,value", [("leaf_moves", v) for v in (-1, 10001, 2.5, "4", True)]
                         + [("leaf_mix", v) for v in (-0.5, 1.01, "0.5", True)])
def test_a_bad_search_setting_in_the_meta(tmp_path, good, key, value):
    with np.load(good, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays["meta"][()]))
    meta[key] = value
    arrays["meta"] = np.array(json.dumps(meta))
    p = tmp_path / "setting.npz"
    np.savez(p, **arrays)
    assert f"meta.{key}" in _refused(p)

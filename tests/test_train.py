"""atelier train (atelier.train, docs/models.md "Training"): a tiny run gives models that load
and whose training loss falls; a run resumed after an interruption ends with the same files as
an uninterrupted one; the same seed gives the same data and model, another seed others; bad
settings are one error line. Runs of seconds; longer ones are marked slow."""
import json
import os

import numpy as np
import pytest

import atelier
from atelier import InputError, model, train
from cli_helpers import one_error_line, run

TINY = dict(game="inventors", players=2, games=4, generations=1, iterations=8, positions=6, epochs=25,
            gen0="search")


def tiny(**kw):
    return train.Settings(**{**TINY, **kw})


def arrays(path):
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


def same_files(a, b, gens):
    for g in range(gens):
        for name in ("data.npz", "model.npz"):
            x, y = arrays(os.path.join(a, f"gen-{g}", name)), arrays(os.path.join(b, f"gen-{g}", name))
            assert x.keys() == y.keys()
            for k in x:
                assert np.array_equal(x[k], y[k]), (g, name, k)
        with open(os.path.join(a, f"gen-{g}", "match.json")) as f, open(os.path.join(b, f"gen-{g}", "match.json")) as h:
            assert json.load(f) == json.load(h)
    with open(os.path.join(a, "state.json")) as f, open(os.path.join(b, "state.json")) as h:
        sa, sb = json.load(f), json.load(h)
    for e in sa["generations"] + sb["generations"]:
        e.pop("self_play_cpu_seconds")   # the only field that is a measurement
    assert sa == sb


def test_tiny_run_gives_a_model_that_loads_and_learns(tmp_path):
    state = train.run(tiny(seed=1), str(tmp_path))
    g = state["generations"][0]
    m = model.load(tmp_path / "gen-0" / "model.npz")
    game = atelier.open("inventors", players=2, seed=0)
    assert (m.game, m.players, m.features, m.feature_version) == ("inventors", 2, game.feature_count, game.feature_version)
    assert g["losses"][-1] < g["losses"][0]           # training loss falls
    assert g["rows"] == 4 * 6 * 2 and g["searcher"] == "mcts:8:random"
    p = m.provenance
    for key in ("games", "positions", "searchers", "validation_loss", "calibration_ece", "admitting_match"):
        assert key in p
    assert p["games"] == 4 and p["positions"] == 24 and 0 <= p["calibration_ece"] <= 1
    # The model's rows: win shares sum to 1 and the data's labels are the games' outcomes.
    d = arrays(tmp_path / "gen-0" / "data.npz")
    win, _ = m.forward(d["x"])
    assert np.allclose(win.sum(1), 1, atol=1e-5)
    assert np.allclose(d["win"].sum(1), 1)
    assert (tmp_path / "model.npz").exists() == g["match"]["admitted"]


def test_greedy_generation_zero(tmp_path):
    """gen0="greedy": generation 0 is gen0_games ε-greedy games (cheap), judged against the
    searcher the package runs without a model (random playouts); generation 1 searches with the
    best model if one was admitted. Local worker processes give the same data."""
    s = tiny(seed=3, gen0="greedy", gen0_games=30, epsilon=0.1, generations=2, games=3)
    state = train.run(s, str(tmp_path / "a"))
    g0, g1 = state["generations"]
    assert g0["searcher"] == "greedy (epsilon 0.1)" and g0["games"] == 30 and g0["rows"] == 30 * 6 * 2
    assert g0["match"]["opponent"] == "mcts:8:random"
    assert g1["games"] == 3 and g1["searcher"] == ("mcts:8" if g0["match"]["admitted"] else "mcts:8:random")
    d = arrays(tmp_path / "a" / "gen-0" / "data.npz")
    same = train.generate(s, 0, None, runner=train.process_runner(2))
    for k in ("x", "win", "score", "game"):
        assert np.array_equal(d[k], same[k]), k
    # ε changes the games: with no random moves the same seeds play other games.
    plain = train.generate(tiny(seed=3, gen0="greedy", gen0_games=30, epsilon=0.0), 0, None)
    assert not np.array_equal(plain["x"], d["x"])


def test_rows_from_every_side_are_rotations(tmp_path):
    """Each position gives one row per seat: row p is labelled in the order p, p+1, ..."""
    x, win, score = train.selfplay_game("inventors", 3, "greedy", None, 5, 0, 0, 4)
    assert x.shape[0] == win.shape[0] == score.shape[0] == 12
    for r in range(0, 12, 3):
        for p in range(3):
            assert np.array_equal(win[r + p], np.roll(win[r], -p))
            assert np.array_equal(score[r + p], np.roll(score[r], -p))


def test_resume_gives_the_same_result(tmp_path):
    whole, parts = str(tmp_path / "whole"), str(tmp_path / "parts")
    train.run(tiny(seed=2, generations=2), whole)
    train.run(tiny(seed=2, generations=1), parts)       # stopped after one generation ...
    train.run(tiny(seed=2, generations=2), parts)       # ... and continued
    same_files(whole, parts, 2)
    # Interrupted inside generation 1, after its data: the rerun finishes it the same way.
    os.remove(os.path.join(parts, "gen-1", "match.json"))
    os.remove(os.path.join(parts, "gen-1", "model.npz"))
    with open(os.path.join(parts, "state.json")) as f:
        st = json.load(f)
    st["generations"] = st["generations"][:1]
    st["best"] = None if not st["generations"][0]["match"]["admitted"] else "gen-0/model.npz"
    with open(os.path.join(parts, "state.json"), "w") as f:
        json.dump(st, f)
    train.run(tiny(seed=2, generations=2), parts)
    same_files(whole, parts, 2)


def test_deterministic_per_seed(tmp_path):
    a, b, c = (str(tmp_path / k) for k in "abc")
    train.run(tiny(seed=4), a)
    train.run(tiny(seed=4), b)
    same_files(a, b, 1)
    train.run(tiny(seed=5), c)
    assert not np.array_equal(arrays(os.path.join(a, "gen-0", "data.npz"))["x"],
                              arrays(os.path.join(c, "gen-0", "data.npz"))["x"])


def test_fit_learns_a_known_rule():
    """On synthetic rows whose winner is the seat with the larger first feature, the network
    learns it: the validation loss falls well below chance and the calibration error is small."""
    rng = np.random.default_rng(0)
    n = 2000
    x = rng.random((n, 6)).astype(np.float32)
    w0 = (x[:, 0] > x[:, 1]).astype(np.float32)
    win = np.stack([w0, 1 - w0], 1)
    score = np.stack([10 * x[:, 0], 10 * x[:, 1]], 1).astype(np.float32)
    s = train.Settings(game="inventors", players=2, epochs=40)
    m, info = train.fit({"x": x, "win": win, "score": score, "game": np.arange(n) // 4}, s, 3, 1)
    assert info["history"][0]["val"] > info["validation_loss"]
    assert info["validation_cross_entropy"] < 0.35        # chance is ln 2 = 0.69
    assert info["calibration_ece"] < 0.08
    assert info["score_mae"] < 1.0
    pred, sc = m.forward(x[:5])
    assert np.allclose(pred.sum(1), 1, atol=1e-5) and sc.shape == (5, 2)


def test_calibration_error():
    assert train.calibration_error([0.25, 0.25, 0.75, 0.75], [0, 0.5, 1, 0.5]) == pytest.approx(0.0)
    assert train.calibration_error([0.9, 0.9], [0, 0]) == pytest.approx(0.9)


def test_bad_settings_are_input_errors(tmp_path):
    for kw, field in ((dict(players=7), "players"), (dict(games=0), "games"), (dict(game="chess"), "game"),
                      (dict(iterations=True), "iterations"), (dict(seed=-1), "seed"), (dict(gen0="x"), "gen0"),
                      (dict(epsilon=1.5), "epsilon"), (dict(gen0_games=0), "gen0-games")):
        with pytest.raises(InputError, match=field):
            train.run(tiny(**kw), str(tmp_path / "x"))
    train.run(tiny(seed=1), str(tmp_path / "run"))
    with pytest.raises(InputError, match="other settings"):
        train.run(tiny(seed=2), str(tmp_path / "run"))
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "state.json").write_text("{")
    with pytest.raises(InputError, match="state.json"):
        train.run(tiny(seed=1), str(tmp_path / "bad"))


def test_cli(tmp_path):
    out = tmp_path / "cli"
    r = run("train", "--game", "inventors", "--players", "2", "--games", "3", "--generations", "1",
            "--iterations", "5", "--positions", "4", "--seed", "1", "--gen0", "search", "--out", str(out))
    assert r.exit_code == 0, r.stderr
    assert "generation 0: 12 positions by mcts:5:random" in r.stdout
    assert model.load(out / "gen-0" / "model.npz").players == 2
    assert "error: out" in one_error_line(run("train", "--game", "inventors", "--players", "2", "--games", "4",
                                              "--generations", "1", "--iterations", "5", "--positions", "4",
                                              "--seed", "1", "--gen0", "search", "--out", str(out)))
    r = run("train", "--game", "leonardo", "--players", "2", "--generations", "1", "--gen0-games", "12",
            "--epsilon", "0.2", "--iterations", "4", "--positions", "3", "--workers", "2", "--out", str(tmp_path / "g"))
    assert r.exit_code == 0, r.stderr
    assert "generation 0: 36 positions by greedy (epsilon 0.2)" in r.stdout
    assert "--iterations" in one_error_line(run("train", "--game", "inventors", "--iterations", "0"))


@pytest.mark.slow
@pytest.mark.parametrize("game", ["inventors", "leonardo", "craftsmen"])
def test_small_run_learns_every_ruleset(tmp_path, game):
    """A few minutes per ruleset: two generations of 2-player self-play; each candidate's
    validation cross entropy on held-out games beats chance (ln 2) and its files load."""
    s = train.Settings(game=game, players=2, games=40 if game != "craftsmen" else 12, generations=2,
                       iterations=20, positions=8, seed=1, gen0_games=400)
    state = train.run(s, str(tmp_path))
    for g in state["generations"]:
        assert g["training"]["validation_cross_entropy"] < np.log(2)
        assert model.load(tmp_path / f"gen-{g['generation']}" / "model.npz").game == game


def test_leaf_moves_are_written_into_the_models(tmp_path):
    train.run(tiny(seed=1, leaf_moves=2), str(tmp_path))
    assert model.load(tmp_path / "gen-0" / "model.npz").leaf_moves == 2
    with pytest.raises(InputError, match="leaf-moves"):
        tiny(leaf_moves=-1).check()


def test_leaf_mix_is_written_into_the_models(tmp_path):
    train.run(tiny(seed=1, leaf_mix=0.25, generations=1), str(tmp_path))
    assert model.load(tmp_path / "gen-0" / "model.npz").leaf_mix == 0.25
    for bad in (-0.1, 1.5, "0.5"):
        with pytest.raises(InputError, match="leaf-mix"):
            tiny(leaf_mix=bad).check()


def test_determinized_rows_are_what_a_search_leaf_sees():
    """--determinized: every position resampled from each seat's view (N determinizations, a row
    from every seat's side on each: N * N rows), deterministic per seed, labelled as the game
    ended."""
    x, win, score = train.selfplay_game("leonardo", 2, "greedy", None, 3, 0, 1, 3, 0.05, True)
    again = train.selfplay_game("leonardo", 2, "greedy", None, 3, 0, 1, 3, 0.05, True)
    plain, pwin, _ = train.selfplay_game("leonardo", 2, "greedy", None, 3, 0, 1, 3, 0.05, False)
    assert x.shape[0] == 2 * plain.shape[0] == 12 and np.isfinite(x).all()
    assert np.array_equal(x, again[0])
    # Each viewpoint's block of two rows carries the labels of the true game in rotated order.
    for b in range(6):
        assert np.array_equal(win[2 * b:2 * b + 2], pwin[:2])
    # Somewhere the resampled hidden parts differ from the true state.
    assert not np.array_equal(np.repeat(plain.reshape(3, 1, 2, -1), 2, axis=1).reshape(12, -1), x)


def test_determinized_needs_hidden_information():
    with pytest.raises(InputError, match="no hidden information"):
        tiny(determinized=True).check()
    assert train.Settings(game="leonardo", players=3, determinized=True).check().rows_per_position == 9


def test_runs_from_before_determinized_resume(tmp_path):
    out = str(tmp_path / "old")
    train.run(tiny(seed=4), out)
    path = os.path.join(out, "state.json")
    with open(path) as f:
        state = json.load(f)
    del state["settings"]["determinized"]   # as written before the setting existed
    with open(path, "w") as f:
        json.dump(state, f)
    assert train.run(tiny(seed=4), out)["generations"][0]["generation"] == 0


def test_self_play_stopped_midway_resumes_from_its_saved_parts(tmp_path, monkeypatch):
    """Self-play is saved every SELFPLAY_PART games: a run stopped inside a generation's
    self-play plays only the games not saved yet, and ends with the same files."""
    monkeypatch.setattr(train, "SELFPLAY_PART", 2)
    whole, parts = str(tmp_path / "whole"), str(tmp_path / "parts")
    train.run(tiny(seed=3, games=6), whole)

    def stop(stage, done, total):
        if "self-play" in stage and done == 3:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        train.run(tiny(seed=3, games=6), parts, progress=stop)
    saved = sorted(os.listdir(os.path.join(parts, "gen-0", "self-play")))
    assert saved == ["part-000000.npz"]
    played = []
    real = train.selfplay_game
    monkeypatch.setattr(train, "selfplay_game", lambda *a: played.append(a[6]) or real(*a))
    train.run(tiny(seed=3, games=6), parts)
    assert played == [2, 3, 4, 5]
    assert not os.path.exists(os.path.join(parts, "gen-0", "self-play"))   # data.npz holds them
    same_files(whole, parts, 1)

"""The search with a value model (docs/solvers.md, "Leaf evaluation"): a new leaf is judged by
the network from the mover's side and rotated back to seats, the reward keeps its small score
term, the result says which evaluation ran, it is deterministic per seed with 1 and 2 threads,
and proven values still override the model."""
import dataclasses
import math

import numpy as np
import pytest

from atelier import model as model_file
from atelier import solvers
from atelier.cli.options import read_position
from atelier.solvers import engine
from cli_helpers import run
from model_helpers import random_model

REPRO = __import__("pathlib").Path(__file__).parent / "repro" / "inventors-mcts-solver-proven-draw.json"


def model_for(state, hidden=(16,), seed=0, **kw):
    count, version, _ = engine.position_features(state)
    if count == 0:
        pytest.skip(f"{engine.position_game(state)} writes no features yet")
    players = engine.position_info(state)[0]
    return random_model(game=engine.position_game(state), players=players, features=count,
                        feature_version=version, hidden=hidden, seed=seed, **kw)


def _children(state):
    out = []
    for m in state.legal_moves():
        c = state.clone()
        c.apply(m)
        out.append(c)
    return out


@pytest.mark.parametrize("pos", ["example:inventors-mid", "example:inventors-start"])
def test_each_new_leaf_gets_the_network_value_rotated_to_seats(pos):
    state = read_position(pos, None)
    m = model_for(state)
    kids = _children(state)
    # One iteration per root move: each root child is a new leaf, judged once.
    r = solvers.mcts(state, iterations=len(kids), seed=1, model=m, solver=False, leaf_moves=0)
    assert r.evaluation == "model" and all(x.visits == 1 for x in r.moves)
    n = engine.position_info(state)[0]
    checked = 0
    for child, got in zip(kids, r.moves):
        if child.is_chance():
            continue   # the leaf samples its chance event first
        if child.is_terminal():
            continue
        seat = child.current_player
        _, _, row = engine.position_features(child, seat)
        win, score = m.forward(np.array(row, np.float32))
        want_win = [win[(q - seat) % n] for q in range(n)]
        want_score = [score[(q - seat) % n] for q in range(n)]
        np.testing.assert_allclose(got.win, want_win, atol=1e-5)
        np.testing.assert_allclose(got.score, want_score, rtol=1e-5, atol=1e-4)
        # the reward: the win share plus 0.01 tanh(margin / 10)
        for q in range(n):
            margin = want_score[q] - max(want_score[r_] for r_ in range(n) if r_ != q)
            assert got.value[q] == pytest.approx(want_win[q] + 0.01 * math.tanh(margin / 10), abs=1e-5)
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("pos,search", [("example:inventors-mid", solvers.mcts),
                                        ("example:leonardo-turn8", solvers.ismcts),
                                        ("example:craftsmen-auction", solvers.ismcts)])
def test_search_with_a_model_is_deterministic_per_seed_and_threads(pos, search):
    state = read_position(pos, None)
    m = model_for(state)
    for threads in (1, 2):
        a = search(state, iterations=400, seed=5, threads=threads, model=m)
        b = search(state, iterations=400, seed=5, threads=threads, model=m)
        assert a.evaluation == "model"
        assert a.signature == b.signature and [x.win for x in a.moves] == [x.win for x in b.moves]
    one = search(state, iterations=200, seed=5, threads=1, model=m)
    two = search(state, iterations=400, seed=5, threads=2, model=m)
    assert two.signature[0] == one.signature[0]   # tree 0 of two threads = one thread, half the budget


def test_leaf_moves_play_greedy_moves_before_the_model():
    state = read_position("example:inventors-mid", None)
    m = model_for(state)
    a = solvers.mcts(state, iterations=300, seed=2, model=m, leaf_moves=0)
    b = solvers.mcts(state, iterations=300, seed=2, model=m, leaf_moves=8)
    c = solvers.mcts(state, iterations=300, seed=2, model=m)
    assert a.evaluation == b.evaluation == "model" and a.signature != b.signature
    assert c.signature == solvers.mcts(state, iterations=300, seed=2, model=m,
                                       leaf_moves=solvers.DEFAULT_LEAF_MOVES).signature


def test_proven_values_override_the_model():
    state = read_position(str(REPRO), None)
    # A network sure that seat 0 wins everything, whatever the position.
    m = model_for(state, hidden=())
    m.win = (np.zeros_like(m.win[0]), np.array([20.0, -20.0], np.float32))
    r = solvers.mcts(state, iterations=2000, seed=3, model=m)
    assert r.evaluation == "model"
    assert r.proven == 0.5 and r.best.proven == 0.5
    exact = {x.text: x.bounds for x in solvers.solve(state, prove=True).moves}
    assert all(exact[x.text][0] <= x.proven <= exact[x.text][1] for x in r.moves if x.proven is not None)


def test_the_cli_takes_a_model_file_and_says_so(tmp_path):
    import json

    state = read_position("example:inventors-mid", None)
    p = tmp_path / "m.npz"
    model_file.save(model_for(state), p)
    out = run("suggest", "example:inventors-mid", "--iterations", "200", "--model", p, "--json")
    assert out.exit_code == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["evaluation"] == "model" and d["model"] == str(p)
    bot = solvers.make_bot("mcts:50", model=str(p))
    assert bot.search(state, 1).evaluation == "model"
    assert solvers.make_bot("mcts:50:random").search(state, 1).evaluation == "random"


def test_the_bundled_model_is_the_default(monkeypatch):
    state = read_position("example:inventors-mid", None)
    m = model_for(state)
    monkeypatch.setattr(solvers, "_BUNDLED", {("inventors", 3): m})
    r = solvers.mcts(state, iterations=100, seed=1)
    assert r.evaluation == "model" and r.model == "bundled:inventors-3p"
    assert solvers.mcts(state, iterations=100, seed=1, rollout="random").evaluation == "random"


def test_a_model_carries_its_own_leaf_moves(tmp_path):
    # A model made for a longer greedy lead-in (Leonardo's: docs/models.md) carries its count
    # in the file; the search uses it unless the caller names one.
    state = read_position("example:inventors-mid", None)
    m = model_for(state)
    m.leaf_moves = 8
    model_file.save(m, tmp_path / "m.npz")
    back = model_file.load(tmp_path / "m.npz")
    assert back.leaf_moves == 8
    own = solvers.mcts(state, iterations=300, seed=2, model=back)
    assert own.signature == solvers.mcts(state, iterations=300, seed=2, model=back, leaf_moves=8).signature
    assert own.signature != solvers.mcts(state, iterations=300, seed=2, model=back,
                                         leaf_moves=solvers.DEFAULT_LEAF_MOVES).signature


def test_leaf_mix_weighs_a_random_playout_beside_the_model(tmp_path):
    # leaf_mix w: a leaf's win shares are (1 - w) * the network's + w * a random playout's
    # outcome; its scores stay the network's.
    state = read_position("example:craftsmen-auction", None)
    m = model_for(state)
    plain = solvers.ismcts(state, iterations=300, seed=2, model=m)
    assert plain.signature == solvers.ismcts(state, iterations=300, seed=2, model=m, leaf_mix=0).signature
    half = solvers.ismcts(state, iterations=300, seed=2, model=m, leaf_mix=0.5)
    assert half.evaluation == "model" and half.signature != plain.signature
    # All playout for the win shares: the network's win head no longer matters, to the bit ...
    other = model_for(state, seed=7)
    win_other = dataclasses.replace(m, win=other.win)
    a = solvers.ismcts(state, iterations=300, seed=2, model=m, leaf_mix=1)
    b = solvers.ismcts(state, iterations=300, seed=2, model=win_other, leaf_mix=1)
    assert a.signature == b.signature and [x.win for x in a.moves] == [x.win for x in b.moves]
    assert [x.score for x in a.moves] == [x.score for x in b.moves]
    assert half.signature != a.signature
    # ... but its score head still gives every reported score (a random playout's points are
    # far below real play's).
    score_other = dataclasses.replace(m, score=other.score)
    c = solvers.ismcts(state, iterations=300, seed=2, model=score_other, leaf_mix=1)
    assert [x.score for x in c.moves] != [x.score for x in a.moves]
    # The model file carries its weight; the search uses it unless the caller names one, the
    # same on 1 and 2 threads for the same seed.
    m.leaf_mix = 0.5
    model_file.save(m, tmp_path / "m.npz")
    back = model_file.load(tmp_path / "m.npz")
    assert back.leaf_mix == 0.5
    assert solvers.ismcts(state, iterations=300, seed=2, model=back).signature == half.signature
    assert solvers.ismcts(state, iterations=300, seed=2, model=back, leaf_mix=0).signature == plain.signature
    for threads in (1, 2):
        one = solvers.ismcts(state, iterations=400, seed=5, threads=threads, model=back)
        assert one.signature == solvers.ismcts(state, iterations=400, seed=5, threads=threads, model=back).signature


@pytest.mark.parametrize("value", [-0.1, 1.5, float("nan"), "0.5", True])
def test_a_bad_leaf_mix_is_refused(value):
    from atelier.errors import InputError

    state = read_position("example:inventors-mid", None)
    with pytest.raises(InputError, match="leaf_mix"):
        solvers.mcts(state, iterations=10, model=model_for(state), leaf_mix=value)

"""The value network in C++ (solvers/valuenet.hpp through engine.Net) computes what the numpy
reference Model.forward does, for every shape the format allows the search to meet."""
import numpy as np
import pytest

from atelier.errors import InputError
from atelier.solvers import engine
from model_helpers import random_model


@pytest.mark.parametrize("hidden", [(), (7,), (32, 5), (3, 64, 17)])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_cpp_forward_equals_the_numpy_reference(hidden, players):
    for seed in range(3):
        m = random_model(players=players, features=11 + seed * 20, hidden=hidden, seed=seed)
        x = np.random.default_rng(100 + seed).normal(0, 3, (64, m.features)).astype(np.float32)
        x[::5, ::2] = 0.0   # exact zeros (the C++ skips zero inputs after a ReLU)
        want_win, want_score = m.forward(x)
        got_win, got_score = engine.Net(m).forward(x)
        np.testing.assert_allclose(got_win, want_win, atol=1e-5, rtol=0)
        # scores in the model's own units (before score_scale): 1e-5, relative where they are large
        np.testing.assert_allclose(got_score / m.score_scale, want_score / m.score_scale, atol=1e-5, rtol=1e-5)
        np.testing.assert_allclose(got_win.sum(axis=1), 1.0, atol=1e-9)
        w1, s1 = engine.Net(m).forward(x[3])
        np.testing.assert_allclose(w1, got_win[3], atol=1e-12)


def test_a_wide_net_at_the_format_limits_still_agrees():
    m = random_model(players=4, features=1024, hidden=(256, 256), seed=9)
    x = np.random.default_rng(1).normal(0, 1, (8, 1024)).astype(np.float32)
    np.testing.assert_allclose(engine.Net(m).forward(x)[0], m.forward(x)[0], atol=1e-5, rtol=0)


def test_forward_refuses_a_wrong_row_length():
    net = engine.Net(random_model(features=5))
    with pytest.raises(InputError, match="reads 5 values"):
        net.forward(np.zeros((2, 6), np.float32))


def test_a_model_built_in_python_with_a_wrong_shape_or_value_is_refused():
    m = random_model(features=6, hidden=(4,))
    m.layers = [(m.layers[0][0].T.copy(), m.layers[0][1])]     # (4, 6): as many numbers, wrong shape
    with pytest.raises(InputError, match="W1: shape"):
        engine.Net(m)
    m = random_model(features=6, hidden=(4,))
    m.score = (m.score[0], np.array([np.nan, 0.0], np.float32))
    with pytest.raises(InputError, match="bscore: not finite"):
        engine.Net(m)

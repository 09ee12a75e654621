"""Calibrated win chances (atelier.calibration): the fit finds the map that made the data, the map
keeps shares summing to 1 and the order of moves, a model file carries it (checked like every
other field), the search reports through it with the raw means beside, and `atelier calibrate`
fits one reproducibly from self-play."""
import dataclasses
import json
import math

import numpy as np
import pytest

from atelier import calibration as cal
from atelier import model as model_file
from atelier.errors import InputError
from atelier.solvers import mcts
from cli_helpers import one_error_line, run, strict_json


def _platt_data(a, b, n, seed):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.02, 0.98, n)
    truth = 1 / (1 + np.exp(-(a * np.log(p / (1 - p)) + b)))
    return p, (rng.random(n) < truth).astype(float)


@pytest.mark.parametrize("a,b", [(0.6, -0.4), (1.0, 0.0), (1.7, 0.3)])
def test_the_fit_finds_the_map_that_made_the_outcomes(a, b):
    p, y = _platt_data(a, b, 40_000, seed=int(10 * a))
    c = cal.fit(p, y)
    assert abs(c.a - a) < 0.05 and abs(c.b - b) < 0.05, (c.a, c.b)


def test_the_fit_lowers_the_calibration_error_of_an_overclaiming_search():
    p, y = _platt_data(0.7, -0.45, 5_000, seed=3)   # claims some 10 points too high for the mover
    c = cal.fit(p, y)
    after = np.array([c.mover(x) for x in p])
    assert cal.ece(p, y) > 0.07 and cal.ece(after, y) < 0.03


def test_ties_count_half():
    p = np.full(400, 0.5)
    y = np.array([0.5] * 200 + [1.0] * 100 + [0.0] * 100)
    c = cal.fit(p, y)
    assert abs(c.mover(0.5) - 0.5) < 1e-6


def test_too_few_claims_or_claims_that_predict_nothing_are_refused():
    with pytest.raises(InputError, match="at least 20"):
        cal.fit([0.5] * 5, [1.0] * 5)
    p = np.linspace(0.1, 0.9, 200)
    with pytest.raises(InputError, match="degenerate"):
        cal.fit(p, (p < 0.5).astype(float))   # higher claims lose: no order-keeping map fits


def test_ece_by_hand():
    # bin 0.1-0.2: claims 0.15, 0.15, outcomes 0, 1 -> |0.15 - 0.5| = 0.35, half the positions;
    # bin 0.9-1: claims 0.95, 0.95, outcomes 1, 1 -> 0.05, the other half
    assert cal.ece([0.15, 0.15, 0.95, 0.95], [0, 1, 1, 1]) == pytest.approx(0.2)


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_shares_sum_to_one_and_keep_the_movers_order(seats):
    c = cal.Calibration(0.6, -0.4)
    rng = np.random.default_rng(seats)
    prev = -1.0
    for p in np.linspace(0.0, 1.0, 41):
        rest = rng.dirichlet(np.ones(seats - 1)) * (1 - p)
        win = [float(x) for x in np.insert(rest, 1, p)]   # the mover is seat 1
        out = c.shares(win, 1)
        assert sum(out) == pytest.approx(1.0) and all(x >= 0 for x in out)
        assert out[1] > prev   # strictly increasing in the mover's claim
        prev = out[1]
        if 1 - p > 1e-9:   # the others keep their proportions
            others = [out[i] / (1 - out[1]) for i in range(seats) if i != 1]
            assert others == pytest.approx([win[i] / (1 - p) for i in range(seats) if i != 1])


def test_the_identity_map_changes_nothing_and_the_slope_is_its_derivative():
    assert cal.Calibration().shares([0.3, 0.7], 0) == pytest.approx([0.3, 0.7])
    c = cal.Calibration(0.6, -0.4)
    for p in (0.1, 0.5, 0.83):
        assert c.slope(p) == pytest.approx((c.mover(p + 1e-6) - c.mover(p - 1e-6)) / 2e-6, rel=1e-4)


def _calibrated(model, a=0.5, b=-0.3):
    return dataclasses.replace(model, calibration=cal.Calibration(a, b, {"search": "mcts:100"}))


def test_a_model_file_keeps_its_calibration(tmp_path):
    m = _calibrated(model_file.bundled("inventors", 2))
    model_file.save(m, tmp_path / "c.npz")
    back = model_file.load(tmp_path / "c.npz")
    assert (back.calibration.a, back.calibration.b) == (0.5, -0.3)
    assert back.calibration.fitted == {"search": "mcts:100"}
    assert model_file.bundled("inventors", 2).calibration is None   # Inventors ships none: it is calibrated


@pytest.mark.parametrize("bad,says", [
    ({"a": 0.0, "b": 0.0}, "meta.calibration.a: must be above 0"),
    ({"a": -1.0, "b": 0.0}, "meta.calibration.a: must be above 0"),
    ({"a": 1.0, "b": float("nan")}, "meta.calibration.b"),
    ({"a": True, "b": 0.0}, "meta.calibration.a"),
    ({"a": 1.0}, "meta.calibration.b"),
    ({"a": 1.0, "b": 99.0}, "meta.calibration.b"),
    ([1, 2], "meta.calibration: must be an object"),
])
def test_a_bad_calibration_in_a_file_is_one_error_line(tmp_path, bad, says):
    m = model_file.bundled("inventors", 2)
    arrays = m.arrays()
    meta = m.meta()
    meta["calibration"] = bad
    path = tmp_path / "bad.npz"
    with open(path, "wb") as f:
        np.savez(f, meta=np.array(json.dumps(meta)), **arrays)
    with pytest.raises(InputError, match="meta.calibration"):
        model_file.load(path)
    line = one_error_line(run("suggest", "example:inventors-late", "--iterations", "20", "--model", path))
    assert says in line


def test_the_search_reports_through_the_map_and_keeps_the_raw_means():
    from atelier.match import new_state_factory

    s = new_state_factory("inventors", 2)(5)
    plain = model_file.bundled("inventors", 2)
    r0 = mcts(s, iterations=600, seed=4, model=plain)
    c = _calibrated(plain)
    r1 = mcts(s, iterations=600, seed=4, model=c)
    assert not r0.calibrated and r1.calibrated
    assert r1.signature == r0.signature and r1.best_move == r0.best_move   # the same search
    p = r0.player
    for m0, m1 in zip(r0.moves, r1.moves):
        assert m0.win_raw is None
        assert m1.win_raw == (m0.win if m0.visits else None)   # an unvisited move has no data to map
        if m0.visits:
            assert m1.win[p] == pytest.approx(c.calibration.mover(m0.win[p]))
            assert sum(m1.win) == pytest.approx(1.0)
            assert m1.win_ci == pytest.approx(m0.win_ci * c.calibration.slope(m0.win[p]))
    # the map pulls the claims down here (b < 0, a < 1 above 50%): the mover's best is lower
    assert r1.best.win[p] < r0.best.win[p] or r0.best.win[p] < 0.35


def test_suggest_json_says_calibrated(tmp_path):
    path = tmp_path / "c.npz"
    model_file.save(_calibrated(model_file.bundled("inventors", 2)), path)
    start = tmp_path / "s.json"
    r = run("new", "inventors", "--players", "2", "--seed", "3")
    start.write_text(r.stdout)
    out = strict_json(run("suggest", start, "--iterations", "300", "--model", path, "--json").stdout)
    assert out["calibrated"] is True
    seen = [m for m in out["moves"] if m["visits"]]
    assert all(m["win_raw"] is not None and m["win"] != m["win_raw"] for m in seen)
    plain = strict_json(run("suggest", start, "--iterations", "300", "--json").stdout)
    assert plain["calibrated"] is False and all(m["win_raw"] is None for m in plain["moves"])
    text = run("suggest", start, "--iterations", "300", "--model", path).stdout
    assert "calibrated" in text


def test_atelier_calibrate_fits_from_self_play_and_is_reproducible(tmp_path):
    src = tmp_path / "m.npz"
    model_file.save(model_file.bundled("inventors", 2), src)
    outs = []
    for k in range(2):
        out = tmp_path / f"c{k}.npz"
        r = run("calibrate", src, "--out", out, "--games", "4", "--iterations", "40", "--seed", "2")
        assert r.exit_code == 0, r.stderr
        assert "claims of 4 games" in r.stdout
        outs.append(model_file.load(out))
    a, b = outs
    assert (a.calibration.a, a.calibration.b) == (b.calibration.a, b.calibration.b)
    f = a.calibration.fitted
    assert f["search"] == "mcts:40" and f["games"] == 4 and f["positions"] == 32 and f["seed"] == 2
    assert math.isfinite(f["ece_before"]) and math.isfinite(f["ece_after"])
    # the network itself is unchanged
    assert all(np.array_equal(x, y) for x, y in zip(a.arrays().values(), model_file.bundled("inventors", 2).arrays().values()))


def test_calibrate_refuses_a_bad_model_file(tmp_path):
    p = tmp_path / "junk.npz"
    p.write_bytes(b"junk")
    assert "not a readable atelier model file" in one_error_line(run("calibrate", p, "--out", tmp_path / "o.npz"))


def test_calibrate_takes_the_packages_model_by_the_name_suggest_reports(tmp_path):
    r = run("calibrate", "bundled:inventors-2p", "--out", tmp_path / "c.npz", "--games", "3", "--iterations", "30")
    assert r.exit_code == 0, r.stderr
    m = model_file.load(tmp_path / "c.npz")
    assert (m.game, m.players, m.calibration.fitted["positions"]) == ("inventors", 2, 24)


@pytest.mark.parametrize("name", ["bundled:craftsmen-6p", "bundled:chess-2p", "bundled:inventors-9p", "bundled:"])
def test_calibrate_refuses_a_bundled_model_the_package_does_not_ship(tmp_path, name):
    assert "ships no such model" in one_error_line(run("calibrate", name, "--out", tmp_path / "o.npz"))


def test_an_unvisited_move_has_nothing_to_calibrate():
    from atelier.match import new_state_factory

    s = new_state_factory("inventors", 2)(5)
    r = mcts(s, iterations=3, seed=1, model=_calibrated(model_file.bundled("inventors", 2)))
    unvisited = [m for m in r.moves if m.visits == 0]
    assert unvisited and r.calibrated
    assert all(m.win_raw is None and m.win == [0.0, 0.0] for m in unvisited)

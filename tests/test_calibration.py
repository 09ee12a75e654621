"""Calibrated win chances and expected scores (atelier.calibration): the fits find the maps that
made the data, the win map keeps shares summing to 1 and the order of moves, the score map is the
identity where nothing is left to gain, a model file carries both (checked like every other
field), the search reports through them with the raw means beside, and `atelier calibrate` fits
them reproducibly from self-play."""
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


def _gain_data(gain, n, seed):
    """Every seat's points now, a network's expected final score and the final score made by play
    that gains `gain` times what the network expects, with noise."""
    rng = np.random.default_rng(seed)
    now = rng.uniform(0, 80, n)
    predicted = now + rng.uniform(0, 60, n)
    return now, predicted, now + gain * (predicted - now) + rng.normal(0, 8, n)


@pytest.mark.parametrize("gain", [0.7, 1.0, 1.45])
def test_the_gain_fit_finds_the_factor_that_made_the_scores(gain):
    now, predicted, final = _gain_data(gain, 20_000, seed=int(100 * gain))
    assert cal.fit_gain(now, predicted, final) == pytest.approx(gain, abs=0.01)


def test_the_score_map_scales_the_gain_and_leaves_a_finished_score_alone():
    c = cal.Calibration(gain=1.5)
    assert c.scores([60.0, 40.0], [20.0, 40.0]) == pytest.approx([80.0, 40.0])   # 20 + 1.5 * 40; nothing to gain
    assert cal.Calibration().scores([61.5, 3.0], [10.0, 2.0]) == [61.5, 3.0]     # gain 1: the identity
    # monotone: a move expected to score more still does
    assert c.scores([50.0], [20.0])[0] < c.scores([51.0], [20.0])[0]


def test_a_score_fit_from_too_few_or_contrary_scores_is_refused():
    with pytest.raises(InputError, match="at least 20"):
        cal.fit_gain([0.0] * 5, [10.0] * 5, [12.0] * 5)
    now = np.zeros(100)
    predicted = np.linspace(1, 50, 100)
    with pytest.raises(InputError, match="degenerate"):
        cal.fit_gain(now, predicted, now - predicted)   # seats expected to gain points lose them


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


def _calibrated(model, a=0.5, b=-0.3, gain=1.0):
    return dataclasses.replace(model, calibration=cal.Calibration(a, b, {"search": "mcts:100"}, gain))


def test_a_model_file_keeps_its_calibration(tmp_path):
    m = _calibrated(model_file.bundled("inventors", 2))
    model_file.save(m, tmp_path / "c.npz")
    back = model_file.load(tmp_path / "c.npz")
    assert (back.calibration.a, back.calibration.b, back.calibration.gain) == (0.5, -0.3, 1.0)
    assert back.calibration.fitted == {"search": "mcts:100"}
    # Inventors 2p ships no win map (its search's win % is calibrated without one), only a score map
    shipped = model_file.bundled("inventors", 2).calibration
    assert not shipped.maps_win and shipped.gain != 1.0 and shipped.fitted["win_map"] is False


@pytest.mark.parametrize("bad,says", [
    ({"a": 0.0, "b": 0.0}, "meta.calibration.a: must be above 0"),
    ({"a": -1.0, "b": 0.0}, "meta.calibration.a: must be above 0"),
    ({"a": 1.0, "b": float("nan")}, "meta.calibration.b"),
    ({"a": True, "b": 0.0}, "meta.calibration.a"),
    ({"a": 1.0}, "meta.calibration.b"),
    ({"a": 1.0, "b": 99.0}, "meta.calibration.b"),
    ({"a": 1.0, "b": 0.0, "gain": 0.0}, "meta.calibration.gain"),
    ({"a": 1.0, "b": 0.0, "gain": -1.5}, "meta.calibration.gain"),
    ({"a": 1.0, "b": 0.0, "gain": 11.0}, "meta.calibration.gain"),
    ({"a": 1.0, "b": 0.0, "gain": float("nan")}, "meta.calibration.gain"),
    ({"a": 1.0, "b": 0.0, "gain": True}, "meta.calibration.gain"),
    ({"a": 1.0, "b": 0.0, "gain": "2"}, "meta.calibration.gain"),
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


def test_a_model_file_keeps_its_score_map_and_a_file_without_one_has_none(tmp_path):
    m = _calibrated(model_file.bundled("inventors", 2), gain=1.3)
    model_file.save(m, tmp_path / "m.npz")
    assert model_file.load(tmp_path / "m.npz").calibration.gain == 1.3
    # a file written before the score map (meta.calibration without "gain") reads as gain 1
    meta = json.loads(str(np.load(tmp_path / "m.npz")["meta"]))
    del meta["calibration"]["gain"]
    arrays = dict(np.load(tmp_path / "m.npz"))
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(tmp_path / "old.npz", **arrays)
    assert model_file.load(tmp_path / "old.npz").calibration.gain == 1.0


def test_the_search_reports_scores_through_the_score_map():
    from atelier.match import new_state_factory

    s = new_state_factory("inventors", 2)(5)
    for _ in range(40):   # a position with points on the board, so the map's start is not 0
        s.apply(s.legal_moves()[0]) if not s.is_chance() else s.sample_chance(1)
    now = [float(v) for v in s.scores()]
    assert any(now)
    plain = model_file.bundled("inventors", 2)
    r0 = mcts(s, iterations=400, seed=4, model=_calibrated(plain))           # a win map only
    r1 = mcts(s, iterations=400, seed=4, model=_calibrated(plain, gain=2.0))
    assert r1.signature == r0.signature and r1.best_move == r0.best_move   # the same search
    for m0, m1 in zip(r0.moves, r1.moves):
        assert m0.score_raw is None
        if not m0.visits:
            assert m1.score_raw is None
            continue
        assert m1.score_raw == m0.score
        assert m1.score == pytest.approx([n + 2.0 * (x - n) for x, n in zip(m0.score, now)])
        assert m1.score_ci == pytest.approx(2.0 * m0.score_ci)
        assert m1.win == m0.win   # the win map is the same


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
    assert all(m["score_raw"] is None for m in out["moves"])   # gain 1: no score map
    plain = strict_json(run("suggest", start, "--iterations", "300", "--json").stdout)
    assert plain["calibrated"] is False and all(m["win_raw"] is None for m in plain["moves"])
    model_file.save(_calibrated(model_file.bundled("inventors", 2), gain=1.5), path)
    mapped = strict_json(run("suggest", start, "--iterations", "300", "--model", path, "--json").stdout)
    # at the start every seat has 0 points, so the mapped score is 1.5 times the raw one
    for m in mapped["moves"]:
        if m["visits"]:
            assert m["score"] == pytest.approx([1.5 * x for x in m["score_raw"]])
    assert "expected gain from here" in run("suggest", start, "--iterations", "300", "--model", path).stdout
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
    assert (a.calibration.a, a.calibration.b, a.calibration.gain) == (b.calibration.a, b.calibration.b, b.calibration.gain)
    f = a.calibration.fitted
    assert f["search"] == "mcts:40" and f["games"] == 4 and f["positions"] == 32 and f["seed"] == 2
    assert math.isfinite(f["ece_before"]) and math.isfinite(f["ece_after"])
    # the score map is fitted by least squares on the same claims: it never raises their error much
    assert 0 < a.calibration.gain <= cal.GAIN_LIMIT
    assert f["score_mae_after"] <= 1.05 * f["score_mae_before"], f
    assert "score gain x" in r.stdout
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


@pytest.mark.parametrize("game,players", [("leonardo", 2), ("leonardo", 4), ("craftsmen", 2), ("craftsmen", 4)])
def test_the_score_map_reads_only_points_the_mover_can_see(game, players):
    """The map starts from every seat's points now (`state.scores()`); in a hidden-information
    game those must be public: every world the mover cannot tell from the true one has them."""
    import random

    from atelier.match import new_state_factory

    checked = 0
    for g in range(3):
        s = new_state_factory(game, players)(g + 1)
        rng = random.Random(g)
        k = 0
        while not s.is_terminal():
            if s.is_chance():
                s.sample_chance(rng.randrange(1 << 30))
                continue
            if k % 9 == 0:
                for j in range(2):
                    w = s.clone()
                    w.determinize(s.current_player, j + 1)
                    assert list(w.scores()) == list(s.scores()), (game, g, k)
                    checked += 1
            s.apply(rng.choice(s.legal_moves()))
            k += 1
    assert checked > 50


def test_calibrate_leaf_mix_fits_the_search_with_that_leaf_and_writes_it(tmp_path):
    # The maps are for one search: --leaf-mix sets the leaf before the self-play, so the fit is the
    # one a file already carrying that mix gets, and the written file carries it.
    mixed = tmp_path / "mixed.npz"
    model_file.save(dataclasses.replace(model_file.bundled("inventors", 2), leaf_mix=0.5), mixed)
    args = ("--games", "3", "--iterations", "30", "--seed", "1")
    r = run("calibrate", "bundled:inventors-2p", "--leaf-mix", "0.5", "--out", tmp_path / "a.npz", *args)
    assert r.exit_code == 0, r.stderr
    r = run("calibrate", mixed, "--out", tmp_path / "b.npz", *args)
    assert r.exit_code == 0, r.stderr
    a, b = (model_file.load(tmp_path / f) for f in ("a.npz", "b.npz"))
    assert a.leaf_mix == b.leaf_mix == 0.5
    assert (a.calibration.a, a.calibration.b, a.calibration.gain) == (b.calibration.a, b.calibration.b, b.calibration.gain)
    r = run("calibrate", "bundled:inventors-2p", "--out", tmp_path / "c.npz", *args)
    assert model_file.load(tmp_path / "c.npz").leaf_mix is None   # no option: the file's own


@pytest.mark.parametrize("bad", ["1.5", "-0.1", "nan", "half"])
def test_calibrate_refuses_a_leaf_mix_outside_0_to_1(tmp_path, bad):
    line = one_error_line(run("calibrate", "bundled:inventors-2p", "--leaf-mix", bad, "--out", tmp_path / "o.npz"))
    assert "--leaf-mix" in line
    assert not (tmp_path / "o.npz").exists()


def test_a_scores_only_map_leaves_the_win_as_the_search_reports_it(tmp_path):
    from atelier.match import new_state_factory

    s = new_state_factory("inventors", 2)(5)
    for _ in range(40):
        s.apply(s.legal_moves()[0]) if not s.is_chance() else s.sample_chance(1)
    now = [float(v) for v in s.scores()]
    plain = dataclasses.replace(model_file.bundled("inventors", 2), calibration=None)
    only = dataclasses.replace(plain, calibration=cal.Calibration(1.0, 0.0, {}, 2.0))
    assert not only.calibration.maps_win and _calibrated(plain).calibration.maps_win
    r0 = mcts(s, iterations=400, seed=4, model=plain)
    r1 = mcts(s, iterations=400, seed=4, model=only)
    assert r1.signature == r0.signature and not r1.calibrated   # the win % is the search's own
    for m0, m1 in zip(r0.moves, r1.moves):
        assert m1.win == m0.win and m1.win_ci == m0.win_ci and m1.win_raw is None
        if m0.visits:
            assert m1.score == pytest.approx([n + 2.0 * (x - n) for x, n in zip(m0.score, now)])
    # a file round trip keeps it a scores-only map; suggest says only what it mapped
    path = tmp_path / "only.npz"
    model_file.save(only, path)
    assert not model_file.load(path).calibration.maps_win
    start = tmp_path / "s.json"
    start.write_text(run("new", "inventors", "--players", "2", "--seed", "3").stdout)
    out = strict_json(run("suggest", start, "--iterations", "300", "--model", path, "--json").stdout)
    assert out["calibrated"] is False and all(m["win_raw"] is None for m in out["moves"])
    assert any(m["score_raw"] is not None for m in out["moves"])
    text = run("suggest", start, "--iterations", "300", "--model", path).stdout
    assert "expected gain from here" in text and "win %: calibrated" not in text


def test_calibrate_scores_only_fits_the_same_gain_and_no_win_map(tmp_path):
    args = ("--games", "3", "--iterations", "30", "--seed", "1")
    r = run("calibrate", "bundled:inventors-2p", "--out", tmp_path / "both.npz", *args)
    assert r.exit_code == 0, r.stderr
    r = run("calibrate", "bundled:inventors-2p", "--scores-only", "--out", tmp_path / "only.npz", *args)
    assert r.exit_code == 0, r.stderr
    assert "no win map" in r.stdout
    both, only = (model_file.load(tmp_path / f).calibration for f in ("both.npz", "only.npz"))
    assert (only.a, only.b) == (1.0, 0.0) and only.gain == both.gain   # the same claims
    assert both.maps_win and only.fitted["win_map"] is False and both.fitted["win_map"] is True
    assert only.fitted["ece_after"] == only.fitted["ece_before"]


def test_bench_remap_puts_a_calibration_runs_rows_through_a_files_maps(tmp_path):
    # rows as bench/judgement.py calibration writes them: (claim, raw claim, outcome, score error,
    # points now, raw expected scores, final scores)
    import os
    import subprocess
    import sys
    from pathlib import Path

    import atelier

    rows = [[0.8, 0.8, 1.0, 0.0, [2, 4], [10.0, 6.0], [12.0, 8.0]],
            [0.6, 0.6, 0.0, 0.0, [0, 0], [4.0, 8.0], [6.0, 4.0]],
            [0.3, 0.3, 0.0, 0.0, [5, 5], [5.0, 9.0], [5.0, 5.0]]]
    (tmp_path / "rows.json").write_text(json.dumps({"rows": rows}))
    path = tmp_path / "m.npz"
    model_file.save(dataclasses.replace(model_file.bundled("inventors", 2),
                                        calibration=cal.Calibration(1.0, 0.0, {}, 2.0)), path)
    root = Path(__file__).resolve().parents[1]
    r = subprocess.run([sys.executable, str(root / "bench" / "judgement.py"), "remap", "--rows",
                        str(tmp_path / "rows.json"), "--model", str(path), "--json", str(tmp_path / "out.json")],
                       capture_output=True, text=True,
                       # the atelier this test imports, installed or built in place
                       env={**os.environ, "PYTHONPATH": str(Path(atelier.__file__).resolve().parents[1])})
    assert r.returncode == 0, r.stderr
    out = json.loads((tmp_path / "out.json").read_text())
    # raw errors: (2+2)/2, (2+4)/2, (0+4)/2 -> mean 7/3; mapped (now + 2 * (raw - now)): [18, 8]
    # [8, 16] [5, 13], errors (6+0)/2, (2+12)/2, (0+8)/2 -> mean 14/3
    assert out["score_mae_raw"] == pytest.approx(7 / 3) and out["score_mae"] == pytest.approx(14 / 3)
    assert out["ece"] == out["ece_raw"]   # an identity win map leaves the claims alone
    assert "score MAE 2.33 -> 4.67" in r.stdout

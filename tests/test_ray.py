"""Matches and reviews over Ray (atelier.distributed, `--ray`, docs/ray.md): the same records,
summary and review as the local run with the same seed; a worker that dies has its games run
again, none lost or counted twice. One local Ray (2 CPUs) for the module."""
import os

import pytest

try:
    import ray
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("ray is not installed (pip install 'atelier[ray]')", allow_module_level=True)

import numpy as np

import atelier
from atelier import distributed, match, records, review
from cli_helpers import one_error_line, run, strict_json
from playout_helpers import greedy_record


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    started = not ray.is_initialized()
    if started:
        distributed.connect("local", num_cpus=2)
    yield
    if started:
        ray.shutdown()


def _same(a, b):
    assert a.records == b.records
    assert a.summary == b.summary
    assert (a.game, a.bots, a.games, a.seed) == (b.game, b.bots, b.games, b.seed)


def test_play_same_as_local():
    local = match.play("inventors", ["greedy", "random"], games=6, seed=11, keep_moves=True)
    for chunk in (None, 1, 4):   # however the games are grouped into tasks
        _same(distributed.play("inventors", ["greedy", "random"], games=6, seed=11, keep_moves=True,
                               chunk=chunk), local)


def test_play_mcts_same_as_local():
    local = match.play("inventors", ["mcts:50", "greedy"], games=2, seed=5)
    _same(distributed.play("inventors", ["mcts:50", "greedy"], games=2, seed=5), local)


def test_play_progress_counts_every_game_once():
    seen = []
    distributed.play("inventors", ["random", "greedy", "random"], games=7, seed=2, chunk=2,
                     progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (7, 7) and all(t == 7 for _, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_play_edition_file_reaches_workers(tmp_path):
    ed = tmp_path / "ed.json"
    bundled = os.path.join(os.path.dirname(atelier.__file__), "data", "editions", "inventors.json")
    with open(bundled, encoding="utf-8") as f:
        ed.write_text(f.read())
    local = match.play("inventors", ["greedy", "random"], games=2, seed=1, edition=str(ed))
    _same(distributed.play("inventors", ["greedy", "random"], games=2, seed=1, edition=str(ed)), local)


def test_dead_worker_games_rerun_once(tmp_path, monkeypatch):
    marker = tmp_path / "crashed"
    monkeypatch.setenv(distributed.CRASH_ENV, f"3:{marker}")
    local = match.play("inventors", ["greedy", "random"], games=6, seed=4)
    got = distributed.play("inventors", ["greedy", "random"], games=6, seed=4, chunk=1)
    assert marker.exists()   # the worker playing game 3 did die (os._exit) once
    assert sorted(r["game"] for r in got.records) == list(range(6))
    _same(got, local)


def test_dead_worker_resubmitted_without_ray_retries(tmp_path, monkeypatch):
    """Ray's own retries off: the task lost with its worker is submitted again by atelier."""
    marker = tmp_path / "crashed"
    monkeypatch.setenv(distributed.CRASH_ENV, f"0:{marker}")
    monkeypatch.setattr(distributed, "MAX_RETRIES", 0)
    got = distributed.play("inventors", ["random", "greedy"], games=4, seed=8, chunk=2)
    assert marker.exists()
    _same(got, match.play("inventors", ["random", "greedy"], games=4, seed=8))



def test_review_same_as_local():
    rec = greedy_record(3)
    kw = dict(seat=1, iterations=60, seed=9, exact_nodes=2000)
    local = review.review(rec, **kw)
    far = distributed.review(rec, **kw)
    assert far.to_dict() == local.to_dict()
    assert len(far.decisions) > 5


def test_review_dead_worker_rerun(tmp_path, monkeypatch):
    rec = greedy_record(3)
    k = next(k for k, e in enumerate(rec.moves) if e["seat"] == 0)
    marker = tmp_path / "crashed"
    monkeypatch.setenv(distributed.CRASH_ENV, f"{k}:{marker}")
    kw = dict(seat=0, iterations=30, seed=1, exact_nodes=0)
    far = distributed.review(rec, **kw)
    assert marker.exists()
    assert far.to_dict() == review.review(rec, **kw).to_dict()


def test_cli_play_ray():
    r = run("play", "--bots", "greedy,random", "--games", "4", "--seed", "3", "--json", "--ray")
    assert r.exit_code == 0, r.stderr
    plain = run("play", "--bots", "greedy,random", "--games", "4", "--seed", "3", "--json")
    a, b = strict_json(r.stdout), strict_json(plain.stdout)
    assert a["summary"] == b["summary"] and a["games"] == 4


def test_cli_play_ray_out_file(tmp_path):
    out = tmp_path / "games.json"
    r = run("play", "--bots", "greedy,random", "--games", "2", "--out", out, "--ray")
    assert r.exit_code == 0, r.stderr
    again = tmp_path / "local.json"
    run("play", "--bots", "greedy,random", "--games", "2", "--out", again)
    for k in (1, 2):
        assert records.load(out, k).to_dict() == records.load(again, k).to_dict()


def test_cli_review_ray(tmp_path):
    path = tmp_path / "g.json"
    greedy_record(2).save(path)
    args = ("review", path, "--seat", "0", "-i", "40", "--exact-nodes", "1000", "--json")
    r = run(*args, "--ray")
    assert r.exit_code == 0, r.stderr
    assert strict_json(r.stdout) == strict_json(run(*args).stdout)


def test_cli_ray_with_human_is_an_error():
    line = one_error_line(run("play", "--bots", "greedy", "--human", "0", "--ray"))
    assert "--ray" in line and "--human" in line


def test_not_installed(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_ray(name, *a, **k):
        if name == "ray":
            raise ImportError("no ray")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(atelier.InputError, match=r"--ray: Ray is not installed; pip install 'atelier\[ray\]'"):
        distributed.connect()


def test_train_selfplay_same_as_local():
    """atelier train --ray: the self-play rows are those of the local run, with and without a
    model (sent to the workers once)."""
    from atelier import train

    s = train.Settings(game="inventors", players=2, games=3, iterations=5, positions=3, seed=6, gen0_games=3)
    local = train.generate(s, 0, None)
    for chunk in (None, 2):
        got = train.generate(s, 0, None, runner=distributed.selfplay_runner(chunk=chunk))
        assert all(np.array_equal(local[k], got[k]) for k in local)
    m, _ = train.fit(local, s, 1, atelier.open("inventors", players=2).feature_version)
    local = train.generate(s, 1, m)
    got = train.generate(s, 1, m, runner=distributed.selfplay_runner())
    assert all(np.array_equal(local[k], got[k]) for k in local)
    # Rows from determinizations (hidden information) too.
    s = train.Settings(game="leonardo", players=2, games=3, positions=3, seed=6, gen0_games=3, determinized=True)
    local = train.generate(s, 0, None)
    got = train.generate(s, 0, None, runner=distributed.selfplay_runner())
    assert all(np.array_equal(local[k], got[k]) for k in local)

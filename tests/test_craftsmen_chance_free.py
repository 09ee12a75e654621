"""Craftsmen chance_free (issue 22): exact in the safe direction. True only when no chance node
with more than one outcome can follow, so year 3's winter reaches the exact solver once its
Craftsmen stage (the only draws) is over; `bench --endgame` reports what it solves."""
import random

from atelier.solvers import engine
from atelier.solvers import endgame_bench as eb
from cli_helpers import run
from craftsmen_helpers import game


def test_chance_free_is_never_true_wrongly():
    found = 0
    for players, seed in [(2, 1), (3, 2), (4, 3)]:
        g = game(players)
        st, rng = g.start(seed), random.Random(seed)
        while not st.is_terminal():
            if engine.chance_free(st):
                found += 1
                for k in range(3):   # random playouts from here: every chance node is forced
                    p, prng = st.clone(), random.Random(k)
                    while not p.is_terminal():
                        if p.is_chance():
                            assert len(p.chance_outcomes()) == 1
                            p.apply(p.chance_outcomes()[0][0])
                        else:
                            p.apply(prng.choice(p.legal_moves()))
            st.apply(rng.choice(st.chance_outcomes())[0] if st.is_chance() else rng.choice(st.legal_moves()))
    assert found > 0   # the last winter's tail reaches the exact solver


def test_bench_endgame_solves_craftsmen_tails():
    r = run("bench", "--endgame", "--game", "craftsmen", "--games", "2", "--time", "5")
    assert r.exit_code == 0, r.stderr
    assert "Traceback" not in r.stdout + r.stderr and "decisions back" in r.stdout


def test_bench_endgame_says_when_there_is_nothing_to_solve(monkeypatch):
    monkeypatch.setattr(eb, "greedy_tail", lambda game, players, seed: [])
    r = run("bench", "--endgame", "--game", "craftsmen", "--games", "1", "--time", "5")
    assert r.exit_code == 0, r.stderr
    assert "no chance-free decision" in r.stdout and "Traceback" not in r.stdout + r.stderr

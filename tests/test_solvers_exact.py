"""Expectimax against an independent brute-force enumeration (tests/solver_helpers.py)."""
import pytest

from atelier import solvers
from solver_helpers import brute, brute_minimax, dealt

# (players, values, copies, hand, seed, greedy moves played first)
SMALL = [
    (2, 6, 2, 3, 1, 0), (2, 6, 2, 4, 2, 0), (2, 8, 2, 4, 1, 1), (2, 5, 3, 3, 3, 0),
    (3, 6, 2, 3, 1, 0), (3, 8, 2, 3, 1, 0), (3, 8, 2, 3, 2, 1),
    (4, 8, 2, 3, 1, 0), (4, 6, 3, 3, 1, 0), (4, 8, 2, 3, 3, 2),
    (5, 6, 3, 2, 1, 0), (5, 8, 3, 3, 3, 4),
]


def close(a, b, tol=1e-9):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


@pytest.mark.parametrize("cfg", SMALL, ids=[f"{c[0]}p-{c[4]}" for c in SMALL])
@pytest.mark.parametrize("objective", ["win", "margin"])
def test_expectimax_equals_brute_force(cfg, objective):
    s = dealt(*cfg)
    x = solvers.expectimax(s, objective=objective)
    assert [m.move for m in x.moves] == s.legal_moves()
    for m in x.moves:
        obj, win, score = brute(s.child(m.move), objective)
        assert close(m.value, obj) and close(m.win, win) and close(m.score, score), m.text
    best = brute(s, objective)
    assert close(x.best.value, best[0])


@pytest.mark.parametrize("cfg", SMALL[:8], ids=[f"{c[0]}p-{c[4]}" for c in SMALL[:8]])
def test_paranoid_equals_brute_force(cfg):
    s = dealt(*cfg)
    x = solvers.expectimax(s, paranoid=True)
    root = s.current_player
    for m in x.moves:
        obj, win, score = brute(s.child(m.move), "win", paranoid_root=root)
        assert close(m.value, obj) and close(m.score, score), m.text


@pytest.mark.parametrize("cfg", [c for c in SMALL if c[0] == 2], ids=lambda c: f"seed{c[4]}")
@pytest.mark.parametrize("objective", ["win", "margin"])
def test_two_players_equals_expectiminimax(cfg, objective):
    s = dealt(*cfg)
    for paranoid in (False, True):
        x = solvers.expectimax(s, objective=objective, paranoid=paranoid)
        for m in x.moves:
            v0 = brute_minimax(s.child(m.move), objective)
            assert abs(m.value[0] - v0) < 1e-9
            other = 1.0 - v0 if objective == "win" else -v0
            assert abs(m.value[1] - other) < 1e-9


@pytest.mark.parametrize("cfg", SMALL, ids=[f"{c[0]}p-{c[4]}" for c in SMALL])
def test_pruning_and_ordering_do_not_change_values(cfg):
    s = dealt(*cfg)
    ref = solvers.expectimax(s, prune=False, ordering=False)
    for prune, ordering in ((True, False), (False, True), (True, True), (True, "greedy")):
        x = solvers.expectimax(s, prune=prune, ordering=ordering)
        assert x.best_index == ref.best_index
        for a, b in zip(x.moves, ref.moves):
            assert close(a.value, b.value) and close(a.score, b.score)
        assert x.line == ref.line


def test_principal_line_reaches_the_end():
    s = dealt(3, 5, 2, 2, 6, 0)
    x = solvers.expectimax(s)
    t = s.clone()
    for m, chance in x.line_moves:
        t.apply_chance(m) if chance else t.apply(m)
    assert t.is_terminal()
    assert x.line[0] == x.best_text


def test_too_large_names_the_nodes():
    s = dealt(4, 8, 2, 3, 1, 0)
    with pytest.raises(solvers.TooLarge) as err:
        solvers.expectimax(s, max_nodes=1000)
    assert err.value.nodes == 1001
    assert "too large for exact search (1,001 nodes searched)" in str(err.value)


def test_bad_positions_and_budgets():
    from atelier.errors import InputError
    from atelier.solvers import testgame
    g = testgame.Game(2, 4, 2, 2)
    with pytest.raises(InputError, match="chance"):
        solvers.expectimax(g.initial_state())
    s = dealt(2, 4, 2, 2, 1, 0)
    while not s.is_terminal():
        s.sample_chance(1) if s.is_chance() else s.apply(s.legal_moves()[0])
    with pytest.raises(InputError, match="game is over"):
        solvers.expectimax(s)
    with pytest.raises(InputError, match="max_nodes"):
        solvers.expectimax(dealt(2, 4, 2, 2, 1, 0), max_nodes=0)
    with pytest.raises(InputError, match="objective"):
        solvers.expectimax(dealt(2, 4, 2, 2, 1, 0), objective="points")


def test_determinized_endgame_averages_exact_solves():
    from atelier.solvers import testgame
    s = testgame.Game(3, 8, 2, 3, True).dealt_state(4)
    s.apply(s.legal_moves()[0])          # seat 0 leads face down; seat 1 decides blind
    p = s.current_player
    x = solvers.expectimax(s, determinizations=4, seed=9)
    assert x.determinizations == 4
    samples = []
    for k in range(4):
        t = s.clone()
        t.determinize(p, solvers.engine.tree_seed(9, k + 1))
        samples.append(solvers.expectimax(t))
    for i, m in enumerate(x.moves):
        for q in range(3):
            assert abs(m.value[q] - sum(r.moves[i].value[q] for r in samples) / 4) < 1e-12
    # the answer depends only on the seat's information set
    u = s.clone()
    u.determinize(p, 12345)
    y = solvers.expectimax(u, determinizations=4, seed=9)
    assert [m.value for m in y.moves] == [m.value for m in x.moves]
    with pytest.raises(solvers.TooLarge):
        solvers.expectimax(s, determinizations=50, max_nodes=100)

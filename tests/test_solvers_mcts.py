"""MCTS / ISMCTS on the High-card test game: convergence to exact values, determinism per seed,
root parallelism, budgets and bad input. (Inventors runs are in test_solvers_inventors.py.)"""
import pytest

from atelier import solvers
from atelier.errors import InputError
from atelier.solvers import testgame
from solver_helpers import dealt

ENDGAMES = [(2, 6, 2, 3, 1, 0), (2, 8, 2, 4, 2, 0), (3, 8, 2, 3, 1, 0), (3, 8, 2, 3, 2, 1),
            (4, 8, 2, 3, 1, 0), (4, 6, 3, 3, 1, 0), (3, 8, 3, 4, 2, 0)]


def check_converged(s, iterations, tol):
    exact = solvers.expectimax(s)
    r = solvers.mcts(s, iterations=iterations, seed=3)
    p = s.current_player
    # The chosen move is (near-)optimal, and every well-explored move's value is exact to `tol`.
    assert exact.moves[r.best_index].value[p] >= exact.best.value[p] - tol
    for m, e in zip(r.moves, exact.moves):
        if m.visits >= 0.2 * r.iterations:
            assert abs(m.value[p] - e.value[p]) <= tol, (m.text, m.value, e.value)
            assert all(abs(a - b) <= tol for a, b in zip(m.win, e.win)), (m.text, m.win, e.win)


@pytest.mark.parametrize("cfg", ENDGAMES[:4], ids=lambda c: f"{c[0]}p-{c[4]}")
def test_mcts_converges_quick(cfg):
    check_converged(dealt(*cfg), 20_000, 0.08)


@pytest.mark.slow
@pytest.mark.parametrize("cfg", ENDGAMES, ids=lambda c: f"{c[0]}p-{c[4]}")
def test_mcts_converges_50k(cfg):
    check_converged(dealt(*cfg), 50_000, 0.05)


def test_same_seed_same_tree():
    s = dealt(3, 8, 3, 4, 2, 0)
    a = solvers.mcts(s, iterations=5000, seed=11)
    b = solvers.mcts(s, iterations=5000, seed=11)
    c = solvers.mcts(s, iterations=5000, seed=12)
    assert a.signature == b.signature and a.nodes == b.nodes
    assert [m.visits for m in a.moves] == [m.visits for m in b.moves]
    assert a.signature != c.signature


def test_threads_are_reproducible_per_seed_and_legal():
    s = dealt(4, 8, 2, 3, 1, 0)
    one = solvers.mcts(s, iterations=6000, threads=1, seed=5)
    two = solvers.mcts(s, iterations=6000, threads=2, seed=5)
    again = solvers.mcts(s, iterations=6000, threads=2, seed=5)
    assert two.iterations == one.iterations == 6000
    assert two.per_tree_iterations == [3000, 3000]
    assert two.signature == again.signature
    assert [m.visits for m in two.moves] == [m.visits for m in again.moves]
    assert two.best_move in s.legal_moves() and one.best_move in s.legal_moves()
    # tree 0 of a 2-thread search is the 1-thread search with half the budget
    half = solvers.mcts(s, iterations=3000, seed=5)
    assert two.signature[0] == half.signature[0]


def test_time_budget_and_progress():
    s = dealt(4, 8, 3, 4, 1, 0)
    seen = []
    r = solvers.mcts(s, time=0.2, seed=1, progress=seen.append)
    assert 0.15 <= r.seconds < 2.0
    assert seen and seen[-1] == 1.0 and r.iterations > 100


def test_memory_budget_stops_the_search():
    s = dealt(4, 8, 3, 4, 1, 0)
    r = solvers.mcts(s, iterations=10**7, memory_mb=0.05, seed=1)
    assert r.memory_full and r.iterations < 10**7
    assert r.nodes * solvers.engine.node_bytes(4) <= 0.05 * 2**20


def test_node_fits_64_bytes():
    assert all(solvers.engine.node_bytes(n) <= 64 for n in range(2, 6))


def test_margin_reward():
    s = dealt(2, 8, 2, 4, 1, 1)
    x = solvers.expectimax(s, objective="margin")
    r = solvers.mcts(s, iterations=30_000, seed=2, reward="margin")
    p = s.current_player
    assert x.moves[r.best_index].value[p] >= x.best.value[p] - 0.5
    assert r.reward == "margin"


@pytest.mark.parametrize("kwargs, match", [
    (dict(iterations=0), "iterations"), (dict(iterations=-5), "iterations"),
    (dict(time=0), "time"), (dict(time=-1.0), "time"), (dict(threads=0), "threads"),
    (dict(memory_mb=0), "memory_mb"), (dict(reward="points"), "reward"),
    (dict(memory_mb=1e-6), "memory_mb"),
])
def test_bad_budgets(kwargs, match):
    with pytest.raises(InputError, match=match):
        solvers.mcts(dealt(2, 6, 2, 3, 1, 0), **kwargs)


def test_chance_and_terminal_positions_are_refused():
    g = testgame.Game(3, 6, 2, 2)
    with pytest.raises(InputError, match="chance"):
        solvers.mcts(g.initial_state(), iterations=10)
    s = g.dealt_state(1)
    while not s.is_terminal():
        s.sample_chance(2) if s.is_chance() else s.apply(s.legal_moves()[-1])
    for f in (solvers.mcts, solvers.ismcts):
        with pytest.raises(InputError, match="over"):
            f(s, iterations=10)
    with pytest.raises(InputError, match="over"):
        solvers.random_move(s)
    with pytest.raises(InputError):
        solvers.mcts(object(), iterations=10)


def test_ismcts_runs_on_information_sets():
    s = dealt(3, 8, 3, 4, 2, 0)
    a = solvers.ismcts(s, iterations=8000, seed=4)
    b = solvers.ismcts(s, iterations=8000, seed=4)
    assert a.signature == b.signature and a.best_move in s.legal_moves()
    assert sum(m.visits for m in a.moves) == 8000
    # The answer depends only on what the seat knows: a redeal of the other hands
    # (same information set) gives the same search.
    t = s.clone()
    t.determinize(s.current_player, 77)
    assert t.infoset_key(s.current_player) == s.infoset_key(s.current_player)
    c = solvers.ismcts(t, iterations=8000, seed=4)
    assert c.signature == a.signature


def test_ismcts_threads():
    s = dealt(4, 8, 2, 3, 3, 1)
    r = solvers.ismcts(s, iterations=4000, threads=2, seed=1)
    assert r.iterations == 4000 and r.best_move in s.legal_moves()


def test_testgame_determinize_keeps_the_information_set():
    for players in (2, 3, 4, 5):
        g = testgame.Game(players, 8, 3, 3)
        s = g.initial_state()
        k = 0
        while not s.is_terminal():
            if s.is_chance():
                s.sample_chance(k)
            else:
                p = s.current_player
                for seed in range(5):
                    t = s.clone()
                    t.determinize(p, seed)
                    assert t.infoset_key(p) == s.infoset_key(p)
                    assert t.legal_moves() == s.legal_moves()
                    assert sum(pr for _, pr in t.chance_outcomes()) == 0
                s.apply(s.legal_moves()[k % len(s.legal_moves())])
            k += 1


def sealed_after_lead(players=3, seed=5):
    """A sealed High-card position where seat 0 has led face down and seat 1 is to move."""
    s = testgame.Game(players, 8, 3, 4, True).dealt_state(seed)
    s.apply(s.legal_moves()[-1])
    assert s.current_player == 1
    return s


def test_sealed_plays_are_hidden_and_resampled():
    s = sealed_after_lead()
    seen = set()
    for seed in range(40):
        t = s.clone()
        t.determinize(1, seed)
        assert t.infoset_key(1) == s.infoset_key(1) and t.legal_moves() == s.legal_moves()
        seen.add(t.hash)
    assert len(seen) > 5  # the hidden lead and hands really vary


def _after_each_lead(s):
    out = []
    for m in s.legal_moves():
        a = s.clone()
        a.apply(m)
        out.append(a)
    return out


def test_ismcts_keys_each_decision_by_its_movers_information_set():
    # Seat 0 leads; seat 1 answers. Sealed: seat 1 cannot see the lead, so its decision has ONE
    # set of statistics whatever seat 0 led — it can never best-respond to a hidden bid. Open:
    # every lead is seen and has its own statistics.
    for sealed in (False, True):
        s = testgame.Game(2, 4, 2, 2, sealed).dealt_state(5)
        assert s.current_player == 0
        t = solvers.engine.Tree(s, seed=1, ismcts=True, max_nodes=10**6)
        t.run(20000)
        leads = _after_each_lead(s)
        assert len(leads) >= 2
        keys = {a.infoset_key(1) for a in leads}
        stats = [t.decision_stats(a) for a in leads]
        assert all(st for st in stats), (sealed, stats)   # seat 1 decided there, by its own stats
        if sealed:
            assert len(keys) == 1 and all(st == stats[0] for st in stats)
        else:
            assert len(keys) == len(leads) and len({tuple(st) for st in stats}) == len(leads)


def test_ismcts_keys_the_observers_own_next_decision_by_what_it_learns():
    # After the observer's play, the chance node reveals the next prize: different prizes are
    # different information sets of the observer and get different statistics.
    s = testgame.Game(2, 4, 2, 2).dealt_state(5)
    t = solvers.engine.Tree(s, seed=3, ismcts=True, max_nodes=10**6)
    t.run(20000)
    seen = {}
    for a in _after_each_lead(s):
        b = a.clone()
        b.apply(b.legal_moves()[0])          # seat 1 answers; the trick ends
        for outcome, _ in b.chance_outcomes():
            c = b.clone()
            c.apply_chance(outcome)
            if c.current_player == 0:
                seen.setdefault(c.infoset_key(0), t.decision_stats(c))
    assert len(seen) > 1 and len({tuple(v) for v in seen.values() if v}) > 1


def test_ismcts_search_depends_only_on_the_information_set():
    # Same information set (a different hidden lead), same search.
    s = sealed_after_lead()
    t = s.clone()
    t.determinize(1, 3)
    assert t.hash != s.hash
    a = solvers.ismcts(s, iterations=4000, seed=2)
    b = solvers.ismcts(t, iterations=4000, seed=2)
    assert a.signature == b.signature and a.best_move == b.best_move


def test_hidden_information_detection():
    assert solvers.engine.hidden_information(dealt(3, 8, 2, 3, 1, 0))
    assert not solvers.engine.hidden_information(testgame.Game(2, 4, 2, 2).initial_state())

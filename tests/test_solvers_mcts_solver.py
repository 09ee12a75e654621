"""MCTS-Solver: every proof it reports agrees with alpha-beta, proofs reach `suggest`, and it
turns itself on only where it applies."""
import json

import pytest

pytest.importorskip("atelier._core")
import atelier  # noqa: E402
from atelier import solvers  # noqa: E402
from atelier.errors import InputError  # noqa: E402
from atelier.solvers import engine  # noqa: E402
from cli_helpers import run  # noqa: E402
from solver_helpers import dealt, mixed_game  # noqa: E402


def _tail(seed):
    """The chance-free decisions of a mixed greedy/random two-player Inventors game."""
    return [s for s in mixed_game("inventors", 2, seed, greedy=0.7) if engine.chance_free(s)]


def small_endgames(count, backs=(2, 3, 5, 7, 9)):
    """Chance-free positions alpha-beta solves within 300,000 nodes, with their exact values."""
    out = []
    for seed in range(1, 200):
        tail = _tail(seed)
        for back in backs:
            if back > len(tail):
                continue
            s = tail[-back]
            try:
                exact = solvers.alphabeta(s, max_nodes=300_000)
            except solvers.TooLarge:
                continue
            out.append((s, exact))
            if len(out) == count:
                return out
    return out


def _check_proofs(r, exact, where):
    for m, x in zip(r.moves, exact.moves):
        assert m.move == x.move
        if m.proven is not None:
            assert m.proven == x.bounds[0], (where, m.text, m.proven, x.bounds)
    if r.proven is not None:
        assert r.proven == max(x.bounds[0] for x in exact.moves), where


def test_no_proof_is_ever_wrong():
    cases = small_endgames(200)
    assert len(cases) == 200
    proofs = roots = 0
    for k, (s, exact) in enumerate(cases):
        for leaf_nodes in (0, 200):
            r = solvers.mcts(s, iterations=1500, seed=k, leaf_nodes=leaf_nodes)
            assert r.solver
            _check_proofs(r, exact, (k, leaf_nodes))
            proofs += sum(m.proven is not None for m in r.moves)
            roots += r.proven is not None
    assert proofs > 500 and roots > 50   # the check above ran on real proofs


def test_a_proven_win_is_reported_and_chosen():
    found = 0
    for s, exact in small_endgames(60):
        if max(m.bounds[0] for m in exact.moves) != 1.0:
            continue
        r = solvers.mcts(s, iterations=20_000, seed=3)
        assert r.proven == 1.0 and r.best.proven == 1.0
        assert exact.moves[r.best_index].bounds[0] == 1.0
        assert r.iterations < 20_000   # a proven root ends the search
        found += 1
        if found == 1:
            d = json.loads(run("suggest", "-", "-i", "20000", "--json", input=atelier.dump_position(s)).stdout)
            assert d["solver"] and d["proven"] == 1.0
            assert d["moves"][d["best_index"]]["proven"] == 1.0
    assert found >= 5


def test_proofs_with_threads_and_on_the_test_game():
    for seed in range(8):
        s = dealt(2, 6, 2, 3, seed, moves=2)
        exact = solvers.expectimax(s)   # chance ahead: MCTS-Solver proves only chance-free subtrees
        r = solvers.mcts(s, iterations=3000, seed=seed, threads=2)
        for m, x in zip(r.moves, exact.moves):
            if m.proven is not None:
                assert m.proven == pytest.approx(x.value[s.current_player])


def test_solver_switch():
    s = small_endgames(1)[0][0]
    assert solvers.mcts(s, iterations=200).solver
    assert not solvers.mcts(s, iterations=200, solver=False).solver
    assert not solvers.mcts(s, iterations=200, reward="margin").solver
    with pytest.raises(InputError, match="solver"):
        solvers.mcts(s, iterations=200, reward="margin", solver=True)
    four = atelier.open("inventors", players=4, seed=1).start()
    while four.is_chance():
        four.sample_chance(1)
    assert not solvers.mcts(four, iterations=200).solver
    with pytest.raises(InputError, match="leaf_nodes"):
        solvers.mcts(s, iterations=10, leaf_nodes=-1)
    r = run("suggest", "example:inventors-late", "-i", "3000", "--no-solver", "--json")
    assert r.exit_code == 0 and not json.loads(r.stdout)["solver"]


REPRO = __import__("pathlib").Path(__file__).parent / "repro" / "inventors-mcts-solver-proven-draw.json"


@pytest.mark.parametrize("seed", range(0, 20, 3))
def test_a_proven_root_recommends_a_move_proven_to_reach_its_value(seed):
    # repro/inventors-mcts-solver-proven-draw.json: the root is proven a draw, and the most
    # visited move (work:lovelace:III10) was unproven and is a loss; the recommendation must
    # be a move proven at the root's value, one that alpha-beta proves reaches it.
    from atelier.cli.options import read_position

    state = read_position(str(REPRO), None)
    r = solvers.mcts(state, iterations=2000, seed=seed)
    assert r.proven == 0.5
    assert r.best.proven == r.proven
    exact = solvers.solve(state, prove=True)
    by_text = {m.text: m.bounds for m in exact.moves}
    assert by_text[r.best_text][0] >= r.proven


def test_a_proven_root_through_the_cli_recommends_a_proven_move():
    out = run("suggest", REPRO, "--iterations", "2000", "--seed", "1141", "--json")
    d = json.loads(out.stdout)
    best = d["moves"][d["best_index"]]
    assert d["proven"] == 0.5 and best["proven"] == 0.5 and d["best"] != "work:lovelace:III10"

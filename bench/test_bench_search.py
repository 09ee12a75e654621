"""pytest-benchmark suites for the search (run: pytest bench/ --benchmark-only).

Figures are reported, never asserted: speed depends on the machine."""
import pytest

from atelier import solvers
from atelier.solvers.bench import _positions


def positions(game, players):
    if game == "inventors":
        pytest.importorskip("atelier._core")
    return _positions(game, players, 1)


@pytest.mark.parametrize("game", ["inventors", "testgame"])
@pytest.mark.parametrize("which", ["start", "mid"])
def test_mcts_iterations(benchmark, game, which):
    start, mid, _ = positions(game, 4)
    s = start if which == "start" else mid
    r = benchmark(lambda: solvers.mcts(s, iterations=5000, seed=1))
    benchmark.extra_info["iterations_per_s"] = r.iterations_per_s


@pytest.mark.parametrize("game", ["inventors", "testgame"])
def test_mcts_two_threads(benchmark, game):
    start, _, _ = positions(game, 4)
    r = benchmark(lambda: solvers.mcts(start, iterations=10000, threads=2, seed=1))
    benchmark.extra_info["iterations_per_s"] = r.iterations_per_s


@pytest.mark.parametrize("game", ["inventors", "testgame"])
def test_expectimax_nodes(benchmark, game):
    _, _, tail = positions(game, 3)
    s = None
    for back in range(2, len(tail) + 1):
        try:
            solvers.expectimax(tail[-back], max_nodes=300_000)
            s = tail[-back]
        except solvers.TooLarge:
            break
    r = benchmark(lambda: solvers.expectimax(s, max_nodes=300_000))
    benchmark.extra_info["nodes_per_s"] = r.nodes_per_s

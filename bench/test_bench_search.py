"""pytest-benchmark suites for the search (run: pytest bench/ --benchmark-only).

Figures are reported, never asserted: speed depends on the machine."""
import pytest

from atelier import solvers
from atelier.solvers import engine
from atelier.solvers.bench import _ismcts_position, _positions

GAMES = ["inventors", "leonardo", "testgame"]


def positions(game, players):
    if game != "testgame":
        pytest.importorskip("atelier._core")
    return _positions(game, players, 1)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("which", ["start", "mid"])
def test_mcts_iterations(benchmark, game, which):
    start, mid, _ = positions(game, 4)
    s = start if which == "start" else mid
    r = benchmark(lambda: solvers.mcts(s, iterations=5000, seed=1))
    benchmark.extra_info["iterations_per_s"] = r.iterations_per_s


@pytest.mark.parametrize("game", GAMES)
def test_mcts_two_threads(benchmark, game):
    start, _, _ = positions(game, 4)
    r = benchmark(lambda: solvers.mcts(start, iterations=10000, threads=2, seed=1))
    benchmark.extra_info["iterations_per_s"] = r.iterations_per_s


@pytest.mark.parametrize("game", GAMES)
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


# ISMCTS from the first hidden-information decision the bench uses (Leonardo: turn 1, Phase A
# or B), and the plain random-playout rate from the same position: iterations/s over
# playouts/s is the search's own overhead (the target: at least 0.5).
@pytest.mark.parametrize("game", ["leonardo"])
@pytest.mark.parametrize("threads", [1, 2])
def test_ismcts_iterations(benchmark, game, threads):
    pytest.importorskip("atelier._core")
    s = _ismcts_position(game, 4, 1)
    r = benchmark(lambda: solvers.ismcts(s, iterations=5000 * threads, threads=threads, seed=1))
    benchmark.extra_info["iterations_per_s"] = r.iterations_per_s


@pytest.mark.parametrize("game", ["leonardo"])
def test_random_playouts_from_the_ismcts_position(benchmark, game):
    pytest.importorskip("atelier._core")
    s = _ismcts_position(game, 4, 1)
    benchmark(lambda: engine.random_playouts(s, 5000, 1))

"""The ISMCTS arena under an iteration budget: solvers.ismcts sizes it (and the information-set
table) at two nodes an iteration, since an ISMCTS iteration adds one at most (a new move or a
new information set; chance is sampled, never expanded). A search must end on its budget, never
on a full arena, and hold no more nodes than one an iteration beside each tree's root."""
import pytest

import atelier
from atelier.solvers import ismcts

GAMES = [("inventors", 2), ("inventors", 4), ("leonardo", 2), ("leonardo", 5), ("craftsmen", 2), ("craftsmen", 4)]


@pytest.mark.parametrize("game,players", GAMES)
def test_an_iteration_budget_never_fills_the_arena_it_sizes(game, players):
    s = atelier.open(game, players=players, seed=7).start()
    k = 0
    while s.is_chance():
        s.sample_chance(k)
        k += 1
    n_root = len(s.legal_moves())
    for threads in (1, 2):
        for iterations in (1, 5, 400):
            d = ismcts(s, iterations=iterations, threads=threads, seed=3, rollout="random").to_dict()
            assert not d["memory_full"], (threads, iterations)
            assert d["iterations"] == iterations
            assert d["nodes"] <= threads * (1 + n_root) + iterations, (threads, iterations, d["nodes"])

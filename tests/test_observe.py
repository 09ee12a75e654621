"""What users asked for on State (no OpenSpiel needed): chance_outcomes() on every ruleset,
observation(seat) and information_state(seat) texts, a numpy batch of observations."""
import json
import random

import numpy as np
import pytest

import atelier


def test_inventors_reveal_is_too_many_to_list_in_one_line():
    s = atelier.open("inventors", players=3, seed=1).initial_state()
    with pytest.raises(atelier.InputError) as e:
        s.chance_outcomes()
    assert "too many to list" in str(e.value) and "\n" not in str(e.value)
    assert atelier.open("inventors", players=3, seed=1).start().chance_outcomes() == []


@pytest.mark.parametrize("game,seed", [("leonardo", 17), ("craftsmen", 1)])
def test_listed_outcomes_sum_to_one(game, seed):
    """Random games from seeds that reach a chance node (a full Leonardo state rarely does)."""
    s, rnd = atelier.open(game, players=2, seed=seed).start(), random.Random(seed)
    while not s.is_chance():
        assert not s.is_terminal(), "this seed's game no longer reaches a chance node: pick another"
        s.apply(rnd.choice(s.legal_moves()))
    assert sum(item[1] for item in s.chance_outcomes()) == pytest.approx(1.0)   # the core's own list
    from atelier import observe

    outs = observe.chance_outcomes(s)   # every ruleset alike: (move, probability, notation)
    assert outs and sum(p for _, p, _ in outs) == pytest.approx(1.0)
    for move, p, text in outs:
        assert p > 0 and s.move_to_string(move) == text


def test_observation_is_the_seats_view():
    s = atelier.open("leonardo", players=3, seed=4).start()
    for seat in range(3):
        assert json.loads(s.observation(seat)) == atelier.position_dict(s, viewpoint=seat)
    assert s.observation(0) != s.observation(1)
    assert s.information_state(0, ["pass"]).endswith("\nmine:pass")
    inv = atelier.open("inventors", players=2, seed=4).start()
    assert inv.observation(0) == inv.observation(1)   # nothing hidden
    with pytest.raises(atelier.InputError):
        s.observation(3)


def test_observation_tensor_batch():
    from atelier import observe

    states = [atelier.open("craftsmen", players=2, seed=k).start() for k in range(4)]
    t = observe.observation_tensor(states, 0)
    assert t.dtype == np.float32 and t.shape[0] == 4 and t.shape[1] == observe.TENSOR_SIZE["craftsmen"]
    assert not np.array_equal(t, observe.observation_tensor(states, 1))

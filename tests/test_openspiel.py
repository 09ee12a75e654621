"""The OpenSpiel adapter (atelier.openspiel, docs/openspiel.md) and atelier.observe."""
from __future__ import annotations

import os
import random

import numpy as np
import pytest

if os.environ.get("CI"):
    import pyspiel   # in CI a missing OpenSpiel is a failure, not a skip
else:
    pyspiel = pytest.importorskip("pyspiel")

import atelier
import atelier.openspiel as aos
from atelier import observe
from atelier.openspiel import bench
from atelier.openspiel.chance import PAIR_BASE

GAMES = ("inventors", "leonardo", "craftsmen")


def load(name, **params):
    return pyspiel.load_game(f"atelier_{name}", dict({"players": 2}, **params))


def random_chance(state, rng):
    actions, probs = zip(*state.chance_outcomes())
    return int(rng.choice(actions, p=np.array(probs) / sum(probs)))


def walk(game, seed, max_steps=None):
    """A random game of `game`: yields every state before its action is taken."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and (max_steps is None or steps < max_steps):
        yield state
        if state.is_chance_node():
            state.apply_action(random_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.randint(len(legal))]))
        steps += 1
    yield state


def test_registered():
    names = set(pyspiel.registered_names())
    assert {"atelier_inventors", "atelier_leonardo", "atelier_craftsmen"} <= names
    t = load("inventors").get_type()
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    for name in ("leonardo", "craftsmen"):
        assert load(name).get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("name", GAMES)
def test_random_sim(name, players):
    game = load(name, players=players, seed=players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_options_reach_the_core():
    leo = load("leonardo", players=3, setup="basic", codex=True)
    assert leo.core.basic and leo.core.codex and leo.core.players == 3
    cr = load("craftsmen", players=3, age_rank="2,0,1")
    assert list(cr.core.age_rank) == [2, 0, 1]
    inv = load("inventors", players=2, teams="green,red")
    assert list(inv.core.team_ids) == ["green", "red"]


@pytest.mark.parametrize("name,max_steps", [("inventors", None), ("leonardo", None), ("craftsmen", 150)])
def test_actions_ascending_round_trip_and_chance_sums(name, max_steps):
    game = load(name)
    for state in walk(game, seed=3, max_steps=max_steps):
        if state.is_terminal():
            assert sum(state.returns()) == pytest.approx(1.0)
            break
        player = state.current_player()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            assert actions == sorted(actions) and len(set(actions)) == len(actions)
            assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
            assert all(0 <= a < game.max_chance_outcomes() for a in actions)
        else:
            actions = state.legal_actions()
            assert actions == sorted(actions) and len(set(actions)) == len(actions)
            assert all(0 <= a < game.num_distinct_actions() for a in actions)
        for a in actions:
            text = state.action_to_string(player, a)
            assert state.string_to_action(text) == a, text


@pytest.mark.parametrize("players", [2, 5])
def test_inventors_sequential_reveal_probability(players):
    game = load("inventors", players=players, seed=1)
    k = players + 3
    seen = 0
    for seed in range(2):
        for text, prob, before in _reveal_products_full(game, seed):
            assert text.count("=") == k
            assert prob == pytest.approx(before.reveal_probability(text), rel=1e-9)
            seen += 1
    assert seen == 6   # three reveals a game


def _reveal_products_full(game, seed):
    """(reveal text, product of its step probabilities, core state before it) for each reveal."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    out, prob, before = [], 1.0, None
    while not state.is_terminal():
        if state.is_chance_node():
            if before is None:
                before, prob = state.core.clone(), 1.0
            reveal = state._reveal
            a = random_chance(state, rng)
            prob *= dict(state.chance_outcomes())[a]
            if len(reveal.pairs) == reveal.k - 1 and a >= PAIR_BASE:
                probe = state._reveal.__deepcopy__({})
                probe.apply(a)
                out.append((probe.text(), prob, before))
                before = None
            state.apply_action(a)
        else:
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.randint(len(legal))]))
    return out


def test_inventors_card_steps_are_uniform_over_sets():
    from math import comb

    from atelier.openspiel.chance import Reveal

    rv = Reveal([f"I{i:02d}" for i in range(1, 13)], 3, [6] * 9)
    total = {}

    def rec(r, p):
        if r.step != "card":
            total[tuple(r.chosen)] = p
            return
        for a, q in r.outcomes():
            child = r.__deepcopy__({})
            child.apply(a)
            rec(child, p * q)

    rec(rv, 1.0)
    assert len(total) == comb(12, 3)
    assert all(p == pytest.approx(1 / comb(12, 3)) for p in total.values())


def test_chance_outcomes_api():
    inv = atelier.open("inventors", players=2, seed=1).initial_state()
    with pytest.raises(atelier.InputError) as err:
        observe.chance_outcomes(inv)
    msg = str(err.value)
    assert "\n" not in msg and "792 card sets" in msg and "sequence of 10 chance steps" in msg
    assert aos.chance_outcomes(atelier.open("inventors", players=2, seed=1).start()) == []
    for name in ("leonardo", "craftsmen"):
        st = _first_chance_node(name)
        outs = observe.chance_outcomes(st)
        assert outs and sum(p for _, p, _ in outs) == pytest.approx(1.0)
        for move, _, text in outs:
            assert st.parse_move(text) == move
        assert observe.chance_outcomes(st.game.start()) == [] or st.game.start().is_chance()


def _first_chance_node(name):
    """A core chance node of a random game (Leonardo's draws are rare: a few seeds are tried)."""
    for seed in range(40):
        st = atelier.open(name, players=3, seed=seed).start()
        rng = random.Random(seed)
        while not st.is_terminal():
            if st.is_chance():
                return st
            st.apply(rng.choice(st.legal_moves()))
    raise AssertionError(f"{name}: no chance node in 40 random games")


@pytest.mark.parametrize("name", ["leonardo", "craftsmen"])
def test_resample_from_infostate_keeps_the_information_state(name):
    game = load(name)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = differs = 0
    for i, state in enumerate(walk(game, seed=5, max_steps=120)):
        if state.is_terminal() or state.is_chance_node() or i % 7:
            continue
        for p in range(game.num_players()):
            info = state.information_state_string(p)
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == info
            assert other.observation_string(p) == state.observation_string(p)
            if p == state.current_player():
                assert other.legal_actions() == state.legal_actions()
            differs += other.core.to_bytes() != state.core.to_bytes()
            checked += 1
    assert checked >= 10 and differs > 0


def test_observation_tensor():
    leo = atelier.open("leonardo", players=3, seed=4).start()
    rng = random.Random(4)
    for _ in range(12):   # past the setup: labs researching face down, hands
        leo.apply(rng.choice(leo.legal_moves()))
    arr = observe.observation_tensor([leo, leo.clone()], 0)
    assert arr.shape == (2, observe.TENSOR_SIZE["leonardo"]) and arr.dtype == np.float32
    assert not np.array_equal(observe.observation_tensor([leo], 0), observe.observation_tensor([leo], 1))
    cr = atelier.open("craftsmen", players=2, seed=4).start()
    a0, a1 = observe.observation_tensor([cr], 0), observe.observation_tensor([cr], 1)
    assert a0.shape == (1, observe.TENSOR_SIZE["craftsmen"]) and not np.array_equal(a0, a1)
    inv = atelier.open("inventors", players=2, seed=4).start()
    assert np.array_equal(observe.observation_tensor([inv], 0), observe.observation_tensor([inv], 1))
    # Seat 1's hidden hand changes seat 1's tensor, not seat 0's (determinize from seat 0's view).
    other = leo.clone()
    other.determinize(0, 9)
    assert np.array_equal(observe.observation_tensor([other], 0), observe.observation_tensor([leo], 0))
    # Through OpenSpiel: same encoding.
    game = load("leonardo", players=3, seed=4)
    st = game.new_initial_state()
    rng = random.Random(4)
    for _ in range(12):
        st.apply_action(rng.choice(st.core.legal_moves()))
    assert np.array_equal(np.array(st.observation_tensor(0), np.float32), observe.observation_tensor([leo], 0)[0])
    assert observe.information_state(leo, 1).startswith(observe.observation(leo, 1))


def _play(game, bot_for, seed):
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(random_chance(state, rng))
        else:
            state.apply_action(bot_for(state.current_player()).step(state))
            decisions += 1
    return state, decisions


def test_python_mcts_plays_inventors():
    from open_spiel.python.algorithms import mcts

    game = load("inventors")
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, 12, mcts.RandomRolloutEvaluator(1, rng), random_state=rng, solve=False)
    state, decisions = _play(game, lambda p: bot, 0)
    assert decisions > 50 and sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])


@pytest.mark.parametrize("name,sims", [("leonardo", 8), ("craftsmen", 2)])
def test_python_ismcts_plays(name, sims):
    from open_spiel.python.algorithms import ismcts, mcts

    game = load(name)
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, sims, random_state=rng)
    state, decisions = _play(game, lambda p: bot, 1)
    assert decisions > 50 and sum(state.returns()) == pytest.approx(1.0)


def test_serialize_round_trip_mid_reveal():
    game = load("inventors", players=3)
    state = game.new_initial_state()
    for _ in range(4):   # inside the Age I reveal
        state.apply_action(state.chance_outcomes()[0][0])
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state) and state2.chance_outcomes() == state.chance_outcomes()
    assert state2.observation_string(0) == state.observation_string(0)
    assert "pending reveal:" in str(state)


def test_bench_compare_smoke():
    res = bench.compare("inventors", players=2, iterations=20, positions=1, seed=0)
    assert res["atelier"]["iterations"] == res["openspiel"]["iterations"] == 20
    assert res["atelier"]["seconds"] > 0 and res["openspiel"]["seconds"] > 0 and res["ratio"] > 0


# ---- saving a state safely (docs/openspiel.md "Saving a state") -------------------------------

def _midgame(name, steps, seed=5):
    game = load(name)
    state = None
    for i, state in enumerate(walk(game, seed, max_steps=steps)):
        pass
    return game, state


@pytest.mark.parametrize("name,steps", [("inventors", 4), ("inventors", 40), ("leonardo", 30),
                                        ("craftsmen", 60), ("leonardo", None)])
def test_save_and_load_state_round_trip(name, steps):
    """The JSON save replays to the same state: history, position, what each seat sees, returns
    (4 Inventors steps: inside the Age I reveal; None: the end of the game)."""
    game, state = _midgame(name, steps)
    text = aos.save_state(state)
    again = aos.load_state(game, text)
    assert again.history() == state.history() and str(again) == str(state)
    assert again.core == state.core and again.returns() == state.returns()
    assert again.is_chance_node() == state.is_chance_node()
    for seat in range(2):
        assert again.information_state_string(seat) == state.information_state_string(seat)
    if not state.is_terminal():
        assert (again.chance_outcomes() if state.is_chance_node() else again.legal_actions()) == \
               (state.chance_outcomes() if state.is_chance_node() else state.legal_actions())


class _Payload:
    """Unpickling this writes a file: the proof that a text ran code."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


def test_a_crafted_text_cannot_run_code_through_load_state(tmp_path):
    import base64
    import json
    import pickle

    game, state = _midgame("leonardo", 10)
    marker = tmp_path / "ran"
    blob = base64.b64encode(pickle.dumps({"_c": _Payload(marker)})).decode()
    serialized = state.serialize()
    crafted_openspiel = "\n".join(line if not line.startswith("__dict__=") else "__dict__=" + blob
                                  for line in serialized.splitlines())
    assert "__dict__=" in serialized   # OpenSpiel's own format carries the pickle ...
    doc = json.loads(aos.save_state(state))
    texts = [crafted_openspiel, serialized, blob,
             json.dumps(dict(doc, position=blob)), json.dumps(dict(doc, actions=blob)),
             json.dumps(dict(doc, __dict__=blob)), json.dumps(dict(doc, actions=doc["actions"] + [65535])),
             json.dumps(dict(doc, actions=doc["actions"][:-1])),     # the position then differs
             json.dumps(dict(doc, params=dict(doc["params"], seed=1))), 7, None]
    for text in texts:
        with pytest.raises(atelier.InputError) as exc:
            aos.load_state(game, text)
        assert "\n" not in str(exc.value)
    assert not marker.exists()
    with pytest.raises(atelier.InputError, match="game"):
        aos.load_state(load("craftsmen"), aos.save_state(state))
    # ... which is why the docs say never to deserialize untrusted text: it does run.
    try:
        game.deserialize_state(crafted_openspiel)
    except Exception:   # noqa: BLE001 - whatever happens after, the payload has run
        pass
    assert marker.exists()


def test_the_bench_measures_openspiel_hearts_beside_the_core():
    """`atelier bench` times OpenSpiel's own hearts loop in the same run: whole games of
    players' decisions (fewer than all moves, which add the chance moves) at a positive rate,
    and the core's rate over it."""
    h = bench.hearts_rate(0.05)
    assert h["games"] >= 1 and 0 < h["decisions"] <= 64 * h["games"]
    assert 0 < h["decisions_per_s"] < h["moves_per_s"]
    from atelier.bench import bench as run_bench

    r = run_bench("craftsmen", players=4, games=200, seed=1, search=False)
    row = next(x for x in r["rows"] if x["what"].startswith("OpenSpiel hearts"))
    assert row["core_ratio"] == pytest.approx(r["rows"][0]["decisions_per_s"] / row["decisions_per_s"])

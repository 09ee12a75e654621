"""Feature vectors (cext/common/concept.md "Features", docs/models.md): every ruleset and player
count gives a fixed-length, finite vector at every kind of state, one name per value, the
seat-rotation layout the models rely on, a batch equal to the single calls, and bad arguments
refused as InputError. docs/models.md documents every field."""
import random
import re
from pathlib import Path

import numpy as np
import pytest

import atelier
from atelier import InputError, observe, solvers
from atelier.solvers import testgame

RULESETS = ["inventors", "leonardo", "craftsmen"]
CASES = [(g, n) for g in RULESETS for n in range(2, 6)]
DOC = Path(__file__).resolve().parents[1] / "docs" / "models.md"


def start(game, players, seed):
    g = atelier.open(game, players=players, seed=seed)
    # Inventors' start is after the Age I reveal: begin at the chance node before it.
    return g.initial_state() if game == "inventors" else g.start()


def random_game(game, players, seed, every=1):
    """States of one game of half random, half greedy moves (greedy completes inventions, so
    Leonardo's refill draws happen), chance sampled from the seed: every `every`-th state, and
    always the chance nodes and the last (terminal) one."""
    st = start(game, players, seed)
    rng, out, ply = random.Random(seed), [], 0
    while True:
        if st.is_terminal() or st.is_chance() or ply % every == 0:
            out.append(st.clone())
        if st.is_terminal():
            return out
        if st.is_chance():
            st.sample_chance(seed * 1000 + ply)
        elif rng.random() < 0.5:
            st.apply(solvers.greedy_move(st, ply))
        else:
            st.apply(rng.choice(st.legal_moves()))
        ply += 1


def highcard_states(players, seed):
    g = testgame.Game(players, values=4, copies=3, hand=2)
    st, rng, out = g.initial_state(), random.Random(seed), []
    while True:
        out.append(st.clone())
        if st.is_terminal():
            return g, out
        if st.is_chance():
            st.sample_chance(rng.randrange(1 << 30))
        else:
            st.apply(rng.choice(st.legal_moves()))


def blocks(names, players):
    """(global size, seat block size) from the names' prefixes."""
    g = sum(1 for x in names if x.startswith("global."))
    b = (len(names) - g) // players
    assert g + b * players == len(names)
    return g, b


@pytest.mark.parametrize("game,players", CASES)
def test_fixed_length_and_finite_at_every_state(game, players):
    g = atelier.open(game, players=players, seed=1)
    f = g.feature_count
    assert 0 < f <= 1024
    assert isinstance(g.feature_version, int) and g.feature_version >= 1
    kinds, seed = set(), 0
    # Two games, and more until a chance node has been seen (Leonardo's refill draws need a
    # completed invention, which a half-random game does not always reach).
    while seed < 2 or (len(kinds) < 3 and seed < 8):
        seed += 1
        for st in random_game(game, players, seed):
            kinds.add("chance" if st.is_chance() else "terminal" if st.is_terminal() else "decision")
            for seat in range(players):
                v = st.features(seat)
                assert v.dtype == np.float32 and v.shape == (f,)
                assert np.all(np.isfinite(v))
                assert np.all(np.abs(v) <= 20), "features are scaled to small magnitudes"
    assert kinds == {"chance", "terminal", "decision"}


@pytest.mark.parametrize("game,players", CASES)
def test_names_one_per_value_and_blocks_alike(game, players):
    g = atelier.open(game, players=players, seed=1)
    names = g.feature_names()
    assert len(names) == g.feature_count and len(set(names)) == len(names)
    glob, size = blocks(names, players)
    assert all(x.startswith("global.") for x in names[:glob])
    seat_fields = []
    for j in range(players):
        prefix = "me." if j == 0 else f"p+{j}."
        block = names[glob + j * size: glob + (j + 1) * size]
        assert all(x.startswith(prefix) for x in block), (prefix, block[:3])
        seat_fields.append([x[len(prefix):] for x in block])
    assert all(fields == seat_fields[0] for fields in seat_fields)


@pytest.mark.parametrize("game,players", CASES)
def test_seat_blocks_rotate(game, players):
    """features(s, seat)'s block for seat+k equals features(s, seat+k)'s own block, and the
    global block is the same from every side."""
    names = atelier.open(game, players=players, seed=1).feature_names()
    glob, size = blocks(names, players)
    for st in random_game(game, players, 3, every=7):
        vecs = [st.features(seat) for seat in range(players)]
        for seat in range(players):
            assert np.array_equal(vecs[seat][:glob], vecs[0][:glob])
            for k in range(players):
                other = (seat + k) % players
                mine = vecs[seat][glob + k * size: glob + (k + 1) * size]
                own = vecs[other][glob: glob + size]
                assert np.array_equal(mine, own), (seat, k)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_testgame_features(players):
    g, states = highcard_states(players, 4)
    names = g.feature_names()
    assert len(names) == g.feature_count
    glob, size = blocks(names, players)
    for st in states:
        vecs = [st.features(seat) for seat in range(players)]
        for seat in range(players):
            assert vecs[seat].shape == (g.feature_count,) and np.all(np.isfinite(vecs[seat]))
            for k in range(players):
                other = (seat + k) % players
                assert np.array_equal(vecs[seat][glob + k * size: glob + (k + 1) * size],
                                      vecs[other][glob: glob + size])
    assert np.array_equal(observe.features(states, 1), np.stack([s.features(1) for s in states]))
    with pytest.raises(InputError, match="seat"):
        states[0].features(players)


def test_features_see_the_game_move():
    """Not a constant: the score and the tempo features follow the game."""
    g = atelier.open("inventors", players=2, seed=1)
    names = g.feature_names()
    states = random_game("inventors", 2, 5)
    me_score = names.index("me.score")
    to_move = names.index("me.to_move")
    scores = {float(s.features(0)[me_score]) for s in states}
    assert len(scores) > 3
    assert {float(s.features(0)[to_move]) for s in states} == {0.0, 1.0}
    last = states[-1]
    assert last.features(0)[me_score] == pytest.approx(last.scores()[0] / 40.0)


@pytest.mark.parametrize("game,scale", [("inventors", 40), ("leonardo", 40), ("craftsmen", 100)])
def test_score_feature_is_the_score(game, scale):
    """`me.score` is the core's score now, at every state (Inventors caches its suites)."""
    names = atelier.open(game, players=3, seed=1).feature_names()
    at = names.index("me.score")
    for st in random_game(game, 3, 8, every=3):
        for seat in range(3):
            assert st.features(seat)[at] * scale == pytest.approx(st.scores()[seat], abs=1e-3)


@pytest.mark.parametrize("game", RULESETS)
def test_batch_equals_single_calls(game):
    states = random_game(game, 3, 6, every=11)[:40]
    one = observe.features(states, 2)
    assert one.shape == (len(states), states[0].game.feature_count) and one.dtype == np.float32
    assert np.array_equal(one, np.stack([s.features(2) for s in states]))
    seats = [i % 3 for i in range(len(states))]
    many = observe.features(states, seats)
    assert np.array_equal(many, np.stack([s.features(p) for s, p in zip(states, seats)]))
    assert np.array_equal(observe.features(states, np.array(seats)), many)


def test_bad_arguments_are_input_errors():
    inv = random_game("inventors", 2, 1, every=50)[:3]
    inv3 = random_game("inventors", 3, 1, every=50)[:1]
    leo = random_game("leonardo", 2, 1, every=50)[:1]
    s = inv[0]
    for bad in (-1, 2, True, "0", 1.0, None):
        with pytest.raises(InputError, match="seat"):
            s.features(bad)
    cases = [
        ([], 0, "states"),
        (s, 0, "states"),
        (5, 0, "states"),
        ([s, "x"], 0, r"states\[1\]"),
        (inv + leo, 0, r"states\[3\]"),
        (inv + inv3, 0, r"states\[3\]"),
        (inv, 2, "seat"),
        (inv, [0, 1], "seat"),
        (inv, [0, 1, 5], r"seat\[2\]"),
        (inv, [0, 1, False], r"seat\[2\]"),
    ]
    for states, seat, match in cases:
        with pytest.raises(InputError, match=match):
            observe.features(states, seat)


# ---- docs/models.md documents every field -------------------------------------------------

def documented(game):
    """The field patterns of the docs' Features table for `game` ({i} stands for an index)."""
    text = DOC.read_text()
    m = re.search(rf"^### Features: {game}\b(.*?)(?=^### |^## |\Z)", text, re.S | re.M | re.I)
    assert m, f"docs/models.md has no section 'Features: {game}'"
    return re.findall(r"^\| `([^`]+)` \|", m.group(1), re.M)


def pattern(doc_name):
    """`{i}` an index, `{product}` a product name, `{a,b}` each of a, b."""
    def part(m):
        inner = m.group(1)
        if inner == "i":
            return r"\d+"
        if inner == "product":
            return r"[a-z_]+"
        return "(" + "|".join(re.escape(x) for x in inner.split(",")) + ")"
    out, pos = "", 0
    for m in re.finditer(r"\{([^}]*)\}", doc_name):
        out += re.escape(doc_name[pos:m.start()]) + part(m)
        pos = m.end()
    return re.compile("^" + out + re.escape(doc_name[pos:]) + "$")


@pytest.mark.parametrize("game", RULESETS + ["testgame"])
def test_docs_list_every_feature(game):
    doc = documented(game)
    pats = [pattern(d) for d in doc]
    used = set()
    counts = range(2, 6) if game != "testgame" else [2, 5]
    for n in counts:
        names = (testgame.Game(n, values=4, copies=3, hand=2) if game == "testgame"
                 else atelier.open(game, players=n, seed=1)).feature_names()
        for name in names:
            # Seat blocks are documented once, as `me.`; the others share its layout.
            field = re.sub(r"^p\+\d+\.", "me.", name)
            hits = [i for i, p in enumerate(pats) if p.match(field)]
            assert hits, f"{game}: {name} is not documented in docs/models.md"
            used.update(hits)
    stale = [doc[i] for i in range(len(doc)) if i not in used]
    assert not stale, f"{game}: docs/models.md documents fields that do not exist: {stale}"

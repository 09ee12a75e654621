"""Chance nodes (spec §6): reveal_probability against the §6.1.3 formula at every reveal of random
games (all three ages, all player counts), sample_chance consistent with apply_reveal, the
sampling distribution (6.1.1-2) against exact probabilities, and bad reveals rejected."""
from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from inventors_helpers import KINDS, make_setup, random_setup
from inventors_model import reveal_text, token_prob


def reveal_of(s, f):
    cards = [d["card"] for d in f["display"]]
    pairs = [tuple(sorted(d["tokens"])) for d in f["display"]]
    return cards, pairs


def random_reveals(s, seed):
    """Yield (state before the reveal, state after) for every reveal of one random game."""
    rng = random.Random(seed)
    st = s.game.initial_state()
    while not st.is_terminal():
        if st.is_chance():
            before = st.clone()
            st.sample_chance(rng.getrandbits(63))
            yield before, st.clone()
            continue
        moves = st.legal_moves()
        st.apply(moves[rng.randrange(len(moves))])


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("edition", ["default", "random"])
def test_reveal_probability_matches_formula(n, edition):
    seen_ages = set()
    for g in range(15):
        rng = random.Random(100 * n + g)
        s = random_setup(n, rng) if edition == "random" else make_setup(n, rng.sample(range(5), n))
        K = n + 3
        for before, after in random_reveals(s, g):
            fb, fa = before.fields(), after.fields()
            cards, pairs = reveal_of(s, fa)
            text = reveal_text(s, cards, pairs)
            want = token_prob(fb["bag"], pairs) / math.comb(12, K)
            assert before.reveal_probability(text) == pytest.approx(float(want), rel=1e-9), text
            again = before.clone()
            again.apply_reveal(text)
            assert again == after
            seen_ages.add(fa["age"])
    assert seen_ages == {1, 2, 3}


def test_sample_distribution_age1():
    """6.1.1-2: each card is in S with probability K/12; the lowest card's pair is drawn first
    from the full bag, so P({P2,P2}) = 11/221 (S18); every token kind is drawn in proportion
    to its count. Fixed seeds: the bounds are 5 standard deviations."""
    n, N = 2, 20000
    s = make_setup(n, [0, 1])
    K = n + 3
    counts = list(s.data["token_count"])
    T = sum(counts)
    card_hits, first_pairs, kinds = Counter(), Counter(), Counter()
    for seed in range(N):
        st = s.game.initial_state()
        st.sample_chance(seed)
        f = st.fields()
        cards, pairs = reveal_of(s, f)
        card_hits.update(cards)
        first_pairs[pairs[0]] += 1
        kinds.update(k for p in pairs for k in p)

    def close(hits, trials, p):
        sd = math.sqrt(trials * p * (1 - p))
        return abs(hits - trials * p) <= 5 * sd + 1

    for c in range(12):
        assert close(card_hits[c], N, K / 12), (c, card_hits[c])
    for k in range(9):
        assert close(kinds[k], 2 * K * N, counts[k] / T), (KINDS[k], kinds[k])
    exact = {}
    for a in range(9):
        for b in range(a, 9):
            exact[(a, b)] = token_prob(counts, [(a, b)])
    assert sum(exact.values()) == 1
    assert exact[(0, 0)] == Fraction(11, 221)
    for pair, p in exact.items():
        assert close(first_pairs[pair], N, float(p)), (pair, first_pairs[pair], float(p))


def test_bad_reveals_rejected():
    s = make_setup(2, [0, 1])
    st = s.game.initial_state()
    ok = reveal_text(s, [0, 1, 2, 3, 4], [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)])
    bad = [
        reveal_text(s, [0, 1, 2, 3], [(0, 0), (1, 1), (2, 2), (3, 3)]),           # K-1 cards
        reveal_text(s, [0, 1, 2, 3, 12], [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]),  # an Age II card
        reveal_text(s, [0, 1, 2, 3, 4], [(3, 3), (3, 3), (3, 5), (5, 5), (4, 4)]),  # 5 VP1, bag has 4
    ]
    for text in bad:
        before = st.to_bytes()
        with pytest.raises(ValueError):
            st.apply_reveal(text)
        assert st.to_bytes() == before
    st.apply_reveal(ok)
    assert len(st.fields()["display"]) == 5
    with pytest.raises(ValueError):
        st.apply_reveal(ok)  # not a chance node any more

"""Random-play invariants for Legendary Inventors, n = 2..5 (spec §4-§8).

Python-stepped games check every state field by field: the independent model
(inventors_model.py) predicts each legal-move list (canonical order, 8.13) and each successor;
cubes, tokens and cards are conserved; scores/winners match a recomputation from fields();
clones are equal and independent; to_bytes/from_bytes and fields/from_fields round-trip;
hash == compute_hash(); every move's notation parses back. Game.random_games (C++) covers the
bulk: lengths bounded (8.11), winners consistent with scores, determinism per seed.

CI size: GAMES per player count. ``-m slow``: 10,000 C++ games and SLOW_GAMES Python games.
"""
from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from inventors_helpers import make_setup, norm, random_setup
import inventors_model as model

GAMES = 200          # Python-stepped games per player count (CI)
SLOW_GAMES = 1000    # Python-stepped games per player count (-m slow)

AV, AK = model.AV, model.AK


def decision_bound(data, n):
    """Spec 8.11: main actions <= sum_a 2*K*t_a + 12n; free plays <= tokens drawn (<= 48);
    reward choices <= 3 per completion, 3(n+2) completions."""
    K = n + 3
    t = [max(sum(c["cost"]) for c in data["cards"] if c["age"] == a) for a in (1, 2, 3)]
    main = sum(2 * K * ta for ta in t) + 12 * n
    return main, main + 48 + 3 * 3 * (n + 2)


class Ledger:
    """Where every token and card has gone, derived from the moves played (not from the core)."""

    def __init__(self, data, n):
        self.count = list(data["token_count"])
        self.removed = [0] * 9
        self.revealed, self.removed_cards = set(), set()
        self.completions = 0

    def step(self, before, text, after):
        t = text.lower().split(":")
        if t[0] in ("front", "back"):
            self.removed[model.KINDS.index(t[1].upper())] += 1
        elif t[0] == "avail":
            self.removed[AV] += 1
        elif t[0] == "work" and "+" in text:
            self.removed[AK] += 1
        if before["phase"] != "REWARD" and after["phase"] == "REWARD":
            self.completions += 1
        if before["phase"] == "REWARD" and after["phase"] != "REWARD":  # sharing over (5.7.7)
            rw = before["reward"]
            left = list(rw["left"]["tokens"])
            taken_card = t[1] == "card"
            if not taken_card:
                left.remove(model.KINDS.index(t[1].upper()))
            for k in left:
                self.removed[k] += 1
            if rw["left"]["card"] and not taken_card:
                self.removed_cards.add(rw["card"])
            if after["display"] == [] and before["display"]:  # age end (5.8.1)
                last = before["display"][0]
                assert len(before["display"]) == 1
                self.removed_cards.add(last["card"])
                for k in last["tokens"]:
                    self.removed[k] += 1

    def reveal(self, after):
        for d in after["display"]:
            assert d["card"] not in self.revealed
            self.revealed.add(d["card"])

    def check(self, f):
        n = len(f["hand"])
        for k in range(9):
            held = f["bag"][k] + sum(h[k] for h in f["hand"]) + sum(
                list(d["tokens"]).count(k) for d in f["display"])
            if f["reward"] is not None:
                held += list(f["reward"]["left"]["tokens"]).count(k)
            assert held + self.removed[k] == self.count[k], ("token", model.KINDS[k], f)
        places = [c for s in range(n) for c in f["won"][s]] + [d["card"] for d in f["display"]]
        places += list(self.removed_cards)
        if f["reward"] is not None and f["reward"]["left"]["card"]:
            places.append(f["reward"]["card"])
        assert len(places) == len(set(places)), ("card twice", f)
        assert set(places) == self.revealed, ("card lost or invented", f)


def check_state(st, game, data, teams, f):
    assert st.hash == st.compute_hash()
    b = st.to_bytes()
    st2 = type(st).from_bytes(game, b)
    assert st2 == st and st2.hash == st.hash and st2.to_bytes() == b
    st3 = type(st).from_fields(game, f)
    assert st3 == st and norm(st3.fields()) == norm(f)
    for d in f["display"]:  # cube conservation (4.1)
        assert sum(d["cubes"]) == sum(d["filled"])
        cost = data["cards"][d["card"]]["cost"]
        assert all(0 <= d["filled"][x] <= cost[x] for x in range(4)) and list(d["filled"]) != list(cost)
    n = len(teams)
    details = [model.score_detail(data, teams, f, s) for s in range(n)]
    for s in range(n):
        got = st.score_detail(s)
        assert {k: got[k] for k in details[s]} == details[s], (s, got, details[s])
    assert list(st.scores()) == [d["total"] for d in details]
    return details


def check_illegal(st, moves, texts):
    """An illegal move (as text or number) raises ValueError and leaves the state unchanged."""
    saved = st.to_bytes()
    bad_texts = [x for x in ("rest", "avail", "take:card") if x not in texts]
    for x in bad_texts[:1]:
        with pytest.raises(ValueError):
            st.apply(x)
    bad = next(m for m in range(1 << 16) if m not in moves)
    with pytest.raises(ValueError):
        st.apply(bad)
    assert st.to_bytes() == saved


def check_transposition(st, texts):
    """Two free plays of different kinds on different levels commute (8.12): same state, hash."""
    free = [t for t in texts if t.startswith(("front:", "back:"))]
    for a in free:
        for b in free:
            pa, pb = a.split(":"), b.split(":")
            if pa[1] != pb[1] and pa[2:] != pb[2:]:
                x, y = st.child(st.parse_move(a)), st.child(st.parse_move(b))
                if b in [x.move_to_string(m).lower() for m in x.legal_moves()] and \
                        a in [y.move_to_string(m).lower() for m in y.legal_moves()]:
                    x.apply(x.parse_move(b))
                    y.apply(y.parse_move(a))
                    assert x == y and x.hash == y.hash == x.compute_hash()
                    return True
    return False


def choose(rng, texts, policy):
    """Index of the move to play. "uniform": any legal move. "hoard": take tokens rather than
    cards, and mostly skip free plays, so hands grow large and move lists get long."""
    if policy == "hoard":
        tokens = [i for i, t in enumerate(texts) if t.startswith("take:") and t != "take:card"]
        if tokens:
            return rng.choice(tokens)
        main = [i for i, t in enumerate(texts) if t.startswith(("work", "rest"))]
        if main and rng.random() < 0.9:
            return rng.choice(main)
    return rng.randrange(len(texts))


def play_python_game(n, seed, with_model=True, random_edition=False, token_total=None,
                     policy="uniform", stats=None):
    """Play one game, checking every state; `stats["transpositions"]` counts the commuting
    pairs found, so a caller can assert the check ran at all."""
    rng = random.Random(seed)
    if random_edition:
        s = random_setup(n, rng, token_total=token_total)
    else:
        s = make_setup(n, rng.sample(range(5), n))
    game, data, teams = s.game, s.data, list(s.game.teams)
    st = game.initial_state()
    ledger = Ledger(data, n)
    main_bound, total_bound = decision_bound(data, n)
    decisions = main_actions = 0
    f = st.fields()
    while True:
        details = check_state(st, game, data, teams, f)
        ledger.check(f)
        if st.is_terminal():
            assert f["phase"] == "TERMINAL" and f["age"] == 3 and st.legal_moves() == []
            assert ledger.completions == 3 * (n + 2)
            assert sum(f["bag"]) == sum(data["token_count"]) - 6 * (n + 3)  # S10, 6.1.4
            win = sorted(st.winners())
            assert win == model.winners(details)
            ret = st.returns()
            assert sum(ret) == pytest.approx(1.0)
            assert all(ret[s] == pytest.approx(1.0 / len(win) if s in win else 0.0) for s in range(n))
            return decisions
        if st.is_chance():
            assert st.current_player == -1 and st.legal_moves() == []
            before = f
            st.sample_chance(rng.getrandbits(63))
            f = st.fields()
            K = n + 3
            assert f["phase"] == "MAIN" and len(f["display"]) == K
            assert all(data["cards"][d["card"]]["age"] == f["age"] for d in f["display"])
            assert [d["card"] for d in f["display"]] == sorted(d["card"] for d in f["display"])
            drawn = Counter(k for d in f["display"] for k in d["tokens"])
            assert all(before["bag"][k] - f["bag"][k] == drawn[k] for k in range(9))
            assert f["active"] == (0 if f["age"] == 1 else (f["statuette"] + 1) % n)
            for key in ("levels", "busy", "hand", "won", "statuette", "age"):
                assert f[key] == before[key]
            ledger.reveal(f)
            continue
        moves = st.legal_moves()
        assert moves, "decision point without a legal move"
        assert len(moves) <= (498 if f["phase"] == "MAIN" else 3)  # 8.12
        assert st.current_player == (f["active"] if f["phase"] == "MAIN"
                                     else f["reward"]["seats"][f["reward"]["index"]])
        texts = [st.move_to_string(m).lower() for m in moves]
        assert len(set(moves)) == len(moves)
        for m, t in zip(moves, texts):
            assert st.parse_move(t) == m == st.parse_move(t.upper())
        assert list(st.legal_moves_array()) == moves
        check_illegal(st, moves, texts)
        if with_model:
            assert texts == model.legal_moves(data, teams, f), f
        if decisions % 5 == 0 and check_transposition(st, texts) and stats is not None:
            stats["transpositions"] = stats.get("transpositions", 0) + 1
        i = choose(rng, texts, policy)
        m, text = moves[i], texts[i]
        saved = st.to_bytes()
        other = st.clone()
        other.apply(moves[rng.randrange(len(moves))])  # mutating a clone ...
        assert st.to_bytes() == saved                  # ... leaves the original unchanged
        clone = st.clone()
        assert clone == st and clone.hash == st.hash
        st.apply(m)
        assert clone.to_bytes() == saved  # and the other way round
        clone.apply(m)
        assert clone == st
        after = st.fields()
        if with_model:
            assert norm(after) == norm(model.apply(data, teams, f, text)), text
        ledger.step(f, text, after)
        decisions += 1
        if text.split(":")[0] in ("work", "rest"):
            main_actions += 1
        assert main_actions <= main_bound and decisions <= total_bound
        f = after


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_python_stepped_games(n):
    stats = {}
    for g in range(GAMES):
        play_python_game(n, 1000 * n + g, stats=stats)
    assert stats.get("transpositions", 0) > 0  # the commuting check found pairs to compare


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_python_stepped_games_slow(n):
    for g in range(SLOW_GAMES):
        play_python_game(n, 10 ** 6 + 1000 * n + g)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_python_stepped_games_random_editions(n):
    """Editions far from the default (costs 0..7, start levels, token mixes, goal VP up to 63)."""
    for g in range(GAMES // 4):
        play_python_game(n, 5000 * n + g, random_edition=True)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_python_stepped_games_hoarding(n):
    """Large hands: long free-play lists, AK on most WORKs, levels pushed to 4."""
    for g in range(GAMES // 4):
        play_python_game(n, 3000 * n + g, policy="hoard", random_edition=g % 2 == 1)


def test_five_players_with_the_minimum_48_tokens():
    """6.1.4: with T = 48 and n = 5 the three reveals draw every token; the bag ends empty."""
    for g in range(20):
        play_python_game(5, 9000 + g, random_edition=True, token_total=48)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_python_stepped_games_random_editions_slow(n):
    for g in range(SLOW_GAMES):
        play_python_game(n, 7 * 10 ** 6 + 1000 * n + g, random_edition=True)


def score_bounds(data, teams):
    """The most points spec 7.1-7.4 allow, per seat and for all seats together. Per game the
    3(n+2) completions hand out at most (n+2) cards of each age (7.1); every VP token scores once
    (7.2); a seat's goals are at most its team's goal_vp (7.3); a suite scores one less than its
    items, so suites score less than the cards won plus the ST tokens (7.4)."""
    n = len(teams)
    count = data["token_count"]
    vp = count[3] * 1 + count[4] * 2 + count[5] * 3
    cards = (n + 2) * (1 + 2 + 3)
    suites = 3 * (n + 2) + count[8]
    goals = [sum(inv["goal_vp"] for inv in data["inventors"][t]) for t in teams]
    per_seat = [cards + vp + suites + g for g in goals]
    return per_seat, cards + vp + suites + sum(goals)


def check_random_games(n, games, seed):
    rng = random.Random(seed)
    teams = rng.sample(range(5), n)
    s = make_setup(n, teams)
    res = s.game.random_games(games, seed)
    scores, lengths, winners = (np.asarray(res[k]) for k in ("scores", "lengths", "winners"))
    assert scores.shape == (games, n) and lengths.shape == (games,) and winners.shape == (games,)
    _, total_bound = decision_bound(s.data, n)
    assert lengths.min() >= 3 * (n + 2) and lengths.max() <= total_bound + 3
    per_seat, per_game = score_bounds(s.data, teams)
    for seat in range(n):
        assert scores[:, seat].max() <= per_seat[seat], (seat, scores[:, seat].max(), per_seat[seat])
    assert scores.sum(axis=1).max() <= per_game
    top = scores.max(axis=1)
    for g in range(games):
        w = int(winners[g])
        assert 0 < w < (1 << n)
        for seat in range(n):
            if (w >> seat) & 1:
                assert scores[g, seat] == top[g]
    again = s.game.random_games(games, seed)
    assert (np.asarray(again["scores"]) == scores).all() and (np.asarray(again["lengths"]) == lengths).all()
    return lengths, scores


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_core(n):
    check_random_games(n, GAMES, 77 + n)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_core_slow(n):
    lengths, scores = check_random_games(n, 10_000, 12345 + n)
    print(f"n={n}: length mean {lengths.mean():.1f} max {lengths.max()}, "
          f"score mean {scores.mean():.2f} max {scores.max()}")

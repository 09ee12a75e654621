"""Leonardo da Vinci: hidden information (rules spec §3.5). determinize(seat) keeps the seat's
information-set key and legal moves, and samples the rest by the spec's procedures: hidden labs
drawn jointly under the start snapshot (S27), the deck by the hypothesis sampler after an
opponent's look across a pile boundary (S28)."""
import itertools
import random

from leonardo_helpers import all_pass, game, play, player, skip_phase_a

IRON, GLASS, WOOD, BRICK, ROPE = range(5)


def s27_state():
    s = game(3, basic=True).start(0)
    f = s.fields()
    shops = list(f["shops"])
    shops[IRON] += 1
    shops[GLASS] -= 1
    shops[WOOD] -= 2
    s = s.with_fields({"shops": shops, "players": [{}, {"hand": [0, 1, 2, 0, 0]}, {}]})
    play(s, "start:small:none", "start:small:2", "start:large:5")
    return s


def test_s27_records_at_start():
    s = s27_state()
    p1 = player(s, 1)
    assert p1["labs"][0]["cand"] == [2, 5, 10] and p1["labs"][1]["cand"] == [2, 5, 10]
    assert p1["snap_turn"] == 1 and p1["snap_budget"] == [0, 1, 2, 0, 0]


def test_s27_hidden_labs_are_drawn_jointly():
    s = s27_state()
    f = s.fields()
    shops = list(f["shops"])
    shops[WOOD] -= 4
    shops[GLASS] -= 4
    s = s.with_fields({"shops": shops, "players": [{}, {"hand": [0, 4, 5, 0, 0]}, {}]})
    key = s.infoset_key(0)
    pairs = {}
    for seed in range(300):
        t = s.clone()
        t.determinize(0, seed)
        assert t.validate() == "" and t.infoset_key(0) == key
        p1 = player(t, 1)
        pair = (p1["labs"][0]["card"], p1["labs"][1]["card"])
        pairs[pair] = pairs.get(pair, 0) + 1
        assert p1["hand"] == [0, 4, 5, 0, 0]
    assert set(pairs) == {(2, 5), (5, 2)}
    assert 100 < pairs[(2, 5)] < 200


def test_determinize_keeps_infoset_and_moves_in_random_games():
    rng = random.Random(3)
    for n in (2, 3, 4, 5):
        s = game(n).start(n)
        while not s.is_terminal():
            if s.is_chance():
                s.sample_chance(rng.randrange(1 << 30))
                continue
            if rng.random() < 0.1:
                seat = rng.randrange(n)
                t = s.clone()
                t.determinize(seat, rng.randrange(1 << 30))
                assert t.validate() == ""
                assert t.infoset_key(seat) == s.infoset_key(seat)
                if s.current_player == seat:
                    assert t.legal_moves() == s.legal_moves()
                assert s.deck_hypotheses(seat) >= 1
            ms = s.legal_moves()
            s.apply(ms[rng.randrange(len(ms))])


def s28_state():
    g = game(5, basic=True)
    seed = next(sd for sd in range(100) if 2 in g.start(sd).fields()["deck"][:4])
    s = g.start(seed)
    deck = s.fields()["deck"]
    deck = [c for c in deck[:4] if c != 2] + deck[4:]
    return s.with_fields({
        "turn": 2, "row": [12, 8, 3, 9, 2], "deck": deck, "completed_any": [1],
        "players": [{"owned": [1], "completed": [1]}, {}, {}, {}, {}],
        "history": [2, ["look", 3, 4]], "look_cards": [[deck[:4], 0]], "known_prefix": 4,
    }), deck


def test_s28_deck_after_an_opponent_look_across_the_pile_boundary():
    s, deck = s28_state()
    assert s.deck_hypotheses(0) > 1
    assert s.deck_hypotheses(3) == 1
    n = 4000
    freq = {}
    for seed in range(n):
        t = s.clone()
        t.determinize(0, seed)
        c = t.fields()["deck"][0]
        freq[c] = freq.get(c, 0) + 1 / n
    for c in (4, 5, 7, 11, 13, 15):
        assert abs(freq.get(c, 0) - 3 / 22) < 0.025, c
    rest = (6, 10, 14, 16, 17, 18, 19, 20)
    assert abs(sum(freq.get(c, 0) for c in rest) - 8 / 44) < 0.03
    assert set(freq) <= {4, 5, 7, 11, 13, 15, *rest}
    for seed in range(20):  # P3 knows the next card
        t = s.clone()
        t.determinize(3, seed)
        assert t.fields()["deck"][:4] == deck[:4]


def approx(d, card, value):
    assert abs(d.get(card, 0.0) - value) < 1e-12, (card, d.get(card), value)


def test_s19_viewpoint_draw_probabilities_exact():
    s = game(5, basic=True).start(0)
    d = s.draw_probabilities(0)
    for c in (2, 4, 5):
        approx(d, c, 1 / 6)
    for c in (7, 11, 13, 15):
        approx(d, c, 1 / 8)
    assert set(d) == {2, 4, 5, 7, 11, 13, 15}


def test_s28_viewpoint_draw_probabilities_exact():
    s, deck = s28_state()
    d = s.draw_probabilities(0)
    for c in (4, 5, 7, 11, 13, 15):
        approx(d, c, 3 / 22)
    for c in (6, 10, 14, 16, 17, 18, 19, 20):
        approx(d, c, 1 / 44)
    assert set(d) == {4, 5, 7, 11, 13, 15, 6, 10, 14, 16, 17, 18, 19, 20}
    assert s.draw_probabilities(3) == {deck[0]: 1.0}  # P3 knows the next card


def test_s28_variant_after_drawing_4():
    s, deck = s28_state()
    f = s.fields()
    # A truth in which P3's look put #4 on top (the card drawn next): #4 trades places with the
    # bronze card of the top pile among the looked cards, pile membership included, and leads
    # the top pile's cards of the look (P0's view is the same either way).
    b = next(c for c in deck[:3] if c in (4, 5))
    swap = {b: 4, 4: b}
    deck = [swap.get(c, c) for c in deck]
    mid = [swap.get(c, c) for c in f["mid_lower"]]
    deck = [4] + [c for c in deck[:3] if c != 4] + deck[3:]
    s = s.with_fields({"row": [8, 3, 9, 2, 4], "deck": deck[1:], "mid_lower": mid,
                       "look_cards": [[deck[:4], 0]],
                       "completed_any": [1, 12], "history": [2, ["look", 3, 4], 4], "known_prefix": 3,
                       "players": [{}, {"owned": [12], "completed": [12]}, {}, {}, {}]})
    d = s.draw_probabilities(0)
    approx(d, 5, 1 / 18)
    for c in (7, 11, 13, 15):
        approx(d, c, 13 / 72)
    for c in (6, 10, 14, 16, 17, 18, 19, 20):
        approx(d, c, 1 / 36)


def test_s27_variant_d5_prunes_cand_and_leaves_one_pair():
    s = game(3, basic=True).start(0)
    f = s.fields()
    shops = list(f["shops"])
    shops[IRON] += 1
    shops[GLASS] -= 1
    shops[WOOD] -= 2
    s = s.with_fields({"shops": shops, "row": [1, 12, 8, 5], "box": [3],
                       "deck": [c for c in f["deck"] if c != 5], "history": [5],
                       "players": [{}, {"hand": [0, 1, 2, 0, 0]}, {}]})
    play(s, "start:small:none", "start:small:5", "start:large:2")
    skip_phase_a(s)
    s = s.with_fields({"players": [{}, {"labs": [{"counter": 1}, {"counter": 4}]}, {}]})
    all_pass(s)
    p1 = player(s, 1)
    assert p1["labs"][0]["card"] == 5 and p1["labs"][1]["card"] == 2  # nothing completed
    assert p1["labs"][1]["cand"] == [2, 10]   # #5 left: counter 4 met thr 4 while in the row
    assert p1["labs"][0]["cand"] == [2, 5, 10]
    for seed in range(30):
        t = s.clone()
        t.determinize(0, seed)
        q = player(t, 1)
        assert (q["labs"][0]["card"], q["labs"][1]["card"]) == (5, 2)


def test_the_looker_keeps_the_cards_it_is_looking_at():
    # §3.4: at its own Council action 3 the looker sees the top cards; they are in its
    # information set and determinize(looker) leaves them where they lie, while another
    # seat's determinization may move them.
    rng = random.Random(5)
    found = moved = 0
    for g_seed in range(400):
        s = game(3).start(g_seed)
        while not s.is_terminal() and found < 30:
            if s.is_chance():
                s.sample_chance(rng.getrandbits(32))
                continue
            f = s.fields()
            if f["phase"] == "REORDER":
                o = s.current_player
                top = f["deck"][:4]
                for k in range(4):
                    d = s.clone()
                    d.determinize(o, rng.getrandbits(32))
                    assert d.fields()["deck"][:4] == top
                    assert d.infoset_key(o) == s.infoset_key(o)
                    other = s.clone()
                    other.determinize((o + 1) % 3, rng.getrandbits(32))
                    moved += other.fields()["deck"][:4] != top
                found += 1
            ms = s.legal_moves()
            # Claim Council action 3 whenever offered, so looks are frequent.
            claim3 = [m for m in ms if s.move_to_string(m) == "claim:3"]
            s.apply(claim3[0] if claim3 else rng.choice(ms))
        if found >= 30:
            break
    assert found >= 30 and moved > 0


# ---- the determinizer's draws against §6.2, by a chi-square test at fixed seeds -------------

def chi2_critical(df, z=3.090):
    """The chi-square value exceeded with probability 0.001 (Wilson-Hilferty: within 1% here)."""
    a = 2 / (9 * df)
    return df * (1 - a + z * a ** 0.5) ** 3


def chi2_of_top_card(s, seat, samples, seed0=0):
    expected = s.draw_probabilities(seat)
    counts = {}
    for k in range(samples):
        t = s.clone()
        t.determinize(seat, seed0 + k)
        c = t.fields()["deck"][0]
        counts[c] = counts.get(c, 0) + 1
    assert set(counts) <= set(expected), "a card §6.2 gives probability 0 was sampled"
    stat = sum((counts.get(c, 0) - samples * p) ** 2 / (samples * p) for c, p in expected.items())
    return stat, len(expected) - 1


def spec_fractions_s19():
    return {**{c: 1 / 6 for c in (2, 4, 5)}, **{c: 1 / 8 for c in (7, 11, 13, 15)}}


def spec_fractions_s28():
    return {**{c: 3 / 22 for c in (4, 5, 7, 11, 13, 15)},
            **{c: 1 / 44 for c in (6, 10, 14, 16, 17, 18, 19, 20)}}


def test_determinized_draws_match_s19_and_s28_by_chi_square():
    s19 = game(5, basic=True).start(0)
    s28, deck = s28_state()
    for s, spec in ((s19, spec_fractions_s19()), (s28, spec_fractions_s28())):
        exact = s.draw_probabilities(0)
        assert set(exact) == set(spec) and all(abs(exact[c] - spec[c]) < 1e-12 for c in spec)
        stat, df = chi2_of_top_card(s, 0, 6000)
        assert stat < chi2_critical(df), (stat, df)


def test_determinized_draws_match_the_exact_marginal_at_random_states():
    # States after Council looks (the hard case: several deck hypotheses), 3-5 players.
    rng = random.Random(11)
    checked = 0
    for game_no in range(12):
        n = 3 + game_no % 3
        s = game(n).start(100 + game_no)
        step = 0
        while not s.is_terminal() and checked < 8:
            if s.is_chance():
                s.sample_chance(rng.randrange(1 << 30))
                continue
            step += 1
            seat = rng.randrange(n)
            if step % 15 == 0 and s.fields()["deck"] and s.deck_hypotheses(seat) > 1:
                stat, df = chi2_of_top_card(s, seat, 3000, seed0=checked * 10_000)
                if df >= 1:
                    assert stat < chi2_critical(df), (n, stat, df)
                    checked += 1
            ms = s.legal_moves()
            texts = [s.move_to_string(m) for m in ms]
            looks = [m for m, t in zip(ms, texts) if t == "claim:3" or t.startswith("reorder:")]
            s.apply(looks[0] if looks and rng.random() < 0.9 else s.greedy_move(rng.randrange(1 << 30)))
    assert checked >= 3


def test_samples_do_not_depend_on_what_was_sampled_before():
    """Two hidden labs' pairs are listed once per (candidates, budget) and reused (a per-thread
    cache): a sample drawn when the list is reused equals one drawn when it is made, so the
    greedy move and a determinization depend only on the position and the seed."""
    rng = random.Random(11)
    cases = []
    for n in (2, 4, 5):
        s = game(n).start(n + 20)
        while not s.is_terminal() and len(cases) < 12 * n:
            if s.is_chance():
                s.sample_chance(rng.randrange(1 << 30))
                continue
            pairs = [q for q in range(n)
                     if all(lab["card"] is not None and not lab["revealed"] for lab in player(s, q)["labs"])]
            if pairs and rng.random() < 0.3:
                cases.append((s.clone(), rng.randrange(n), rng.randrange(1 << 30)))
            s.apply(s.greedy_move(rng.randrange(1 << 30)))
    assert len(cases) >= 30

    def draw(case):
        s, seat, seed = case
        t = s.clone()
        t.determinize(seat, seed)
        return s.greedy_move(seed), t.to_bytes()

    first = [draw(c) for c in cases]
    again = [draw(c) for c in reversed(cases)][::-1]   # other neighbours in the cache
    twice = [draw(c) for c in cases]                   # each list just made, reused at once
    assert first == again == twice


def test_pairs_follow_the_budget_under_the_same_candidates():
    """Seat 1's hidden labs keep candidates {2, 5, 10} while its hand (so the room its labs'
    materials may take) varies: which pairs fit changes with the hand alone, so a list kept for
    one hand must not serve another, whatever order the positions come in."""
    base = s27_state()
    shops0, hand0 = base.fields()["shops"], player(base, 1)["hand"]
    variants = []
    for extra in itertools.product(range(3), repeat=3):
        hand = [hand0[0] + extra[0], hand0[1] + extra[1], hand0[2], hand0[3] + extra[2], hand0[4]]
        shops = [s - (h - h0) for s, h, h0 in zip(shops0, hand, hand0)]
        t = base.with_fields({"shops": shops, "players": [{}, {"hand": hand, "snap_budget": [4] * 5}, {}]})
        assert t.validate() == ""
        variants.append(t)

    def labs(t, seed):
        u = t.clone()
        u.determinize(0, seed)
        p = player(u, 1)
        return p["labs"][0]["card"], p["labs"][1]["card"]

    pairs = [{labs(t, seed) for seed in range(40)} for t in variants]
    assert {(2, 5), (5, 2)} in pairs and {(2, 5), (5, 2), (5, 10), (10, 5)} in pairs
    cases = [(i, seed) for seed in range(6) for i in range(len(variants))]
    forward = [labs(variants[i], seed) for i, seed in cases]
    backward = [labs(variants[i], seed) for i, seed in reversed(cases)][::-1]
    assert forward == backward
    assert all(labs(variants[i], seed) in pairs[i] for i, seed in cases)

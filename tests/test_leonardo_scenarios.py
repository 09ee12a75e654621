"""Leonardo da Vinci: the worked scenarios of the rules spec §10 (S1-S30), each asserting the
outcome the spec states. Positions are reached by playing moves in notation from a real setup,
with fields replaced (State.with_fields validates the result)."""
import pytest

from leonardo_helpers import all_pass, basic_at_b, game, moves, play, player, skip_phase_a

IRON, GLASS, WOOD, BRICK, ROPE = range(5)


def without(seq, cards):
    return [c for c in seq if c not in cards]


def drawn(f, cards):
    """The deck history after `cards` left the deck: each a draw, in deck order (spec §3.1)."""
    return f["history"] + [c for c in f["deck"] if c in cards]


# ---- S1 Workshop -------------------------------------------------------------------------

def s1_state(p1_money=5):
    s = game(2, basic=True).start(0)
    play(s, "start:small:none", "start:small:1")  # P1's large lab: NONE is forced  # P1's small lab works on #1
    assert s.fields()["phase"] == "PLACE"
    s = s.with_fields({"players": [
        {"money": 5, "labs": [{"side": 5}, {}]},
        {"money": p1_money, "labs": [{}, {"side": 0}]},
    ]})
    return play(s, "place:b:2", "place:b:2", "pass", "pass")


def test_s1_workshop():
    s = s1_state()
    assert s.current_player == 0
    assert set(moves(s)) == {"buy:mech:small", "buy:take:large", "pass"}
    s.apply("buy:mech:small")
    assert s.current_player == 1 and set(moves(s)) == {"buy:take:large", "pass"}
    s.apply("buy:take:large")
    assert s.current_player == 0 and set(moves(s)) == {"buy:take:large", "pass"}
    s.apply("pass")
    assert s.current_player == 1 and set(moves(s)) == {"buy:flip:large", "pass"}
    s.apply("pass")
    f = s.fields()
    p0, p1 = f["players"]
    assert p0["money"] == 5 and p0["labs"][0]["mech"] == 1
    assert p1["money"] == 3 and p1["labs"][1]["side"] == 4 and p1["labs"][1]["card"] is None
    assert f["mech_supply"] == 5
    assert f["city"][1] == [(0, 0, 0), (0, 0, 0)]  # the area is over, workers home


def test_s1_variant_money_4_forced_pass():
    s = s1_state(p1_money=4)
    play(s, "buy:mech:small", "buy:take:large", "pass")
    # P1 has 2 Florins at price 3: its only option is PASS, played by the engine (§11.4).
    assert s.fields()["phase"] != "AREA"
    assert player(s, 1)["money"] == 2


# ---- S2/S3 discount and a lone completion -----------------------------------------------

def run_s2(apprentices):
    s = game(2, basic=True).start(0)
    f = s.fields()
    s = s.with_fields({
        "row": [1, 12, 13], "deck": without(f["deck"], [13, 8]), "history": drawn(f, [13]),
        "shops": [10, 12, 11, 11, 10],
        "players": [{}, {"owned": [8], "hand": [1, 0, 1, 0, 0]}],
    })
    play(s, "start:small:none", "start:small:none", "start:large:13")
    play(s, "pass", f"place:large:{apprentices}", "master:large")
    return all_pass(s)


def test_s2_s3_discount_completes_and_pays():
    s = run_s2(3)  # master + 3 apprentices = 5 = thr 7 - 2 (P1 owns #8, same type as #13)
    f = s.fields()
    p1 = f["players"][1]
    assert p1["money"] == 3 + 8
    assert p1["owned"] == [8, 13]
    assert p1["labs"][1]["card"] is None and p1["labs"][1]["counter"] == 0
    assert f["shops"][WOOD] == 12 and f["shops"][IRON] == 11  # materials back to F and D
    assert 13 not in f["row"]
    g = s.game
    assert g.card(13)["weeks"] - 2 * 1 == 5


def test_s2_counter_4_does_not_complete():
    s = run_s2(2)
    p1 = player(s, 1)
    assert p1["owned"] == [8] and p1["money"] == 3
    assert p1["labs"][1]["card"] == 13 and p1["labs"][1]["counter"] == 4
    assert not p1["labs"][1]["revealed"]


# ---- S4-S6 price marker --------------------------------------------------------------------

def test_s4_price_marker_full_sequence():
    s = basic_at_b(3, players=[{"money": 10}] * 3)
    play(s, "place:f:2", "master:f", "place:f:3", "pass", "pass", "pass")
    assert s.current_player == 2
    play(s, "buy:wood")
    assert s.current_player == 0
    play(s, "buy:wood")
    assert s.current_player == 1
    play(s, "pass", "buy:wood")
    assert s.current_player == 0
    play(s, "buy:wood")
    f = s.fields()
    assert [p["hand"][WOOD] for p in f["players"]] == [2, 0, 2]
    assert [p["money"] for p in f["players"]] == [4, 10, 7]
    assert f["shops"][WOOD] == 8


def test_s5_pass_keeps_price():
    s = basic_at_b(2, players=[{"money": 10}, {"money": 10}])
    play(s, "place:d:3", "place:d:1", "pass", "pass")
    assert s.current_player == 0
    play(s, "pass")
    for _ in range(4):
        assert s.current_player == 1
        s.apply("buy:iron")
    p1 = player(s, 1)
    assert p1["hand"][IRON] == 1 + 4 and p1["money"] == 10 - 9


def test_s6_money_limit():
    s = basic_at_b(2, players=[{"money": 5}, {}])
    play(s, "place:g:1", "pass", "pass", "buy:brick", "buy:brick", "buy:brick")
    p0 = player(s, 0)
    assert p0["money"] == 0 and p0["hand"][BRICK] == 1 + 3
    assert s.fields()["phase"] != "AREA"  # at price 4 only PASS: auto-played


# ---- S7-S10 Council ------------------------------------------------------------------------

def council(n, a_groups, codex=False, **extra):
    """Phase B with the Council line given as {seat: (apprentices, master, position)}."""
    city = [[(0, 0, 0)] * n for _ in range(8)]
    for seat, g in a_groups.items():
        city[0][seat] = g
    s = basic_at_b(n, codex=codex, city=city, **extra)
    return all_pass(s)


def test_s7_council_all_present_n5():
    s = council(5, {1: (2, 0, 1), 3: (0, 1, 2), 0: (1, 0, 3), 4: (1, 1, 4), 2: (2, 0, 5)}, pot=3)
    before = s.fields()
    assert before["council_order"] == [4, 1, 3, 2]  # P0 excluded
    assert s.current_player == 4
    play(s, "claim:3")
    assert moves(s) == [f"leonardo:{q}" for q in range(5)]
    play(s, "leonardo:2")
    assert s.current_player == 1
    play(s, "claim:2")
    assert s.current_player == 3 and moves(s) == ["claim:4", "decline"]
    play(s, "claim:4")
    assert s.current_player == 2 and moves(s) == ["claim:1", "decline"]
    play(s, "claim:1")
    assert s.current_player == 2 and moves(s) == [f"move:{a}" for a in "bcdefgh"]
    play(s, "move:f")
    assert s.current_player == 4 and len(moves(s)) == 24  # action 3: 4! orders
    play(s, moves(s)[5])
    assert s.current_player == 3
    play(s, "material:glass")
    f = s.fields()
    assert f["leonardo"] == 2 and f["pot"] == 0
    p = f["players"]
    assert p[1]["money"] == before["players"][1]["money"] + 3
    assert p[3]["money"] == before["players"][3]["money"] - 1
    assert p[3]["hand"][GLASS] == before["players"][3]["hand"][GLASS] + 1
    assert f["shops"][GLASS] == before["shops"][GLASS] - 1
    assert f["city"][5][2] == (1, 0, 1)  # P2's apprentice is F's (only, hence first) group
    assert f["city"][0] == [(0, 0, 0)] * 5
    assert f["known_prefix"] == 4


def test_s8_decline_then_first_claimant_gives_leonardo():
    s = council(3, {0: (1, 0, 1), 1: (1, 0, 2), 2: (0, 1, 3)})
    assert s.fields()["council_order"] == [2, 0]  # P1 excluded
    assert "claim:1" not in moves(s)  # master only
    play(s, "decline")
    assert s.current_player == 0
    play(s, "claim:2")
    assert s.fields()["phase"] == "GIFT" and s.current_player == 0


def test_s8_variant_n4_decliner_still_counts_as_present():
    s = council(4, {0: (1, 0, 1), 1: (1, 0, 2), 2: (0, 1, 3), 3: (1, 0, 4)})
    assert s.fields()["council_order"] == [2, 0, 1]  # P3 excluded
    play(s, "decline", "claim:2", "leonardo:1")
    assert s.current_player == 1 and "claim:1" in moves(s)


def test_s9_council_n2_both_act():
    s = council(2, {0: (0, 1, 1), 1: (1, 0, 2)}, players=[{}, {"money": 0}])
    assert s.fields()["council_order"] == [0, 1]
    pot = s.fields()["pot"]
    m0 = player(s, 0)["money"]
    play(s, "claim:2", "leonardo:0")
    assert moves(s) == ["claim:1", "claim:3", "decline"]
    play(s, "decline")
    assert player(s, 0)["money"] == m0 + pot


def test_s10_council_move_changes_ranking():
    n = 2
    city = [[(0, 0, 0)] * n for _ in range(8)]
    city[3] = [(2, 0, 1), (2, 0, 2)]
    city[0][1] = (2, 0, 1)
    s = all_pass(basic_at_b(n, city=city))
    play(s, "claim:1", "leonardo:1", "move:d")
    f = s.fields()
    assert f["city"][3][1] == (3, 0, 2)
    assert f["phase"] == "AREA" and f["area"] == 3 and s.current_player == 1  # P1 buys iron free


# ---- S15 threshold at or below zero --------------------------------------------------------

def test_s15_threshold_zero_completes_same_turn():
    s = game(2, basic=True).start(0)
    f = s.fields()
    s = s.with_fields({
        "row": [1, 2, 8], "deck": without(f["deck"], [2, 7]), "history": drawn(f, [2, 7]),
        "shops": [10, 12, 11, 11, 10],
        "players": [{"owned": [7, 12], "hand": [1, 0, 1, 1, 2]}, {}],
    })
    play(s, "start:small:2")  # thr(#2) = 4 - 2 * 2 = 0: completes at counter 0
    skip_phase_a(s)
    all_pass(s)
    p0 = player(s, 0)
    assert 2 in p0["owned"] and p0["money"] == 3 + 5
    assert s.fields()["shops"][WOOD] == 12


# ---- S17 placement legality ----------------------------------------------------------------

def test_s17_placement_legality():
    s = basic_at_b(2)
    play(s, "place:d:2")
    play(s, "master:d")
    assert not any(m.startswith("place:d:") for m in moves(s))
    assert "master:d" in moves(s)
    play(s, "master:d")
    assert "place:d:2" in moves(s)
    play(s, "place:d:2")
    city = s.fields()["city"][3]
    assert city == [(2, 1, 1), (2, 1, 2)]


# ---- S18 favour picks ----------------------------------------------------------------------

def test_s18_favour_picks_n4():
    s = game(4).start(1)
    assert s.fields()["phase"] == "FAVOUR"
    # round 1
    play(s, "favour:a")
    assert "favour:d4:small" not in moves(s)
    play(s, "favour:d1:wood", "favour:d2:iron", "favour:c")
    # round 2
    play(s, "favour:a")
    assert "favour:d4:small" in moves(s)
    play(s, "favour:d4:small", "favour:d3:iron", "favour:c")
    # round 3: the cap (no letter more than twice with 4-5 players)
    assert not any(m == "favour:a" for m in moves(s))
    play(s, "favour:c")
    assert not any(m.startswith("favour:d") for m in moves(s))
    play(s, "favour:a")
    assert not any(m.startswith("favour:d") for m in moves(s))
    play(s, "favour:a")
    assert "favour:c" not in moves(s)
    f = s.fields()
    p1 = f["players"][1]
    assert p1["labs"][0]["side"] == 5 and p1["labs"][0]["mech"] == 1 and p1["hand"][WOOD] == 1


def test_s18_two_a_legal_with_three_players():
    s = game(3).start(2)
    play(s, "favour:a", "favour:c", "favour:c", "favour:a")
    assert player(s, 0)["money"] == 13


def test_s18_shop_out_n5():
    s = game(5).start(3)
    play(s, "favour:b:iron+iron+glass+glass", "favour:b:iron+iron+wood+wood",
          "favour:b:iron+iron+brick+brick", "favour:b:iron+iron+rope+rope",
          "favour:b:iron+iron+glass+wood", "favour:b:iron+iron+glass+brick")
    assert s.fields()["shops"][IRON] == 0
    ms = moves(s)
    assert not any("iron" in m for m in ms)
    assert "favour:d1:glass" in ms


# ---- S19 basic deck ------------------------------------------------------------------------

def test_s19_basic_deck_structure_n5():
    g = game(5, basic=True)
    for seed in range(40):
        f = g.start(seed).fields()
        assert f["row"] == [1, 12, 8, 3, 9]
        deck = f["deck"]
        assert f["pile_sizes"] == [4, 11, 5]
        top, mid, bottom = deck[:4], deck[4:15], deck[15:]
        assert len([c for c in top if c in (2, 4, 5)]) == 2
        assert len([c for c in top if c in (7, 11, 13, 15)]) == 2
        assert set(mid) >= {16, 17, 18, 19, 20, 6, 10, 14}
        assert sorted(bottom) == [21, 22, 23, 24, 25]


def test_s19_first_refill_probability():
    """The full state knows the top pile, so its draw is uniform over those 4 cards; averaged
    over the deck construction this is the spec's 1/6 per bronze and 1/8 per copper."""
    g = game(5, basic=True)
    total = {}
    seeds = 1500
    for seed in range(seeds):
        s = g.start(seed)
        s = s.with_fields({"phase": "DRAW", "row": [1, 12, 8, 3], "box": [9]})
        outs = s.chance_outcomes()
        assert abs(sum(p for _, p in outs) - 1) < 1e-12
        for m, p in outs:
            c = int(s.move_to_string(m).split(":")[1])
            total[c] = total.get(c, 0) + p / seeds
    for c in (2, 4, 5):
        assert abs(total[c] - 1 / 6) < 0.02
    for c in (7, 11, 13, 15):
        assert abs(total[c] - 1 / 8) < 0.02
    assert set(total) == {2, 4, 5, 7, 11, 13, 15}


# ---- S20 turns 8-9 -------------------------------------------------------------------------

def test_s20_pure_research_turns():
    s = game(2, basic=True).start(0)
    play(s, "start:small:none", "start:small:1")  # P1's large lab: NONE is forced
    s = s.with_fields({"turn": 8})
    # P0 has no working lab: only PASS, auto-played; P1 may place in its lab only.
    assert s.current_player == 1
    ms = moves(s)
    assert all(m.split(":")[1] in ("small", "large") for m in ms if m != "pass")
    pot, row = s.fields()["pot"], s.fields()["row"]
    all_pass(s)
    f = s.fields()
    assert f["turn"] == 9 and f["pot"] == pot and f["row"] == row


# ---- S21 scoring ---------------------------------------------------------------------------

def test_s21_scoring_and_tie_break():
    s = game(3, basic=True).start(0)
    f = s.fields()
    owned = [[1, 7, 13, 4], [6, 2, 8, 9, 15], [10]]
    flat = sum(owned, [])
    s = s.with_fields({
        "row": without(f["row"], flat), "deck": without(f["deck"], flat),
        "history": [2, 4, 7, 13, 15, 9, 6, 10],  # drawn top pile first: a history some deck fits
        "players": [{"money": 40, "owned": owned[0]}, {"money": 33, "owned": owned[1]},
                    {"money": 50, "owned": owned[2]}],
    })
    assert s.scores() == [53, 53, 50]
    assert s.winners() == [1]   # the tie-break (§7) as the scores stand
    assert s.returns() == [1 / 3] * 3   # but the game is not over: nobody has won yet (1/n each)


# ---- S22 Codex -----------------------------------------------------------------------------

def test_s22_codex():
    n = 4
    city = [[(0, 0, 0)] * n for _ in range(8)]
    city[4][2], city[4][3] = (2, 0, 1), (1, 0, 2)   # E
    city[2][0] = (1, 0, 1)                          # C
    city[5][0] = (0, 1, 1)                          # F
    city[0][1] = (0, 1, 1)                          # P1's master in A
    s = all_pass(basic_at_b(n, codex=True, city=city))
    play(s, "claim:1", "leonardo:1")
    ms = moves(s)
    assert "codex:3:e:c" in ms and "codex:2:e:f" in ms and "codex:0:c:e" in ms
    assert "codex:0:c:f" not in ms
    assert not any(m.split(":")[2] == "a" or m.split(":")[3] == "a" for m in ms)
    play(s, "codex:3:e:c")
    f = s.fields()
    assert f["city"][4][3] == (0, 0, 0) and f["city"][4][2] == (2, 0, 1)
    assert f["city"][2][0] == (1, 0, 1) and f["city"][2][3] == (1, 0, 2)


def test_s22_tie_variant_behind_on_arrow_is_allowed():
    n = 4
    city = [[(0, 0, 0)] * n for _ in range(8)]
    city[4][2], city[4][3] = (2, 0, 1), (1, 0, 2)
    city[5][0], city[5][2] = (0, 1, 1), (2, 0, 2)
    city[0][1] = (0, 1, 1)
    s = all_pass(basic_at_b(n, codex=True, city=city))
    play(s, "claim:1", "leonardo:1")
    assert "codex:2:e:f" in moves(s)


# ---- S23/S24 labs --------------------------------------------------------------------------

def s23_state():
    s = game(2, basic=True).start(0)
    f = s.fields()
    return s.with_fields({
        "deck": without(f["deck"], [9]), "history": drawn(f, [9]),
        "completed_any": [9], "step": 0,
        "shops": [11, 10, 8, 11, 11],
        "players": [
            {"hand": [0, 1, 2, 1, 1],
             "labs": [{}, {"side": 4, "card": 10, "counter": 3, "start_turn": 1, "cand": [10],
                           "materials": [0, 1, 2, 0, 0]}]},
            {"owned": [9], "completed": [9]},
        ],
    })


def test_s23_start_legality():
    s = s23_state()
    assert moves(s) == ["keep:large", "cancel:large"]
    play(s, "keep:large")
    assert moves(s) == ["start:small:none"] + [f"start:small:{c}" for c in (2, 4, 5, 7, 8, 11)]
    tot = [a + b for a, b in zip(player(s, 0)["hand"], player(s, 0)["labs"][1]["materials"])]
    play(s, "start:small:7")
    p0 = player(s, 0)
    assert p0["hand"] == [0, 1, 1, 1, 0]
    assert [a + b + c for a, b, c in zip(p0["hand"], p0["labs"][0]["materials"], p0["labs"][1]["materials"])] == tot


def test_s24_cancel_returns_materials_to_hand():
    s = game(2, basic=True).start(0)
    f = s.fields()
    s = s.with_fields({
        "shops": [10, 12, 11, 11, 9], "step": 0,
        "players": [{"hand": [1, 0, 0, 1, 2],
                     "labs": [{"card": 7, "counter": 5, "start_turn": 1, "cand": [7],
                               "materials": [0, 0, 1, 0, 1]}, {}]}, {}],
    })
    shops = s.fields()["shops"]
    assert moves(s) == ["keep:small", "cancel:small"]
    play(s, "cancel:small")
    p0 = player(s, 0)
    assert p0["hand"] == [1, 0, 1, 1, 3]
    assert p0["labs"][0]["card"] is None and p0["labs"][0]["counter"] == 0
    assert s.fields()["shops"] == shops
    assert "start:small:7" in moves(s)  # may start again in the same Phase A


# ---- S25/S26 setups ------------------------------------------------------------------------

def test_s25_beginner_setup_n2():
    f = game(2, basic=True).start(5).fields()
    assert f["row"] == [1, 12, 8]
    p0, p1 = f["players"]
    assert (p0["apprentices"], p0["labs"][0]["side"], p0["labs"][1]["side"], p0["money"]) == (5, 3, 0, 3)
    assert p0["hand"] == [1, 0, 0, 1, 2]
    assert (p1["apprentices"], p1["labs"][0]["side"], p1["labs"][1]["side"], p1["money"]) == (5, 3, 4, 3)
    assert p1["hand"] == [1, 0, 0, 0, 0]
    assert f["academy"] == [2, 2]
    assert f["shops"] == [10, 12, 12, 11, 10]
    assert f["mech_supply"] == 6
    assert len(f["deck"]) == 22 and f["pile_sizes"][0] == 6


def test_s26_expert_setup_n2():
    g = game(2)
    for seed in range(10):
        f = g.start(seed).fields()
        assert len(f["discards"]) == 3 and f["box"] == f["discards"]
        tiers = sorted(g.card(c)["tier"] for c in f["discards"])
        assert tiers == ["bronze", "copper", "silver"]
        assert len(f["row"]) == 3 and len(f["deck"]) == 19
        assert [p["apprentices"] for p in f["players"]] == [3, 3]
        assert f["academy"] == [4, 4]
        assert f["phase"] == "FAVOUR"


# ---- S30 short deck ------------------------------------------------------------------------

def test_s30_short_deck():
    s = game(5, basic=True).start(0)
    f = s.fields()
    rest = without(f["deck"], [24])
    s = s.with_fields({"turn": 6, "phase": "DRAW", "row": [1, 12], "deck": [24], "history": drawn(f, rest),
                       "box": [8, 3, 9] + rest, "pot": 4})
    outs = s.chance_outcomes()
    assert len(outs) == 1 and s.move_to_string(outs[0][0]) == "draw:24" and outs[0][1] == 1.0
    s.apply("draw:24")
    f = s.fields()
    assert f["row"] == [1, 12, 24] and f["deck"] == [] and f["turn"] == 7
    # Turn 7: START offers only row cards (the deck is empty).
    assert s.current_player == 0 and moves(s) == ["start:small:none", "start:small:1"]


# ---- S12 all bids zero, then a continuing lab --------------------------------------------

def test_s12_zero_bids_box_the_card_and_the_revealed_lab_finishes_later():
    s = game(3, basic=True).start(0)
    f = s.fields()
    lab9 = lambda counter: {"card": 9, "counter": counter, "start_turn": 1, "cand": [9],
                            "materials": [0, 1, 0, 1, 0]}
    s = s.with_fields({
        "row": [1, 12, 8, 9], "deck": without(f["deck"], [9]) + [3], "step": 0,
        "shops": [10, 9, 12, 8, 9],
        "players": [{"labs": [lab9(7), {}]}, {"labs": [lab9(7), {}]}, {"labs": [lab9(3), {}]}],
    })
    play(s, "keep:small", "keep:small", "start:large:none", "keep:small")
    money = [p["money"] for p in s.fields()["players"]]
    all_pass(s)
    f = s.fields()
    assert f["phase"] == "BID" and s.current_player == 0
    p2 = f["players"][2]["labs"][0]
    assert p2["revealed"] and p2["continuing"] and p2["card"] == 9 and p2["counter"] == 5  # +2: kit c mech
    assert [p["money"] for p in f["players"]][:2] == [money[0] + 8, money[1] + 8]
    play(s, "bid:0", "bid:0")
    f = s.fields()
    assert 9 in f["box"] and all(9 not in p["owned"] for p in f["players"])
    while s.is_chance():
        s.sample_chance(1)
    # Next turn: P2 keeps the lab and puts master + 2 apprentices on it: 5 + 2 + 2 + 2 >= 7.
    while s.current_player != 2 or s.fields()["phase"] != "LAB":
        s.apply(next(m for m in moves(s) if m.startswith("keep:") or m.endswith(":none")))
    play(s, "keep:small")
    skip_phase_a(s)
    while s.fields()["phase"] == "PLACE":
        s.apply("master:small" if s.current_player == 2 and "master:small" in moves(s)
                else "place:small:2" if s.current_player == 2 and "place:small:2" in moves(s) else "pass")
    shops_before = f["shops"]
    f = s.fields()
    assert f["players"][2]["money"] == money[2] + 6
    assert f["players"][2]["labs"][0]["card"] is None
    assert f["shops"][1] == shops_before[1] + 1 and f["shops"][3] == shops_before[3] + 1
    assert 9 in f["completed_any"] and "start:small:9" not in moves(s)


# ---- S11 an auction tie decided by a gift made this turn ----------------------------------

def test_s11_auction_tie_after_a_leonardo_gift():
    s = game(4, basic=True).start(0)
    f = s.fields()
    lab12 = {"card": 12, "counter": 11, "start_turn": 1, "cand": [12], "materials": [2, 0, 0, 1, 0]}
    city = [[(0, 0, 0)] * 4 for _ in range(8)]
    city[0][3] = (1, 0, 1)
    s = s.with_fields({
        "step": 0, "shops": [f["shops"][0] - 4, 12, 12, f["shops"][3] - 2, f["shops"][4]],
        "players": [{"labs": [lab12, {}]}, {}, {"labs": [lab12, {}]}, {}],
    })
    skip_phase_a(s)
    s = s.with_fields({"city": city})
    all_pass(s)
    play(s, "claim:2", "leonardo:1")
    while s.fields()["phase"] != "BID":
        s.apply("pass")
    assert s.current_player == 2  # order from L = P1: P2, then P0
    money = [p["money"] for p in s.fields()["players"]]
    play(s, "bid:4", "bid:4")
    f = s.fields()
    assert 12 in f["players"][2]["owned"] and f["players"][2]["money"] == money[2] - 4
    assert f["players"][0]["money"] == money[0] and 12 not in f["row"]


# ---- S14 a card won this turn gives no discount -------------------------------------------

def next_turn(s):
    while s.is_chance():
        s.sample_chance(2)
    return s


def test_s14_card_won_this_turn_gives_no_discount():
    s = game(2, basic=True).start(0)
    f = s.fields()
    s = s.with_fields({
        "row": [1, 13, 8], "deck": without(f["deck"], [13]) + [12], "step": 0,
        "shops": [10, 12, 11, 11, 9],
        "players": [{}, {"hand": [0, 0, 0, 0, 0], "snap_turn": 1, "snap_budget": [1, 0, 1, 0, 1], "labs": [
            {"card": 8, "counter": 4, "start_turn": 1, "cand": [8, 13], "materials": [0, 0, 0, 0, 1]},
            {"card": 13, "counter": 5, "start_turn": 1, "cand": [8, 13], "materials": [1, 0, 1, 0, 0]}]}],
    })
    play(s, "start:small:none", "keep:small", "keep:large")
    all_pass(s)
    p1 = player(s, 1)
    assert p1["owned"] == [8] and p1["money"] == 3 + 5
    assert p1["labs"][1]["card"] == 13 and p1["labs"][1]["counter"] == 5  # thr 7 this turn
    next_turn(s)
    skip_phase_a(s)
    all_pass(s)
    p1 = player(s, 1)
    assert p1["owned"] == [8, 13] and p1["money"] == 3 + 5 + 8  # thr 5 from the next turn


# ---- S16 lab capacity, mechanical men and the cap --------------------------------------------

def test_s16_capacity_mech_and_cap():
    s = game(2, basic=True).start(0)
    f = s.fields()
    s = s.with_fields({
        "step": 0, "mech_supply": 4, "shops": [8, 12, 10, 11, 10],
        "players": [{"mech_count": 2, "labs": [{}, {"side": 6, "mech": 2, "card": 21, "counter": 0, "start_turn": 1,
                                                    "cand": [21], "materials": [2, 0, 2, 0, 0]}]}, {}],
    })
    play(s, "keep:large", "start:small:none")
    skip_phase_a(s)
    assert "place:large:4" in moves(s)
    play(s, "master:large", "pass")
    assert "place:large:4" not in moves(s) and "place:large:3" in moves(s)
    play(s, "place:large:3")
    all_pass(s)
    assert player(next_turn(s), 0)["labs"][1]["counter"] == 9
    skip_phase_a(s)
    all_pass(s)
    assert player(next_turn(s), 0)["labs"][1]["counter"] == 13
    skip_phase_a(s)
    play(s, "place:large:1")
    all_pass(s)
    lab = player(next_turn(s), 0)["labs"][1]
    assert lab["counter"] == 15 and lab["card"] == 21  # capped; #21 is still in the deck


# ---- S29 two auctions in one Phase D, after a reveal ------------------------------------------

def test_s29_two_auctions_after_a_reveal():
    s = game(4, basic=True).start(0)
    f = s.fields()
    lab = lambda card, counter, cand: {"card": card, "counter": counter, "start_turn": 1, "cand": cand,
                                       "materials": [0, 0, 0, 0, 1] if card == 8 else [1, 0, 1, 0, 0]}
    pair = {"snap_turn": 1, "snap_budget": [1, 0, 1, 0, 1]}
    s = s.with_fields({
        "row": [1, 13, 8, 3, 9], "deck": without(f["deck"], [13]) + [12],
        "leonardo": 2, "actor": 2, "step": 0, "idx": 0,
        "shops": [8, 12, 8, 12, 10],
        "players": [
            {"money": 3, "hand": [0] * 5, **pair, "labs": [lab(8, 4, [8, 13]), dict(lab(13, 7, [8, 13]), side=4)]},
            {"money": 4, "hand": [0] * 5, **pair, "labs": [lab(8, 6, [8, 13]), lab(13, 8, [8, 13])]},
            {"money": 10, "hand": [0] * 5, "labs": [lab(13, 7, [13]), {}]},   # kit c: +2 from its mechanical man
            {"hand": [0] * 5, "labs": [lab(13, 3, [13]), {}]},
        ],
    })
    play(s, *["keep:small", "keep:small", "keep:small", "keep:large", "keep:small", "keep:large"])
    all_pass(s)
    f = s.fields()
    assert f["phase"] == "BID" and f["pending"] == [(8, [0, 1]), (13, [0, 1, 2])]
    assert [p["money"] for p in f["players"]][:3] == [16, 17, 18]
    assert f["shops"] == [8 + 3, 12, 8 + 3, 12, 10 + 2]
    p3 = f["players"][3]["labs"][0]
    assert p3["revealed"] and p3["continuing"] and p3["cand"] == []
    assert s.current_player == 0
    play(s, "bid:5")
    assert s.current_player == 1
    play(s, "bid:4")
    assert s.current_player == 2 and len(moves(s)) == 19   # bids 0..18
    play(s, "bid:12")
    assert s.current_player == 0 and len(moves(s)) == 12   # 0..11, after paying 5
    play(s, "bid:11")
    assert s.current_player == 1 and len(moves(s)) == 18
    play(s, "bid:12")
    f = s.fields()
    assert [p["money"] for p in f["players"]][:3] == [11, 17, 6]
    assert f["players"][0]["owned"] == [8] and f["players"][2]["owned"] == [13]
    assert f["players"][3]["labs"][0]["card"] == 13 and f["players"][3]["labs"][0]["continuing"]


# ---- S13 a lab on a deck card waits for the request -----------------------------------------

def test_s13_waiting_for_the_request():
    s = game(2, basic=True).start(0)
    f = s.fields()
    shops = list(f["shops"])
    shops[WOOD] -= 2   # one wood in P0's lab on #2, one in P1's hand for its own start
    s = s.with_fields({
        "turn": 3, "row": [1, 12], "box": [8], "deck": [2] + without(f["deck"], [2]), "shops": shops,
        "players": [{"labs": [{"card": 2, "counter": 5, "start_turn": 2, "cand": [2],
                               "materials": [0, 0, 1, 0, 0]}, {}]},
                    {"hand": [1, 0, 1, 0, 0]}],
    })
    skip_phase_a(s)
    all_pass(s)
    f = s.fields()
    # Turn 3, Phase D: counter 5 reaches the threshold 4, but #2 is in the deck: nothing happens.
    p0 = f["players"][0]
    assert f["phase"] == "DRAW" and p0["labs"][0]["card"] == 2 and not p0["labs"][0]["revealed"]
    assert p0["money"] == 3 and p0["owned"] == [] and 2 not in f["completed_any"]
    s.apply("draw:2")
    f = s.fields()
    assert f["turn"] == 4 and f["phase"] == "LAB" and 2 in f["row"]
    s = s.with_fields({"mech_supply": f["mech_supply"] - 1,
                       "players": [{}, {"mech_count": 1, "labs": [{"side": 5, "mech": 1}, {}]}]})
    play(s, "keep:small", "start:small:2")
    skip_phase_a(s)
    while s.fields()["phase"] == "PLACE":
        if s.current_player == 0:
            s.apply("pass")
        else:
            s.apply(next(m for m in ("master:small", "place:small:1", "pass") if m in moves(s)))
    f = s.fields()
    # Phase D: master 2 + apprentice 1 + mechanical man 2 = 5 weeks >= 4: both labs complete,
    # each pays 5 (#2 bronze first reward), and the two bid for the card.
    assert f["phase"] == "BID" and [c for c, _ in f["pending"]] == [2]
    assert sorted(f["pending"][0][1]) == [0, 1]
    assert [p["money"] for p in f["players"]] == [3 + 5, 3 + 5]

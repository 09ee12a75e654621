"""Craftsmen hidden information (spec 6.2): the determinization contract at random states of
random games (running auctions and payments included), what a key separates, and the deal's
frequencies against the spec's uniform deal (chi-square at a fixed seed)."""
import random
from collections import Counter

import pytest

from atelier._core import craftsmen as C
from craftsmen_helpers import game

MONEY_TYPES = [c + str(v) for c in "PGBR" for v in (1, 2, 3)]


def states(players, seed, every=5):
    """Every `every`-th state of one random game, and every state inside an auction."""
    g = game(players)
    st, rng, steps = g.start(seed), random.Random(seed), 0
    while not st.is_terminal():
        if steps % every == 0 or st.fields()["phase"] in ("BID", "MAYOR_BID", "PAY"):
            yield st
        st.apply(rng.choice(st.chance_outcomes())[0] if st.is_chance() else rng.choice(st.legal_moves()))
        steps += 1


def own_view(st, seat):
    f = st.fields()
    me = f["seats"][seat]
    faceup = {t: deck["faceup"] for t, deck in f["decks"].items()}
    return f["phase"], f["display"], f["discard"], me["money"], me["hand"], me["row"], faceup


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_determinize_keeps_what_the_seat_knows(players, seed):
    rng = random.Random(seed)
    auctions = 0
    for st in states(players, seed):
        f = st.fields()
        for s in range(players):
            d = st.clone()
            d.determinize(s, rng.randrange(1 << 32))
            assert d.validate() == ""
            assert d.infoset_key(s) == st.infoset_key(s)
            assert own_view(d, s) == own_view(st, s)
            for q in range(players):   # hand sizes are public
                assert sum(d.fields()["seats"][q]["money"].values()) == sum(f["seats"][q]["money"].values())
                assert len(d.fields()["seats"][q]["hand"]) == len(f["seats"][q]["hand"])
            if not st.is_chance() and st.current_player == s:
                assert [d.move_to_string(m) for m in d.legal_moves()] == [st.move_to_string(m) for m in st.legal_moves()]
            if f["phase"] in ("BID", "MAYOR_BID"):
                auctions += 1
                raw = d.to_bytes()
                off, size = C.LAYOUT["auc_max"]
                for q in range(players):   # a bid is a claim on the bidder's hand (commitment)
                    if q != s:
                        assert d.hand_value(q) >= raw[off + q]
    assert players == 2 or auctions > 0


def test_a_key_tells_apart_what_the_seat_sees_only():
    g = game(4)
    st = g.start(5)
    d = st.clone()
    d.determinize(0, 99)
    assert d != st   # the other hands were redealt ...
    assert d.infoset_key(0) == st.infoset_key(0)   # ... which seat 0 cannot tell
    assert any(d.infoset_key(q) != st.infoset_key(q) for q in (1, 2, 3))
    nxt = st.clone()
    nxt.apply(nxt.legal_moves()[-1])   # a public move changes every seat's key
    assert all(nxt.infoset_key(q) != st.infoset_key(q) for q in range(4))


def test_a_card_handed_over_is_known_to_the_giver_only():
    """A25: in a stacking payment the payer sees the card it hands over; onlookers do not."""
    g = game(4)
    for seed in range(40):
        st, rng = g.start(seed), random.Random(seed)
        while not st.is_terminal():
            if not st.is_chance() and st.fields()["phase"] == "STACK_PAY":
                moves = [m for m in st.legal_moves() if st.move_to_string(m).startswith("PAY_CARD")]
                if moves:
                    payer = st.current_player
                    before = st.fields()["seats"]
                    st.apply(moves[0])
                    after = st.fields()["seats"]
                    q = next(i for i in range(4) if sum(after[i]["money"].values()) > sum(before[i]["money"].values()))
                    rest = [o for o in range(4) if o not in (payer, q)]
                    for k in range(30):   # the payer's deals always leave the card with q
                        d = st.clone()
                        d.determinize(payer, k)
                        assert all(d.fields()["seats"][q]["money"].get(t, 0) >= n for t, n in known_gift(before, after, payer, q).items())
                    seen = Counter()
                    for k in range(60):
                        d = st.clone()
                        d.determinize(rest[0], k)
                        seen[tuple(sorted(d.fields()["seats"][q]["money"].items()))] += 1
                    assert len(seen) > 1   # an onlooker's deals vary q's hand
                    return
            st.apply(rng.choice(st.chance_outcomes())[0] if st.is_chance() else rng.choice(st.legal_moves()))
    pytest.fail("no stacking card payment in 40 games")


def known_gift(before, after, payer, q):
    gift = Counter(before[payer]["money"]) - Counter(after[payer]["money"])
    return dict(gift)


def chi_square(observed, expected):
    return sum((observed.get(k, 0) - e) ** 2 / e for k, e in expected.items() if e > 0)


# Upper 0.1% points of the chi-square distribution by degrees of freedom.
CHI2_999 = {5: 20.52, 10: 29.59, 11: 31.26, 15: 37.70, 17: 40.79, 18: 42.31, 19: 43.82, 20: 45.31, 21: 46.80, 23: 49.73}


def test_money_deal_frequencies_match_a_uniform_deal():
    g = game(4)
    st = g.start(11)
    f = st.fields()
    seen = Counter(f["seats"][0]["money"]) + Counter(f["display"])
    pool = Counter({t: 4 for t in MONEY_TYPES}) - seen
    total, places = sum(pool.values()), 5
    n = 4000
    counts = Counter()
    for k in range(n):
        d = st.clone()
        d.determinize(0, 1000 + k)
        counts.update(d.fields()["seats"][2]["money"])
    expected = {t: n * places * c / total for t, c in pool.items()}
    dof = len(expected) - 1
    assert chi_square(counts, expected) < CHI2_999[dof]


def test_building_deal_frequencies_match_a_uniform_deal():
    """Seat 1's two basic cards are two of the basic cards seat 0 has not seen, each equally."""
    g = game(4)
    st = g.start(12)
    f = st.fields()
    ids = g.building_ids
    basic = [b for b in ids if b.startswith("B")]
    seen = set(f["seats"][0]["hand"]) | set(f["decks"]["basic"]["faceup"])
    seen |= {b for q in range(4) for b in f["seats"][q]["row"]}
    unseen = [b for b in basic if b not in seen]
    n = 3000
    counts = Counter()
    for k in range(n):
        d = st.clone()
        d.determinize(0, 5000 + k)
        counts.update(b for b in d.fields()["seats"][1]["hand"] if b.startswith("B"))
    expected = {b: n * 2 / len(unseen) for b in unseen}
    assert set(counts) <= set(unseen)
    assert chi_square(counts, expected) < CHI2_999[len(unseen) - 1]


def test_tight_competing_claims_still_get_uniform_style_deals():
    """Two running-auction claims on the same colours (golden states from check_games): each
    seat's deals must meet both claims, keep the key, and vary."""
    import json
    import pathlib

    import atelier

    doc = json.loads((pathlib.Path(__file__).parent / "golden" / "craftsmen_tight_claims.json").read_text())
    for case in doc["cases"]:
        st = atelier.load_position(json.dumps(case["position"]))
        raw = st.to_bytes()
        off = C.LAYOUT["auc_max"][0]
        n = st.game.players
        for seat in range(n):
            hands = set()
            for k in range(100):
                d = st.clone()
                d.determinize(seat, k)
                assert d.validate() == "" and d.infoset_key(seat) == st.infoset_key(seat)
                for q in range(n):
                    if q != seat:
                        assert d.hand_value(q) >= raw[off + q]
                hands.add(d.to_bytes())
            assert len(hands) > 1 or seat == case["seat"]


@pytest.mark.parametrize("players,seed", [(2, 21), (4, 22)])
def test_draw_frequencies_match_the_outcome_probabilities(players, seed):
    """§15: sample_chance draws each outcome with count / segment size (chi-square, fixed seed),
    at a money draw and at a building draw."""
    kinds = set()
    for st in states(players, seed, every=1):
        if not st.is_chance():
            continue
        outs = st.chance_outcomes()
        kind = "money" if outs[0][2].startswith("DRAW(") and outs[0][2][5] in "PGBR" and len(outs[0][2]) == 8 else "building"
        if kind in kinds or len(outs) < 4:
            continue
        kinds.add(kind)
        n = 4000
        counts = Counter()
        for k in range(n):
            d = st.clone()
            d.sample_chance(7000 + k)
            counts[next(t for m, p, t in outs if st.child(m).to_bytes() == d.to_bytes())] += 1
        expected = {t: n * p for _, p, t in outs}
        dof = len(expected) - 1
        limit = CHI2_999.get(dof) or dof + 4 * (2 * dof) ** 0.5
        assert chi_square(counts, expected) < limit, (kind, counts)
        if len(kinds) == 2:
            return
    pytest.fail(f"only {kinds} draws met")

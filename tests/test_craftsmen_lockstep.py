"""Craftsmen: the C++ core and the independent Python model (tests/craftsmen_model.py) played in
lockstep, move by move, from the same deal.

For every game the core deals from a seed; the model is set up with a scripted shuffle that lays
out the core's deal (``model_setup``), so both begin in the same full state. Then, at every state:

1. a decision: the core's legal moves, printed with ``move_to_string``, equal the model's
   ``legal_texts`` (the same canonical order, §18.3/§23); one move is picked (seeded: uniform,
   the core's ``greedy_move``, or the last listed move, which is often the "active" one) and
   applied to both by its notation;
2. a chance node: the core's outcomes and probabilities equal the model's ``chance_outcomes``
   exactly (the model's Fractions against the core's doubles); one outcome is applied to both;
3. the successors are projected onto one common dict (``core_view`` / ``model_view``) and
   compared key by key; a failure names the first differing key, the configuration, the seed
   and the moves so far (``replay`` rebuilds both sides from them).

Representation choices the projections absorb (no rule depends on them):
* during a Notary look the core moves the face-up cards into its look pool, the model keeps them
  face up next to the drawn ones: until KEEP only the face-up cards and the pool together are
  compared;
* the core lists every ship row with two slots (None = empty), the model by the edition's slots;
  the core lists three spaces per guild in 2 players too (the third stays empty);
* ORDER_CHANGE: the core leaves the helper's disc on its Town Hall space until 11.1 and marks
  the seat on the track; the model empties the space (9.6 "this helper moves" to the track). No
  rule reads that disc before 11.1 (Town Hall helpers are never privileged), so the core's copy
  is dropped from its view (``ghosts``);
* stacking: the core takes the helper from home at PLACE and puts the disc on its space after
  the payment, the model does both at STACK (the core's pending disc is added to its view);
* a produced cube awaiting its SEND has left the supply in the core's count and in the model's
  ``supply`` (M.cube_supply, derived from the board, still counts it);
* the order change (11.3): the core keeps the track until the end-of-round discards are over,
  the model makes it the next round's order at once (``core_order`` / ``model_order``);
* a 10-card limit discard comes after the rest of the atomic step in the core, before it in the
  model: at a limit discard only the money is compared (``at_limit``);
* the core's phase names and the model's decision frames differ in granularity (``PHASES``).

CI runs a few games per player count and age rank; ``-m slow`` runs 200 games per player count.
"""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

import craftsmen_model as M
from atelier._core import craftsmen as C
from craftsmen_helpers import game

ED = M.load_edition()

# Core phase -> the model's decision frames it may stand for.
PHASES = {
    "MULLIGAN": {"mull_dec"}, "HELPER": {"helper_dec"}, "STACK": {"stack_dec"},
    "STACK_PAY": {"stack_pay_dec"}, "WINDOW": {"window_dec"}, "BANK1": {"banker_dec"},
    "BANK2": {"banker2_dec"}, "BANK_PRIV": {"banker_priv_dec"}, "DISCARD": {"discard_dec"},
    "BUILD1": {"arch_dec"}, "BUILD2": {"arch_dec"}, "PAY": {"pay_dec"},
    "NOTARY1": {"notary_dec"}, "NOTARY2": {"notary_dec"},
    "NOTARY3": {"notary_look_dec"}, "BID": {"bid_dec"}, "MAYOR_BID": {"mayor_dec"},
    "KEEP": {"look_keep_dec"}, "RETURN": {"look_return_dec"}, "MERCH": {"merch_dec"},
    "MERCH_PAY": {"merch_pay_dec"}, "COMPENSATE": {"comp_dec"}, "TOWN": {"th_dec"},
    "CRAFT": {"craft_dec"}, "WPUSE": {"wp_token_dec"}, "SEND": {"send_raw_dec", "send_semi_dec"},
    "REWARD": {"reward_dec"}, "LOAD": {"load_dec"}, "CONTRIB": {"contrib_dec"},
    "LIMIT": {"discard_dec"}, "CHANCE": {"draw"}, "TERMINAL": {None},
}

AGE_RANKS = {2: [None, [1, 0]], 3: [None, [2, 0, 1]], 4: [None, [3, 1, 0, 2]],
             5: [None, [4, 2, 0, 1, 3]]}
CONFIGS = [(n, i) for n in (2, 3, 4, 5) for i in range(2)]
CI_GAMES = 2
SLOW_GAMES_PER_COUNT = 200

_GAMES = {}


def core_game(n, age):
    key = (n, tuple(age) if age else None)
    if key not in _GAMES:
        _GAMES[key] = game(n, age_rank=age)
    return _GAMES[key]


# ---------------------------------------------------------------- the common deal

class Scripted:
    """An rng for M.setup whose shuffles return the core's deal: setup shuffles the money, the
    basic deck, the extended house cards, the advanced house cards and the mills, in that
    order, and deals each from the front (hands in seat order, then the display or face-up
    cards, then the deck, whose order is not part of the state)."""

    def __init__(self, orders):
        self.orders = list(orders)

    def shuffle(self, x):
        want = self.orders.pop(0)
        assert sorted(want) == sorted(x), "the core's deal holds other cards than the model's"
        x[:] = want


def model_setup(st):
    f = st.fields()
    seats, d = f["seats"], f["decks"]

    def money(place):
        return [ED.tindex[t] for t, c in place.items() for _ in range(c)]

    def hands(tier):
        return [i for q in seats for i in q["hand"] if ED.cards[i]["tier"] == tier]

    orders = [
        [t for q in seats for t in money(q["money"])] + money(f["display"]) + money(f["money_deck"]),
        hands("basic") + d["basic"]["faceup"] + d["basic"]["segments"][0],
        hands("extended") + d["extended"]["faceup"] + d["extended"]["segments"][0],
        d["advanced"]["faceup"] + d["advanced"]["segments"][0],
        [q["row"][0] for q in seats] + f["box"],
    ]
    s = M.setup(ED, len(seats), {"age_rank": st.game.age_rank}, Scripted(orders))
    return s


# ---------------------------------------------------------------- projections

def nonzero(d):
    return {k: v for k, v in sorted(d.items()) if v}


def counts_dict(counts):
    return nonzero(dict(zip(ED.types, counts)))


def seg_dict(items):
    return counts_dict([items.count(t) for t in range(len(ED.types))])


def common_deck(faceup, pool, top, segs, bottom, before_keep):
    """A building deck; the face-up cards alone only outside the draws and KEEP of a look."""
    return {"faceup": None if before_keep else sorted(faceup), "visible": sorted(faceup + pool),
            "top": list(top), "segments": [sorted(x) for x in segs if x], "bottom": list(bottom)}


def byte(st, name):
    return st.to_bytes()[C.LAYOUT[name][0]]


def core_guilds(st, f, ghosts):
    """The core's guilds as the model keeps them: the disc of a pending STACK_PAY on its space
    (the core puts it there after the payment), the discs that went to the order-change track
    off their Town Hall space (`ghosts`: the core leaves them there until 11.1)."""
    guilds = [[list(sp) for sp in gd] for gd in f["guilds"]]
    if f["phase"] == "STACK_PAY":
        disc = {"seat": f["actor"], "privileged": False}
        guilds[byte(st, "stack_guild")][byte(st, "stack_space")][1] = disc
    for space, layer in ghosts:
        guilds[5][space][layer] = None
    return guilds


F_ROUND_END = 7  # the core's flow cursor between the final phase and the next round


def core_order(st, f):
    """The order change (11.3): the core keeps its track until the round's end-of-round
    discards are over, the model turns it into the next round's order at 11.3 at once."""
    track, n = list(f["order_track"]), len(f["seats"])
    if n > 2 and f["season"] < 3 and byte(st, "flow") == F_ROUND_END:  # winter: no final phase
        return {"order_track": None, "next_order": track + [q for q in f["turn_order"] if q not in track]}
    return {"order_track": track, "next_order": None}


def model_order(s):
    if s["next_order"] is not None:
        return {"order_track": None, "next_order": list(s["next_order"])}
    return {"order_track": list(s["order_change"]), "next_order": None}


def core_view(st, ghosts=()):
    f = st.fields()
    phase = f["phase"]
    seats = [{
        "ap": q["ap"], "home": q["home"], "passed": q["passed"], "market": q["market"],
        "priv": q["priv_tokens"], "work": q["work_tokens"], "supply": q["supply"],
        "contributed": q["contributed"], "bonus": sorted(q["bonus"]), "money": nonzero(q["money"]),
        "hand": sorted(q["hand"]), "row": list(q["row"]),
        "filled": {c: sorted(v) for c, v in sorted(q["filled"].items())},
    } for q in f["seats"]]
    decks = {t: common_deck(k["faceup"], k["pool"], k["top"], k["segments"], k["bottom"],
                            bool(k["pool"]) and phase != "RETURN")
             for t, k in f["decks"].items()}
    ships = [{p: [x for x in slots] for p, slots in rows.items()} for rows in f["ships"]]
    wh = {g: ["N" if x == "neutral" else x for x in v] for g, v in f["warehouse"].items()}
    return {
        "phase": PHASES[phase], "actor": f["actor"] if phase not in ("CHANCE", "TERMINAL") else None,
        "year": f["year"], "season": f["season"], "turn_order": list(f["turn_order"]),
        **core_order(st, f), "seats": seats,
        "display": nonzero(f["display"]), "discard": nonzero(f["discard"]),
        "money_deck": nonzero(f["money_deck"]), "mayor": nonzero(f["mayor"]),
        "decks": decks, "box": sorted(f["box"]), "guilds": core_guilds(st, f, ghosts), "warehouse": wh,
        "ships": ships, "neutral_supply": f["neutral_supply"], "bank_priv": f["bank_priv"],
        "bank_work": f["bank_work"], "bonus_unclaimed": sorted(f["bonus_unclaimed"]),
        "scores": list(st.scores()), "context": core_context(f),
    }


def core_context(f):
    """The pending decision's numbers: a payment's amount, the work points left, the auction."""
    ph, c, n = f["phase"], f["context"], len(f["seats"])
    out = {"pay": c["pay_amount"] if ph == "PAY" else None,
           "wp": c["wp"] if ph == "CRAFT" else None, "auction": None}
    if ph in ("BID", "MAYOR_BID"):
        bids = {q: b for q, b in enumerate(c["auction_max_bids"][:n]) if b}
        out["auction"] = [c["auction_card"], c["auction_high"], c["auction_bidder"], bids]
    return out


def model_context(s):
    top = s["stack"][-1] if s["stack"] else {}
    a = s["auction"]
    out = {"pay": top["amount"] if top.get("op") == "pay_dec" else None,
           "wp": top["pool"] if top.get("op") == "craft_dec" else None, "auction": None}
    if top.get("op") in ("bid_dec", "mayor_dec"):  # the core holds the mayor's bid as the high
        high = a["mayor"] if top["op"] == "mayor_dec" else a["high"]
        out["auction"] = [a["card"], high, a["high_bidder"], dict(sorted(a["bids"].items()))]
    return out


def model_phase(s):
    ph = M.phase(s)
    if ph == "terminal":
        return None, None
    top = s["stack"][-1]
    return top["op"], (top.get("seat") if ph == "decision" else None)


def model_view(s):
    op, actor = model_phase(s)
    n = s["n"]
    look = s["act"]["look"] if s["act"] else None
    stacking = [fr["seat"] for fr in s["stack"][-1:] if fr["op"] == "stack_dec"]
    seats = [{
        "ap": s["ap"][p], "home": s["home"][p] - (p in stacking), "passed": s["passed"][p],
        "market": s["market"][p],
        "priv": s["priv_tokens"][p], "work": s["work_tokens"][p], "supply": s["supply"][p],
        "contributed": s["contributed"][p], "bonus": sorted(s["bonus"][p]),
        "money": counts_dict(s["money"][p]), "hand": sorted(s["hand"][p]), "row": list(s["row"][p]),
        "filled": {c: sorted(x for x, b in zip(ED.cards[c]["inputs"], bits) if b)
                   for c, bits in sorted(s["filled"][p].items()) if any(bits)},
    } for p in range(n)]
    decks = {}
    before_keep = any(fr["op"] == "look_keep_dec" for fr in s["stack"])
    for t in M.TIERS:
        d = s["deck"][t]
        here = look is not None and look["tier"] == t
        pool = look["drawn"] + look["returning"] if here else []
        decks[t] = common_deck(s["faceup"][t], pool, d["top"], d["seg"], d["bottom"], here and before_keep)
    md = s["money_deck"]
    ships = [{row["product"]: (list(slots) + [None, None])[:2]
              for row, slots in zip(sh["rows"], s["ships"][k])} for k, sh in enumerate(ED.ships)]
    return {
        "phase": op, "actor": actor, "year": s["year"], "season": s["season"],
        "turn_order": list(s["turn_order"]), **model_order(s), "seats": seats,
        "display": counts_dict(s["display"]), "discard": counts_dict(s["discard"]),
        "money_deck": seg_dict(md["top"] + [x for seg in md["seg"] for x in seg] + md["bottom"]),
        "mayor": counts_dict(s["auction"]["mayor_cards"]) if s["auction"] else {},
        "decks": decks, "box": sorted(s["box"]),
        "guilds": [gd + [[None, None]] * (3 - len(gd)) for gd in s["guild"]],
        "warehouse": {g: list(v) for g, v in s["warehouse"].items()}, "ships": ships,
        "neutral_supply": s["neutral_supply"], "bank_priv": s["bank_priv"],
        "bank_work": s["bank_work"], "bonus_unclaimed": sorted(s["bonus_unclaimed"]),
        "scores": [x["total"] for x in M.scores(s)], "context": model_context(s),
    }


# ---------------------------------------------------------------- comparison

def flatten(x, prefix=""):
    if isinstance(x, dict):
        for k, v in x.items():
            yield from flatten(v, f"{prefix}.{k}" if prefix else str(k))
    elif isinstance(x, list) and any(isinstance(v, (dict, list)) for v in x):
        for i, v in enumerate(x):
            yield from flatten(v, f"{prefix}[{i}]")
    else:
        yield prefix, x


def first_difference(core, model):
    fa, fb = dict(flatten(core)), dict(flatten(model))
    for key in list(fa) + [k for k in fb if k not in fa]:
        a, b = fa.get(key, "<absent>"), fb.get(key, "<absent>")
        same = b in a if key == "phase" and isinstance(a, set) else a == b
        if not same:
            return key, a, b
    return None


class Context:
    def __init__(self, n, age, seed):
        self.n, self.age, self.seed = n, age, seed
        self.moves = []

    def __str__(self):
        return (f"n={self.n} age_rank={self.age} seed={self.seed}, "
                f"{len(self.moves)} moves: {' '.join(self.moves)}")


LIMIT_KEYS = ("phase", "actor", "display", "discard", "money_deck")


def at_limit(view):
    """A 10-card limit discard (A23) shows only the money: the core discards at the end of the
    atomic step (1.10), after its forced consequences (a pass bonus, a final phase), the model
    before them; both reach the same state once the discards are over."""
    out = {k: view[k] for k in LIMIT_KEYS}
    out["money"] = [q["money"] for q in view["seats"]]
    return out


def assert_same_state(st, s, ctx, ghosts=()):
    core, model = core_view(st, ghosts), model_view(s)
    if st.fields()["phase"] == "LIMIT":
        core, model = at_limit(core), at_limit(model)
    diff = first_difference(core, model)
    assert diff is None, f"{diff[0]}: core {diff[1]!r} != model {diff[2]!r} ({ctx})"


def core_texts(st):
    return [st.move_to_string(m) for m in st.legal_moves()]


def assert_same_moves(st, s, ctx):
    core, model = core_texts(st), M.legal_texts(s)
    if core != model:
        only_core = [m for m in core if m not in model]
        only_model = [m for m in model if m not in core]
        raise AssertionError(f"legal moves differ: core-only {only_core[:8]}, model-only "
                             f"{only_model[:8]}, same set in another order: "
                             f"{not only_core and not only_model} ({ctx})")


def assert_same_outcomes(st, s, ctx):
    """Exact: the model's count/size Fractions against the core's doubles (both sides list
    one outcome per distinct item, the core's texts in its own order)."""
    core = {text: p for _m, p, text in st.chance_outcomes()}
    model = {M.outcome_to_string(o): p for o, p in M.chance_outcomes(s)}
    assert set(core) == set(model), f"outcomes: core {sorted(core)} != model {sorted(model)} ({ctx})"
    bad = {t: (core[t], str(model[t])) for t in core if core[t] != float(model[t])}
    assert not bad, f"outcome probabilities differ: {bad} ({ctx})"
    assert sum(model.values()) == 1, ctx


# ---------------------------------------------------------------- one game

def core_deviation(st, text):
    """The reason when `text` leads into a known core deviation from the spec (each pinned by a
    test below), else None: the games would steer around it so that the rest is compared. None
    is known now (the Banker limit of 7.3 was one, fixed in flow.cpp)."""
    return None


# Moves uniform play seldom reaches the consequences of: full ships (LOAD_BRIBE, LOSE), an empty
# display (TAKE_DECK), market compensation (MARKET_PLACE); building and making lead nearer.
EAGER = ("MARKET_PLACE", "LOAD_BRIBE", "TAKE_DECK", "MAKE", "BUILD", "PURCHASE", "PRODUCE",
         "TAKE_FACEUP", "LOAD", "PLACE")


def eager(rng, texts):
    for name in EAGER:
        group = [t for t in texts if t.split("(")[0] == name]
        if group:
            return rng.choice(group)
    return rng.choice(texts)


def pick(st, rng, texts, eagerness):
    for _ in range(20):
        x = rng.random()
        if x < eagerness:
            text = eager(rng, texts)
        elif x < 0.55:
            text = rng.choice(texts)
        elif x < 0.85:
            text = st.move_to_string(st.greedy_move(rng.randrange(1 << 30)))
        else:
            text = texts[-1]
        if core_deviation(st, text) is None:
            return text
    return next(t for t in texts if core_deviation(st, t) is None)



def play_lockstep(n, age, seed, limit=20000):
    """One game in lockstep; returns (decisions, chance nodes, move names seen)."""
    rng = random.Random(f"{n}-{age}-{seed}")
    ctx = Context(n, age, seed)
    st = core_game(n, age).start(seed)
    s = model_setup(st)
    assert_same_state(st, s, ctx)
    decisions = draws = 0
    names, ghosts = set(), set()
    eagerness = rng.choice((0.0, 0.3, 0.5))  # per game: plain or eager to build and make
    while not st.is_terminal():
        assert st.is_chance() == (M.phase(s) == "chance"), f"chance node on one side only ({ctx})"
        if st.is_chance():
            assert_same_outcomes(st, s, ctx)
            mv, _p, text = rng.choice(st.chance_outcomes())
            st.apply(mv)
            s = M.apply_chance(s, text)
            draws += 1
        else:
            assert_same_moves(st, s, ctx)
            texts = core_texts(st)
            text = pick(st, rng, texts, eagerness)
            names.add(text.split("(")[0])
            if text == "ORDER_CHANGE":
                ghosts.add((byte(st, "h_space"), byte(st, "h_layer")))
            st.apply(text)
            s = M.apply(s, text)
            decisions += 1
        ctx.moves.append(text)
        if not st.fields()["order_track"]:
            ghosts.clear()
        assert_same_state(st, s, ctx, ghosts)
        assert decisions < limit, ctx
    assert M.phase(s) == "terminal", f"the core ended, the model did not ({ctx})"
    assert list(st.ranking()) == M.ranking(s), f"ranking ({ctx})"
    return decisions, draws, names


def replay(n, age, seed, moves):
    """Both sides after the notation `moves` (draws included) from the game `seed`."""
    st = core_game(n, age).start(seed)
    s = model_setup(st)
    for text in moves:
        if st.is_chance():
            st.apply(next(m for m, _p, t in st.chance_outcomes() if t == text))
            s = M.apply_chance(s, text)
        else:
            st.apply(text)
            s = M.apply(s, text)
    return st, s


def run_games(n, age, seeds):
    totals, names = [0, 0], set()
    for seed in seeds:
        d, c, nm = play_lockstep(n, age, seed)
        totals[0] += d
        totals[1] += c
        names |= nm
    return totals, names


# ---------------------------------------------------------------- tests

@pytest.mark.parametrize("n,i", CONFIGS)
def test_core_and_model_in_lockstep(n, i):
    (decisions, draws), _names = run_games(n, AGE_RANKS[n][i], range(CI_GAMES))
    assert decisions > 0 and draws > 0


def banker_with_ten_cards():
    """Both sides at a Banker's first choice, the banker holding 10 money cards."""
    from craftsmen_helpers import Edit, passive, play, phase
    policy = lambda st, ms: "PLACE(I)" if "PLACE(I)" in ms else passive(st, ms)
    st = play(core_game(3, None).start(1), phase("BANK1"), policy=policy)
    p = st.current_player
    st = Edit(st).hand_money(p, ["P1", "P1", "P2", "P2", "G1", "G1", "G2", "B1", "B2", "R1"]).state()
    return st, p


def test_banker_limit_waits_for_the_own_discards():
    """7.3 and §23 "Banker order": a Banker holding 10 cards who takes a face-up card goes on
    with its action; the limit comes after the action's own discards (found by this test)."""
    st, p = banker_with_ten_cards()
    take = next(t for t in core_texts(st) if t.startswith("TAKE_FACEUP"))
    st.apply(take)
    assert st.fields()["phase"] == "BANK2" and st.current_player == p


def test_the_model_defers_the_banker_limit():
    """The model's side of the case above."""
    s = M.setup(ED, 3, {}, random.Random(0))
    s["stack"] = []
    s["money"][0] = [2, 2, 0, 2, 1, 0, 1, 1, 0, 1, 0, 0]
    s["display"] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]
    s["act"] = {"seat": 0, "guild": 1, "space": 2, "layer": 0, "virtual": False, "priv_used": False,
                "cost": 0, "builds": 0, "look": None, "looked_first": False}
    s["stack"] = [{"op": "banker_dec", "seat": 0, "second": False}]
    s = M.apply(s, "TAKE_FACEUP(P1)")
    assert s["stack"][-1]["op"] == "banker2_dec" and sum(s["money"][0]) == 11


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_core_and_model_in_lockstep_slow(n):
    names = set()
    for i, age in enumerate(AGE_RANKS[n]):
        per = SLOW_GAMES_PER_COUNT // len(AGE_RANKS[n])
        _totals, nm = run_games(n, age, range(1000 + i * per, 1000 + (i + 1) * per))
        names |= nm
    # the games reached the rarer rules (LOAD_BRIBE, TAKE_DECK, MARKET_PLACE stay rare: not asked)
    assert {"BID", "LOOK", "RETURN", "PURCHASE", "LOAD", "CONTRIBUTE", "PAY_MARKET"} <= names, names
    assert n == 2 or {"ORDER_CHANGE", "PAY_AP"} <= names, names

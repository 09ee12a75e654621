"""Leonardo da Vinci: the C++ core and the independent Python model (tests/leonardo_model.py)
played in lockstep, move by move, from the same starting situation.

For every game: the core starts from a seed; the model is set up from the core's own deck (row
included, the 2p discards too), so both begin in the same full state. Then, at every state:

1. a decision: the model's legal moves, printed in notation, equal the core's
   ``legal_move_strings()`` (the same canonical order, spec §11.4; forced PASS/DECLINE/NONE
   never listed); one move is picked (seeded, by a per-game mix of uniform moves, the core's
   ``greedy_move`` and a research-minded choice, so that inventions complete, refill draws and
   auctions happen) and applied to both;
2. a chance node (refill draw, §5.6): one of the core's ``chance_outcomes()`` is applied to both,
   and the core's probabilities are checked against the model's §6.2 draw distribution (see
   ``check_draw``);
3. the two successors are projected onto one common dict (``core_view`` / ``model_view``: turn,
   phase, actor, L, pot, shops, academy, supply, row, deck, box, discards, deck history and
   looks, the phase pointers of the Council, areas and auctions, the city lines, every player's
   money, hand, apprentices, favours, mechanical men, owned and completed cards, snapshot, and
   every lab's side, card, counter, materials, mechanical men, workers, flags and ``cand``, and
   the scores) and compared key by key; a failure names the first differing key, the
   configuration, the seed and the moves so far (``replay`` rebuilds both sides from them).

At the end the scores, winners and utilities are compared too. CI runs a few games per
configuration; ``-m slow`` runs 200 games per player count (expert and basic, Codex with 3-4).

Representation and timing choices the projections absorb (no rule depends on them):

* the core's draw with no known top takes the chosen card from anywhere in its pile and puts the
  old top card in its place (the positions of one pile are exchangeable); ``model_draw`` does
  the same to the model's deck before its draw, so both decks keep one order;
* the core keeps the 2p discards in its box, the model keeps them apart;
* the core marks a D4 reveal with two flags (continuing, revealed), the model with one;
* workers going home in Phase C: the model returns them at once, the core leaves them in the
  city until the Council or the area ends and refills the supplies at the next turn's start;
* the after-D5 ``cand`` update: the core runs it before the D5 bids (see ``records``).
"""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

import leonardo_model as M
from leonardo_helpers import game

ED = M.load_edition()
KINDS = ED["kinds"]
AREAS = M.AREAS
LABS = M.LABS
PLACES = list(AREAS) + list(LABS)  # the core's `placed` bits: areas 0..7, small 8, large 9

CONFIGS = [(n, basic, codex) for n in (2, 3, 4, 5) for basic in (False, True)
           for codex in (False, True) if not codex or n in (3, 4)]
CI_GAMES = 3
SLOW_GAMES_PER_COUNT = 200

_GAMES = {}


def core_game(n, basic, codex):
    key = (n, basic, codex)
    if key not in _GAMES:
        _GAMES[key] = game(n, basic=basic, codex=codex)
    return _GAMES[key]


# ---------------------------------------------------------------- the common starting situation

def model_setup(core_state, n, basic, codex):
    """The model's §2 setup with the core's deck: expert deals the row from the deck as built
    (row + deck, top first), basic starts from the edition's row."""
    f = core_state.fields()
    deck = list(f["deck"]) if basic else list(f["row"]) + list(f["deck"])
    options = {"setup": "basic" if basic else "expert", "codex": codex}
    s = M.setup(ED, n, options, {"deck": deck, "discards": list(f["discards"])})
    sizes = s["history"][0][1]
    assert [sizes["T"], sizes["M"], sizes["B"]] == f["pile_sizes"], "pile sizes differ at setup"
    return s


def model_draw(s, card):
    """The refill draw of `card`, with the core's exchange: the chosen card trades places with
    the top card first (both lie in the same pile), then the top is drawn."""
    g = M.clone(s)
    j = g["deck"].index(card)
    g["deck"][0], g["deck"][j] = g["deck"][j], g["deck"][0]
    return M.apply_chance(g, card)


# ---------------------------------------------------------------- projections

def model_phase(s):
    ph = s["phase"]
    if ph == "C":
        st = s["step"]
        if st["stage"] == "exec":
            return {1: "CMOVE", 3: "REORDER", 4: "MATERIAL"}[st["exec"]]
        return {"claim": "CLAIM", "give": "GIFT", "area": "AREA"}[st["stage"]]
    return {"favour": "FAVOUR", "A": "LAB", "B": "PLACE", "D": "BID", "refill": "DRAW",
            "over": "GAME_OVER"}[ph]


COUNCIL_PHASES = ("CLAIM", "GIFT", "CMOVE", "REORDER", "MATERIAL")
DECIDING = ("FAVOUR", "LAB", "PLACE", "AREA", "BID") + COUNCIL_PHASES
SUPPLY_PHASES = ("FAVOUR", "LAB", "PLACE")


def common(phase, actor, globals_, pointers, city, players, scores):
    return {"phase": phase, "actor": actor if phase in DECIDING else None, **globals_,
            "pointers": pointers, "city": city, "players": players, "scores": scores}


def core_view(st):
    f = st.fields()
    n = len(f["players"])
    phase = f["phase"]
    g = {
        "turn": f["turn"], "leonardo": f["leonardo"], "pot": f["pot"],
        "shops": dict(zip(KINDS, f["shops"])), "academy": list(f["academy"]),
        "mech_supply": f["mech_supply"], "row": list(f["row"]), "deck": list(f["deck"]),
        "box": sorted(set(f["box"]) - set(f["discards"])), "discards": list(f["discards"]),
        "completed_any": list(f["completed_any"]),
        "history": [h if isinstance(h, int) else tuple(h) for h in f["history"]],
        "looks": [list(cards) for cards, _perm in f["look_cards"]],
    }
    p = {}
    if phase == "AREA":
        p = {"area": AREAS[f["area"]], "price": f["price"]}
    elif phase in COUNCIL_PHASES:
        p = {"council_order": list(f["council_order"]),
             "claims": {k + 1: q for k, q in enumerate(f["claimed"]) if q is not None}}
    elif phase == "BID":
        card, seats = f["pending"][f["pending_index"]]
        L = f["leonardo"]
        bidders = sorted(seats, key=lambda q: (q - L) % n)
        p = {"auction": (card, bidders, [f["bids"][q] for q in bidders[:f["idx"]]])}
    city = {}
    for i, (a, area) in enumerate(zip(AREAS, f["city"])):
        groups = sorted((pos, q, app, bool(master)) for q, (app, master, pos) in enumerate(area)
                        if pos and not core_left(f, i, q))
        city[a] = [(q, app, master) for _pos, q, app, master in groups]
    players = [core_player(pl, phase) for pl in f["players"]]
    return common(phase, f["actor"], g, p, city, players, list(st.scores()))


def core_left(f, area, q):
    """A group the core still shows in the city although its workers have left: the excluded
    Council player (§5.4.2 step 2) and the players who passed in the area resolving now (§5.4.3).
    The core clears those lines when the Council or the area ends; the model at once."""
    if f["phase"] in COUNCIL_PHASES and area == 0:
        return q not in f["council_order"]
    if f["phase"] == "AREA" and area == f["area"]:
        return bool(f["removed"] >> q & 1)
    return False


def supply(phase, value):
    """Workers at home matter only up to Phase B: the core refills the supplies at the start of
    the turn, the model as the workers leave the city and the labs (both are rule-neutral)."""
    return value if phase in SUPPLY_PHASES else None


def core_player(pl, phase):
    letters = pl["letters"]
    return {
        "money": pl["money"], "hand": dict(zip(KINDS, pl["hand"])),
        "apprentices": pl["apprentices"], "app_supply": supply(phase, pl["app_supply"]),
        "master_in_supply": supply(phase, pl["master_in_supply"]), "passed": pl["passed"],
        "placed": [x for i, x in enumerate(PLACES) if pl["placed"] >> i & 1],
        "favours": {x: letters >> (2 * i) & 3 for i, x in enumerate("abcd")},
        "mech_count": pl["mech_count"], "owned": list(pl["owned"]),
        "completed": list(pl["completed"]),
        "snap": (pl["snap_turn"], list(pl["snap_budget"])) if pl["snap_turn"] else None,
        "labs": {name: core_lab(lab, phase) for name, lab in zip(LABS, pl["labs"])},
    }


def core_lab(lab, phase):
    if lab["side"] == 0:
        return None
    return {"side": lab["side"], "mech": lab["mech"], "apprentices": lab["apprentices"],
            "master": lab["master"], "card": lab["card"], "counter": lab["counter"],
            "start_turn": lab["start_turn"], "materials": dict(zip(KINDS, lab["materials"])),
            "continuing": lab["continuing"], "revealed": lab["revealed"],
            "cand": records(phase, list(lab["cand"]))}


def records(phase, cand):
    """`cand` (§3.5.2). The core runs the after-D5 record update already before the D5 bids (it
    depends only on what D2-D4 fixed), the model after D5 as §5.5 words it: equal again once the
    bids are over, so not compared while an auction runs."""
    return None if phase == "BID" else cand


def model_view(s):
    phase = model_phase(s)
    st = s["step"]
    g = {
        "turn": s["turn"], "leonardo": s["L"], "pot": s["pot"], "shops": dict(s["shops"]),
        "academy": list(s["academy"]), "mech_supply": s["mech_supply"], "row": list(s["row"]),
        "deck": list(s["deck"]), "box": sorted(s["box"]), "discards": sorted(s["discards"]),
        "completed_any": sorted(s["completed_any"]),
        "history": [ev[1] if ev[0] == "draw" else ("look", ev[1], len(ev[2]))
                    for ev in s["history"] if ev[0] in ("draw", "look")],
        "looks": [list(ev[3]) for ev in s["history"] if ev[0] == "look"],
    }
    p = {}
    if phase == "AREA":
        p = {"area": st["area"], "price": st["i"]}
    elif phase in COUNCIL_PHASES:
        p = {"council_order": list(st["claimers"]), "claims": dict(sorted(st["claims"].items()))}
    elif phase == "BID":
        p = {"auction": (st["card"], list(st["bidders"]), list(st["bids"]))}
    city = {a: [(q, k, bool(m)) for q, k, m in s["areas"][a]] for a in AREAS}
    players = [model_player(pl, phase) for pl in s["players"]]
    return common(phase, M.actor(s), g, p, city, players, M.scores(s))


def model_player(pl, phase):
    snap = pl["snap"]
    return {
        "money": pl["money"], "hand": dict(pl["hand"]),
        "apprentices": pl["apprentices"], "app_supply": supply(phase, pl["app_home"]),
        "master_in_supply": supply(phase, pl["master_home"]), "passed": pl["passed"],
        "placed": sorted(pl["placed"], key=PLACES.index),
        "favours": {x: sum(1 for c in pl["favours"] if c[0] == x) for x in "abcd"},
        "mech_count": pl["mech_count"], "owned": sorted(c for c, _t in pl["owned"]),
        "completed": sorted(pl["completed"]),
        "snap": (snap[0], [snap[1][k] for k in KINDS]) if snap is not None else None,
        "labs": {name: model_lab(pl["labs"][name], phase) for name in LABS},
    }


def model_lab(lab, phase):
    if lab is None:
        return None
    under = lab["under"] if M.working(lab) else {}
    return {"side": lab["side"], "mech": lab["mech"], "apprentices": lab["app"],
            "master": lab["master"], "card": lab["card"], "counter": lab["counter"],
            "start_turn": lab["start_turn"] or 0,
            "materials": {k: under.get(k, 0) for k in KINDS},
            "continuing": lab["continuing"], "revealed": lab["continuing"],
            "cand": records(phase, sorted(lab["cand"]) if lab["cand"] is not None else [])}


# ---------------------------------------------------------------- comparison

def flatten(x, prefix=""):
    """Nested dicts and lists to (path, leaf) pairs, in order."""
    if isinstance(x, dict):
        for k, v in x.items():
            yield from flatten(v, f"{prefix}.{k}" if prefix else str(k))
    elif isinstance(x, list) and x and isinstance(x[0], dict):
        for i, v in enumerate(x):
            yield from flatten(v, f"{prefix}[{i}]")
    else:
        yield prefix, x


def first_difference(a, b):
    fa, fb = dict(flatten(a)), dict(flatten(b))
    for key in list(fa) + [k for k in fb if k not in fa]:
        if fa.get(key, "<absent>") != fb.get(key, "<absent>"):
            return key, fa.get(key, "<absent>"), fb.get(key, "<absent>")
    return None


class Context:
    """What a failure message needs: the configuration, the seed, the moves so far."""

    def __init__(self, n, basic, codex, seed):
        self.n, self.basic, self.codex, self.seed = n, basic, codex, seed
        self.moves = []

    def __str__(self):
        setup = "basic" if self.basic else "expert"
        return (f"n={self.n} {setup} codex={self.codex} seed={self.seed}, "
                f"{len(self.moves)} moves: {' '.join(self.moves)}")


def assert_same_state(st, s, ctx):
    diff = first_difference(core_view(st), model_view(s))
    assert diff is None, f"{diff[0]}: core {diff[1]!r} != model {diff[2]!r} ({ctx})"


def assert_same_moves(st, s, ctx):
    core = st.legal_move_strings()
    model = [M.move_text(m) for m in M.legal_moves(s)]
    if core != model:
        only_core = [m for m in core if m not in model]
        only_model = [m for m in model if m not in core]
        raise AssertionError(f"legal moves differ: core-only {only_core[:8]}, model-only "
                             f"{only_model[:8]}, same set in another order: "
                             f"{not only_core and not only_model} ({ctx})")


# ---------------------------------------------------------------- chance nodes

def slot_label(f):
    """The pile (T/M/B) of the next deck slot as built (§3.5.1 step 1)."""
    sizes = f["pile_sizes"]
    slot = sum(sizes) - len(f["deck"])
    return "T" if slot < sizes[0] else "M" if slot < sizes[0] + sizes[1] else "B"


def tier_of(card):
    return ED["cards"][card]["tier"]


def grouped(dist, by):
    out = {}
    for c, p in dist.items():
        out[by(c)] = out.get(by(c), 0) + p
    return out


def assert_close(a, b, what, ctx):
    keys = set(a) | set(b)
    bad = {k: (float(a.get(k, 0)), float(b.get(k, 0))) for k in keys
           if abs(float(a.get(k, 0)) - float(b.get(k, 0))) > 1e-9}
    assert not bad, f"draw probabilities ({what}) core vs model: {bad} ({ctx})"


def check_draw(st, s, ctx):
    """The core's outcomes at a full-state refill draw against the model's §6.2 distribution.

    * A known top (some seat's Council look still covers it): the core draws deck[0] for sure;
      so does the model from the last looker's viewpoint.
    * Otherwise the core draws uniformly from its pile's remaining cards (it knows which pool
      cards went to the middle). Every such card must be possible in the public (no-look) model
      distribution; with a single deck hypothesis (no opponent reorder across piles) the
      per-tier totals of a top-pile slot and the per-card probabilities of a middle or bottom
      slot are exact and must agree.
    """
    f = st.fields()
    core = {int(st.move_to_string(m).split(":")[1]): p for m, p in st.chance_outcomes()}
    assert abs(sum(core.values()) - 1) < 1e-9, (core, str(ctx))
    if f["known_prefix"] > 0:
        assert core == {f["deck"][0]: 1.0}, (core, str(ctx))
        lookers = [ev[1] for ev in s["history"] if ev[0] == "look"]
        assert lookers, f"the core knows the deck top, the model saw no look ({ctx})"
        looker = lookers[-1]
        assert_close(core, M.draw_distribution(s, looker), "known top", ctx)
        return
    hyps = M.deck_hypotheses(s, None)
    model = M.draw_distribution(s, None, hyps)
    missing = [c for c in core if not model.get(c)]
    assert not missing, f"core draws {missing}, impossible for the model ({ctx})"
    if len(hyps) != 1:
        return
    if slot_label(f) == "T":
        assert_close(grouped(core, tier_of), grouped(model, tier_of), "per tier, top pile", ctx)
    else:
        assert_close(core, model, "per card, " + slot_label(f), ctx)


# ---------------------------------------------------------------- one game

# Move mixes (uniform, greedy, research), one drawn per game: uniform play alone rarely
# completes an invention, so refill draws and auctions need the other two.
MIXES = ((0.6, 0.2, 0.2), (0.3, 0.3, 0.4), (0.1, 0.2, 0.7))


def research_move(st, rng):
    """A research-minded move, or None: keep working labs, start requested (row) cards, put
    the most apprentices (or the master) into an own lab."""
    texts = st.legal_move_strings()
    row = set(st.fields()["row"])
    keeps = [t for t in texts if t.startswith("keep:")]
    starts = [t for t in texts if t.startswith("start:") and not t.endswith(":none")
              and int(t.split(":")[2]) in row]
    labs = [t for t in texts if t.split(":")[0] in ("place", "master")
            and t.split(":")[1] in M.LABS]
    for group in (keeps, starts):
        if group:
            return rng.choice(group)
    if labs:
        return max(labs, key=lambda t: int(t.split(":")[2]) if t.startswith("place") else 2)
    return None


def pick_move(st, rng, mix):
    """A move id: uniform, the core's greedy move, or a research move, by the weights `mix`
    (greedy where no research move applies)."""
    x = rng.random()
    if x >= mix[0] + mix[1]:
        text = research_move(st, rng)
        if text is not None:
            return st.parse_move(text)
    if x >= mix[0]:
        return st.greedy_move(rng.randrange(1 << 30))
    ms = st.legal_moves()
    return ms[rng.randrange(len(ms))]


def play_lockstep(n, basic, codex, seed):
    """One game in lockstep; returns (decisions, draws, auctions, completions)."""
    rng = random.Random(f"{n}-{basic}-{codex}-{seed}")
    mix = rng.choice(MIXES)
    ctx = Context(n, basic, codex, seed)
    st = core_game(n, basic, codex).start(seed)
    s = model_setup(st, n, basic, codex)
    assert_same_state(st, s, ctx)
    decisions = draws = 0
    while not st.is_terminal():
        assert st.is_chance() == M.is_chance(s), f"chance node on one side only ({ctx})"
        if st.is_chance():
            check_draw(st, s, ctx)
            outs = st.chance_outcomes()
            mv = outs[rng.randrange(len(outs))][0]
            text = st.move_to_string(mv)
            st.apply(mv)
            s = model_draw(s, int(text.split(":")[1]))
            draws += 1
        else:
            assert_same_moves(st, s, ctx)
            mv = pick_move(st, rng, mix)
            text = st.move_to_string(mv)
            st.apply(mv)
            s = M.apply(s, text)
            decisions += 1
        ctx.moves.append(text)
        assert_same_state(st, s, ctx)
    assert M.is_terminal(s), f"the core ended, the model did not ({ctx})"
    assert list(st.scores()) == M.scores(s), ctx
    assert list(st.winners()) == M.winners(s), ctx
    assert [Fraction(r).limit_denominator(10) for r in st.returns()] == M.utilities(s), ctx
    completions = sum(len(pl["completed"]) for pl in s["players"])
    return decisions, draws, len(s["auctions"]), completions


def replay(n, basic, codex, seed, moves):
    """Both sides after the notation `moves` (draws included) from the game `seed`: for
    reproducing a failure from its message."""
    st = core_game(n, basic, codex).start(seed)
    s = model_setup(st, n, basic, codex)
    for text in moves:
        st.apply(text)
        s = model_draw(s, int(text.split(":")[1])) if text.startswith("draw:") else M.apply(s, text)
    return st, s


def run_games(n, basic, codex, seeds):
    totals = [0, 0, 0, 0]
    for seed in seeds:
        for i, v in enumerate(play_lockstep(n, basic, codex, seed)):
            totals[i] += v
    return totals


# ---------------------------------------------------------------- tests

@pytest.mark.parametrize("n,basic,codex", CONFIGS)
def test_core_and_model_in_lockstep(n, basic, codex):
    decisions, _draws, _auctions, _completions = run_games(n, basic, codex, range(CI_GAMES))
    assert decisions > 0


def slow_configs(n):
    """(basic, codex) setups sharing a player count's games: expert and basic, plus Codex."""
    out = [(False, False), (True, False)]
    if n in (3, 4):
        out += [(False, True), (True, True)]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_core_and_model_in_lockstep_slow(n):
    configs = slow_configs(n)
    per = -(-SLOW_GAMES_PER_COUNT // len(configs))
    draws = auctions = 0
    for basic, codex in configs:
        _decisions, d, a, _completions = run_games(n, basic, codex, range(1000, 1000 + per))
        draws, auctions = draws + d, auctions + a
    assert draws > 0 and auctions > 0  # the games did reach refills and auctions

"""Leonardo's hidden-information edges (issue 22): loading a viewpoint, resampling, the records a
full position must fit, and draws on a viewpoint. Each repro file of tests/repro/ is a test."""
import json
import random
from collections import Counter
from pathlib import Path

import pytest

import atelier
from atelier import observe
from atelier.viewpoint import sample_in_view
from cli_helpers import one_error_line, run
from leonardo_helpers import game

REPRO = Path(__file__).parent / "repro"


def repro(name):
    return atelier.load_position((REPRO / f"{name}.json").read_text())


def random_states(players, seed, every=1):
    """The states of one random game: every `every`-th decision, every draw and the end."""
    rng = random.Random(seed)
    s = game(players).start(seed)
    k = 0
    while True:
        if k % every == 0 or s.is_chance() or s.is_terminal():
            yield s.clone()
        k += 1
        if s.is_terminal():
            return
        if s.is_chance():
            s.sample_chance(rng.randrange(1 << 30))
        else:
            ms = s.legal_moves()
            s.apply(ms[rng.randrange(len(ms))])


# ---- 1. a viewpoint keeps an opponent's decision -------------------------------------------

def test_view_keeps_the_opponents_lab_start_decision():
    s = repro("leonardo-view-skips-opponent-lab-start")
    doc = atelier.position_dict(s, viewpoint=0)
    assert doc["actor"] == 2 and doc["phase"] == "LAB"
    v = atelier.load_position(doc)
    assert v.current_player == 2
    assert atelier.position_dict(v) == doc
    assert "start:large:none" in v.legal_move_strings()
    for seed in range(40):   # every sample leaves seat 2 a start beside NONE
        t = v.clone()
        t.determinize(0, seed)
        assert t.current_player == 2 and len(t.legal_moves()) > 1


def test_apply_on_the_view_takes_the_opponents_start():
    text = atelier.dump_position(repro("leonardo-view-skips-opponent-lab-start"), viewpoint=0)
    r = run("apply", "-", "start:large:none", input=text)
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["viewpoint"] == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_view_of_a_loaded_view_is_the_view(players):
    """view(load(view(s))) == view(s) for every seat, at every decision kind of random games."""
    kinds = set()
    for seed in range(2):
        for s in random_states(players, 100 * players + seed, every=3):
            f = s.fields()
            kinds.add((f["phase"], f["step"] if f["phase"] == "LAB" else 0))
            for vp in range(players):
                doc = atelier.position_dict(s, viewpoint=vp)
                v = atelier.load_position(doc, seed=seed + vp)
                assert atelier.position_dict(v) == doc, (f["phase"], vp)
                assert v.infoset_key(vp) == s.infoset_key(vp)
                assert v.current_player == s.current_player
    assert {"LAB", "PLACE", "AREA", "CLAIM", "GAME_OVER"} <= {k for k, _ in kinds}


# ---- 2. draws on a viewpoint follow the seat's belief -------------------------------------

def test_viewpoint_draw_follows_the_seats_odds():
    v = repro("leonardo-view-at-refill-draw")
    belief = {text: p for _, p, text in observe.chance_outcomes(v)}
    assert len(belief) == 9 and abs(sum(belief.values()) - 1) < 1e-12
    assert belief == {f"draw:{c}": p for c, p in v.draw_probabilities(0).items()}
    n = 1800
    seen = Counter(sample_in_view(v, seed).fields()["history"][-1] for seed in range(n))
    assert {f"draw:{c}" for c in seen} == set(belief)
    for c, k in seen.items():   # within 5 standard deviations of the seat's odds
        p = belief[f"draw:{c}"]
        assert abs(k / n - p) < 5 * (p * (1 - p) / n) ** 0.5, (c, k / n, p)
    # The one sample the state holds answers for itself only, and says so by being asked.
    assert len(observe.chance_outcomes(v, sample=True)) < len(belief)


def test_cli_apply_seed_on_a_viewpoint_draws_over_the_seats_odds():
    text = (REPRO / "leonardo-view-at-refill-draw.json").read_text()
    drawn = set()
    for seed in range(30):
        r = run("apply", "-", "--seed", seed, input=text)
        assert r.exit_code == 0, r.stderr
        drawn.add(json.loads(r.stdout)["history"][-1])
    assert len(drawn) >= 6


# ---- 5. Council looks of another seat -------------------------------------------------------

def test_determinize_redraws_another_seats_look():
    s = repro("leonardo-opponent-look-full")
    truth = s.fields()["look_cards"]
    orders = Counter()
    for seed in range(60):
        t = s.clone()
        t.determinize(0, seed)
        assert t.validate() == ""
        assert t.infoset_key(0) == s.infoset_key(0)
        orders[tuple(t.fields()["look_cards"][-1][0])] += 1
    assert len(orders) > 20 and orders[tuple(truth[-1][0])] < 6
    doc = atelier.position_dict(s, viewpoint=0)
    v = atelier.load_position(doc)
    assert atelier.position_dict(v) == doc
    t = v.clone()
    t.viewpoint = None
    assert atelier.load_position(atelier.dump_position(t)) == t   # a sample is a valid full position


def test_a_look_order_no_longer_on_top_is_refused():
    r = run("show", REPRO / "leonardo-look-order-not-on-top.json")
    assert "look's order is not on top of the deck" in one_error_line(r)


# ---- 6. contradictory hidden-lab records ---------------------------------------------------

def test_a_hidden_pair_outside_its_snapshot_is_refused():
    s = next(x for seed in range(40) for x in random_states(3, seed, every=5)
             if any(P["snap_turn"] for P in x.fields()["players"]))
    f = s.fields()
    p = next(i for i, P in enumerate(f["players"]) if P["snap_turn"])
    players = [{} for _ in f["players"]]
    players[p] = {"snap_budget": [0] * 5}
    with pytest.raises(ValueError, match="snap"):
        s.with_fields({"players": players})


# ---- 7. piles.middle_lower ------------------------------------------------------------------

@pytest.mark.parametrize("middle_lower", [[], [1]])
def test_middle_lower_is_checked(middle_lower):
    doc = json.loads(atelier.dump_position(game(3).start(4)))
    doc["piles"]["middle_lower"] = middle_lower
    r = run("show", "-", input=json.dumps(doc))
    assert one_error_line(r).startswith("error: piles.middle_lower: ")


# ---- 8, 9. progress.area --------------------------------------------------------------------

def test_progress_area_outside_phase_area_is_refused():
    r = run("show", REPRO / "leonardo-progress-area-F.json")
    assert one_error_line(r).startswith("error: progress.area: ")


def test_progress_area_of_a_wrong_type_is_one_line():
    r = run("show", REPRO / "leonardo-progress-area-int.json")
    assert one_error_line(r) == "error: progress.area: expected an area letter B..H or null, got 3"


# ---- 11. a determinization is not the truth more often than chance allows ---------------------

def test_determinization_does_not_favour_the_truth():
    """Two hidden labs of one opponent: over many samples, the true pair comes out at most about
    as often as the sampler's own share of it (uniform over the valid pairs, §3.5.2)."""
    s = next(x for seed in range(60) for x in random_states(3, seed, every=4)
             if any(P["snap_turn"] for P in x.fields()["players"][1:]))
    f = s.fields()
    q = next(i for i, P in enumerate(f["players"]) if i and P["snap_turn"])
    truth = tuple(lab["card"] for lab in f["players"][q]["labs"])
    n = 600
    pairs = Counter()
    for seed in range(n):
        t = s.clone()
        t.determinize(0, seed)
        pairs[tuple(lab["card"] for lab in t.fields()["players"][q]["labs"])] += 1
    share = 1 / len(pairs)
    assert pairs[truth] / n < share + 5 * (share * (1 - share) / n) ** 0.5 + 1e-9, (pairs[truth], len(pairs))


# ---- 3. the exact endgame does not solve sealed bids as sequential moves -------------------

def test_endgame_refuses_a_sealed_bid_auction():
    r = run("endgame", "example:leonardo-auction")
    line = one_error_line(r)
    assert "sealed-bid auction" in line and "suggest" in line


# ---- 4, 11. positions a seat cannot tell apart get the same answers --------------------------

def test_greedy_is_the_same_for_positions_the_mover_cannot_tell_apart():
    from atelier import solvers

    checked = 0
    for seed in range(6):
        for s in random_states(3, 500 + seed, every=2):
            if s.is_terminal() or s.is_chance():
                continue
            p = s.current_player
            hidden = any(lab["card"] is not None and not lab["revealed"]
                         for q, P in enumerate(s.fields()["players"]) if q != p for lab in P["labs"])
            if not hidden:
                continue
            other = s.clone()
            other.determinize(p, seed + 77)    # another truth, the same to seat p
            assert other.infoset_key(p) == s.infoset_key(p)
            assert atelier.dump_position(other, viewpoint=p) == atelier.dump_position(s, viewpoint=p)
            for k in range(3):
                assert solvers.greedy_move(other, k) == solvers.greedy_move(s, k)
            checked += 1
    assert checked > 50


def test_views_and_suggest_are_the_same_for_positions_the_mover_cannot_tell_apart():
    from atelier import solvers

    s = next(x for x in random_states(3, 42, every=7)
             if not (x.is_terminal() or x.is_chance()) and x.fields()["turn"] >= 3)
    p = s.current_player
    other = s.clone()
    other.determinize(p, 5)          # another truth, the same to seat p
    assert other.infoset_key(p) == s.infoset_key(p)
    assert atelier.dump_position(other, viewpoint=p) == atelier.dump_position(s, viewpoint=p)
    a = solvers.ismcts(s, iterations=300, seed=3)
    b = solvers.ismcts(other, iterations=300, seed=3)
    assert a.best_move == b.best_move and a.signature == b.signature

"""Craftsmen packed bytes (issue 22): one validation for every way in. State.from_bytes,
with_fields and the position loader accept a state only when Game.validate passes and the
state is what its own fields describe, so every accepted packing round-trips through the
position format. A fuzz family mutates packings of random states and checks exactly that."""
import json
import pathlib
import random

import pytest

import atelier
from atelier._core import craftsmen as C
from craftsmen_helpers import game

REPRO = pathlib.Path(__file__).parent / "repro"


def _states(players, seed, every=7):
    g = game(players)
    st, rng, steps = g.start(seed), random.Random(seed), 0
    while not st.is_terminal():
        if steps % every == 0:
            yield st
        st.apply(rng.choice(st.chance_outcomes())[0] if st.is_chance() else rng.choice(st.legal_moves()))
        steps += 1


def mutate_and_check(players, seed, cases):
    """(accepted, refused): mutated packings of random states; every accepted one validates and
    comes back byte for byte from its position JSON."""
    g = game(players)
    rng = random.Random(seed)
    states = list(_states(players, seed))
    accepted = refused = 0
    for _ in range(cases):
        raw = bytearray(rng.choice(states).to_bytes())
        for _ in range(rng.choice((1, 1, 2, 3))):
            raw[rng.randrange(len(raw))] = rng.choice((0, 1, 2, 0x7F, 0x80, 0xFF, rng.randrange(256)))
        try:
            st = C.State.from_bytes(g, bytes(raw))
        except ValueError as e:
            assert "\n" not in str(e)
            refused += 1
            continue
        accepted += 1
        assert st.validate() == ""
        back = atelier.load_position(atelier.dump_position(st))
        assert back.to_bytes() == bytes(raw)
        assert C.State.from_bytes(g, st.to_bytes()).to_bytes() == bytes(raw)
    return accepted, refused


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_fuzz_mutated_packings_round_trip_when_accepted(players, seed):
    accepted, refused = mutate_and_check(players, seed, 350)
    assert refused > 0 and accepted + refused == 350


def test_the_start_with_a_banker_count_out_of_range_is_refused():
    g = game(4)
    raw = bytearray(g.start(0).to_bytes())
    raw[C.LAYOUT["banker_taken"][0]] = 64
    with pytest.raises(ValueError, match="banker_taken|finished action's fields"):
        C.State.from_bytes(g, bytes(raw))


def test_leftover_action_context_between_actions_is_refused():
    # Any byte of the action context at a mulligan (no action under way) differs from the start's.
    g = game(3)
    start = g.start(0)
    assert start.fields()["phase"] == "MULLIGAN"
    for key in ("build_cost", "pay_amount", "auc_high", "disc_left", "ch_left", "stack_space"):
        raw = bytearray(start.to_bytes())
        raw[C.LAYOUT[key][0]] = 1
        with pytest.raises(ValueError, match="^context"):
            C.State.from_bytes(g, bytes(raw))


def test_auction_states_no_game_reaches_are_refused():
    doc = json.loads((REPRO / "craftsmen-four-deals-1.json").read_text())
    assert atelier.load_position(doc)
    equal = json.loads(json.dumps(doc))
    equal["context"]["auction_max_bids"] = [0, 12, 12, 0]
    with pytest.raises(atelier.InputError, match="auction"):
        atelier.load_position(equal)
    above = json.loads(json.dumps(doc))
    above["context"]["auction_max_bids"] = [0, 11, 10, 0]   # the high bid 12 is nobody's
    with pytest.raises(atelier.InputError, match="auction"):
        atelier.load_position(above)


def test_a_chance_node_with_a_changed_destination_is_refused():
    """craftsmen-chance-context-changed: a basic building draw sent to the money display was
    accepted, and every playout from it broke conservation."""
    with pytest.raises(atelier.InputError, match="chance_dest"):
        atelier.load_position(REPRO / "craftsmen-chance-context-changed.json")


def test_a_helper_phase_index_must_follow_the_seat_placing():
    """issue 21: a hand-written `index` that gave a seat two turns in a row."""
    g = game(3)
    st = g.start(4)
    while st.is_chance() or st.fields()["phase"] != "HELPER":
        st.apply(st.chance_outcomes()[0][0] if st.is_chance() else st.legal_moves()[0])
    doc = json.loads(atelier.dump_position(st))
    order, actor = doc["turn_order"], doc["actor"]
    assert doc["context"]["index"] == (order.index(actor) + 1) % 3
    doc["context"]["index"] = order.index(actor)
    with pytest.raises(atelier.InputError, match="context.index"):
        atelier.load_position(doc)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_between_actions_every_game_state_has_the_start_context(players):
    # The core clears an action's context when the flow moves on (flow.cpp clear_action_context),
    # so at every decision between actions the context bytes are the start's, whatever the
    # history; and every state of the game still validates.
    g = game(players)
    keys = [k for k in C.LAYOUT if k in ("h_seat", "banker_taken", "build_cost", "pay_amount", "auc_card",
                                         "auc_high", "disc_left", "ch_left", "stack_space", "lim_seat", "good")]
    ref = g.start(0).to_bytes()
    seen = 0
    for seed in range(3):
        for st in _states(players, seed, every=1):
            assert st.validate() == ""
            if st.fields()["phase"] in ("HELPER", "CONTRIB"):
                raw = st.to_bytes()
                for k in keys:
                    off, size = C.LAYOUT[k][0], C.LAYOUT[k][1]
                    assert raw[off:off + size] == ref[off:off + size], k
                seen += 1
    assert seen > 20


def test_a_discard_of_more_cards_than_the_hand_holds_is_refused():
    # Packing fuzz seed 53: such a position reached a DISCARD with no legal move.
    g = game(3)
    for st in _states(3, 4, every=1):
        f = st.fields()
        if f["phase"] == "DISCARD":
            raw = bytearray(st.to_bytes())
            raw[C.LAYOUT["disc_left"][0]] = st.hand_value(f["context"]["discard_seat"]) + 40
            with pytest.raises(ValueError, match="discard"):
                C.State.from_bytes(g, bytes(raw))
            return
    pytest.fail("no DISCARD decision in the game")

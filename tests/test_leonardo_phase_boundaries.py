"""A Leonardo position between Phase C and Phase D can be written (docs/positions-leonardo.md,
"Between phases"): the Phase B position every seat has passed, with the city empty. Loading it
runs what is left of the turn at once, as the core does after the last area: Phase C has
nothing to resolve, then Phase D (research, completions, an auction or the refill draw).

Checked against the core's own turn: at a last area decision whose `pass` ends Phase C, the
position after the pass equals the loaded "Phase C done" form of the position before it (a
pass changes nothing but the area's progress, which the form leaves out).
"""
import random

import pytest

import atelier

AREAS = "BCDEFGH"


def phase_c_done(state) -> dict:
    """`state`'s position as "Phase C done, Phase D next"."""
    d = atelier.position_dict(state)
    d["phase"] = "PLACE"
    d["progress"]["area"] = None
    d["progress"]["price"] = 0
    d["progress"]["area_passed"] = []
    for area in d["city"]:
        d["city"][area] = []
    for seat in d["seats"]:
        seat["passed"] = True
    return d


def last_area_passes(players, seeds):
    """(position before, position after) for every `pass` that ends a turn's Phase C."""
    for seed in seeds:
        s = atelier.open("leonardo", players=players, seed=seed).start()
        rnd, k = random.Random(seed), 0
        while not s.is_terminal():
            if s.is_chance():
                s.sample_chance(k)
                k += 1
                continue
            d = atelier.position_dict(s)
            if d["phase"] == "AREA" and not any(d["city"][a] for a in AREAS[AREAS.index(d["progress"]["area"]) + 1:]):
                moves = {s.move_to_string(m): m for m in s.legal_moves()}
                if "pass" in moves:
                    after = s.clone()
                    after.apply(moves["pass"])
                    a = atelier.position_dict(after)
                    if a["phase"] != "AREA" or a["turn"] != d["turn"]:
                        yield s.clone(), after
            s.apply(rnd.choice(s.legal_moves()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_phase_c_done_phase_d_next_loads_as_the_core_continues(players):
    pairs = list(last_area_passes(players, range(12)))
    assert len(pairs) >= 20
    for before, after in pairs:
        loaded = atelier.load_position(phase_c_done(before))
        assert atelier.position_dict(loaded) == atelier.position_dict(after)
        assert loaded == after


def test_phase_c_done_reaches_phase_d_decisions_and_draws():
    # The form is not only the start of a new turn: Phase D's auction and refill draw follow too.
    kinds = {atelier.position_dict(a)["phase"] for _, a in last_area_passes(3, range(40))}
    assert "DRAW" in kinds or "BID" in kinds

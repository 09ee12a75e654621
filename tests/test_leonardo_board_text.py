"""The Leonardo text board names the inventions (row, labs, owned cards) with their materials,
weeks and rewards, as the picture does, instead of bare card numbers."""
import re

import atelier
from atelier.games.leonardo.cards import card_info
from cli_helpers import run


def test_the_row_is_named_with_materials_weeks_and_rewards():
    s = atelier.load_position("example:leonardo-turn3-place")
    out = run("show", "example:leonardo-turn3-place", "--width", 140).stdout
    row = s.fields()["row"] if "row" in s.fields() else atelier.position_dict(s)["row"]
    assert row
    for number in row:
        c = card_info(s.game, number)
        line = next(x for x in out.splitlines() if re.match(rf"\s+{number} ", x))
        assert c["name"] in line and f"{c['reward_first']} / {c['reward_later']} Florins" in line, line
        assert f"{c['weeks']} week" in line
        for kind, n in c["mats"].items():
            assert f"{kind} {n}" in line


def test_owned_cards_and_labs_carry_names():
    s = atelier.load_position("example:leonardo-turn8")
    out = run("show", "example:leonardo-turn8", "--width", 140).stdout
    doc = atelier.position_dict(s)
    owned = {c for seat in doc["seats"] for c in seat["owned"]}
    assert owned
    for c in owned:
        assert f"{c} {card_info(s.game, c)['name']}" in out

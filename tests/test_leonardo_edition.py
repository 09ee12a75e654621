"""Leonardo da Vinci: the edition checks of the rules spec §1.9 (one line each, first error)
and the warnings. The default edition passes with no warning."""
import copy

import pytest

from atelier._core import leonardo as L
from leonardo_helpers import edition


def broken(change):
    d = copy.deepcopy(edition())
    change(d)
    return d


def card(d, n):
    return next(c for c in d["inventions"] if c["number"] == n)


def test_default_edition_has_no_warning():
    assert L.check_edition(edition()) == []


@pytest.mark.parametrize("change,message", [
    (lambda d: card(d, 3).__setitem__("number", 4), "edition: card numbers must be 1..25, each once"),
    (lambda d: card(d, 7).__setitem__("tier", "platinum"), 'edition: card 7: tier "platinum" is not in tiers'),
    (lambda d: card(d, 7).__setitem__("materials", {"wood": 1, "rope": 2}), "edition: card 7: 3 materials, tier copper needs 2"),
    (lambda d: card(d, 7).__setitem__("type", "F"), 'edition: card 7: type "F" is not in types'),
    (lambda d: card(d, 7).__setitem__("weeks", 16), "edition: card 7: weeks must be 1..15"),
    (lambda d: d["setup"]["deck_building"]["piles"]["value"]["middle"]["cards"].__setitem__(2, 3),
     "edition: card 3: in the middle pile but tier silver"),
    (lambda d: d["setup"]["deck_building"]["piles"]["value"]["middle"]["plus_lower_tier"].__setitem__("silver", 6),
     "edition: basic 2p: 4 silver cards outside the row, the middle pile needs 6"),
    (lambda d: d["setup"]["deck_building"]["piles"]["value"]["middle"]["plus_lower_tier"].update({"bronze": 3, "copper": 4}),
     "edition: expert 2p: top pile 2 cards, the row needs 3"),
    (lambda d: d["setup"]["basic"]["seats"]["c"]["labs"].__setitem__(0, {"lab": "small", "side": 3}),
     "edition: kit c: mechanical man on small lab side 3 (no free space)"),
])
def test_edition_errors(change, message):
    with pytest.raises(ValueError) as e:
        L.check_edition(broken(change))
    assert str(e.value) == message


def test_type_cards_must_match():
    d = broken(lambda d: d["types"][0]["cards"].append(2))
    with pytest.raises(ValueError, match="type A"):
        L.check_edition(d)


def test_warnings():
    d = broken(lambda d: card(d, 14).__setitem__("materials", {"rope": 2, "wood": 1}))
    w = L.check_edition(d)
    assert "edition warning: cards 3 and 14 need the same materials" in w
    d = broken(lambda d: card(d, 2).__setitem__("reward_later", 9))
    w = L.check_edition(d)
    assert any("card 2: reward_later > reward_first" in x for x in w)

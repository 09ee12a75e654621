"""The Leonardo da Vinci board as SVG (games/leonardo/draw.py): valid markup, every seat's score
and money shown, a viewpoint drawing that leaves out what the seat does not know, and move marks
on the boxes the move names (and on no box a number that is not a card would wrongly name)."""
from __future__ import annotations

import functools
import json
import xml.etree.ElementTree as ET

import pytest

import atelier
from playout_helpers import move_texts, sample_positions
import atelier.games.leonardo as leonardo
from atelier.drawing import move_tokens
from atelier.errors import InputError
from atelier.games.leonardo import draw
from atelier.games.leonardo.draw import _layout
from atelier.games.leonardo.position_dump import COLOURS

SVG = "{http://www.w3.org/2000/svg}"
NAMES = {c["number"]: c["name_en"] for c in json.loads(
    (atelier.examples()["leonardo-start"].parents[1] / "editions" / "leonardo.json").read_text())["inventions"]}
COUNCIL = ("CLAIM", "GIFT", "CMOVE", "REORDER", "MATERIAL")
# Moves that name nothing on the board.
UNNAMED = ("pass", "decline")


@functools.lru_cache(maxsize=None)
def positions():
    """Random-playout positions for 2..5 players (two seeds each) and the bundled examples: every
    `every` plies, the first of each Council phase, some chance nodes and the end."""
    def keep_for(n, seed):
        every, phases = (20 if seed == 1 else 45), set()

        def keep(ply, st):
            phase = st.fields()["phase"]
            if ply % every == 0 or (phase in COUNCIL and phase not in phases) or (st.is_chance() and ply % 3 == 0):
                phases.add(phase)
                return True
            return False
        return keep

    return sample_positions("leonardo", keep_for)


_SVGS: dict = {}


def _svg(st, viewpoint=None) -> str:
    """draw(st, viewpoint=...) without marks, drawn once per test session."""
    key = (id(st), viewpoint)
    if key not in _SVGS:
        _SVGS[key] = draw(st, viewpoint=viewpoint)
    return _SVGS[key]


def full_positions():
    return [st for st in positions() if getattr(st, "viewpoint", None) is None]


def _texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return ["".join(e.itertext()) for e in root.iter(SVG + "text")]


def _marks(svg: str, role: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter() if e.get("data-mark") == role]


def _florins(n) -> str:
    return f"{n} Florin" if n == 1 else f"{n} Florins"


def test_exported():
    assert "draw" in leonardo.__all__ and leonardo.draw is draw


def test_positions_cover_the_game():
    phases = {atelier.position_dict(st)["phase"] for st in positions()}
    assert {"FAVOUR", "LAB", "PLACE", "CLAIM", "AREA", "BID", "DRAW", "GAME_OVER"} <= phases, phases
    assert {st.game.players for st in positions()} == {2, 3, 4, 5}
    assert any(getattr(st, "viewpoint", None) is not None for st in positions())


def test_board_parses_and_shows_every_score_and_money():
    for st in positions():
        doc = atelier.position_dict(st)
        views = [None] if "viewpoint" in doc else [None, st.game.players - 1]
        for vp in views:
            texts = _texts(_svg(st, vp))     # parses, or raises
            for p, score in enumerate(st.scores()):
                assert f"Seat {p} · {COLOURS[p]} · score {score}" in texts, (p, score, doc["phase"])
                assert _florins(doc["seats"][p]["money"]) in texts, p
            for c in doc["row"]:                        # the row's cards, with their rewards
                card = st.game.card(c)
                assert str(c) in texts and NAMES[c] in texts, c
                assert f"{card['reward_first']} / {card['reward_later']} Fl" in texts
            size = len(doc["deck"]) if isinstance(doc["deck"], list) else doc["deck"]["cards"]
            assert f"{size} cards" in texts
            if st.is_terminal():
                assert any(t.startswith("game over · ") for t in texts)


def test_viewpoint_leaves_out_hidden_labs_hands_and_the_deck():
    """An opponent's face-down lab shows its card ("13 Aiming crossbow") in the full picture and
    not in the seat's view, unless the seat sees that card in some lab itself; opponents' hands
    become totals; the deck order is only in the full picture."""
    hidden_checked = 0
    for i, st in enumerate(full_positions()):
        full_doc = atelier.position_dict(st)
        full = _texts(_svg(st))
        n = st.game.players
        assert full.count("hand") == n and "hand+labs" not in full
        deck_known = bool(full_doc["deck"])
        assert ("top first" in full) == deck_known
        for s in sorted({i % n, n - 1}):   # the last seat (drawn above too) and one in turn
            view_doc = atelier.position_dict(st, viewpoint=s)
            view = _texts(_svg(st, s))
            if i % 5 == 0:   # a state loaded from that viewpoint is drawn the same
                assert view == _texts(draw(atelier.load_position(view_doc)))
            seen = {lab["card"] for seat in view_doc["seats"] for lab in seat["labs"].values()
                    if lab and isinstance(lab["card"], int)}
            for q, seat in enumerate(full_doc["seats"]):
                for lab in seat["labs"].values():
                    if not lab or lab["card"] is None:
                        continue
                    label = f"{lab['card']} {NAMES[lab['card']]}"
                    assert label in full
                    if q != s and not lab["revealed"]:
                        assert (label in view) == (lab["card"] in seen), (s, q, label)
                        hidden_checked += 1
            assert view.count("hand") == 1 and view.count("hand+labs") == n - 1
            looking = "top" in view_doc["deck"]
            assert ("top first" in view) is False
            assert ("order hidden" in view) == (deck_known and not looking)
            if looking:
                assert "you look at, top first" in view
    assert hidden_checked > 40


def test_viewpoint_state_is_drawn_as_its_view():
    st = atelier.load_position(atelier.examples()["leonardo-auction"])
    assert st.viewpoint is not None
    svg = draw(st)
    assert svg == draw(st, viewpoint=st.viewpoint)
    assert any(t.startswith(f"viewpoint of seat {st.viewpoint} ") for t in _texts(svg))
    with pytest.raises(InputError):
        draw(st, viewpoint=(st.viewpoint + 1) % st.game.players)


def test_keys_cover_the_moves():
    """Every move but pass, decline and a bid names a box; a number names a card only where it
    is one (a start, a reorder, a draw), so `place:d:2` never lights card 2."""
    checked = 0
    for st in positions():
        keys = {k for k, *_ in _layout(st).keys}
        phase = atelier.position_dict(st)["phase"]
        for m in move_texts(st):
            named = move_tokens(m) & keys
            assert bool(named) == (m not in UNNAMED and not m.startswith("bid:")), (phase, m, named)
            if m.startswith(("place:", "master:", "claim:", "bid:", "buy:")):
                assert not {t for t in named if t.isdigit()} - ({m[6:]} if m.startswith("claim:") else set()), m
            checked += 1
    assert checked > 1000


def _boxes(sheet):
    out = {}
    for k, x, y, w, h in sheet.keys:
        out.setdefault(k, []).append((round(x, 3), round(y, 3)))
    return out


def test_played_mark_outlines_the_named_boxes():
    checked = 0
    for st in positions():
        moves = move_texts(st)
        if not moves:
            continue
        sheet = _layout(st)
        boxes = _boxes(sheet)
        for i, m in enumerate(moves[:: max(1, len(moves) // 2)][:2]):
            svg = sheet.svg(marks={"played": m})
            if i == 0:
                assert svg == draw(st, marks={"played": m})
            marked = _marks(svg, "played")
            expect = sorted(b for t in move_tokens(m) for b in boxes.get(t, []))
            got = sorted((round(float(e.get("x")) + 4, 3), round(float(e.get("y")) + 4, 3)) for e in marked)
            assert got == expect, m
            assert f"played: {m}" in _texts(svg)
            checked += 1
    assert checked > 80


def _first(phase, pred=lambda st: True):
    for st in positions():
        if atelier.position_dict(st)["phase"] == phase and pred(st):
            return st
    raise AssertionError(f"no {phase} position")


def _area_box(sheet, letter):
    [box] = [(x, y, w, h) for k, x, y, w, h in sheet.keys if k == letter]
    return box


def test_place_marks_the_area_and_master_the_other():
    st = _first("PLACE", lambda s: "place:d:2" in move_texts(s) and "master:a" in move_texts(s))
    sheet = _layout(st)
    svg = draw(st, marks={"played": "place:d:2", "best": "master:a"})
    [played] = _marks(svg, "played")
    [best] = _marks(svg, "best")
    x, y, w, h = _area_box(sheet, "d")
    assert (float(played.get("x")), float(played.get("y")), float(played.get("width"))) == (x - 4, y - 4, w + 8)
    x, y, w, h = _area_box(sheet, "a")
    assert (float(best.get("x")), float(best.get("y"))) == (x - 2, y - 2)
    assert "played: place:d:2" in _texts(svg) and "best: master:a" in _texts(svg)
    assert not _marks(draw(st), "played")


def test_start_marks_the_mover_lab_and_the_card():
    st = _first("LAB", lambda s: any(m.startswith("start:") and m.split(":")[2] != "none"
                                     and int(m.split(":")[2]) in atelier.position_dict(s)["row"]
                                     for m in move_texts(s)))
    doc = atelier.position_dict(st)
    move = next(m for m in move_texts(st) if m.startswith("start:") and m.split(":")[2] != "none"
                and int(m.split(":")[2]) in doc["row"])
    lab, card = move.split(":")[1:]
    sheet = _layout(st)
    assert len([k for k, *_ in sheet.keys if k == lab]) == 1          # the mover's lab only
    marked = _marks(draw(st, marks={"played": move}), "played")
    in_deck = int(card) in doc["deck"]
    assert len(marked) == 2 + in_deck                                  # lab, row card (+ deck chip)


def test_favour_letters_are_favours_not_areas():
    st = _first("FAVOUR")
    sheet = _layout(st)
    keys = [k for k, *_ in sheet.keys]
    assert "a" in keys and keys.count("a") == 1 and "h" not in keys
    marked = _marks(draw(st, marks={"played": "favour:a"}), "played")
    assert len(marked) == 1
    fx, fy = [(x, y) for k, x, y, w, h in sheet.keys if k == "a"][0]
    assert float(marked[0].get("y")) == fy - 4 and fy < 120          # on the header's favour strip

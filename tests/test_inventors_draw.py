"""The Legendary Inventors board as SVG (games/inventors/draw.py): valid markup, every card,
inventor and score shown, move highlights on the boxes the move names, user text escaped."""
from __future__ import annotations

import functools
import json
import xml.etree.ElementTree as ET

import pytest

import atelier
from playout_helpers import move_texts, sample_positions
from atelier.drawing import move_tokens
from atelier.games.inventors import draw
from atelier.games.inventors.draw import _layout
from inventors_helpers import edition_json

SVG = "{http://www.w3.org/2000/svg}"


@functools.lru_cache(maxsize=None)
def positions():
    """Random-playout positions for 2..5 players plus the bundled inventors examples."""
    def keep_for(n, seed):
        every = 15 if seed == 1 else 40
        return lambda ply, st: ply % every == 0 or st.is_chance()

    return sample_positions("inventors", keep_for)


def _texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(e.itertext()) for e in root.iter(SVG + "text")]


def _marks(svg: str, role: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter() if e.get("data-mark") == role]


def test_positions_cover_every_phase():
    phases = {atelier.position_dict(st)["phase"] for st in positions()}
    assert phases == {"MAIN", "REWARD", "CHANCE_REVEAL", "TERMINAL"}
    assert {st.game.players for st in positions()} == {2, 3, 4, 5}


def test_board_shows_cards_inventors_and_scores():
    for st in positions():
        svg = draw(st)
        texts = _texts(svg)          # parses, or raises
        assert ET.fromstring(svg).tag == SVG + "svg"
        doc = atelier.position_dict(st)
        cards = [d["card"] for d in doc["display"]] + ([doc["reward"]["card"]] if doc["reward"] else [])
        for cid in cards:
            assert cid in texts, (cid, doc["phase"])
        for seat in doc["seats"]:
            for cid in seat["won"]:
                assert any(t.startswith(cid + " ") for t in texts), cid
            for iid in seat["inventors"]:
                assert doc["inventors"][iid]["name"] in texts, iid
                assert iid in texts, iid
        for p, score in enumerate(st.scores()):
            assert any(t.startswith(f"Seat {p} ·") and t.endswith(f"· score {score}") for t in texts), (p, score)


def test_keys_name_the_boxes_moves_name():
    for st in positions():
        doc = atelier.position_dict(st)
        keys = {k for k, *_ in _layout(st).keys}
        for d in doc["display"]:
            assert d["card"].lower() in keys
        for seat in doc["seats"]:
            assert {i.lower() for i in seat["inventors"]} <= keys
        if doc["reward"]:
            assert doc["reward"]["card"].lower() in keys
            assert {x.lower() for x in doc["reward"]["left"]} <= keys
        # Every move but REST names something on the board; REST, a reveal and no move nothing.
        for m in move_texts(st):
            named = move_tokens(m) & keys
            assert bool(named) == (m != "rest"), m


def test_played_mark_outlines_the_named_boxes():
    checked = 0
    for st in positions():
        sheet = _layout(st)
        boxes = {}
        for k, x, y, w, h in sheet.keys:
            boxes.setdefault(k, []).append((x, y, w, h))
        moves = move_texts(st)
        picks = moves[:: max(1, len(moves) // 2)][:3]
        picks += ["rest"] * ("rest" in moves and "rest" not in picks)
        for i, m in enumerate(picks):
            svg = sheet.svg(marks={"played": m})   # what draw() returns (checked once)
            if i == 0:
                assert svg == draw(st, marks={"played": m})
            marked = _marks(svg, "played")
            expect = [b for t in move_tokens(m) for b in boxes.get(t, [])]
            assert len(marked) == len(expect), m
            got = sorted((round(float(e.get("x")) + 4, 3), round(float(e.get("y")) + 4, 3)) for e in marked)
            assert got == sorted((round(x, 3), round(y, 3)) for x, y, _, _ in expect), m
            assert bool(marked) == (m != "rest"), m
            assert f"played: {m}" in _texts(svg)
            checked += 1
    assert checked > 100


def test_work_marks_card_and_inventor():
    st = atelier.load_position(atelier.examples()["inventors-mid"])
    works = [m for m in move_texts(st) if m.startswith("work:")]
    assert works
    move = works[0]
    _, inv, card = move.split("+")[0].split(":")
    svg = draw(st, marks={"played": move, "best": "rest"})
    sheet = _layout(st)
    marked = _marks(svg, "played")
    assert len(marked) == 2
    want = {(x - 4, y - 4, w + 8, h + 8) for k, x, y, w, h in sheet.keys if k in (inv.lower(), card.lower())}
    assert {tuple(float(e.get(a)) for a in ("x", "y", "width", "height")) for e in marked} == want
    assert not _marks(svg, "best")
    assert not _marks(draw(st), "played")


def test_reveal_and_chance_marks_nothing():
    chance = [st for st in positions() if st.is_chance()]
    assert chance
    for st in chance:
        svg = draw(st, marks={"played": "reveal:II01=P2+AV,II04=VP1+ST", "best": None})
        assert not _marks(svg, "played")
        ET.fromstring(svg)


def test_user_text_is_escaped(tmp_path):
    ed = edition_json()
    for card in ed["inventions"]:
        card["name"] = f'{card["id"]} <&> "q" \'a\''
    for team in ed["teams"]:
        for inv in team["inventors"]:
            inv["name"] = f"{inv['id']} & <Sons>"
    path = tmp_path / "edition.json"
    path.write_text(json.dumps(ed), encoding="utf-8")
    g = atelier.open("inventors", players=3, seed=5, edition=str(path))
    st = g.start()
    svg = draw(st, marks={"played": move_texts(st)[-1]})
    texts = _texts(svg)
    for d in atelier.position_dict(st)["display"]:
        assert f'{d["card"]} <&> "q" \'a\'' in texts
    assert "&lt;&amp;&gt;" in svg and "<&>" not in svg
    for team in g.teams:
        for iid in g.edition.to_dict()["inventor_ids"][team]:
            assert f"{iid} & <Sons>" in texts


@pytest.mark.parametrize("players", [2, 5])
def test_sheet_size(players):
    st = atelier.open("inventors", players=players, seed=3).start()
    root = ET.fromstring(draw(st))
    assert 900 <= float(root.get("width")) <= 1000
    sheet = _layout(st)
    assert sheet.y > 400
    for _, x, y, w, h in sheet.keys:
        assert 0 <= x and x + w <= sheet.width and 0 <= y and y + h <= sheet.y

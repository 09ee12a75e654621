"""The Craftsmen board as SVG (games/craftsmen/draw.py): valid markup, every score and every
face-up building shown, a seat's view drawing none of the money it has not seen, and move
highlights on the boxes the move names."""
from __future__ import annotations

import functools
import xml.etree.ElementTree as ET

import pytest

import atelier
from playout_helpers import move_texts, sample_positions
from atelier.drawing import move_tokens
from atelier.errors import InputError
from atelier.games.craftsmen import draw
from atelier.games.craftsmen.draw import _layout
from atelier.games.craftsmen.edition import edition_of

SVG = "{http://www.w3.org/2000/svg}"
MONEY_TYPES = {f"{c}{v}" for c in "PGBR" for v in (1, 2, 3)}
GUILDS = {"i", "ii", "iii", "iv", "v", "vi"}


@functools.lru_cache(maxsize=None)
def positions():
    """Full positions from random playouts, 2..5 players, two seeds each."""
    def keep_for(n, seed):
        every = 61 + 10 * seed
        return lambda ply, st: ply % every == 0 or (st.is_chance() and ply % every < 3)

    return sample_positions("craftsmen", keep_for, examples=False)


def examples():
    """The bundled Craftsmen examples (some of them a seat's view)."""
    return [atelier.load_position(p) for name, p in sorted(atelier.examples().items())
            if name.startswith("craftsmen")]


def _root(svg: str) -> ET.Element:
    root = ET.fromstring(svg)          # parses, or raises
    assert root.tag == SVG + "svg"
    return root


def _texts(root) -> list[str]:
    return ["".join(e.itertext()) for e in root.iter(SVG + "text")]


def _hand_money(root, seat: int) -> list[str]:
    """The money cards drawn in `seat`'s hand (their type text)."""
    return sorted("".join(e.itertext()) for e in root.iter(SVG + "text") if e.get("data-hand") == str(seat))


def _marks(root, role: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("data-mark") == role]


def _cards(doc) -> list[str]:
    return [c for seat in doc["seats"] for c in seat["hand"] + seat["row"]]


def test_positions_cover_the_game():
    sts = positions()
    assert {st.game.players for st in sts} == {2, 3, 4, 5}
    assert any(st.is_terminal() for st in sts) and any(st.is_chance() for st in sts)
    assert len({atelier.position_dict(st)["phase"] for st in sts}) >= 8


@pytest.mark.parametrize("source", ["playouts", "examples"])
def test_board_shows_scores_display_and_buildings(source):
    sts = positions() if source == "playouts" else examples()
    assert sts
    for st in sts:
        texts = _texts(_root(draw(st)))
        doc = atelier.position_dict(st)
        for p, score in enumerate(st.scores()):
            assert any(t.startswith(f"Seat {p} · score {score}") for t in texts), (p, score)
        for t in ("basic", "extended", "advanced"):
            for cid in doc["decks"][t]["faceup"]:
                assert cid in texts, (cid, doc["phase"])
            for cid in doc["decks"][t].get("pool") or []:
                assert cid in texts or cid.startswith("?"), cid
        for cid in _cards(doc):
            assert cid in texts or cid.startswith("?"), cid
        for t in atelier.position_dict(st)["display"]:
            assert t in texts
        if st.is_terminal():
            assert any(t.startswith("game over · winner seat") for t in texts)


def test_full_drawing_shows_every_hand():
    for st in positions()[::3]:
        root = _root(draw(st))
        doc = atelier.position_dict(st)
        for p, seat in enumerate(doc["seats"]):
            want = sorted(t for t, c in seat["money"].items() for _ in range(c))
            assert _hand_money(root, p) == want, p


def test_viewpoint_draws_only_the_money_the_seat_has_seen():
    """Against the full drawing of the same state: another seat's unseen cards are drawn in the
    full picture and missing from the view's (this fails if a view draws the whole hand)."""
    hidden_somewhere = 0
    for k, st in enumerate(positions()):
        n = st.game.players
        s = k % n
        full, view = _root(draw(st)), _root(draw(st, viewpoint=s))
        vdoc = atelier.position_dict(st, viewpoint=s)
        fdoc = atelier.position_dict(st)
        assert _hand_money(view, s) == _hand_money(full, s)
        vtexts = {w for t in _texts(view) for w in t.split()}
        for q in range(n):
            if q == s:
                continue
            seen = sorted(t for t, c in vdoc["seats"][q]["money"].items() for _ in range(c))
            assert _hand_money(view, q) == seen, (q, seen)
            unseen = vdoc["seats"][q]["money_unseen"]
            assert len(_hand_money(full, q)) == len(seen) + unseen
            hidden_somewhere += unseen > 0
            # Buildings of q's hand that s has not seen: not a word of the view.
            for cid in set(fdoc["seats"][q]["hand"]) - set(vdoc["seats"][q]["hand"]):
                assert cid not in vtexts, cid
        assert any(t.startswith(f"seat {s}'s view") for t in _texts(view))
    assert hidden_somewhere > 20


def test_viewpoint_state_draws_its_own_view():
    views = [st for st in examples() if getattr(st, "viewpoint", None) is not None]
    assert views
    for st in views:
        own = st.viewpoint
        svg = draw(st)
        assert svg == draw(st, viewpoint=own)
        root = _root(svg)
        doc = atelier.position_dict(st)
        for q, seat in enumerate(doc["seats"]):
            assert _hand_money(root, q) == sorted(t for t, c in seat["money"].items() for _ in range(c))
        # Another seat's view of it cannot be made (its hidden parts are a sample): drawn with
        # every other hand as counts only.
        other = (own + 1) % st.game.players
        with pytest.raises(InputError):
            atelier.position_dict(st, viewpoint=other)
        root = _root(draw(st, viewpoint=other))
        for q in range(st.game.players):
            if q != other:
                assert _hand_money(root, q) == []
        with pytest.raises(InputError):
            draw(st, viewpoint=9)


def _token_kinds(st, doc):
    ed = edition_of(st.game)
    products = {p for group in ("raw", "semi_finished", "final") for p in ed["products"][group]}
    ids = {c["id"].lower() for tier in ("lumber_mills", "basic_buildings", "extended_buildings",
                                        "advanced_buildings") for c in ed[tier]}
    return products, ids


def test_keys_name_what_moves_name():
    """Every card id, guild, money type, product and (when loading) ship a legal move names has
    a box on the board (full drawings: the deciding seat's hand is shown)."""
    checked = 0
    for st in positions() + [e for e in examples() if getattr(e, "viewpoint", None) is None]:
        moves = move_texts(st)
        if not moves:
            continue
        doc = atelier.position_dict(st)
        keys = {k for k, *_ in _layout(st).keys}
        products, ids = _token_kinds(st, doc)
        for m in moves:
            for tok in move_tokens(m):
                named = (tok in ids or tok in GUILDS or tok.upper() in MONEY_TYPES or tok in products
                         or (doc["phase"] == "LOAD" and tok.isdigit()))
                if named:
                    assert tok in keys, (m, tok, doc["phase"])
                    checked += 1
    assert checked > 50


def test_played_mark_outlines_the_named_boxes():
    checked = 0
    for st in positions()[::2]:
        moves = move_texts(st)
        if not moves:
            continue
        sheet = _layout(st)
        boxes: dict = {}
        for k, x, y, w, h in sheet.keys:
            boxes.setdefault(k, []).append((round(x - 4, 3), round(y - 4, 3)))
        for m in moves[:: max(1, len(moves) // 2)][:2]:
            root = _root(sheet.svg(marks={"played": m}))
            want = sorted(b for t in move_tokens(m) for b in boxes.get(t, []))
            got = sorted((round(float(e.get("x")), 3), round(float(e.get("y")), 3))
                         for e in _marks(root, "played"))
            assert got == want, m
            checked += bool(want)
    assert checked > 10


def test_place_and_pass_marks():
    st = next(s for s in positions() if atelier.position_dict(s)["phase"] == "HELPER"
              and "PLACE(IV)" in move_texts(s))
    svg = draw(st, marks={"played": "PLACE(IV)", "best": "PASS"})
    root = _root(svg)
    played = _marks(root, "played")
    assert len(played) == 1
    (gx, gy, gw, gh), = [(x, y, w, h) for k, x, y, w, h in _layout(st).keys if k == "iv"]
    assert [float(played[0].get(a)) for a in ("x", "y", "width", "height")] == [gx - 4, gy - 4, gw + 8, gh + 8]
    assert not _marks(root, "best")                 # PASS names nothing on the board
    texts = _texts(root)
    assert "played: PLACE(IV)" in texts and "best: PASS" in texts
    assert not _marks(_root(draw(st)), "played")


def test_build_marks_the_card_and_the_row_end():
    for st in positions() + examples():
        builds = [m for m in move_texts(st) if m.startswith("BUILD(")]
        if builds and getattr(st, "viewpoint", None) is None:
            break
    else:
        pytest.skip("no Architects decision among the positions")
    move = builds[0]
    card, side = move[len("BUILD("):-1].split(",")
    keys = _layout(st).keys
    root = _root(draw(st, marks={"played": move}))
    got = {(float(e.get("x")) + 4, float(e.get("y")) + 4) for e in _marks(root, "played")}
    want = {(x, y) for k, x, y, w, h in keys if k in (card.lower(), side.lower())}
    assert len(want) == 2 and got == want

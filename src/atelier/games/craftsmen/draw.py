"""The Craftsmen board as SVG (`atelier show POS --svg FILE`, the review page), laid out on the
shared `Sheet` (atelier.drawing): a header (year, season, phase, who decides, turn order, bank,
unclaimed bonus tokens), the six guilds with their helpers, the face-up buildings and decks of
each tier (and a Notary look under way), the money display and decks, the warehouse and the
ships, then one panel per seat: money cards, hand, the row left to right with its filled input
icons, and the seat's AP, tokens, market and cubes.

Hidden information (rules §6.2): with `viewpoint` a seat, or on a state that is a seat's view,
only what that seat knows is drawn (another seat's unseen money as card backs, unseen buildings
as backs with their tier); a full state without a viewpoint is drawn whole.

Highlighting: the boxes a move's notation can name are registered under its tokens: every
building card under its id (`E11`), the guilds under their numerals (`IV`), the money cards
under their type (`R2`: the display's while a Banker takes or a reward is chosen, else those in
the deciding seat's hand), the deciding seat's empty input icons and, at the Merchants, the
warehouse goods under the product name, the ships under their number (only when a good is to be
loaded, so that `BID(3)` lights no ship), the spaces of the guild being stacked on under their
number, the decks under their tier, the row's ends under `L`/`R` while building, and a few words
(`MARKET`, `WAREHOUSE`, `TOP`/`BOTTOM` of the looked-at deck, `BID` the card auctioned, `DRAW`
the deck a chance draw takes from). Only the first empty icon of a product on a card is keyed
(identical icons fill first to last), so `SEND(ICON(E11,flax))` outlines card E11 and the
deciding seat's next empty flax icons.
"""
from __future__ import annotations

import drawsvg as dw

from ...drawing import FAINT, INK, LINE, Sheet, fit_text, seat_colour, text_width as _width
from ...errors import InputError
from ...wording import count as count_of
from .edition import edition_of
from .position_dump import GUILDS, SEASONS, TIERS, position_dict

WIDTH = 960
MARGIN = 12
GAP = 10
INNER = WIDTH - 2 * MARGIN

GUILD_NAMES = ("Bankers", "Architects", "Notary", "Craftsmen", "Merchants", "Town Hall")
MONEY_TYPES = tuple(f"{c}{v}" for c in "PGBR" for v in (1, 2, 3))
MONEY_FILL = {"P": "#7d3c98", "G": "#1e8449", "B": "#2471a3", "R": "#c0392b"}
CARD_FILL = {"purple": "#7d3c98", "green": "#1e8449", "blue": "#2471a3", "red": "#c0392b"}
NEUTRAL = "#aab7b8"
GOLD = "#b7950b"
ACTIVE = "#34495e"
FILLED = "#5d6d7e"

CARD_W, CARD_H, CARD_STEP = 124, 64, 130
CHIP_H = 16
MONEY_W, MONEY_H = 26, 20            # a money card in a hand
PANEL_TOP = 26                       # Sheet.panel: the content starts 26 below a titled panel's top

# Where the stage guild is the one acting (context["stage"] is current in these phases).
STAGE_PHASES = {"BANK1", "BANK2", "BANK_PRIV", "BUILD1", "BUILD2", "PAY", "NOTARY1", "NOTARY2",
                "NOTARY3", "BID", "MAYOR_BID", "KEEP", "RETURN", "CRAFT", "WPUSE", "SEND", "REWARD",
                "LOAD", "MERCH", "MERCH_PAY", "COMPENSATE", "TOWN", "WINDOW"}
# Where a money type in a move names a display card (else a card of the deciding seat's hand).
DISPLAY_MONEY_PHASES = {"BANK1", "BANK2", "REWARD"}
POOL_NAMES = {"basic": "basic", "extended-house": "extended", "extended-plain": "extended",
              "advanced-house": "advanced", "advanced-plain": "advanced", "lumber_mill": "mill"}
PREFIX_TIER = {"L": "lumber_mill", "B": "basic", "E": "extended", "A": "advanced"}


# --- text helpers -------------------------------------------------------------------------------

def _fit(sheet, x, y, s, maxw, min_size=8, **kw) -> float:
    """fit_text with a smaller floor: the Craftsmen cards are dense."""
    return fit_text(sheet, x, y, s, maxw, min_size=min_size, **kw)


def _chip(sheet: Sheet, x, y, s, fill="#e8e4da", ink=INK, size=10, stroke="none", bold=False) -> float:
    """A small labelled box (top-left at x, y), CHIP_H high; returns its width."""
    w = 8 + _width(s, size, bold)
    sheet.rect(x, y, w, CHIP_H, fill=fill, stroke=stroke, rx=3)
    sheet.text(x + w / 2, y + CHIP_H - 4.5, s, size=size, fill=ink, anchor="middle", bold=bold)
    return w


def _product(name: str) -> str:
    return str(name).replace("_", " ")


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def _money_list(d: dict) -> list[str]:
    """The cards of a money multiset, one entry per card, in type order P1 … R3."""
    return [t for t in MONEY_TYPES for _ in range(int(d.get(t, 0)))] + \
           [t for t in d if t not in MONEY_TYPES and t != "cards" for _ in range(int(d[t]))]


def _money_count(d: dict) -> int:
    return int(d["cards"]) if "cards" in d else sum(int(v) for v in d.values())


def _value(cards: list[str]) -> int:
    """The value of money cards (rules 7.1): per colour the printed sum, or 5 per card beyond
    the first when that is more."""
    total = 0
    for colour in "PGBR":
        vals = [int(t[1:]) for t in cards if t[:1] == colour and t[1:].isdigit()]
        total += sum(vals) if len(vals) <= 1 else max(sum(vals), 5 * (len(vals) - 1))
    return total


def _money_card(sheet: Sheet, x, y, t, w=MONEY_W, h=MONEY_H, size=11, **attrs):
    """A money card: its colour, and its type (colour initial and value) on it."""
    sheet.rect(x, y, w, h, fill=MONEY_FILL.get(t[:1], FAINT), stroke="none", rx=3)
    sheet.text(x + w / 2, y + h / 2 + size * 0.36, t, size=size, fill="#ffffff", bold=True, anchor="middle",
               **attrs)


def _money_back(sheet: Sheet, x, y, w=MONEY_W, h=MONEY_H, size=11):
    """An unseen money card."""
    sheet.rect(x, y, w, h, fill="#d5d8dc", stroke="#aab7b8", rx=3)
    sheet.text(x + w / 2, y + h / 2 + size * 0.36, "?", size=size, fill=FAINT, bold=True, anchor="middle")


def _disc(sheet: Sheet, cx, cy, d, r=9):
    """A helper disc: the seat's colour and number; a gold ring when it is privileged."""
    if d is None:
        sheet.items.append(_dashed_circle(cx, cy, r))
        return
    if d.get("privileged"):
        sheet.items.append(dw.Circle(cx, cy, r + 3, fill="none", stroke=GOLD, stroke_width=2.5))
    sheet.circle(cx, cy, r, fill=seat_colour(d["seat"]), label=str(d["seat"]), size=10)


def _dashed_circle(cx, cy, r):
    return dw.Circle(cx, cy, r, fill="none", stroke=LINE, stroke_dasharray="2,2")


def _cube(sheet: Sheet, x, y, who, size=12):
    """One slot: empty, a neutral cube, or a seat's cube."""
    if who is None:
        sheet.rect(x, y, size, size, fill="#ffffff", stroke=LINE, rx=2)
    else:
        fill = NEUTRAL if who == "neutral" else seat_colour(int(who))
        sheet.rect(x, y, size, size, fill=fill, stroke="none", rx=2)


# --- the data -------------------------------------------------------------------------------------

def _hide_others(doc: dict, seat: int) -> dict:
    """A drawing of `doc` for `seat` where no proper view could be made: the other seats' money
    and hands as counts (backs) only, and the decks' known sequences and looks as backs."""
    for q, s in enumerate(doc["seats"]):
        if q == seat:
            continue
        s["money_unseen"] = s.get("money_unseen", 0) + _money_count(s["money"])
        s["money"] = {}
        s["hand"] = [c if c.startswith("?") else "?" + PREFIX_TIER.get(c[:1], "basic") for c in s["hand"]]
    for t in TIERS:
        deck = doc["decks"][t]
        for part in ("top", "bottom", "pool"):
            deck[part] = [c if c.startswith("?") else "?" + t for c in deck.get(part, [])]
        deck["segments"] = [["?" + t] * len(seg) for seg in deck["segments"]]
    doc["money_deck"] = {"cards": _money_count(doc["money_deck"])}
    doc["viewpoint"] = seat
    return doc


def _document(state, viewpoint):
    """position_dict for `viewpoint` (the state's own view when it is one); where a view cannot
    be made, the position with what that seat cannot see reduced to counts."""
    try:
        return position_dict(state, viewpoint=viewpoint)
    except InputError:
        n = state.game.players
        if isinstance(viewpoint, bool) or not isinstance(viewpoint, int) or not 0 <= viewpoint < n:
            raise
        return _hide_others(position_dict(state), viewpoint)


class _Board:
    """Everything the layout needs about one position."""

    def __init__(self, state, viewpoint):
        self.state = state
        self.doc = doc = _document(state, viewpoint)
        self.view = doc.get("viewpoint")
        self.ed = edition_of(state.game)
        self.cards = {c["id"]: c for tier in ("lumber_mills", "basic_buildings", "extended_buildings",
                                              "advanced_buildings") for c in self.ed[tier]}
        self.n = doc["players"]
        self.phase = doc["phase"]
        self.ctx = doc.get("context", {})
        self.terminal = state.is_terminal()
        self.chance = state.is_chance()
        cp = state.current_player
        self.mover = cp if not self.terminal and not self.chance and 0 <= cp < self.n else None
        self.scores = list(state.scores())
        self.ranking = list(state.ranking()) if self.terminal else []
        stage = self.ctx.get("stage")
        self.stage = stage if self.phase in STAGE_PHASES and isinstance(stage, int) and 0 <= stage < 6 else None

    def status(self) -> str:
        """What the pending decision is about, in a few words."""
        c, ph = self.ctx, self.phase
        try:
            if ph == "MULLIGAN":
                return "mulligan: keep the deal or swap a card"
            if ph == "HELPER":
                return "helper phase: place a helper or pass"
            if ph in ("STACK", "STACK_PAY"):
                return f"stacking a helper on guild {GUILDS[c['stack_guild']]}"
            if ph in ("CRAFT", "WPUSE"):
                return f"Craftsmen action: {c['wp']} WP left"
            if ph == "SEND":
                if c.get("good"):
                    return f"where does the {_product(c['good'])} from {c['good_card']} go?"
                return f"where does the {_product(c['raw_product'])} from {c['raw_card']} go? ({c['raws_left']} left)"
            if ph == "LOAD":
                return f"load the {_product(c['good'])} from {c['good_card']} on a ship"
            if ph in ("BID", "MAYOR_BID"):
                return (f"auction of {c['auction_card']}: high bid {c['auction_high']} "
                        f"by seat {c['auction_bidder']}")
            if ph in ("KEEP", "RETURN"):
                return f"Notary look at the {c['look_tier']} deck"
            if ph == "PAY":
                return f"pay {c['pay_amount']}"
            if ph in ("DISCARD", "LIMIT"):
                return "discard down to the hand limit" if ph == "LIMIT" else f"discard ({c['discard_left']} to go)"
            if ph == "CONTRIB":
                return "year end: contribution"
            if ph == "WINDOW":
                return "work-token window"
        except (KeyError, IndexError, TypeError):
            pass
        return ""


# --- header ---------------------------------------------------------------------------------------

def _header(sheet: Sheet, b: _Board):
    doc = b.doc
    x, y, w, h = MARGIN, MARGIN, INNER, 96
    sheet.panel(x, y, w, h)
    sheet.text(x + 10, y + 24, "Craftsmen", size=18, bold=True)
    season = SEASONS[doc["season"]] if 0 <= doc["season"] < 4 else doc["season"]
    stage = f" · stage {GUILDS[b.stage]} {GUILD_NAMES[b.stage]}" if b.stage is not None else ""
    tx = x + 24 + _width("Craftsmen", 18, True)
    right = 0.0
    if b.view is not None:
        label = f"seat {b.view}'s view"
        right = _width(label, 13, True) + 20
        sheet.text(x + w - 10, y + 24, label, size=13, bold=True, fill=seat_colour(b.view), anchor="end")
    _fit(sheet, tx, y + 24, f"{b.n} players · year {doc['year']} of 3 · {season} · phase {b.phase}{stage}",
         x + w - 10 - right - tx, size=14)
    # Who decides.
    ty = y + 46
    if b.terminal:
        win = b.ranking[0] if b.ranking else None
        order = " > ".join(f"seat {p}" for p in b.ranking)
        s = f"game over · winner seat {win} · ranking {order}" if win is not None else "game over"
        _fit(sheet, x + 10, ty, s, w - 20, size=13, bold=True, fill=seat_colour(win) if win is not None else INK)
    elif b.chance:
        src, left = b.ctx.get("chance_source"), b.ctx.get("chance_left")
        s = f"chance: a card is drawn from the {src} deck" + (f" ({left} to draw)" if left else "")
        _fit(sheet, x + 10, ty, s, w - 20, size=13, bold=True, fill=FAINT)
    elif b.mover is not None:
        sheet.circle(x + 16, ty - 4, 6, seat_colour(b.mover))
        status = b.status()
        _fit(sheet, x + 28, ty, f"seat {b.mover} to decide" + (f" — {status}" if status else ""),
             w - 40, size=13, bold=True, fill=seat_colour(b.mover))
    # Turn order, the order-change track, the bank.
    ly = y + 68
    sheet.text(x + 10, ly, "turn order", size=11, fill=FAINT)
    cx = x + 80
    for p in doc["turn_order"]:
        sheet.circle(cx + 8, ly - 4, 8, seat_colour(p), label=str(p), size=10)
        cx += 20
    cx += 14
    sheet.text(cx, ly, "order change", size=11, fill=FAINT)
    cx += 80
    track = list(doc.get("order_track") or [])
    ox = cx
    for i in range(3 if b.n > 2 else 0):
        if i < len(track):
            sheet.circle(cx + 8, ly - 4, 8, seat_colour(track[i]), label=str(track[i]), size=10)
        else:
            sheet.items.append(_dashed_circle(cx + 8, ly - 4, 8))
        cx += 20
    if b.n == 2:
        sheet.text(cx, ly, "—", size=11, fill=LINE)
        cx += 14
    sheet.key("order_change", ox, ly - 13, max(cx - ox, 14), 18)
    cx += 14
    sheet.text(cx, ly, f"bank: {doc['bank_priv']} privilege, {count_of(doc['bank_work'], 'work token')}", size=11)
    # Scores at a glance.
    sx = x + w - 10
    for p in reversed(range(b.n)):
        label = f"{b.scores[p]}"
        sheet.text(sx, ly, label, size=12, bold=True, anchor="end")
        sx -= _width(label, 12, True) + 4
        sheet.rect(sx - 10, ly - 10, 10, 10, fill=seat_colour(p), stroke="none", rx=2)
        sx -= 20
    sheet.text(sx, ly, "score", size=11, fill=FAINT, anchor="end")
    # Unclaimed bonus tokens (first complete production line of a final good, AP at game end).
    by = y + 76
    sheet.text(x + 10, by + 12, "bonus tokens left", size=11, fill=FAINT)
    bx = x + 112
    ap = {t["good"]: t.get("ap") for t in b.ed.get("bonus_tokens", [])}
    for good in doc["bonus_unclaimed"]:
        bx += _chip(sheet, bx, by, f"{_product(good)} {ap.get(good, '?')}", fill="#f7e3a1", ink="#7d6608") + 4
    if not doc["bonus_unclaimed"]:
        sheet.text(bx, by + 12, "none", size=11, fill=LINE)
    sheet.y = y + h + GAP


# --- guilds ---------------------------------------------------------------------------------------

def _guilds(sheet: Sheet, b: _Board):
    doc = b.doc
    y = sheet.y
    sheet.text(MARGIN, y + 14, "Guilds", size=14, bold=True)
    spaces = 2 if b.n == 2 else 3
    sheet.text(MARGIN + 62, y + 14, f"helpers on spaces 1-{spaces} (a disc stacked on another to its right) · "
                                    "gold ring: privileged · space 1 is the gold space"
                                    + (", space 3 the ribbon" if spaces == 3 else ""), size=11, fill=FAINT)
    y += 22
    gw = (INNER - 5 * GAP) / 6
    h = PANEL_TOP + spaces * 24 + 2
    stacking = b.phase in ("STACK", "STACK_PAY")
    for g in range(6):
        x = MARGIN + g * (gw + GAP)
        active = b.stage == g or (stacking and b.ctx.get("stack_guild") == g)
        top = sheet.panel(x, y, gw, h, title=f"{GUILDS[g]}  {GUILD_NAMES[g]}",
                          colour=ACTIVE if active else LINE, fill="#f4f6f7" if active else "#ffffff")
        sheet.key(GUILDS[g], x, y, gw, h)
        for s in range(spaces):
            ry = top + s * 24
            label_fill = GOLD if s == 0 else ("#1e8449" if s == 2 else FAINT)
            sheet.text(x + 10, ry + 15, f"space {s + 1}", size=10, fill=label_fill, bold=s != 1)
            discs = doc["guilds"][g][s] if s < len(doc["guilds"][g]) else [None, None]
            _disc(sheet, x + 74, ry + 11, discs[0])
            if discs[1] is not None:
                _disc(sheet, x + 100, ry + 11, discs[1])
            if b.phase == "STACK" and b.ctx.get("stack_guild") == g:
                sheet.key(str(s + 1), x + 4, ry, gw - 8, 22)
    sheet.y = y + h + GAP


# --- buildings ------------------------------------------------------------------------------------

def _card(sheet: Sheet, b: _Board, x, y, cid, filled=None, icon_keys=False):
    """A building card: top and bottom colours as stripes, id, output, name, AP, house, and its
    input icons (filled dark). `filled`: the products on its icons (None: a card not in a row)."""
    if cid.startswith("?"):
        return _card_back(sheet, x, y, cid)
    card = b.cards.get(cid, {"name": cid, "inputs": [], "output": "?", "ap": 0})
    sheet.rect(x, y, CARD_W, CARD_H, fill="#ffffff", stroke=LINE)
    sheet.rect(x + 1, y + 1, CARD_W - 2, 5, fill=CARD_FILL.get(card.get("top"), LINE), stroke="none", rx=2)
    sheet.rect(x + 1, y + CARD_H - 6, CARD_W - 2, 5, fill=CARD_FILL.get(card.get("bottom"), LINE),
               stroke="none", rx=2)
    sheet.key(cid, x, y, CARD_W, CARD_H)
    if b.phase in ("BID", "MAYOR_BID") and cid == b.ctx.get("auction_card"):   # the card bid for
        sheet.rect(x - 1, y - 1, CARD_W + 2, CARD_H + 2, fill="none", stroke=GOLD, width=2.5)
        sheet.key("bid", x, y, CARD_W, CARD_H)
    sheet.text(x + 6, y + 19, cid, size=12, bold=True)
    out = "→ " + _product(card.get("output", "?"))
    _fit(sheet, x + CARD_W - 6, y + 19, out, CARD_W - 48, size=10, anchor="end", bold=True, fill="#1b4f72")
    ap = card.get("ap", 0)
    tail = (f"{ap} AP" if ap else "") + (" ⌂" if card.get("house") else "")
    tw = _width(tail, 9) + 4 if tail else 0
    _fit(sheet, x + 6, y + 33, card.get("name", cid), CARD_W - 12 - tw, size=10, fill=INK)
    if tail:
        sheet.text(x + CARD_W - 6, y + 33, tail, size=9, fill=FAINT, anchor="end")
    inputs = card.get("inputs", [])
    left = list(filled or [])
    ix, iy = x + 5, y + 39
    seen = set()
    avail = CARD_W - 10 - 3 * max(0, len(inputs) - 1)
    each = avail / max(1, len(inputs))
    for prod in inputs:
        full = prod in left
        if full:
            left.remove(prod)
        label = ("●" if full else "○") + _product(prod)
        iw = min(each, 6 + _width(label, 9))
        sheet.rect(ix, iy, iw, 15, fill=FILLED if full else "#ffffff",
                   stroke=FILLED if full else LINE, rx=3)
        _fit(sheet, ix + iw / 2, iy + 11, label, iw - 4, size=9, anchor="middle",
             fill="#ffffff" if full else INK)
        if icon_keys and not full and prod not in seen:   # the first empty icon a good goes to
            seen.add(prod)
            sheet.key(prod, ix, iy, iw, 15)
        ix += iw + 3
    if not inputs:
        sheet.text(x + 6, iy + 11, "produces a raw material", size=9, fill=FAINT)


def _card_back(sheet: Sheet, x, y, placeholder):
    """A building the viewer has not seen: its tier (and house or plain) only."""
    pool = placeholder[1:]
    tier = POOL_NAMES.get(pool, pool.split("-")[0] or "building")
    kind = "house" if pool.endswith("house") else ("plain" if pool.endswith("plain") else
                                                   ("returned" if pool.endswith("returns") else ""))
    sheet.rect(x, y, CARD_W, CARD_H, fill="#eceae4", stroke=LINE)
    sheet.text(x + CARD_W / 2, y + 30, "?", size=20, fill=FAINT, bold=True, anchor="middle")
    sheet.text(x + CARD_W / 2, y + 50, f"{tier} {kind}".strip(), size=10, fill=FAINT, anchor="middle")


def _flow(count, x0, x1, step):
    """Positions (line, x) of `count` boxes `step` apart from x0, wrapping before x1."""
    per = max(1, int((x1 - x0 + step - CARD_W) // step))
    return [(i // per, x0 + (i % per) * step) for i in range(count)]


def _deck_size(deck: dict) -> int:
    return len(deck.get("top", [])) + sum(len(s) for s in deck["segments"]) + len(deck.get("bottom", []))


def _wrap(prefix: str, words: list[str], chars: int) -> list[str]:
    """`prefix` and the words, broken into lines of at most `chars` characters."""
    lines, line = [], prefix
    for w in words:
        if len(line) + 1 + len(w) > chars and line.strip():
            lines.append(line)
            line = "   " + w
        else:
            line = f"{line} {w}" if line else w
    lines.append(line)
    return lines


def _tier_lines(b: _Board, t: str, chars: int) -> list[tuple[str, str | None]]:
    """The deck's text lines under the face-up cards: (text, key or None)."""
    deck = b.doc["decks"][t]
    segs = [len(s) for s in deck["segments"]]
    shuffled = " + ".join(str(k) for k in segs if k) or "0"
    what = "house cards first" if t != "basic" and len(segs) > 1 and segs[0] and segs[1] else ""
    lines = [(f"shuffled {shuffled}" + (f" ({what})" if what else ""), None)]
    returning = b.phase == "RETURN" and b.ctx.get("look_tier") == t
    for part in ("top", "bottom"):
        ids = ["?" if c.startswith("?") else c for c in deck.get(part) or []]
        key = part if returning else None
        lines += [(text, key) for text in _wrap(f"known {part}:", ids or ["—"], chars)]
    ret = deck.get("returns")
    if ret:
        unseen = sum(ret.get("unseen", {}).values())
        words = list(ret.get("face_up", [])) + ([f"+ {unseen} unseen"] if unseen else [])
        lines += [(text, None) for text in _wrap("returned by a look:", words, chars)]
    if t == "basic":
        lines.append(("box", None))   # the lumber mills in the box (chips)
    return lines


def _buildings(sheet: Sheet, b: _Board):
    doc = b.doc
    y = sheet.y
    sheet.text(MARGIN, y + 14, "Buildings", size=14, bold=True)
    sheet.text(MARGIN + 84, y + 14, "face-up cards and decks · stripes: top and bottom colour · "
                                    "→ output · AP per unit · ⌂ house · input icons ○ empty ● filled",
               size=11, fill=FAINT)
    y += 22
    tw = (INNER - 2 * GAP) / 3
    lines = {t: _tier_lines(b, t, int((tw - 20) / 6)) for t in TIERS}
    h = PANEL_TOP + CARD_H + 8 + max(len(v) for v in lines.values()) * 18 + 4
    drawing_from = b.ctx.get("chance_source") if b.chance else None
    for i, t in enumerate(TIERS):
        x = MARGIN + i * (tw + GAP)
        deck = doc["decks"][t]
        top = sheet.panel(x, y, tw, h, title=f"{t} · deck {_deck_size(deck)}")
        sheet.key(t, x, y, tw, h)
        if drawing_from == t:
            sheet.key("draw", x, y, tw, h)
        for j, cid in enumerate(deck["faceup"][:2]):
            _card(sheet, b, x + 8 + j * CARD_STEP, top, cid)
        if not deck["faceup"]:
            sheet.text(x + 10, top + 36, "no face-up cards", size=11, fill=FAINT)
        ly = top + CARD_H + 8
        spans: dict = {}
        for text, key in lines[t]:
            if text == "box":
                sheet.text(x + 10, ly + 12, "lumber mills in the box", size=10, fill=FAINT)
                bx = x + 140
                for cid in doc.get("box", []):
                    cw = _chip(sheet, bx, ly, cid)
                    sheet.key(cid, bx, ly, cw, CHIP_H)
                    bx += cw + 4
                if not doc.get("box"):
                    sheet.text(bx, ly + 12, "none", size=10, fill=LINE)
            else:
                _fit(sheet, x + 10, ly + 12, text, tw - 20, size=10)
                if key:
                    spans.setdefault(key, [ly, ly])[1] = ly
            ly += 18
        for key, (y0, y1) in spans.items():
            sheet.key(key, x + 6, y0 + 1, tw - 12, y1 - y0 + 14)
    sheet.y = y + h + GAP
    # A Notary look under way: the pool of looked-at cards.
    for t in TIERS:
        pool = doc["decks"][t].get("pool") or []
        if not pool:
            continue
        y = sheet.y
        pos = _flow(len(pool), MARGIN + 8, MARGIN + INNER - 8, CARD_STEP)
        ph = PANEL_TOP + (pos[-1][0] + 1) * (CARD_H + 6) + 2
        top = sheet.panel(MARGIN, y, INNER, ph, title=f"Notary look at the {t} deck: {count_of(len(pool), 'card')}",
                          colour=ACTIVE)
        for cid, (line, cx) in zip(pool, pos):
            _card(sheet, b, cx, top + line * (CARD_H + 6), cid)
        sheet.y = y + ph + GAP


# --- money, warehouse, ships ----------------------------------------------------------------------

def _goods(sheet: Sheet, b: _Board):
    doc = b.doc
    y = sheet.y
    ships = b.ed.get("ships", [])
    rows = max([len(s["rows"]) for s in ships] + [len(doc["warehouse"])])
    h = PANEL_TOP + rows * 17 + 24
    # Money: the display, the deck, the discard pile, the mayor's cards.
    mw, ww = 180, 150
    x = MARGIN
    top = sheet.panel(x, y, mw, h, title="money")
    sheet.text(x + 10, top + 12, "display", size=10, fill=FAINT)
    display = _money_list(doc["display"])
    for i, t in enumerate(display):
        cx, cy = x + 10 + i * 40, top + 18
        _money_card(sheet, cx, cy, t, w=34, h=42, size=13)
        if b.phase in DISPLAY_MONEY_PHASES:
            sheet.key(t, cx, cy, 34, 42)
    if not display:
        sheet.text(x + 10, top + 42, "empty", size=11, fill=LINE)
    ly = top + 78
    deck_n = _money_count(doc["money_deck"])
    sheet.text(x + 10, ly, f"deck {count_of(deck_n, 'card')}", size=11)
    for k in ("take_deck", "reward_deck") + (("draw",) if b.chance and b.ctx.get("chance_source") == "money" else ()):
        sheet.key(k, x + 6, ly - 12, mw - 12, 16)
    ly += 16
    sheet.text(x + 10, ly, f"discard pile {count_of(_money_count(doc['discard']), 'card')}", size=11)
    mayor = doc.get("mayor") or {}
    if _money_count(mayor):
        ly += 16
        if "cards" in mayor:
            sheet.text(x + 10, ly, f"mayor: {count_of(mayor['cards'], 'card')}", size=11)
        else:
            _fit(sheet, x + 10, ly, "mayor: " + " ".join(_money_list(mayor)), mw - 20, size=11)
    # The warehouse: per good its [bottom, top] slots.
    x += mw + GAP
    top = sheet.panel(x, y, ww, h, title="warehouse")
    sheet.key("warehouse", x, y, ww, h)
    for i, (good, slots) in enumerate(doc["warehouse"].items()):
        ry = top + i * 17
        _fit(sheet, x + 10, ry + 11, _product(good), 84, size=11)
        for j, who in enumerate(slots):
            _cube(sheet, x + 104 + j * 16, ry + 1, who)
        if b.phase == "MERCH":
            sheet.key(good, x + 6, ry - 1, ww - 12, 16)
    sheet.text(x + 10, y + h - 8, "bottom, top · grey neutral", size=9, fill=FAINT)
    # The ships.
    x += ww + GAP
    sw = (MARGIN + INNER - x - 3 * 8) / 4
    for k, ship in enumerate(ships):
        sx = x + k * (sw + 8)
        sid = ship.get("id", k + 1)
        top = sheet.panel(sx, y, sw, h, title=f"ship {sid}")
        if b.phase == "LOAD":
            sheet.key(str(sid), sx, y, sw, h)
        cargo = doc["ships"][k] if k < len(doc["ships"]) else {}
        for i, row in enumerate(ship["rows"]):
            ry = top + i * 17
            slots = cargo.get(row["product"]) or [None] * row.get("slots", 2)
            if b.phase == "LOAD" and row["product"] == b.ctx.get("good"):   # where the good may go
                sheet.rect(sx + 4, ry - 1, sw - 8, 16, fill="#fcf3cf", stroke="none", rx=3)
            n_slots = len(slots)
            label_w = sw - 16 - n_slots * 14 - 26
            _fit(sheet, sx + 8, ry + 11, _product(row["product"]), label_w, size=11)
            sheet.text(sx + sw - 10 - n_slots * 14 - 4, ry + 11, f"{row['ap']}", size=10, fill=FAINT, anchor="end")
            for j, who in enumerate(slots):
                _cube(sheet, sx + sw - 10 - (n_slots - j) * 14 + 2, ry + 1, who)
        bonus = "/".join(str(v) for v in ship.get("bonuses", []))
        _fit(sheet, sx + 8, y + h - 8, f"AP per cube · bonus {bonus}", sw - 16, size=9, fill=FAINT)
    sheet.y = y + h + GAP


# --- seats ----------------------------------------------------------------------------------------

def _cubes_on_board(doc, p):
    """(cubes on ships, cubes in the warehouse) of seat p."""
    ships = sum(1 for ship in doc["ships"] for slots in ship.values() for s in slots if s == p)
    ware = sum(1 for slots in doc["warehouse"].values() for s in slots if s == p)
    return ships, ware


def _money_layout(seat):
    known = _money_list(seat["money"])
    unseen = int(seat.get("money_unseen", 0))
    per = 10
    total = len(known) + unseen
    return known, unseen, max(1, (total + per - 1) // per), per


def _seat_layout(b: _Board, p):
    seat = b.doc["seats"][p]
    _, _, money_lines, _ = _money_layout(seat)
    hx0 = MARGIN + 330
    hand = _flow(len(seat["hand"]), hx0, MARGIN + INNER - 8, CARD_STEP)
    hand_lines = hand[-1][0] + 1 if hand else 1
    row = _flow(len(seat["row"]), MARGIN + 32, MARGIN + INNER - 30, CARD_STEP)
    row_lines = row[-1][0] + 1 if row else 1
    block = 22 + max(money_lines * (MONEY_H + 4), hand_lines * (CARD_H + 6) if seat["hand"] else 22)
    h = PANEL_TOP + 22 + block + 22 + row_lines * (CARD_H + 6) + 4
    return h, block, hand, row


def _seat(sheet: Sheet, b: _Board, p, y):
    doc, seat = b.doc, b.doc["seats"][p]
    x, w = MARGIN, INNER
    h, block, hand_pos, row_pos = _seat_layout(b, p)
    colour = seat_colour(p)
    mover = b.mover == p
    if mover:
        sheet.rect(x - 3, y - 3, w + 6, h + 6, fill="none", stroke=colour, width=3, rx=6)
    rank = ""
    if b.terminal and p in b.ranking:
        rank = f" · {_ordinal(b.ranking.index(p) + 1)}"
    top = sheet.panel(x, y, w, h, title=f"Seat {p} · score {b.scores[p]}{rank}", colour=colour,
                      fill="#fdf6ec" if mover else "#ffffff")
    flags = [flag for flag in ("passed", "contributed") if seat.get(flag)]
    if mover:
        flags.append("▶ TO DECIDE")
    if b.terminal and b.ranking and b.ranking[0] == p:
        flags.append("WINNER")
    if b.view == p:
        flags.append("(this view)")
    if flags:
        sheet.text(x + w - 8, y + 14, " · ".join(flags), size=12, bold=True, fill="#ffffff", anchor="end")
    # The stats line.
    sy = top + 12
    cx = x + 10
    sheet.text(cx, sy, f"AP {seat['ap']}", size=12, bold=True)
    cx += _width(f"AP {seat['ap']}", 12, True) + 14
    sheet.text(cx, sy, "helpers at home", size=11, fill=FAINT)
    cx += _width("helpers at home", 11) + 4
    helpers = b.ed.get("constants", {}).get("helpers_per_player", {}).get("value", 5)
    for i in range(max(helpers, seat["home"])):
        if i < seat["home"]:
            sheet.circle(cx + 5, sy - 4, 5, colour)
        else:
            sheet.circle(cx + 5, sy - 4, 5, "none", stroke=LINE)
        cx += 12
    cx += 10
    for label, key_words in ((f"privilege {seat['priv_tokens']}", ("privilege", "take_privilege")),
                             (f"work tokens {seat['work_tokens']}", ("work_token", "take_work"))):
        tw = _width(label, 11)
        sheet.text(cx, sy, label, size=11)
        if mover:
            for k in key_words:
                sheet.key(k, cx - 3, sy - 12, tw + 6, 16)
        cx += tw + 14
    # The market: up to 3 cubes.
    mx = cx
    sheet.text(cx, sy, "market", size=11, fill=FAINT)
    cx += _width("market", 11) + 4
    for i in range(3):
        _cube(sheet, cx, sy - 10, p if i < seat["market"] else None, size=11)
        cx += 14
    if mover:
        sheet.key("market", mx - 3, sy - 13, cx - mx + 4, 17)
    cx += 10
    ships, ware = _cubes_on_board(doc, p)
    extra = [f"supply {seat.get('supply', '?')}", f"on ships {ships}", f"in warehouse {ware}"]
    if p in doc["turn_order"]:
        extra.append(f"{_ordinal(doc['turn_order'].index(p) + 1)} in turn order")
    _fit(sheet, cx, sy, " · ".join(extra), x + w - 10 - cx, size=11)
    # Money (left) and hand (right).
    my = top + 22
    known, unseen, _, per = _money_layout(seat)
    count = len(known) + unseen
    label = f"money · {count_of(count, 'card')}"
    if unseen:
        label += f" ({unseen} unseen)"
    elif "money_unseen" not in seat and count:
        label += f" · value {b.state.hand_value(p)}"
    elif count:
        label += f" · value {_value(known)}"
    sheet.text(x + 10, my + 12, label, size=11, fill=FAINT)
    keyed = mover and b.phase not in DISPLAY_MONEY_PHASES
    for i, t in enumerate(known):
        line, col = divmod(i, per)
        mx0, my0 = x + 10 + col * (MONEY_W + 4), my + 22 + line * (MONEY_H + 4)
        _money_card(sheet, mx0, my0, t, data_hand=str(p))
        if keyed:
            sheet.key(t, mx0, my0, MONEY_W, MONEY_H)
    for i in range(len(known), count):
        line, col = divmod(i, per)
        _money_back(sheet, x + 10 + col * (MONEY_W + 4), my + 22 + line * (MONEY_H + 4))
    if not count:
        sheet.text(x + 10, my + 32, "none", size=11, fill=LINE)
    hx0 = MARGIN + 330
    sheet.text(hx0, my + 12, f"hand · {len(seat['hand'])} building{'s' if len(seat['hand']) != 1 else ''}",
               size=11, fill=FAINT)
    for cid, (line, cx0) in zip(seat["hand"], hand_pos):
        _card(sheet, b, cx0, my + 22 + line * (CARD_H + 6), cid)
    if not seat["hand"]:
        sheet.text(hx0, my + 32, "none", size=11, fill=LINE)
    # The row, left to right, with the filled icons.
    ry = my + block
    sheet.text(x + 10, ry + 12, "row, left to right (L and R: the ends a building goes to)", size=11, fill=FAINT)
    # The bonus tokens won (a complete production line; their AP count at the game end).
    if seat.get("bonus"):
        ap = {t["good"]: t.get("ap") for t in b.ed.get("bonus_tokens", [])}
        labels = [f"{_product(good)} {ap.get(good, '?')}" for good in seat["bonus"]]
        bx = x + w - 8 - sum(8 + _width(s, 10) + 4 for s in labels)
        sheet.text(bx - 4, ry + 12, "bonus tokens", size=11, fill=FAINT, anchor="end")
        for label in labels:
            bx += _chip(sheet, bx, ry + 1, label, fill="#f7e3a1", ink="#7d6608") + 4
    cy = ry + 22
    building = mover and b.phase in ("BUILD1", "BUILD2")
    for end, ex, ey in (("L", x + 8, cy), ("R", None, None)):
        if end == "R":
            if row_pos:
                line, lx = row_pos[-1]
                ex, ey = lx + CARD_W + 4, cy + line * (CARD_H + 6)
            else:
                ex, ey = x + 32, cy
        sheet.rect(ex, ey, 18, CARD_H, fill="#f2f0ea", stroke="none", rx=3)
        sheet.text(ex + 9, ey + CARD_H / 2 + 4, end, size=11, bold=True, fill=FAINT, anchor="middle")
        if building:
            sheet.key(end, ex, ey, 18, CARD_H)
    for cid, (line, cx0) in zip(seat["row"], row_pos):
        _card(sheet, b, cx0, cy + line * (CARD_H + 6), cid, filled=seat.get("filled", {}).get(cid, []),
              icon_keys=mover)
    return h


def _seats(sheet: Sheet, b: _Board):
    y = sheet.y + 4
    for p in range(b.n):
        h = _seat(sheet, b, p, y)
        y += h + GAP + 4
    sheet.y = y


# --- the sheet ------------------------------------------------------------------------------------

def _layout(state, viewpoint=None) -> Sheet:
    """The board of `state` laid out on a Sheet (its keys are the boxes moves can name)."""
    b = _Board(state, viewpoint)
    season = SEASONS[b.doc["season"]] if 0 <= b.doc["season"] < 4 else b.doc["season"]
    title = f"Craftsmen · {b.n} players · year {b.doc['year']} · {season}"
    if b.view is not None:
        title += f" · seat {b.view}'s view"
    sheet = Sheet(WIDTH, title)
    _header(sheet, b)
    _guilds(sheet, b)
    _buildings(sheet, b)
    _goods(sheet, b)
    _seats(sheet, b)
    return sheet


def draw(state, marks=None, viewpoint=None) -> str:
    """The board of `state` as SVG text. `viewpoint`: a seat, to draw only what it knows (a
    viewpoint state is always drawn as its own seat's view). `marks`: {"played": move, "best":
    move} in notation; the boxes each move names are outlined (see the module docstring)."""
    return _layout(state, viewpoint).svg(marks=marks)

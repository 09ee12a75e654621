"""The Leonardo da Vinci board as SVG (`atelier show POS --svg FILE`, the review page), laid out on
the shared `Sheet` (atelier.drawing): a header (turn, phase, who decides or chance or the end,
Leonardo, the Council pot, the scores), the city areas A-H with the lines of groups (and the
Council's actions, the Workshop's offers, the Academy's stock, the shops' materials and price
marker), the inventions in the row with their materials, weeks and rewards, the deck, then one
panel per seat: Florins and score, workers, materials, the small and large lab (spaces with
mechanical men and workers, the invention researched and its weeks) and the cards won.

Hidden information (rules §3.3): the picture is drawn from `position_dict(state, viewpoint)`, so
with `viewpoint` a seat, or on a state that is a seat's view, only what that seat knows is drawn:
opponents' hands become their public material totals, their face-down labs show neither card
nor materials (only how many cards they may be), the deck only its size, other seats' sealed bids
only that they are in. A full state without a viewpoint is drawn whole (the deck order included).

Highlighting: the boxes a move's notation names are keyed under its tokens (docs/notation.md):
the areas under their letters `a`..`h` (not while favours are picked: there `a`..`d` are the
favours, keyed on the favour strip with `d1`..`d4`), the seat to move's labs under `small` /
`large` (a missing large lab's empty place too, for `buy:take:large`), the shops' materials under
their kind names, the Workshop's offers under `flip` / `take` / `mech`, the Academy under
`recruit`, the Council's actions under `1`..`4` while they are claimed, the seat panels under
their numbers while Leonardo is given or a Codex move is chosen, and the cards under their
numbers only where a number in a move is a card (a start in Phase A, a reorder, a refill draw):
elsewhere `place:d:2` or `bid:12` would light up cards 2 and 12.
"""
from __future__ import annotations

from ...drawing import (FAINT, INK, LINE, Sheet, text_width as _width, fit_text as _fit,
                       chip_width as _chip_w, tint as _tint)
from .position_dump import AREAS, COLOURS, LABS, position_dict
from ...wording import count
from .cards import card_info
from .render import AREA_NAMES, PRICES

WIDTH = 960
MARGIN = 12
GAP = 10
INNER = WIDTH - 2 * MARGIN
CHIP_H = 17          # a chip of size 11

PHASES = {"FAVOUR": "favour picks", "LAB": "A Laboratory", "PLACE": "B Assignment",
          "CLAIM": "C Council claims", "GIFT": "C Leonardo's gift", "CMOVE": "C Council move",
          "REORDER": "C Council look", "MATERIAL": "C Council material", "AREA": "C Employment",
          "BID": "D Research auction", "DRAW": "refill draw", "GAME_OVER": "game over"}
COUNCIL_ACTIONS = ("1 move", "2 pot", "3 look", "4 buy")
FAVOUR_OPTIONS = (("a", "a +5 Fl"), ("b", "b 4 materials"), ("c", "c +1 apprentice"),
                  ("d1", "d1 flip small"), ("d2", "d2 take large"), ("d3", "d3 flip large"),
                  ("d4", "d4 mech. man"))
TIER_FILL = {"bronze": "#a97142", "copper": "#c0603a", "silver": "#8e9aa6", "gold": "#c9a100"}
MATERIAL_FILL = {"iron": "#aeb6bf", "glass": "#aed6f1", "wood": "#d7b48a", "brick": "#e59866",
                 "rope": "#f4e19c"}
OTHER_FILL = ("#d5dbdb", "#d6eaf8", "#e8daef", "#fdebd0", "#d5f5e3")
ACTIVE = "#34495e"
MECH = "#5d6d7e"
GOLD = "#b7950b"
STRIP = "#efeadf"

AREA_W = (INNER - 3 * GAP) / 4
AREA_H = 98
CARD_W, CARD_H, CARD_GAP = 146, 128, 8
SEAT_W = (INNER - GAP) / 2
LAB_W = (SEAT_W - 8 * 2 - GAP) / 2
LAB_H = 124


# --- text helpers -------------------------------------------------------------------------------


def _florins(n) -> str:
    return count(n, 'Florin')


def _seat_name(p) -> str:
    return f"seat {p} ({COLOURS[p]})" if 0 <= p < len(COLOURS) else f"seat {p}"


def _material_fill(kind, kinds) -> str:
    if kind in MATERIAL_FILL:
        return MATERIAL_FILL[kind]
    i = list(kinds).index(kind) if kind in kinds else 0
    return OTHER_FILL[i % len(OTHER_FILL)]


class _Ctx:
    """What the parts of the picture share: the position, its cards and who decides."""

    def __init__(self, state, doc):
        self.state, self.doc = state, doc
        self.game = state.game
        self.kinds = list(self.game.kinds)
        self.cards: dict = {}
        self.terminal = state.is_terminal()
        self.chance = state.is_chance()
        cp = state.current_player
        self.mover = cp if not self.terminal and not self.chance and cp >= 0 else None
        self.phase = doc["phase"]
        self.scores = list(state.scores())

    def card(self, x: int) -> dict:
        if x not in self.cards:
            self.cards[x] = card_info(self.game, x)
        return self.cards[x]

    @property
    def cards_keyed(self) -> bool:
        """Is a number in this position's moves a card (a start, a reorder, a draw)?"""
        return self.phase in ("LAB", "REORDER", "DRAW") or self.chance


def _mat_chip(sheet: Sheet, ctx: _Ctx, x, y, kind, n=None, size=11, faint=False) -> float:
    label = kind if n is None else f"{kind} {n}"
    fill = _material_fill(kind, ctx.kinds)
    return sheet.chip(x, y, label, fill=_tint(fill, 0.6) if faint else fill,
                      ink=FAINT if faint else INK, size=size)


# --- header -------------------------------------------------------------------------------------

def _who(ctx: _Ctx) -> tuple[str, str]:
    """The line saying who decides what (or chance, or the end), and its colour."""
    doc, pr = ctx.doc, ctx.doc["progress"]
    if ctx.terminal:
        win = ctx.state.winners()
        s = ("winner: " if len(win) == 1 else "shared win: ") + ", ".join(_seat_name(p) for p in win)
        return "game over · " + s, ctx.sheet.seat(win[0]) if len(win) == 1 else INK
    if ctx.chance:
        return "chance: the next deck card refills the row", FAINT
    p = ctx.mover
    what = {"FAVOUR": "picks a favour",
            "LAB": "keeps, cancels or starts an invention in a lab",
            "PLACE": "places apprentices or the master, or passes",
            "CLAIM": "claims a Council action, or declines",
            "GIFT": "gives Leonardo to a seat",
            "CMOVE": ("moves an apprentice (Codex)" if doc["codex"]
                      else "moves an apprentice from the Council to an area"),
            "REORDER": "puts the top cards of the deck back in an order",
            "MATERIAL": "pays 1 Florin for 1 material (Council)",
            "BID": "makes a sealed bid"}.get(ctx.phase, "to move")
    if ctx.phase == "AREA" and pr["area"]:
        a = AREAS.index(pr["area"])
        what = f"buys in {pr['area']} {AREA_NAMES[a]} at {_florins(PRICES[pr['price']])}, or passes"
    if ctx.phase == "BID" and pr["pending"]:
        what = f"makes a sealed bid for card {pr['pending'][pr['pending_index']]['card']}"
    return f"{_seat_name(p)} {what}", ctx.sheet.seat(p)


def _header(sheet: Sheet, ctx: _Ctx):
    doc = ctx.doc
    x, y, w = MARGIN, MARGIN, INNER
    view = "viewpoint" in doc
    favour = ctx.phase == "FAVOUR"
    h = 78 + (18 if view else 0) + (26 if favour else 0)
    sheet.panel(x, y, w, h)
    title = "Leonardo da Vinci"
    sheet.text(x + 10, y + 24, title, size=18, bold=True)
    turn = "setup" if doc["turn"] == 0 else f"turn {doc['turn']} of 9"
    if doc["turn"] >= 8:
        turn += " (pure research)"
    sub = (f"{doc['players']} players · {doc['setup']} setup{' · Codex' if doc['codex'] else ''}"
           f" · {turn} · phase {PHASES.get(ctx.phase, ctx.phase)}")
    tx = x + 24 + _width(title, 18, True)
    _fit(sheet, tx, y + 24, sub, x + w - 10 - tx, size=13)
    # Who decides; Leonardo.
    ty = y + 46
    text, colour = _who(ctx)
    if ctx.mover is not None:
        sheet.circle(x + 16, ty - 4, 6, sheet.seat(ctx.mover))
        _fit(sheet, x + 28, ty, "▶ " + text, 600, size=13, bold=True, fill=colour)
    else:
        _fit(sheet, x + 10, ty, text, 620, size=13, bold=True, fill=colour)
    lx = x + w - 10
    sheet.text(lx, ty, f"Leonardo: {_seat_name(doc['leonardo'])}", size=13, bold=True,
               fill=sheet.seat(doc["leonardo"]), anchor="end")
    # Scores at a glance.
    sy = y + 68
    sheet.text(x + 10, sy, "score", size=11, fill=FAINT)
    sx = x + 48
    for p in range(doc["players"]):
        label = f"{p} {COLOURS[p]} {ctx.scores[p]}"
        sheet.rect(sx, sy - 10, 10, 10, fill=sheet.seat(p), stroke="none", rx=2)
        sheet.text(sx + 14, sy, label, size=11, bold=(p == ctx.mover))
        sx += 26 + _width(label, 11, p == ctx.mover)
    sheet.text(x + w - 10, sy, "score = Florins + type bonus (3/4/5 types: +8/+13/+20)",
               size=10, fill=FAINT, anchor="end")
    yy = sy
    if view:
        yy += 18
        _fit(sheet, x + 10, yy, f"viewpoint of {_seat_name(doc['viewpoint'])}: opponents' hands and "
             "face-down labs, the deck order, other seats' looks and sealed bids are not shown",
             w - 20, size=11, fill=FAINT)
    if favour:
        yy += 8
        sheet.text(x + 10, yy + 13, "favours", size=11, fill=FAINT)
        fx = x + 64
        for token, label in FAVOUR_OPTIONS:
            cw = sheet.chip(fx, yy, label, fill="#fcf3cf")
            sheet.key(token, fx, yy, cw, CHIP_H)
            fx += cw + 10
    sheet.y = y + h + GAP


# --- city ---------------------------------------------------------------------------------------

def _group_chip(sheet: Sheet, x, y, g, faded=False) -> float:
    label = f"{g['apprentices']}" if g["apprentices"] else ""
    if g["master"]:
        label = f"{label}+M" if label else "M"
    colour = sheet.seat(g["seat"])
    return sheet.chip(x, y, label, fill=_tint(colour, 0.65) if faded else colour, ink="#ffffff", size=11)


def _area(sheet: Sheet, ctx: _Ctx, a, x, y):
    doc, pr = ctx.doc, ctx.doc["progress"]
    letter = AREAS[a]
    now = ctx.phase == "AREA" and pr["area"] == letter
    council_now = letter == "A" and ctx.phase in ("CLAIM", "GIFT", "CMOVE", "REORDER", "MATERIAL")
    hot = now or council_now
    sheet.rect(x, y, AREA_W, AREA_H, fill="#ffffff", stroke=ACTIVE if hot else LINE, width=2.5 if hot else 1.0)
    sheet.rect(x, y, AREA_W, 20, fill=ACTIVE if hot else STRIP, stroke="none")
    ink = "#ffffff" if hot else INK
    sheet.text(x + 8, y + 15, f"{letter}  {AREA_NAMES[a]}", size=12, bold=True, fill=ink)
    if now:
        sheet.text(x + AREA_W - 8, y + 15, f"◀ now · {PRICES[pr['price']]} Fl", size=11, bold=True,
                   fill=ink, anchor="end")
    elif council_now:
        sheet.text(x + AREA_W - 8, y + 15, "◀ now", size=11, bold=True, fill=ink, anchor="end")
    if ctx.phase != "FAVOUR":
        sheet.key(letter, x, y, AREA_W, AREA_H)
    # The line, arrow first.
    ly = y + 26
    sheet.text(x + 8, ly + 13, "▶", size=11, fill=FAINT)
    gx = x + 22
    groups = doc["city"][letter]
    passed = set(pr["area_passed"]) if now else set()
    for g in groups:
        gx += _group_chip(sheet, gx, ly, g, faded=g["seat"] in passed) + 4
    if not groups:
        sheet.text(gx, ly + 13, "—", size=11, fill=LINE)
    # What the area offers.
    oy = y + 50
    if letter == "A":
        cx = x + 8
        for i, label in enumerate(COUNCIL_ACTIONS):
            who = pr["claimed"][str(i + 1)]
            colour = sheet.seat(who) if who is not None else "#e8e4da"
            cw = sheet.chip(cx, oy, label, fill=colour, ink="#ffffff" if who is not None else INK)
            if ctx.phase == "CLAIM":
                sheet.key(str(i + 1), cx, oy, cw, CHIP_H)
            cx += cw + 4
        _fit(sheet, x + 8, y + AREA_H - 10, f"pot {_florins(doc['pot'])} · claimed: in the seat's colour",
             AREA_W - 16, size=10, fill=FAINT)
    elif letter == "B":
        cx = x + 8
        for token, label in (("flip", "flip lab"), ("take", "take large"),
                             ("mech", f"mech {doc['mechanical_men_supply']}")):
            cw = sheet.chip(cx, oy, label, fill="#e8e4da")
            sheet.key(token, cx, oy, cw, CHIP_H)
            cx += cw + 4
        _price_track(sheet, x, y, now, pr)
    elif letter == "C":
        sheet.text(x + 8, oy + 13, "stock", size=11, fill=FAINT)
        cx = x + 44
        for p, n in enumerate(doc["academy"]):
            cw = sheet.chip(cx, oy, str(n), fill=sheet.seat(p), ink="#ffffff")
            cx += cw + 3
        sheet.key("recruit", x + 4, oy - 1, cx - x - 5, CHIP_H + 2)
        _price_track(sheet, x, y, now, pr)
    else:
        kind = ctx.kinds[a - 3] if a - 3 < len(ctx.kinds) else None
        if kind is not None:
            n = doc["shops"].get(kind, 0)
            cw = _mat_chip(sheet, ctx, x + 8, oy, kind, n, faint=not n)
            sheet.key(kind, x + 8, oy, cw, CHIP_H)
            bx = x + 16 + cw
            for i in range(min(n, 12)):
                sheet.rect(bx + i * 9, oy + 4, 7, 10, fill=_material_fill(kind, ctx.kinds), stroke="#8c8c8c",
                           width=0.6, rx=1)
        _price_track(sheet, x, y, now, pr)


def _price_track(sheet: Sheet, x, y, now, pr):
    """The price marker: 0, 2, 3, 4 Florins, the next price dark while the area resolves."""
    ty = y + AREA_H - 24
    sheet.text(x + 8, ty + 13, "price", size=10, fill=FAINT)
    cx = x + 44
    for i, p in enumerate(PRICES):
        cur = now and pr["price"] == i
        cw = sheet.chip(cx, ty, str(p), fill=ACTIVE if cur else "#f2f0ea", ink="#ffffff" if cur else FAINT,
                        size=10)
        cx += cw + 3
    if now and pr["area_passed"]:
        sheet.text(cx + 6, ty + 12, "pale: passed", size=10, fill=FAINT)


def _city(sheet: Sheet, ctx: _Ctx):
    y = sheet.y
    sheet.text(MARGIN, y + 14, "City", size=14, bold=True)
    sheet.text(MARGIN + 12 + _width("City", 14, True), y + 14, "each area's line, ▶ first next to the arrow; a group: apprentices "
               "+M master, in its seat's colour", size=11, fill=FAINT)
    y += 22
    for a in range(8):
        r, c = divmod(a, 4)
        _area(sheet, ctx, a, MARGIN + c * (AREA_W + GAP), y + r * (AREA_H + GAP))
    sheet.y = y + 2 * (AREA_H + GAP)


# --- inventions and deck --------------------------------------------------------------------------

def _card_box(sheet: Sheet, ctx: _Ctx, x, y, number):
    c = ctx.card(number)
    fill = TIER_FILL.get(c["tier"], "#7f8c8d")
    sheet.rect(x, y, CARD_W, CARD_H, fill="#ffffff", stroke=fill, width=1.5)
    sheet.rect(x, y, CARD_W, 22, fill=fill, stroke="none")
    sheet.text(x + 8, y + 17, str(number), size=15, bold=True, fill="#ffffff")
    sheet.text(x + CARD_W - 8, y + 16, c["tier"], size=11, fill="#ffffff", anchor="end")
    _fit(sheet, x + 8, y + 38, c["name"], CARD_W - 16, size=11, bold=True)
    _fit(sheet, x + 8, y + 53, f"type {c['type']} {c['type_name']}", CARD_W - 16, size=10, fill=FAINT)
    mx = x + 8
    for k, n in c["mats"].items():
        mx += _mat_chip(sheet, ctx, mx, y + 60, k, n if n > 1 else None, size=10) + 4
    sheet.text(x + 8, y + 98, count(c['weeks'], 'week'), size=11)
    sheet.text(x + 8, y + CARD_H - 10, "reward", size=10, fill=FAINT)
    sheet.text(x + CARD_W - 8, y + CARD_H - 10, f"{c['reward_first']} / {c['reward_later']} Fl",
               size=12, bold=True, anchor="end")
    sheet.text(x + CARD_W - 8, y + 98, "first / later", size=9, fill=FAINT, anchor="end")
    if ctx.cards_keyed:
        sheet.key(str(number), x, y, CARD_W, CARD_H)


def _deck_box(sheet: Sheet, ctx: _Ctx, x, y, w) -> float:
    """The deck; returns its height."""
    doc = ctx.doc
    deck = doc["deck"]
    full = isinstance(deck, list)
    size = len(deck) if full else deck["cards"]
    shown, what = (deck, "top first") if full else (deck.get("top", []), "you look at, top first")
    # Lay out the visible cards first, to know the height.
    chips, cx, cy = [], x + 8, y + 68
    for c in shown:
        cw = _chip_w(c, 10)
        if cx + cw > x + w - 6:
            cx, cy = x + 8, cy + 19
        chips.append((c, cx, cy, cw))
        cx += cw + 4
    h = max(CARD_H, (cy + 22 - y) if shown else CARD_H)
    sheet.rect(x, y, w, h, fill="#f7f4ec", stroke=LINE)
    if ctx.chance:
        sheet.key("draw", x, y, w, h)
    sheet.text(x + 8, y + 17, "Deck", size=13, bold=True)
    sheet.text(x + w - 8, y + 17, count(size, 'card'), size=13, bold=True, anchor="end")
    pl = doc["piles"]
    _fit(sheet, x + 8, y + 34, f"from piles: top {pl['top']} · middle {pl['middle']} · bottom {pl['bottom']}",
         w - 16, size=10, fill=FAINT)
    if shown:
        sheet.text(x + 8, y + 52, what, size=10, fill=FAINT)
        for c, cx, cy, cw in chips:
            sheet.chip(cx, cy, str(c), fill=_tint(TIER_FILL.get(ctx.card(c)["tier"], "#7f8c8d"), 0.55), size=10)
            if ctx.cards_keyed:
                sheet.key(str(c), cx, cy, cw, 16)
    elif size:
        sheet.text(x + 8, y + 52, "order hidden", size=10, fill=FAINT)
    else:
        sheet.text(x + 8, y + 52, "empty", size=10, fill=FAINT)
    return h


def _inventions(sheet: Sheet, ctx: _Ctx):
    doc, pr = ctx.doc, ctx.doc["progress"]
    y = sheet.y
    sheet.text(MARGIN, y + 14, "Inventions on offer", size=14, bold=True)
    hx = MARGIN + 12 + _width("Inventions on offer", 14, True)
    _fit(sheet, hx, y + 14, "number, tier, name, type, materials, weeks of work; reward on completion, "
         "first / later", MARGIN + INNER - hx, size=11, fill=FAINT)
    y += 22
    row = doc["row"]
    for i, c in enumerate(row):
        _card_box(sheet, ctx, MARGIN + i * (CARD_W + CARD_GAP), y, c)
    slots = max(ctx.game.row_size, len(row))
    for i in range(len(row), slots):
        x = MARGIN + i * (CARD_W + CARD_GAP)
        sheet.rect(x, y, CARD_W, CARD_H, fill="none", stroke=LINE, stroke_dasharray="4,3")
        sheet.text(x + CARD_W / 2, y + CARD_H / 2, "empty", size=11, fill=LINE, anchor="middle")
    dx = MARGIN + slots * (CARD_W + CARD_GAP) + 2
    h = _deck_box(sheet, ctx, dx, y, MARGIN + INNER - dx)
    y += h + 8

    def nums(xs):
        return " ".join(map(str, xs)) or "—"
    _fit(sheet, MARGIN, y + 12, f"completed by anyone: {nums(doc['completed_any'])} · out of the game (box): "
         f"{nums(doc['box'])} · discards: {nums(doc['discards'])}", INNER, size=11, fill=FAINT)
    y += 18
    if pr["pending"]:
        y = _awards(sheet, ctx, y)
    sheet.y = y + GAP


def _awards(sheet: Sheet, ctx: _Ctx, y) -> float:
    """The cards completed this Phase D and their auctions, with the sealed bids in."""
    doc, pr = ctx.doc, ctx.doc["progress"]
    n = doc["players"]
    sheet.text(MARGIN, y + 13, "Research awards", size=12, bold=True)
    x = MARGIN + 124
    for i, e in enumerate(pr["pending"]):
        now = i == pr["pending_index"] and ctx.phase == "BID"
        done = i < pr["pending_index"]
        label = f"card {e['card']}: " + ("taken by " if len(e["seats"]) == 1 else "auction ")
        w = _fit(sheet, x, y + 13, label, 200, size=11, bold=now, fill=FAINT if done else INK)
        x += w + 4
        order = [(doc["leonardo"] + j) % n for j in range(n)]
        bidders = [q for q in order if q in e["seats"]]
        for j, q in enumerate(bidders):
            text = str(q)
            if now and j < pr["index"]:
                bid = pr["bids"].get(str(q))
                text += f" bid {bid}" if bid is not None else " bid in"
            cw = sheet.chip(x, y, text, fill=sheet.seat(q), ink="#ffffff")
            x += cw + 4
        x += 14
    return y + 22


# --- seats --------------------------------------------------------------------------------------

def _lab(sheet: Sheet, ctx: _Ctx, p, seat, which, x, y, keyed):
    lab = seat["labs"][which]
    colour = sheet.seat(p)
    if keyed:
        sheet.key(which, x, y, LAB_W, LAB_H)
    if lab is None:
        sheet.rect(x, y, LAB_W, LAB_H, fill="none", stroke=LINE, stroke_dasharray="4,3")
        sheet.text(x + 8, y + 16, f"{which} lab", size=11, bold=True, fill=FAINT)
        sheet.text(x + 8, y + 34, "not owned (Workshop or favour)", size=10, fill=FAINT)
        return
    card = lab["card"]
    working = card is not None
    sheet.rect(x, y, LAB_W, LAB_H, fill="#ffffff", stroke=colour if working else LINE,
               width=1.5 if working else 1.0)
    side = lab["side"]
    sheet.text(x + 8, y + 16, f"{which} lab · side {side}", size=11, bold=True)
    if not working:
        status, fill, ink = "idle", "#f2f0ea", FAINT
    elif card == "hidden" or not lab["revealed"]:
        status, fill, ink = "face down", ACTIVE, "#ffffff"
    elif lab["continuing"]:
        status, fill, ink = "continuing", GOLD, "#ffffff"
    else:
        status, fill, ink = "revealed", GOLD, "#ffffff"
    cw = _chip_w(status, 10)
    sheet.chip(x + LAB_W - 6 - cw, y + 4, status, fill=fill, ink=ink, size=10)
    # Spaces: the master and apprentices from the left, the mechanical-man spaces (dashed when
    # free) at the right end, the mechanical men on them.
    sx, sy, s = x + 8, y + 24, 16
    mech_spaces = {3: 0, 5: 1, 4: 0, 6: 2}.get(side, 0)
    slots: list = [None] * side
    for i in range(min(lab["mechanical_men"], side)):
        slots[side - 1 - i] = "mech"
    free = (i for i in range(side) if slots[i] is None)
    for f in ["master"] * bool(lab["master"]) + ["app"] * lab["apprentices"]:
        i = next(free, None)
        if i is not None:
            slots[i] = f
    for i, f in enumerate(slots):
        dash = {"stroke_dasharray": "2,2"} if i >= side - mech_spaces and f is None else {}
        if f == "mech":
            sheet.rect(sx, sy, s, s, fill=MECH, stroke="none", rx=3)
            sheet.text(sx + s / 2, sy + 12, "⚙", size=11, fill="#ffffff", anchor="middle")
        elif f in ("master", "app"):
            sheet.rect(sx, sy, s, s, fill=colour, stroke="none", rx=3)
            if f == "master":
                sheet.text(sx + s / 2, sy + 12, "M", size=10, bold=True, fill="#ffffff", anchor="middle")
        else:
            sheet.rect(sx, sy, s, s, fill="#ffffff", stroke="#9a9a9a", width=0.8, rx=3, **dash)
        sx += s + 3
    weeks_now = lab["apprentices"] + 2 * lab["master"] + 2 * lab["mechanical_men"]
    if working:
        sheet.text(sx + 4, sy + 12, f"+{weeks_now} wk/turn", size=10, fill=FAINT)
    # The invention.
    iy = y + 56
    if not working:
        sheet.text(x + 8, iy, "no invention", size=11, fill=FAINT)
        return
    if card == "hidden":
        cand = lab.get("cand") or []
        what = "one of " + " ".join(map(str, cand)) if len(cand) <= 6 else f"one of {count(len(cand), 'card')}"
        _fit(sheet, x + 8, iy, f"hidden card ({what})", LAB_W - 16, size=11, bold=True, fill=FAINT)
        weeks = None
    else:
        c = ctx.card(card)
        _fit(sheet, x + 8, iy, f"{card} {c['name']}", LAB_W - 16, size=11, bold=True)
        mx = x + 8
        mats = lab.get("materials") or {}
        for k, n in mats.items():
            mx += _mat_chip(sheet, ctx, mx, iy + 5, k, n if n > 1 else None, size=10) + 3
        if not mats:
            sheet.text(mx, iy + 17, "no materials", size=10, fill=FAINT)
        note = f"{c['tier']} · type {c['type']} {c['type_name']}"
        if not lab["revealed"]:
            note = f"{c['tier']} · type {c['type']} · others: 1 of {len(lab.get('cand') or [])}"
        _fit(sheet, x + 8, iy + 36, note, LAB_W - 16, size=10, fill=FAINT)
        same = sum(1 for o in seat["owned"] if ctx.card(o)["type"] == c["type"])
        weeks = max(0, c["weeks"] - 2 * same)
    # The week track 0..15 and the counter.
    ty = y + LAB_H - 22
    counter = lab["counter"]
    tw = LAB_W - 16
    sheet.rect(x + 8, ty, tw, 7, fill="#f2f0ea", stroke="none", rx=3)
    if counter:
        sheet.rect(x + 8, ty, tw * min(counter, 15) / 15, 7, fill=colour, stroke="none", rx=3)
    if weeks is not None:
        mx = x + 8 + tw * min(weeks, 15) / 15
        sheet.line(mx, ty - 3, mx, ty + 10, stroke=INK, width=1.5)
    text = f"week {counter}" + (f" of {weeks}" if weeks is not None else "")
    if weeks is not None and weeks < ctx.card(card)["weeks"]:
        text += f" ({ctx.card(card)['weeks']} − 2 per owned type {ctx.card(card)['type']})"
    _fit(sheet, x + 8, y + LAB_H - 4, text + f" · started turn {lab['start_turn']}", LAB_W - 16, size=10,
         fill=FAINT)


def _seat_height(ctx: _Ctx) -> float:
    h = 26 + 16 + 18 + 24 + LAB_H + 8 + 22 + 8
    if ctx.doc["turn"] == 0:
        h += 16
    return h


def _seat(sheet: Sheet, ctx: _Ctx, p, x, y, h):
    doc = ctx.doc
    seat = doc["seats"][p]
    colour = sheet.seat(p)
    mover = ctx.mover == p
    if mover:
        sheet.rect(x - 3, y - 3, SEAT_W + 6, h + 6, fill="none", stroke=colour, width=3, rx=6)
    if ctx.phase in ("GIFT", "CMOVE"):
        sheet.key(str(p), x, y, SEAT_W, h)
    top = sheet.panel(x, y, SEAT_W, h, title=f"Seat {p} · {COLOURS[p]} · score {ctx.scores[p]}",
                      colour=colour, fill=_tint(colour, 0.92) if mover else "#ffffff")
    flags = []
    if mover:
        flags.append("▶ TO MOVE")
    if doc["leonardo"] == p:
        flags.append("Leonardo")
    if seat["passed"] and ctx.phase == "PLACE":
        flags.append("passed")
    if ctx.terminal and p in ctx.state.winners():
        flags.append("WINNER")
    if flags:
        sheet.text(x + SEAT_W - 8, y + 14, "  ·  ".join(flags), size=12, bold=True, fill="#ffffff", anchor="end")
    # Florins and the score.
    ly = top + 12
    money = _florins(seat["money"])
    sheet.text(x + 8, ly, money, size=14, bold=True)
    sd = ctx.state.score_detail(p)
    _fit(sheet, x + 16 + _width(money, 14, True), ly,
         f"score {sd['total']} = {_florins(sd['money'])} + type bonus {sd['type_bonus']} ({sd['types']} types)",
         SEAT_W - 32 - _width(money, 14, True), size=11, fill=FAINT)
    # Workers.
    ly += 18
    mech = sum(lab["mechanical_men"] for lab in seat["labs"].values() if lab)
    _fit(sheet, x + 8, ly, f"apprentices {seat['apprentices_free']} free of {seat['apprentices']} · master "
         f"{'free' if seat['master_free'] else 'placed'} · mechanical men {mech} · in the Academy "
         f"{doc['academy'][p]}", SEAT_W - 16, size=11)
    # Materials.
    my = ly + 6
    private = "hand" in seat
    label = "hand" if private else "hand+labs"
    sheet.text(x + 8, my + 13, label, size=11, fill=FAINT)
    mx = x + 8 + _width(label, 11) + 6
    mats = seat["hand"] if private else seat["materials"]
    for k in ctx.kinds:
        n = mats.get(k, 0)
        mx += _mat_chip(sheet, ctx, mx, my, k, n, faint=not n) + 4
    if not private:
        sheet.text(mx + 4, my + 13, "(public totals)", size=10, fill=FAINT)
    # Labs.
    lyy = my + 24
    for i, which in enumerate(LABS):
        _lab(sheet, ctx, p, seat, which, x + 8 + i * (LAB_W + GAP), lyy, keyed=mover)
    # Cards.
    cy = lyy + LAB_H + 8
    sheet.text(x + 8, cy + 13, "won", size=11, fill=FAINT)
    cx = x + 40
    for c in seat["owned"]:
        card = ctx.card(c)
        cw = sheet.chip(cx, cy, f"{c} {card['type']}", fill=_tint(TIER_FILL.get(card["tier"], "#7f8c8d"), 0.5))
        cx += cw + 4
    if not seat["owned"]:
        sheet.text(cx, cy + 13, "—", size=11, fill=LINE)
        cx += 14
    cx += 12
    done = " ".join(map(str, seat["completed"])) or "—"
    _fit(sheet, cx, cy + 13, f"completed: {done}", x + SEAT_W - 8 - cx, size=11, fill=FAINT)
    if doc["turn"] == 0:
        fav = " · ".join(f"{k} {n}" for k, n in seat["favours"].items() if n) or "none yet"
        sheet.text(x + 8, cy + 32, f"favours picked: {fav}", size=11, fill=FAINT)


def _seats(sheet: Sheet, ctx: _Ctx):
    n = ctx.doc["players"]
    y = sheet.y + 4
    h = _seat_height(ctx)
    for r in range(0, n, 2):
        for j, p in enumerate(range(r, min(r + 2, n))):
            _seat(sheet, ctx, p, MARGIN + j * (SEAT_W + GAP), y, h)
        y += h + GAP + 4
    sheet.y = y


def _layout(state, viewpoint=None) -> Sheet:
    """The board of `state` (as `viewpoint` knows it) laid out on a Sheet, its boxes keyed."""
    doc = position_dict(state, viewpoint=viewpoint)
    title = f"Leonardo da Vinci · {doc['players']} players · turn {doc['turn']} · {doc['phase']}"
    if "viewpoint" in doc:
        title += f" · seat {doc['viewpoint']}'s view"
    sheet = Sheet(WIDTH, title)
    ctx = _Ctx(state, doc)
    ctx.sheet = sheet
    _header(sheet, ctx)
    _city(sheet, ctx)
    _inventions(sheet, ctx)
    _seats(sheet, ctx)
    return sheet


def draw(state, marks=None, viewpoint=None) -> str:
    """The board of `state` as SVG text: all of a full state, or what seat `viewpoint` knows (a
    state that is a seat's view is always drawn as that view). `marks`: {"played": move, "best":
    move} in notation; the boxes each move names are outlined (see the module docstring)."""
    return _layout(state, viewpoint=viewpoint).svg(marks=marks)

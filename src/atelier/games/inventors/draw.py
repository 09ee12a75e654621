"""The board as SVG (`atelier show POS --svg FILE`, the review page): a header, the display, then
one panel per seat, laid out on the shared `Sheet` (atelier.drawing).

Highlighting: every box a move's notation can name is registered under that token: a display
card (or the completed card) under its card id, an inventor's row under the inventor id, the
completed card's rewards under `card` and their token kinds (`take:card`, `take:P3`), and the
tokens in the hand of the seat to move under their kinds (`front:P3:...`, `back:VP1:...`; its AV
also under `avail`). The tokens lying on uncompleted display cards are not keyed: no move names
them, and keying them would light up the wrong chips for `take:P3` or `front:P3:...`.
"""
from __future__ import annotations

from ...drawing import (FAINT, INK, LINE, Sheet, colours_named, text_width as _width,
                       fit_text as _fit, chip_width as _chip_w, tint as _tint)
from .edition import TOKEN_KINDS, TYPE_NAMES
from .position_dump import position_dict

WIDTH = 960
MARGIN = 12
GAP = 10
DISC = ("P", "C", "M", "Ma")
AGES = {1: "I", 2: "II", 3: "III"}
PHASES = {"CHANCE_REVEAL": "reveal next", "MAIN": "main", "REWARD": "rewards", "TERMINAL": "game over"}

# Token chips by family: progress (P2-P4), points (VP1-VP3), availability, knowledge, star.
TOKEN_FILL = {"P": ("#d6e4f0", "#1b4f72"), "V": ("#f7e3a1", "#7d6608"), "AV": ("#d5efd8", "#1e8449"),
              "AK": ("#e8daef", "#6c3483"), "ST": ("#fadbd8", "#922b21")}
TYPE_FILL = ("#f5b7b1", "#aed6f1", "#a9dfbf", "#f9e79f", "#d7bde2", "#f8c471")

CARDS_PER_ROW = 4
CARD_H = 168
CARD_W = (WIDTH - 2 * MARGIN - (CARDS_PER_ROW - 1) * GAP) / CARDS_PER_ROW
SEAT_W = (WIDTH - 2 * MARGIN - GAP) / 2
ROW_H = 24          # one inventor row in a seat panel
CHIP_H = 17         # a chip of size 11


# --- text helpers -------------------------------------------------------------------------------


def _token_chip(sheet: Sheet, x, y, kind, label=None) -> float:
    fill, ink = TOKEN_FILL.get(kind if kind in TOKEN_FILL else kind[:1], ("#e8e4da", INK))
    return sheet.chip(x, y, label or kind, fill=fill, ink=ink)


def _flow(items, x0, x1, gap=4):
    """Lay chips of the given widths left to right from x0, wrapping before x1: [(line, x)]."""
    out, line, x = [], 0, x0
    for w in items:
        if x > x0 and x + w > x1:
            line, x = line + 1, x0
        out.append((line, x))
        x += w + gap
    return out


def _seat_name(p, doc) -> str:
    return f"seat {p} ({doc['teams'][p]})"


def _kinds(counts: dict) -> list[str]:
    """Token kinds in table order (spec 2.3)."""
    return [k for k in TOKEN_KINDS if counts.get(k)]


# --- header -------------------------------------------------------------------------------------

def _header(sheet: Sheet, state, doc, scores):
    x, y, w = MARGIN, MARGIN, WIDTH - 2 * MARGIN
    h = 96
    sheet.panel(x, y, w, h)
    n = doc["players"]
    sheet.text(x + 10, y + 24, "Legendary Inventors", size=18, bold=True)
    age = AGES.get(doc["age"], doc["age"])
    sheet.text(x + 24 + _width("Legendary Inventors", 18, True), y + 24,
               f"{n} players · Age {age} · phase {doc['phase']} ({PHASES.get(doc['phase'], '')})", size=14)
    # Who is to move, and the statuette.
    cp, ty = state.current_player, y + 46
    if state.is_terminal():
        win = state.winners()
        s = ("winner: " if len(win) == 1 else "shared win: ") + ", ".join(_seat_name(p, doc) for p in win)
        sheet.text(x + 10, ty, "game over · " + s, size=13, bold=True,
                   fill=sheet.seat(win[0]) if len(win) == 1 else INK)
    elif state.is_chance() or cp < 0:
        sheet.text(x + 10, ty, f"chance: the Age {AGES.get(doc['age'], doc['age'])} reveal is next",
                   size=13, bold=True, fill=FAINT)
    else:
        what = "chooses a reward" if doc["phase"] == "REWARD" else "to move"
        sheet.circle(x + 16, ty - 4, 6, sheet.seat(cp))
        sheet.text(x + 28, ty, f"{_seat_name(cp, doc)} {what}", size=13, bold=True, fill=sheet.seat(cp))
    st = doc["statuette"]
    sheet.text(x + 430, ty, f"★ statuette: {_seat_name(st, doc)}", size=13, fill=sheet.seat(st), bold=True)
    # Scores at a glance.
    sx = x + 10
    sheet.text(sx, y + 68, "score", size=11, fill=FAINT)
    sx += 38
    for p in range(n):
        label = f"{p} {doc['teams'][p]} {scores[p]}"
        sheet.rect(sx, y + 58, 10, 10, fill=sheet.seat(p), stroke="none", rx=2)
        sheet.text(sx + 14, y + 68, label, size=11, bold=(p == cp))
        sx += 24 + _width(label, 11, p == cp)
    # The bag.
    bag = doc["bag"]
    bx = x + 10
    sheet.text(bx, y + 88, f"bag {sum(bag.values())}", size=11, fill=FAINT)
    bx += 48
    for k in TOKEN_KINDS:
        c = bag.get(k, 0)
        bx += _token_chip(sheet, bx, y + 75, k, f"{k}×{c}") + 4
    sheet.text(bx + 6, y + 88, "P2-4 progress · VP points · AV all available · AK extra cubes · ST star",
               size=10, fill=FAINT)
    sheet.y = y + h + GAP


# --- display --------------------------------------------------------------------------------------

def _card_top(sheet: Sheet, x, y, w, cid, card):
    """Id and type, then the name, of a card; returns the y below them."""
    sheet.text(x + 8, y + 18, cid, size=14, bold=True)
    t = card["type"]
    tname = TYPE_NAMES[t] if 0 <= t < len(TYPE_NAMES) else f"type {t}"
    tw = _chip_w(tname, 10)
    sheet.chip(x + w - 8 - tw, y + 6, tname, fill=TYPE_FILL[t % len(TYPE_FILL)], size=10)
    _fit(sheet, x + 8, y + 35, card["name"], w - 16, size=12)
    return y + 42


def _costs(sheet: Sheet, x, y, w, cost, filled) -> float:
    """One row per discipline: a square per space of the cost, filled ones dark; filled/cost."""
    for i, d in enumerate(DISC):
        ry = y + i * 17
        c, f = cost[i], filled[i]
        sheet.text(x + 8, ry + 11, d, size=11, bold=True, fill=INK if c else FAINT)
        if not c:
            sheet.text(x + 34, ry + 11, "—", size=11, fill=LINE)
            continue
        step = min(14, (w - 90) / c)
        for j in range(c):
            done = j < f
            sheet.rect(x + 34 + j * step, ry + 1, step - 2, 12, fill="#5d6d7e" if done else "#ffffff",
                       stroke="#5d6d7e", width=1, rx=2)
        sheet.text(x + w - 8, ry + 11, f"{f}/{c}", size=11, anchor="end",
                   bold=f == c, fill=INK if f < c else "#1e8449")
    return y + 4 * 17 + 2


def _cube_row(sheet: Sheet, x, y, w, cubes, label="cubes"):
    sheet.text(x + 8, y + 10, label, size=10, fill=FAINT)
    if sum(cubes):
        cw = sheet.cubes(x + 48, y + 1, cubes, size=10)
        nums = " · ".join(f"{p}:{c}" for p, c in enumerate(cubes) if c)
        _fit(sheet, x + 48 + cw + 6, y + 10, nums, w - 48 - cw - 14, size=10, fill=FAINT)
    else:
        sheet.text(x + 48, y + 10, "none", size=10, fill=LINE)


def _display_card(sheet: Sheet, x, y, w, h, d, doc):
    cid = d["card"]
    card = doc["cards"][cid]
    sheet.rect(x, y, w, h, fill="#ffffff", stroke=LINE, width=1.2)
    sheet.key(cid, x, y, w, h)
    yy = _card_top(sheet, x, y, w, cid, card)
    filled = [d["filled"][k] for k in DISC]
    yy = _costs(sheet, x, yy, w, card["cost"], filled)
    _cube_row(sheet, x, yy + 2, w, d["cubes"])
    ty = yy + 20
    sheet.text(x + 8, ty + 12, "tokens", size=10, fill=FAINT)
    tx = x + 48
    for k in d["tokens"]:
        tx += _token_chip(sheet, tx, ty, k) + 4


def _reward_card(sheet: Sheet, x, y, w, h, r, doc):
    """The completed card: what is left on it, and who chooses in which order."""
    cid = r["card"]
    card = doc["cards"][cid]
    gold = "#b7950b"
    sheet.rect(x, y, w, h, fill="#fef9e7", stroke=gold, width=2.5)
    sheet.key(cid, x, y, w, h)
    yy = _card_top(sheet, x, y, w, cid, card)
    sheet.text(x + 8, yy + 12, "COMPLETED · rewards left", size=11, bold=True, fill=gold)
    yy += 20
    sheet.text(x + 8, yy + 12, "left", size=10, fill=FAINT)
    tx = x + 48
    for item in r["left"]:
        if item == "card":
            cw = sheet.chip(tx, yy, "card", fill="#fcf3cf", ink=INK)
            sheet.key("card", tx, yy, cw, CHIP_H)
        else:
            cw = _token_chip(sheet, tx, yy, item)
            sheet.key(item, tx, yy, cw, CHIP_H)
        tx += cw + 10   # room for the outline of a marked chip
    if not r["left"]:
        sheet.text(tx, yy + 12, "nothing", size=10, fill=LINE)
    yy += 24
    sheet.text(x + 8, yy + 11, "choose", size=10, fill=FAINT)
    cx = x + 48
    for i, p in enumerate(r["seats"]):
        now, done = i == r["index"], i < r["index"]
        label = (f"▶{p}" if now else str(p))
        cw = sheet.chip(cx, yy, label, fill=sheet.seat(p) if not done else "#e8e4da",
                        ink="#ffffff" if not done else FAINT)
        cx += cw + 4
    sheet.text(cx + 2, yy + 12, "seats in order, ▶ now" + (", grey done" if r["index"] else ""),
               size=10, fill=FAINT)
    yy += 24
    _cube_row(sheet, x, yy, w, r["cubes"], label="cubes")
    sheet.text(x + 8, y + h - 8, "taken: " + (", ".join(k for k in r["tokens"] + ["card"]
                                                       if k not in r["left"]) or "nothing yet"),
               size=10, fill=FAINT)


def _display(sheet: Sheet, doc):
    x0, y = MARGIN, sheet.y
    cards = list(doc["display"])
    sheet.text(x0, y + 14, "Display", size=14, bold=True)
    sheet.text(x0 + 66, y + 14, "filled/cost per discipline (P physics, C chemistry, M mechanics, Ma mathematics)"
                                " · cubes per seat · the tokens won with the card", size=11, fill=FAINT)
    y += 22
    boxes = cards + ([doc["reward"]] if doc["reward"] else [])
    if not boxes:
        sheet.rect(x0, y, WIDTH - 2 * MARGIN, 34, fill="#ffffff")
        what = ("the next age's cards are revealed next" if doc["phase"] == "CHANCE_REVEAL"
                else "no cards: the game is over")
        sheet.text(x0 + 10, y + 22, f"empty — {what}", size=12, fill=FAINT)
        sheet.y = y + 34 + GAP
        return
    for i, d in enumerate(boxes):
        row, col = divmod(i, CARDS_PER_ROW)
        x = x0 + col * (CARD_W + GAP)
        cy = y + row * (CARD_H + GAP)
        if i < len(cards):
            _display_card(sheet, x, cy, CARD_W, CARD_H, d, doc)
        else:
            _reward_card(sheet, x, cy, CARD_W, CARD_H, d, doc)
    rows = (len(boxes) + CARDS_PER_ROW - 1) // CARDS_PER_ROW
    sheet.y = y + rows * (CARD_H + GAP)


# --- seats ----------------------------------------------------------------------------------------

def _won_chips(doc, p):
    out = []
    for cid in doc["seats"][p]["won"]:
        t = doc["cards"][cid]["type"]
        tname = TYPE_NAMES[t] if 0 <= t < len(TYPE_NAMES) else f"type {t}"
        out.append((f"{cid} {tname}", TYPE_FILL[t % len(TYPE_FILL)]))
    return out


def _seat_height(doc, p) -> float:
    chips = _won_chips(doc, p)
    lines = 1 + (max(line for line, _ in _flow([_chip_w(s) for s, _ in chips], 0, SEAT_W - 56)) if chips else 0)
    return 26 + 18 + 16 + 4 * ROW_H + 26 + lines * 21 + 6


def _seat(sheet: Sheet, state, doc, p, x, y, w, h, scores):
    seat = doc["seats"][p]
    colour = sheet.seat(p)
    cp = state.current_player
    mover = cp == p and not state.is_terminal()
    if mover:
        sheet.rect(x - 3, y - 3, w + 6, h + 6, fill="none", stroke=colour, width=3, rx=6)
    top = sheet.panel(x, y, w, h, title=f"Seat {p} · {seat['team']} · score {scores[p]}", colour=colour,
                      fill=_tint(colour, 0.9) if mover else "#ffffff")
    flags = []
    if mover:
        flags.append("▶ CHOOSES A REWARD" if doc["phase"] == "REWARD" else "▶ TO MOVE")
    if doc["statuette"] == p:
        flags.append("★ statuette")
    if state.is_terminal() and p in state.winners():
        flags.append("WINNER")
    if flags:
        sheet.text(x + w - 8, y + 14, "  ".join(flags), size=12, bold=True, fill="#ffffff", anchor="end")
    sd = state.score_detail(p)
    sheet.text(x + 8, top + 10, f"score {sd['total']} = cards {sd['cards']} + tokens {sd['vp_tokens']}"
                                f" + goals {sd['goals']} + suites {sd['suites']}"
                                f"{'' if state.is_terminal() else ' (if the game ended now)'}",
               size=11, fill=FAINT)
    # The inventors: a row each, keyed by id (work:ID:CARD, front:K:ID:D).
    ty = top + 28
    cx = [x + 222 + i * 38 for i in range(4)]          # level cells (centres)
    gx, sx = x + 222 + 4 * 38 - 4, x + w - 8           # goal points (start), state (end)
    sheet.text(x + 8, ty, "inventor (id)", size=10, fill=FAINT)
    for c, d in zip(cx, DISC):
        sheet.text(c, ty, d, size=10, fill=FAINT, bold=True, anchor="middle")
    sheet.text(gx, ty, "goal", size=10, fill=FAINT)
    sheet.text(sx, ty, "state", size=10, fill=FAINT, anchor="end")
    ry = ty + 4
    for iid, inv in seat["inventors"].items():
        data = doc["inventors"][iid]
        lv = [inv["levels"][d] for d in DISC]
        goal = data["goal"]
        met = all(a >= b for a, b in zip(lv, goal))
        busy = inv["busy"]
        sheet.rect(x + 4, ry, w - 8, ROW_H - 4, fill="#f2f0ea" if busy else "#ffffff", stroke="none", rx=3)
        sheet.key(iid, x + 4, ry, w - 8, ROW_H - 4)
        base = ry + 15
        nw = _fit(sheet, x + 8, base, data["name"], 140, size=12, bold=True, fill=FAINT if busy else INK)
        _fit(sheet, x + 8 + nw + 5, base, iid, 190 - nw - 5, size=10, fill=FAINT)
        for c, a, b in zip(cx, lv, goal):
            ok = b and a >= b
            sheet.rect(c - 17, ry + 2, 34, ROW_H - 8, fill="#d5efd8" if ok else "#ffffff",
                       stroke="#a9cfb0" if ok else LINE, width=0.8, rx=3)
            if b:
                sheet.text(c + 1, base, str(a), size=12, bold=True, anchor="end")
                sheet.text(c + 2, base, f"/{b}", size=10, fill=FAINT)
            else:
                sheet.text(c, base, str(a), size=12, bold=True, anchor="middle", fill=INK if a else LINE)
        sheet.text(gx, base, f"{data['goal_vp']}{' ✓' if met else ''}", size=12, bold=met,
                   fill="#1e8449" if met else INK)
        label = "busy" if busy else "free"
        cw = _chip_w(label, 10)
        sheet.chip(sx - cw, ry + 2, label, fill="#5d6d7e" if busy else "#e8f6ec",
                   ink="#ffffff" if busy else "#1e8449", size=10)
        ry += ROW_H
    # Hand: the mover's chips are what front/back/avail name.
    hy = ry + 6
    sheet.text(x + 8, hy + 12, "hand", size=11, fill=FAINT)
    hx = x + 52
    keyed = mover and doc["phase"] == "MAIN"
    for k in _kinds(seat["hand"]):
        c = seat["hand"][k]
        cw = _token_chip(sheet, hx, hy, k, f"{k}×{c}" if c > 1 else k)
        if keyed:
            sheet.key(k, hx, hy, cw, CHIP_H)
            if k == "AV":
                sheet.key("avail", hx, hy, cw, CHIP_H)
        hx += cw + 4
    if not seat["hand"]:
        sheet.text(hx, hy + 12, "—", size=11, fill=LINE)
    # Won cards: id and type (types make the suites).
    wy = hy + 24
    sheet.text(x + 8, wy + 12, "won", size=11, fill=FAINT)
    chips = _won_chips(doc, p)
    for (s, fill), (line, cx0) in zip(chips, _flow([_chip_w(s) for s, _ in chips], x + 52, x + w - 4)):
        sheet.chip(cx0, wy + line * 21, s, fill=fill)
    if not chips:
        sheet.text(x + 52, wy + 12, "—", size=11, fill=LINE)


def _seats(sheet: Sheet, state, doc, scores):
    n = doc["players"]
    y = sheet.y + 4
    for r in range(0, n, 2):
        pair = list(range(r, min(r + 2, n)))
        h = max(_seat_height(doc, p) for p in pair)
        for j, p in enumerate(pair):
            _seat(sheet, state, doc, p, MARGIN + j * (SEAT_W + GAP), y, SEAT_W, h, scores)
        y += h + GAP + 4
    sheet.y = y


def _layout(state) -> Sheet:
    """The board of `state` laid out on a Sheet (its keys are the boxes moves can name)."""
    doc = position_dict(state)
    scores = list(state.scores())
    age = AGES.get(doc["age"], doc["age"])
    sheet = Sheet(WIDTH, f"Legendary Inventors · {doc['players']} players · Age {age}")
    sheet.colours = seat_colours(state)
    _header(sheet, state, doc, scores)
    _display(sheet, doc)
    _seats(sheet, state, doc, scores)
    return sheet


def seat_colours(state) -> list[str]:
    """Each seat in its team's colour (the teams are colours: seat 0 "purple" is drawn purple)."""
    return colours_named(position_dict(state)["teams"])


def draw(state, marks=None) -> str:
    """The board of `state` as SVG text. `marks`: {"played": move, "best": move} in notation;
    the boxes each move names are outlined (see the module docstring)."""
    return _layout(state).svg(marks=marks)

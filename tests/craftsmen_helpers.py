"""Helpers for the Craftsmen core tests: the default edition, games, a scripted driver, and
edits of a position's packed bytes (reloaded through State.from_bytes, which validates them,
so an edit that breaks a conservation law fails loudly instead of testing nonsense)."""
import json
import pathlib

from atelier._core import craftsmen as C

EDITION_PATH = pathlib.Path(__file__).resolve().parents[1] / "src/atelier/data/editions/craftsmen.json"
L = C.LAYOUT
SL = C.SEAT_LAYOUT
COLOURS = "PGBR"
TYPES = [c + str(v) for c in COLOURS for v in (1, 2, 3)]
B_BOX, B_HAND, B_ROW, B_FACEUP, B_SEG, B_TOP, B_BOTTOM, B_POOL = (0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70)
M_DISPLAY, M_DISCARD, M_DECK, M_MAYOR = 5, 6, 7, 8
NO = 0xFF


def edition():
    return json.loads(EDITION_PATH.read_text())


def game(players=4, ed=None, age_rank=None):
    return C.Game(players, ed or edition(), age_rank)


def texts(st):
    return [st.move_to_string(m) for m in st.legal_moves()]


PASSIVE = ["KEEP", "PASS", "SKIP", "END", "DONE", "DECLINE", "STOP", "NO_PRIVILEGE", "DROP", "LOSE"]


def passive(st, moves):
    """The do-nothing policy: decline whatever can be declined, else the first legal move."""
    for word in PASSIVE:
        if word in moves:
            return word
    return moves[0]


def play(st, until, policy=passive, seed=1, limit=20000):
    """Apply moves (chance by seeded sampling) until until(st) holds; returns st."""
    for i in range(limit):
        if until(st):
            return st
        if st.is_terminal():
            raise AssertionError("game ended before the condition held")
        if st.is_chance():
            st.sample_chance(seed * 1000003 + i)
            continue
        st.apply(policy(st, texts(st)))
    raise AssertionError("condition never reached")


def phase(name, actor=None):
    return lambda st: st.fields()["phase"] == name and (actor is None or st.current_player == actor)


def script(policy_moves):
    """A policy that plays the given texts in order when legal, else passive."""
    queue = list(policy_moves)

    def pol(st, moves):
        if queue and queue[0] in moves:
            return queue.pop(0)
        return passive(st, moves)

    return pol


class Edit:
    """Edit a position's bytes field by field (see C.LAYOUT)."""

    def __init__(self, st):
        self.g = st.game
        self.b = bytearray(st.to_bytes())
        self.ids = self.g.building_ids

    def _off(self, name, i=0):
        off, size = L[name]
        assert 0 <= i < size, (name, i)
        return off + i

    def get(self, name, i=0):
        return self.b[self._off(name, i)]

    def set(self, name, value, i=0):
        self.b[self._off(name, i)] = value
        return self

    def _seat_off(self, seat, name):
        return L["seat"][0] + seat * L["seat_size"] + SL[name][0]

    def seat(self, seat, name):
        o = self._seat_off(seat, name)
        if SL[name][1] == 2:
            return int.from_bytes(self.b[o:o + 2], "little", signed=True)
        return self.b[o]

    def set_seat(self, seat, name, value):
        o = self._seat_off(seat, name)
        if SL[name][1] == 2:
            self.b[o:o + 2] = int(value).to_bytes(2, "little", signed=True)
        else:
            self.b[o] = value
        return self

    # ---- money -------------------------------------------------------------------------
    def money(self, place, t):
        return self.get("money", place * 12 + TYPES.index(t))

    def set_money(self, place, cards):
        """Make money place `place` hold exactly `cards` (a list of types); cards come from and
        go back to the deck (then the discard pile, the display, other hands)."""
        want = {t: cards.count(t) for t in TYPES}
        for t in TYPES:
            i = TYPES.index(t)
            cur = self.get("money", place * 12 + i)
            sources = [M_DECK, M_DISCARD, M_DISPLAY, 0, 1, 2, 3, 4]
            while cur < want[t]:
                for src in sources:
                    if src != place and self.get("money", src * 12 + i) > 0:
                        self.set("money", self.get("money", src * 12 + i) - 1, src * 12 + i)
                        break
                else:
                    raise AssertionError("no " + t + " left to move")
                cur += 1
            while cur > want[t]:
                self.set("money", self.get("money", M_DECK * 12 + i) + 1, M_DECK * 12 + i)
                cur -= 1
            self.set("money", cur, place * 12 + i)
        return self

    def hand_money(self, seat, cards):
        return self.set_money(seat, cards)

    # ---- buildings ---------------------------------------------------------------------
    def idx(self, card_id):
        return self.ids.index(card_id)

    def put(self, card_id, loc, pos=0):
        b = self.idx(card_id)
        self.set("bloc", loc, b)
        self.set("bpos", pos, b)
        self.set("bfill", 0, b)
        # Who knows the card's place (the core's bknow, spec 6.2): a public place everyone, a
        # hand its holder, a deck nobody.
        kind, all_seats = loc & 0xF0, (1 << self.g.players) - 1
        self.set("bknow", all_seats if kind in (0x00, 0x20, 0x30) else 1 << (loc & 0xF) if kind == 0x10 else 0, b)
        return self

    def to_deck(self, card_id):
        b = self.idx(card_id)
        return self.put(card_id, B_BOX if b < 6 else B_SEG | 1)

    def set_hand_buildings(self, seat, card_ids):
        for b, cid in enumerate(self.ids):
            if self.get("bloc", b) == (B_HAND | seat):
                self.to_deck(cid)
        for cid in card_ids:
            self.put(cid, B_HAND | seat)
        return self

    def set_row(self, seat, card_ids):
        """card_ids left to right, exactly one lumber mill; icons empty (their cubes back to supply)."""
        for b, cid in enumerate(self.ids):
            if self.get("bloc", b) == (B_ROW | seat):
                self.set_seat(seat, "supply", self.seat(seat, "supply") + bin(self.get("bfill", b)).count("1"))
                self.to_deck(cid)
        mills = [i for i, c in enumerate(card_ids) if self.idx(c) < 6]
        assert len(mills) == 1
        for q in range(self.g.players):  # a mill in another row: swap that seat onto a box mill
            for b in range(6):
                if self.get("bloc", b) == (B_ROW | q) and self.ids[b] == card_ids[mills[0]] and q != seat:
                    free = [m for m in range(6) if self.get("bloc", m) == B_BOX]
                    self.put(self.ids[free[0]], B_ROW | q, 128)
        for i, cid in enumerate(card_ids):
            self.put(cid, B_ROW | seat, 128 + i - mills[0])
        self.set_seat(seat, "row_lo", 128 - mills[0])
        self.set_seat(seat, "row_hi", 128 + len(card_ids) - 1 - mills[0])
        return self

    def fill(self, card_id, bits, seat):
        b = self.idx(card_id)
        old = bin(self.get("bfill", b)).count("1")
        self.set("bfill", bits, b)
        self.set_seat(seat, "supply", self.seat(seat, "supply") + old - bin(bits).count("1"))
        return self

    def state(self):
        return C.State.from_bytes(self.g, bytes(self.b))


def perft(st, depth, chance=False):
    """Leaves below `st` at `depth` plies. chance=False counts as the Leonardo and Inventors
    perft: a chance node or the end is one leaf. chance=True expands a chance node over its
    outcomes, each outcome one ply like a move (tools/make_perft_craftsmen.py writes both)."""
    if depth == 0 or st.is_terminal() or (st.is_chance() and not chance):
        return 1
    moves = [m for m, _p, _t in st.chance_outcomes()] if st.is_chance() else st.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(st.child(m), depth - 1, chance) for m in moves)


def replay(g, seed, prefix):
    """Game.start(seed) then the notation texts of `prefix` (draws written DRAW(..) too)."""
    st = g.start(seed)
    for text in prefix:
        st.apply(st.parse_move(text))
    return st

"""What every ruleset's board picture shares (`atelier show --svg`, the review page).

A ruleset's `draw.py` lays its board out on a `Sheet`: boxes, text and chips at absolute
coordinates, top to bottom. Where a move names a thing (a card id, an inventor, an area, a seat),
the drawing registers that thing's box under its notation token with `sheet.key(...)`; the sheet
then outlines the boxes a marked move names (the move played, the engine's best), so highlighting
works the same for every ruleset and no ruleset parses another's moves.

drawsvg builds the SVG tree: it escapes text and attributes and writes valid markup, which a
board with user-given names (seat names, edition ids) would otherwise need by hand.
"""
from __future__ import annotations

import re

import drawsvg as dw

FONT = "DejaVu Sans, Verdana, sans-serif"
SEAT_COLOURS = ("#c0392b", "#2471a3", "#229954", "#d68910", "#7d3c98")
INK, FAINT, PAPER, LINE = "#222222", "#777777", "#fbfaf6", "#b9b4a8"
# A marked move's colour and dash, by role: what was played, what the engine preferred.
MARKS = {"played": ("#e67e22", "6,3"), "best": ("#16a085", None)}

_TOKEN_SPLIT = re.compile(r"[:+=,()\s]+")


def move_tokens(move_text: str | None) -> set[str]:
    """The tokens a move names, lower-case: 'work:tesla:II07+P' -> {work, tesla, ii07, p}."""
    if not move_text:
        return set()
    return {t.lower() for t in _TOKEN_SPLIT.split(move_text) if t}


# Colour words an edition may name its seats or teams by (Inventors' teams are colours): a seat
# is then drawn in its own colour, not in another's.
NAMED_COLOURS = {"red": "#c0392b", "blue": "#2471a3", "green": "#229954", "yellow": "#c9a100",
                 "purple": "#7d3c98", "orange": "#d35400", "black": "#333333", "white": "#95a5a6",
                 "brown": "#8d5524", "grey": "#7f8c8d", "gray": "#7f8c8d", "pink": "#d35d8f"}


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def colours_named(names) -> list[str]:
    """Per seat the colour its name says (a team "purple"), else the seat's default colour."""
    return [NAMED_COLOURS.get(str(n).lower(), seat_colour(p)) for p, n in enumerate(names)]


def text_width(s, size, bold=False) -> float:
    """An estimate of the rendered width of `s` (DejaVu Sans is wide: err on the large side)."""
    return len(str(s)) * size * (0.64 if bold else 0.6)


def chip_width(s, size=11) -> float:
    """The width of `Sheet.chip(.., s, size=size)`."""
    return 8 + 0.62 * size * len(str(s))


def tint(colour: str, amount: float = 0.9) -> str:
    """`colour` (#rrggbb) mixed with white (amount 1 = white)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in (r, g, b))


def fit_text(sheet, x, y, s, maxw, size=12, bold=False, fill=INK, anchor="start", min_size=9, **attrs) -> float:
    """Text that never runs past `maxw`: a smaller font first, then squeezed glyphs (the whole
    text stays, so nothing a player reads is cut). Returns the width it takes."""
    s = str(s)
    w = text_width(s, size, bold)
    if w > maxw:
        size = max(min_size, size * maxw / w)
        w = text_width(s, size, bold)
    if w > maxw:
        attrs.update(textLength=round(maxw, 1), lengthAdjust="spacingAndGlyphs")
        w = maxw
    sheet.text(x, y, s, size=round(size, 1), fill=fill, bold=bold, anchor=anchor, **attrs)
    return w


class Sheet:
    """A drawing `width` wide that grows downwards as things are added (`y` is the next free row)."""

    def __init__(self, width: int, title: str):
        self.width = width
        self.title = title
        self.items: list = []
        self.keys: list[tuple[str, float, float, float, float]] = []
        self.y = 0.0
        self.colours = list(SEAT_COLOURS)   # per seat; a ruleset may set its own (colours_named)

    def seat(self, p: int) -> str:
        """Seat p's colour on this sheet."""
        return self.colours[p] if 0 <= p < len(self.colours) else seat_colour(p)

    # Primitives. Coordinates are absolute; sizes in px.
    def rect(self, x, y, w, h, fill="none", stroke=LINE, width=1.0, rx=4, **attrs):
        if stroke != "none" and width != 1.0:
            attrs["stroke_width"] = width
        self.items.append(dw.Rectangle(x, y, w, h, fill=fill, stroke=stroke, rx=rx, **attrs))

    def text(self, x, y, s, size=12, fill=INK, bold=False, anchor="start", **attrs):
        """Text with its baseline at y."""
        # The font is set once on the drawing, and defaults (start, normal) are left out: a review
        # page holds one board per move, so every attribute per text counts.
        if anchor != "start":
            attrs["text_anchor"] = anchor
        if bold:
            attrs["font_weight"] = "bold"
        self.items.append(dw.Text(str(s), size, x, y, fill=fill, **attrs))

    def line(self, x1, y1, x2, y2, stroke=LINE, width=1.0):
        self.items.append(dw.Line(x1, y1, x2, y2, stroke=stroke, stroke_width=width))

    def circle(self, cx, cy, r, fill, stroke="none", label=None, label_fill="#ffffff", size=10):
        self.items.append(dw.Circle(cx, cy, r, fill=fill, stroke=stroke))
        if label is not None:
            self.text(cx, cy + size * 0.35, label, size=size, fill=label_fill, anchor="middle", bold=True)

    def chip(self, x, y, s, fill="#e8e4da", ink=INK, size=11) -> float:
        """A small labelled box at (x, y) (top-left); returns its width, to lay chips in a row."""
        w = chip_width(s, size)
        self.rect(x, y, w, size + 6, fill=fill, stroke="none", rx=3)
        self.text(x + w / 2, y + size + 1, s, size=size, fill=ink, anchor="middle")
        return w

    def cubes(self, x, y, counts, size=9) -> float:
        """One coloured square per cube, seat colours in seat order; returns the width used."""
        cx = x
        for seat, n in enumerate(counts):
            for _ in range(int(n)):
                self.rect(cx, y, size, size, fill=self.seat(seat), stroke="none", rx=1)
                cx += size + 2
        return cx - x

    def panel(self, x, y, w, h, title=None, colour=LINE, fill="#ffffff"):
        """A framed box with an optional title strip; returns the y where its content starts."""
        self.rect(x, y, w, h, fill=fill, stroke=colour, width=1.5 if colour != LINE else 1.0)
        if title is None:
            return y + 6
        self.rect(x, y, w, 20, fill=colour, stroke="none", rx=4)
        self.text(x + 8, y + 14, title, size=12, fill="#ffffff" if colour != LINE else INK, bold=True)
        return y + 26

    def key(self, token: str, x, y, w, h) -> None:
        """The box (x, y, w, h) shows what the notation token `token` names (case-insensitive)."""
        self.keys.append((str(token).lower(), x, y, w, h))

    # Output.
    def svg(self, marks: dict | None = None, footer: str | None = None) -> str:
        """The SVG text. `marks`: role ("played", "best") -> move text; the boxes each move names
        are outlined in the role's colour and the moves are written under the board."""
        items = list(self.items)
        height = self.y + 8
        legend = []
        for role, move in (marks or {}).items():
            if not move or role not in MARKS:
                continue
            colour, dash = MARKS[role]
            names = move_tokens(move)
            for token, x, y, w, h in self.keys:
                if token in names:
                    extra = {"stroke_dasharray": dash} if dash else {}
                    inset = 2 if role == "best" else 4
                    items.append(dw.Rectangle(x - inset, y - inset, w + 2 * inset, h + 2 * inset, fill="none",
                                              stroke=colour, stroke_width=3, rx=5, data_mark=role, **extra))
            legend.append((role, move, colour))
        lines = [(f"{role}: {move}", colour) for role, move, colour in legend]
        if footer:
            lines.append((footer, FAINT))
        for text, colour in lines:
            height += 18
            items.append(dw.Text(text, 13, 10, height - 4, fill=colour, font_weight="bold"))
        d = dw.Drawing(self.width, height + 6, font_family=FONT)
        d.append(dw.Title(self.title))
        d.append(dw.Rectangle(0, 0, self.width, height + 6, fill=PAPER))
        for it in items:
            d.append(it)
        return d.as_svg()

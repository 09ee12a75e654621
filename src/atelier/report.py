"""The review as one self-contained web page (`atelier review --html`): the move list with the
marks, each seat's win share over the game, and the board at the selected move with the move
played and the engine's best drawn on it; arrow keys step through the game.

Jinja2 fills the page (templates/review.html.j2): it escapes every text it inserts (seat names
and comments come from a file), and the page's layout stays readable as HTML rather than as
strings glued in Python. The boards and the graph are SVG from drawsvg (atelier.drawing), inside
the page (the boards gzipped), so it needs no network and no file beside it.
"""
from __future__ import annotations

import base64
import gzip
import re
from importlib import resources

import drawsvg as dw
import jinja2
import markupsafe

import atelier

from .drawing import FAINT, FONT, LINE, seat_colour
from .jsonfmt import finite
from .wording import count, seat_label


def _graph(review, moves: int, colours: list[str], width=760, height=200) -> str:
    """Each seat's win share after its reviewed moves, against the move number, as SVG."""
    left, top, right, bottom = 40, 10, 10, 24
    w, h = width - left - right, height - top - bottom
    d = dw.Drawing(width, height)
    d.append(dw.Rectangle(0, 0, width, height, fill="#ffffff"))
    for frac in (0, 0.25, 0.5, 0.75, 1):
        y = top + h * (1 - frac)
        d.append(dw.Line(left, y, left + w, y, stroke=LINE, stroke_width=0.7))
        d.append(dw.Text(f"{int(100 * frac)}%", 10, left - 4, y + 3, fill=FAINT, font_family=FONT, text_anchor="end"))

    def x_of(k):
        return left + w * (k / max(moves, 1))

    players = len(colours)
    points = [[] for _ in range(players)]
    for dec in review.decisions:
        if dec.win_after is not None:
            for p in range(players):
                points[p].append((x_of(dec.index + 1), top + h * (1 - dec.win_after[p])))
    for p, pts in enumerate(points):
        if len(pts) >= 2:
            d.append(dw.Lines(*[c for xy in pts for c in xy], close=False, fill="none",
                              stroke=colours[p], stroke_width=2, data_seat=str(p)))
        for x, y in pts:
            d.append(dw.Circle(x, y, 2.2, fill=colours[p]))
    d.append(dw.Line(x_of(0), top, x_of(0), top + h, stroke="#333333", stroke_width=1.5,
                     stroke_dasharray="3,3", id="cursor"))
    d.append(dw.Text("move", 10, left + w, height - 6, fill=FAINT, font_family=FONT, text_anchor="end"))
    return d.as_svg()


def review_page(record, review) -> str:
    """The HTML text of the page for `review` (atelier.review.Review) of `record`."""
    by_index = review.by_index()
    boards, rows = [], []
    for k, s, entry in record.states():
        dec = by_index.get(k)
        marks = {"played": entry["move"]}
        if dec is not None and dec.best and dec.best != dec.played:
            marks["best"] = dec.best
        boards.append(_packed(atelier.board_svg(s, marks=marks)))
        rows.append({"k": k, "number": k + 1, "seat": entry["seat"], "move": entry["move"],
                     "comment": entry.get("comment"), "dec": dec})
    final = record.replay()
    boards.append(_packed(atelier.board_svg(final)))
    rs = atelier.ruleset(record.game)
    colours = rs.seat_colours(final) if hasattr(rs, "seat_colours") else [seat_colour(p) for p in range(record.players)]
    data = {"moves": len(record.moves), "decisions": {
        str(d.index): {"seat": d.seat, "played": d.played, "best": d.best, "loss": d.loss, "mark": d.mark,
                       "method": d.method,
                       "played_value": None if d.played_value is None else vars(d.played_value),
                       "best_value": None if d.best_value is None else vars(d.best_value)}
        for d in review.decisions}}
    env = jinja2.Environment(loader=jinja2.FunctionLoader(_template), autoescape=True,
                             undefined=jinja2.StrictUndefined)
    env.filters["svgsafe"] = _inline_svg
    env.globals.update(count=count, seat_label=seat_label)
    return env.get_template("review.html.j2").render(
        record=record, review=review, rows=rows, boards=boards, graph=_graph(review, len(record.moves), colours),
        data=finite(data), colours=colours,
        result=list(final.scores()) if final.is_terminal() else None, version=atelier.__version__)


def _packed(svg: str) -> str:
    """A board for the page: gzip, then base64 (the page unpacks it with the browser's own
    DecompressionStream). One SVG per move is 20-45 kB; packed, a sixth of that, so a Craftsmen
    game of 450 moves is a 3 MB page rather than 19 MB."""
    return base64.b64encode(gzip.compress(_XML_DECL.sub("", svg, count=1).encode("utf-8"), 9, mtime=0)).decode("ascii")


def unpack_board(text: str) -> str:
    """The SVG of a packed board (for tests and tools that read a page)."""
    return gzip.decompress(base64.b64decode(text)).decode("utf-8")


def _inline_svg(svg: str):
    """drawsvg's SVG document as markup to put inline (its XML declaration dropped)."""
    return markupsafe.Markup(_XML_DECL.sub("", svg, count=1))


_XML_DECL = re.compile(r"^<\?xml[^>]*\?>\s*")


def _template(name):
    return (resources.files("atelier") / "data" / "templates" / name).read_text(encoding="utf-8")

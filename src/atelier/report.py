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


MARK_COLOURS = {"inaccuracy": "#d4ac0d", "mistake": "#e67e22", "blunder": "#c0392b"}   # as the page's tags


def _tick_step(moves: int, most: int = 12) -> int:
    """A round step for the move numbers on the x axis: at most `most` labels."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if moves / step <= most:
            return step
    return max(1, moves // most)


def _graph(review, moves: int, colours: list[str], width=760, height=210) -> str:
    """Each seat's win share after its reviewed moves, against the move number, as SVG: the x
    axis numbered by move, the marked moves as dots (in the mark's colour) on the mover's line,
    and a cursor line the page moves to the selected position. The page reads the plot area
    from the svg's data-left / data-plot-width / data-moves, and a click picks the nearest move."""
    left, top, right, bottom = 40, 10, 14, 34
    w, h = width - left - right, height - top - bottom
    d = dw.Drawing(width, height, data_left=left, data_plot_width=w, data_moves=moves,
                   style="width: 100%; height: auto; cursor: pointer")
    d.append(dw.Rectangle(0, 0, width, height, fill="#ffffff"))
    for frac in (0, 0.25, 0.5, 0.75, 1):
        y = top + h * (1 - frac)
        d.append(dw.Line(left, y, left + w, y, stroke=LINE, stroke_width=0.7))
        d.append(dw.Text(f"{int(100 * frac)}%", 10, left - 4, y + 3, fill=FAINT, font_family=FONT, text_anchor="end"))

    def x_of(k):
        return left + w * (k / max(moves, 1))

    step = _tick_step(moves)
    for n in range(0, moves + 1, step):   # n: after move n (the position before move n + 1)
        d.append(dw.Line(x_of(n), top + h, x_of(n), top + h + 4, stroke=FAINT, stroke_width=1))
        d.append(dw.Text(str(n), 10, x_of(n), top + h + 15, fill=FAINT, font_family=FONT, text_anchor="middle",
                         class_="xtick"))
    players = len(colours)
    points = [[] for _ in range(players)]
    dots = []
    for dec in review.decisions:
        if dec.win_after is not None:
            for p in range(players):
                points[p].append((x_of(dec.index + 1), top + h * (1 - dec.win_after[p])))
            if dec.mark:
                dots.append((x_of(dec.index + 1), top + h * (1 - dec.win_after[dec.seat]), dec))
    for p, pts in enumerate(points):
        if len(pts) >= 2:
            d.append(dw.Lines(*[c for xy in pts for c in xy], close=False, fill="none",
                              stroke=colours[p], stroke_width=2, data_seat=str(p)))
        for x, y in pts:
            d.append(dw.Circle(x, y, 2.2, fill=colours[p]))
    for x, y, dec in dots:
        dot = dw.Circle(x, y, 5.5, fill=MARK_COLOURS.get(dec.mark, "#c0392b"), stroke="#ffffff", stroke_width=1.5,
                        class_="markdot", data_k=str(dec.index), data_mark=dec.mark)
        dot.append_title(f"move {dec.number}, seat {dec.seat}: {dec.played} ({dec.mark})")
        d.append(dot)
    d.append(dw.Line(x_of(0), top, x_of(0), top + h, stroke="#333333", stroke_width=1.5,
                     stroke_dasharray="3,3", id="cursor"))
    d.append(dw.Text("move", 10, left + w, height - 3, fill=FAINT, font_family=FONT, text_anchor="end"))
    return d.as_svg()


def result_line(record, final) -> str | None:
    """Who won, in words, with a tie on the top score named as won on the tie-break."""
    if not final.is_terminal():
        return None
    scores = list(final.scores())
    winners = [p for p, r in enumerate(final.returns()) if r > 0]
    tied = [p for p, x in enumerate(scores) if x == max(scores)]
    who = lambda p: seat_label(p, record.seats[p])   # noqa: E731
    if len(winners) > 1:
        return "shared win: " + ", ".join(who(p) for p in winners)
    if not winners:
        return None
    w = winners[0]
    if len(tied) > 1 and w in tied:
        others = ", ".join(who(p) for p in tied if p != w)
        return f"winner: {who(w)}, on the tie-break (tied on {scores[w]} with {others})"
    return f"winner: {who(w)}"


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
                       "method": d.method, "line": d.line,
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
        result=list(final.scores()) if final.is_terminal() else None, winner=result_line(record, final),
        version=atelier.__version__)


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

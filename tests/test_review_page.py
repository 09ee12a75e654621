"""The review page (`atelier review --html`) in a real browser: headless Chromium loads it, the
page's own script has run (move list, graph, a board shown, data-ready set), the arrow keys step
through the boards, a click on the graph moves the cursor and the board, the marks are dots on
the graph, the x axis is numbered, the engine's line is shown, the page fits a 1000-px window,
and a screenshot is saved. Without Chromium the browser tests are skipped
locally; under CI (.ci/run installs it) they fail instead."""
import json
import os
import re
import shutil
import subprocess

import pytest

from atelier import match, records, review
from atelier.report import review_page, unpack_board

BROWSERS = ("chromium-headless-shell", "chromium", "chromium-browser")
SCREENSHOT_DIR = os.environ.get("ATELIER_SCREENSHOTS")   # keep the screenshot there, if set


def _script(html, name):
    return re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', html, re.S).group(1)


def _browser():
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("CI"):
        pytest.fail("headless Chromium is missing: .ci/run installs chromium-headless-shell")
    pytest.skip("headless Chromium is not installed (apt-get install chromium-headless-shell)")


def _chromium(*args, timeout=120):
    cmd = [_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--allow-file-access-from-files", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    m = match.play("inventors", ["greedy", "random"], games=1, seed=3, keep_moves=True).records[0]
    rec = records.from_match(m, "inventors")
    rec.seats = ["Ann <b>&", "bob"]   # escaped on the page, never markup
    rv = review.review(rec, iterations=100, seed=1, exact_nodes=20_000)
    html = review_page(rec, rv)
    path = tmp_path_factory.mktemp("page") / "review.html"
    path.write_text(html, encoding="utf-8")
    return path, html, rec, rv


def test_the_page_is_self_contained_and_escapes_names(page):
    _, html, rec, rv = page
    assert "<script src" not in html and "<link" not in html and "url(" not in html
    # The only URLs are XML namespace names (never fetched).
    urls = set(re.findall(r"https?://[^\"' )]+", html))
    assert urls <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}, urls
    assert "Ann &lt;b&gt;&amp;" in html and "Ann <b>&" not in html
    assert html.count('class="board"') == len(rec.moves) + 1
    for d in rv.decisions:
        if d.mark:
            assert f'data-k="{d.index}" class="decision mark-{d.mark}"' in html


SELF_TEST = """
<script>
(function () {
 function run() {
  function shown() { var b = document.querySelector('#boards .board:not([hidden])'); return b ? b.getAttribute('data-k') : null; }
  function key(k) { document.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true})); }
  var r = {ready: document.body.getAttribute('data-ready'), moves: document.querySelectorAll('#moves li').length,
           lines: document.querySelectorAll('#graphbox svg [data-seat]').length,
           boards_shown: document.querySelectorAll('#boards .board:not([hidden])').length, first: shown(),
           detail0: document.getElementById('detail').textContent};
  key('ArrowRight'); key('ArrowRight'); r.after_two = shown();
  r.detail2 = document.getElementById('detail').textContent;
  r.selected = document.querySelector('#moves li.selected').getAttribute('data-k');
  key('ArrowLeft'); r.after_back = shown();
  key('End'); r.end = shown(); key('ArrowRight'); r.past_end = shown();
  key('Home'); r.home = shown();
  var pre = document.createElement('pre'); pre.id = 'selftest'; pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
 }
 // The page unpacks its boards first, then says so.
 if (document.body.getAttribute('data-ready')) { run(); } else { document.addEventListener('review-ready', run); }
})();
</script>
"""


def test_the_page_runs_in_a_real_browser(page, tmp_path):
    path, html, rec, rv = page
    probe = tmp_path / "probe.html"
    probe.write_text(html.replace("</body>", SELF_TEST + "</body>"), encoding="utf-8")
    out = _chromium("--virtual-time-budget=20000", "--dump-dom", probe.as_uri())
    assert out.returncode == 0, out.stderr[-2000:]
    found = re.search(r'<pre id="selftest">(.*?)</pre>', out.stdout, re.S)
    assert found, "the self-test did not run: " + out.stdout[-500:]
    r = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))
    n = len(rec.moves)
    assert r["ready"] == "1", r                  # the page's own script ran to its end
    assert r["moves"] == n + 1 and r["lines"] == 2 and r["boards_shown"] == 1
    assert r["first"] == "0" and r["after_two"] == "2" and r["selected"] == "2" and r["after_back"] == "1"
    assert r["end"] == str(n) and r["past_end"] == str(n) and r["home"] == "0"
    assert r["detail0"].startswith("Move 1, seat 0") and r["detail2"].startswith("Move 3")


def test_a_screenshot_of_the_page(page, tmp_path):
    path = page[0]
    shot = os.path.join(SCREENSHOT_DIR or str(tmp_path), "review.png")
    out = _chromium("--virtual-time-budget=20000", f"--screenshot={shot}", "--window-size=1400,1000", path.as_uri())
    assert out.returncode == 0, out.stderr[-2000:]
    data = open(shot, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000   # a blank page compresses to a few kB


@pytest.mark.parametrize("game", ["leonardo", "craftsmen"])
def test_pages_of_the_hidden_information_rulesets(game):
    m = match.play(game, ["greedy", "random"], games=1, seed=2, keep_moves=True).records[0]
    rec = records.from_match(m, game)
    rv = review.review(rec, seat=1, iterations=20, seed=1, exact_nodes=0)
    html = review_page(rec, rv)
    assert html.count('class="board"') == len(rec.moves) + 1
    boards = [unpack_board(b) for b in json.loads(_script(html, "boards-data"))]
    assert len(boards) == len(rec.moves) + 1 and all(b.startswith("<svg") for b in boards)
    played = sum('data-mark="played"' in b for b in boards)
    assert played >= sum(1 for e in rec.moves if e["seat"] != "chance") // 2
    data = json.loads(_script(html, "review-data"))
    assert data["moves"] == len(rec.moves) and {d["seat"] for d in data["decisions"].values()} == {1}


GRAPH_TEST = """
<script>
(function () {
 function run() {
  var svg = document.querySelector('#graphbox svg');
  var cursor = document.getElementById('cursor');
  var left = parseFloat(svg.getAttribute('data-left')), w = parseFloat(svg.getAttribute('data-plot-width'));
  var moves = parseInt(svg.getAttribute('data-moves'), 10);
  function shown() { return document.querySelector('#boards .board:not([hidden])').getAttribute('data-k'); }
  function screenX(x) { var pt = svg.createSVGPoint(); pt.x = x; pt.y = 50; return pt.matrixTransform(svg.getScreenCTM()); }
  function clickAt(k, nudge) {
    var at = screenX(left + w * k / moves + nudge);
    svg.dispatchEvent(new MouseEvent('click', {clientX: at.x, clientY: at.y, bubbles: true}));
  }
  function cursorX() { var r = cursor.getBoundingClientRect(); return r.left + r.width / 2; }
  var r = {moves: moves, cursor_tag: cursor.tagName, x0: cursorX(), want0: screenX(left).x};
  var target = Math.round(moves * 0.6);
  clickAt(target, 1.5);               // a little off the move: the nearest one is taken
  r.target = target; r.after_click = shown(); r.x1 = cursorX(); r.want1 = screenX(left + w * target / moves).x;
  r.detail = document.getElementById('detail').textContent;
  r.dots = Array.prototype.map.call(document.querySelectorAll('#graphbox .markdot'), function (d) {
    return [d.getAttribute('data-k'), d.getAttribute('data-mark')]; });
  r.ticks = Array.prototype.map.call(document.querySelectorAll('#graphbox .xtick'), function (x) { return x.textContent; });
  // A dot's own click selects its move's position (after the move).
  var dot = document.querySelector('#graphbox .markdot');
  if (dot) {
    var b = dot.getBoundingClientRect();
    svg.dispatchEvent(new MouseEvent('click', {clientX: b.left + b.width / 2, clientY: b.top + b.height / 2, bubbles: true}));
    r.after_dot = shown();
  }
  var decision = document.querySelector('#moves li.decision');
  var first = parseInt(decision.getAttribute('data-k'), 10);
  decision.click(); r.line_k = first; r.line = document.getElementById('line').textContent;
  r.scroll_width = document.documentElement.scrollWidth; r.inner_width = window.innerWidth;
  var right = 0;
  Array.prototype.forEach.call(document.querySelectorAll('#graphbox svg, #boards .board:not([hidden]) svg, #moves, #summary'),
    function (e) { right = Math.max(right, e.getBoundingClientRect().right); });
  r.rightmost = right;
  r.board_width = document.querySelector('#boards .board:not([hidden]) svg').getBoundingClientRect().width;
  r.winner = (document.getElementById('winner') || {}).textContent || null;
  var pre = document.createElement('pre'); pre.id = 'selftest'; pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
 }
 if (document.body.getAttribute('data-ready')) { run(); } else { document.addEventListener('review-ready', run); }
})();
</script>
"""


def _probe(html, tmp_path, script, *args):
    probe = tmp_path / "probe.html"
    probe.write_text(html.replace("</body>", script + "</body>"), encoding="utf-8")
    out = _chromium("--virtual-time-budget=20000", *args, "--dump-dom", probe.as_uri())
    assert out.returncode == 0, out.stderr[-2000:]
    found = re.search(r'<pre id="selftest">(.*?)</pre>', out.stdout, re.S)
    assert found, "the self-test did not run: " + out.stdout[-500:]
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))


def test_the_graph_is_clickable_marked_numbered_and_the_page_fits_1000_px(page, tmp_path):
    path, html, rec, rv = page
    r = _probe(html, tmp_path, GRAPH_TEST, "--window-size=1000,900")
    n = len(rec.moves)
    assert r["moves"] == n
    # The cursor starts at move 0 and moves to the clicked move, with the board.
    assert abs(r["x0"] - r["want0"]) < 2, r
    assert r["after_click"] == str(r["target"]) and abs(r["x1"] - r["want1"]) < 2, r
    assert r["x1"] - r["x0"] > 100
    assert r["detail"].startswith(f"Move {r['target'] + 1}") or r["target"] == n
    # The marks as dots, one per marked decision, in its colour's name; a dot's click selects after its move.
    marked = {str(d.index): d.mark for d in rv.decisions if d.mark}
    assert marked and dict(r["dots"]) == marked
    first_dot = min(marked, key=int)
    assert r["after_dot"] == str(int(first_dot) + 1)
    # The x axis numbered by move.
    ticks = [int(x) for x in r["ticks"]]
    assert ticks[0] == 0 and len(ticks) >= 4 and ticks == sorted(ticks) and ticks[-1] <= n
    # The engine's line for the selected decision, its best move first.
    d = rv.by_index()[r["line_k"]]
    assert d.line and d.line[0] == d.best
    assert r["line"].startswith("Engine's line from here") and " ".join(d.line[:2]) in r["line"].replace("  ", " ")
    # Nothing clipped at 1000 px: no horizontal scroll, every part inside the window, the board wide.
    assert r["inner_width"] == 1000 and r["scroll_width"] <= 1000 and r["rightmost"] <= 1000, r
    assert r["board_width"] >= 900, r


def test_the_header_names_a_tie_break_winner():
    """A game whose top score is shared but won by one seat says so in the header."""
    from atelier.report import result_line

    class Final:
        def __init__(self, scores, returns):
            self._s, self._r = scores, returns

        def is_terminal(self):
            return True

        def scores(self):
            return self._s

        def returns(self):
            return self._r

    class Rec:
        seats = ["ann", "bob", "seat 2"]

    assert result_line(Rec, Final([30, 30, 12], [0.0, 1.0, 0.0])) == \
        "winner: seat 1 bob, on the tie-break (tied on 30 with seat 0 ann)"
    assert result_line(Rec, Final([30, 30, 12], [0.5, 0.5, 0.0])) == "shared win: seat 0 ann, seat 1 bob"
    assert result_line(Rec, Final([10, 30, 12], [0.0, 1.0, 0.0])) == "winner: seat 1 bob"


def test_a_tie_break_on_a_real_page():
    """Craftsmen greedy games until one ends tied on the top score: the page's header says who
    won the tie-break."""
    for seed in range(1, 40):
        m = match.play("craftsmen", ["greedy", "greedy"], games=1, seed=seed, keep_moves=True).records[0]
        rec = records.from_match(m, "craftsmen")
        final = rec.replay()
        scores = list(final.scores())
        if scores.count(max(scores)) > 1 and sum(r > 0 for r in final.returns()) == 1:
            break
    else:
        pytest.skip("no tie-break in these games")
    rv = review.review(rec, seat=0, iterations=5, seed=1, exact_nodes=0)
    assert "on the tie-break (tied on" in review_page(rec, rv)

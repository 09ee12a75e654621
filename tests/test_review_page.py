"""The review page (`atelier review --html`) in a real browser: headless Chromium loads it, the
page's own script has run (move list, graph, a board shown, data-ready set), the arrow keys step
through the boards, and a screenshot is saved. Without Chromium the browser tests are skipped
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

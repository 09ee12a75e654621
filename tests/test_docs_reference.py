"""What the documents state about the package matches the package.

1. Every rules section the project cites exists in the rules reference of its ruleset,
   docs/rules/<ruleset>.md.

Messages, comments and documents say `spec 4.1`, `§6.1`, `spec 7.1-7.4`, `spec R9`, `spec S14`;
each means a section of the rules reference of the ruleset the file belongs to (README: "The
rules, and what spec X.Y means"): a file whose path names leonardo or craftsmen belongs to that
ruleset, any other to inventors; in a Markdown file, a heading naming a ruleset claims the lines
under it. A citation of a section that page does not have is a dangling reference for the user
reading the message, so it fails here: fix the citation, or add the section to the page. A
ruleset still being built has no reference yet: its check is skipped, and says so.

2. The team, inventor and card tables of docs/positions.md are the bundled edition's data.

3. Every file the documents (README.md, docs/) link to or cite by path exists in the project:
   a Markdown link `[text](path)` relative to the document, and a path written out
   (`src/atelier/limits.py`, `docs/rules/leonardo.md`) relative to the project root or to the
   document. A file outside the project (the original spec's `shared/rules/leonardo.md`) is a
   dangling reference for every reader of the repository.
"""
from __future__ import annotations

import json
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules" / "inventors.md"
RULESETS = ("inventors", "leonardo", "craftsmen")
POSITIONS = ROOT / "docs" / "positions.md"
EDITION = ROOT / "src" / "atelier" / "data" / "editions" / "inventors.json"
SCANNED = ["src", "cext", "solvers", "docs", "tests", "tools", "bench", "README.md"]
SUFFIXES = {".py", ".pyx", ".pxi", ".pxd", ".cpp", ".hpp", ".md"}
NUM = r"\d+(?:\.\d+)*"
# "spec 4.1", "rules spec §6.1", "§10", "spec 7.1-7.4", "spec R9", "spec S14"; "Leonardo §3.5.3"
# names its ruleset.
CITE = re.compile(rf"(?:\b(Leonardo|Craftsmen)\s+)?(?:\bspec\s+§?|§)({NUM}|[RS]\d+)(?:-§?({NUM}))?")
HEADING = re.compile(r"(#+) (.*)")


def defined_sections(text: str) -> set[str]:
    """Section ids the page defines: `## 5.` headings, `### 5.7` headings, paragraphs opening
    `4.1 **...`, numbered items under a section (5.7 item 3 = 5.7.3), scenarios `- **S9**` and
    rulings `- **R9.**`."""
    out, current = set(), None
    for line in text.splitlines():
        if m := re.match(r"## (\d+)\.", line):
            out.add(m.group(1))
            current = None
        elif m := re.match(rf"### ({NUM})\b", line):
            out.add(m.group(1))
            current = m.group(1)
        elif m := re.match(r"(\d+\.\d+) ", line):
            out.add(m.group(1))
            current = m.group(1)
        elif (m := re.match(r"(\d+)\. ", line)) and current:
            out.add(f"{current}.{m.group(1)}")
        elif m := re.match(r"- \*\*([RS]\d+)\.?\*\*", line):
            out.add(m.group(1))
    return out


def _ruleset_of(text: str, default: str) -> str:
    low = text.lower()
    return next((r for r in RULESETS if r in low), default)


def citations() -> dict[str, dict[str, list[str]]]:
    """Ruleset -> cited section id -> the places (file:line) citing it."""
    found: dict[str, dict[str, list[str]]] = {r: {} for r in RULESETS}
    files = []
    for name in SCANNED:
        p = ROOT / name
        files += [p] if p.is_file() else [f for f in p.rglob("*") if f.suffix in SUFFIXES]
    for f in files:
        rel = f.relative_to(ROOT)
        base = _ruleset_of(str(rel), "inventors")
        current, level = base, None
        for n, line in enumerate(f.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if f.suffix == ".md" and (h := HEADING.match(line)):
                if level is not None and len(h.group(1)) <= level:
                    current, level = base, None
                named = _ruleset_of(h.group(2), None)
                if named:
                    current, level = named, len(h.group(1))
            for m in CITE.finditer(line):
                ruleset = m.group(1).lower() if m.group(1) else current
                for sec in filter(None, m.groups()[1:]):
                    found[ruleset].setdefault(sec, []).append(f"{rel}:{n}")
    return found


def test_the_parser_sees_the_page():
    """The two helpers themselves (or the test below passes by finding nothing)."""
    have = defined_sections(RULES.read_text(encoding="utf-8"))
    assert {"1", "4.1", "5.7", "5.7.3", "6.1.3", "8.13", "11", "S15", "R9"} <= have
    assert "5.7.9" not in have and "12" not in have
    cited = citations()
    assert {"4.1", "8.13", "2.6"} <= set(cited["inventors"])
    assert {"3.5.1", "11.4"} <= set(cited["leonardo"]) and "23" in cited["craftsmen"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_cited_section_exists(ruleset):
    page = ROOT / "docs" / "rules" / f"{ruleset}.md"
    if not page.exists():
        pytest.skip(f"docs/rules/{ruleset}.md is not written yet (the ruleset is being built)")
    have = defined_sections(page.read_text(encoding="utf-8"))
    missing = {sec: places for sec, places in citations()[ruleset].items() if sec not in have}
    assert not missing, f"cited but not in docs/rules/{ruleset}.md: " + "; ".join(
        f"{sec} ({', '.join(places[:3])})" for sec, places in sorted(missing.items()))


def _vec(text: str) -> list[int]:
    return [int(x) for x in text.strip("[] ").split(",")]


def test_positions_tables_are_the_edition():
    """Every inventor and every card of the bundled edition, with its numbers, and nothing else."""
    ed = json.loads(EDITION.read_text(encoding="utf-8"))
    text = POSITIONS.read_text(encoding="utf-8")
    inv = re.compile(r"^\| `(\w+)` \(([^)]*)\) \| `(\w+)` \| ([^|]+) \| (\[[\d,]+\]) \| (\[[\d,]+\]) \| (\d+) \|$")
    card = re.compile(r"^\| `([IV]+\d\d)` \| ([^|]+) \| (\d) \| (\[[\d,]+\]) \|$")
    doc_inv, doc_cards = [], []
    for line in text.splitlines():
        if m := inv.match(line):
            team, era, iid, name, start, goal, vp = m.groups()
            doc_inv.append((team, era, iid, name.strip(), _vec(start), _vec(goal), int(vp)))
        elif m := card.match(line):
            cid, name, typ, cost = m.groups()
            doc_cards.append((cid, name.strip(), int(typ), _vec(cost)))
    want_inv = [(t["id"], t["era"], i["id"], i["name"], i["start"], i["goal"], i["goal_vp"])
                for t in ed["teams"] for i in t["inventors"]]
    want_cards = [(c["id"], c["name"], c["type"], c["cost"]) for c in ed["inventions"]]
    assert doc_inv == want_inv
    assert doc_cards == want_cards


DOC_FILES = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
LINK = re.compile(r"\]\(([^)\s]+)\)")
# A path written out: directories then a file name with a suffix a project file has.
FILE_PATH = re.compile(r"(?<![\w/.:-])((?:\.\./|[\w.-]+/)+[\w.-]+\.(?:md|py|pyx|pxi|pxd|cpp|hpp|json|toml|sh|cfg|txt|in))\b")


def document_references() -> list[tuple[str, str, str]]:
    """(document:line, kind, target) for every relative link and every file path cited in the
    text (not in a fenced block: the files commands there write are the reader's own)."""
    out = []
    for doc in DOC_FILES:
        rel = doc.relative_to(ROOT)
        fenced = False
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
            if fenced:
                continue
            for m in LINK.finditer(line):
                target = m.group(1).split("#")[0]
                if target and not re.match(r"[a-z][a-z0-9+.-]*:", target):   # not https:, mailto:
                    out.append((f"{rel}:{n}", "link", target))
            for m in FILE_PATH.finditer(line):
                if not any(c in m.group(1) for c in "<>*{}"):   # a pattern, not a file
                    out.append((f"{rel}:{n}", "path", m.group(1)))
    return out


def test_the_reference_scanner_sees_links_and_paths():
    refs = {(kind, target) for _, kind, target in document_references()}
    assert ("link", "docs/solvers.md") in refs and ("link", "rules/leonardo.md") in refs
    assert ("path", "src/atelier/limits.py") in refs


def test_every_file_a_document_links_or_cites_exists():
    missing = []
    for where, kind, target in document_references():
        doc_dir = (ROOT / where.split(":")[0]).parent
        places = [doc_dir / target] if kind == "link" else [doc_dir / target, ROOT / target]
        if not any(p.resolve().is_relative_to(ROOT) and p.exists() for p in places):
            missing.append(f"{where}: {target}")
    assert not missing, "documents name files the project does not have: " + "; ".join(missing)

"""Every rules section the project cites exists in docs/rules/inventors.md.

Messages, comments and documents say `spec 4.1`, `§6.1`, `spec 7.1-7.4`, `spec R9`, `spec S14`;
all of them mean a section of docs/rules/inventors.md (README: "The rules, and what spec X.Y
means"). A citation of a section that page does not have is a dangling reference for the user
reading the message, so it fails here: fix the citation, or add the section to the page.
"""
from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules" / "inventors.md"
SCANNED = ["src", "cext", "solvers", "docs", "tests", "tools", "bench", "README.md"]
SUFFIXES = {".py", ".pyx", ".pxi", ".pxd", ".cpp", ".hpp", ".md"}
NUM = r"\d+(?:\.\d+)*"
# "spec 4.1", "rules spec §6.1", "§10", "spec 7.1-7.4", "spec R9", "spec S14"; a section of
# another ruleset's spec ("Leonardo §3.5.3") is not ours.
CITE = re.compile(rf"(?<!Leonardo )(?<!Craftsmen )(?:\bspec\s+§?|§)({NUM}|[RS]\d+)(?:-§?({NUM}))?")


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


def citations() -> dict[str, list[str]]:
    """Cited section id -> the places (file:line) citing it."""
    found: dict[str, list[str]] = {}
    files = []
    for name in SCANNED:
        p = ROOT / name
        files += [p] if p.is_file() else [f for f in p.rglob("*") if f.suffix in SUFFIXES]
    for f in files:
        for n, line in enumerate(f.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for m in CITE.finditer(line):
                for sec in filter(None, m.groups()):
                    found.setdefault(sec, []).append(f"{f.relative_to(ROOT)}:{n}")
    return found


def test_the_parser_sees_the_page():
    """The two helpers themselves (or the test below passes by finding nothing)."""
    have = defined_sections(RULES.read_text(encoding="utf-8"))
    assert {"1", "4.1", "5.7", "5.7.3", "6.1.3", "8.13", "11", "S15", "R9"} <= have
    assert "5.7.9" not in have and "12" not in have
    cited = citations()
    assert {"4.1", "8.13", "2.6"} <= set(cited)


def test_every_cited_section_exists():
    have = defined_sections(RULES.read_text(encoding="utf-8"))
    missing = {sec: places for sec, places in citations().items() if sec not in have}
    assert not missing, "cited but not in docs/rules/inventors.md: " + "; ".join(
        f"{sec} ({', '.join(places[:3])})" for sec, places in sorted(missing.items()))

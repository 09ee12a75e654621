"""The documents' examples run as written: README.md and docs/**/*.md.

Each document's ```sh blocks are run in order, line by line, in one fresh temporary directory
(so a file one line writes is there for the next), with `atelier` and `python` being this
interpreter and the atelier it imports (the source tree under PYTHONPATH=src, the installed
package in CI). A line is a command when it starts with `atelier ` or `python`; setup lines (a
venv, pip) and anything else (`bash .ci/run`, `pytest`) are skipped. Each command must exit 0,
or N when its trailing comment says `exit N` (an example that shows an error).

Marker, for a block that must not run here: an HTML comment starting `<!-- not-run` on the line
before the opening fence, saying why (`<!-- not-run: takes minutes; ... -->`). Use it for long
runs that have a short runnable twin, or commands that need the source tree; never to hide a
failing example.

A document's ```python blocks are one session: they are joined in order and run as one script
in a fresh directory.
"""
from __future__ import annotations

import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
NOT_RUN = "<!-- not-run"
SETUP = re.compile(r"(-m venv\b|\bpip install\b)")
EXIT = re.compile(r"\s#[^#]*\bexit (\d+)\b[^#]*$")
TIMEOUT = 60  # seconds per command; every example is meant to take a few


def blocks(path: pathlib.Path, lang: str) -> list[tuple[int, list[str]]]:
    """(line number, lines) of every ```lang block not marked not-run."""
    out, lines = [], path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```" + lang:
            start, body = i + 1, []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            marked = start >= 2 and lines[start - 2].strip().startswith(NOT_RUN)
            if not marked:
                out.append((start, body))
        i += 1
    return out


def commands(path: pathlib.Path) -> list[tuple[int, str, int]]:
    """(line number, command, expected exit code) of every runnable sh line of a document."""
    out = []
    for start, body in blocks(path, "sh"):
        joined, first = "", None
        for n, line in enumerate(body, start + 1):
            if first is None:
                first = n
            if line.rstrip().endswith("\\"):
                joined += line.rstrip()[:-1] + " "
                continue
            cmd, joined, at, first = (joined + line).strip(), "", first, None
            if not cmd.startswith(("atelier ", "python")) or SETUP.search(cmd):
                continue
            m = EXIT.search(cmd)
            out.append((at, cmd, int(m.group(1)) if m else 0))
    return out


@pytest.fixture
def sandbox(tmp_path):
    """A fresh directory and an environment where `atelier` and `python` are this interpreter."""
    bindir = tmp_path / "_bin"
    bindir.mkdir()
    for name, args in (("atelier", "-m atelier"), ("python", "")):
        shim = bindir / name
        shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} {args} "$@"\n')
        shim.chmod(0o755)
    env = dict(os.environ, PATH=f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
               COLUMNS="120", NO_COLOR="1")
    if env.get("PYTHONPATH"):  # the tests may run from the source tree with a relative path
        env["PYTHONPATH"] = os.pathsep.join(str(pathlib.Path(p).resolve())
                                            for p in env["PYTHONPATH"].split(os.pathsep) if p)
    work = tmp_path / "work"
    work.mkdir()
    return work, env


def run(cmd: str, work, env):
    return subprocess.run(["/bin/sh", "-c", cmd], cwd=work, env=env, capture_output=True,
                          text=True, timeout=TIMEOUT)


def test_the_readme_has_commands():
    """The extraction itself: the README's command blocks are found (or this file tests nothing)."""
    found = commands(ROOT / "README.md")
    assert len(found) >= 10
    assert any(code != 0 for _, _, code in found)  # the error example is recognised
    assert not any(SETUP.search(c) for _, c, _ in found)


@pytest.mark.parametrize("doc", [d for d in DOCS if commands(d)],
                         ids=lambda d: str(d.relative_to(ROOT)))
def test_sh_blocks_run_as_written(doc, sandbox):
    work, env = sandbox
    for line, cmd, code in commands(doc):
        res = run(cmd, work, env)
        assert res.returncode == code, (
            f"{doc.name}:{line}: `{cmd}` exited {res.returncode}, expected {code}\n"
            f"stderr: {res.stderr[-2000:]}")
        if code == 2:  # the house rule for bad input: one line `error: ...`
            assert res.stderr.strip().startswith("error: ") and len(res.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("doc", [d for d in DOCS if blocks(d, "python")],
                         ids=lambda d: str(d.relative_to(ROOT)))
def test_python_blocks_run_as_written(doc, sandbox):
    work, env = sandbox
    script = work / "session.py"
    script.write_text("\n\n".join("\n".join(body) for _, body in blocks(doc, "python")) + "\n")
    res = subprocess.run([sys.executable, str(script)], cwd=work, env=env, capture_output=True,
                         text=True, timeout=TIMEOUT)
    assert res.returncode == 0, f"{doc.name}: the python blocks failed\n{res.stderr[-3000:]}"

"""Running the `atelier` command in-process for the CLI tests."""
import json

from click.testing import CliRunner

from atelier.cli import main


def runner():
    try:
        return CliRunner(mix_stderr=False)  # click < 8.2 mixes stderr in unless told not to
    except TypeError:
        return CliRunner()


def run(*args, input=None, env=None):
    return runner().invoke(main, [str(a) for a in args], input=input, env=env)


def one_error_line(r) -> str:
    """The single `error:` line of a failed run (asserting exit 2, nothing else printed)."""
    assert r.exit_code == 2, (r.exit_code, r.stdout, r.stderr)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    assert "Traceback" not in r.stdout + r.stderr and r.stdout == ""
    return lines[0]


def strict_json(text: str):
    """Parse JSON the way strict parsers do: NaN and Infinity are not JSON."""
    def refuse(name):
        raise AssertionError(f"not JSON: {name}")
    return json.loads(text, parse_constant=refuse)

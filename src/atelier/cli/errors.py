"""The single place where the CLI reports an error: one line `error: ...`, exit code 2.

Everything a user typed may be echoed in a message, so the line is made safe here: control
characters (a newline would fake a second error line, an escape sequence would reach the
terminal) and undecodable bytes are written as escapes.
"""
from __future__ import annotations

import functools
import os
import sys
import warnings

import click

from ..errors import EditionWarning, InputError, quoted  # noqa: F401  quoted: the commands import it from here

USAGE_EXIT = 2


def one_line(text: str) -> str:
    """`text` with control characters, lone surrogates and other unprintables escaped (\\n, \\x1b,
    \\udcff, ...) so it prints as exactly one line."""
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in str(text))


def print_error(message) -> None:
    click.echo(f"error: {one_line(message)}", err=True)


def fail(message, code: int = USAGE_EXIT):
    """Print one error line and exit with `code`."""
    print_error(message)
    sys.exit(code)


def run_guarded(fn):
    """Decorate a click command body: InputError/ValueError become `error: ...` and exit 2."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (InputError, ValueError) as exc:
            fail(exc)

    return wrapper


def undecodable_argument(args) -> str | None:
    """The first argument that was not valid UTF-8 (Python hands it over with surrogate escapes),
    with its bad bytes written as \\xNN; None if every argument is text."""
    for a in args:
        if any("\udc80" <= ch <= "\udcff" for ch in a):
            return "".join(f"\\x{ord(ch) - 0xDC00:02x}" if "\udc80" <= ch <= "\udcff" else one_line(ch)
                           for ch in a)
    return None


# click >= 8.2 only; `except ()` matches nothing on older versions.
_NoSuchCommand = getattr(click.exceptions, "NoSuchCommand", ())
_NoArgsIsHelpError = getattr(click.exceptions, "NoArgsIsHelpError", ())


def usage_message(exc: click.UsageError) -> str:
    """click's parsing errors in the house form `<field>: <reason>`."""
    see = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
    if isinstance(exc, click.MissingParameter) and exc.param is not None:
        return f"{param_name(exc.param)}: missing{see}"
    if isinstance(exc, click.BadParameter) and exc.param is not None:
        return f"{param_name(exc.param)}: {exc.message.rstrip('.')}"
    if isinstance(exc, click.BadOptionUsage) and not isinstance(exc, click.NoSuchOption):
        reason = exc.message.replace(f"Option {exc.option_name!r} ", "").rstrip(".")
        return f"{exc.option_name}: {reason}{see}"
    if isinstance(exc, click.NoSuchOption):
        return f"{exc.option_name}: no such option{_did_you_mean(exc.possibilities)}{see}"
    if _NoSuchCommand and isinstance(exc, _NoSuchCommand):
        return f"{quoted(exc.command_name)}: no such command{_did_you_mean(exc.possibilities)}{see}"
    return exc.format_message().rstrip(".") + see


def _did_you_mean(possibilities) -> str:
    return f" (did you mean {' or '.join(sorted(possibilities))}?)" if possibilities else ""


def param_name(param) -> str:
    if isinstance(param, click.Option):
        longs = [o for o in param.opts if o.startswith("--")]
        return (longs or param.opts)[0]
    return param.human_readable_name


def print_edition_warnings() -> None:
    """While a command runs (inside warnings.catch_warnings), every edition warning it reads
    (an --edition file, an edition embedded in a position or record) prints on stderr as one
    line `warning: edition: ...`, each once; other warnings keep Python's handling."""
    shown: set = set()
    previous = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if not issubclass(category, EditionWarning):
            return previous(message, category, filename, lineno, file, line)
        text = one_line(message)
        if text not in shown:
            shown.add(text)
            click.echo(f"warning: {text}", err=True)

    warnings.simplefilter("always", EditionWarning)
    warnings.showwarning = show


class Group(click.Group):
    """A click group whose every failure, its own parsing errors included, is one error line."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if args is None:
            args = sys.argv[1:]
        bad = undecodable_argument(args)
        if bad is not None:
            fail(f"argument '{bad}': not valid UTF-8 (arguments are text: moves, file names, numbers)")
        try:
            with warnings.catch_warnings():
                print_edition_warnings()
                return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _NoArgsIsHelpError as exc:   # bare `atelier`: the help, as click shows it
            click.echo(exc.ctx.get_help(), err=True)
            sys.exit(USAGE_EXIT)
        except click.UsageError as exc:
            fail(usage_message(exc), exc.exit_code)
        except click.ClickException as exc:
            fail(exc.format_message(), exc.exit_code)
        except click.Abort:
            fail("aborted", 1)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except BrokenPipeError:
            # `atelier show ... | head`: the reader left; no traceback, and none at exit either.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)

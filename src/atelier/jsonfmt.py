"""JSON in and out. Writing: for people (positions: nested structure indented, short lists and
objects kept on one line) and strict for programs (no NaN/Infinity, which json.dumps writes by
default). Reading (load_file, loads, check_plain) is the one gate every position and edition passes."""
from __future__ import annotations

import json
import math
import os
from pathlib import Path

from .errors import InputError

WIDTH = 120


def dumps(obj, indent: int = 0) -> str:
    flat = json.dumps(obj, ensure_ascii=False, allow_nan=False)
    if len(flat) + indent <= WIDTH or not isinstance(obj, (dict, list)) or not obj:
        return flat
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(obj, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {dumps(v, indent + 2).lstrip()}"
                 for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    items = [inner + dumps(v, indent + 2).lstrip() for v in obj]
    return "[\n" + ",\n".join(items) + "\n" + pad + "]"


def finite(obj):
    """`obj` with every NaN or infinite float replaced by None (JSON null: "no data")."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite(v) for v in obj]
    return obj


def strict_dumps(obj, indent=None) -> str:
    """Strict JSON (RFC 8259) for --json output: non-finite numbers become null."""
    return json.dumps(finite(obj), allow_nan=False, indent=indent)


# ---- reading: the one place positions and editions are parsed -----------------------------

# Positions and editions nest 6 levels; anything far deeper is not one of ours, and refusing it
# here keeps every later step (field readers, messages, copies) clear of Python's recursion limit.
MAX_DEPTH = 32


def load_file(path, label: str = "file"):
    """The JSON value in the file at `path`; InputError("<label> '<path>': ...") if unreadable."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"{label}: expected a file path, got {type(path).__name__}")
    where = f"{label} '{path}'"
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(f"{where}: not found") from None
    except IsADirectoryError:
        raise InputError(f"{where}: is a directory") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL or a lone surrogate in the path
        raise InputError(f"{where}: cannot read ({exc.__class__.__name__})") from None
    return loads(raw, where)


def loads(text, where: str, sep: str | None = ": "):
    """Parse JSON text (str, or bytes that must be UTF-8) and check it is plain JSON data."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"{where}: not UTF-8 text (byte 0x{text[exc.start]:02x} at offset {exc.start})") from None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}: invalid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except RecursionError:
        raise InputError(f"{where}: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # an integer literal beyond Python's int-from-text digit limit
        raise InputError(f"{where}: invalid JSON (a number has too many digits)") from None
    check_plain(value, where, sep)
    return value


def check_plain(value, where: str, sep: str | None = ": ") -> None:
    """InputError unless `value` is plain JSON data: dicts with str keys, lists, str (valid
    Unicode), int of at most 64 bits, finite float, bool, None; nested at most MAX_DEPTH deep.

    Field readers can then test types with isinstance and build messages with json.dumps without
    meeting sets, bytes, NaN, unhashable keys or recursion. Iterative, so depth costs no stack.
    Messages read "<where><sep><path>: reason"; with sep None a path stands alone, as the field
    of the document it names ("seats[0].won: ..."), and `where` names only the whole document."""
    if not _plain_fast(value):
        _check_slow(value, where, sep)


def _plain_fast(value) -> bool:
    """True if `value` is certainly plain (exact types only, no paths kept: every load pays this)."""
    stack = [(value, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        v, depth = pop()
        t = type(v)
        if t is str:
            if not v.isascii() and not _encodable(v):
                return False
        elif t is dict:
            if depth > MAX_DEPTH:
                return False
            for k, x in v.items():
                if type(k) is not str or (not k.isascii() and not _encodable(k)):
                    return False
                push((x, depth + 1))
        elif t is list:
            if depth > MAX_DEPTH:
                return False
            for x in v:
                push((x, depth + 1))
        elif t is int:
            if not -(1 << 64) < v < (1 << 64):
                return False
        elif t is float:
            if not math.isfinite(v):
                return False
        elif not (v is None or t is bool):
            return False
    return True


def _encodable(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_slow(value, where: str, sep: str) -> None:
    """check_plain with paths, for the message (and for dict/list subclasses, which pass)."""
    stack = [(value, "", 1)]
    while stack:
        v, path, depth = stack.pop()
        here = (path if sep is None else f"{where}{sep}{path}") if path else where
        if isinstance(v, (dict, list)) and depth > MAX_DEPTH:
            raise InputError(f"{where}: nested deeper than {MAX_DEPTH} levels")
        if v is None or isinstance(v, bool):
            continue
        if isinstance(v, int):
            if v.bit_length() > 64:
                raise InputError(f"{here}: an integer of {v.bit_length()} bits is out of any range")
        elif isinstance(v, float):
            if not math.isfinite(v):
                raise InputError(f"{here}: {v} is not a JSON number")
        elif isinstance(v, str):
            _check_text(v, here)
        elif isinstance(v, list):
            stack.extend((x, f"{path}[{i}]", depth + 1) for i, x in enumerate(v))
        elif isinstance(v, dict):
            for k, x in v.items():
                if not isinstance(k, str):
                    raise InputError(f"{here}: key {_short(k)} is not a string (JSON keys are text)")
                _check_text(k, here)
                stack.append((x, f"{path}.{k}" if path else k, depth + 1))
        else:
            raise InputError(f"{here}: a {type(v).__name__} is not JSON data "
                             "(use objects, lists, strings, numbers, true/false, null)")


def _check_text(s: str, here: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"{here}: {_short(s)} is not valid text (it holds a lone surrogate)") from None


def _short(v) -> str:
    """repr() for a message, never failing and never long."""
    if isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > 64:
        return f"an integer of {v.bit_length()} bits"
    try:
        r = repr(v)
    except Exception:  # noqa: BLE001 - a message must not fail on the value it describes
        r = f"<{type(v).__name__}>"
    return r if len(r) <= 80 else r[:60] + "..."

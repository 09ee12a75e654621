"""JSON output: for people (positions: nested structure indented, short lists and objects kept on
one line) and strict for programs (no NaN/Infinity, which json.dumps writes by default)."""
from __future__ import annotations

import json
import math

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

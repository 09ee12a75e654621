"""JSON for people: nested structure indented, short lists and objects kept on one line."""
from __future__ import annotations

import json

WIDTH = 120


def dumps(obj, indent: int = 0) -> str:
    flat = json.dumps(obj, ensure_ascii=False)
    if len(flat) + indent <= WIDTH or not isinstance(obj, (dict, list)) or not obj:
        return flat
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(obj, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {dumps(v, indent + 2).lstrip()}"
                 for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    items = [inner + dumps(v, indent + 2).lstrip() for v in obj]
    return "[\n" + ",\n".join(items) + "\n" + pad + "]"

"""JSON from people and programs, refusing what would choke the parser, the engines or PostgreSQL later.

Deep nesting (json.loads raises RecursionError, not ValueError), NaN and Infinity, floats that
overflow, NUL characters and lone surrogates (PostgreSQL stores neither in a JSON column) all raise
ValueError with a message a client can read. The board's move form and the API read bodies here.
"""

from __future__ import annotations

import json
import math
from typing import Any


def loads(text: str) -> Any:
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except RecursionError:
        raise ValueError("it is nested too deeply") from None
    if _has_bad_text(value):
        raise ValueError("it holds a NUL character or a lone surrogate")
    return value


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("numbers must be finite")
    return value


def _has_bad_text(value: Any) -> bool:
    """NUL or a lone surrogate anywhere in a parsed document's strings (iteratively: no recursion)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item or any("\ud800" <= ch <= "\udfff" for ch in item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False

"""Pickling through the constructor, for the engine's classes that run compiled (guandan.native).

A class compiled by mypyc has no instance ``__dict__``, and a frozen dataclass refuses the attribute
assignments that default unpickling makes, so matches, observations and actions could not cross a
process boundary (worker pools, Ray). Rebuilding through ``__init__`` works compiled and uncompiled
alike, and re-derives what ``__post_init__`` derives.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any


def by_init(obj: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """``__reduce__`` of a dataclass: its class and its init fields, in order."""
    return type(obj), tuple(getattr(obj, f.name) for f in fields(obj) if f.init)

"""Validation of wire frames against the contract ``guandan schema`` prints."""

from __future__ import annotations

from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from guandan.schema import wire_schema


@cache
def _validator(definition: str) -> Draft202012Validator:
    schema = wire_schema()
    return Draft202012Validator({"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"})


def check(definition: str, value: Any) -> None:
    """Raise AssertionError naming the first place ``value`` breaks the contract's ``definition``."""
    errors = sorted(_validator(definition).iter_errors(value), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        raise AssertionError(f"{definition} breaks the schema at {list(e.path)}: {e.message}")

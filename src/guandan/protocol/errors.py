"""The protocol layer's one error type."""

from __future__ import annotations

from ..core.errors import GuandanError


class ProtocolError(GuandanError, ValueError):
    """A message, reply or configuration the 2020 protocol cannot carry, named with the reason."""

"""One exception hierarchy for everything the engine rejects.

Every error names the problem (the token, the key, the seat...) so that a user can fix the input.
Nothing is mutated when one is raised.
"""

from __future__ import annotations


class GuandanError(Exception):
    """Base of every error raised by the guandan package for bad input or illegal actions."""


class NotationError(GuandanError, ValueError):
    """A card token or card list could not be parsed."""


class InvalidHandError(GuandanError, ValueError):
    """A hand or play is physically impossible (e.g. a card more than twice)."""


class RuleSetError(GuandanError, ValueError):
    """Unknown preset, unknown config key or bad config value."""


class LevelError(GuandanError, ValueError):
    """A level outside 2…A."""


class ComboError(GuandanError, ValueError):
    """A declared combination is not among the interpretations of the cards."""


class IllegalActionError(GuandanError):
    """An action that the rules do not allow in the current state (wrong seat, cannot beat, …)."""


class RecordError(GuandanError, ValueError):
    """A game record is corrupted, inconsistent or of an unsupported version."""

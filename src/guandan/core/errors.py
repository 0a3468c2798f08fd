"""One exception hierarchy for everything the engine rejects.

Every error names the problem (the token, the key, the seat...) so that a user can fix the input.
Nothing is mutated when one is raised.

The errors a person meets through input (card notation, hands, levels, rule sets, record files) are
*catalogued*: raised as ``NotationError.said(N_("bad card token {token} …"), token=…)``, their ``str`` is
the English text and their ``msgid`` and ``params`` let a command or a page say them in the reader's
language (the ``cli`` catalogue holds the core's msgids). The core imports nothing else of guandan, so
it has its own :func:`N_`.
"""

from __future__ import annotations

import json
from enum import Enum
from typing import Any, Self


def N_(message: str) -> str:
    """Marks a msgid for the catalogue extractor (guandan.i18n.check); returns it unchanged."""
    return message


class GuandanError(Exception):
    """Base of every error raised by the guandan package for bad input or illegal actions.

    A catalogued error (made by :meth:`said`) carries ``msgid``, an English text with ``str.format``
    fields, and the ``params`` that fill them; its ``str`` is the filled English text. A parameter may
    itself be a catalogued error (a record's deal that holds a bad card token), said in the same language.
    """

    msgid: str | None = None
    params: dict[str, Any] = {}  # noqa: RUF012 -- never mutated: said() gives each error its own

    @classmethod
    def said(cls, msgid: str, /, **params: Any) -> Self:
        """An error of this class whose text is ``msgid`` filled with ``params`` (mark ``msgid`` with N_)."""
        error = cls(msgid.format(**params))
        error.msgid, error.params = msgid, params
        return error


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


def shown(value: object) -> str:
    """A value as an error message quotes it: the way JSON writes it (``null``, ``true``, ``"x"``, ``[3, 3]``),
    which is how the config, record or frame it came from spelled it, never Python's repr (``None``, ``'x'``)."""
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, (set, frozenset)):
        try:
            value = sorted(value)
        except TypeError:  # mixed types: any order will do
            value = list(value)
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not a JSON value: its own text when it has one, else what kind it is
        return str(value) if type(value).__str__ is not object.__str__ else type(value).__name__

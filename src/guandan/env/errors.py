"""The environments' own errors, said in the reader's language as every other face of the project speaks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ..core.errors import GuandanError
from ..present import said

E = TypeVar("E", bound=Exception)


def env_error(kind: Callable[[str], E], lang: str, msgid: str, /, **params: Any) -> E:
    """An error of type ``kind`` (a :class:`GuandanError`, a ``ValueError``, Gymnasium's ``ResetNeeded``…) whose
    text, what a traceback shows, is ``msgid`` (marked with N_, catalogue ``cli``) filled with ``params`` in
    ``lang`` (``"en"``: the English msgid filled); it carries ``msgid`` and ``params`` as
    :meth:`GuandanError.said` makes them, and ``said_in`` (``lang``), so that :func:`guandan.present.said` says
    it in any language, an English one in Chinese as a Chinese one in English. A parameter that is itself a
    catalogued error is said in the same language."""
    e = kind(said(GuandanError.said(msgid, **params), lang))
    # set as attributes: a ValueError or ResetNeeded has no said() of its own to make them
    e.msgid, e.params, e.said_in = msgid, params, lang  # type: ignore[attr-defined]
    return e


__all__ = ["env_error"]

"""The operating system's and the JSON reader's reasons in the reader's language.

``strerror`` (``No such file or directory``) and :class:`json.JSONDecodeError`'s ``msg`` (``Expecting value``)
are English whatever the user's language; the reasons a person meets reading and writing files are said
here from the ``cli`` catalogue, and any other keeps the system's own words.
"""

from __future__ import annotations

import errno
import json

from ..core.params import JsonProblem, OsReason
from . import N_, translator

#: The reasons a file operation commonly fails for, by errno.
_OS_REASONS = {
    errno.ENOENT: N_("no such file or folder"),
    errno.EISDIR: N_("it is a folder, not a file"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EEXIST: N_("it already exists"),
    errno.ENOSPC: N_("no space left on the device"),
    errno.EDQUOT: N_("the disk quota is used up"),
    errno.EROFS: N_("the file system is read-only"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.ELOOP: N_("too many symbolic links"),
    errno.EMFILE: N_("too many open files"),
    errno.ENFILE: N_("too many open files"),
    errno.EIO: N_("an input/output error"),
    errno.ENOTEMPTY: N_("the folder is not empty"),
    errno.EBUSY: N_("it is in use"),
    errno.ETXTBSY: N_("it is in use"),
    errno.EFBIG: N_("the file is too large"),
    errno.EINVAL: N_("an invalid argument"),
    errno.ENXIO: N_("no such device"),
    errno.ENODEV: N_("no such device"),
    errno.ECONNREFUSED: N_("the connection was refused"),
    errno.ETIMEDOUT: N_("the connection timed out"),
    errno.EHOSTUNREACH: N_("the host cannot be reached"),
    errno.ENETUNREACH: N_("the network cannot be reached"),
    errno.EADDRINUSE: N_("the address is already in use"),
    errno.EADDRNOTAVAIL: N_("the address is not available on this machine"),
}

#: What the JSON reader reports, by the start of its message (Python's own reader adds the character
#: after "Invalid control character").
_JSON_PROBLEMS = (
    ("Expecting value", N_("a value was expected")),
    ("Expecting property name enclosed in double quotes", N_("a name in double quotes was expected")),
    ("Expecting ':' delimiter", N_("a colon (:) was expected")),
    ("Expecting ',' delimiter", N_("a comma (,) was expected")),
    ("Unterminated string starting at", N_("a string is not closed")),
    ("Invalid control character", N_("a string holds a control character")),
    ("Invalid \\uXXXX escape", N_("an invalid \\u escape")),
    ("Invalid \\escape", N_("an invalid escape (\\)")),
    ("Extra data", N_("more follows the end of the value")),
)


def os_reason(e: OSError) -> OsReason:
    """``e``'s reason as an error parameter: its own words for programs, said for people."""
    return OsReason(e)


def json_problem(e: json.JSONDecodeError) -> JsonProblem:
    """``e``'s problem (without its position) as an error parameter."""
    return JsonProblem(e.msg)


def reason_text(value: OsReason | JsonProblem | OSError | json.JSONDecodeError, lang: str) -> str:
    """A reason in ``lang``: the catalogue's words for the common ones, else the system's own."""
    if isinstance(value, json.JSONDecodeError):
        value = json_problem(value)
    elif isinstance(value, OSError):
        value = os_reason(value)
    msgid: str | None
    if isinstance(value, OsReason):
        if value.errno is not None and value.errno < 0:  # a getaddrinfo code: the resolver knows no such name
            msgid = N_("no address is known by that name")
        else:
            msgid = _OS_REASONS.get(value.errno) if value.errno is not None else None
    else:
        msgid = next((m for start, m in _JSON_PROBLEMS if value.startswith(start)), None)
    return str(value) if msgid is None else translator("cli", lang).gettext(msgid)

"""What every `guandan` sub-command shares: its messages in the user's language, one way to report bad
input (a message naming the problem on stderr, exit status 2, nothing changed), to read a record file and
to prepare an output folder.

A command's words come from a catalogue (:class:`Messages`): the ``cli`` domain for the general commands,
``desk`` for the tournament desk, ``game`` and ``tui`` for the replay, review and play commands. The
language is the one ``LANGUAGE``/``LC_ALL``/``LANG`` ask for (:func:`~guandan.i18n.default_lang`, English
when they name none we have), or a command's ``--lang``. The engine core's input errors carry a msgid of
the ``cli`` catalogue: a command says them with :func:`said`, never with ``str(e)``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NoReturn, Protocol

import typer

from .core.cards import card_str
from .core.errors import GuandanError
from .core.params import CardList, JsonProblem, Listed, OsReason, Phrase, SeatNo
from .core.record import loads
from .i18n import LANGUAGES, N_, default_lang, fill, normalize_lang, translator
from .i18n.reasons import reason_text
from .linebreak import cell_len


class Messages:
    """The catalogue of one command-line domain, in the language the environment asks for, looked up at
    each call (so a command needs no translator threaded through, and a test may change ``LANG``)."""

    def __init__(self, domain: str) -> None:
        self.domain = domain

    def gettext(self, message: str, lang: str | None = None) -> str:
        return translator(self.domain, cli_lang(lang)).gettext(message)

    def ngettext(self, singular: str, plural: str, n: int, lang: str | None = None) -> str:
        return translator(self.domain, cli_lang(lang)).ngettext(singular, plural, n)


def cli_lang(lang: str | None = None) -> str:
    """``lang`` when it names a language we have, else the environment's (:func:`default_lang`)."""
    code = normalize_lang(lang) if lang else ""
    return code if code in LANGUAGES else default_lang()


_messages = Messages("cli")
_ = _messages.gettext


class Describes(Protocol):
    """What names an error's parameters for a person in one language (guandan.present.Presenter): a combo,
    cards, an action kind or a phase; ``None`` for a value it does not describe."""

    def param(self, value: object) -> str | None: ...


def said(e: BaseException, lang: str | None = None, domain: str = "cli", present: Describes | None = None) -> str:
    """An error's message in the user's language (``lang``, else the environment's): an error that carries
    a ``msgid`` (the engine core's errors, :meth:`~guandan.core.errors.GuandanError.said`) is said from the
    catalogue of ``domain`` (a review's from ``game``, the terminal client's from ``tui``) or else the
    ``cli`` one, its parameters as a person reads them: a seat counted from 1, cards and combos as
    ``present`` describes them (else with 10 written "10"), a catalogued error in the same language. An
    English reader gets an error's own text where it says more than its msgid, unless that text was said in
    another language (the error's ``said_in``: an environment's error raised in Chinese); any other error is
    its own text."""
    msgid = getattr(e, "msgid", None)
    params = getattr(e, "params", None)
    if not isinstance(msgid, str) or not isinstance(params, dict):
        return str(e)
    language = cli_lang(lang)
    text = msgid
    for catalogue in dict.fromkeys((domain, "cli")):
        text = translator(catalogue, language).gettext(msgid)
        if text != msgid:
            break
    if text == msgid and _said_in(e) == "en" and not _own_text_is_msgid(e, msgid, params):
        return str(e)  # English, and the error has words of its own beside its msgid: those say more
    try:
        return fill(text, **{k: _param(v, language, domain, present) for k, v in params.items()})
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        return str(e)


def _said_in(e: BaseException) -> str:
    """The language an error's own text is in: English unless it says otherwise (``said_in``)."""
    lang = getattr(e, "said_in", None)
    return lang if isinstance(lang, str) else "en"


def _own_text_is_msgid(e: BaseException, msgid: str, params: dict[str, Any]) -> bool:
    try:
        return str(e) == msgid.format(**params)
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        return False


def _param(value: object, lang: str, domain: str, present: Describes | None) -> object:
    """One parameter of an error as a person reads it (see :func:`said`)."""
    if isinstance(value, BaseException):
        return said(value, lang, domain, present)
    if present is not None and (text := present.param(value)) is not None:
        return text
    if isinstance(value, SeatNo):
        return int(value) + 1
    if isinstance(value, CardList):
        return " ".join(card_str(c).replace("T", "10") for c in value)
    if isinstance(value, Listed):
        return ", ".join(str(_param(v, lang, domain, present)) for v in value)
    if isinstance(value, OsReason | JsonProblem):
        return reason_text(value, lang)
    if isinstance(value, Phrase):
        return next((t for t in (translator(c, lang).gettext(value) for c in dict.fromkeys((domain, "cli")))
                     if t != value), str(value))
    return value


def reason_words(e: OSError | ValueError, lang: str | None = None) -> str:
    """Why a file could not be read or written, or a JSON text parsed, in the user's language."""
    if isinstance(e, OSError | json.JSONDecodeError):
        return reason_text(e, cli_lang(lang))
    return str(e)


def fail(message: str, code: int = 2, lang: str | None = None) -> NoReturn:
    """Print ``error: message`` (in the user's language) on stderr and exit with ``code`` (2: bad input)."""
    typer.echo(_messages.gettext("error: {problem}", lang).format(problem=message), err=True)
    raise typer.Exit(code)


def ensure_dir(path: Path) -> Path:
    """Create ``path`` (and parents) or fail with the reason."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        # mkdir says only "File exists" or "Not a directory" of a file standing where a folder should be
        blocking = next((p for p in (path, *path.parents) if p.exists() and not p.is_dir()), None)
        if isinstance(e, FileExistsError | NotADirectoryError) and blocking is not None:
            fail(_("{path} is a file, not a folder").format(path=blocking))
        fail(_("cannot create {path}: {reason}").format(path=path, reason=reason_words(e)))
    return path


# the columns text takes in a terminal, a CJK character two and an ambiguous symbol (· × —) one whatever
# GUANDAN_AMBIGUOUS_WIDE says: these tables are also written to files and README code blocks, aligned the same
# wherever they are read
width = cell_len


def pad(text: str, cols: int) -> str:
    """``text`` padded with spaces to ``cols`` terminal columns."""
    return text + " " * (cols - width(text))


def choices(values: Iterable[str]) -> str:
    """The --help metavar of an option whose values the command checks itself: ``[zh|en]``."""
    return "[" + "|".join(values) + "]"


def cell(value: Any, float_format: str = ".4f", none: str = "—") -> str:
    """One value of a command's plain-text table or message: JSON's spelling for a truth value,
    ``none`` for no value, numbers in ``float_format``, lists bracketed; never a Python repr."""
    if value is None:
        return none
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return format(value, float_format)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(cell(v, float_format, none) for v in value) + "]"
    if isinstance(value, dict):
        return ", ".join(f"{k}={cell(v, float_format, none)}" for k, v in value.items())
    return str(value)


def figure_table(figures: dict[str, Any], names: dict[str, str], gettext: Callable[[str], str] = str,
                 title: str | None = None, float_format: str = ".4f") -> str:
    """A benchmark's or an arena run's figures as a plain two-column table (fits a terminal and a README
    code block): each figure's name from ``names`` (already in the reader's language; a figure without a
    name shows its key), then its value, a truth value as yes or no in the language of ``gettext``."""
    shown = {k: names.get(k, k) for k in figures}
    cols = max((width(n) for n in shown.values()), default=0) + 2
    lines = [title, "-" * width(title)] if title else []
    for k, v in figures.items():
        value = gettext(YES if v else NO) if isinstance(v, bool) else cell(v, float_format)
        lines.append(pad(shown[k], cols) + value)
    return "\n".join(lines)


YES = N_("yes")
NO = N_("no")


def read_record(path: Path, lang: str | None = None) -> dict[str, Any]:
    """A record file (docs/record-format.md), checked as it loads; or fail naming what is wrong (in ``lang``
    when a command has a --lang, else the environment's language)."""
    try:
        return loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        fail(_messages.gettext("cannot read {path}: {reason}", lang).format(path=path, reason=reason_words(e, lang)), lang=lang)
    except UnicodeDecodeError:
        fail(_messages.gettext("{path}: not a text file", lang).format(path=path), lang=lang)
    except GuandanError as e:
        fail(_messages.gettext("{path}: {problem}", lang).format(path=path, problem=said(e, lang)), lang=lang)

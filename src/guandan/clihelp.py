"""The `guandan` command's own words — its ``--help`` and Click's usage errors — in the user's language.

Two catalogues hold them:

- ``help``: every help text of ours — a command's or group's docstring (or ``help=``), each option's and
  argument's ``help=``, and the type words of the option list (``TEXT``, ``INTEGER``, ``PATH``…).
  Their msgids are the English texts as Click holds them; :func:`help_texts` walks the mounted command
  tree for them, so the catalogue's completeness test needs no markers in the source.
- ``click``: the words Typer and its own Click (vendored as ``typer._click``) print themselves ("Usage:",
  "Options", "[default: …]", "No such command …", an unknown option, a missing or bad value). Typer looks
  its words up with :func:`gettext.gettext` bound at import: :func:`speak` rebinds that name to our
  catalogue and resets the panel titles Typer computed at import (the test extracts those msgids from
  the installed Typer, so a new word after an upgrade is caught). Its Click writes English f-strings:
  :func:`usage_error` says each kind of usage error anew from the exception's fields.

The language is the one ``--lang`` names anywhere on the command line, else the environment's
(:func:`~guandan.cliutil.cli_lang`): ``--help`` is answered while the line is parsed, before a
command's own ``--lang`` could be read.
"""

from __future__ import annotations

import gettext as _gettext
import importlib
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from rich.markup import escape
from typer._click.core import Command

from .cliutil import cli_lang
from .i18n import N_, translator

#: The Typer modules that look their words up with ``_`` bound at import (its own Click, vendored in
#: ``typer._click``, writes English f-strings: :func:`usage_error` says those).
LIBRARY_MODULES = ("typer.core", "typer.rich_utils")

#: Typer's rich help: panel titles and markers it translated once, at import (name -> English msgid).
_RICH_CONSTANTS = {
    "DEPRECATED_STRING": "(deprecated) ", "DEFAULT_STRING": "[default: {}]", "ENVVAR_STRING": "[env var: {}]",
    "REQUIRED_LONG_STRING": "[required]", "ARGUMENTS_PANEL_TITLE": "Arguments", "OPTIONS_PANEL_TITLE": "Options",
    "COMMANDS_PANEL_TITLE": "Commands", "ERRORS_PANEL_TITLE": "Error", "ABORTED_TEXT": "Aborted.",
    "RICH_HELP": "Try [blue]'{command_path} {help_option}'[/] for help.",
}

#: The gettext keywords of this module's own words (the ``click`` catalogue): ``say`` is a catalogue's gettext.
SAY: dict[str, object] = {"say": None, "N_": None, "gettext": None}

#: The placeholder words our option list shows for a value's type (cli._readable_help).
TYPE_WORDS = ("TEXT", "INTEGER", "NUMBER", "BOOLEAN", "VALUE", "PATH", "DATETIME")


def lang_of(argv: Sequence[str]) -> str:
    """The language ``--lang X`` or ``--lang=X`` names on a command line (the last one wins), else the
    environment's; a value we have no catalogue for falls back to the environment's too."""
    named: str | None = None
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            named = argv[i + 1]
        elif arg.startswith("--lang="):
            named = arg.split("=", 1)[1]
    return cli_lang(named)


def click_msgids() -> set[str | tuple[str, str]]:
    """Every msgid the ``click`` catalogue must hold: Typer's own gettext words (extracted from the installed
    modules) and ours that say its Click's usage errors."""
    from babel.messages.extract import extract_from_file

    from .i18n.check import extract_msgids

    files = [Path(importlib.import_module(name).__file__ or "") for name in LIBRARY_MODULES]
    found = extract_msgids(files)
    for _line, message, _comments, _context in extract_from_file("python", __file__, keywords=SAY):  # type: ignore[arg-type]
        found.add(message if isinstance(message, str) else (message[0], message[1]))
    return found


def _walk(command: Command) -> Iterator[Command]:
    yield command
    for sub in getattr(command, "commands", {}).values():  # a group's sub-commands
        yield from _walk(sub)


def help_texts(command: Command) -> Iterator[str]:
    """Every text of ours that ``--help`` can show anywhere under ``command``: help, short help and
    epilog of each command and group, and each parameter's help. An option's own metavar (``CARDS``,
    ``FILE``) is a placeholder that its help text names (``FILE.pdf``), so it stays as it is."""
    for cmd in _walk(command):
        for text in (cmd.help, cmd.short_help, cmd.epilog):
            if text:
                yield text
        for param in cmd.params:
            text = getattr(param, "help", None)
            if text:
                yield text


def option_help_texts() -> set[str]:
    """The description of every agent tier's every option (``guandan agents`` shows them beside --help's)."""
    from .agents.base import agent_names, agent_options

    return {o.help for name in agent_names() for o in agent_options(name).values()}


_LINE_BREAK = re.compile(r"(?<!\n)\n(?!\n)")  # one line break inside a paragraph (a blank line ends one)


def localize(command: Command, lang: str) -> Command:
    """``command`` with every help text of its tree in ``lang`` (a text the catalogue lacks stays English),
    its paragraphs each on one line for Rich to wrap, and escaped for Typer's Rich help, which would
    otherwise take ``[type, rank, cards]`` for markup and drop it. The tree is changed in place: call it on
    a tree built for one run (:func:`typer.main.get_command`)."""
    tr = translator("help", lang).gettext

    def say(text: str) -> str:
        # a docstring's line breaks are the source's, not the reader's: Rich would keep them mid-sentence
        return escape(_LINE_BREAK.sub(" ", tr(text)))

    for cmd in _walk(command):
        if cmd.help:
            cmd.help = say(cmd.help)
        if cmd.short_help:
            cmd.short_help = say(cmd.short_help)
        if cmd.epilog:
            cmd.epilog = say(cmd.epilog)
        for param in cmd.params:
            text = getattr(param, "help", None)
            if text:
                param.help = say(text)  # type: ignore[attr-defined]
    return command


_ORIGINAL: dict[str, tuple[Callable[..., str] | None, Callable[..., str] | None]] = {}
_original_error: Callable[[Any], None] | None = None
_original_help_option: Callable[..., Any] | None = None
_original_write_usage: Callable[..., None] | None = None


def speak(lang: str | None) -> None:
    """Make Click and Typer say their own words in ``lang`` from the ``click`` catalogue, for this process
    (``None``: as the libraries do by themselves): Typer's gettext lookups and panel titles, the usage
    line, the ``--help`` option's help, the usage errors of Typer's own Click (:func:`usage_error`),
    and our option list's type words (:func:`word`); Rich wraps Chinese between characters (:func:`wrap_cjk`)."""
    global _word, _original_error, _original_help_option, _original_write_usage
    from typer import rich_utils
    from typer._click import decorators, formatting

    tr = translator("click", lang) if lang else None
    for name in LIBRARY_MODULES:
        mod = importlib.import_module(name)
        if name not in _ORIGINAL:
            _ORIGINAL[name] = (getattr(mod, "_", None), getattr(mod, "ngettext", None))
        original_gettext, original_ngettext = _ORIGINAL[name]
        if original_gettext is not None:
            mod._ = tr.gettext if tr else original_gettext  # type: ignore[attr-defined]
        if original_ngettext is not None:
            mod.ngettext = tr.ngettext if tr else original_ngettext  # type: ignore[attr-defined]
    say: Callable[[str], str] = tr.gettext if tr else _gettext.gettext
    for constant, msgid in _RICH_CONSTANTS.items():
        setattr(rich_utils, constant, say(msgid))
    if _original_error is None:
        _original_error = rich_utils.rich_format_error
        _original_help_option = decorators.help_option
        _original_write_usage = formatting.HelpFormatter.write_usage
    error, help_option, write_usage = _original_error, _original_help_option, _original_write_usage
    assert error is not None and help_option is not None and write_usage is not None
    if tr is None:
        rich_utils.rich_format_error = error  # type: ignore[assignment]
        decorators.help_option = help_option
        formatting.HelpFormatter.write_usage = write_usage  # type: ignore[method-assign]
        wrap_cjk(False)
        _word = _identity
        return
    words = tr

    def format_error(e: Any) -> None:
        text = usage_error(e, words.gettext)
        e.format_message = lambda: text  # this one error, as the rich panel prints it
        error(e)

    def translated_help_option(param_decls: list[str]) -> Callable[[Any], Any]:
        decorate = help_option(param_decls)

        def apply(cmd: Any) -> Any:
            out = decorate(cmd)
            added = out.params[-1]  # the --help option just appended (Click pops it into its cache next)
            added.help = words.gettext(added.help)
            return out

        return apply

    def translated_write_usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        write_usage(self, prog, args, words.gettext("Usage: ") if prefix is None else prefix)

    wrap_cjk(True)
    rich_utils.rich_format_error = format_error  # type: ignore[assignment]
    decorators.help_option = translated_help_option
    formatting.HelpFormatter.write_usage = translated_write_usage  # type: ignore[method-assign]
    assert lang is not None
    _word = translator("help", lang).gettext


#: The usage errors Typer's own Click writes as English f-strings: (pattern of its text, our msgid).
_USAGE_PATTERNS = (
    (re.compile(r"Got unexpected extra arguments? ?\(s?\)? ?\((?P<args>.*)\)$", re.S),
     N_("unexpected extra arguments: {args}")),
    (re.compile(r"Option '(?P<option>[^']*)' requires an argument\.$"), N_("option {option} needs a value")),
    (re.compile(r"Option '(?P<option>[^']*)' requires (?P<n>\d+) arguments\.$"),
     N_("option {option} needs {n} values")),
    (re.compile(r"Option '(?P<option>[^']*)' does not take a value\.$"), N_("option {option} takes no value")),
    (re.compile(r"Argument '(?P<option>[^']*)' takes (?P<n>\d+) values\.$"),
     N_("argument {option} takes {n} values")),
    # Typer appends its guess in English to the command error it already said ("No such command 'x'" less
    # its full stop): the guess is said whole, after the error as the catalogue writes it
    (re.compile(r"(?P<error>.*)\. Did you mean (?P<commands>.+)\?$", re.S),
     N_("{error}. Did you mean {commands}?")),
)

N_("Show this message and exit.")  # the help Typer's Click gives every --help option (speak says it)

#: What a value that does not convert to an option's type is, by that type.
_NOT_A = {int: N_("not an integer"), float: N_("not a number"), bool: N_("not true or false")}


def usage_error(e: Any, say: Callable[[str], str]) -> str:
    """The message of a usage error of Typer's Click, said with ``say`` (a catalogue's gettext): a missing
    or unknown option, a bad value, a missing or extra argument. A kind we do not know keeps its text."""
    from typer._click import exceptions as ce

    if isinstance(e, ce.NoSuchOption):
        if not e.possibilities:
            return say("no such option: {option}").format(option=e.option_name)
        return say("no such option: {option} (did you mean {options}?)").format(
            option=e.option_name, options=say(", ").join(sorted(e.possibilities)))
    if isinstance(e, ce.MissingParameter):
        hint = _hint(e)
        if getattr(e.param, "param_type_name", "") == "argument":
            return say("argument {name} is missing").format(name=hint)
        return say("option {name} is missing").format(name=hint)
    if isinstance(e, ce.BadParameter):
        hint = _hint(e)
        annotation = getattr(getattr(e.param, "type_descriptor", None), "annotation", None)
        if annotation in _NOT_A:
            problem = _out_of_range(e, say) or say(_NOT_A[annotation])
        else:
            problem = e.message
        return say("invalid value for {name}: {problem}").format(name=hint, problem=problem)
    message = e.format_message()
    for pattern, msgid in _USAGE_PATTERNS:
        found = pattern.match(message)
        if found:
            return say(msgid).format(**found.groupdict())
    return say(message)  # Typer's own words ("No such command …") are said already


#: The checks of an option's min= and max= that a number can fail (Typer checks them with Pydantic).
_RANGE_ERRORS = frozenset({"greater_than_equal", "less_than_equal", "greater_than", "less_than"})


def _out_of_range(e: Any, say: Callable[[str], str]) -> str | None:
    """A number outside its option's min=…max=, said with the range it must be in; None when the value was
    no number at all. Typer's Pydantic check is the error's cause: its first error names the kind."""
    errors = getattr(e.__cause__, "errors", None)
    found = errors() if callable(errors) else []
    if not found or found[0].get("type") not in _RANGE_ERRORS:
        return None
    value = found[0].get("input")
    low, high = getattr(e.param, "min", None), getattr(e.param, "max", None)

    def number(x: float) -> str:
        return f"{x:g}"  # 0.0 is written 0, as a person types it

    if low is not None and high is not None:
        return say("{value} is out of range: it must be from {low} to {high}").format(
            value=value, low=number(low), high=number(high))
    if low is not None:
        return say("{value} is too small: it must be at least {low}").format(value=value, low=number(low))
    if high is not None:
        return say("{value} is too big: it must be at most {high}").format(value=value, high=number(high))
    return None


def _hint(e: Any) -> str:
    if e.param_hint is not None:
        hint = e.param_hint
        return hint if isinstance(hint, str) else " / ".join(hint)
    return e.param.get_error_hint() if e.param is not None else ""


def _identity(text: str) -> str:
    return text


_word: Callable[[str], str] = _identity


def word(text: str) -> str:
    """A type placeholder of the option list (``TEXT``, ``PATH``…) in the language :func:`speak` set."""
    return _word(text)


#: Characters written without spaces between them (CJK ideographs, kana), and the punctuation that may not
#: open a line (。，：) or close one (（“): a line may break between any two ideographs, not inside a pair.
_CJK = "\u2e80-\u2fff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_OPENING = "（《「『【〔“‘"
_CLOSING = "，。：；、）」』！？》〉】〕”’…"
#: A run of other characters is one word, but for a list of choices (``[competition|huaian-traditional|…]``), which
#: may break after each ``|``: Rich folds a word wider than its column at the column, inside a choice's name.
_CJK_WORD = re.compile(
    rf"\s*(?:[{_OPENING}]*[{_CJK}][{_CLOSING}]*|[^\s{_CJK}{_OPENING}{_CLOSING}|]+\|?[{_CLOSING}]*|\S)\s*")
_rich_wrapping: tuple[Any, Any] | None = None


def wrap_cjk(on: bool) -> None:
    """Let Rich, which lays out the help, wrap Chinese as Chinese is wrapped: between any two characters, and a
    list of choices after a ``|``.
    Rich breaks lines at spaces only, so a Chinese sentence is one long word that it cuts short with
    "…" in a narrow column; and its trim of a line's trailing space counts characters, not cells, so a
    line of wide characters that fits but for that space is cut too. ``on=False`` puts Rich's own back."""
    global _rich_wrapping
    from rich import _wrap, text

    if _rich_wrapping is None:
        _rich_wrapping = (_wrap.re_word, text.Text.rstrip_end)
    words, rstrip_end = _rich_wrapping
    if not on:
        _wrap.re_word = words
        text.Text.rstrip_end = rstrip_end  # type: ignore[method-assign]
        return

    def rstrip_cells(self: text.Text, size: int) -> None:
        excess = self.cell_len - size
        trailing = len(self.plain) - len(self.plain.rstrip())
        if excess > 0 and trailing:
            self.right_crop(min(trailing, excess))  # a space is one cell wide

    _wrap.re_word = _CJK_WORD
    text.Text.rstrip_end = rstrip_cells  # type: ignore[method-assign]


__all__ = [
    "LIBRARY_MODULES",
    "SAY",
    "TYPE_WORDS",
    "click_msgids",
    "help_texts",
    "lang_of",
    "localize",
    "option_help_texts",
    "speak",
    "word",
    "wrap_cjk",
]

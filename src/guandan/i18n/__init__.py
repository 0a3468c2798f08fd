"""Message catalogues (消息目录) shared by every user-facing part: the terminal client, the web app, …

One gettext catalogue per *domain* (``"tui"``, ``"web"``, …) and language, written as a ``.po`` file::

    src/guandan/locale/<lang>/LC_MESSAGES/<domain>.po

Usage::

    from guandan.i18n import translator
    tr = translator("web", "zh")       # a gettext.NullTranslations-like object
    _ = tr.gettext
    _("Your turn")                     # -> "轮到你了"
    tr.ngettext("{n} card", "{n} cards", n).format(n=n)

Msgids are the English text; the ``en`` catalogue repeats them (so a missing ``en`` entry is caught
by the same completeness test as a missing ``zh`` one). Placeholders use ``str.format`` fields.

No build step: a ``.po`` file is compiled in memory with Babel the first time it is used (and cached),
so a fresh ``pip install -e .`` or a wheel (package data ships ``**/*.po``) works as is. A committed
``.mo`` next to the ``.po`` is used instead when it is at least as new, for installs that want it.

Strings that must be extracted but are translated later (tables of names, error ids) are marked with
:func:`N_`. :func:`guandan.i18n.check.extract_msgids` finds every ``_("…")`` / ``N_("…")`` / ``ngettext``
in a source tree and :func:`guandan.i18n.check.missing` lists what a catalogue lacks — each domain's
tests call them so that no message ships untranslated.
"""

from __future__ import annotations

import gettext
import io
import os
import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from ..core.errors import GuandanError, shown

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
LANGUAGES = ("zh", "en")
DEFAULT_LANGUAGE = "en"


class I18nError(GuandanError, ValueError):
    """An unknown language or domain, or a catalogue that cannot be read."""


class Translator(Protocol):
    """The part of :class:`gettext.NullTranslations` the clients use."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str: ...


def N_(message: str) -> str:
    """Mark a string for extraction without translating it now."""
    return message


def catalogue_path(domain: str, lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def languages(domain: str) -> list[str]:
    """The languages that have a catalogue for ``domain``."""
    if not LOCALE_DIR.is_dir():
        return []
    return sorted(p.name for p in LOCALE_DIR.iterdir() if (p / "LC_MESSAGES" / f"{domain}.po").is_file())


def normalize_lang(lang: str) -> str:
    """``zh_CN.UTF-8`` → ``zh``, ``en-GB`` → ``en``; other text is returned lower-cased."""
    return lang.strip().replace("-", "_").split(".")[0].split("_")[0].lower()


def default_lang(environ: dict[str, str] | None = None) -> str:
    """The language asked for by ``LANGUAGE``/``LC_ALL``/``LANG`` if we have it, else English."""
    env = os.environ if environ is None else environ
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for part in env.get(key, "").split(":"):
            code = normalize_lang(part) if part else ""
            if code in LANGUAGES:
                return code
    return DEFAULT_LANGUAGE


def translator(domain: str, lang: str) -> gettext.GNUTranslations:
    """The catalogue of ``domain`` in ``lang`` (``zh``, ``en``, or a locale name such as ``zh_CN``).

    Raises :class:`I18nError` naming the available languages when there is no such catalogue.
    """
    code = normalize_lang(lang)
    path = catalogue_path(domain, code)
    if not path.is_file():
        have = languages(domain)
        if not have:
            raise I18nError(f"no message catalogue for domain {shown(domain)} under {LOCALE_DIR}")
        raise I18nError(f"no {shown(domain)} messages in language {shown(lang)}; available: {', '.join(have)}")
    return _load(domain, code, path.stat().st_mtime_ns)


@lru_cache(maxsize=64)
def _load(domain: str, lang: str, mtime: int) -> gettext.GNUTranslations:
    # mtime is part of the cache key so that an edited .po is picked up by a running dev server
    po = catalogue_path(domain, lang)
    mo = po.with_suffix(".mo")
    if mo.is_file() and mo.stat().st_mtime_ns >= mtime:
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    return gettext.GNUTranslations(io.BytesIO(compile_po(po, lang)))


def compile_po(po: Path, lang: str) -> bytes:
    """The ``.mo`` bytes of a ``.po`` file (fuzzy entries left out, as msgfmt does)."""
    # Babel is loaded only when a .po has to be compiled: an install that ships .mo files never loads it.
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    try:
        with po.open("rb") as f:
            catalog = read_po(f, locale=lang)
    except Exception as e:  # Babel raises assorted errors on a malformed file
        raise I18nError(f"cannot read the message catalogue {po}: {e}") from None
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


_CHINESE = "\u3400-\u9fff\uf900-\ufaff"


def fill(template: str, **fields: object) -> str:
    """``template.format(**fields)``, where a field written in Chinese at its edge takes no space between it and the
    Chinese beside it: ``{card} 现在不能给出`` reads ``♠3 现在不能给出`` but ``大王现在不能给出``, and ``进贡 {card}``
    ``进贡大王``, as Chinese writes two words side by side and keeps a space beside a value written in symbols and
    figures (♠10, 3×5)."""
    for name, value in fields.items():
        text = str(value)
        if text and re.match(f"[{_CHINESE}]", text[-1]):
            template = re.sub(rf"(\{{{name}\}}) (?=[{_CHINESE}])", r"\1", template)
        if text and re.match(f"[{_CHINESE}]", text[0]):
            template = re.sub(rf"(?<=[{_CHINESE}]) (\{{{name}\}})", r"\1", template)
    return template.format(**fields)


def unprintable(c: str) -> bool:
    """A character a line of text cannot show in place, so no name may hold it: a control, format or
    unassigned character (a tab, a line break, NUL, a direction mark such as U+202E), or a line or
    paragraph separator."""
    category = unicodedata.category(c)
    return category[0] == "C" or category in ("Zl", "Zp")


__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "I18nError",
    "Translator",
    "catalogue_path",
    "compile_po",
    "default_lang",
    "fill",
    "languages",
    "normalize_lang",
    "translator",
    "unprintable",
]

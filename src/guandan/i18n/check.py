"""Catalogue completeness: which msgids a source tree uses, and which a catalogue lacks.

Run as ``python -m guandan.i18n.check DOMAIN SOURCE_DIR…`` to list the missing entries of every
language (exit 1 when something is missing). Templates of other kinds can be added by the caller
through ``method_map`` (Babel's extraction methods, e.g. ``("**.html", "jinja2")`` with its plugin).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.pofile import read_po

from . import catalogue_path, languages

# gettext keywords: function name -> which arguments are msgids (Babel's spec format)
KEYWORDS: dict[str, object] = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2)}


def extract_msgids(
    roots: Iterable[Path], method_map: Sequence[tuple[str, str]] = (("**.py", "python"),)
) -> set[str | tuple[str, str]]:
    """Every msgid (a str, or a (singular, plural) pair) marked in the files under ``roots`` (folders or
    single Python modules)."""
    found: set[str | tuple[str, str]] = set()
    for root in roots:
        if root.is_file():  # one module: (line, message, comments, context) per message
            messages = [(str(root), *m) for m in extract_from_file(
                "python", str(root), keywords=KEYWORDS)]  # type: ignore[arg-type]
        else:
            messages = list(extract_from_dir(str(root), method_map=list(method_map),
                                             keywords=KEYWORDS))  # type: ignore[arg-type]
        for _file, _line, message, _comments, _context in messages:
            if isinstance(message, tuple):
                found.add((message[0], message[1]))
            else:
                found.add(message)
    return found


def missing(domain: str, lang: str, msgids: Iterable[str | tuple[str, str]]) -> list[str]:
    """The msgids with no (non-fuzzy, non-empty) translation in ``domain``/``lang``, sorted."""
    with catalogue_path(domain, lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    lacking: list[str] = []
    for mid in msgids:
        key = mid[0] if isinstance(mid, tuple) else mid
        msg = catalog.get(key)
        if msg is None or msg.fuzzy:
            lacking.append(key)
            continue
        strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        if not all(strings) or isinstance(mid, tuple) != isinstance(msg.id, tuple):
            lacking.append(key)
    return sorted(lacking)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 2:
        print("usage: python -m guandan.i18n.check DOMAIN SOURCE_DIR…", file=sys.stderr)
        return 2
    domain, roots = args[0], [Path(a) for a in args[1:]]
    ids = extract_msgids(roots)
    bad = 0
    for lang in languages(domain):
        for mid in missing(domain, lang, ids):
            print(f"{lang}: {mid!r}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())

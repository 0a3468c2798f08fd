"""Bring the ``help`` and ``click`` catalogues up to date with the command tree and the pinned libraries.

    .venv/bin/python scripts/help_catalogue.py

Adds every help text of the mounted `guandan` command (:func:`guandan.clihelp.help_texts`), every agent
option's description (:func:`guandan.clihelp.option_help_texts`) and every word Typer and its Click print
(:func:`guandan.clihelp.click_msgids`) that a catalogue lacks: to ``en`` as
itself, to ``zh`` untranslated (for a translator to fill; the catalogue test fails until then). Entries
that nothing uses any more are dropped. Existing translations are kept as they are.
"""

from __future__ import annotations

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from guandan.cli import command
from guandan.clihelp import TYPE_WORDS, click_msgids, help_texts, option_help_texts
from guandan.i18n import catalogue_path

TITLES = {
    "help": "Guandan command-line help: every command's, option's and argument's description.",
    "click": "The words Click and Typer print themselves in guandan's command line (usage, errors, panels).",
}


def update(domain: str, msgids: list[str | tuple[str, str]]) -> None:
    for lang in ("en", "zh"):
        path = catalogue_path(domain, lang)
        old = Catalog(locale=lang)
        if path.is_file():
            with path.open("rb") as f:
                old = read_po(f, locale=lang)
        new = Catalog(locale=lang, project="guandan", header_comment=f"# {TITLES[domain]} ({lang})",
                      fuzzy=False, creation_date=old.creation_date)  # an unchanged catalogue stays byte for byte
        for mid in msgids:
            key = mid[0] if isinstance(mid, tuple) else mid
            have = old.get(key)
            if have is not None and have.string and (lang == "zh" or have.string == mid):
                new.add(mid, have.string)
            elif lang == "en":
                new.add(mid, mid)
            else:
                new.add(mid, ("", "") if isinstance(mid, tuple) else "")
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            write_po(f, new, width=0, omit_header=False, no_location=True)


def main() -> None:
    texts: list[str | tuple[str, str]] = sorted(set(help_texts(command(None))) | set(TYPE_WORDS) | option_help_texts())
    update("help", texts)
    update("click", sorted(click_msgids(), key=lambda m: m[0] if isinstance(m, tuple) else m))
    print(f"help: {len(texts)} msgids; click: {len(click_msgids())} msgids")


if __name__ == "__main__":
    main()

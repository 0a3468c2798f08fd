"""`guandan verify-deal RECORD [--deal N]`: check that a record's deals follow from its revealed seed.

Each deal's hands (and its flipped card) are dealt again from the record's seed and compared with the
record, and each recorded commitment with the SHA-256 of the deal seed (:mod:`guandan.core.fair`).
One verdict per deal in the chosen language; exit 1 when a deal does not match, 2 when the file is
not a readable record.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .cliutil import Messages, fail, read_record
from .core.errors import GuandanError
from .core.fair import check_deals
from .i18n import LANGUAGES, default_lang, normalize_lang
from .present import Presenter, said
from .present.fairness import checks_summary, deal_check_lines, seed_line

LANG_HELP = "language of the verdicts: zh or en (default from $LANG)"

_ = Messages("cli").gettext


def verify_deal_cmd(
    record: Annotated[Path, typer.Argument(help="a record file: a replay's export, or written by simulate, the arena, "
                                                "the terminal client or the protocol server")],
    deal: Annotated[int | None, typer.Option(min=1, help="check only this deal (counted from 1)")] = None,
    lang: Annotated[str | None, typer.Option(help=LANG_HELP)] = None,
) -> None:
    """Recompute every deal's hands from the record's seed and compare them with the record and its
    commitments; one verdict per deal, exit 1 when any deal does not match."""
    if lang is not None and normalize_lang(lang) not in LANGUAGES:
        fail(_("{option} must be one of {choices}, not {value}").format(
            option="--lang", choices=", ".join(LANGUAGES), value=lang))
    p = Presenter(lang or default_lang())
    data = read_record(record, lang)
    try:
        checks = check_deals(data, None if deal is None else [deal - 1])
    except GuandanError as e:
        fail(_("{path}: {problem}", lang).format(path=record, problem=said(e, lang)), lang=lang)
    typer.echo(seed_line(p, data["seed"], len(data["deals"])))
    for check in checks:
        for line in deal_check_lines(p, check):
            typer.echo(line)
    typer.echo(checks_summary(p, checks))
    raise typer.Exit(0 if all(c.verified for c in checks) else 1)

"""The desk's PDF prints: score slips, standings and pairings, rendered from HTML templates by WeasyPrint.

Each print is an HTML page first (``templates/slips.html``, ``print_standings.html``,
``print_pairings.html``, all on ``print_base.html``: A4, the CJK font, a page footer), so the page a
browser shows and prints and the PDF are one layout. :func:`pdf_from_html` turns any such page into PDF
bytes and is what other prints (a bracket, say) should call with their own template.

WeasyPrint is imported only when a PDF is made: it needs the Pango libraries of the system (Debian's
``libpango-1.0-0``, ``libpangoft2-1.0-0``, ``libharfbuzz-subset0``; ``scripts/setup.sh`` installs them),
and the rest of the desk works without them.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.errors import shown
from ..i18n import N_, translator
from .bracket import bracket_data, page_context
from .errors import TournamentError, refusal
from .export import chain_text, check_lang, slips_html, standing_records, table_records, team_records, templates
from .state import TournamentState
from .words import STANDING_HEADS, STANDING_TERMS, knockout_rank, knockout_status

#: The standings print's columns (record keys, as the exports have them, but for the withdrawn mark) and which
#: of them are numbers.
STANDING_PRINT_COLUMNS: tuple[tuple[str, bool], ...] = tuple(
    (key, key not in ("team", "club", "players")) for key in STANDING_HEADS)


def print_head(key: str, _: Callable[[str], str]) -> tuple[str, str | None]:
    """A standings column's head in a print: the head every standings table writes, and in a language whose head
    is not the Chinese term itself, the term to write after it (MP (场分)), as the order line under the table
    names the figures; else None."""
    head = _(STANDING_HEADS[key])
    term = STANDING_TERMS.get(key)
    return head, None if term is None or head == term else term


class PrintError(TournamentError):
    """A PDF could not be made: WeasyPrint or the system's Pango libraries are missing."""


def pdf_from_html(html: str, base_url: str | None = None) -> bytes:
    """Render an HTML page to PDF bytes (WeasyPrint, print media).

    The page's own CSS sets the paper (``@page { size: A4 portrait; margin: … }``), page breaks
    (``break-after: page``) and fonts; text in Chinese needs a CJK font installed for fontconfig
    (``fonts-wqy-zenhei``; ``print_base.html`` names it). Inline ``<svg>`` (QR codes) is drawn as vectors.
    Nothing is fetched from the network: only ``data:`` URLs and, with ``base_url`` (a ``file:`` URL or a
    folder), local files resolve; any other image or stylesheet is left out.

    Raises :class:`PrintError` when WeasyPrint cannot be loaded.
    """
    try:
        import weasyprint  # type: ignore[import-untyped]
        from weasyprint.urls import URLFetcher  # type: ignore[import-untyped]
    except (ImportError, OSError) as e:
        raise PrintError("PDF printing needs WeasyPrint and the Pango libraries (on Debian: libpango-1.0-0, "
                         f"libpangoft2-1.0-0, libharfbuzz-subset0; scripts/setup.sh installs them): {e}") from None
    fetcher = URLFetcher(allowed_protocols={"data", "file"}, timeout=1)
    pdf = weasyprint.HTML(string=html, base_url=base_url, url_fetcher=fetcher).write_pdf()
    assert isinstance(pdf, bytes)
    return pdf


def slips_pdf(state: TournamentState, round_no: int, base_url: str, lang: str = "zh") -> bytes:
    """The round's score slips (:func:`~.export.slips_html`) as a PDF: one A4 page per table."""
    return pdf_from_html(slips_html(state, round_no, base_url, lang))


def standings_html(state: TournamentState, through_round: int | None = None, lang: str = "zh") -> str:
    """The standings with every tie-break column as a printable page (A4 landscape).

    ``through_round`` defaults to the rounds complete so far, as the venue posts them.
    """
    tr = translator("desk", check_lang(lang))
    _ = tr.gettext
    through = state.completed_rounds if through_round is None else through_round
    if not 0 <= through <= state.current_round:
        raise refusal(N_("the standings can be printed after round 0…{last}, not {round}"), last=state.current_round,
                      round=through)
    heading = _("Standings after round {n}").format(n=through) if through else _("Standings before round 1")
    rows = standing_records(state, through)
    columns = [(key, *print_head(key, _), num) for key, num in STANDING_PRINT_COLUMNS]
    rounds = state.cfg.rounds
    if state.is_knockout:  # the place as the rank ("3=": shared) and where the team stands, after its name
        rows = [r | {"rank": knockout_rank(r), "status": knockout_status(r, _)} for r in rows]
        columns.insert(3, ("status", _("Status"), None, False))
        rounds = state.rounds_total
    return templates.get_template("print_standings.html").render(
        _=_, ngettext=tr.ngettext, lang=lang, cfg=state.cfg, heading=heading, rows=rows, chain=chain_text(state, _),
        columns=columns, rounds=rounds, through=through, knockout=state.is_knockout)


def standings_pdf(state: TournamentState, through_round: int | None = None, lang: str = "zh") -> bytes:
    return pdf_from_html(standings_html(state, through_round, lang))


def pairings_html(state: TournamentState, round_no: int | None = None, lang: str = "zh") -> str:
    """A round's pairings to pin up: the tables by number, then every team by name with its table and seats."""
    _ = translator("desk", check_lang(lang)).gettext
    r = state.current_round if round_no is None else round_no
    rnd = state.round(r)
    return templates.get_template("print_pairings.html").render(
        _=_, lang=lang, cfg=state.cfg, round_no=r, tables=table_records(state, r, byes=False),
        teams=team_records(state, r), bye=None if rnd.bye is None else state.teams[rnd.bye])


def pairings_pdf(state: TournamentState, round_no: int | None = None, lang: str = "zh") -> bytes:
    return pdf_from_html(pairings_html(state, round_no, lang))


def bracket_html(state: TournamentState, round_no: int | None = None, lang: str = "zh") -> str:
    """A knockout's bracket as its page prints (A4 landscape, the two halves meeting in the final), with the
    placings and prizes once decided; ``round_no`` is not used (the bracket is always whole)."""
    lang = check_lang(lang)
    tr = translator("desk", lang)
    _ = tr.gettext
    data = bracket_data(state)
    return templates.get_template("bracket.html").render(
        cfg=None, refresh=0, tid=state.id, _=_, ngettext=tr.ngettext, lang=lang, html_lang="zh-CN" if lang == "zh" else "en",
        print_only=True, **page_context(data, _))


def bracket_pdf(state: TournamentState, lang: str = "zh") -> bytes:
    return pdf_from_html(bracket_html(state, None, lang))


#: ``guandan tournament print TID WHAT``: each print's HTML page by name, called as (state, round, lang),
#: where round is the standings' "after round" or the pairings' round (None: the default). A new print
#: (a bracket, say) adds its page function here; :func:`make_print` renders it.
PRINTS: dict[str, Callable[[TournamentState, int | None, str], str]] = {
    "standings": standings_html,
    "pairings": pairings_html,
    "bracket": bracket_html,
}


def make_print(name: str, state: TournamentState, round_no: int | None = None, lang: str = "zh", *,
               pdf: bool = True) -> bytes:
    """The print called ``name`` (see :data:`PRINTS`) as PDF bytes, or with ``pdf=False`` as its HTML page
    (UTF-8)."""
    if name not in PRINTS:
        raise refusal(N_("there is no print called {name}; prints: {prints}"), name=shown(name), prints=", ".join(PRINTS))
    html = PRINTS[name](state, round_no, check_lang(lang))
    return pdf_from_html(html) if pdf else html.encode()

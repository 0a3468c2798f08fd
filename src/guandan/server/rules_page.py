"""The 规则 / Rules page: the rules document rendered to HTML, one language at a time.

The document is ``docs/rules.md``; the copy the server reads is package data
(``guandan/docs_data/rules.md``, kept byte-identical by ``tests/test_rules_doc.py``), so the page
works from a wheel as well as from a checkout. It has two halves, each starting with a fixed level-1
heading (:data:`HEADINGS`); the page shows the half of the chosen language. Raw HTML in the markdown
is escaped, never passed through.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt
from markdown_it.token import Token

from ..i18n import normalize_lang, translator
from .accounts_service import current_user
from .i18n_web import LANGS
from .site_header import site_header

HEADINGS = {"zh": "# 掼蛋规则（中文）", "en": "# Rules of Guandan (English)"}
DEFAULT_LANG = "en"  # as the lobby: English unless the browser asks for Chinese

router = APIRouter()


def rules_markdown() -> str:
    """The whole document, read from the package data."""
    return resources.files("guandan").joinpath("docs_data", "rules.md").read_text(encoding="utf-8")


def split_halves(text: str) -> dict[str, str]:
    """``{"zh": …, "en": …}``: each half from its heading to the next one (the preamble is dropped)."""
    lines = text.splitlines(keepends=True)
    at: dict[str, int] = {}
    for i, line in enumerate(lines):
        for lang, heading in HEADINGS.items():
            if line.rstrip("\r\n") == heading:
                if lang in at:
                    raise ValueError(f"the heading {heading!r} appears twice")
                at[lang] = i
    missing = [HEADINGS[lang] for lang in HEADINGS if lang not in at]
    if missing:
        raise ValueError(f"the rules document lacks the heading(s) {missing}")
    order = sorted(at, key=at.__getitem__)
    bounds = [at[lang] for lang in order] + [len(lines)]
    return {lang: "".join(lines[bounds[k]:bounds[k + 1]]) for k, lang in enumerate(order)}


# --- markdown --------------------------------------------------------------------------------------
def _slug(text: str, seen: dict[str, int]) -> str:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, -1/-2 for repeats."""
    base = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
    n = seen.get(base, 0)
    seen[base] = n + 1
    return base if n == 0 else f"{base}-{n}"


def _heading_text(inline: Token) -> str:
    return "".join(child.content for child in inline.children or () if child.type in ("text", "code_inline"))


def _table_open(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    # a wide table scrolls inside its own box instead of widening the page on a phone
    return '<div class="table-wrap">\n' + str(self.renderToken(tokens, idx, options, env))


def _table_close(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    return str(self.renderToken(tokens, idx, options, env)) + "</div>\n"


_RED_SUITS = re.compile("([♥♦])")


def _text(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    # escaped first, so the only markup in the output is the span added here
    return _RED_SUITS.sub(r'<span class="red">\1</span>', html.escape(tokens[idx].content, quote=False))


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
    md.add_render_rule("table_open", _table_open)
    md.add_render_rule("table_close", _table_close)
    md.add_render_rule("text", _text)
    return md


def render_markdown(text: str, contents: str | None = None) -> str:
    """HTML for ``text``: CommonMark plus tables, raw HTML escaped, headings given GitHub-style ids. With
    ``contents`` (its title), a list of links to the numbered level-2 headings ("1. …") comes before the first of
    them; a level-2 section before that (the quick start) is read first and is not listed. Without numbered
    headings every level-2 heading is listed, before the first."""
    md = _parser()
    tokens = md.parse(text)
    seen: dict[str, int] = {}
    sections: list[tuple[str, str]] = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and i + 1 < len(tokens):
            title = _heading_text(tokens[i + 1])
            tok.attrSet("id", _slug(title, seen))
            if tok.tag == "h2":
                sections.append((str(tok.attrGet("id")), title))
    body = str(md.renderer.render(tokens, md.options, {}))
    if contents is None or not sections:
        return body
    # a newcomer reads the quick start above the list; whoever comes back skips to what a table asks of them
    # (levels, tribute): the page is long on a phone
    numbered = [k for k, (_, title) in enumerate(sections) if title[:1].isdigit()]
    listed = sections[numbered[0]:] if numbered else sections
    items = "".join(f'<li><a href="#{html.escape(anchor)}">{html.escape(title)}</a></li>' for anchor, title in listed)
    nav = (f'<nav class="toc" data-testid="rules-contents" aria-labelledby="rules-contents">'
           f'<h2 id="rules-contents">{html.escape(contents)}</h2><ol>{items}</ol></nav>\n')
    at = body.index(f'<h2 id="{html.escape(listed[0][0])}"')
    return body[:at] + nav + body[at:]


@lru_cache(maxsize=4)
def _rendered(lang: str, text: str) -> str:
    return render_markdown(split_halves(text)[lang], translator("web", lang).gettext("Contents"))


# --- language ------------------------------------------------------------------------------------
def choose_lang(query: str | None, accept_language: str | None) -> str:
    """``?lang=`` if it names a language we have, else the best of Accept-Language, else English."""
    if query:
        code = normalize_lang(query)
        if code in LANGS:
            return code
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        name, _, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            key, _, value = p.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        code = normalize_lang(name) if name else ""
        if code in LANGS and q > 0:
            ranked.append((-q, i, code))
    return min(ranked)[2] if ranked else DEFAULT_LANG


# --- the page --------------------------------------------------------------------------------------
# Its style and script are files (static/rules.css, static/rules.js): the Content-Security-Policy allows no
# inline script.
def page(lang: str, text: str | None = None, account_name: str | None = None) -> str:
    """The whole HTML page in ``lang`` (``text``: the markdown, default the packaged document; ``account_name``: the
    logged-in player's name for the header, None for a guest)."""
    _ = translator("web", lang).gettext
    body = _rendered(lang, rules_markdown() if text is None else text)
    other = "en" if lang == "zh" else "zh"
    esc = html.escape
    return f"""<!doctype html>
<html lang="{'zh-CN' if lang == 'zh' else 'en'}" data-lang="{lang}">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(_("Rules"))} · 掼蛋 Guandan</title>
<link rel="icon" href="/static/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css">
<link rel="stylesheet" href="/static/site.css">
<link rel="stylesheet" href="/static/rules.css">
</head>
<body>
{site_header(lang, "rules", "/rules", f"/rules?lang={other}", account_name)}
<main class="rules"><article class="panel doc">
{body}</article></main>
<script src="/static/rules.js"></script>
</body>
</html>
"""


# sync: the session's account is read from the database, in the thread pool, off the event loop
@router.get("/rules", response_class=HTMLResponse, include_in_schema=False)
def rules(request: Request, lang: str | None = None) -> HTMLResponse:
    chosen = choose_lang(lang, request.headers.get("accept-language"))
    user = current_user(request)
    name = (user.display_name or user.username) if user is not None else None
    return HTMLResponse(page(chosen, account_name=name),
                        headers={"Vary": "Accept-Language, Cookie", "Content-Language": chosen})

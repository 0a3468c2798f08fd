"""The site's header on the pages the server renders (players.py's leaderboard and player pages, the rules
page): the markup static/site_header.js builds on the other pages, styled by static/site.css. 掼蛋 (掼蛋 Guandan
in English) leads home; then the events, the leaderboard, the rules and the account (登录 / Log in, or the
logged-in player's name), the current page's link marked (``aria-current="page"``); then the language switch,
here a link to the same page in the other language. Every link carries the page's language (``?lang=``), which
the script-driven pages take as the reader's choice."""

from __future__ import annotations

import html
from urllib.parse import quote

from ..i18n import N_, translator

# (the page it marks, its address, its words): site_header.js's LINKS
LINKS = (("events", "/events", N_("Events")), ("leaderboard", "/leaderboard", N_("Leaderboard")),
         ("rules", "/rules", N_("Rules")))
OTHER_LANG = {"zh": ("en", "English"), "en": ("zh", "中文")}


def site_header(lang: str, here: str, path: str, switch_href: str, account_name: str | None = None) -> str:
    """The header in ``lang`` of the page ``here`` marks (events, leaderboard, rules, account; anything else marks
    none) at ``path``; ``switch_href``: this page in the other language; ``account_name``: the logged-in player's
    name (None: a guest, who is offered 登录 / Log in and comes back to ``path`` after it)."""
    _ = translator("web", lang).gettext
    esc = html.escape

    def ids(name: str) -> str:
        return ' id="events-link" data-testid="events-link"' if name == "events" else ""

    def current(name: str) -> str:
        return ' aria-current="page"' if name == here else ""

    links = "".join(f'<a href="{href}?lang={lang}"{ids(name)} data-nav="{name}"{current(name)}>{esc(_(words))}</a>'
                    for name, href, words in LINKS)
    if account_name is None:
        account = (f'<a href="/account?next={esc(quote(path, safe="/"))}&amp;lang={lang}" id="account-link" '
                   f'data-testid="account-link" data-nav="account"{current("account")}>{esc(_("Log in"))}</a>')
    else:
        account = (f'<a href="/account?lang={lang}" id="account-link" data-testid="account-link" data-nav="account" '
                   f'class="logged-in"{current("account")}>{esc(account_name)}</a>')
    other, other_name = OTHER_LANG[lang]
    return (f'<header class="site-header"><h1 class="site-name"><a href="/?lang={lang}" data-nav="home">掼蛋'
            f'<span class="latin-name"> Guandan</span></a></h1>'
            f'<nav class="site-nav" data-testid="site-nav">{links}{account}</nav>'
            f'<a href="{esc(switch_href)}" id="lang" class="site-lang" data-testid="lang" hreflang="{other}" '
            f'lang="{other}" data-lang="{other}">{other_name}</a></header>')

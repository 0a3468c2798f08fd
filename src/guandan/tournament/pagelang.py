"""The language of the desk's web pages, and refusals that a page can say in that language.

A page's language is ``?lang=zh`` / ``?lang=en`` when the address names one (and then remembered in the
``lang`` cookie for the pages that follow, forms included), else the cookie's, else Chinese: the desk's
pages are read by players and venues first. Every page's template gets :func:`context`: ``_`` (the
``desk`` catalogue's gettext in that language), ``ngettext``, ``lang``, ``html_lang`` and ``langs``
(the 中文 | English switch: each language's own name and the current address in it).

Errors: :class:`Refusal` is a :class:`~.errors.TournamentError` whose message is a catalogued msgid
with ``str.format`` fields; its English text is the exception's ``str`` (for the CLI, logs and JSON),
and :func:`explain` translates it for a page. Any other error gets a catalogued headline chosen by
its class, with its (English) text as the detail.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from fastapi.templating import Jinja2Templates
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ..core.params import JsonProblem, OsReason
from ..i18n import N_, normalize_lang, translator
from ..i18n.reasons import reason_text
from .errors import NotFoundError, Said, TournamentError, Word
from .export import templates

DOMAIN = "desk"
LANGS = ("zh", "en")
DEFAULT_LANG = "zh"
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600
# each language named in itself, as a language switch does: these two are not translated
LANG_NAMES = {"zh": "中文", "en": "English"}
HTML_LANG = {"zh": "zh-CN", "en": "en"}


def _known(value: str | None) -> str | None:
    if not value:
        return None
    code = normalize_lang(value)
    return code if code in LANGS else None


def choose(request: Request) -> tuple[str, bool]:
    """The page's language, and whether the address asked for it (then the cookie is to be set)."""
    asked = _known(request.query_params.get("lang"))
    if asked is not None:
        return asked, True
    return _known(request.cookies.get(COOKIE)) or DEFAULT_LANG, False


def lang_of(request: Request) -> str:
    return choose(request)[0]


def gettext_of(request: Request) -> Callable[[str], str]:
    """The ``desk`` catalogue's gettext in the request's language."""
    return translator(DOMAIN, lang_of(request)).gettext


def remember(response: Response, lang: str) -> None:
    """Keep ``lang`` for the desk's next pages (the whole site: /t/… and the forms they post to)."""
    response.set_cookie(COOKIE, lang, max_age=COOKIE_MAX_AGE, path="/", samesite="lax")


def url_in(request: Request, lang: str) -> str:
    """The current address (path and query) with ``lang`` set to ``lang``."""
    query = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"] + [("lang", lang)]
    return f"{request.url.path}?{urlencode(query)}"


@dataclass(frozen=True)
class LangLink:
    code: str
    name: str
    url: str
    current: bool


def context(request: Request, lang: str) -> dict[str, Any]:
    """What every desk template gets for its language."""
    tr = translator(DOMAIN, lang)
    return {"_": tr.gettext, "ngettext": tr.ngettext, "lang": lang, "html_lang": HTML_LANG[lang],
            "langs": [LangLink(code, LANG_NAMES[code], url_in(request, code), code == lang) for code in LANGS]}


_pages = Jinja2Templates(env=templates)


def render(request: Request, name: str, code: int = 200, /, **ctx: Any) -> HTMLResponse:
    """A desk template in the request's language with HTTP status ``code`` (``ctx`` adds to :func:`context`);
    an address that named the language also sets the cookie."""
    lang, asked = choose(request)
    response = _pages.TemplateResponse(request, name, {**context(request, lang), **ctx}, status_code=code)
    if asked:
        remember(response, lang)
    return response


# ---- refusals --------------------------------------------------------------------------------------
class Refusal(TournamentError):
    """A refusal with a catalogued message: ``Refusal(N_("Round {n} has not been paired yet."), n=3)``.

    Its ``str`` is the English text; ``msgid`` and ``params`` let a page say it in the reader's language
    (as any :class:`~.errors.TournamentError` raised with a ``msgid``). ``status`` is the HTTP status a
    page or the API answers with.
    """

    status = 400

    def __init__(self, msgid: str, **params: Any) -> None:
        super().__init__(msgid.format(**params))
        self.msgid: str | None = msgid
        self.params: dict[str, Any] = params


class Missing(Refusal, NotFoundError):
    """A catalogued refusal for something that is not there (an unknown tournament, round, table)."""

    status = 404


class Forbidden(Refusal):
    """The arbiter's key is missing or wrong."""

    status = 403


# the headline of a refusal by its class; the first that matches counts (most specific first)
HEADLINES: tuple[tuple[type[BaseException], str], ...] = (
    (Forbidden, N_("Not allowed")),
    (NotFoundError, N_("Not found")),
    (Exception, N_("Not accepted")),
)


def status_of(e: BaseException) -> int:
    if isinstance(e, Refusal):
        return e.status
    return 404 if isinstance(e, NotFoundError) else 400


@dataclass(frozen=True)
class Explained:
    headline: str
    detail: str
    detail_lang: str  # the language the detail is written in (an uncatalogued error's text is English)


def explain(e: BaseException, lang: str) -> Explained:
    """A refusal for a page in ``lang``: a catalogued headline, and the detail, translated when the error
    carries a ``msgid`` (and the catalogue has it), else its English text."""
    _ = translator(DOMAIN, lang).gettext
    headline = next(_(msgid) for cls, msgid in HEADLINES if isinstance(e, cls))
    msgid = getattr(e, "msgid", None)
    if isinstance(msgid, str) and msgid:
        text = _said(msgid, getattr(e, "params", None) or {}, _, lang)
        if text is not None:
            return Explained(headline, text, lang)
    return Explained(headline, str(e), "en")


def _said(msgid: str, params: dict[str, Any], _: Callable[[str], str], lang: str) -> str | None:
    """``msgid`` with ``params`` in the catalogue's language (its words and clauses too), or None when the
    catalogue lacks it or its fields do not match."""
    text = _(msgid)
    if text == msgid and lang != "en":
        return None
    try:
        return text.format(**{k: _param(v, _, lang) for k, v in params.items()})
    except (KeyError, IndexError, ValueError):  # a translation whose fields do not match: say it in English
        return None


def in_words(value: str, _: Callable[[str], str]) -> str:
    """A reason that may be a catalogued clause (a :class:`~.errors.Said`, such as a pairing blocker) in the
    language of ``_``; any other text as it is."""
    return str(_param(value, _, "en"))


def _param(value: Any, _: Callable[[str], str], lang: str) -> Any:
    if isinstance(value, Word):
        return _(value)
    if isinstance(value, Said):
        text = _said(value.msgid, value.params, _, lang)
        return str(value) if text is None else text
    if isinstance(value, OsReason | JsonProblem):
        return reason_text(value, lang)
    return value

"""The public bracket of a knockout event (淘汰赛): ``/t/{id}/bracket`` (a page for phones, the venue screen
and print) and ``/api/t/{id}/bracket`` (the same as JSON, see :func:`.bracket.bracket_data`).

The page is Chinese unless ``?lang=en`` (or a ``lang`` cookie) asks for English; every string comes from the
``desk`` catalogue.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates

from ..core.errors import GuandanError
from ..i18n import LANGUAGES, translator
from .bracket import bracket_data, place_label, place_text, stage_name, status_name
from .desk import Desk
from .errors import NotFoundError, TournamentError
from .export import templates

PAGE_LANGUAGE = "zh"  # players and the venue read Chinese first
_pages = Jinja2Templates(env=templates)


def page_lang(request: Request) -> str:
    """``?lang=`` (else the ``lang`` cookie, else Chinese); an unknown language is refused by name."""
    lang = request.query_params.get("lang") or request.cookies.get("lang") or PAGE_LANGUAGE
    if lang not in LANGUAGES:
        raise TournamentError(f"unknown language {lang!r}; available: {', '.join(LANGUAGES)}")
    return lang


def bracket_router(get_desk: Callable[[], Desk]) -> APIRouter:
    r = APIRouter()

    @r.get("/t/{tid}/bracket", response_class=HTMLResponse)
    def bracket_page(request: Request, tid: int,
                     refresh: Annotated[int, Query(ge=0, le=3600, description="seconds; 0: never")] = 30) -> Response:
        try:
            lang = page_lang(request)
        except TournamentError as e:
            _ = translator("desk", PAGE_LANGUAGE).gettext
            return _pages.TemplateResponse(request, "message.html", {"cfg": None, "title": _("Refused"),
                                                                     "message": str(e)}, status_code=400)
        _ = translator("desk", lang).gettext
        try:
            data = bracket_data(get_desk().state(tid))
        except GuandanError as e:
            title = _("Not found") if isinstance(e, NotFoundError) else _("Refused")
            return _pages.TemplateResponse(request, "message.html", {"cfg": None, "title": title, "message": str(e)},
                                           status_code=404 if isinstance(e, NotFoundError) else 400)
        shared = _shared_places(data)
        ctx: dict[str, Any] = {
            "cfg": None, "d": data, "_": _, "lang": lang, "refresh": refresh, "tid": tid,
            "stage_name": lambda key: stage_name(key, _), "status_name": lambda key: status_name(key, _),
            "place_label": lambda m, side: place_label(m, side, _),
            "place_text": lambda p: place_text(p, p in shared, _),
            "other_lang": "en" if lang == "zh" else "zh",
        }
        return _pages.TemplateResponse(request, "bracket.html", ctx)

    @r.get("/api/t/{tid}/bracket")
    def api_bracket(tid: int) -> Response:
        try:
            return JSONResponse(bracket_data(get_desk().state(tid)))
        except GuandanError as e:
            return JSONResponse({"error": str(e)}, status_code=404 if isinstance(e, NotFoundError) else 400)

    return r


def _shared_places(data: dict[str, Any]) -> set[int]:
    seen: dict[int, int] = {}
    for row in data["placings"]:
        if row["place"] is not None:
            seen[row["place"]] = seen.get(row["place"], 0) + 1
    return {p for p, n in seen.items() if n > 1}

"""The public bracket of a knockout event (淘汰赛): ``/t/{id}/bracket`` (a page for phones, the venue screen
and print) and ``/api/t/{id}/bracket`` (the same as JSON, see :func:`.bracket.bracket_data`).

The page is in the reader's language (:mod:`.pagelang`: Chinese unless ``?lang=en`` or the ``lang`` cookie
asks for English); every string comes from the ``desk`` catalogue.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ..core.errors import GuandanError
from ..i18n import translator
from .bracket import bracket_data, page_context
from .desk import Desk
from .errors import NotFoundError
from .pagelang import explain, lang_of, render, status_of


def bracket_router(get_desk: Callable[[], Desk]) -> APIRouter:
    r = APIRouter()

    @r.get("/t/{tid}/bracket", response_class=HTMLResponse)
    def bracket_page(request: Request, tid: int,
                     refresh: Annotated[int, Query(ge=0, le=3600, description="seconds; 0: never")] = 30) -> Response:
        lang = lang_of(request)
        _ = translator("desk", lang).gettext
        try:
            data = bracket_data(get_desk().state(tid))
        except GuandanError as e:
            return render(request, "message.html", status_of(e), cfg=None, problem=explain(e, lang))
        ctx: dict[str, Any] = {"cfg": None, "refresh": refresh, "tid": tid, **page_context(data, _)}
        return render(request, "bracket.html", 200, **ctx)

    @r.get("/api/t/{tid}/bracket")
    def api_bracket(tid: int) -> Response:
        try:
            return JSONResponse(bracket_data(get_desk().state(tid)))
        except GuandanError as e:
            return JSONResponse({"error": str(e)}, status_code=404 if isinstance(e, NotFoundError) else 400)

    return r


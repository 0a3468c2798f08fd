"""Liveness and readiness, for a load balancer or an orchestrator.

* ``GET /healthz``: the process answers (200 ``{"status": "ok"}``);
* ``GET /readyz``: it may be sent players: the database answers ``SELECT 1``, the tables were restored
  and armed (the app's start-up ran, and its shutdown has not begun), and, where several processes serve
  together, the coordinator in ``app.state.cluster`` says it is ready. 200 ``{"status": "ready", …}``,
  or 503 with ``not_ready`` naming each part that is not, and why in words (``text``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import Engine, text

from ..i18n import N_
from .protocol import Words, say
from .table import TableService

DB_TIMEOUT_S = 2.0  # a database that takes longer to answer SELECT 1 is not ready
NOT_READY = N_("The server is not ready to take players: {why}.")
WHY = {
    "database": N_("its database does not answer"),
    "tables": N_("its tables are not restored yet, or it is shutting down"),
    "cluster": N_("the processes serving together are not ready"),
}


def _ping(engine: Engine) -> None:
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))


async def database_answers(engine: Engine) -> bool:
    try:
        await asyncio.wait_for(asyncio.to_thread(_ping, engine), DB_TIMEOUT_S)
    except Exception:  # any failure to answer (no server, a locked or missing file, a timeout) is "not ready"
        return False
    return True


async def cluster_ready(app: FastAPI) -> bool | None:
    """The multi-process coordinator's readiness, or None when there is none."""
    cluster: Any = getattr(app.state, "cluster", None)
    if cluster is None:
        return None
    try:
        return bool(await cluster.ready())
    except Exception:
        return False


def install(app: FastAPI, engine: Engine, service: TableService) -> None:
    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/readyz", include_in_schema=False)
    async def readyz(request: Request) -> JSONResponse:
        checks: dict[str, bool] = {"database": await database_answers(engine),
                                   "tables": service.sweeper is not None}  # set by resume_all, cleared by close
        cluster = await cluster_ready(request.app)
        if cluster is not None:
            checks["cluster"] = cluster
        missing = [name for name, ok in checks.items() if not ok]
        parts = {name: "ok" if ok else "not_ready" for name, ok in checks.items()}
        if not missing:
            return JSONResponse({"status": "ready", "checks": parts})
        words = [say(NOT_READY, why=say(WHY[name])) for name in missing]
        return JSONResponse({"status": "not_ready", "error": "not_ready", "not_ready": missing, "checks": parts,
                             "detail": "not ready: " + ", ".join(missing), "text": _joined(words)}, status_code=503)


def _joined(words: list[Words]) -> dict[str, str]:
    """Each sentence in each language, one after the other."""
    texts = [w.texts() for w in words]
    return {lang: " ".join(t[lang] for t in texts) for lang in texts[0]}

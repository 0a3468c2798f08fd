"""A player's page and the leaderboards: ``/u/{username}``, ``/leaderboard?preset=…`` and their JSON
(``GET /api/users/{username}``, ``GET /api/leaderboard?preset=…``).

The pages are rendered here, in the reader's language (``?lang=``, else Accept-Language), from the web
catalogue, with no script: the avatar and the rating chart are inline SVG drawn by this module, the style
is static/players.css. What is shown of an account: its names, when it joined, its ratings per preset,
its rated matches (results, partners and opponents, links to the replay and its review) and the rating
history. A replay stays private unless a player marked it public: its link is shown to everyone only then,
and always to the account itself. A deleted account has no page, leaves the leaderboards, and is "a
deleted account" in other players' matches.
"""

from __future__ import annotations

import hashlib
import html
from collections.abc import Callable, Sequence
from datetime import UTC
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from ..core.errors import shown
from ..core.rules import PRESET_NAMES
from ..db import make_session_factory
from ..db import ratings as rt
from ..i18n import N_, translator
from ..ratings import BOT_MU
from .accounts_service import current_user
from .protocol import say
from .rules_page import choose_lang
from .site_header import site_header
from .table import ServiceError

LEADERBOARD_PAGE = 50  # players per page of a leaderboard
MATCHES_SHOWN = 30  # the newest rated matches on a player's page
HISTORY_POINTS = 200  # the newest points of a rating chart
DEFAULT_PRESET = "competition"

NO_PLAYER = N_("There is no player called {name}.")
NO_PRESET = N_("There is no rule preset called {preset}.")
SCALE_NOTE = N_("Rating: 1000 + 40 × (μ − 3σ), a cautious estimate that rises as the uncertainty shrinks; every deal "
                "of a rated match counts as one game.")
BOTS_NOTE = N_("Fixed: measured once from the arena's deal-win rates between the tiers, never updated by a match.")
RESULT_WORDS = {"win": N_("Win"), "loss": N_("Loss"), "draw": N_("Draw")}
# the pages' words (looked up inside the page's f-strings, where extraction cannot see them)
PAGE_WORDS = (
    N_("Leaderboard"), N_("Player"), N_("Rating"), N_("Ratings"), N_("Estimate ± uncertainty"), N_("Matches"),
    N_("Won"), N_("Favourite presets"), N_("Rating history"), N_("Rated matches"), N_("No rated matches yet"),
    N_("Partner"), N_("Opponents"), N_("a deleted account"), N_("Joined {date}"), N_("deals: {won}–{lost}"),
    N_("Bots (fixed ratings)"),
)
Gettext = Callable[[str], str]


def avatar_svg(user_id: int, size: int = 64) -> str:
    """A 5×5 mirrored identicon drawn from a hash of the account's id: the same picture for the same account,
    nothing about the account in it."""
    digest = hashlib.sha256(f"guandan-avatar:{user_id}".encode()).digest()
    hue = digest[0] * 360 // 256
    fg, bg = f"hsl({hue} 55% 42%)", f"hsl({hue} 40% 92%)"
    cell = size / 6
    rects = []
    for row in range(5):
        for col in range(3):
            if digest[1 + row * 3 + col] & 1:
                for c in {col, 4 - col}:
                    rects.append(f'<rect x="{cell * (c + 0.5):.2f}" y="{cell * (row + 0.5):.2f}" '
                                 f'width="{cell:.2f}" height="{cell:.2f}"/>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="identicon" width="{size}" height="{size}" '
            f'viewBox="0 0 {size} {size}" role="img" aria-hidden="true"><rect width="{size}" height="{size}" rx="{size / 8:.1f}" '
            f'fill="{bg}"/><g fill="{fg}">{"".join(rects)}</g></svg>')


def rating_chart(points: Sequence[dict[str, Any]], _: Gettext, width: int = 520, height: int = 230) -> str:
    """The displayed rating after each rated match as an SVG line chart (match by match, oldest left), with the
    estimate's ± band shaded; a single point is a dot."""
    if not points:
        return ""
    left, right, top, bottom = 48, 12, 12, 28
    lows = [p["estimate"] - p["plus_minus"] for p in points]
    highs = [p["estimate"] + p["plus_minus"] for p in points]
    shown = [p["rating"] for p in points]
    # the range of the ratings and estimates: the early, wide band is cut at its edges rather than squeezing the line
    lo = min(min(shown), min(p["estimate"] for p in points))
    hi = max(max(shown), max(p["estimate"] for p in points))
    lo, hi = (lo // 100) * 100 - 100, (hi // 100 + 1) * 100 + 100
    lows = [max(lo, v) for v in lows]
    highs = [min(hi, v) for v in highs]
    n = len(points)

    def x(i: int) -> float:
        return left + (width - left - right) * (i / (n - 1) if n > 1 else 0.5)

    def y(v: float) -> float:
        return float(top + (height - top - bottom) * (1 - (v - lo) / (hi - lo)))

    band = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(highs))
    band += " " + " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in reversed(list(enumerate(lows))))
    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(shown))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{html.escape(_("Rating history"))}" data-points="{n}">']
    step = max(100, ((hi - lo) // 4 // 100) * 100)
    v = lo
    while v <= hi:
        parts.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y(v):.1f}" y2="{y(v):.1f}"/>'
                     f'<text class="tick" x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v}</text>')
        v += step
    parts.append(f'<polygon class="band" points="{band}"/>')
    if n > 1:
        parts.append(f'<polyline class="line" points="{line}"/>')
    for i, p in enumerate(points):
        word = RESULT_WORDS[p["result"]]
        result = html.escape(_(word))
        parts.append(f'<circle class="dot {p["result"]}" cx="{x(i):.1f}" cy="{y(p["rating"]):.1f}" r="3.5">'
                     f'<title>{p["rating"]} · {result} · {html.escape(p["at"][:10])}</title></circle>')
    parts.append(f'<text class="tick" x="{left}" y="{height - 8}">{html.escape(points[0]["at"][:10])}</text>'
                 f'<text class="tick" x="{width - right}" y="{height - 8}" text-anchor="end">'
                 f'{html.escape(points[-1]["at"][:10])}</text></svg>')
    return "".join(parts)


class Players:
    """The reads behind the pages and their JSON, on their own sessions (never the table's writer)."""

    def __init__(self, engine: Engine) -> None:
        self.sessions: sessionmaker[Session] = make_session_factory(engine)

    def leaderboard(self, preset: str, page: int = 1) -> dict[str, Any]:
        check_preset(preset)
        with self.sessions() as s:
            total, rows = rt.leaderboard(s, preset, LEADERBOARD_PAGE, (page - 1) * LEADERBOARD_PAGE)
        return {"preset": preset, "presets": list(PRESET_NAMES), "page": page, "per_page": LEADERBOARD_PAGE,
                "total": total, "players": rows, "bots": rt.bots_json()}

    def player(self, username: str, viewer_id: int | None) -> dict[str, Any]:
        with self.sessions() as s:
            user = rt.user_by_name(s, username)
            if user is None:
                raise no_player(username)
            ratings = rt.user_ratings(s, user.id)
            histories = rt.user_histories(s, user.id, HISTORY_POINTS) if ratings else {}
            history = {r["preset"]: histories.get(r["preset"], []) for r in ratings}  # the most played first
            matches = rt.user_matches(s, user.id, MATCHES_SHOWN)
        own = viewer_id == user.id
        for m in matches:
            if not (own or m["replay_public"]):
                m["replay_id"] = None  # private: the link is its players' to share
        created = user.created_at if user.created_at.tzinfo else user.created_at.replace(tzinfo=UTC)
        return {"user": {"username": user.username, "display_name": user.display_name or user.username,
                         "joined": created.isoformat(), "avatar": f"/u/{user.username}/avatar.svg", "id": user.id},
                "you": own, "ratings": ratings, "favourite_presets": [r["preset"] for r in ratings][:3],
                "matches": matches, "history": history}

    def avatar_of(self, username: str) -> str:
        with self.sessions() as s:
            user = rt.user_by_name(s, username)
            if user is None:
                raise no_player(username)
            return avatar_svg(user.id)


def check_preset(preset: str) -> None:
    if preset not in PRESET_NAMES:
        raise ServiceError(f"preset must be one of {', '.join(PRESET_NAMES)}", 404, "no_preset",
                           words=say(NO_PRESET, preset=preset))


def no_player(username: str) -> ServiceError:
    return ServiceError(f"no player {shown(username)}", 404, "no_player", words=say(NO_PLAYER, name=username))


# --- the pages ------------------------------------------------------------------------------------------
def _shell(lang: str, title: str, body: str, here: str, nav: str, account_name: str | None) -> str:
    esc = html.escape
    sep = "&" if "?" in here else "?"
    other = "en" if lang == "zh" else "zh"
    header = site_header(lang, nav, here, f"{here}{sep}lang={other}", account_name)
    return f"""<!doctype html>
<html lang="{'zh-CN' if lang == 'zh' else 'en'}" data-lang="{lang}">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)} · 掼蛋 Guandan</title>
<link rel="icon" href="/static/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css">
<link rel="stylesheet" href="/static/site.css">
<link rel="stylesheet" href="/static/players.css">
</head>
<body>
{header}
<main class="players">
{body}</main>
</body>
</html>
"""


def _pct(wins: int, matches: int) -> str:
    return f"{round(100 * wins / matches)}%" if matches else "–"


def _uncertain(r: dict[str, Any]) -> str:
    return f'{r["estimate"]} <span class="pm">± {r["plus_minus"]}</span>'


def _seat_name(seat: dict[str, Any], lang: str, _: Gettext) -> str:
    esc = html.escape
    if seat["kind"] == "bot":
        return f'<span class="bot">{esc(_("bot"))}: {esc(_(seat["tier"]))} ({seat["rating"]})</span>'
    if seat["kind"] == "deleted":
        return f'<span class="gone">{esc(_("a deleted account"))}</span>'
    return f'<a href="/u/{esc(seat["username"])}?lang={lang}">{esc(seat["display_name"])}</a>'


def player_page(data: dict[str, Any], lang: str, preset: str | None) -> str:
    _ = translator("web", lang).gettext
    esc = html.escape
    user = data["user"]
    ratings = data["ratings"]
    chosen = preset if preset in data["history"] else (ratings[0]["preset"] if ratings else None)
    head = (f'<section class="panel who">{avatar_svg(user["id"], 72)}<div><h2>{esc(user["display_name"])}</h2>'
            f'<p class="muted">@{esc(user["username"])} · {esc(_("Joined {date}").format(date=user["joined"][:10]))}'
            f'</p></div></section>')
    if not ratings:
        return head + f'<section class="panel"><p class="empty">{esc(_("No rated matches yet"))}</p></section>'
    rows = "".join(
        f'<tr><td><a href="/leaderboard?preset={esc(r["preset"])}&lang={lang}">{esc(_(r["preset"]))}</a></td>'
        f'<td class="num strong">{r["rating"]}</td><td class="num">{_uncertain(r)}</td>'
        f'<td class="num">{r["matches"]}</td><td class="num wide">{_pct(r["wins"], r["matches"])}</td></tr>'
        for r in ratings)
    table = (f'<section class="panel"><h3>{esc(_("Ratings"))}</h3><table class="board"><thead><tr>'
             f'<th>{esc(_("Rule preset"))}</th><th class="num">{esc(_("Rating"))}</th>'
             f'<th class="num">{esc(_("Estimate ± uncertainty"))}</th><th class="num">{esc(_("Matches"))}</th>'
             f'<th class="num wide">{esc(_("Won"))}</th></tr></thead><tbody>{rows}</tbody></table>'
             f'<p class="muted">{esc(_("Favourite presets"))}: '
             f'{esc(_(", ").join(_(p) for p in data["favourite_presets"]))}</p></section>')
    tabs = " ".join(
        f'<span aria-current="true">{esc(_(p))}</span>' if p == chosen
        else f'<a href="/u/{esc(user["username"])}?preset={esc(p)}&lang={lang}">{esc(_(p))}</a>'
        for p in data["history"])
    chart = (f'<section class="panel"><h3>{esc(_("Rating history"))}</h3><p class="tabs">{tabs}</p>'
             f'{rating_chart(data["history"][chosen or ""], _)}</section>')
    items = []
    for m in data["matches"]:
        me = m["seat"]
        partner = m["seats"][(me + 2) % 4]
        opponents = [m["seats"][(me + 1) % 4], m["seats"][(me + 3) % 4]]
        outcome = RESULT_WORDS[m["result"]]
        score = _("deals: {won}–{lost}").format(won=m["deals_won"], lost=m["deals_lost"])
        links = ""
        if m["replay_id"]:
            rid = esc(m["replay_id"])
            links = (f'<a href="/replay/{rid}">{esc(_("Replay"))}</a> · '
                     f'<a href="/replay/{rid}?review={me}#review">{esc(_("Review (复盘)"))}</a>')
        items.append(
            f'<li class="match {m["result"]}"><span class="res">{esc(_(outcome))}</span>'
            f'<span class="what">{esc(_(m["preset"]))} · {esc(score)} · {esc(m["finished_at"][:10])}</span>'
            f'<span class="with">{esc(_("Partner"))}: {_seat_name(partner, lang, _)} · {esc(_("Opponents"))}: '
            f'{_(", ").join(_seat_name(o, lang, _) for o in opponents)}</span>'
            f'<span class="after">{esc(_("Rating"))} {m["rating"]}</span><span class="links">{links}</span></li>')
    matches = (f'<section class="panel"><h3>{esc(_("Rated matches"))}</h3>'
               f'<ul class="matches">{"".join(items)}</ul></section>')
    return head + f'<div class="cols">{table}{chart}</div>' + matches


def leaderboard_page(data: dict[str, Any], lang: str) -> str:
    _ = translator("web", lang).gettext
    esc = html.escape
    preset = data["preset"]
    tabs = " ".join(
        f'<span aria-current="true">{esc(_(p))}</span>' if p == preset
        else f'<a href="/leaderboard?preset={esc(p)}&lang={lang}">{esc(_(p))}</a>' for p in data["presets"])
    if data["players"]:
        rows = "".join(
            f'<tr><td class="num">{r["rank"]}</td><td><span class="name">{avatar_svg(r["user_id"], 24)}'
            f'<a href="/u/{esc(r["username"])}?preset={esc(preset)}&lang={lang}">{esc(r["display_name"])}</a></span></td>'
            f'<td class="num strong">{r["rating"]}</td><td class="num">{_uncertain(r)}</td>'
            f'<td class="num">{r["matches"]}</td><td class="num wide">{_pct(r["wins"], r["matches"])}</td></tr>'
            for r in data["players"])
        board = (f'<table class="board"><thead><tr><th class="num">#</th><th>{esc(_("Player"))}</th>'
                 f'<th class="num">{esc(_("Rating"))}</th><th class="num">{esc(_("Estimate ± uncertainty"))}</th>'
                 f'<th class="num">{esc(_("Matches"))}</th><th class="num wide">{esc(_("Won"))}</th></tr></thead>'
                 f'<tbody>{rows}</tbody></table>')
    else:
        board = f'<p class="empty">{esc(_("No rated matches yet"))}</p>'
    pages = max(1, -(-data["total"] // data["per_page"]))
    nav = ""
    if pages > 1:
        prev = (f'<a href="/leaderboard?preset={esc(preset)}&page={data["page"] - 1}&lang={lang}">{esc(_("Previous"))}</a>'
                if data["page"] > 1 else "")
        nxt = (f'<a href="/leaderboard?preset={esc(preset)}&page={data["page"] + 1}&lang={lang}">{esc(_("Next"))}</a>'
               if data["page"] < pages else "")
        nav = f'<p class="pager">{prev} <span>{data["page"]} / {pages}</span> {nxt}</p>'
    bots = "".join(f'<tr><td>{esc(_(b["tier"]))}</td><td class="num strong">{b["rating"]}</td></tr>' for b in data["bots"])
    how = esc(_(SCALE_NOTE))
    fixed = esc(_(BOTS_NOTE))
    return (f'<p class="tabs">{tabs}</p><div class="cols board-cols">'
            f'<section class="panel"><h2>{esc(_("Leaderboard"))} · {esc(_(preset))}</h2>{board}{nav}'
            f'<p class="muted">{how}</p></section>'
            f'<section class="panel bots"><h3>{esc(_("Bots (fixed ratings)"))}</h3><table class="board"><tbody>{bots}'
            f'</tbody></table><p class="muted">{fixed}</p></section></div>')


def create_router(engine: Engine) -> APIRouter:
    players = Players(engine)
    router = APIRouter()

    def viewer(req: Request) -> int | None:
        user = current_user(req)
        return user.id if user is not None else None

    def account_name(req: Request) -> str | None:
        user = current_user(req)
        return (user.display_name or user.username) if user is not None else None

    def lang_of(req: Request, lang: str | None) -> str:
        return choose_lang(lang, req.headers.get("accept-language"))

    def page(req: Request, lang: str, title: str, body: str, here: str, status: int = 200,
             nav: str = "leaderboard") -> HTMLResponse:
        return HTMLResponse(_shell(lang, title, body, here, nav, account_name(req)), status_code=status,
                            headers={"Vary": "Accept-Language, Cookie", "Content-Language": lang})

    # sync handlers: the database reads run in the thread pool, off the event loop
    @router.get("/api/leaderboard")
    def api_leaderboard(preset: str = DEFAULT_PRESET, page_no: Annotated[int, Query(alias="page", ge=1, le=100_000)] = 1
                        ) -> JSONResponse:
        """The preset's accounts by rating (``page`` of 50), and the bots' fixed ratings."""
        # plain JSON already: answered as it is, without FastAPI's encoder walking every row again
        return JSONResponse(players.leaderboard(preset, page_no))

    @router.get("/api/users/{username}")
    def api_user(req: Request, username: str) -> JSONResponse:
        """A player's ratings, rated matches and rating history per preset."""
        return JSONResponse(players.player(username, viewer(req)))

    @router.get("/api/ratings/bots")
    def api_bots() -> dict[str, Any]:
        return {"bots": rt.bots_json(), "mu": dict(BOT_MU)}

    @router.get("/leaderboard", response_class=HTMLResponse, include_in_schema=False)
    def leaderboard_html(req: Request, preset: str = DEFAULT_PRESET, lang: str | None = None,
                         page_no: Annotated[int, Query(alias="page", ge=1, le=100_000)] = 1) -> HTMLResponse:
        chosen = lang_of(req, lang)
        _ = translator("web", chosen).gettext
        here = f"/leaderboard?preset={preset}"
        try:
            data = players.leaderboard(preset, page_no)
        except ServiceError as e:
            return page(req, chosen, _("Leaderboard"), f'<p class="panel error">{html.escape(e.words.render(chosen))}</p>',
                        "/leaderboard", 404)
        return page(req, chosen, _("Leaderboard"), leaderboard_page(data, chosen), here)

    @router.get("/u/{username}/avatar.svg", include_in_schema=False)
    def avatar(username: str) -> Response:
        return Response(players.avatar_of(username), media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})

    @router.get("/u/{username}", response_class=HTMLResponse, include_in_schema=False)
    def player_html(req: Request, username: str, preset: str | None = None, lang: str | None = None) -> HTMLResponse:
        chosen = lang_of(req, lang)
        _ = translator("web", chosen).gettext
        here = f"/u/{username}" + (f"?preset={preset}" if preset else "")
        try:
            data = players.player(username, viewer(req))
        except ServiceError as e:
            return page(req, chosen, _("Player"), f'<p class="panel error">{html.escape(e.words.render(chosen))}</p>',
                        here, 404)
        # one's own page is the account's; another player's is reached from a leaderboard
        return page(req, chosen, data["user"]["display_name"], player_page(data, chosen, preset), here,
                    nav="account" if data["you"] else "leaderboard")

    return router

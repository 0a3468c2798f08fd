"""Reviews (复盘) in the web app: the engine's review of one seat of a replay, asked for from the replay
page, worked out in the background and kept with the replay.

A review is the one ``guandan review RECORD --seat S --budget B --seed 0 --json`` gives (the same engine,
settings and seed: the same verdicts), kept in each page language. It runs decision by decision in the
worker pool at the lowest priority (:attr:`Priority.REVIEW`), one review at a time, so every table's
work and every hint goes first and a review never holds the event loop. Its progress (decisions done
out of how many) is answered to whoever asks; a review asked for before a restart is worked out again
after it (nothing asked for is lost). Anyone who may open the replay (it has the link) may ask for a
review and see it, as they see the replay; asking is limited per client address and in total.

A seat of a match still in play may ask for the review of a finished deal of it (server/deal_reviews.py): the
same queue, limits and workers, its record given rather than read from the store. Such a review is kept in memory
only (the latest :data:`LIVE_KEPT`), and with it the record, which holds the match seed: nothing of it is stored or
answered but the review. A restart forgets it; asking again works it out again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..core import record
from ..core.errors import GuandanError
from ..i18n import N_
from ..present import Presenter
from ..review.cli import seat_names
from ..review.engine import Settings as ReviewSettings
from ..review.report import Collected, Decision, assemble, collect, record_digest, review_task
from ..review.words import review_json
from .i18n_web import LANGS
from .protocol import Words, say
from .store import Store
from .workers import Busy, Priority, WorkerPool

log = logging.getLogger("guandan.server")
QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
BUSY_RETRY_S = 0.5  # a review job refused because the workers' queue is full waits this long, then asks again
LIVE_KEPT = 64  # finished reviews of deals of matches in play kept in memory (each some tens of kilobytes)


# --- what the workers run (top-level functions: they are pickled by name) ----------------------------
def collect_job(text: str, seat: int, deal: int | None = None) -> Collected:
    """Replay the record and take the seat's decisions (of ``deal`` only, when given), each with its observation
    then."""
    return collect(record.loads(text), [seat], None if deal is None else [deal])


def review_json_job(text: str, got: Collected, seat: int, decisions: list[Decision],
                    settings: ReviewSettings) -> dict[str, Any]:
    """The finished review as docs/review-format.md's JSON, in every page language."""
    data = record.loads(text)
    review = assemble(got, [seat], decisions, settings, record_digest(data))
    return {lang: review_json(Presenter(lang, names=seat_names(data, lang)), review, single=True) for lang in LANGS}


# --- the service ---------------------------------------------------------------------------------
@dataclass
class Progress:
    status: str
    address: str | None = None  # who asked (while it waits: the per-address cap counts it)
    done: int = 0
    total: int = 0


@dataclass(frozen=True)
class LiveJob:
    """A review of one deal of a match in play: its record (with the seed: never answered) and the deal."""
    text: str
    deal: int


class ReviewError(Exception):
    """A refused review request: the HTTP status, the machine-readable code, the English message (``detail``)
    and ``words`` for people (``text``)."""

    def __init__(self, message: str, status: int, code: str, *, words: Words) -> None:
        super().__init__(message)
        self.status, self.code, self.words = status, code, words

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "detail": str(self), "text": self.words.texts()}


class ReviewService:
    """Queue, run and answer for reviews. ``budget``: the review engine's effort per decision."""

    def __init__(self, store: Store, pool: WorkerPool, *, budget: float, queue_max: int, per_address: int) -> None:
        self.store, self.pool = store, pool
        self.settings = ReviewSettings(budget=budget, seed=0)
        self.queue_max, self.per_address = queue_max, per_address
        self.queue: deque[tuple[str, int]] = deque()
        self.progress: dict[tuple[str, int], Progress] = {}
        self.runner: asyncio.Task[None] | None = None
        self.closed = False
        # reviews of deals of matches in play (keyed ("room CODE deal N", seat): no replay id has a space)
        self.live: dict[tuple[str, int], LiveJob] = {}
        self.live_done: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()

    def settings_json(self) -> dict[str, Any]:
        return {"budget": self.settings.budget, "seed": self.settings.seed, "worlds": self.settings.worlds}

    def restore(self) -> int:
        """Queue again the reviews asked for before a restart and not finished (call before serving)."""
        for key in self.store.unfinished_reviews():
            if key not in self.progress:
                self.progress[key] = Progress(QUEUED)
                self.queue.append(key)
        return len(self.queue)

    def start(self) -> None:
        """Start working through the queue (needs the running event loop)."""
        if self.runner is None and self.queue and not self.closed:
            self.runner = asyncio.get_running_loop().create_task(self._run())

    async def request(self, replay_id: str, seat: int, address: str | None) -> dict[str, Any]:
        """Ask for the review of ``seat``: its state if it exists (asking twice changes nothing), else
        queued, answered once its row is committed (a restart works it out). Refused (:class:`ReviewError`)
        when the queue is full or this address has ``per_address`` reviews waiting already. The store is
        read in a thread and written through its queue: the loop every table shares never waits on it."""
        key = (replay_id, seat)
        known = self.progress.get(key)
        if known is not None and known.status in (QUEUED, RUNNING):
            return self._state(seat, known)
        rows = await asyncio.to_thread(self.store.reviews, replay_id)
        known = self.progress.get(key)  # asked for meanwhile
        if known is not None and known.status in (QUEUED, RUNNING):
            return self._state(seat, known)
        row = next((r for r in rows if r.seat == seat), None)
        if row is not None and row.status == DONE:
            return {"seat": seat, "status": DONE}
        self._admit(address)
        progress = self.progress[key] = Progress(QUEUED, address)
        # queued before the runner's own writes of this review (the writer keeps their order)
        saved = self.store.later(self.store.save_review, replay_id, seat, QUEUED, self.settings_json())
        self.queue.append(key)
        self.start()
        answer = self._state(seat, progress)
        await asyncio.wrap_future(saved)
        return answer

    def _admit(self, address: str | None) -> None:
        """Refuse (:class:`ReviewError`) one more review when the queue is full or ``address`` has
        ``per_address`` waiting already."""
        if len(self.queue) >= self.queue_max:
            raise ReviewError(f"{len(self.queue)} reviews are waiting already; ask again in a few minutes", 503, "busy",
                              words=say(N_("Too many reviews are waiting; ask again in a few minutes")))
        mine = sum(1 for p in self.progress.values() if p.status in (QUEUED, RUNNING) and p.address == address)
        if address is not None and mine >= self.per_address:
            raise ReviewError(f"this address has {mine} reviews waiting; ask again once they are done", 429,
                              "rate_limited",
                              words=say(N_("You have reviews waiting already; ask again once they are done")))

    def request_live(self, room_code: str, deal: int, seat: int, text: Callable[[], str], address: str | None, *,
                     ask: bool = True) -> dict[str, Any]:
        """The review of ``seat``'s decisions in ``deal`` of the match in play at ``room_code``: its state, the
        review itself once done. ``ask``: queue it from ``text()`` (its record up to that deal's end) unless it is
        done or under way, or failed last time; else status ``none`` when never asked. Queued with the replays'
        reviews, under the same limits."""
        key = (f"room {room_code} deal {deal}", seat)
        done = self.live_done.get(key)
        if done is not None and (done["status"] == DONE or not ask):
            self.live_done.move_to_end(key)
            return done
        known = self.progress.get(key)
        if not ask and known is None:
            return {"seat": seat, "deal": deal, "status": "none", "settings": self.settings_json()}
        if known is None or known.status not in (QUEUED, RUNNING):
            self._admit(address)
            self.live_done.pop(key, None)
            known = self.progress[key] = Progress(QUEUED, address)
            self.live[key] = LiveJob(text(), deal)
            self.queue.append(key)
            self.start()
        return {**self._state(seat, known), "deal": deal}

    async def states(self, replay_id: str) -> list[dict[str, Any]]:
        """Every review of a replay: status, progress, and the review itself once done."""
        out = []
        for row in await asyncio.to_thread(self.store.reviews, replay_id):
            live = self.progress.get((replay_id, row.seat))
            if live is not None and live.status in (QUEUED, RUNNING):
                out.append(self._state(row.seat, live))
                continue
            state: dict[str, Any] = {"seat": row.seat, "status": row.status, "settings": row.settings}
            if row.status == DONE:
                state["review"] = row.review
            out.append(state)
        return out

    def _state(self, seat: int, p: Progress) -> dict[str, Any]:
        ahead = 0
        if p.status == QUEUED:
            ahead = next((i for i, key in enumerate(self.queue) if self.progress.get(key) is p), 0)
        return {"seat": seat, "status": p.status, "done": p.done, "total": p.total, "ahead": ahead,
                "settings": self.settings_json()}

    async def _work(self, fn: Any, *args: Any) -> Any:
        """One job at review priority; when the workers' queue is full (a hint flood), wait and ask again."""
        while True:
            try:
                return await self.pool.run(Priority.REVIEW, fn, *args)
            except Busy:
                await asyncio.sleep(BUSY_RETRY_S)

    async def _run(self) -> None:
        try:
            while self.queue and not self.closed:
                replay_id, seat = self.queue[0]
                await self._review(replay_id, seat)
                self.queue.popleft()
        finally:
            self.runner = None

    async def _review(self, replay_id: str, seat: int) -> None:
        progress = self.progress[(replay_id, seat)]
        progress.status = RUNNING
        settings = self.settings
        live = self.live.pop((replay_id, seat), None)
        try:
            if live is None:
                text = await asyncio.to_thread(self.store.replay, replay_id)
                if text is None:
                    raise GuandanError(f"no replay {replay_id}")
                await asyncio.to_thread(self.store.save_review, replay_id, seat, RUNNING, self.settings_json())
            else:
                text = live.text
            got: Collected = await self._work(collect_job, text, seat, None if live is None else live.deal)
            progress.total = len(got.tasks)
            decisions: list[Decision] = []
            for task in got.tasks:
                decisions.append(await self._work(review_task, task, got.rules, settings))
                progress.done += 1
            review = await self._work(review_json_job, text, replace(got, tasks=[]), seat, decisions, settings)
            if live is None:
                await asyncio.to_thread(self.store.save_review, replay_id, seat, DONE, self.settings_json(), review)
            else:
                self._keep_live(replay_id, seat, live.deal, DONE, review=review)
            progress.status = DONE
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a record that does not replay, a worker that died: said, and may be asked again
            log.exception("the review of seat %d of replay %s failed", seat, replay_id)
            progress.status = FAILED
            if live is not None:
                self._keep_live(replay_id, seat, live.deal, FAILED)
                return
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.store.save_review, replay_id, seat, FAILED, self.settings_json(),
                                        None, str(e) or type(e).__name__)
        finally:
            if progress.status != RUNNING:
                self.progress.pop((replay_id, seat), None)

    def _keep_live(self, key: str, seat: int, deal: int, status: str, **more: Any) -> None:
        self.live_done[(key, seat)] = {"seat": seat, "deal": deal, "status": status, "settings": self.settings_json(),
                                       **more}
        while len(self.live_done) > LIVE_KEPT:
            self.live_done.popitem(last=False)

    async def close(self) -> None:
        self.closed = True
        if self.runner is not None:
            self.runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.runner

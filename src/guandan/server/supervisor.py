"""`guandan serve --workers N`: one address, N worker processes of one site.

The supervisor binds the listening socket and starts N workers that accept on it (the kernel spreads the
connections among them); each worker is a whole `guandan serve --redis …` process (server/cluster.py). A
worker that exits on its own (killed, crashed) has its leases freed at once, so the others take its tables
over at their next scan instead of when the leases expire, and it is started again. SIGTERM and SIGINT
stop every worker gracefully (each hands its tables over); SIGHUP restarts them one at a time, each new one
joined to the site before the next old one stops (a rolling restart).
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from ..cliutil import Messages
from .cluster import WORKER_FD, WORKER_ID, Keys, release_worker_sync

log = logging.getLogger("guandan.supervisor")
_ = Messages("cli").gettext
POLL_S = 0.2
JOIN_TIMEOUT_S = 60.0  # a new worker joins the site (migrated, listening on its channel) within this
STOP_TIMEOUT_S = 30.0  # a stopping worker hands its tables over within this, or it is killed


def exit_words(worker: str, code: int) -> str:
    """What the supervisor says of a worker that exited on its own, ``code`` being its return code as
    subprocess gives it (a negative one: the signal that ended it)."""
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:  # a real-time signal has no name
            name = str(-code)
        return _("guandan: worker {worker} was killed by signal {signal}; starting another").format(
            worker=worker, signal=name)
    return _("guandan: worker {worker} exited with status {code}; starting another").format(worker=worker, code=code)


@dataclass
class Worker:
    index: int
    wid: str
    proc: subprocess.Popen[bytes]


class Supervisor:
    def __init__(self, host: str, port: int, workers: int, redis_url: str, site: str, db: str | None,
                 note: str | None = None, say: Callable[[str], None] | None = None) -> None:
        self.host, self.port, self.n = host, port, workers
        self.note = note  # a line said after "serving on" (guandan serve's, on listening to this machine only)
        # what the supervisor says (serving on, a worker started again): a line on stderr, or a JSON record
        self.say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self.redis_url, self.site, self.db = redis_url, site, db
        self.keys = Keys(site)
        self.workers: list[Worker] = []
        self.stopping = False
        self.rolling = False
        self.generation = 0
        self.sock: socket.socket | None = None
        self.metrics_dir: Path | None = None  # this supervisor's own metrics folder, removed as it stops

    def run(self) -> int:
        """Serve until stopped (0). :class:`~.workers.TempDirTooLong` before anything starts where no folder
        holds the workers' fork server's socket: each worker would refuse as it starts, and be started again."""
        from .workers import check_fork_server_folder

        check_fork_server_folder()
        # a SIGTERM from here on stops the site through the clean-up below, never half-way through it
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        signal.signal(signal.SIGHUP, self._roll)
        self.sock = socket.create_server((self.host, self.port), backlog=2048)
        self.sock.set_inheritable(True)
        try:
            self._prepare_metrics()
            self.say(_("guandan: serving on {url} with {n} workers").format(url=f"http://{self.host}:{self.port}",
                                                                            n=self.n))
            if self.note is not None:
                self.say(self.note)
            self.workers = [self._start(i) for i in range(self.n)]
            while not self.stopping:
                if self.rolling:
                    self.rolling = False
                    self._rolling_restart()
                self._reap()
                time.sleep(POLL_S)
        finally:
            self._stop_all()
            self.sock.close()
            self._remove_metrics()
        return 0

    # --- signals ----------------------------------------------------------------------------------
    def _stop(self, _sig: int, _frame: FrameType | None) -> None:
        self.stopping = True

    def _roll(self, _sig: int, _frame: FrameType | None) -> None:
        self.rolling = True

    # --- workers ----------------------------------------------------------------------------------
    def _start(self, index: int) -> Worker:
        assert self.sock is not None
        self.generation += 1
        wid = f"{socket.gethostname()[:24]}-w{index}-g{self.generation}-{secrets.token_hex(2)}"
        env = {**os.environ, WORKER_FD: str(self.sock.fileno()), WORKER_ID: wid}
        cmd = [sys.executable, "-c", "from guandan.cli import main; main()", *sys.argv[1:]]
        proc = subprocess.Popen(cmd, env=env, pass_fds=(self.sock.fileno(),))
        return Worker(index, wid, proc)

    def _gone(self, w: Worker) -> None:
        """A worker that exited: its tables are free now, and its metrics leave the live ones."""
        try:
            release_worker_sync(self.redis_url, self.site, w.wid)
        except Exception as e:
            log.warning("could not free the leases of worker %s (they expire on their own): %s", w.wid, e)
        try:
            from . import metrics  # the site's metrics, when that module is installed

            metrics.worker_died(w.proc.pid)
        except (ImportError, AttributeError):
            pass

    def _reap(self) -> None:
        for i, w in enumerate(self.workers):
            code = w.proc.poll()
            if code is None or self.stopping:
                continue
            self.say(exit_words(w.wid, code))
            self._gone(w)
            self.workers[i] = self._start(w.index)

    def _joined(self, w: Worker) -> bool:
        import redis

        client = redis.Redis.from_url(self.redis_url, socket_timeout=2)
        deadline = time.monotonic() + JOIN_TIMEOUT_S
        try:
            while time.monotonic() < deadline and w.proc.poll() is None:
                if client.exists(self.keys.worker(w.wid)):
                    return True
                time.sleep(POLL_S)
            return False
        finally:
            client.close()

    def _stop_worker(self, w: Worker) -> None:
        if w.proc.poll() is None:
            w.proc.send_signal(signal.SIGTERM)
        self._await_stop(w)

    def _await_stop(self, w: Worker) -> None:
        """Wait for a worker told to stop (killed if it takes too long), then free what it held."""
        try:
            w.proc.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            w.proc.kill()
            w.proc.wait()
        self._gone(w)

    def _rolling_restart(self) -> None:
        """Each worker in turn: a new one joins the site, then the old one hands its tables over and stops."""
        self.say(_("guandan: rolling restart"))
        for i, old in enumerate(list(self.workers)):
            new = self._start(old.index)
            if not self._joined(new):
                self.say(_("guandan: worker {worker} did not join the site; the rolling restart stops here").format(
                    worker=new.wid))
                self._stop_worker(new)
                return
            self.workers[i] = new
            self._stop_worker(old)

    def _stop_all(self) -> None:
        for w in self.workers:
            if w.proc.poll() is None:
                w.proc.send_signal(signal.SIGTERM)
        for w in self.workers:  # told all at once: they hand their tables over together
            self._await_stop(w)

    def _prepare_metrics(self) -> None:
        """The folder the workers keep their metrics in: the operator's (``PROMETHEUS_MULTIPROC_DIR``), or one
        of this supervisor's own, removed as it stops; those of supervisors killed before they could remove
        theirs go now."""
        try:
            from . import metrics

            metrics.remove_stale_dirs()
            named = os.environ.get(metrics.MULTIPROC_ENV)
            directory = Path(named) if named else metrics.own_multiprocess_dir(os.getpid())
            metrics.prepare_multiprocess(directory)
            self.metrics_dir = None if named else directory
        except (ImportError, AttributeError):
            pass

    def _remove_metrics(self) -> None:
        if self.metrics_dir is not None:
            from . import metrics

            metrics.remove_multiprocess_dir(self.metrics_dir)
            self.metrics_dir = None

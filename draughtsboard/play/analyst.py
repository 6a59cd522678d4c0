"""The analyst: one worker thread that runs the engine off the controller thread.

The controller thread must react to every snapshot at once; a search takes up to a
second on this machine and longer on a Raspberry Pi. So the coach hands searches to this
thread, one at a time, most urgent first (each job's ``priority``: the lowest first, in
the order given among equals), and each job's answer goes back to the controller thread
through the session's queue (the coach does that), never by touching the session from
here.

Jobs are cancelled rather than waited for: each carries a ``stale`` test (is its
position still the one on the board?) that is asked before it starts and, through the
engine's ``stop`` callable, every few hundred nodes while it runs. `close` stops the
thread after the job in hand. What the coach needs of an analyst is `JobRunner`: a test
gives one that runs the jobs when the test says (no thread at all).
"""

from __future__ import annotations

import itertools
import logging
import queue
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

log = logging.getLogger("draughtsboard.coach")

Stop = Callable[[], bool]
SWITCH_INTERVAL = 0.001  # seconds: how long a thread may hold the interpreter lock


@dataclass
class Job:
    """``work(stop)`` computes an answer (``stop()`` true: give up and return anything);
    ``done(answer)`` receives it unless the job went stale meanwhile."""

    name: str
    work: Callable[[Stop], Any]
    done: Callable[[Any], None]
    stale: Callable[[], bool] = lambda: False
    priority: tuple = (0,)


class JobRunner(Protocol):
    """What runs the coach's jobs: `Analyst`, or a test's runner."""

    def submit(self, job: Job) -> None: ...

    def close(self, timeout: float = 5.0) -> None: ...


class Analyst:
    """The worker thread (started on the first job)."""

    def __init__(self, name: str = "draughtsboard-analyst") -> None:
        self.name = name
        self._jobs: queue.PriorityQueue = queue.PriorityQueue()
        self._sequence = itertools.count()
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.busy = False

    def submit(self, job: Job) -> None:
        if self._closing.is_set():
            return
        with self._lock:
            if self._thread is None:
                # A search holds the interpreter lock in long stretches; with the default
                # 5 ms switch interval the controller thread waited up to tens of ms for
                # it (p95 53 ms from a switch to the page, against 16 ms idle). At 1 ms
                # it gets the lock at once (p95 20 ms), for a few per cent of search speed.
                sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
                self._thread = threading.Thread(target=self._run, name=self.name,
                                                daemon=True)
                self._thread.start()
        self._jobs.put((job.priority, next(self._sequence), job))

    def close(self, timeout: float = 5.0) -> None:
        """Stop after the job in hand (it is told to stop). Safe twice."""
        self._closing.set()
        self._jobs.put(((-1,), -1, None))
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _run(self) -> None:
        while not self._closing.is_set():
            _, _, job = self._jobs.get()
            if job is None:
                return
            try:
                self._do(job)
            except Exception:  # noqa: BLE001 - a failed analysis must not stop the board
                log.exception("analysis %s failed", job.name)

    def _do(self, job: Job) -> None:
        """One job: skipped when stale, searched, its answer delivered unless stale."""
        if job.stale():
            return

        def stop() -> bool:
            return self._closing.is_set() or job.stale()

        self.busy = True
        try:
            answer = job.work(stop)
        finally:
            self.busy = False
        if not stop():
            job.done(answer)


"""The analyst's worker thread outlives a job that fails in any of its parts."""

from __future__ import annotations

import threading

from draughtsboard.play.analyst import Analyst, Job


def test_a_job_that_fails_anywhere_leaves_the_worker_for_the_next_one(caplog):
    analyst = Analyst()
    delivered = threading.Event()

    def broken_stale() -> bool:
        raise RuntimeError("stale check failed")

    def broken_work(stop):
        raise RuntimeError("search failed")

    def broken_done(answer):
        raise RuntimeError("delivery failed")

    try:
        analyst.submit(Job("stale fails", lambda stop: 1, lambda a: None, broken_stale))
        analyst.submit(Job("work fails", broken_work, lambda a: None))
        analyst.submit(Job("done fails", lambda stop: 1, broken_done))
        analyst.submit(Job("fine", lambda stop: 42, lambda answer: delivered.set()))
        assert delivered.wait(10), "the worker died with a failed job"
    finally:
        analyst.close()
    failures = [r.getMessage() for r in caplog.records if "failed" in r.getMessage()]
    assert failures == ["analysis stale fails failed", "analysis work fails failed",
                        "analysis done fails failed"]

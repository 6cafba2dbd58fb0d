"""Snakemake's local scheduler without the submission-rate timers that pile up with every job."""

from __future__ import annotations

from typing import Any

# Snakemake's command line (9.x) sets --max-jobs-per-timespan 100/1s by default (its Python API
# sets no limit). With a limit, every pass of the local scheduler's loop starts a timer that
# wakes the loop again a timespan later, and each wake-up starts the next: every pass that a
# finished job triggered adds one more such chain, so after N jobs about N timers wake the
# scheduler every second. Measured in a whole reproduction (2 cores): 197 threads and 20 % of a
# core in Snakemake's own process after 190 jobs; a chain ends only when a pass finds no job ready.

DROPPED = "bufrepro: local run, Snakemake's submission-rate limit off (its timers pile up per job)"


def drop_local_rate_limit(workflow: Any) -> bool:
    """In `onstart`: no submission-rate limit for a local run (as Snakemake's Python API runs
    by default), so no timer chains; a cluster run keeps its limit. True when it was dropped."""
    scheduler: Any = getattr(workflow, "scheduler", None)
    if not getattr(workflow, "local_exec", False) or scheduler is None:
        return False
    if getattr(scheduler, "job_rate_limiter", None) is None:
        return False
    scheduler.job_rate_limiter = None
    return True

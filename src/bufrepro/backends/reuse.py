"""Twin runs, identical but for their names: the first is simulated, the others take its metrics."""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bufrepro.kit import checks

# The folder, beside the studies' folders in results/, that names each simulated run by its
# reuse key (one small file per run), so that other jobs find it.
INDEX = ".reuse"


def index_dir(run_dir: Path) -> Path | None:
    """results/.reuse for a run folder under a results/ folder; None elsewhere (no index)."""
    parts = run_dir.parts
    if "results" not in parts:
        return None
    return Path(*parts[: parts.index("results") + 1]) / INDEX


class Twins:
    """The runs one process made, by reuse key, with the index of other processes' runs.

    claim() gives the first caller of a key None (it makes the run, then calls made()) and every
    later caller the folder of a finished twin, waiting while the first is still running; a
    key whose run failed gives None again, and that caller makes its own run.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._made: dict[str, Path | None] = {}
        self._busy: dict[str, threading.Event] = {}

    def claim(self, rkey: str, run_dir: Path) -> Path | None:
        """A finished twin's folder, or None: then the caller makes the run and calls made()."""
        with self._lock:
            if self._made.get(rkey) is not None:
                return self._made[rkey]
            busy = self._busy.get(rkey)
            if busy is None:
                self._busy[rkey] = threading.Event()
        if busy is None:
            return indexed(run_dir, rkey)
        busy.wait()
        with self._lock:
            made = self._made.get(rkey)
            if made is None and rkey not in self._busy:
                self._busy[rkey] = threading.Event()
            return made

    def made(self, rkey: str, run_dir: Path | None) -> None:
        """The claimed run is finished: its folder, or None when it failed."""
        with self._lock:
            if run_dir is not None or rkey not in self._made:
                self._made[rkey] = run_dir
            busy = self._busy.pop(rkey, None)
        if busy is not None:
            busy.set()


def indexed(run_dir: Path, rkey: str) -> Path | None:
    """The folder the index names for this key, if it still holds a run made with it."""
    index = index_dir(run_dir)
    entry = index / rkey[:2] / rkey if index is not None else None
    if entry is None or not entry.is_file():
        return None
    source = Path(entry.read_text(encoding="utf-8").strip())
    return source if source_record(source, rkey) is not None else None


def record_made(run_dir: Path, rkey: str) -> None:
    """Name a simulated run in the index (atomically: written aside, then renamed)."""
    index = index_dir(run_dir)
    if index is None:
        return
    entry = index / rkey[:2] / rkey
    entry.parent.mkdir(parents=True, exist_ok=True)
    tmp = entry.with_name(f"{rkey}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(f"{run_dir.resolve()}\n", encoding="utf-8")
    tmp.replace(entry)


def source_record(source: Path, rkey: str) -> tuple[dict[str, Any], str] | None:
    """The run.json of a simulated run (not itself a twin) made with this reuse key, and its
    metrics.tsv, the one it recorded; None for anything else."""
    try:
        meta = json.loads((source / "run.json").read_text(encoding="utf-8"))
        metrics = (source / "metrics.tsv").read_bytes()
    except (OSError, json.JSONDecodeError):
        return None
    if checks.record_problems(meta) or meta.get("reuse_key") != rkey or "reused_from" in meta:
        return None
    if checks.metrics_digest(metrics) != meta["metrics_sha256"]:
        return None
    return dict(meta), metrics.decode("utf-8")


def take(
    source: Path, run_dir: Path, rkey: str, kept: Sequence[str], own: Mapping[str, Any]
) -> tuple[dict[str, Any], str] | None:
    """Copy a twin's kept files into run_dir; returns this run's run.json, `own` (its command,
    key and identity) with the twin's metrics digest and finish time, no CPU and `reused_from`
    naming the twin, and the twin's metrics.tsv, as checked. None (nothing written) when the
    twin is not usable."""
    found = source_record(source, rkey)
    if found is None or not all((source / name).is_file() for name in kept):
        return None
    meta, metrics = found
    for name in kept:
        shutil.copyfile(source / name, run_dir / name)
    record = {
        **own,
        "cpu_s": {},
        "finished_at_sim_s": meta["finished_at_sim_s"],
        "metrics_sha256": meta["metrics_sha256"],
        "reuse_key": rkey,
        "reused_from": str(source),
        "wall_s": 0.0,
    }
    return record, metrics

"""Find a stale Snakemake lock in a checkout (one no running Snakemake holds) and remove it.

usage: python scripts/snakelock.py [--unlock] [DIR]      (DIR: the checkout, default: cwd)

A Snakemake killed with SIGKILL leaves `.snakemake/locks/*.lock` behind, and the next run stops
with "Directory cannot be locked". The lock is stale when no Snakemake process runs in DIR (its
working directory). A process whose working directory cannot be read (another user's) counts as
running there: then nothing is removed.

Prints one line and exits with
  0  no lock, or (with --unlock) a stale lock removed, as `snakemake --unlock` would;
  1  a Snakemake runs in DIR: the lock is its own (pid and command line printed);
  3  (without --unlock) a stale lock: the line gives the one command that removes it.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from pathlib import Path


def _is_snakemake(argv: list[str]) -> bool:
    """Whether a command line runs Snakemake (`snakemake ...`, `python -m snakemake ...`)."""
    head = argv[:3]
    if any(Path(a).name == "snakemake" for a in head):
        return True
    return any(a == "-m" and b == "snakemake" for a, b in itertools.pairwise(head))


def snakemakes_in(checkout: Path) -> list[tuple[int, str]]:
    """(pid, command line) of every Snakemake process running in checkout (or unreadable)."""
    here = checkout.resolve()
    found: list[tuple[int, str]] = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            raw = (proc / "cmdline").read_bytes()
            argv = [a.decode(errors="replace") for a in raw.split(b"\0")]
        except OSError:
            continue
        if not _is_snakemake(argv):
            continue
        try:
            cwd = Path(os.readlink(proc / "cwd"))
        except FileNotFoundError:
            continue  # it exited meanwhile
        except OSError:
            cwd = None  # not ours to read: it may run here
        if cwd is None or cwd == here or here in cwd.parents:
            found.append((int(proc.name), " ".join(a for a in argv if a)))
    return found


def locks(checkout: Path) -> list[Path]:
    """The lock files Snakemake left in checkout."""
    folder = checkout / ".snakemake" / "locks"
    return sorted(folder.glob("*.lock")) if folder.is_dir() else []


def main(argv: list[str] | None = None) -> int:
    """Check (and with --unlock, remove) a stale lock; prints one line when there is a lock."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unlock", action="store_true", help="remove a stale lock")
    parser.add_argument("dir", nargs="?", default=".", help="the checkout (default: cwd)")
    args = parser.parse_args(argv)
    checkout = Path(args.dir)
    held = locks(checkout)
    if not held:
        return 0
    running = snakemakes_in(checkout)
    if running:
        pid, cmd = running[0]
        print(
            f"[lock] a Snakemake runs in this checkout and holds its lock (pid {pid}: {cmd}); "
            f"wait for it to end, or stop it (kill {pid}) and run this command again"
        )
        return 1
    if not args.unlock:
        print(
            "[lock] stale Snakemake lock (no Snakemake runs in this checkout); remove it with: "
            ".venv/bin/snakemake --unlock"
        )
        return 3
    for lock in held:
        lock.unlink(missing_ok=True)
    print(
        f"[lock] removed a stale Snakemake lock ({len(held)} file(s) in .snakemake/locks/, left "
        "by a killed run; no Snakemake runs in this checkout), as snakemake --unlock does"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

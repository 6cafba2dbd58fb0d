"""What a workflow run plans, said before it starts, and a warning when that is more than asked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def plan_lines(
    studies: Sequence[str],
    runs: Mapping[str, int],
    experiments: Sequence[str],
    asked: Mapping[str, Any],
    known: Sequence[str],
) -> list[str]:
    """One line naming each planned study (with its grid's runs) and experiment; and a warning
    when the user's config files and --config name study blocks or experiments but leave
    `studies` at its default, so that every study runs (more than was asked for)."""
    parts = [f"{s} ({runs.get(s, 0)} grid runs)" for s in studies]
    parts += [f"experiment {e}" for e in experiments]
    lines = [f"bufrepro plans: {', '.join(parts) or 'nothing'}"]
    if "studies" in asked:
        return lines
    named = [s for s in known if s in asked]
    wanted = list(named)
    if asked.get("experiments"):
        wanted.append(f"experiments {', '.join(asked['experiments'])}")
    if wanted and len(studies) == len(known):
        only = f"studies=[{','.join(named)}]" if named else "studies=[]"
        lines.append(
            f"bufrepro: your config names {'; '.join(wanted)} but leaves `studies` at its "
            f"default, so all {len(known)} studies run; add --config '{only}' to run only "
            "what you named"
        )
    return lines

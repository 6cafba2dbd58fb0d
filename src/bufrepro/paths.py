"""Where the repository's files are (kept import-light: rendering imports it per run)."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

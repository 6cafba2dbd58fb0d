"""Where the repository's files are (kept import-light: every job imports it)."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]

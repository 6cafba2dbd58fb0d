"""Text generated from the run actually made: captions, assumption reasons, provenance."""

from __future__ import annotations

import datetime as dt
import json
import os
import shlex
import subprocess
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jinja2

from bufrepro import registry
from bufrepro.kit import configs
from bufrepro.kit.configs import get_dotted
from bufrepro.kit.paths import REPO_ROOT
from bufrepro.pipeline import configuration

CAPTIONS = REPO_ROOT / "report" / "captions"
_ENV = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False)


def render(text: str, cfg: Mapping[str, Any]) -> str:
    """A caption or reason as a Jinja2 template over `snakemake.config` (as Snakemake's report)."""
    if "{{" not in text and "{%" not in text:
        return text.strip()
    return _ENV.from_string(text).render(snakemake=SimpleNamespace(config=cfg)).strip()


def caption(study: str, name: str, cfg: Mapping[str, Any]) -> str:
    """report/captions/<study>/<name>.rst rendered with the run's config, else the one every
    study shares (report/captions/report/<name>.rst); "" when both are absent."""
    for path in (CAPTIONS / study / f"{name}.rst", CAPTIONS / "report" / f"{name}.rst"):
        if path.exists():
            return render(path.read_text("utf-8"), cfg)
    return ""


@cache
def _defaults() -> dict[str, Any]:
    """The default config files merged (the full reproduction the reasons were written for)."""
    merged: dict[str, Any] = {}
    for path in configuration.default_files():
        merged = configs.merge(merged, configs.read_yaml(path) or {})
    return merged


def default_value(study: str, key: str) -> Any:
    """The value of `study.key` in the default config files, None when they do not set it."""
    try:
        return get_dotted(_defaults()[study], key)
    except (KeyError, TypeError):
        return None


def assumptions(study: str, cfg: Mapping[str, Any]) -> list[dict[str, str]]:
    """Each unstated parameter: key, the value this run used, the default, and the reason.

    A reason is static text written for the default value; where this run's value differs, `note`
    says so, so the reader never takes the reason's number for the run's.
    """
    block = cfg[study]
    out = []
    for key in registry.get(study).unstated:
        value, default = get_dotted(block, key), default_value(study, key)
        out.append(
            {
                "key": f"{study}.{key}",
                "value": json.dumps(value),
                "why": render(str(block["assumptions"][key]), cfg),
                "note": (
                    f"this run: {json.dumps(value)}; the reason is written for the default "
                    f"{json.dumps(default)}"
                    if default is not None and default != value
                    else ""
                ),
            }
        )
    return out


def git(*args: str, where: Path = REPO_ROOT) -> str:
    """A git command's output in the checkout holding `where` (the repository by default), ""
    when git or the checkout is absent."""
    try:
        proc = subprocess.run(
            ["git", "-C", str(where), *args],
            capture_output=True,
            text=True,
            check=False,
            timeout=20,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return proc.stdout.strip() if proc.returncode == 0 else ""


def git_state() -> str:
    """'<commit> (clean)' or '<commit> (dirty: N files changed)', or 'not a git checkout'."""
    commit = git("rev-parse", "HEAD")
    if not commit:
        return "not a git checkout"
    changed = git("status", "--porcelain", "--untracked-files=no").splitlines()
    if not changed:
        return f"{commit} (clean)"
    return f"{commit} (dirty: {len(changed)} tracked file{'s' if len(changed) > 1 else ''} changed)"


def ns_builds(results: Path, studies: Sequence[str]) -> list[str]:
    """Every simulator build and version recorded in the studies' provenance (from run.json):
    the study's own backend's, then each further simulator's (results/<study>/<backend>/)."""
    seen: dict[str, None] = {}
    for study in studies:
        found = [
            results / study / "provenance.json",
            *sorted(results.glob(f"{study}/*/provenance.json")),
        ]
        for path in found:
            prov = json.loads(path.read_text("utf-8"))
            versions = ", ".join(prov.get("ns_versions", [])) or "not recorded"
            for build in prov.get("ns_builds", []) or ["(not recorded)"]:
                seen[f"{build} (ns-version {versions}; {study})"] = None
    return list(seen)


def _parent(pid: int) -> int:
    """The parent of a process (Linux /proc), 0 when unknown."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text("utf-8")
    except OSError:
        return 0
    return int(stat.rsplit(")", 1)[1].split()[1])


def snakemake_argv(pid: int | None = None) -> list[str]:
    """The arguments of the Snakemake process this one runs under ([] when there is none).

    Read from /proc: the report job is a child of Snakemake, whose command line is passed in no
    param (a param would make every other command line rebuild the report).
    """
    pid = os.getppid() if pid is None else pid
    for _ in range(8):
        if pid <= 1:
            break
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode("utf-8", "replace")
        except OSError:
            break
        args = [a for a in argv.split("\0") if a]
        for i, arg in enumerate(args):
            if Path(arg).name == "snakemake" and i + 1 <= len(args):
                return args[i + 1 :]
        pid = _parent(pid)
    return []


def configfiles_of(args: Sequence[str], cfg: Mapping[str, Any]) -> list[str]:
    """The config files merged, in order: the defaults, the profile's, then each --configfile."""
    given: list[str] = []
    taking = False
    for arg in args:
        if arg in ("--configfile", "--configfiles"):
            taking = True
        elif arg.startswith("-"):
            taking = False
        elif taking:
            given.append(arg)
    files = [
        *configuration.default_files(),
        *configuration.profile_files(str(cfg.get("profile") or "")),
    ]
    return [
        str(f.relative_to(REPO_ROOT)) if f.is_relative_to(REPO_ROOT) else str(f) for f in files
    ] + given


def provenance(
    cfg: Mapping[str, Any],
    results: Path,
    command: str,
    configfiles: Sequence[str],
    now: dt.datetime | None = None,
) -> list[tuple[str, str]]:
    """The provenance block: (label, text) pairs (command and files from Snakemake if not given)."""
    args = [] if command and configfiles else snakemake_argv()
    command = command or (shlex.join(["snakemake", *args]) if args else "")
    configfiles = list(configfiles) or configfiles_of(args, cfg)
    when = (now or dt.datetime.now(dt.UTC)).strftime("%Y-%m-%d %H:%M:%S UTC")
    return [
        ("git commit", git_state()),
        ("report built", when),
        ("command", command or "not recorded (report built outside Snakemake)"),
        ("profile", str(cfg.get("profile") or "none (the full reproduction)")),
        (
            "config files merged, in order (then --config)",
            ", ".join(configfiles) or "not recorded",
        ),
        ("ns builds", "; ".join(ns_builds(results, cfg["studies"]))),
        ("verified (bufrepro verify)", verified(results)),
    ]


def verified(results: Path) -> str:
    """Whether and when the tree's runs were re-simulated and compared (results/verify.json)."""
    from bufrepro.pipeline import verify

    record = verify.read_record(results)
    if record is None:
        return "not verified: no run was re-simulated (run `bufrepro verify`)"
    try:
        return (
            f"{record['verified_at']}: {record['runs_checked']} of {record['runs_total']} runs "
            f"re-simulated ({record['mode']}); {record['same']} identical, "
            f"{len(record['differs'])} differ, {len(record['refused'])} refused"
        )
    except (KeyError, TypeError):
        return f"not verified: {results / verify.RECORD} is not a verification record"

"""What a simulator backend provides, and the generic steps of one run: render, simulate, parse."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shlex
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, BinaryIO, Protocol

from bufrepro.backends import fingerprint, reuse, servers
from bufrepro.backends.proc import _release, _run, _wait
from bufrepro.kit import binding, checks

# What the fingerprint becomes in a reuse key: a twin's scenario differs in the run's name alone.
NAME_MASK = "<run name>"


class RunFailed(RuntimeError):
    """A run that did not finish cleanly; the message names the run and how to reproduce it."""


@dataclass(frozen=True)
class RunSpec:
    """Everything one run needs, computed from the validated config (a run record)."""

    run_dir: Path
    # Whose run it is: a study's or an experiment's name (the run point's owner).
    owner: str
    # What params.json holds: the swept values, seed, template and template variables.
    record: Mapping[str, Any]
    # The scenario the backend renders or runs: a template (ns2) or a program's name (ns3).
    scenario: str
    parser: str
    parser_args: Mapping[str, Any]
    stream: str = "out.tr"
    side_files: tuple[str, ...] = ()
    side_parser: str = ""
    kept_files: tuple[str, ...] = ()
    options: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def params(self) -> Mapping[str, Any]:
        """The template variables."""
        return self.record["params"]  # type: ignore[no-any-return]


class Parsers(Protocol):
    """How a backend's runs are parsed: the command, its environment, what the metrics depend
    on, and when the output is accepted (e.g. backends.awk: gawk over awk/, acct_ok 1)."""

    env: Mapping[str, str]

    def command(self, program: str, args: Mapping[str, Any], inputs: Sequence[str]) -> list[str]:
        """The command that runs parser `program` with its variables over the input files."""
        ...

    def digest(self, programs: Sequence[str]) -> str:
        """A text naming the programs and every file they read (a run key's part)."""
        ...

    def problems(self, lines: Sequence[str]) -> list[str]:
        """Why the parsers' output lines are not accepted (empty: accepted)."""
        ...

    def files(self, programs: Sequence[str]) -> list[str]:
        """Every file the programs read, relative to the repository (the workflow's inputs)."""
        ...


class Backend(Protocol):
    """A simulator, the whole of what the engine asks of one: how a scenario is rendered, how it
    runs, how its stream is parsed, what it offers and whether it can run here."""

    name: str
    parsers: Parsers
    # The bottleneck queues its scenarios implement, by the config's names (its one table).
    queues: tuple[str, ...]

    def missing(self) -> str:
        """Why it cannot run on this machine, naming what to install ("" when it can)."""
        ...

    def server(self, spec: RunSpec) -> list[str]:
        """A run server's command that can take this run (servers.run), or [] to run it alone."""
        ...

    def scenario(self, spec: RunSpec) -> tuple[str, str]:
        """(file name, text) of the rendered scenario, written into the run folder."""
        ...

    def simulate(self, spec: RunSpec) -> list[str]:
        """The command that runs the scenario in the run folder."""
        ...

    def identity(self, spec: RunSpec) -> dict[str, str]:
        """The simulator's provenance: binary, sha256, version, package."""
        ...

    def finish_time(self, stdout: str) -> float | None:
        """The simulated time the scenario reports having reached at its end (None: missing)."""
        ...

    def requires(self, options: Mapping[str, str]) -> list[str]:
        """Files a run needs before it can start (e.g. a build record), for the workflow."""
        ...

    def scenario_files(self, scenario: str) -> list[str]:
        """The source files a scenario is rendered from, relative to the repository (the
        workflow's inputs: a change to one reruns its batches); [] for none."""
        ...


def run_key(
    spec: RunSpec, scenario_text: str, identity: Mapping[str, str], parsers: Parsers
) -> str:
    """A digest of everything a run's metrics depend on: scenario, parsers, their inputs, binary."""
    h = hashlib.sha256()
    h.update(scenario_text.encode())
    h.update(parsers.digest([p for p in (spec.parser, spec.side_parser) if p]).encode())
    h.update(json.dumps(dict(spec.parser_args), sort_keys=True).encode())
    h.update(json.dumps(dict(identity), sort_keys=True).encode())
    return h.hexdigest()


def reuse_key(
    spec: RunSpec, scenario_text: str, identity: Mapping[str, str], parsers: Parsers
) -> str:
    """The run key (run_key) of the run without its name, with the files it keeps: the scenario
    with its fingerprint masked, and the parser variables without it. Two runs with one reuse
    key simulate the same events, and their parsers compute the same metrics from them."""
    name = str(spec.parser_args.get(fingerprint.VARIABLE, ""))
    text = scenario_text.replace(name, NAME_MASK) if name else scenario_text
    args = {k: v for k, v in spec.parser_args.items() if k != fingerprint.VARIABLE}
    unnamed = run_key(dataclasses.replace(spec, parser_args=args), text, identity, parsers)
    kept = json.dumps(sorted(spec.kept_files))
    return hashlib.sha256((unnamed + kept).encode()).hexdigest()


def write_inputs(spec: RunSpec, name: str, text: str) -> None:
    """Write the run's scenario and params.json (the record) into its folder."""
    spec.run_dir.mkdir(parents=True, exist_ok=True)
    _write_if_changed(spec.run_dir / name, text)
    _write_if_changed(
        spec.run_dir / "params.json", json.dumps(spec.record, indent=1, sort_keys=True) + "\n"
    )


def _write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)


def is_current(spec: RunSpec, key: str) -> bool:
    """True when the run folder holds metrics made from exactly this key, byte for byte the
    metrics.tsv its run.json records (metrics_sha256): an edited metrics file is remade."""
    meta, metrics = spec.run_dir / "run.json", spec.run_dir / "metrics.tsv"
    if not (meta.is_file() and metrics.is_file()):
        return False
    try:
        record = json.loads(meta.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        return False
    if not isinstance(record, dict) or record.get("key") != key:
        return False
    if not binding.inputs_current(spec.run_dir, record):
        return False
    return bool(record.get("metrics_sha256") == checks.metrics_digest(metrics.read_bytes()))


def _env(parsers: Parsers) -> dict[str, str]:
    """The parsers' environment: this process's with the parsers' own."""
    return {**os.environ, **parsers.env}


def _clear(spec: RunSpec) -> None:
    for name in ("metrics.tsv", "run.json", spec.stream, *spec.side_files, "parse.stderr"):
        (spec.run_dir / name).unlink(missing_ok=True)


def _launch(
    sim: list[str], cwd: Path, out: BinaryIO, err: BinaryIO, server: Sequence[str]
) -> tuple[int, float]:
    """Run the simulator to its end, output into the open files: (exit code, its CPU seconds).
    Through a server (servers.run) when the backend names one that can take it, else as a
    process of its own."""
    if server:
        done = servers.run(server, sim[-1], cwd, Path(out.name), Path(err.name))
        if done is not None:
            return done
    return _wait(subprocess.Popen(sim, cwd=cwd, stdout=out, stderr=err))


def _parse(
    spec: RunSpec,
    sim: list[str],
    keep: bool,
    cpu: dict[str, float],
    parsers: Parsers,
    server: Sequence[str] = (),
) -> tuple[int, int, str, str]:
    """Run simulator and parser; returns (simulator rc, parser rc, metrics text, parser stderr)
    and puts each one's CPU seconds into `cpu`."""
    d = spec.run_dir
    stream = d / spec.stream
    parse_cmd = parsers.command(spec.parser, spec.parser_args, [spec.stream])
    with (
        (d / "ns.stdout").open("wb") as out,
        (d / "ns.stderr").open("wb") as err,
        (d / "parse.stderr").open("w+b") as perr,
    ):
        if keep:
            rc, cpu["simulator"] = _launch(sim, d, out, err, server)
            prc, metrics, errors, cpu["parser"] = _run(parse_cmd, d, env=_env(parsers))
            perr.write(errors)
            return rc, prc, metrics.decode(), errors.decode()
        os.mkfifo(stream)
        parser = subprocess.Popen(
            parse_cmd, cwd=d, stdout=subprocess.PIPE, stderr=perr, env=_env(parsers)
        )
        try:
            rc, cpu["simulator"] = _launch(sim, d, out, err, server)
        except OSError:  # e.g. no simulator binary: the parser, blocked on the pipe, goes too
            parser.kill()
            parser.communicate()
            raise
        _release(stream, parser)
        assert parser.stdout is not None
        metrics = parser.stdout.read()  # its stderr goes to a file: reading to the end is safe
        prc, cpu["parser"] = _wait(parser)
        perr.seek(0)
        return rc, prc, metrics.decode(), perr.read().decode()


def reproduce_command(spec: RunSpec, sim: list[str], keep: bool, parsers: Parsers) -> str:
    """A shell line that reruns the run by hand, streaming into its parser as the job does."""
    env = " ".join(f"{k}={shlex.quote(v)}" for k, v in parsers.env.items())
    parse = parsers.command(spec.parser, spec.parser_args, [spec.stream])
    parse_cmd = env + " " + shlex.join(parse)
    where = shlex.quote(str(spec.run_dir.resolve()))
    if keep:
        return f"cd {where} && {shlex.join(sim)} && {parse_cmd}"
    return (
        f"cd {where} && rm -f {spec.stream} && mkfifo {spec.stream} && "
        f"({parse_cmd} > metrics.check &) && {shlex.join(sim)}"
    )


def _metric_problems(spec: RunSpec, lines: list[str]) -> list[str]:
    """The parsers' output checked as aggregation will read it: names once, finite, in bounds."""
    try:
        values = checks.parse_metrics("".join(f"{line}\n" for line in lines), "metrics")
    except checks.BadRunFiles as err:
        return [str(err)]
    found = checks.metric_problems(values, checks.capacity_bps(spec.parser_args))
    return [f"metrics out of bounds: {'; '.join(found)}"] if found else []


def execute(
    backend: Backend, spec: RunSpec, keep_traces: bool = False, twins: reuse.Twins | None = None
) -> str:
    """Render, simulate and parse one run unless its folder is current; 'ran', 'current' or
    'reused'.

    metrics.tsv is written last, atomically, and only when the simulator exited 0, printed its
    finish marker, every parser exited 0 with the accounting check passed, and the metrics
    pass kit.checks (each name once, finite, within their bounds and the capacity); otherwise
    RunFailed names the run, the reasons and the command that reproduces it, and the folder
    keeps no metrics. With `twins` (streamed runs only), a run identical to a finished one but
    for its name (reuse_key) takes that run's metrics instead of simulating ('reused').
    """
    name, text = backend.scenario(spec)
    identity = backend.identity(spec)
    parsers = backend.parsers
    key = run_key(spec, text, identity, parsers)
    write_inputs(spec, name, text)
    if is_current(spec, key):
        return "current"
    _clear(spec)
    sim = backend.simulate(spec)
    if twins is None or keep_traces:
        _simulate(backend, spec, keep_traces, key, sim, identity, "")
        return "ran"
    rkey = reuse_key(spec, text, identity, parsers)
    source = twins.claim(rkey, spec.run_dir)
    made: Path | None = None
    try:
        if source is not None:
            own = _record(spec, sim, False, key, identity, parsers)
            taken = reuse.take(source, spec.run_dir, rkey, spec.kept_files, own)
            if taken is not None:
                _write_record(spec, *taken)
                made = source
                return "reused"
        _simulate(backend, spec, False, key, sim, identity, rkey)
        reuse.record_made(spec.run_dir, rkey)
        made = spec.run_dir
        return "ran"
    finally:
        twins.made(rkey, made)


def _record(
    spec: RunSpec,
    sim: list[str],
    keep: bool,
    key: str,
    identity: Mapping[str, str],
    parsers: Parsers,
) -> dict[str, Any]:
    """The fields of a run's run.json that are its own: command, identity, key, parsers."""
    return {
        "command": reproduce_command(spec, sim, keep, parsers),
        "exit_code": 0,
        **identity,
        "key": key,
        "parser": spec.parser + (f" + {spec.side_parser}" if spec.side_parser else ""),
        "parser_args": dict(spec.parser_args),
        "streamed": not keep,
    }


def _write_record(spec: RunSpec, meta: Mapping[str, Any], metrics: str) -> None:
    """run.json, with the digests of params.json and the scenario, then metrics.tsv (last: its
    presence means the run is finished)."""
    bound = {**meta, **binding.input_digests(spec.run_dir)}
    record = json.dumps(bound, indent=1, sort_keys=True) + "\n"
    _write_if_changed(spec.run_dir / "run.json", record)
    _write_if_changed(spec.run_dir / "metrics.tsv", metrics)


def _simulate(
    backend: Backend,
    spec: RunSpec,
    keep_traces: bool,
    key: str,
    sim: list[str],
    identity: Mapping[str, str],
    rkey: str,
) -> None:
    """Simulate and parse the run, check it, and write its metrics and run.json (RunFailed)."""
    parsers = backend.parsers
    start = time.monotonic()
    cpu: dict[str, float] = {}
    rc, prc, metrics, perr = _parse(spec, sim, keep_traces, cpu, parsers, backend.server(spec))
    side = ""
    if rc == 0 and prc == 0 and spec.side_parser:
        command = parsers.command(spec.side_parser, spec.parser_args, list(spec.side_files))
        prc, out, err, cpu["side_parser"] = _run(command, spec.run_dir, env=_env(parsers))
        side, perr = out.decode(), err.decode()
    wall = time.monotonic() - start
    stdout = (spec.run_dir / "ns.stdout").read_text(encoding="utf-8", errors="replace")
    finished = backend.finish_time(stdout)
    lines = sorted((metrics + side).splitlines(), key=lambda s: s.encode())
    problems = []
    if rc != 0:
        problems.append(f"simulator exit code {rc}")
    if finished is None:
        problems.append("no finish marker")
    if prc != 0:
        problems.append(f"parser exit code {prc}: {perr.strip()[-400:]}")
    elif found := parsers.problems(lines):
        problems += found
    else:
        problems += _metric_problems(spec, lines)
    if problems:
        _clear(spec)
        raise RunFailed(
            f"run {spec.run_dir} FAILED ({'; '.join(problems)}); "
            f"reproduce with: {reproduce_command(spec, sim, keep_traces, parsers)}"
        )
    for extra in spec.side_files:
        if not keep_traces and extra not in spec.kept_files:
            (spec.run_dir / extra).unlink(missing_ok=True)
    if not keep_traces:
        (spec.run_dir / spec.stream).unlink(missing_ok=True)
    text = "".join(f"{line}\n" for line in lines)
    meta = {
        **_record(spec, sim, keep_traces, key, identity, parsers),
        "cpu_s": {step: round(seconds, 3) for step, seconds in cpu.items()},
        "exit_code": rc,
        "finished_at_sim_s": finished,
        "metrics_sha256": checks.metrics_digest(text.encode("utf-8")),
        **({"reuse_key": rkey} if rkey else {}),
        "wall_s": round(wall, 3),
    }
    _write_record(spec, meta, text)

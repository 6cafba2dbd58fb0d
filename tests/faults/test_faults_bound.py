"""Every file a number rests on is bound to its run (issue 42): an edited params.json or
scenario, and files copied between runs (seeds, buffers, scenarios), stop aggregation naming the
run, the file and the command that remakes it. The originals are real tiny ns-2 runs, each in
its canonical folder."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from fault_runs import KeptRun, config, kept_runs
from test_faults_aggregate import copy_run

from bufrepro.kit import checks, tables
from bufrepro.studies.dumbbell import STUDY

pytestmark = pytest.mark.usefixtures("ns_available")

Edit = Callable[[dict[str, Any]], dict[str, Any]]


def _top(key: str, value: Any) -> Edit:
    return lambda p: {**p, key: value}


def _var(key: str, change: Callable[[Any], Any]) -> Edit:
    return lambda p: {**p, "params": {**p["params"], key: change(p["params"][key])}}


# >= 20 edits of params.json: the swept values and seed (the folder disagrees), template
# variables (only the digest can tell), and edits of its form.
PARAMS: dict[str, Edit] = {
    "buffer_10_to_99": _top("buffer", 99),
    "buffer_10_to_20": _top("buffer", 20),
    "buffer_10_to_1": _top("buffer", 1),
    "seed_1_to_2": _top("seed", 2),
    "seed_1_to_11": _top("seed", 11),
    "plr_to_0": _top("plr", 0.0),
    "plr_to_0.1": _top("plr", 0.1),
    "bottleneck_to_1": _top("bottleneck_mbps", 1.0),
    "bottleneck_to_5": _top("bottleneck_mbps", 5.0),
    "queue_to_red": _top("queue", "RED"),
    "study_renamed": _top("study", "ramya"),
    "template_renamed": _top("template", "ramya/ramya.tcl.j2"),
    "swept_key_added": _top("extra", 3),
    "swept_key_removed": lambda p: {k: v for k, v in p.items() if k != "plr"},
    "duration_halved": _var("duration_s", lambda v: v / 2),
    "delay_moved": _var("bottleneck_delay_ms", lambda v: v + 5),
    "buffer_var_to_99": _var("buffer", lambda v: 99),
    "fingerprint_of_seed_2": _var("fingerprint", lambda v: v.replace("seed=1", "seed=2")),
    "seed_var_to_2": _var("seed", lambda v: 2),
    "vars_emptied": lambda p: {**p, "params": {}},
}
FORMS: dict[str, Callable[[bytes], bytes]] = {
    "reindented": lambda b: json.dumps(json.loads(b), indent=2, sort_keys=True).encode() + b"\n",
    "one_line": lambda b: json.dumps(json.loads(b), sort_keys=True).encode() + b"\n",
    "trailing_space": lambda b: b + b" ",
    "not_json": lambda b: b[: len(b) // 2],
    "emptied": lambda b: b"",
}


@pytest.fixture(scope="module")
def dumbbell(tmp_path_factory: pytest.TempPathFactory, patched_ns: Path) -> KeptRun:
    return kept_runs(tmp_path_factory.mktemp("originals"))["dumbbell"]


def _refused(run_dir: Path, file: str) -> str:
    """The refusal's message: it names the run, the file and the remaking command."""
    with pytest.raises(checks.BadRunFiles) as err:
        tables.read_run(run_dir, STUDY.own_simulator(), STUDY.required_metrics())
    text = str(err.value)
    assert str(run_dir) in text and file in text, text
    return text


def _reseal_params(run_dir: Path) -> None:
    """run.json's params_sha256 recomputed for the folder's params.json (a forger's move)."""
    meta = json.loads((run_dir / "run.json").read_text())
    meta["params_sha256"] = hashlib.sha256((run_dir / "params.json").read_bytes()).hexdigest()
    (run_dir / "run.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")


def test_the_untouched_run_is_read(dumbbell: KeptRun, tmp_path: Path) -> None:
    run_dir = copy_run(dumbbell, tmp_path)
    meta = json.loads((run_dir / "run.json").read_text())
    assert {"params_sha256", "scenario_sha256", "scenario_file"} <= set(meta)
    tables.read_run(run_dir, STUDY.own_simulator(), STUDY.required_metrics())


def test_the_corpus_has_at_least_20_params_edits() -> None:
    assert len(PARAMS) >= 20


@pytest.mark.parametrize("kind", sorted(PARAMS))
def test_an_edited_params_file_is_refused(dumbbell: KeptRun, kind: str, tmp_path: Path) -> None:
    run_dir = copy_run(dumbbell, tmp_path)
    path = run_dir / "params.json"
    edited = PARAMS[kind](json.loads(path.read_text()))
    path.write_text(json.dumps(edited, indent=1, sort_keys=True) + "\n")
    text = _refused(run_dir, "params.json")
    assert json.loads((run_dir / "run.json").read_text())["command"] in text


@pytest.mark.parametrize("kind", sorted(FORMS))
def test_a_params_file_in_another_form_is_refused(
    dumbbell: KeptRun, kind: str, tmp_path: Path
) -> None:
    run_dir = copy_run(dumbbell, tmp_path)
    path = run_dir / "params.json"
    path.write_bytes(FORMS[kind](path.read_bytes()))
    _refused(run_dir, "params.json")


# With run.json's digest recomputed, an edit of a swept value or the seed is still refused (the
# folder says otherwise); an edit of a template variable is not: `bufrepro verify` re-renders
# and re-simulates (test_verify.py).
FOLDER_BOUND = [k for k in sorted(PARAMS) if k.startswith(("buffer_10", "seed_1", "plr", "bott"))]


@pytest.mark.parametrize("kind", FOLDER_BOUND)
def test_an_edited_params_file_resealed_is_refused_by_its_folder(
    dumbbell: KeptRun, kind: str, tmp_path: Path
) -> None:
    run_dir = copy_run(dumbbell, tmp_path)
    path = run_dir / "params.json"
    path.write_text(json.dumps(PARAMS[kind](json.loads(path.read_text())), indent=1) + "\n")
    _reseal_params(run_dir)
    _refused(run_dir, "params.json")


def test_an_edited_scenario_is_refused(dumbbell: KeptRun, tmp_path: Path) -> None:
    run_dir = copy_run(dumbbell, tmp_path)
    (run_dir / "sim.tcl").write_text((run_dir / "sim.tcl").read_text() + "# edited\n")
    _refused(run_dir, "sim.tcl")


# Files of another run (1: another scenario, 2: another seed, 3: another buffer) copied into
# this run's folder: every non-empty subset of the four files, from each donor.
FILES = ("params.json", "sim.tcl", "run.json", "metrics.tsv")
SUBSETS = [
    tuple(f for i, f in enumerate(FILES) if mask >> i & 1) for mask in range(1, 1 << len(FILES))
]
COPIES = [(donor, files) for donor in (1, 2, 3) for files in SUBSETS]


def test_the_copy_corpus_has_at_least_20_cases() -> None:
    assert len(COPIES) >= 20


@pytest.mark.parametrize(("donor", "files"), COPIES, ids=lambda x: str(x))
def test_files_copied_from_another_run_are_refused(
    dumbbell: KeptRun, donor: int, files: tuple[str, ...], tmp_path: Path
) -> None:
    run_dir = copy_run(dumbbell, tmp_path / "this")
    other = copy_run(dumbbell, tmp_path / "other", donor)
    same = [f for f in files if (run_dir / f).read_bytes() == (other / f).read_bytes()]
    for name in files:
        shutil.copy(other / name, run_dir / name)
    if len(same) == len(files):
        pytest.skip(f"{files}: the same bytes in both runs")
    with pytest.raises(checks.BadRunFiles, match=str(run_dir)):
        tables.read_run(run_dir, STUDY.own_simulator(), STUDY.required_metrics())


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bufrepro.cli", *args], capture_output=True, text=True, check=False
    )


def test_a_refused_aggregation_prints_no_traceback(dumbbell: KeptRun, tmp_path: Path) -> None:
    run_dir = copy_run(dumbbell, tmp_path / "tree")
    params = json.loads((run_dir / "params.json").read_text())
    (run_dir / "params.json").write_text(json.dumps({**params, "buffer": 99}) + "\n")
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(yaml.safe_dump(config()))
    manifest = tmp_path / "b0000.tsv"
    manifest.write_text(f"run_dir\tstatus\tseconds\n{run_dir}\tran\t0.1\n")
    proc = _cli(
        "aggregate", "--config", str(cfg), "--study", "dumbbell", "--tables",
        str(tmp_path / "t"), "--provenance", str(tmp_path / "p.json"), str(manifest),
    )  # fmt: skip
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr[-800:]
    assert str(run_dir) in proc.stderr and "params.json" in proc.stderr


@pytest.mark.parametrize(
    "text", ["a: [1, 2\n", "- not\n- a mapping\n", "studies: [nosuchstudy]\n", "\t: x\n"]
)
def test_a_bad_config_names_its_file_without_a_traceback(text: str, tmp_path: Path) -> None:
    cfg = tmp_path / "bad.yaml"
    cfg.write_text(text)
    proc = _cli("show", "--config", str(cfg))
    assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stderr[-800:]
    assert str(cfg) in proc.stderr, proc.stderr


@pytest.mark.parametrize("script", ["exit 1", "kill -9 $$", "true"])
def test_a_failed_ns_version_probe_fails_the_run(script: str, tmp_path: Path) -> None:
    """Provenance is part of the run: an ns that cannot say its version (killed, failing,
    silent) fails, naming the binary and the probe that reproduces it."""
    from bufrepro.backends.base import RunFailed
    from bufrepro.backends.simulators import ns2

    fake = tmp_path / "ns"
    fake.write_text(f"#!/bin/sh\ncat > /dev/null\n{script}\n")
    fake.chmod(0o755)
    with pytest.raises(RunFailed, match="ns-version probe") as err:
        ns2._identity(str(fake))
    assert str(fake) in str(err.value)


def test_bench_refuses_a_work_folder_that_holds_runs(tmp_path: Path) -> None:
    (tmp_path / "runs").mkdir()
    proc = _cli("bench", "--work", str(tmp_path), "--runs", "1")
    assert proc.returncode == 2 and "not empty" in proc.stderr and str(tmp_path) in proc.stderr


@pytest.mark.parametrize("text", ["a: [1, 2\n", "- a list\n", "a: 1\na: 2\n", "\tx: 1\n"])
def test_a_bad_config_file_is_named_before_snakemake_parses_it(text: str, tmp_path: Path) -> None:
    """scripts/reproduce.sh runs bufrepro.pipeline.config_check on its --configfile files."""
    cfg = tmp_path / "bad.yaml"
    cfg.write_text(text)
    proc = subprocess.run(
        [sys.executable, "-m", "bufrepro.pipeline.config_check", str(cfg)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert str(cfg) in proc.stderr, proc.stderr
    script = (Path(__file__).parents[2] / "scripts" / "reproduce.sh").read_text()
    assert "bufrepro.pipeline.config_check" in script

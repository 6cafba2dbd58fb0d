"""`bufrepro verify` on a small real tree (tiny dumbbell runs on ns-2, tally streams): it passes
the untouched tree and catches every edit whose digests were recomputed (the metrics a resealed
tally stream would give, params.json and scenario edits, files rebound across runs)."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from fault_runs import config

from bufrepro import backends, registry
from bufrepro.backends.base import execute
from bufrepro.cli import main
from bufrepro.kit import tables
from bufrepro.pipeline import plan, report_text, verify

pytestmark = pytest.mark.usefixtures("ns_available")


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory, patched_ns: Path) -> tuple[Path, dict[str, Any]]:
    """results/ of four tiny dumbbell runs (two capacities x seeds 1, 2), tally streams."""
    cfg = config()
    cfg["dumbbell"]["trace_level"] = "tally"
    cfg["dumbbell"]["seeds"] = [1, 2]
    base = tmp_path_factory.mktemp("tree")
    backend = backends.get("ns2", cfg)
    for point in registry.get("dumbbell").runs(cfg["dumbbell"]):
        assert execute(backend, plan.spec(cfg, point, base)) == "ran"
    results = base / "results"
    (results / "config.validated.yaml").write_text(yaml.safe_dump(cfg))
    return results, cfg


def _copy(tree: tuple[Path, dict[str, Any]], where: Path) -> tuple[Path, list[Path]]:
    results = where / "results"
    shutil.copytree(tree[0], results)
    return results, verify.runs_of(results)


def _redigest(run_dir: Path, *names: str) -> None:
    """run.json's digests recomputed for the folder's files (a forger's move)."""
    meta = json.loads((run_dir / "run.json").read_text())
    keys = {"metrics.tsv": "metrics_sha256", "params.json": "params_sha256"}
    for name in names:
        key = keys.get(name, "scenario_sha256")
        meta[key] = hashlib.sha256((run_dir / name).read_bytes()).hexdigest()
    (run_dir / "run.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")


def _scaled(line: str, factor: float) -> str:
    name, _, value = line.partition("\t")
    x = float(value) * factor
    return f"{name}\t{int(x) if x == int(x) and '.' not in value else f'{x:.6f}'}"


def test_an_untouched_tree_passes(tree: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    results, runs = _copy(tree, tmp_path)
    assert len(runs) == 4
    assert main(["verify", str(results), "--all", "--seed", "1"]) == 0
    record = verify.read_record(results)
    assert record and record["same"] == 4 and not record["differs"] and not record["refused"]
    assert record["mode"] == "all" and record["verified_at"].endswith("Z")
    # The report's provenance section says whether and when the tree was verified.
    assert "4 of 4 runs re-simulated (all); 4 identical" in report_text.verified(results)
    assert report_text.verified(tmp_path).startswith("not verified")


def test_the_default_sample_and_its_odds() -> None:
    assert verify.DEFAULT_SAMPLE == 0.5
    assert verify.catch_probability(100, 5, 50) > 0.96
    assert verify.pick([Path(str(i)) for i in range(10)], 0.5, 3) == verify.pick(
        [Path(str(i)) for i in range(10)], 0.5, 3
    )


def _metric_edits(text: str) -> dict[str, Callable[[str], str]]:
    """One edit per metric line whose value is not 0 (x 1.1 or + 1): what a resealed edit of
    that line of the tally stream gives after re-parsing."""
    out: dict[str, Callable[[str], str]] = {}
    for i, line in enumerate(text.splitlines()):
        name, _, value = line.partition("\t")
        if value in ("", "0", "0.000000") or name == "acct_ok":
            continue
        factor = 1.1 if "." in value else 1 + 1 / max(1.0, float(value))
        out[f"{name}_x{factor:.3g}"] = lambda t, i=i, f=factor: "".join(
            (_scaled(ln, f) if j == i else ln) + "\n" for j, ln in enumerate(t.splitlines())
        )
    return out


def test_every_resealed_metric_edit_is_caught(
    tree: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    _results, runs = _copy(tree, tmp_path)
    run = runs[0]
    original = (run / "metrics.tsv").read_text()
    edits = _metric_edits(original)
    assert len(edits) >= 20, len(edits)
    quiet = []
    for name, edit in sorted(edits.items()):
        edited = edit(original)
        if edited == original:
            continue
        (run / "metrics.tsv").write_text(edited)
        _redigest(run, "metrics.tsv")
        outcome = verify.verify_run(tree[1], run, tmp_path / name, "r")
        if outcome.status != "differs" or "metrics.tsv differs" not in outcome.reason:
            quiet.append(f"{name}: {outcome}")
    assert not quiet, "\n".join(quiet)


REBIND = ("metrics.tsv", "params.json", "sim.tcl")


@pytest.mark.parametrize("donor", [1, 2, 3])
@pytest.mark.parametrize("files", [REBIND[:1], REBIND[:2], REBIND, REBIND[1:], REBIND[2:]])
def test_every_rebinding_is_caught(
    tree: tuple[Path, dict[str, Any]], tmp_path: Path, donor: int, files: tuple[str, ...]
) -> None:
    """Files of another run (another capacity or seed) copied in, digests recomputed."""
    results, runs = _copy(tree, tmp_path)
    for name in files:
        shutil.copy(runs[donor] / name, runs[0] / name)
    _redigest(runs[0], *files)
    assert main(["verify", str(results), "--all", "--seed", "1"]) == 1
    record = verify.read_record(results)
    assert record and [d["run"] for d in record["differs"]] == [
        str(runs[0].relative_to(results.parent))
    ], record
    assert record["cells_affected"]


def test_a_template_variable_edited_is_caught(
    tree: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    _results, runs = _copy(tree, tmp_path)
    params = json.loads((runs[0] / "params.json").read_text())
    params["params"]["bottleneck_delay_ms"] += 5
    (runs[0] / "params.json").write_text(json.dumps(params, indent=1, sort_keys=True) + "\n")
    _redigest(runs[0], "params.json")
    outcome = verify.verify_run(tree[1], runs[0], tmp_path / "s", "r")
    assert outcome.status == "differs" and "renders" in outcome.reason, outcome


def test_a_build_not_at_hand_is_refused(tree: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    _results, runs = _copy(tree, tmp_path)
    meta = json.loads((runs[0] / "run.json").read_text())
    meta["simulator_sha256"] = "0" * 64
    (runs[0] / "run.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    outcome = verify.verify_run(tree[1], runs[0], tmp_path / "s", "r")
    assert outcome.status == "refused" and "not at hand" in outcome.reason, outcome


def test_the_published_rows_resting_on_a_run_are_named(tmp_path: Path) -> None:
    tables = tmp_path / "dumbbell" / "tables"
    tables.mkdir(parents=True)
    (tables / "diff.csv").write_text(
        "table,row,queue,plr,bottleneck_mbps,buffer,metric,in_pi,has_counterpart\n"
        "Table 3,1,DropTail,0.010000,0.500000,10,tcp_delay_ms_mean,True,True\n"
        "Table 3,2,DropTail,0.010000,0.500000,20,tcp_delay_ms_mean,True,True\n"
        "Table 3,3,DropTail,0.010000,0.500000,10,tcp_drops_total,False,False\n"
    )
    params = {"study": "dumbbell", "queue": "DropTail", "plr": 0.01, "bottleneck_mbps": 0.5}
    rows = verify.published_rows(tmp_path, {**params, "buffer": 10, "seed": 3})
    assert rows == ["table Table 3, row 1, metric tcp_delay_ms_mean, in_pi True"]
    assert verify.published_rows(tmp_path, {**params, "buffer": 50, "seed": 1}) == []
    # A run records its simulator: the study's own rests on the published rows (as a record
    # made before, without one, does), a further simulator's does not.
    own = {**params, "buffer": 10, "seed": 3, "simulator": "ns2"}
    assert verify.published_rows(tmp_path, own) == rows
    assert verify.published_rows(tmp_path, {**own, "simulator": "ns3"}) == []


def test_an_old_record_reads_and_verifies_as_its_own_simulators(
    tree: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    """A params.json made before every run recorded its simulator (no simulator key, run.json
    bound to it) is a run of its study's own simulator: the same runs.csv row, and it verifies."""
    results, runs = _copy(tree, tmp_path)
    run = runs[0]
    params = json.loads((run / "params.json").read_text())
    assert params["simulator"] == "ns2"  # every run records its simulator, the own one too
    row = tables.read_run(run, "ns2")
    assert "simulator" not in row  # an own run's row, as runs.csv had it
    assert tables.read_run(run, "ns3")["simulator"] == "ns2"  # a further simulator's has it
    del params["simulator"]
    (run / "params.json").write_text(json.dumps(params, indent=1, sort_keys=True) + "\n")
    _redigest(run, "params.json")
    assert tables.read_run(run, "ns2") == row
    name = str(run.relative_to(results.parent))
    outcome = verify.verify_run(tree[1], run, tmp_path / "s", name)
    assert outcome.status == "same", outcome

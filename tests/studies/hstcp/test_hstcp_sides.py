"""hstcp's side runs (sides.py): declarations whose streams are checked as the grid's are."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from hstcp_tiny import point, side_specs, tiny

from bufrepro import backends
from bufrepro.backends import factory
from bufrepro.backends.base import RunFailed, execute
from bufrepro.backends.runall import execute_all
from bufrepro.studies.hstcp import sides

NS2 = sides.NS2


def side_cfg() -> dict[str, Any]:
    """The tiny config with one two-flow seed, a one-cell band at a grid cell, and one twin."""
    cfg = tiny()
    block = cfg["hstcp"]
    block["twoflow"]["seeds"] = [1]
    block["band"] = {
        **block["band"],
        "scenario": ["s1"],
        "buffer_frac": [0.1],
        "pacing": [block["tcp"]["pacing"]],
        "access_ratio": [block["topology"]["access_ratio"]],
        "seeds": [1],
    }
    block["twin"] = {"queue": ["DropTail"], "buffer_frac": [0.1], "seeds": [1]}
    return cfg


@pytest.mark.parametrize("kind", sorted(sides.SIDES))
def test_every_side_run_carries_the_stream_checks(kind: str) -> None:
    block = side_cfg()["hstcp"]
    specs = side_specs(block, kind)
    assert specs
    for spec in specs:
        p = spec.params
        assert spec.parser_args["buffer"] == p["buffer_pkts"]
        assert spec.parser_args["flows"] == len(p["flows"])
        assert spec.parser_args["sample_s"] == p["sample_s"]
        assert spec.kept_files == sides.SIDES[kind].declaration.kept_files
        assert spec.run_dir.as_posix().startswith(f"results/hstcp/{kind}/")


@pytest.mark.usefixtures("ns_available")
@pytest.mark.parametrize(("variable", "wrong"), [("buffer", 1), ("flows", 5), ("sample_s", 0.5)])
def test_a_side_run_whose_header_disagrees_fails(tmp_path: Path, variable: str, wrong: Any) -> None:
    # A real tiny two-flow run on ns-2; the parser is told another buffer, flow count or sample
    # interval than the scenario writes into the stream's M line: the run must fail.
    cfg = side_cfg()
    spec = side_specs(cfg["hstcp"], "twoflow", tmp_path)[0]
    assert spec.parser_args[variable] != wrong
    told = dataclasses.replace(spec, parser_args={**spec.parser_args, variable: wrong})
    with pytest.raises(RunFailed, match=f"{variable} [0-9.]+ in the stream, {wrong} expected"):
        execute(backends.get("ns2", cfg), told, False)
    assert not (spec.run_dir / "metrics.tsv").exists()


@pytest.mark.usefixtures("ns_available")
def test_the_bands_unpaced_run_at_the_grids_ratio_reuses_the_grid_run(tmp_path: Path) -> None:
    # The grid's run at s1, DropTail, 0.1, seed 1 and the band's run at the same cell with the
    # a-priori pacing and access ratio simulate the same events: the second takes the first's
    # metrics, as the rule file says.
    cfg = side_cfg()
    block = cfg["hstcp"]
    grid = factory.Bound("hstcp", "ns2", NS2, block)
    first = factory.spec(grid, point(block, "DropTail", 0.1, 1), tmp_path)
    band = side_specs(block, "band", tmp_path)
    assert len(band) == 1
    done = execute_all(backends.get("ns2", cfg), [first, band[0]], False, "grid and band")
    assert [d.status for d in done] == ["ran", "reused"]
    metrics = [(d.spec.run_dir / "metrics.tsv").read_bytes() for d in done]
    assert metrics[0] == metrics[1]

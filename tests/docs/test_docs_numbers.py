"""The numbers the docs tie to the pipeline (`N <!-- n: KEY -->`) are the pipeline's: each KEY is
computed here with the project's own planning code and compared with the number written."""

from __future__ import annotations

import csv
import functools
import re
from typing import Any

import pytest
import yaml
from docs_markup import REPO, numbers, pages, rel

from bufrepro import registry
from bufrepro.backends.simulators import ns3
from bufrepro.experiments.link import ns3 as link_ns3
from bufrepro.kit import stats
from bufrepro.pipeline import batch, bench, configuration, evidence, plan, progress, verify

PROFILES = {
    "quick": "config/quick.yaml",
    "default": "",
    "full": "config/full.yaml",
    "ns3hstcp": "config/ns3-hstcp.yaml",
}


@functools.cache
def config(profile: str) -> dict[str, Any]:
    path = PROFILES[profile]
    return configuration.load(REPO / path) if path else configuration.load()


def value(key: str) -> int:
    """What KEY stands for:
    runs.P           every run the workflow plans for profile P (the progress line's total);
    runs.P.S         study S's part of it (grid, its own rules' runs, its readings' runs);
    runs.P.S.B       study S's grid on a further simulator B (its results/S/B/ runs);
    runs.P.on.B      every study's grid on further simulator B, added up;
    grid.P.S         study S's grid runs alone (grid points x seeds);
    published.F      rows of published/F.csv;
    assumptions.S    the named assumptions of study S (its config's `assumptions` block);
    assumptions.link.ns3  the link experiment's named ns-2 -> ns-3 mappings (its ns3.yaml);
    seeds.P.S        the seeds study S runs in profile P;
    seeds.P.S.B      the seeds of study S's grid on further simulator B (simulator_grid);
    seeds.P.min, seeds.P.max  the fewest and the most seeds a study of profile P runs;
    pi.min_seeds     the fewest seeds a prediction interval exists for (kit/stats.py);
    verify.sample.P.PCT  the runs `bufrepro verify --sample PCT/100` checks of P's whole tree;
    ns3.P.V          the default of variable V in the ns-3 program ns3/P.cc (`V = N` where
                     it is declared; every program declaring V must agree);
    ns3.queue.Q.A    the number in attribute A's default of queue Q in the ns3 backend's
                     queue table (backends/ns3.QUEUES; "5ms": 5);
    evidence.min_seeds  the fewest seeds a judged result rests on (pipeline/evidence.py);
    evidence.min_readings  the fewest readings a readings verdict is judged on (same module);
    runs_per_job.S   the runs one batch job of study S carries in the default config;
    batches.P        the batch jobs (`run_batch`, a cluster job each under profiles/slurm)
                     profile P plans: every scope's grid, further simulators and side runs;
    batches.P.S      study S's part of them;
    batched.P        the runs those jobs carry;
    readings.P       the readings stage's runs (local rules: where Snakemake runs);
    slurm.K1.K2...   a whole number of profiles/slurm/config.yaml (`N * attempt`: N);
    studies          the studies found."""
    parts = key.split(".")
    if parts[0] == "runs" and len(parts) == 4 and parts[2] == "on":
        cfg = config(parts[1])
        return sum(value(f"runs.{parts[1]}.{s}.{parts[3]}") for s in simulated_on(cfg, parts[3]))
    if parts[0] == "runs" and len(parts) == 2:
        return len(progress.planned(config(parts[1])))
    if parts[0] == "runs" and len(parts) == 3:
        return len(bench.all_specs(config(parts[1]), parts[2]))
    if parts[0] == "runs" and len(parts) == 4:
        return sum(len(b) for b in plan.batches(config(parts[1]), parts[2], parts[3]))
    if parts[0] == "grid" and len(parts) == 3:
        cfg = config(parts[1])
        return len([plan.spec(cfg, p) for p in registry.get(parts[2]).runs(cfg[parts[2]])])
    if parts[0] == "published" and len(parts) == 2:
        with (REPO / "published" / f"{parts[1]}.csv").open(encoding="utf-8") as fh:
            return sum(1 for _ in csv.DictReader(fh))
    if key == "assumptions.link.ns3":
        return len(link_ns3.assumptions())
    if parts[0] == "assumptions" and len(parts) == 2:
        return len(config("default")[parts[1]]["assumptions"])
    if parts[0] == "seeds" and len(parts) == 3 and parts[2] in ("min", "max"):
        cfg = config(parts[1])
        counts = [len(cfg[s]["seeds"]) for s in cfg["studies"]]
        return min(counts) if parts[2] == "min" else max(counts)
    if parts[0] == "seeds" and len(parts) == 3:
        return len(config(parts[1])[parts[2]]["seeds"])
    if parts[0] == "seeds" and len(parts) == 4:
        cfg = config(parts[1])
        grid = cfg.get("simulator_grid", {}).get(parts[2], {}).get(parts[3]) or {}
        return len(grid.get("seeds", cfg[parts[2]]["seeds"]))
    if key == "pi.min_seeds":
        return next(n for n in range(1, 100) if stats.prediction_half_width(1.0, n) > 0)
    if parts[:2] == ["verify", "sample"] and len(parts) == 4:
        runs = range(value(f"runs.{parts[2]}"))
        return len(verify.pick([REPO / str(r) for r in runs], int(parts[3]) / 100, 1))
    if parts[:2] == ["ns3", "queue"] and len(parts) == 4:
        return int(re.fullmatch(r"(\d+)(ms)?", ns3.QUEUES[parts[2]].attrs[parts[3]])[1])
    if parts[0] == "ns3" and len(parts) == 3:
        return program_default(parts[1], parts[2])
    if key == "evidence.min_seeds":
        return evidence.MIN_SEEDS
    if key == "evidence.min_readings":
        return evidence.MIN_READINGS
    if key == "studies":
        return len(registry.names())
    if parts[0] == "runs_per_job" and len(parts) == 2:
        return plan.runs_per_job(config("default"), registry.get(parts[1]))
    if parts[0] in ("batches", "batched") and len(parts) in (2, 3):
        cuts = scope_batches(config(parts[1]), parts[2] if len(parts) == 3 else "")
        return len(cuts) if parts[0] == "batches" else sum(len(b) for b in cuts)
    if parts[0] == "readings" and len(parts) == 2:
        cfg = config(parts[1])
        return sum(len(bench.reading_specs(cfg, s)) for s in cfg["studies"])
    if parts[0] == "slurm" and len(parts) >= 2:
        return slurm_setting(parts[1:])
    raise KeyError(f"unknown number key {key!r} (see value()'s docstring)")


def scope_batches(cfg: dict[str, Any], study: str) -> list[list[Any]]:
    """Every batch of the config's study scopes (all studies', or study's alone): the run_batch
    jobs the workflow plans (rules/simulate.smk; experiments are not counted)."""
    scopes = [s for s in batch.scopes(cfg) if not s.experiment and study in ("", s.owner)]
    if not scopes:
        raise KeyError(f"no batch scope of study {study!r}")
    return [b for s in scopes for b in batch.batches(cfg, s)]


def slurm_setting(path: list[str]) -> int:
    """A whole number of the SLURM profile, at path (`60 * attempt` counts as 60)."""
    found: Any = yaml.safe_load((REPO / "profiles/slurm/config.yaml").read_text(encoding="utf-8"))
    for part in path:
        if not isinstance(found, dict) or part not in found:
            raise KeyError(f"profiles/slurm/config.yaml has no {'.'.join(path)}")
        found = found[part]
    m = re.fullmatch(r"(\d+)( \* attempt)?", str(found))
    if isinstance(found, bool) or not m:
        raise KeyError(f"profiles/slurm/config.yaml: {'.'.join(path)} = {found!r}, not whole")
    return int(m[1])


def simulated_on(cfg: dict[str, Any], backend: str) -> list[str]:
    """The studies whose grid profile cfg also runs on further simulator `backend`."""
    return [s for s in cfg["studies"] if backend in plan.other_simulators(cfg, s)]


def program_default(program: str, variable: str) -> int:
    """The default an ns-3 program gives a variable where it declares it (`name = N`): ns3/P.cc
    must declare it, every program of ns3/ that declares it must agree, and it must be whole."""
    pattern = re.compile(rf"\b{re.escape(variable)} = ([0-9.]+)[,;]")
    found = {
        cc.stem: {float(v) for v in pattern.findall(cc.read_text(encoding="utf-8"))}
        for cc in sorted((REPO / "ns3").glob("*.cc"))
    }
    values = set().union(*found.values())
    if not found.get(program) or len(values) != 1 or not float(min(values)).is_integer():
        raise KeyError(f"ns3.{program}.{variable}: defaults {found}")
    return int(values.pop())


CASES = sorted({(rel(p), n, k) for p in pages() for n, k in numbers(p)})


def test_the_docs_tie_numbers() -> None:
    keys = {k for _, _, k in CASES}
    assert {"runs.quick", "runs.default"} <= keys, keys


@functools.cache
def cached(key: str) -> int:
    return value(key)


@pytest.mark.parametrize(("page", "written", "key"), CASES)
def test_number_is_the_pipelines(page: str, written: str, key: str) -> None:
    got = cached(key)
    assert int(written.replace(",", "")) == got, (
        f"{page} says {written} for {key}; the pipeline plans {got:,}"
    )


def test_a_key_nobody_computes_fails() -> None:
    with pytest.raises(KeyError):
        value("runs")
    with pytest.raises(KeyError):
        value("ns3.dumbbell.noSuchVariable")
    with pytest.raises(KeyError):
        value("slurm.slurm-no-account")  # a setting that is not a number
    with pytest.raises(KeyError):
        value("batches.quick.nosuchstudy")


def test_keys_are_computed_from_the_configs() -> None:
    """A sanity check of the computation itself: the quick profile plans fewer runs than the
    default, and the studies' parts add up to the total."""
    assert value("runs.quick") < value("runs.default")
    quick = config("quick")
    parts = [f"runs.quick.{s}" for s in quick["studies"]]
    parts += [
        f"runs.quick.{s}.{b}" for s in quick["studies"] for b in plan.other_simulators(quick, s)
    ]
    assert sum(value(k) for k in parts) == value("runs.quick")
    # Every run is in a batch job or in the readings stage, and the studies' jobs add up.
    assert value("batched.quick") + value("readings.quick") == value("runs.quick")
    assert sum(value(f"batches.quick.{s}") for s in quick["studies"]) == value("batches.quick")

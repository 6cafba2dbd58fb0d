"""Captions and assumption reasons describe the run actually made (rendered from its config)."""

from __future__ import annotations

from typing import Any

import pytest

from bufrepro import registry
from bufrepro.kit import configs
from bufrepro.pipeline import configuration, report_text


def _raw(profile: str) -> dict[str, Any]:
    """The config as Snakemake's report sees it: the files merged, not validated."""
    merged: dict[str, Any] = {}
    for path in [*configuration.default_files(), *configuration.profile_files(profile)]:
        merged = configs.merge(merged, configs.read_yaml(path) or {})
    return merged


def _captions() -> list[tuple[str, str]]:
    return [
        (s, name)
        for s in registry.names()
        for name in (*registry.get(s).figures, *registry.get(s).shown_tables())
    ]


@pytest.mark.parametrize("profile", ["", "quick"])
def test_every_caption_renders_for_both_reports(profile: str) -> None:
    validated = configuration.load(profile=profile)
    raw = _raw(profile)
    for study, name in _captions():
        for cfg in (validated, raw):
            text = report_text.caption(study, name, cfg)
            assert "{{" not in text and "{%" not in text, (study, name)


# What the quick profile runs, and the stale number each caption must not state as the run's.
QUICK_FACTS = [
    ("hstcp", "fig3_droptail_s1", "as run here (50 Mb/s", "(1 Gb/s"),
    ("hstcp", "fig3_droptail_s1", "(625 1000-byte packets in this run)", "12500"),
    ("hstcp", "fig4_droptail_s2", "not in this run's grid", "as run here"),
    ("hstcp", "fig5_twoflow_under", "as run here: 50 Mb/s", "(1 Gb/s"),
    ("ramya", "table1", "this run: 20 s", "(1000 s"),
    ("vegas", "packet_size", "this run: 40 s", "(100 s"),
    ("dumbbell", "delay_vs_throughput", "simulated 20 s", "100 s"),
]


@pytest.mark.parametrize(("study", "name", "present", "stale"), QUICK_FACTS)
def test_quick_profile_captions_state_the_quick_run(
    study: str, name: str, present: str, stale: str
) -> None:
    text = report_text.caption(study, name, configuration.load(profile="quick"))
    assert present in text and stale not in text, text


def test_full_profile_caption_states_the_paper_scale() -> None:
    text = report_text.caption("hstcp", "fig3_droptail_s1", configuration.load(profile=""))
    assert "as run here (1000 Mb/s" in text and "(12500 1000-byte packets in this run)" in text


def test_a_reason_written_for_another_value_says_so() -> None:
    rows = {
        a["key"]: a
        for a in report_text.assumptions("dumbbell", configuration.load(profile="quick"))
    }
    duration = rows["dumbbell.measure.duration_s"]
    assert duration["value"] == "20"
    assert duration["note"] == "this run: 20; the reason is written for the default 100"
    full = report_text.assumptions("dumbbell", configuration.load(profile=""))
    assert not any(a["note"] for a in full)


def test_provenance_names_commit_command_profile_and_ns(tmp_path: Any) -> None:
    cfg = {"studies": ["s"], "profile": "quick"}
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "provenance.json").write_text(
        '{"ns_builds": ["ns2 2.35+dfsg-5"], "ns_versions": ["2.35"]}'
    )
    got = dict(report_text.provenance(cfg, tmp_path, "snakemake --cores 2", ["config/quick.yaml"]))
    assert got["command"] == "snakemake --cores 2" and got["profile"] == "quick"
    assert got["ns builds"] == "ns2 2.35+dfsg-5 (ns-version 2.35; s)"
    assert "clean" in got["git commit"] or "dirty" in got["git commit"]


def test_config_files_in_merge_order() -> None:
    args = ["--cores", "2", "--configfile", "config/quick.yaml", "mine.yaml", "-n"]
    files = report_text.configfiles_of(args, {"profile": "quick"})
    assert files[0] == "config/config.yaml" and files[-2:] == ["config/quick.yaml", "mine.yaml"]
    assert "config/profiles/quick/hstcp.yaml" in files


def test_snakemake_argv_is_empty_outside_snakemake() -> None:
    assert report_text.snakemake_argv() == []

"""STUDY of hstcp: its files exist, its tables and figures are consistent with each other."""

from __future__ import annotations

from bufrepro import registry
from bufrepro.studies.hstcp import STUDY
from conftest import REPO

NS2 = STUDY.declarations()["ns2"]


def test_registered_with_its_files() -> None:
    assert registry.get("hstcp") is STUDY
    assert (REPO / "tcl" / NS2.template).is_file()
    assert (REPO / "awk" / NS2.parser).is_file()
    for name in STUDY.published_files():
        assert (REPO / "published" / name).is_file()
        assert (REPO / "published" / name.replace(".csv", ".spec.yaml")).is_file()
    for fig in STUDY.figures:
        assert (REPO / "report" / "captions" / "hstcp" / f"{fig}.rst").is_file(), fig
    assert (REPO / "config" / "hstcp.schema.yaml").is_file()
    assert (REPO / "config" / "profiles" / "quick" / "hstcp.yaml").is_file()
    assert (REPO / "config" / "profiles" / "full" / "hstcp.yaml").is_file()


def test_tables_and_formats() -> None:
    assert set(STUDY.shown_tables()) <= {*STUDY.tables, *STUDY.rule_tables}
    assert STUDY.float_format("diff") == "%.6g"
    assert STUDY.float_format("model") == "%.9g"
    assert STUDY.float_format("model_vs_sim") == "%.6g"
    assert STUDY.float_format("claims") is None
    smk = (REPO / "rules" / "studies" / "hstcp.smk").read_text()
    for table in STUDY.rule_tables:
        assert f"results/hstcp/tables/{table}.csv" in smk

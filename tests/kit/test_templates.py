"""Scenario templates: StrictUndefined, and Tcl braces untouched by the delimiters."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from bufrepro.kit.templates import environment


def test_misspelt_variable_fails(tmp_path: Path) -> None:
    (tmp_path / "t.tcl.j2").write_text("set x << buffr >>\nproc f {} { return 1 }\n")
    env = environment(tmp_path)
    with pytest.raises(jinja2.UndefinedError, match="buffr"):
        env.get_template("t.tcl.j2").render(buffer=5)


def test_tcl_braces_pass_through(tmp_path: Path) -> None:
    (tmp_path / "t.tcl.j2").write_text("proc f {} { puts {a} }\nset b << b >>\n")
    out = environment(tmp_path).get_template("t.tcl.j2").render(b=3)
    assert out == "proc f {} { puts {a} }\nset b 3\n"
